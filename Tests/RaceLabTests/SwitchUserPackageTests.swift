import Foundation
import RaceLab
import Testing

/// A package built like a user's, by path, whose library code is written against Foundation,
/// Dispatch and Synchronization and knows nothing of RaceLab. Its tests run with the RaceLab switch
/// compiled in through a package trait (`swift test --traits RACELAB`) and default explorer
/// options: each bug is found, each fix passes having explored more than one schedule, and a fix
/// whose threads the explorer cannot interleave (an `Atomic`) fails with the message that says so.
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
        import Synchronization

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

        /// An actor that starts the same download twice: the cache is checked before an `await`.
        public actor Images {
            private var cache: [Int: String] = [:]
            private var inFlight: [Int: Task<String, Never>] = [:]
            public private(set) var downloads = 0
            public init() {}
            private func download(_ id: Int) async -> String {
                downloads += 1
                await Task.yield()
                return "image \\(id)"
            }
            /// Bug: two callers both miss the cache, both download.
            public func image(_ id: Int) async -> String {
                if let hit = cache[id] { return hit }
                let image = await download(id)
                cache[id] = image
                return image
            }
            /// Fix: the second caller awaits the first one's download.
            public func imageOnce(_ id: Int) async -> String {
                if let hit = cache[id] { return hit }
                if let running = inFlight[id] { return await running.value }
                let task = Task { await self.download(id) }
                inFlight[id] = task
                let image = await task.value
                cache[id] = image
                inFlight[id] = nil
                return image
            }
        }

        /// A check-then-act flag with no lock: the set-up runs on a queue between the check and the act.
        public final class Tracker: @unchecked Sendable {
            private let queue = DispatchQueue(label: "tracker")
            private var started = false
            public private(set) var setUps = 0
            public init() {}
            /// Bug: two callers both see `started` false, both set up.
            public func start() {
                guard !started else { return }
                queue.sync { setUps += 1 }
                started = true
            }
            /// Fix: the check and the act in one `sync`.
            public func startOnce() {
                queue.sync {
                    guard !started else { return }
                    started = true
                    setUps += 1
                }
            }
        }

        /// A dictionary read with `sync` and written with an `async` barrier on a concurrent queue.
        public final class Counts: @unchecked Sendable {
            private let queue = DispatchQueue(label: "counts", attributes: .concurrent)
            private var counts: [String: Int] = [:]
            public init() {}
            public func get(_ key: String) -> Int { queue.sync { counts[key] ?? 0 } }
            public func set(_ key: String, _ value: Int) { queue.async(flags: .barrier) { self.counts[key] = value } }
            /// Bug: get, then set plus one: another caller's set between the two is lost.
            public func increment(_ key: String) { set(key, get(key) + 1) }
            /// Fix: the whole update in one barrier.
            public func incrementInBarrier(_ key: String) {
                queue.async(flags: .barrier) { self.counts[key, default: 0] += 1 }
            }
        }

        /// A `Mutex` (Synchronization) whose value is read and written in two critical sections.
        public final class Meter: Sendable {
            private let total = Mutex(0)
            public init() {}
            public var value: Int { total.withLock { $0 } }
            /// Bug: reads, then writes back in a second `withLock`.
            public func addInTwoSteps() {
                let seen = total.withLock { $0 }
                total.withLock { $0 = seen + 1 }
            }
            /// Fix: one `withLock`.
            public func add() { total.withLock { $0 += 1 } }
        }

        /// A `DispatchSemaphore` used as a lock: made with a count of 2 it lets two callers in.
        public final class Gate: @unchecked Sendable {
            private let semaphore: DispatchSemaphore
            private var count = 0
            public init(permits: Int) { semaphore = DispatchSemaphore(value: permits) }
            public var value: Int { semaphore.wait(); defer { semaphore.signal() }; return count }
            public func add() {
                semaphore.wait()
                let seen = count
                semaphore.signal()
                semaphore.wait()
                count = seen + 1
                semaphore.signal()
            }
            public func addOnce() {
                semaphore.wait()
                count += 1
                semaphore.signal()
            }
        }

        /// Loads on a queue in a `DispatchGroup`; the caller reads the results.
        public final class Batch: @unchecked Sendable {
            private let queue = DispatchQueue(label: "batch")
            private let group = DispatchGroup()
            private var results: [Int] = []
            public private(set) var seen = 0
            public init() {}
            /// Bug: reads before the loads have run. Fix (`waits`): waits for the group first.
            public func load(waiting waits: Bool) {
                for item in 0..<2 { queue.async(group: group) { self.results.append(item) } }
                if waits { group.wait() }
                seen = results.count
            }
        }

        /// Hits counted with an `Atomic`, which no switch replaces: the explorer sees no point in it.
        public final class Hits: Sendable {
            private let count = Atomic<Int>(0)
            public init() {}
            public var value: Int { count.load(ordering: .relaxed) }
            public func hit() { count.add(1, ordering: .relaxed) }
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

        func images(_ get: @escaping @Sendable (Images) async -> Void) -> Exploration {
            Exploration(
                summary: "two tasks ask for image 0",
                makeState: { Images() },
                asyncThread: { images, _ in await get(images) },
                invariant: { images, _ in
                    await images.downloads == 1 ? nil : "downloaded \\(await images.downloads) times"
                })
        }
        @Test func duplicateWorkIsFound() async {
            #expect(await expectFailingSchedule(images { _ = await $0.image(0) }) != nil)
        }
        @Test func duplicateWorkFixIsClean() async {
            #expect((await expectNoFailingSchedule(images { _ = await $0.imageOnce(0) })?.schedules ?? 0) > 1)
        }

        func sync<State: Sendable>(
            _ summary: String, threads: Int = 2, _ make: @escaping @Sendable () -> State,
            _ body: @escaping @Sendable (State) -> Void, _ check: @escaping @Sendable (State, Int) -> String?
        ) -> Exploration {
            Exploration(
                summary: summary, defaultThreads: threads, makeState: make, thread: { state, _ in body(state) },
                invariant: check)
        }
        func tracker(_ start: @escaping @Sendable (Tracker) -> Void) -> Exploration {
            sync("two threads start", { Tracker() }, start) { t, _ in t.setUps == 1 ? nil : "set up \\(t.setUps) times" }
        }
        @Test func flagBugIsFound() async { #expect(await expectFailingSchedule(tracker { $0.start() }) != nil) }
        @Test func flagFixIsClean() async {
            #expect((await expectNoFailingSchedule(tracker { $0.startOnce() })?.schedules ?? 0) > 1)
        }
        func counts(_ add: @escaping @Sendable (Counts) -> Void) -> Exploration {
            sync("two threads increment", { Counts() }, add) { c, n in c.get("a") == n ? nil : "count \\(c.get("a"))" }
        }
        @Test func dictionaryBugIsFound() async {
            #expect(await expectFailingSchedule(counts { $0.increment("a") }) != nil)
        }
        @Test func dictionaryFixIsClean() async {
            #expect((await expectNoFailingSchedule(counts { $0.incrementInBarrier("a") })?.schedules ?? 0) > 1)
        }
        func meter(_ add: @escaping @Sendable (Meter) -> Void) -> Exploration {
            sync("two threads add", { Meter() }, add) { m, n in m.value == n ? nil : "value \\(m.value)" }
        }
        @Test func mutexBugIsFound() async { #expect(await expectFailingSchedule(meter { $0.addInTwoSteps() }) != nil) }
        @Test func mutexFixIsClean() async {
            #expect((await expectNoFailingSchedule(meter { $0.add() })?.schedules ?? 0) > 1)
        }
        func gate(_ add: @escaping @Sendable (Gate) -> Void) -> Exploration {
            sync("two threads add", { Gate(permits: 1) }, add) { g, n in g.value == n ? nil : "value \\(g.value)" }
        }
        @Test func semaphoreBugIsFound() async { #expect(await expectFailingSchedule(gate { $0.add() }) != nil) }
        @Test func semaphoreFixIsClean() async {
            #expect((await expectNoFailingSchedule(gate { $0.addOnce() })?.schedules ?? 0) > 1)
        }
        func batch(waits: Bool) -> Exploration {
            sync("one thread loads two", threads: 1, { Batch() }, { $0.load(waiting: waits) }) { b, _ in
                b.seen == 2 ? nil : "saw \\(b.seen) of 2"
            }
        }
        @Test func groupBugIsFound() async { #expect(await expectFailingSchedule(batch(waits: false)) != nil) }
        @Test func groupFixIsClean() async {
            #expect((await expectNoFailingSchedule(batch(waits: true))?.schedules ?? 0) > 1)
        }

        func hits(_ threads: Int) -> Exploration {
            sync("threads hit", threads: threads, { Hits() }, { $0.hit() }) { h, n in h.value == n ? nil : "lost a hit" }
        }
        @Test func oneScheduleFails() async {
            await withKnownIssue {
                _ = await expectNoFailingSchedule(hits(1))
            } matching: { issue in
                issue.comments.map(\\.rawValue).joined().contains("nothing was explored (one schedule ran): finding no failing schedule proves nothing")
            }
        }
        @Test func uninterleavedThreadsFail() async {
            await withKnownIssue {
                _ = await expectNoFailingSchedule(hits(2))
            } matching: { issue in
                let text = issue.comments.map(\\.rawValue).joined()
                return text.contains("threads 0 and 1 finished without reaching a scheduling point")
                    && text.contains("compile the code under test with the RaceLab switch")
            }
        }
        """

    @Test("each bug is found with default options, and each fix passes having explored more than one schedule")
    func switchedPackageFindsEachBug() async throws {
        // The switch file as shipped, copied unchanged.
        let raceLabSwitch = try String(
            contentsOf: UserPackageTests.repository.appendingPathComponent(
                "Examples/RaceLabSwitch/RaceLabSwitch.swift"
            ),
            encoding: .utf8
        )
        let folder = try UserPackageTests.package(
            "switch-package",
            files: [
                "Package.swift": Self.manifest,
                "Sources/Shop/Shop.swift": Self.library,
                "Sources/Shop/RaceLabSwitch.swift": raceLabSwitch,
                "Tests/ShopTests/ShopTests.swift": Self.tests,
            ]
        )
        defer { try? FileManager.default.removeItem(at: folder) }

        let (status, text) = try await UserPackageTests.swiftTest(
            folder,
            scratch: ".build-switch-package",
            "--traits",
            "RACELAB"
        )

        try #require(text.contains("protectedBugIsFound"), "the package did not build or run:\n\(text.suffix(3000))")
        #expect(status == 0, "\(text.suffix(4000))")
        for test in [
            "protectedBugIsFound", "protectedFixIsClean", "thumbnailBugIsFound", "thumbnailFixIsClean",
            "staleSnapshotIsFound", "staleSnapshotFixIsClean", "duplicateWorkIsFound", "duplicateWorkFixIsClean",
            "flagBugIsFound", "flagFixIsClean", "dictionaryBugIsFound", "dictionaryFixIsClean", "mutexBugIsFound",
            "mutexFixIsClean", "semaphoreBugIsFound", "semaphoreFixIsClean", "groupBugIsFound", "groupFixIsClean",
            "oneScheduleFails", "uninterleavedThreadsFail",
        ] {
            #expect(text.contains("Test \(test)() passed"), "\(test):\n\(text.suffix(3000))")
        }
    }
}
