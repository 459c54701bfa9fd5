import Foundation
import RaceLab

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The store's file operations, on plain POSIX calls so that each step (open, each write, rename)
/// is visible. Files are named inside a `StoreDirectory`, which never follows a symbolic link out
/// of the store's folder.
enum DataFile {
    /// Data is written in chunks of this size, as buffered writers do; a reader can land between two.
    static let chunkSize = 4_096

    /// The whole contents of the file `name` in `folder`, or nil when there is no such file.
    ///
    /// A symbolic link (or a FIFO) planted in the folder is refused, not followed.
    static func contents(of name: String, in folder: StoreDirectory) throws -> Data? {
        guard let descriptor = try folder.openFile(name, O_RDONLY) else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.system(operation: "read", path: folder.path(of: name), errno: errno)
            }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// The whole contents of the file at `path`, as a reader outside the store opens it; nil when
    /// there is no such file. The last component of `path` is not followed if it is a link.
    static func contents(of path: String) throws -> Data? {
        try contents(of: path, in: .workingDirectory)
    }

    /// Writes `data` to the file `stagingName` in `staging`, then renames it over `name` in
    /// `folder`: readers of the data file see the old file or the new one, whole.
    ///
    /// Two writes that share a `stagingName` must never run at once (the store's barrier): one would
    /// truncate and refill the file the other is about to rename. Writes with names of their own can
    /// overlap safely as far as tearing goes, but their renames land in whatever order they happen.
    static func replace(
        _ name: String,
        in folder: StoreDirectory,
        with data: Data,
        staging: StoreDirectory,
        stagingName: String
    ) throws {
        try writeChunks(
            data,
            to: stagingName,
            in: staging,
            window: "write staged chunk",
            lastWindow: "finish staged file"
        )
        // hazard (without the barrier): another write of this identifier may be running too. With a
        // shared staging name it may have truncated and be refilling this very file, and the rename
        // puts a file still being written in place; with unique names, whichever write renames
        // last wins, even when it carries the older data.
        Race.window("rename staged file")
        try staging.move(stagingName, to: folder, as: name)
    }

    /// Overwrites the file `name` in `folder` in place: truncates it, then writes `data` chunk by chunk.
    static func overwrite(_ name: String, in folder: StoreDirectory, with data: Data) throws {
        // hazard: from the truncation until the last chunk, the data file holds neither the old
        // contents nor the new, and a reader that does not wait for this write (another process, or
        // this one after a crash) reads exactly that.
        try writeChunks(data, to: name, in: folder, window: "write chunk in place", lastWindow: "finish file in place")
    }

    /// Creates or truncates the file `name` in `folder` and writes `data` in chunks, passing a race
    /// window before each chunk after the first: `lastWindow` before the last chunk (whose step also
    /// closes the file), `window` before the others. The open, the truncation and the first chunk
    /// belong to the step before.
    private static func writeChunks(
        _ data: Data,
        to name: String,
        in folder: StoreDirectory,
        window: StaticString,
        lastWindow: StaticString
    ) throws {
        guard let descriptor = try folder.openFile(name, O_WRONLY | O_CREAT | O_TRUNC) else {
            throw StoreError.system(operation: "open", path: folder.path(of: name), errno: ENOENT)
        }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let length = min(chunkSize, bytes.count - offset)
                if offset > 0 { Race.window(offset + length == bytes.count ? lastWindow : window) }
                let written = write(descriptor, bytes.baseAddress! + offset, length)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.system(operation: "write", path: folder.path(of: name), errno: errno)
                }
                offset += written
            }
        }
    }
}
