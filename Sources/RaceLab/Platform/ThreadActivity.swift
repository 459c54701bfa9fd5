import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What a real thread is doing at one instant, as far as the system says: the explorer samples a
/// thread that stopped reaching scheduling points, to name the likely reason.
///
/// Samples are instants: a thread caught between two calls is seen in neither, so the explorer takes
/// several (``SampledThread/sample(count:interval:)``) and words what it concludes as "likely".
package enum ThreadActivity: Equatable, Sendable {
    /// On a CPU or waiting for one: it computes, or spins.
    case running
    /// Waiting in the kernel's futex: a mutex, a condition, a semaphore, a `DispatchQueue.sync`, a
    /// blocking wait for a task. The system does not say which.
    case lockWait
    /// Waiting for a file lock: the system call (`flock`, `fcntl`).
    case fileLock(String)
    /// Waiting in a system call that blocks until something outside the process happens: `read`,
    /// `poll`, `accept`, `wait4`...
    case blockingCall(String)
    /// Sleeping (`nanosleep`, `clock_nanosleep`): `Thread.sleep`, `usleep`.
    case sleeping
    /// In another system call, by number.
    case otherCall(Int)
    /// The system gave no answer (macOS, where no sampler is written yet; an unreadable file).
    case unknown
}

extension ThreadActivity {
    /// One activity for several samples of one thread. A thread blocked for good is never seen
    /// running, so being seen running in a quarter of the samples or more means it computes (now and
    /// then entering a runtime's lock, or sleeping briefly); otherwise the most frequent activity,
    /// the earlier seen on a tie.
    package static func summary(of samples: [ThreadActivity]) -> ThreadActivity {
        guard !samples.isEmpty else { return .unknown }
        let running = samples.filter { $0 == .running }.count
        if running * 4 >= samples.count { return .running }
        let others = samples.filter { $0 != .running }
        var best = others[0]
        var bestCount = 0
        for candidate in others {
            let count = others.filter { $0 == candidate }.count
            if count > bestCount { (best, bestCount) = (candidate, count) }
        }
        return best
    }
}

/// A real thread the explorer may sample later: the kernel's id for it, on Linux.
package struct SampledThread: Hashable, Sendable {
    #if os(Linux)
    let threadID: Int32
    #endif

    /// The calling thread; nil where it cannot be sampled.
    package static var current: SampledThread? {
        #if os(Linux)
        guard let gettid = Self.gettid else { return nil }
        return SampledThread(threadID: gettid())
        #else
        // Darwin: `thread_info` on `pthread_mach_thread_np(pthread_self())` could give the run
        // state; not written without a Mac to check it on. Stalls there are diagnosed from the
        // explorer's own records only.
        return nil
        #endif
    }

    /// What the thread is mostly doing over `count` samples `interval` apart.
    ///
    /// One sample is not enough: under ThreadSanitizer a spinning thread is now and then caught
    /// waiting in the sanitizer's own futex (seen once in CI, where the spin loop was named a lock
    /// wait), and a thread that sleeps in a loop is now and then caught between two sleeps.
    package func sample(count: Int, interval: Duration) -> ThreadActivity {
        var samples: [ThreadActivity] = []
        for index in 0..<max(count, 1) {
            if index > 0 { Thread.sleep(forTimeInterval: interval.seconds) }
            samples.append(sample())
        }
        return ThreadActivity.summary(of: samples)
    }

    /// What the thread is doing now.
    package func sample() -> ThreadActivity {
        #if os(Linux)
        // "running", or the number of the system call it is blocked in followed by its arguments.
        guard
            let text = try? String(contentsOfFile: "/proc/self/task/\(threadID)/syscall", encoding: .utf8),
            let first = text.split(separator: " ").first.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        else { return .unknown }
        if first == "running" { return .running }
        guard let number = Int(first) else { return .unknown }
        return Self.activity(ofSystemCall: number)
        #else
        return .unknown
        #endif
    }

    #if os(Linux)
    private typealias GetThreadID = @convention(c) () -> Int32

    /// `gettid` (Glibc 2.30), looked up at run time: Swift does not import it, nor `syscall`.
    private static let gettid: GetThreadID? = {
        // RTLD_DEFAULT is ((void *) 0) in <dlfcn.h>.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gettid") else { return nil }
        return unsafeBitCast(symbol, to: GetThreadID.self)
    }()

    /// The system calls that say something about a stall, by their kernel ABI numbers (which Swift
    /// does not import: `SYS_*` are macros of macros).
    static func activity(ofSystemCall number: Int) -> ThreadActivity {
        #if arch(x86_64)
        let table: [Int: ThreadActivity] = [
            202: .lockWait, 73: .fileLock("flock"), 72: .fileLock("fcntl"),
            35: .sleeping, 230: .sleeping,
            0: .blockingCall("read"), 17: .blockingCall("pread"), 19: .blockingCall("readv"),
            1: .blockingCall("write"), 7: .blockingCall("poll"), 23: .blockingCall("select"),
            271: .blockingCall("ppoll"), 270: .blockingCall("pselect6"), 232: .blockingCall("epoll_wait"),
            281: .blockingCall("epoll_pwait"), 42: .blockingCall("connect"), 43: .blockingCall("accept"),
            288: .blockingCall("accept4"), 45: .blockingCall("recvfrom"), 47: .blockingCall("recvmsg"),
            61: .blockingCall("wait4"), 247: .blockingCall("waitid"), 34: .blockingCall("pause"),
        ]
        #elseif arch(arm64)
        let table: [Int: ThreadActivity] = [
            98: .lockWait, 32: .fileLock("flock"), 25: .fileLock("fcntl"),
            101: .sleeping, 115: .sleeping,
            63: .blockingCall("read"), 67: .blockingCall("pread"), 65: .blockingCall("readv"),
            64: .blockingCall("write"), 73: .blockingCall("ppoll"), 72: .blockingCall("pselect6"),
            22: .blockingCall("epoll_pwait"), 203: .blockingCall("connect"), 202: .blockingCall("accept"),
            242: .blockingCall("accept4"), 207: .blockingCall("recvfrom"), 212: .blockingCall("recvmsg"),
            260: .blockingCall("wait4"), 95: .blockingCall("waitid"),
        ]
        #else
        let table: [Int: ThreadActivity] = [:]
        #endif
        return table[number] ?? .otherCall(number)
    }
    #endif
}
