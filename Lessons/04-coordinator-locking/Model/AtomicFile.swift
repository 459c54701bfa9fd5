import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Replaces a file's contents atomically: writes a uniquely named file beside it, then renames that
/// over it. Readers see the old contents or the new, never a part.
///
/// `Data.write(to:options: .atomic)` does the same, and also calls `fsync` on the temporary file
/// before the rename (swift-foundation, `Sources/FoundationEssentials/Data/Data+Writing.swift`);
/// this file does not. An `fsync` makes every save wait for the disk: it protects against power
/// loss (on a Mac only with `F_FULLFSYNC`), which this lesson is not about, and it would turn the
/// lesson's timings into a measurement of the disk. The race is the same either way.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError.error(.fileWriteUnknown, path: temporary, errno: errno) }
        let written = data.withUnsafeBytes { bytes in
            bytes.isEmpty ? 0 : writeBytes(descriptor, bytes.baseAddress, bytes.count)
        }
        let code = errno
        close(descriptor)
        guard written == data.count else {
            unlink(temporary)
            throw CocoaError.error(.fileWriteUnknown, path: temporary, errno: code)
        }
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw CocoaError.error(.fileWriteUnknown, path: url.path, errno: code)
        }
    }
}

/// `write(2)`: named apart because inside `AtomicFile` the name `write` is its own method. At file
/// scope it resolves to the C library's function, from Glibc or Darwin alike.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension CocoaError {
    /// A Foundation file error carrying the path and the POSIX error behind it.
    static func error(_ code: CocoaError.Code, path: String, errno: Int32) -> CocoaError {
        CocoaError(
            code,
            userInfo: [
                NSFilePathErrorKey: path,
                NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
            ]
        )
    }
}
