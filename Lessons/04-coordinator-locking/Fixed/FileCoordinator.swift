import Foundation

/// The article's hand-made coordinator: one concurrent queue per file, reads run with `sync`,
/// writes with `sync(flags: .barrier)`, so reads share a file and a write has it alone.
///
/// It coordinates threads of this process only. Every `FileCoordinator` uses the same process-wide
/// `QueueMap` unless told otherwise, as the article's static dictionary did: two coordinators
/// created in different places still exclude each other.
///
/// The article's map kept a queue for every URL it ever saw. This one drops a URL's queue as soon as
/// no claim holds or awaits it (see `QueueMap`), so the map holds only the files in use right now.
public struct FileCoordinator: FileAccessCoordinator {
    /// The coordinator of this process, sharing the process-wide map.
    public static let shared = FileCoordinator()

    private let map: QueueMap

    public init() {
        self.init(map: .shared)
    }

    /// A coordinator with a map of its own, which excludes nothing another map's claims hold.
    init(map: QueueMap) {
        self.map = map
    }

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        let key = url.standardizedFileURL
        let queue = map.checkOut(key)
        defer { map.checkIn(key) }
        return try queue.sync { try accessor(url) }
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        let key = url.standardizedFileURL
        let queue = map.checkOut(key)
        defer { map.checkIn(key) }
        return try queue.sync(flags: .barrier) { try accessor(url) }
    }
}
