import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What RaceLab needs to know about ThreadSanitizer (TSan): whether this process runs under it,
/// and how to make a child process write its reports where they can be told apart.
///
/// TSan reports a data race when two threads touch the same memory, at least one of them writing,
/// with no happens-before edge between them that TSan can see. It sees edges made by locks
/// (`pthread_mutex_t`, `NSLock`), dispatch queues, atomics compiled into instrumented code and
/// Swift's concurrency runtime; it does not see edges made inside code that was not instrumented
/// (the futex inside `Synchronization.Mutex`, reference counts in `libswiftCore`). Those gaps are
/// why RaceLab measures TSan on correct code too (`ThreadSanitizerCalibration`).
public enum ThreadSanitizer {
    /// Whether this process was built with `-sanitize=thread`.
    ///
    /// Swift has no compile-time condition for sanitizers, so this asks the dynamic linker for the
    /// TSan runtime's entry point, which an instrumented executable exports and no other does.
    public static let isActive: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(handle, "__tsan_init") != nil
    }()

    /// The line TSan prints when the kernel placed memory where TSan's shadow memory must go, and
    /// TSan gives up before `main`. It happens on newer Linux kernels with high ASLR entropy
    /// (`vm.mmap_rnd_bits` 32); running without address randomization (`setarch -R`) avoids it.
    public static let unexpectedMappingMessage = "ThreadSanitizer: unexpected memory mapping"

    /// The options RaceLab gives a child: reports go to `<logPath>.<pid>`, one file per process
    /// (worker processes a variant starts inherit the variable and so write files of their own);
    /// a report does not stop the process (`halt_on_error=0`); and the exit status stays the
    /// program's own (`exitcode=0`; TSan would otherwise exit 66 after a report, and the runner would
    /// take a buggy variant's report for a crash). A deadly signal is left to kill the process
    /// (`handle_segv=0:handle_sigbus=0:handle_sigfpe=0`): TSan's own handler would end it with that
    /// same `exitcode=0`, and a crash would read as a process that exited without a report. The log
    /// files are the only record of reports.
    ///
    /// - Parameters:
    ///   - logPath: the reports' path, to which TSan appends `.<pid>`.
    ///   - inherited: `TSAN_OPTIONS` already set by the user (a suppressions file, say);
    ///     kept, with RaceLab's options after it so that they win.
    public static func options(logPath: String, inherited: String? = nil) -> String {
        let ours = "log_path=\(logPath):halt_on_error=0:exitcode=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
        guard let inherited, !inherited.isEmpty else { return ours }
        return inherited + ":" + ours
    }

    /// `setarch <machine> -R`: the prefix that starts a program without address randomization, or
    /// nil where there is no `setarch` (macOS, which does not have the problem).
    static var noRandomizationPrefix: [String]? {
        #if os(Linux)
        let candidates = ["/usr/bin/setarch", "/bin/setarch", "/usr/sbin/setarch"]
        guard let setarch = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return [setarch, machine, "-R"]
        #else
        return nil
        #endif
    }
}
