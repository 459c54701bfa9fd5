import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A worker process: a copy of the running tool started with a `WorkerRequest`, running one of a
/// lesson's `LessonWorker`s.
///
/// Workers stay in the caller's process group, so the watchdog that kills a variant's process group
/// kills its workers with it. A worker also watches its parent and exits within about 50 ms of the
/// parent's death, so that a parent killed alone (`kill -9 <pid>`) leaves no worker running on.
/// Workers read nothing from stdin, their stdout is discarded (a variant's stdout carries its
/// report) and their stderr is the caller's.
///
/// - Note: `launch` starts the *running executable*, so it only works in a tool built on
///   `RaceLabTool` whose lessons include the worker; a test binary cannot launch workers this way.
public final class WorkerProcess: @unchecked Sendable {
    /// How a worker ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// It was killed by this signal.
        case signaled(Int32)
    }

    /// Why a worker could not start.
    public enum LaunchError: Error, CustomStringConvertible {
        /// `posix_spawn` failed with this error number.
        case spawnFailed(errno: Int32)

        public var description: String {
            switch self {
            case .spawnFailed(let code): "cannot start a worker process: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The worker's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var termination: Termination?

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts the worker `worker` of lesson `lesson` with `arguments`.
    public static func launch(lesson: Int, worker: String, arguments: [String]) throws -> WorkerProcess {
        let executable = ChildProcess.currentExecutable
        let all = try WorkerRequest(lesson: lesson, worker: worker, parent: getpid(), arguments: arguments)
            .commandLine()
        let pid: pid_t
        do {
            // The worker's stderr is the caller's; no other descriptor of the caller reaches it.
            pid = try ProcessSpawn.spawn(
                executable,
                arguments: all,
                environment: ProcessInfo.processInfo.environment,
                stdout: .nullDevice,
                stderr: .inherit,
                newProcessGroup: false
            )
        } catch let failure as ProcessSpawn.Failure {
            throw LaunchError.spawnFailed(errno: failure.code)
        }
        return WorkerProcess(pid: pid)
    }

    /// Waits for the worker to end, blocking the calling thread; later calls return the same answer.
    public func waitUntilExit() -> Termination {
        lock.lock()
        defer { lock.unlock() }
        if let termination { return termination }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        let ended: Termination
        switch ChildProcess.decode(status) {
        case .signaled(let signal): ended = .signaled(signal)
        case .exited(let code): ended = .exited(code)
        case .timedOut: ended = .exited(-1)
        }
        termination = ended
        return ended
    }

    /// Waits for the worker to end without blocking a thread of Swift's cooperative pool.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.waitUntilExit()) }
        }
    }

    /// Sends `SIGKILL` to the worker, unless it was already reaped.
    public func kill() {
        lock.lock()
        defer { lock.unlock() }
        if termination == nil { _ = sendSignal(pid, SIGKILL) }
    }

    /// Makes the calling process exit (status 1) soon after the process `parent` stops being its
    /// parent, that is, after the parent died and the process was handed to another.
    ///
    /// Polls `getppid()` on a background thread: portable, and cheap at one check per 50 ms.
    package static func exitWhenOrphaned(parent: pid_t) {
        guard parent > 0 else { return }
        if getppid() != parent { _exit(1) }
        let watcher = Thread {
            while getppid() == parent { usleep(50_000) }
            _exit(1)
        }
        watcher.start()
    }
}

/// `kill(2)`, reachable from inside `WorkerProcess`, whose own `kill()` hides the C function there.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
