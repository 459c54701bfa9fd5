import Foundation
import Testing

@testable import RaceLab

@Suite("ScratchSpace: one folder per process, swept when its process is gone")
struct ScratchSpaceTests {
    @Test("folder names encode the owner's pid and start time, and nothing else matches")
    func folderNames() {
        let name = ScratchSpace.folderName(pid: 1234, start: 98765)
        #expect(name == "racelab-1234-98765")
        #expect(ScratchSpace.owner(ofFolderNamed: name)! == (1234, 98765))
        for other in [
            "racelab-child-12-ab", "racelab-12", "racelab-12-34-56", "racelab--1-2", "racelab-0-1",
            "TemporaryDirectory.x", "racelab-١٢-3",
        ] {
            #expect(ScratchSpace.owner(ofFolderNamed: other) == nil, "\(other)")
        }
    }

    @Test("this process counts as running; a pid with another start time, or no process, does not")
    func liveness() throws {
        let pid = getpid()
        let start = try #require(ScratchSpace.startTime(of: pid))
        #expect(ScratchSpace.isRunning(pid: pid, startedAt: start))
        #expect(!ScratchSpace.isRunning(pid: pid, startedAt: start + 1))
        #expect(!ScratchSpace.isRunning(pid: Self.unusedPid(), startedAt: 1))
    }

    @Test("a sweep removes folders of dead processes and leaves live ones and other files alone")
    func sweep() throws {
        let root = try ScratchSpace.makeFolder(label: "sweep-test")
        defer { ScratchSpace.remove(root) }
        let fileManager = FileManager.default
        let me = getpid()
        let live = ScratchSpace.folderName(pid: me, start: try #require(ScratchSpace.startTime(of: me)))
        let dead = ScratchSpace.folderName(pid: Self.unusedPid(), start: 42)
        let reused = ScratchSpace.folderName(pid: me, start: 1)  // my pid, but not my start: a reused pid
        for name in [live, dead, reused, "racelab-child-1-x", "unrelated"] {
            try fileManager.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: false)
            try Data("x".utf8).write(to: root.appendingPathComponent(name).appendingPathComponent("file"))
        }
        let removed = ScratchSpace.sweepStaleFolders(in: root)
        #expect(Set(removed) == [dead, reused])
        #expect(
            try Set(fileManager.contentsOfDirectory(atPath: root.path)) == [live, "racelab-child-1-x", "unrelated"]
        )
    }

    @Test("remove refuses anything outside the process folder")
    func removeStaysInside() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-scratch-test-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: outside) }
        ScratchSpace.remove(outside)
        ScratchSpace.remove(try ScratchSpace.processFolder().appendingPathComponent("../\(outside.lastPathComponent)"))
        #expect(FileManager.default.fileExists(atPath: outside.path))
    }

    /// A pid no process has now (pids above the default `pid_max` of 4,194,304 are never handed out).
    static func unusedPid() -> pid_t {
        var pid: pid_t = 4_194_000
        while kill(pid, 0) == 0 || errno == EPERM { pid += 1 }
        return pid
    }
}
