import Foundation
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A child process with its output captured to files and a deadline enforced by a watchdog.
///
/// The child starts in a session and process group of its own, so that on timeout the watchdog kills
/// the child *and* anything it spawned (lessons that fork helper processes) with one `SIGKILL`, and
/// so that whatever it left running when it ended, even in a group of its own, is killed with it
/// (`ProcessSession`). Output goes to temporary files rather than pipes: a child that writes a lot
/// can never block on a full pipe, and a child that dies leaves what it wrote behind for the report.
package struct ChildProcess {
    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Still running at the deadline; killed with `SIGKILL`.
        case timedOut
    }

    package struct Result {
        var termination: Termination
        package var stdout: Data
        package var stderr: Data
        var wallSeconds: Double
    }

    enum LaunchError: Error, CustomStringConvertible {
        case spawnFailed(path: String, errno: Int32)
        case tempFile(String)

        var description: String {
            switch self {
            case .spawnFailed(let path, let code): "cannot start \(path): \(String(cString: strerror(code)))"
            case .tempFile(let detail): detail
            }
        }
    }

    /// The process groups of the children running now, for the interrupt handler to kill.
    ///
    /// Children may run side by side (tests, users' suites), so each registers in a slot of its own;
    /// the slots are atomics made before any signal arrives, so the handler only loads them (no lock,
    /// no allocation: both are forbidden in a signal handler). More children than slots run
    /// unregistered: an interrupt then leaves those to end with their parent (`exitWhenOrphaned`).
    static let runningGroups = RunningGroups(slots: 64)

    /// A fixed table of process-group ids, each in an atomic slot; 0 marks a free slot.
    final class RunningGroups: Sendable {
        private let slots: [Slot]

        final class Slot: Sendable {
            let group = Atomic<Int32>(0)
        }

        init(slots count: Int) {
            slots = (0..<count).map { _ in Slot() }
        }

        /// Records `group`; returns its slot, or nil when every slot is taken.
        func register(_ group: pid_t) -> Slot? {
            for slot in slots {
                if slot.group.compareExchange(expected: 0, desired: group, ordering: .relaxed).exchanged {
                    return slot
                }
            }
            return nil
        }

        /// Kills every registered group with `SIGKILL`. Safe in a signal handler.
        func killAll() {
            for slot in slots {
                let group = slot.group.load(ordering: .relaxed)
                if group > 0 { kill(-group, SIGKILL) }
            }
        }
    }

    /// Runs `body` with a new folder for a child's files, and removes the folder when `body` returns.
    /// The folder is inside this process's scratch folder, so that a parent killed mid-run leaves
    /// nothing behind for long: the next RaceLab process to start sweeps it away.
    /// - Throws: `LaunchError.tempFile` when the folder cannot be made, or what `body` throws.
    static func withScratchFolder<T>(label: String, _ body: (URL) throws -> T) throws -> T {
        let folder: URL
        do {
            folder = try ScratchSpace.makeFolder(label: label)
        } catch {
            throw LaunchError.tempFile("\(error)")
        }
        defer { ScratchSpace.remove(folder) }
        return try body(folder)
    }

    /// Runs `executable` with `arguments`, waits at most `timeout` seconds, and returns how it ended.
    ///
    /// - Parameters:
    ///   - environment: variables to set in the child, on top of this process's environment.
    ///   - whileWaiting: called about every 100 ms with the seconds elapsed (for progress).
    package static func run(
        _ executable: String,
        arguments: [String],
        environment: [String: String] = [:],
        timeout: Double,
        whileWaiting: (Double) -> Void = { _ in }
    ) throws -> Result {
        try withScratchFolder(label: "child") { folder in
            let stdoutPath = folder.appendingPathComponent("stdout").path
            let stderrPath = folder.appendingPathComponent("stderr").path

            let clock = ContinuousClock()
            let started = clock.now
            let pid: pid_t
            do {
                pid = try ProcessSpawn.spawn(
                    executable,
                    arguments: arguments,
                    environment: ProcessSpawn.environment(adding: environment),
                    stdout: .file(stdoutPath),
                    stderr: .file(stderrPath),
                    newProcessGroup: true,
                    newSession: true
                )
            } catch let failure as ProcessSpawn.Failure {
                throw LaunchError.spawnFailed(path: executable, errno: failure.code)
            }
            let slot = runningGroups.register(pid)
            defer { slot?.group.store(0, ordering: .relaxed) }

            let termination = waitForExit(
                pid,
                timeout: timeout,
                clock: clock,
                started: started,
                whileWaiting: whileWaiting
            )
            let wall = (clock.now - started).seconds
            // What the child started and left running (a helper process, possibly in a group of its
            // own) ends with it.
            ProcessSession.killAll(pid)
            if case .exited = termination {
            } else {
                // A child killed by a signal (the watchdog's, or its own trap) ran no exit handler, so
                // its scratch folder is still there; it is gone now (reaped), and the sweep removes it.
                ScratchSpace.sweepStaleFolders(in: FileManager.default.temporaryDirectory)
            }
            return Result(
                termination: termination,
                stdout: FileManager.default.contents(atPath: stdoutPath) ?? Data(),
                stderr: FileManager.default.contents(atPath: stderrPath) ?? Data(),
                wallSeconds: wall
            )
        }
    }

    private static func waitForExit(
        _ pid: pid_t,
        timeout: Double,
        clock: ContinuousClock,
        started: ContinuousClock.Instant,
        whileWaiting: (Double) -> Void
    ) -> Termination {
        var status: Int32 = 0
        var pause: UInt32 = 1_000
        var lastTick = started
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return decode(status) }
            if reaped < 0 && errno != EINTR { return .exited(-1) }
            let now = clock.now
            if (now - started).seconds >= timeout || interruption.load(ordering: .relaxed) != 0 {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return interruption.load(ordering: .relaxed) != 0 ? .signaled(SIGKILL) : .timedOut
            }
            if (now - lastTick).seconds >= 0.1 {
                whileWaiting((now - started).seconds)
                lastTick = now
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Decodes a `waitpid` status (the `WIFEXITED`/`WTERMSIG` macros are not imported into Swift).
    static func decode(_ status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// The path of the running executable, to start copies of it.
    package static var currentExecutable: String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return path
        }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The signal (`SIGINT`, `SIGTERM`) that interrupted the run; 0 while none did.
    package static let interruption = Atomic<Int32>(0)

    /// The signal that interrupted the run, nil while none did.
    package static var interruptingSignal: Int32? {
        let signal = interruption.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// On Ctrl-C (`SIGINT`) or `SIGTERM`, kill the running child's process group too.
    ///
    /// - Parameter finishing: whether the caller finishes by itself: then the handler only records
    ///   the signal in `interruption` (and the child's wait ends at once), and the caller reports what
    ///   finished and exits with `128 + signal`. Otherwise the process exits at once with that status.
    ///   A second signal always exits at once.
    package static func installInterruptHandler(finishing: Bool = false) {
        let handler: @convention(c) (Int32) -> Void =
            finishing
            ? { number in
                ChildProcess.runningGroups.killAll()
                if ChildProcess.interruption.exchange(number, ordering: .relaxed) != 0 { _exit(128 + number) }
            }
            : { number in
                ChildProcess.runningGroups.killAll()
                _exit(128 + number)
            }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A process inherits its starter's signal mask: one started from a thread that blocks these
        // signals (a Dispatch or Swift concurrency thread calling Foundation's `Process.run`) would
        // never receive them. Called on the main thread, this unblocks them where the handler runs.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
