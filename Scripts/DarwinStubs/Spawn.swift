// Darwin's posix_spawn API as Swift imports it from the macOS SDK's <spawn.h> (Apple Libc,
// include/spawn.h) and <sys/spawn.h> (xnu, bsd/sys/spawn.h). Part of the stub module `Darwin` (see
// Darwin.swift). Glibc declares the same functions over structs; Darwin's two types are opaque
// pointers (`typedef void *posix_spawnattr_t;`) that the `_init` calls allocate, so every parameter
// below is a pointer to an optional pointer. The header has no nullability annotations: Swift
// imports each pointer parameter as implicitly unwrapped (`!`), and each function as
// `@discardableResult`, as it imports every C function.

/// `typedef void *posix_spawn_file_actions_t;` (<spawn.h>).
public typealias posix_spawn_file_actions_t = UnsafeMutableRawPointer

/// `typedef void *posix_spawnattr_t;` (<spawn.h>).
public typealias posix_spawnattr_t = UnsafeMutableRawPointer

/// `int posix_spawn(pid_t * __restrict, const char * __restrict, const posix_spawn_file_actions_t *,
/// const posix_spawnattr_t * __restrict, char *const __argv[__restrict], char *const __envp[__restrict])`.
@discardableResult public func posix_spawn(
    _ pid: UnsafeMutablePointer<pid_t>!,
    _ path: UnsafePointer<CChar>!,
    _ file_actions: UnsafePointer<posix_spawn_file_actions_t?>!,
    _ attrp: UnsafePointer<posix_spawnattr_t?>!,
    _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!,
    _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>!
) -> Int32 { fatalError("stub") }

/// `int posix_spawn_file_actions_init(posix_spawn_file_actions_t *)`.
@discardableResult public func posix_spawn_file_actions_init(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!
) -> Int32 {
    fatalError("stub")
}

/// `int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *)`.
@discardableResult public func posix_spawn_file_actions_destroy(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!
) -> Int32 { fatalError("stub") }

/// `int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t * __restrict, int,
/// const char * __restrict, int, mode_t)`.
@discardableResult public func posix_spawn_file_actions_addopen(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!,
    _ filedes: Int32,
    _ path: UnsafePointer<CChar>!,
    _ oflag: Int32,
    _ mode: mode_t
) -> Int32 { fatalError("stub") }

/// `int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *, int)`.
@discardableResult public func posix_spawn_file_actions_addclose(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!,
    _ filedes: Int32
) -> Int32 { fatalError("stub") }

/// `int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *, int, int)`.
@discardableResult public func posix_spawn_file_actions_adddup2(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!,
    _ filedes: Int32,
    _ newfiledes: Int32
) -> Int32 { fatalError("stub") }

/// `int posix_spawn_file_actions_addinherit_np(posix_spawn_file_actions_t *, int)`: Darwin only
/// (macOS 10.7); the descriptor survives `POSIX_SPAWN_CLOEXEC_DEFAULT`.
@discardableResult public func posix_spawn_file_actions_addinherit_np(
    _ file_actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!,
    _ filedes: Int32
) -> Int32 { fatalError("stub") }

/// `int posix_spawnattr_init(posix_spawnattr_t *)`.
@discardableResult public func posix_spawnattr_init(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 {
    fatalError("stub")
}

/// `int posix_spawnattr_destroy(posix_spawnattr_t *)`.
@discardableResult public func posix_spawnattr_destroy(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 {
    fatalError("stub")
}

/// `int posix_spawnattr_setflags(posix_spawnattr_t *, short)`.
@discardableResult public func posix_spawnattr_setflags(
    _ attr: UnsafeMutablePointer<posix_spawnattr_t?>!,
    _ flags: Int16
) -> Int32 {
    fatalError("stub")
}

/// `int posix_spawnattr_setpgroup(posix_spawnattr_t *, pid_t)`.
@discardableResult public func posix_spawnattr_setpgroup(
    _ attr: UnsafeMutablePointer<posix_spawnattr_t?>!,
    _ pgroup: pid_t
) -> Int32 {
    fatalError("stub")
}

/// `#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000` (<sys/spawn.h>): Darwin only; the child inherits
/// only the descriptors a file action names. Swift imports an integer macro as `Int32`.
public var POSIX_SPAWN_CLOEXEC_DEFAULT: Int32 { 0x4000 }
