import Foundation
import RaceLab
import RaceLabCommandLine
import Testing

@testable import CoordinatorLocking

/// Four processes increment one file at the same time, each from several threads: the job
/// `NSFileCoordinator` exists for. Each process is an exit test (a copy of this test binary) that
/// runs the lesson's `increment` worker through `racelab`'s hidden `_worker` command (a `WorkerRequest`), the way the
/// cross-process variant's worker processes do.
@Suite("Worker processes sharing one counter file")
struct CrossProcessTests {
    static let processes = 4
    static let incrementsEach = 400

    /// Runs `processes` worker processes on one counter file and returns its final value and how
    /// many writing claims were granted while another was held (`CrossProcessMeteredCoordinator`).
    static func runWorkers(
        coordination: IncrementWorker.Coordination,
        in folder: TestFolder
    ) async throws -> (value: Int, overlaps: Int) {
        let gate = folder.url.appendingPathComponent("gate")
        try FileManager.default.createDirectory(at: gate, withIntermediateDirectories: false)
        let meter = folder.url.appendingPathComponent("claims")
        try FileManager.default.createDirectory(at: meter, withIntermediateDirectories: false)
        let arguments = try WorkerRequest(
            lesson: CoordinatorLockingLesson.number,
            worker: CoordinatorLockingLesson.incrementWorker.name,
            parent: 0,
            arguments: IncrementWorker.arguments(
                file: folder.counter,
                increments: incrementsEach,
                coordination: coordination,
                gate: gate,
                parties: processes,
                meter: meter
            )
        ).commandLine()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<processes {
                group.addTask {
                    await #expect(processExitsWith: .success) { [arguments = arguments as [String]] in
                        let status = RaceLabTool(lessons: [CoordinatorLockingLesson.lesson]).run(arguments)
                        exit(status.rawValue)
                    }
                }
            }
        }
        return (try counterValue(folder.counter), try CrossProcessMeteredCoordinator.overlaps(in: meter))
    }

    @Test("with open-file-description locks, 4 processes × 400 increments end at exactly 1,600, no claim overlapping")
    func openFileDescriptionLocksExcludeProcesses() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await Self.runWorkers(coordination: .openFileDescription, in: folder)
        #expect(result.value == Self.processes * Self.incrementsEach)
        #expect(result.overlaps == 0)
    }

    /// The control: the same four processes with nothing between them. Measured on 2 cores
    /// (release workers): 165–170 of the 1,600 increments survive; losing none would need every one
    /// of 1,600 read-modify-writes to miss every other, which does not happen.
    /// The meter sees the overlaps that lose them: claims of several processes held at once.
    @Test("without coordination, the same 4 processes lose increments, and the meter sees claims overlap")
    func uncoordinatedProcessesLoseIncrements() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await Self.runWorkers(coordination: .none, in: folder)
        #expect(result.value < Self.processes * Self.incrementsEach)
        #expect(result.overlaps > 0)
    }
}
