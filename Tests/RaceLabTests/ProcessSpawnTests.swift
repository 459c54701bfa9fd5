import Foundation
import Testing

@testable import RaceLab

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

@Suite("ProcessSpawn: the platform layer that starts children")
struct ProcessSpawnTests {
    /// Runs `script` with `/bin/sh -c` through `ProcessSpawn` and returns its exit status and stdout.
    static func shell(_ script: String, environment: [String: String] = [:]) throws -> (Int32, String) {
        let folder = try ScratchSpace.makeFolder(label: "spawn-test")
        defer { ScratchSpace.remove(folder) }
        let output = folder.appendingPathComponent("stdout").path
        let pid = try ProcessSpawn.spawn(
            "/bin/sh",
            arguments: ["-c", script],
            environment: ProcessSpawn.environment(adding: environment),
            stdout: .file(output),
            stderr: .nullDevice,
            newProcessGroup: true
        )
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                Issue.record("waitpid failed: \(errno)")
                break
            }
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        "a child inherits no descriptor of the parent beyond stdin, stdout and stderr",
        .enabled(if: ProcessSpawn.closesOtherDescriptors, "this Glibc has no posix_spawn_file_actions_addclosefrom_np")
    )
    func noInheritedDescriptors() throws {
        // A descriptor without FD_CLOEXEC: exactly what posix_spawn would pass on by default.
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor > 2)
        defer { close(descriptor) }
        let (status, output) = try Self.shell(
            "if [ -e /dev/fd/\(descriptor) ]; then echo inherited; else echo closed; fi"
        )
        #expect(status == 0)
        #expect(output == "closed")
    }

    @Test("the child gets the environment it is given, and its stdout goes to the file")
    func environmentAndOutput() throws {
        let (status, output) = try Self.shell(
            "echo \"$RACELAB_SPAWN_TEST\"; exit 7",
            environment: ["RACELAB_SPAWN_TEST": "seen"]
        )
        #expect(status == 7)
        #expect(output == "seen")
    }

    @Test("a program that does not exist is a Failure naming posix_spawn and ENOENT")
    func missingProgram() {
        #expect {
            _ = try ProcessSpawn.spawn(
                "/nonexistent/racelab-\(UUID().uuidString)",
                arguments: [],
                environment: [:],
                stdout: .nullDevice,
                stderr: .nullDevice,
                newProcessGroup: false
            )
        } throws: { error in
            guard let failure = error as? ProcessSpawn.Failure else { return false }
            return failure.call == "posix_spawn" && failure.code == ENOENT
        }
    }

    @Test("a variant whose process cannot start is an ERROR, never a crash or the bug")
    func unstartableVariantIsError() {
        let lesson = Lesson(
            number: 99,
            slug: "spawn",
            title: "spawn",
            summary: "spawn",
            workload: Workload(trials: 1, iterations: 1),
            variants: [Synthetic.dropping(every: 1)]
        )
        let request = IsolatedRun.Request(
            lesson: lesson,
            variant: lesson.variants[0],
            options: .trials(1, iterations: 1),
            timeout: 10
        )
        let report = IsolatedRun.run(request, executable: "/nonexistent/racelab-\(UUID().uuidString)")
        #expect(report.verdict == .error)
        #expect(!report.crashed)
        #expect(report.verdictReason.contains("could not be started"))
    }

    @Test("signal names come from the platform's numbers")
    func signalNames() {
        #expect(signalName(SIGSEGV) == "SIGSEGV")
        #expect(signalName(SIGBUS) == "SIGBUS")
        #expect(signalName(SIGILL) == "SIGILL")
        #expect(signalName(SIGKILL) == "SIGKILL")
        #expect(signalName(200) == "signal 200")
    }
}
