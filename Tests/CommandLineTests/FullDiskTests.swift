import Foundation
import RaceLab
import Testing

/// A tmpfs of a few kilobytes: a real full disk, for checking that `ENOSPC` is reported as an error
/// and never as a bug. Mounting needs Linux and the right to mount (root in CI); where mounting a
/// probe file system fails, the tests that need one are disabled rather than passed.
enum TinyFileSystem {
    static let available: Bool = {
        #if os(Linux)
        guard let probe = try? mount(kilobytes: 4) else { return false }
        unmount(probe)
        return true
        #else
        return false
        #endif
    }()

    /// Mounts a tmpfs of `kilobytes` on a new folder and returns the folder.
    ///
    /// - Parameter readOnly: mount it read-only: a folder no process can write to, root included
    ///   (file permissions do not stop root).
    static func mount(kilobytes: Int, readOnly: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-tiny-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let options = "size=\(kilobytes)k" + (readOnly ? ",ro" : "")
        let status = run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw POSIXError(.EPERM)
        }
        return folder
    }

    static func unmount(_ folder: URL) {
        _ = run("/bin/umount", [folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Not under ThreadSanitizer: there the racelab processes die before `main`, in the TSan runtime.
/// At startup every TSan process writes a 512 KiB file of shadow markers, `$TMPDIR/tsan.rodata.<pid>`,
/// does not check that the write was complete, and maps the file over the shadow of its read-only
/// data (compiler-rt, `tsan_platform_linux.cpp`, `MapRodata`). On a 4 or 64 KiB tmpfs the write stops
/// short, and the first read of the mapping past the file's end is `SIGBUS`: "ThreadSanitizer: BUS
/// on unknown address", exit 66, as `strace` shows (`openat(".../tsan.rodata.N")`, a 512 KiB
/// `write` returning 4096, `mmap(..., fd, 0)` of it, then `SIGBUS`). No RaceLab code has run yet,
/// so there is nothing of ours to test.
@Suite(
    "A full disk is an error, never a bug: lesson 5 on a tiny tmpfs",
    .enabled(if: TinyFileSystem.available, "needs Linux and the right to mount a tmpfs"),
    .disabled(
        if: ThreadSanitizer.isActive,
        "the TSan runtime itself dies (SIGBUS) at startup when TMPDIR is full: it maps a 512 KiB file it writes there"
    )
)
struct FullDiskTests {
    /// `racelab run 5 --trials 3 --json` with its temporary files (TMPDIR) on a tmpfs of `kilobytes`.
    static func runLesson5(onTmpfsOf kilobytes: Int) async throws -> Executable.Output {
        let disk = try TinyFileSystem.mount(kilobytes: kilobytes)
        defer { TinyFileSystem.unmount(disk) }
        return try await Executable.racelab.run(
            ["run", "5", "--trials", "3", "--json"],
            environment: ["TMPDIR": disk.path]
        )
    }

    @Test("when no trial can even set up, every variant says ERROR and the run exits 3")
    func nothingFits() async throws {
        let output = try await Self.runLesson5(onTmpfsOf: 4)
        #expect(output.status == 3, "stderr: \(output.stderr)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(output.stdout.utf8))
        let variants = try #require(report.lessons.first?.variants)
        #expect(
            variants.map(\.name) == [
                "no-barrier", "two-stores", "shared-staging-name", "non-atomic-write", "encode-in-barrier", "fixed",
            ]
        )
        #expect(variants.allSatisfy { $0.verdict == .error })
        #expect(variants.allSatisfy { $0.lostWrites == 0 && $0.anomalousTrials == 0 })
        #expect(
            variants.allSatisfy { $0.verdictReason.contains("No space left on device") },
            "\(variants.map(\.verdictReason))"
        )
    }

    @Test("when some stores fit and some do not, no verdict rests on a trial that hit the full disk")
    func someFit() async throws {
        let output = try await Self.runLesson5(onTmpfsOf: 64)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(output.stdout.utf8))
        for variant in try #require(report.lessons.first?.variants) {
            // Evidence may only come from trials without errors.
            #expect(variant.anomalousTrials + variant.errorTrials <= variant.trials, "\(variant.name)")
            if variant.errorTrials == variant.trials {
                #expect(variant.verdict == .error, "\(variant.name): \(variant.verdictReason)")
            }
            // The fixed store has no race: whatever the disk does, it must never be judged FAILED.
            if variant.kind == .fixed { #expect(variant.verdict != .failed, "\(variant.verdictReason)") }
        }
    }
}
