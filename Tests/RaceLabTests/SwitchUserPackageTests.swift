import Foundation
import RaceLab
import Testing

/// A package built like a user's, by path, whose library code is written against Foundation and
/// Dispatch and knows nothing of RaceLab. Its tests run with the RaceLab switch compiled in through
/// a package trait (`swift test --traits RACELAB`) and default explorer options: each bug is found,
/// and each fix passes having explored more than one schedule.
@Suite(
    "The RaceLab switch: a user's unchanged code, explored with default options",
    .disabled(if: ThreadSanitizer.isActive, "builds and runs a whole package; the TSan run covers RaceLab itself")
)
struct SwitchUserPackageTests {
    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "Shop",
            platforms: [.macOS(.v15)],
            traits: [.trait(name: "RACELAB", description: "Compile Shop against RaceLab's primitives")],
            dependencies: [.package(name: "RaceLab", path: "\(UserPackageTests.repository.path)")],
            targets: [
                .target(
                    name: "Shop",
                    dependencies: [
                        .product(name: "RaceLab", package: "RaceLab", condition: .when(traits: ["RACELAB"]))
                    ]
                ),
                .testTarget(
                    name: "ShopTests",
                    dependencies: ["Shop", .product(name: "RaceLabTesting", package: "RaceLab")]
                ),
            ]
        )
        """

    /// The user's code: shapes of real bugs and their fixes, with no RaceLab in sight.
    static let library = """
        import Foundation

        /// A `Protected`-style wrapper around `NSLock`.
        public final class Protected<Value>: @unchecked Sendable {
            private let lock = NSLock()
            private var value: Value
            public init(_ value: Value) { self.value = value }
            public func read<T>(_ body: (Value) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(value) }
            public func write(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
        }

        /// Bug: reads, then writes back in a second critical section.
        public func addOneInTwoSteps(_ counter: Protected<Int>) {
            let seen = counter.read { $0 }
            counter.write { $0 = seen + 1 }
        }

        /// Fix: one critical section.
        public func addOne(_ counter: Protected<Int>) { counter.write { $0 += 1 } }

        /// A cache behind a serial `DispatchQueue`; `render` counts the expensive work.
        public final class Thumbnails: @unchecked Sendable {
            private let queue = DispatchQueue(label: "thumbnails")
            private var cache: [Int: String] = [:]
            public private(set) var renders = 0
            public init() {}
            /// Bug: the check and the act are two `sync`s: two callers both miss, both render.
            public func thumbnail(_ key: Int) -> String {
                if let hit = queue.sync(execute: { cache[key] }) { return hit }
                let made = "thumbnail \\(key)"
                queue.sync { renders += 1; cache[key] = made }
                return made
            }
            /// Fix: check and act in one `sync`.
            public func thumbnailOnce(_ key: Int) -> String {
                queue.sync {
                    if let hit = cache[key] { return hit }
                    renders += 1
                    cache[key] = "thumbnail \\(key)"
                    return cache[key]!
                }
            }
        }

        /// An actor that writes back a stale snapshot after an `await`.
        public actor Account {
            public private(set) var balance = 0
            public init() {}
            /// Bug: reads, suspends, writes back what it read plus the amount.
            public func deposit(_ amount: Int) async {
                let before = balance
                await Task.yield()
                balance = before + amount
            }
            /// Fix: suspends first, then reads and writes in one job.
            public func depositAfterAudit(_ amount: Int) async {
                await Task.yield()
                balance += amount
            }
        }
        """

    static let tests = """
        import RaceLabTesting
        import Shop
        import Testing

        func counter(_ add: @escaping @Sendable (Protected<Int>) -> Void) -> Exploration {
            Exploration(
                summary: "two threads add one",
                makeState: { Protected(0) },
                thread: { counter, _ in add(counter) },
                invariant: { counter, threads in counter.read { $0 } == threads ? nil : "lost an add" })
        }

        func thumbnails(_ get: @escaping @Sendable (Thumbnails) -> Void) -> Exploration {
            Exploration(
                summary: "two threads ask for thumbnail 0",
                makeState: { Thumbnails() },
                thread: { cache, _ in get(cache) },
                invariant: { cache, _ in cache.renders == 1 ? nil : "rendered \\(cache.renders) times" })
        }

        func account(_ deposit: @escaping @Sendable (Account) async -> Void) -> Exploration {
            Exploration(
                summary: "two tasks deposit 10",
                makeState: { Account() },
                asyncThread: { account, _ in await deposit(account) },
                invariant: { account, threads in
                    await account.balance == 10 * threads ? nil : "balance \\(await account.balance)"
                })
        }

        @Test func protectedBugIsFound() async {
            #expect(await expectFailingSchedule(counter(addOneInTwoSteps)) != nil)
        }
        @Test func protectedFixIsClean() async {
            #expect((await expectNoFailingSchedule(counter(addOne))?.schedules ?? 0) > 1)
        }
        @Test func thumbnailBugIsFound() async {
            #expect(await expectFailingSchedule(thumbnails { _ = $0.thumbnail(0) }) != nil)
        }
        @Test func thumbnailFixIsClean() async {
            #expect((await expectNoFailingSchedule(thumbnails { _ = $0.thumbnailOnce(0) })?.schedules ?? 0) > 1)
        }
        @Test func staleSnapshotIsFound() async {
            #expect(await expectFailingSchedule(account { await $0.deposit(10) }) != nil)
        }
        @Test func staleSnapshotFixIsClean() async {
            #expect((await expectNoFailingSchedule(account { await $0.depositAfterAudit(10) })?.schedules ?? 0) > 1)
        }
        """

    @Test("each bug is found with default options, and each fix passes having explored more than one schedule")
    func switchedPackageFindsEachBug() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("racelab-switch-package-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Sources/Shop")
        let tests = folder.appendingPathComponent("Tests/ShopTests")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Self.manifest.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try Self.library.write(to: sources.appendingPathComponent("Shop.swift"), atomically: true, encoding: .utf8)
        // The switch file as shipped, copied unchanged.
        try FileManager.default.copyItem(
            at: UserPackageTests.repository.appendingPathComponent("Examples/RaceLabSwitch/RaceLabSwitch.swift"),
            to: sources.appendingPathComponent("RaceLabSwitch.swift")
        )
        try Self.tests.write(to: tests.appendingPathComponent("ShopTests.swift"), atomically: true, encoding: .utf8)

        let scratch = UserPackageTests.repository.appendingPathComponent(".build-switch-package").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "test", "--package-path", folder.path, "--scratch-path", scratch, "--traits", "RACELAB",
        ]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "RACELAB_SEED")
        environment.removeValue(forKey: "RACELAB_REPLAY")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)

        try #require(text.contains("protectedBugIsFound"), "the package did not build or run:\n\(text.suffix(3000))")
        #expect(process.terminationStatus == 0, "\(text.suffix(4000))")
        for test in [
            "protectedBugIsFound", "protectedFixIsClean", "thumbnailBugIsFound", "thumbnailFixIsClean",
            "staleSnapshotIsFound", "staleSnapshotFixIsClean",
        ] {
            #expect(text.contains("Test \(test)() passed"), "\(test):\n\(text.suffix(3000))")
        }
    }
}
