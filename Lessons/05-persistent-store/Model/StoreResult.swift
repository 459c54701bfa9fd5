import Foundation

/// How a store ended, the article's `Result` enum.
public enum StoreResult: Sendable {
    /// The data is on disk under this identifier.
    case success(PersistentDataStore.Identifier)
    /// The provider had nothing to store (nil or empty data); nothing was written.
    case noData
    /// Nothing was stored: a bad identifier, or a file operation failed.
    case failed(any Error)
}

/// How a load ended.
///
/// The article's load hands back an optional, which cannot tell "no such data" from "the file could
/// not be read": this lesson needs to tell them apart.
public enum LoadResult<Value> {
    /// The data was read and the transformer turned it into a value.
    case loaded(Value)
    /// There is no data under the identifier.
    case notFound
    /// A bad identifier, an unreadable file, or a transformer that returned nil.
    case failed(any Error)
}

extension LoadResult: Sendable where Value: Sendable {}

/// Why an operation of a store failed, beyond an invalid identifier.
public enum StoreError: Error, CustomStringConvertible {
    /// Another `PersistentDataStore`, in this process or another, manages the folder already.
    case folderInUse(String)
    /// A file system call failed.
    case system(operation: String, path: String, errno: Int32)
    /// The transformer returned nil for the data of this identifier.
    case transformFailed(PersistentDataStore.Identifier)
    /// An entry of the store's folder (its `.staging` folder, its `.lock` file, a data file, or the
    /// folder itself) is not what the store keeps there: a symbolic link, which the store never
    /// follows, or a FIFO, a socket or a device, which it never opens.
    case unexpectedEntry(path: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .folderInUse(let path):
            "another PersistentDataStore manages \(path) already"
        case .system(let operation, let path, let code):
            "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        case .transformFailed(let identifier):
            "the transformer could not make a value of the data stored as \(identifier.debugDescription)"
        case .unexpectedEntry(let path, let expected, let found):
            "\(path) is \(found), not \(expected): the store follows no link and opens nothing but its own "
                + "folders and regular files (remove it)"
        }
    }
}
