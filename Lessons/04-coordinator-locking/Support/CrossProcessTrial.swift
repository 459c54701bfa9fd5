import Foundation
import RaceLab

/// One trial of the cross-process variant: worker processes sharing one counter file, each
/// incrementing its share of the trial's iterations under an open-file-description lock.
///
/// Iteration `i < processes` launches worker `i` and returns; the other iterations have nothing to
/// do, because the increments happen in the workers. The check waits for every worker and reads the
/// file. Workers that are still running when the trial ends (a failed check) are killed.
final class CrossProcessTrial: @unchecked Sendable {
    /// How many worker processes share the file.
    static let processes = 4

    let counter: CounterFile
    private let gate: URL
    /// Where the workers' claims leave their markers (`CrossProcessMeteredCoordinator`).
    let meter: URL
    private let lock = NSLock()
    private var workers: [WorkerProcess] = []

    init() throws {
        counter = try CounterFile(coordinator: { OpenFileDescriptionLock() })
        gate = counter.folder.appendingPathComponent("gate", isDirectory: true)
        try FileManager.default.createDirectory(at: gate, withIntermediateDirectories: false)
        meter = counter.folder.appendingPathComponent("claims", isDirectory: true)
        try FileManager.default.createDirectory(at: meter, withIntermediateDirectories: false)
    }

    /// Launches worker `index` with its share of `total` increments, if `index` names a worker.
    func launchWorker(_ index: Int, of total: Int) throws {
        let processes = min(Self.processes, total)
        guard index < processes else { return }
        let share = total / processes + (index < total % processes ? 1 : 0)
        let worker = try WorkerProcess.launch(
            lesson: CoordinatorLockingLesson.number,
            worker: CoordinatorLockingLesson.incrementWorker.name,
            arguments: IncrementWorker.arguments(
                file: counter.url,
                increments: share,
                coordination: .openFileDescription,
                gate: gate,
                parties: processes,
                meter: meter
            )
        )
        lock.lock()
        workers.append(worker)
        lock.unlock()
    }

    /// Waits for every worker; throws if one did not finish cleanly.
    func waitForWorkers() async throws {
        for worker in launched {
            let ended = await worker.exit()
            guard ended == .exited(0) else { throw WorkerFailure(pid: worker.pid, termination: ended) }
        }
    }

    /// Kills and reaps workers still running, then removes the trial's files.
    func tearDown() {
        for worker in launched {
            worker.kill()
            _ = worker.waitUntilExit()
        }
        counter.remove()
    }

    private var launched: [WorkerProcess] {
        lock.lock()
        defer { lock.unlock() }
        return workers
    }
}

/// A worker process that did not exit with status 0.
struct WorkerFailure: Error, CustomStringConvertible {
    var pid: pid_t
    var termination: WorkerProcess.Termination

    var description: String { "worker process \(pid) ended with \(termination)" }
}
