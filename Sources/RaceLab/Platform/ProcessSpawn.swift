import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Starts a child process with `posix_spawn`: the one place where RaceLab meets the differences
/// between Glibc and Darwin in spawning.
///
/// Two differences matter. On Darwin `posix_spawn_file_actions_t` and `posix_spawnattr_t` are
/// opaque pointers the `_init` calls allocate (`var actions: posix_spawn_file_actions_t? = nil`);
/// on Glibc they are structs (`posix_spawn_file_actions_t()`). SwiftPM's `TSCBasic.Process` and
/// swift-nio branch the same way. And a child must not inherit the parent's other descriptors: a
/// lesson-4 worker that inherited the lock file's descriptor would share its open file description,
/// and so its locks; a child holding the write end of a test harness's pipe keeps the reader waiting.
/// Darwin closes them with `POSIX_SPAWN_CLOEXEC_DEFAULT` (and `addinherit_np` for a stream to keep);
/// Glibc 2.34 and later with `posix_spawn_file_actions_addclosefrom_np`, looked up at run time so
/// that RaceLab still builds and runs against an older Glibc (where the child then inherits them).
///
/// The environment is always passed explicitly (built from `ProcessInfo`), so no code needs the
/// platform's `environ`.
package enum ProcessSpawn {
    /// Where one of the child's standard streams goes.
    package enum Stream: Equatable {
        /// `/dev/null`.
        case nullDevice
        /// A file created (or truncated) with mode 0600.
        case file(String)
        /// The parent's descriptor of the same number.
        case inherit
    }

    /// `posix_spawn` or one of its setup calls failed; `code` is the `errno` value it returned.
    package struct Failure: Error, CustomStringConvertible {
        package var call: String
        package var code: Int32

        package var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` (a path, not looked up in `PATH`) with `arguments` and returns its pid.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after `argv[0]`, which is `executable`.
    ///   - environment: the child's whole environment.
    ///   - stdin: `.nullDevice` or `.inherit` (a file opened for reading is not needed yet).
    ///   - newProcessGroup: start the child in a process group of its own (its pid), so that
    ///     `kill(-pid, ...)` reaches it and everything it starts.
    ///   - newSession: with `newProcessGroup`, make the child the leader of a session of its own
    ///     (whose process group is its pid too), so that `ProcessSession.killAll` also finds what it
    ///     starts in groups of their own (Foundation's `Process` does that). Linux only: elsewhere
    ///     the child gets its own process group.
    /// - Throws: `Failure` when a setup call or the spawn itself fails.
    package static func spawn(
        _ executable: String,
        arguments: [String],
        environment: [String: String],
        stdin: Stream = .nullDevice,
        stdout: Stream,
        stderr: Stream,
        newProcessGroup: Bool,
        newSession: Bool = false
    ) throws -> pid_t {
        #if os(tvOS) || os(watchOS)
        // `posix_spawn` is __TVOS_PROHIBITED and __WATCHOS_PROHIBITED in <spawn.h>.
        throw Failure(call: "posix_spawn", code: ENOTSUP)
        #else
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }

        for (descriptor, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .nullDevice:
                let mode = descriptor == 0 ? O_RDONLY : O_WRONLY
                try check(
                    "posix_spawn_file_actions_addopen",
                    posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", mode, 0)
                )
            case .file(let path):
                let mode = descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                try check(
                    "posix_spawn_file_actions_addopen",
                    posix_spawn_file_actions_addopen(&actions, descriptor, path, mode, 0o600)
                )
            case .inherit:
                #if canImport(Darwin)
                // Under POSIX_SPAWN_CLOEXEC_DEFAULT only descriptors named by a file action survive.
                try check(
                    "posix_spawn_file_actions_addinherit_np",
                    posix_spawn_file_actions_addinherit_np(&actions, descriptor)
                )
                #endif
            }
        }

        var flags = newProcessGroup ? Int32(POSIX_SPAWN_SETPGROUP) : 0
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        if let closeFrom = closeFromAction {
            try check("posix_spawn_file_actions_addclosefrom_np", closeFrom(&actions, 3))
        }
        // A session leader cannot also join a process group: setsid() makes its group.
        if newProcessGroup && newSession { flags = Self.setSessionFlag }
        #endif
        try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(flags)))
        if flags & Int32(POSIX_SPAWN_SETPGROUP) != 0 {
            try check("posix_spawnattr_setpgroup", posix_spawnattr_setpgroup(&attributes, 0))
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        try check("posix_spawn", posix_spawn(&pid, executable, &actions, &attributes, argv, envp))
        return pid
        #endif
    }

    /// This process's environment with `overrides` on top.
    package static func environment(adding overrides: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(overrides) { _, override in override }
    }

    /// Whether a child started by `spawn` inherits no descriptor beyond 0, 1 and 2 on this system.
    package static var closesOtherDescriptors: Bool {
        #if canImport(Darwin)
        true
        #else
        closeFromAction != nil
        #endif
    }

    private static func check(_ call: String, _ status: Int32) throws {
        guard status == 0 else { throw Failure(call: call, code: status) }
    }

    #if !canImport(Darwin)
    /// `POSIX_SPAWN_SETSID` (Glibc 2.26), which Swift's Glibc module does not import: the child
    /// calls `setsid()`.
    private static let setSessionFlag: Int32 = 0x80

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (Glibc 2.34), or nil on an older Glibc. Looked up
    /// with `dlsym` rather than called, so that the binary does not require the newer Glibc.
    private static let closeFromAction: CloseFrom? = {
        // RTLD_DEFAULT is ((void *) 0) in <dlfcn.h>, which Swift does not import as a constant.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()
    #endif
}

/// A signal's conventional name, e.g. `SIGILL` for 4 (how Swift traps on x86-64 Linux; on arm64 it
/// is `SIGTRAP`). Built from the platform's constants: the numbers differ (`SIGBUS` is 7 on Linux,
/// 10 on Darwin).
package func signalName(_ number: Int32) -> String {
    let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    ]
    return names[number] ?? "signal \(number)"
}
