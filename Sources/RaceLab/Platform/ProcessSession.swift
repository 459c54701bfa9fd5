import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The processes of a session: what a child started with `ProcessSpawn.spawn(newSession:)` and
/// everything it started, even in process groups of their own, for the watchdog to kill when the
/// child ends.
package enum ProcessSession {
    /// Sends `SIGKILL` to every process in the session `session`, pass after pass until none is
    /// left alive (one may start another while the first is killed, and a killed process lives on
    /// until the kernel gets to it: on a loaded machine, or in an uninterruptible wait, that takes
    /// a while); returns how many kills were sent. Gives up after `patience` seconds.
    ///
    /// On Linux the session of each process is read from `/proc/<pid>/stat`. Elsewhere only the
    /// process group `session` is killed (what `spawn` makes there).
    @discardableResult
    package static func killAll(_ session: pid_t, patience: Double = 10) -> Int {
        guard session > 1, session != getpid() else { return 0 }
        #if os(Linux)
        var killed = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(patience * 1e9)
        while true {
            let members = processes(inSession: session)
            if members.isEmpty || DispatchTime.now().uptimeNanoseconds >= deadline { break }
            for pid in members where kill(pid, SIGKILL) == 0 { killed += 1 }
            usleep(2_000)
        }
        return killed
        #else
        return kill(-session, SIGKILL) == 0 ? 1 : 0
        #endif
    }

    #if os(Linux)
    /// The live processes of `session` (zombies left out: they are already dead), from `/proc`.
    static func processes(inSession session: pid_t) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid > 0, pid != getpid(),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After the command name: state, ppid, pgrp, session.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, fields[0] != "Z", pid_t(fields[3]) == session else { return nil }
            return pid
        }
    }
    #endif
}
