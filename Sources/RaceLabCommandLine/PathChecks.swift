import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a path the tool will write a file to (`--junit FILE`, `--json`'s companions `--html` and
/// `--trace`) before anything runs, and writes it afterwards.
enum OutputPath {
    /// Why `path` cannot take a new file, in a few words; nil when it can.
    ///
    /// The folder must already exist (the tool never creates folders for a report) and be writable;
    /// an existing path must be a writable regular file: a folder, a FIFO (whose `open` would wait for
    /// a reader forever), a device (`/dev/full` takes nothing) or a socket is refused.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "is empty; give a file name" }
        if path.hasSuffix("/") { return "names a folder; give a file name" }
        var info = stat()
        if stat(path, &info) == 0 {
            if let kind = notRegular(info) { return "is \(kind), not a regular file; give a file name" }
            return access(path, W_OK) == 0 ? nil : "cannot be written: \(String(cString: strerror(errno)))"
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            return "its folder does not exist (it is not created)"
        }
        return access(parent, W_OK) == 0
            ? nil : "its folder cannot be written: \(String(cString: strerror(errno)))"
    }

    /// What a file that is not a regular file is, e.g. `a FIFO`; nil for a regular file.
    private static func notRegular(_ info: stat) -> String? {
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        switch type {
        case UInt32(S_IFREG): return nil
        case UInt32(S_IFDIR): return "a folder"
        case UInt32(S_IFIFO): return "a FIFO"
        case UInt32(S_IFCHR), UInt32(S_IFBLK): return "a device"
        case UInt32(S_IFSOCK): return "a socket"
        default: return "a special file"
        }
    }

    /// Writes `text` to the regular file `path`, creating it (mode 0644 before the umask) or
    /// replacing what it held.
    ///
    /// The file is opened without blocking and checked to be a regular file before anything is
    /// truncated or written, so that a path that became a FIFO or a device after `problem(with:)`
    /// approved it fails at once instead of waiting for a reader forever.
    ///
    /// - Throws: `POSIXError` for a failed call, `NotRegular` for anything but a regular file.
    static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let kind = notRegular(info) { throw NotRegular(kind: kind) }
        guard ftruncate(descriptor, 0) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += count
        }
        closed = true
        // A full disk may only show when the data is flushed, at close.
        guard close(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Writes `text` to a new file beside `path`, then renames it to `path`: the file at `path` is
    /// the old one or the whole new one, never a part; a failed write leaves `path` as it was.
    static func writeAtomically(_ text: String, to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder).\(base).\(getpid()).partial"
        do {
            try write(text, to: temporary)
            guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The path is not a regular file (it became one of these after it was checked).
    struct NotRegular: Error, CustomStringConvertible {
        var kind: String
        var description: String { "it is \(kind), not a regular file" }
    }
}

/// `write(2)`, reachable from inside `OutputPath`, whose own `write(_:to:)` hides the C function there.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Checks the temporary directory the tool keeps its scratch folders in, before anything runs.
enum TemporaryDirectory {
    /// Why `TMPDIR` cannot be used, in one line; nil when it is unset or names an existing folder.
    ///
    /// A `TMPDIR` that does not exist is refused rather than created: creating it would leave a
    /// folder behind wherever a typo pointed. (A folder that exists but cannot be written shows up
    /// later, per variant, as an ERROR that names it.)
    static func problem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let path = environment["TMPDIR"], !path.isEmpty else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "TMPDIR \(quoted(path)) does not exist; create it or unset TMPDIR"
        }
        return isFolder.boolValue ? nil : "TMPDIR \(quoted(path)) is not a folder"
    }
}
