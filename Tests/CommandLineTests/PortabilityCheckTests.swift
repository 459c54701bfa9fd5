// portable-file: the violations below are string fixtures, written to a scratch tree and checked there
import Foundation
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `Scripts/check-portability` is what stands between RaceLab and a build that breaks on a Mac no
/// one here can reach. These tests plant each violation it exists for in a scratch tree and show it
/// caught, and show the same code accepted where it belongs, so a check that finds nothing (or
/// everything) fails here.
@Suite("check-portability catches each Linux-only construct outside its place")
struct PortabilityCheckTests {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs the script on a scratch tree holding `files` (path → contents).
    static func check(_ files: [String: String]) async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-portability-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(contents.utf8).write(to: url)
        }
        return try await run(root.path)
    }

    static func run(_ root: String) async throws -> Result {
        let script = repositoryRoot.appendingPathComponent("Scripts/check-portability")
        let (status, output) = try await Executable.capture(script, [root], stderr: .merged)
        return Result(status: status, output: output)
    }

    static let twinImports = """
        #if canImport(Darwin)
        import Darwin
        #elseif canImport(Glibc)
        import Glibc
        #endif

        """

    /// One planted violation per rule: the file, its contents, and the rule the report must name.
    static let planted: [(name: String, path: String, contents: String, rule: String)] = [
        ("Glibc.write", "Sources/Lib/Write.swift", twinImports + "let n = Glibc.write(1, nil, 0)\n", "qualified-call"),
        ("Darwin.close", "Lessons/01-x/Close.swift", twinImports + "_ = Darwin.close(3)\n", "qualified-call"),
        ("import Glibc alone", "Tests/XTests/T.swift", "#if canImport(Glibc)\nimport Glibc\n#endif\n", "import-twin"),
        ("/proc", "Sources/Lib/Exe.swift", "let me = \"/proc/self/exe\"\n", "linux-only"),
        ("setarch", "Sources/Lib/Arch.swift", "let tool = \"/usr/bin/setarch\"\n", "linux-only"),
        ("F_OFD_SETLKW", "Lessons/04-x/Lock.swift", "let command = F_OFD_SETLKW\n", "linux-only"),
        ("futex", "Sources/Lib/Wait.swift", "futex_wait(&word, 0)\n", "linux-only"),
        ("F_SETPIPE_SZ", "Sources/Lib/Pipe.swift", "_ = fcntl(fd, F_SETPIPE_SZ, 1 << 20)\n", "linux-only"),
        (
            "/proc in the #else of os(Linux)", "Sources/Lib/Else.swift",
            "#if os(Linux)\nlet a = 1\n#else\nlet p = \"/proc\"\n#endif\n", "linux-only"
        ),
        (
            "posix_spawnattr_t()", "Sources/Lib/Spawn.swift", "var attributes = posix_spawnattr_t()\n",
            "spawn-initialiser"
        ),
        (
            "posix_spawn_file_actions_t()", "Tests/XTests/S.swift", "var a = posix_spawn_file_actions_t()\n",
            "spawn-initialiser"
        ),
        (
            "os(macOS) where typecheck-darwin does not look", "Examples/Demo/Sources/Demo/Mac.swift",
            "#if os(macOS)\nlet a = 1\n#endif\n", "darwin-unchecked"
        ),
        (
            "canImport(UIKit), which typecheck-darwin cannot evaluate", "Sources/Lib/UI.swift",
            "#if canImport(UIKit)\nimport UIKit\n#endif\n", "darwin-unchecked"
        ),
        (
            "os(tvOS) outside the library modules", "Lessons/01-x/TV.swift", "#if os(tvOS)\nlet a = 1\n#endif\n",
            "darwin-unchecked"
        ),
        ("sed -i", "Makefile", "fix:\n\tsed -i 's/a/b/' file\n", "gnu-only"),
        ("sed -E -i", "Scripts/fix", "#!/bin/sh\nsed -E -i 's/a/b/' file\n", "gnu-only"),
        ("readlink -f", "Scripts/where", "#!/bin/sh\nhere=$(readlink -f \"$0\")\n", "gnu-only"),
        ("timeout", ".ci/run", "#!/bin/sh\ntimeout 60 make test\n", "gnu-only"),
        ("nproc", "Makefile", "JOBS := $(shell nproc)\n", "gnu-only"),
    ]

    @Test("a planted violation fails the check and is named", arguments: planted.indices)
    func plantedViolation(_ index: Int) async throws {
        let violation = Self.planted[index]
        let result = try await Self.check([violation.path: violation.contents])
        #expect(result.status == 1, "\(violation.name): \(result.output)")
        #expect(result.output.contains("\(violation.path):"), "\(violation.name): \(result.output)")
        #expect(result.output.contains(": \(violation.rule):"), "\(violation.name): \(result.output)")
    }

    @Test("the same constructs where they belong pass: under os(Linux), in the platform layer, in comments")
    func acceptedPlaces() async throws {
        let result = try await Self.check([
            "Sources/Lib/Linux.swift": Self.twinImports + """
                // /proc, setarch and futex in a comment are words, not calls
                /* F_OFD_SETLKW in a block comment */
                #if os(Linux)
                let me = "/proc/self/exe"
                let command = F_OFD_SETLKW
                #else
                let me = "unknown"
                #endif
                #if !os(Linux)
                let x = 1
                #else
                let tool = "/usr/bin/setarch"
                #endif
                """,
            "Sources/Lib/Platform/Spawn.swift": "var attributes = posix_spawnattr_t()\n",
            "Sources/Lib/Help.swift": "// portable: help text about the Linux retry\nlet help = \"setarch -R\"\n",
            "Makefile": "fix:\n\tsed -i.bak 's/a/b/' file && rm file.bak\n\t$(RACELAB) run --timeout 5\n",
            "Scripts/where": "#!/bin/sh\n# readlink -f and nproc in a comment\nEXERCISE_TIMEOUT=5\n",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 exemption(s)"), "\(result.output)")
    }

    @Test("the repository itself passes")
    func repositoryPasses() async throws {
        let result = try await Self.run(repositoryRoot.path)
        #expect(result.status == 0, "\(result.output)")
    }
}
