/// Why a logical thread stopped reaching scheduling points, as far as the explorer can tell, and
/// what to change: shown when a thread runs longer than the stall limit (`--stall`).
///
/// The explorer knows where each logical thread last paused and which threads are paused now, and
/// on Linux it samples the stuck thread's system call once (`/proc/self/task/<tid>/syscall`). That
/// tells a file lock from a `read`, a spin from a wait, but not *which* lock a waiting thread wants:
/// the cause is the likely one, and the text says so.
public struct StallDiagnosis: Equatable, Sendable, Codable {
    /// What a stuck thread was most likely doing, as far as the explorer's records and the sample tell.
    public enum Cause: String, Equatable, Sendable, Codable {
        /// A scheduling point reached inside a critical section the explorer does not see: the
        /// stuck thread waits for a lock a paused thread holds.
        case windowInCriticalSection = "window-in-critical-section"
        /// A lock, queue or semaphore the explorer does not see, held or owed by nothing it runs.
        case invisibleLock = "invisible-lock"
        /// An `await` on a task or continuation that runs outside the explorer.
        case awaitedOutside = "awaited-outside"
        /// A kernel file lock (`flock`, `fcntl`) taken directly.
        case fileLock = "file-lock"
        /// A system call that waits for something outside the process (`read`, `poll`, `accept`).
        case blockingCall = "blocking-call"
        /// A sleep longer than the stall limit.
        case sleeping
        /// Running: a spin loop without a scheduling point, or long work.
        case spinning
    }

    /// The likely cause (see `Cause`): a best guess, never a certainty.
    public var cause: Cause
    /// The thread that got stuck, and the last scheduling point it reached (nil: none yet).
    public var thread: Int
    /// The last scheduling point the stuck thread reached; nil when it reached none (it was running its set-up).
    public var lastPoint: String?
    /// What the sample showed, e.g. `blocked in flock`; nil when the system was not sampled.
    public var observed: String?
    /// The likely cause, in a sentence.
    public var explanation: String
    /// What to change.
    public var fix: String

    /// The diagnosis as indented lines for the explorer's text.
    public var lines: [String] {
        [
            "stuck: thread \(thread), last scheduling point "
                + (lastPoint.map { "'\($0)'" } ?? "none (it was running its set-up)"),
            "seen: " + (observed ?? "not sampled on this system"),
            "likely cause: \(explanation)",
            "fix: \(fix)",
        ]
    }
}

extension StallDiagnosis {
    /// Diagnoses `thread`, which has not reached a scheduling point within the stall limit.
    ///
    /// - Parameters:
    ///   - activity: what the thread's real thread was seen doing.
    ///   - paused: the other unfinished threads and the point each is paused at.
    static func diagnose(
        thread: Int,
        record: ThreadTrace.Record?,
        activity: ThreadActivity,
        paused: [(thread: Int, point: String)]
    ) -> StallDiagnosis {
        func make(_ cause: Cause, _ observed: String?, _ explanation: String, _ fix: String) -> StallDiagnosis {
            StallDiagnosis(
                cause: cause,
                thread: thread,
                lastPoint: record?.lastPoint,
                observed: observed,
                explanation: explanation,
                fix: fix
            )
        }
        let holders = paused.map { "thread \($0.thread) (paused at '\($0.point)')" }.joined(separator: ", ")
        let waiting: String?
        switch activity {
        case .fileLock(let call):
            return make(
                .fileLock,
                "blocked in \(call)",
                "it waits for a kernel file lock taken with \(call) directly, which another open file "
                    + "description or process holds; the explorer neither sees nor grants such locks",
                "take the lock through RaceLockFile (lockRecord: fcntl, owned by the process; "
                    + "lockDescription: flock or F_OFD, owned by the open file description), whose ownership "
                    + "rules the explorer models"
            )
        case .blockingCall(let call):
            return make(
                .blockingCall,
                "blocked in \(call)",
                "it waits in a system call (\(call)) for something outside the process, which no schedule "
                    + "the explorer chooses can bring",
                "prepare the input before the threads start (in makeState), or give the code an "
                    + "in-memory stand-in for the I/O while it is explored"
            )
        case .sleeping:
            return make(
                .sleeping,
                "sleeping",
                "it sleeps longer than the stall limit (or sleeps in a loop that waits for another thread)",
                "raise the stall limit (--stall), or put a Race.step in the loop so that the other "
                    + "threads can run"
            )
        case .running:
            return make(
                .spinning,
                "running",
                "it runs without reaching a scheduling point: a spin loop waiting for another thread, "
                    + "which cannot run until this one reaches a point, or just long work",
                "put a Race.step inside the loop (or wait with RaceLock/RaceQueue), or raise the stall "
                    + "limit (--stall) if the work is merely long"
            )
        case .lockWait:
            // portable: names the wait Linux reports; only Linux samples it
            waiting = "blocked waiting on a lock, condition or semaphore (futex)"
        case .otherCall(let number): waiting = "blocked in system call \(number)"
        case .unknown: waiting = nil
        }
        if record?.inTask == true {
            return make(
                .awaitedOutside,
                waiting,
                "its last scheduling point was in async code, and it now waits for something the "
                    + "explorer does not run: a plain Task another thread awaits, a continuation that "
                    + "code outside the exploration resumes, or a global actor (@MainActor) that code "
                    + "outside the exploration holds"
                    + (paused.isEmpty ? "" : " (or a lock held by \(holders))"),
                "start the awaited work with RaceTask (or hand it off with Race.handOff) so that it is a "
                    + "thread of the exploration; run nothing else on a global actor while it is explored"
            )
        }
        if !paused.isEmpty {
            return make(
                .windowInCriticalSection,
                waiting,
                "it waits for a lock or queue the explorer does not see (NSLock, os_unfair_lock, "
                    + "DispatchQueue.sync, a semaphore) that a paused thread holds: \(holders) reached a "
                    + "scheduling point inside that critical section",
                "use RaceLock, RaceRecursiveLock or RaceQueue for that lock or queue, so that the explorer "
                    + "knows who holds it; or move the window out of the critical section"
            )
        }
        return make(
            .invisibleLock,
            waiting,
            "it waits in a lock, queue or semaphore the explorer does not see (NSLock, DispatchQueue.sync, "
                + "DispatchSemaphore, DispatchGroup.wait), for something no explored thread will do",
            "use RaceLock, RaceRecursiveLock or RaceQueue for synchronization between the explored threads, "
                + "and wait for outside work in the set-up"
        )
    }
}
