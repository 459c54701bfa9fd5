#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A folder of the store, held open by a descriptor: the only way the store touches its files.
///
/// Every call is made relative to the descriptor (`openat`, `mkdirat`, `renameat`, `unlinkat`,
/// `fstatat`) with a single file name (identifiers contain no `/`), and none follows a symbolic
/// link: files and folders are opened with `O_NOFOLLOW`, and a rename or an unlink acts on the
/// directory entry itself. So once the folder is open, what happens to paths no longer matters: a
/// link planted at `.staging` after the store opened is never used, because the store's staging
/// folder is the descriptor it opened, not the name.
///
/// Why descriptors rather than `lstat` checks before each path call: a check and the call after it
/// are two steps, and a link planted between them would still be followed. With `O_NOFOLLOW` the
/// refusal is part of the call. The one path the store resolves is its own folder's, when it opens
/// (the caller's parent folder is trusted; the folder itself may not be a link).
///
/// Files are opened with `O_NONBLOCK` and must be regular files (checked with `fstat` on the open
/// descriptor): a FIFO planted in the folder would otherwise block a read forever. Regular files
/// ignore `O_NONBLOCK`. Anything else in the store's way, a link included, is
/// `StoreError.unexpectedEntry`.
final class StoreDirectory: Sendable {
    /// The folder's path, for messages only.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor != AT_FDCWD { close(descriptor) }
    }

    /// The process's working directory, for callers that name files by path (readers outside the
    /// store): only the last component of their paths is opened without following links.
    static let workingDirectory = StoreDirectory(path: "", descriptor: AT_FDCWD)

    /// Opens the folder at `path`, creating it (not its parent) if it does not exist.
    ///
    /// - Throws: `StoreError.unexpectedEntry` when `path` is a link or not a folder.
    static func open(_ path: String) throws -> StoreDirectory {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw StoreError.system(operation: "mkdir", path: path, errno: errno)
        }
        return StoreDirectory(path: path, descriptor: try openFolder(name: path, in: AT_FDCWD, shownAs: path))
    }

    /// Opens the folder `name` inside this one, creating it if it does not exist.
    ///
    /// - Throws: `StoreError.unexpectedEntry` when `name` is a link or not a folder.
    func subfolder(_ name: String) throws -> StoreDirectory {
        if mkdirat(descriptor, name, 0o755) != 0 && errno != EEXIST {
            throw StoreError.system(operation: "mkdir", path: path(of: name), errno: errno)
        }
        let opened = try Self.openFolder(name: name, in: descriptor, shownAs: path(of: name))
        return StoreDirectory(path: path(of: name), descriptor: opened)
    }

    /// Opens the regular file `name` with `flags` (`O_NOFOLLOW`, `O_NONBLOCK` and `O_CLOEXEC` are
    /// added); the caller closes the descriptor.
    ///
    /// - Returns: the descriptor, or nil when there is no such file (and `flags` has no `O_CREAT`).
    /// - Throws: `StoreError.unexpectedEntry` for a link, a folder, a FIFO or a device.
    func openFile(_ name: String, _ flags: Int32, mode: mode_t = 0o644) throws -> Int32? {
        let opened = openat(descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard opened >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if let found = kind(of: name), found != S_IFREG {
                throw unexpected(name, expected: "a regular file", found: found)
            }
            throw StoreError.system(operation: "open", path: path(of: name), errno: code)
        }
        var info = stat()
        guard fstat(opened, &info) == 0 else {
            let code = errno
            close(opened)
            throw StoreError.system(operation: "fstat", path: path(of: name), errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw unexpected(name, expected: "a regular file", found: info.st_mode & S_IFMT)
        }
        return opened
    }

    /// Renames the entry `name` to `newName` in `destination`, replacing what is there (a link is
    /// replaced, never followed).
    func move(_ name: String, to destination: StoreDirectory, as newName: String) throws {
        guard renameat(descriptor, name, destination.descriptor, newName) == 0 else {
            throw StoreError.system(operation: "rename", path: path(of: name), errno: errno)
        }
    }

    /// Removes the entry `name` (a link, never its target); returns whether there was one.
    func remove(_ name: String) throws -> Bool {
        if unlinkat(descriptor, name, 0) == 0 { return true }
        if errno == ENOENT { return false }
        throw StoreError.system(operation: "unlink", path: path(of: name), errno: errno)
    }

    /// Whether `name` is a regular file or a symbolic link (never following the link).
    func isFileOrLink(_ name: String) -> Bool {
        kind(of: name) == S_IFREG || kind(of: name) == S_IFLNK
    }

    /// The names in the folder, without `.` and `..`.
    func names() throws -> [String] {
        // A descriptor of its own (not a `dup`, which would share the read position).
        let listing = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let stream = fdopendir(listing) else {
            let code = errno
            if listing >= 0 { close(listing) }
            throw StoreError.system(operation: "opendir", path: path, errno: code)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The path of `name` in this folder, for messages.
    func path(of name: String) -> String {
        path.isEmpty ? name : path + "/" + name
    }

    /// The file type (`S_IFMT` bits) of the entry `name`, or nil when there is none.
    private func kind(of name: String) -> mode_t? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private func unexpected(_ name: String, expected: String, found: mode_t) -> StoreError {
        .unexpectedEntry(path: path(of: name), expected: expected, found: Self.describe(found))
    }

    private static func openFolder(name: String, in parent: Int32, shownAs path: String) throws -> Int32 {
        let opened = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if opened >= 0 { return opened }
        let code = errno
        var info = stat()
        if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw StoreError.unexpectedEntry(path: path, expected: "a folder", found: describe(info.st_mode & S_IFMT))
        }
        throw StoreError.system(operation: "open", path: path, errno: code)
    }

    /// A file type in words, for `StoreError.unexpectedEntry`.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFREG: "a regular file"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a file of unknown type"
        }
    }
}
