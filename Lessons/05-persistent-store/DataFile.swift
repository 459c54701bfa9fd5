import Foundation
import RaceLab

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's file operations, on plain POSIX calls so that each step (open, each write, rename)
/// is visible, and so that no operation ever follows a symbolic link out of the store's folder.
enum DataFile {
    /// Data is written in chunks of this size, as buffered writers do; a reader can land between two.
    static let chunkSize = 4_096

    /// The whole contents of `path`, or nil when there is no such file.
    ///
    /// `O_NOFOLLOW`: a symbolic link planted in the store's folder is refused, not followed.
    static func contents(of path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw StoreError.system(operation: "open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.system(operation: "read", path: path, errno: errno)
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Writes `data` to `staging`, then renames it over `destination`: readers of `destination` see
    /// the old file or the new one, whole.
    ///
    /// Both writes of one identifier use the same staging path, so the caller must never run two at
    /// once for the same identifier (the store's barrier).
    static func replace(_ destination: String, with data: Data, staging: String) throws {
        try writeChunks(data, to: staging, window: "write staged file")
        // hazard (without the barrier): another write of this identifier may have truncated and be
        // refilling the staging file right now; renaming it puts a file still being written in place.
        Race.window("rename staged file")
        guard rename(staging, destination) == 0 else {
            throw StoreError.system(operation: "rename", path: staging, errno: errno)
        }
    }

    /// Overwrites `destination` in place: truncates it, then writes `data` chunk by chunk.
    static func overwrite(_ destination: String, with data: Data) throws {
        // hazard: from the truncation until the last chunk, the data file holds neither the old
        // contents nor the new, and a reader that does not wait for this write (another process, or
        // this one after a crash) reads exactly that.
        try writeChunks(data, to: destination, window: "write in place")
    }

    /// Removes `path`; returns whether there was a file to remove. Removes a link, never its target.
    static func remove(_ path: String) throws -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw StoreError.system(operation: "unlink", path: path, errno: errno)
    }

    /// Whether `path` is a regular file or a symbolic link (never following the link).
    static func isFileOrLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFREG || type == S_IFLNK
    }

    /// Creates or truncates `path` and writes `data` in chunks, passing the race window `window`
    /// between chunks.
    private static func writeChunks(_ data: Data, to path: String, window: StaticString) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreError.system(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                if offset > 0 { Race.window(window) }
                let length = min(chunkSize, bytes.count - offset)
                let written = write(descriptor, bytes.baseAddress! + offset, length)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.system(operation: "write", path: path, errno: errno)
                }
                offset += written
            }
        }
    }
}
