import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// How busy the machine's cores are, as the system's load average says: what decides how many
/// variant processes `racelab run --jobs` starts at once.
///
/// The load average counts threads that run or wait for a core (on Linux also those in an
/// uninterruptible wait, usually for a disk), averaged over the last minute. It lags: a process
/// that started a second ago barely shows in it.
package enum SystemLoad {
    /// The one-minute load average; nil when the system does not give it.
    ///
    /// On Linux, the first field of `/proc/loadavg` (proc(5): "the number of jobs in the run queue
    /// (state R) or waiting for disk I/O (state D) averaged over 1, 5, and 15 minutes"). Elsewhere
    /// `getloadavg(3)`, `int getloadavg(double loadavg[], int nelem)`, which returns how many of
    /// the `nelem` averages it wrote, or -1.
    package static func oneMinuteAverage() -> Double? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first,
            let load = Double(first), load.isFinite, load >= 0
        else { return nil }
        return load
        #else
        var loads = [Double](repeating: 0, count: 1)
        guard getloadavg(&loads, 1) == 1, loads[0].isFinite, loads[0] >= 0 else { return nil }
        return loads[0]
        #endif
    }

    /// The machine's cores and how many of them are idle.
    package struct Cores: Equatable, Sendable {
        /// Cores this process may run on (`ProcessInfo.activeProcessorCount`).
        package var total: Int
        /// The one-minute load average; nil when the system does not give it.
        package var load: Double?

        package init(total: Int, load: Double?) {
            self.total = total
            self.load = load
        }

        /// The cores the load leaves idle: `total` minus the load, to the nearest core, from 0 to
        /// `total`; 0 when the load is unknown (nothing says a core is free).
        package var idle: Int {
            guard let load else { return 0 }
            return min(total, max(0, Int((Double(total) - load).rounded())))
        }
    }

    /// The cores of this machine and its load now.
    package static func cores() -> Cores {
        Cores(total: ProcessInfo.processInfo.activeProcessorCount, load: oneMinuteAverage())
    }
}
