import Foundation
import RaceLab

/// One `Codable` object in one JSON file, the article's `ObjectStorage`.
///
/// The type is cheap to create and needs nothing but a URL, so code creates an instance wherever
/// it needs the object, and many instances end up reading and writing the same file. Each instance
/// is safe on its own; what keeps two instances from overwriting each other is only the coordinator
/// they are given, and only if every instance is given one that excludes the others.
///
/// Saves replace the file atomically (write a temporary file, then rename; see `AtomicFile`), so a
/// reader never sees a half-written file. That does not make `mutatingObject` safe: two read-modify-writes that both
/// read the old value both write back old value + 1.
public final class ObjectStorage<Object: Codable>: Sendable {
    /// The file that holds the object.
    public let url: URL
    private let coordinator: any FileAccessCoordinator

    /// - Parameters:
    ///   - url: the JSON file; its folder must exist.
    ///   - coordinator: what keeps this instance's accesses apart from other instances'.
    public init(url: URL, coordinator: any FileAccessCoordinator = Uncoordinated()) {
        self.url = url
        self.coordinator = coordinator
    }

    /// The stored object, or nil when there is none yet.
    ///
    /// - Throws: when the file exists but cannot be read or decoded.
    public func fetchObject() throws -> Object? {
        try coordinator.coordinateReading(at: url) { url in try Self.read(from: url) }
    }

    /// Stores `object`, replacing the file atomically.
    public func save(object: Object) throws {
        try coordinator.coordinateWriting(at: url) { url in try Self.write(object, to: url) }
    }

    /// Removes the stored object; does nothing when there is none.
    public func delete() throws {
        try coordinator.coordinateWriting(at: url) { url in
            do {
                try FileManager.default.removeItem(at: url)
            } catch CocoaError.fileNoSuchFile {
                return
            }
        }
    }

    /// Reads the object (or `defaultValue`), lets `mutate` change it, and saves it: read, change and
    /// write under one writing claim.
    ///
    /// Correct exactly when the coordinator's writing claim excludes every other writer of the file.
    @inline(never)
    public func mutatingObject(defaultValue: Object, _ mutate: (inout Object) throws -> Void) throws {
        try coordinator.coordinateWriting(at: url) { url in
            // The read: a window of its own, so that a schedule shows the claim, the read and the
            // save as three steps (a mark only widens the window the claim already leaves open).
            Race.window("read object")
            var object = try Self.read(from: url) ?? defaultValue
            try mutate(&object)
            // hazard: the value was read above. A writer that this claim does not exclude can save
            // between that read and this write, and its change is overwritten: a lost write.
            Race.window("save object")
            try Self.write(object, to: url)
        }
    }

    private static func read(from url: URL) throws -> Object? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        }
        return try JSONDecoder().decode(Object.self, from: data)
    }

    private static func write(_ object: Object, to url: URL) throws {
        try AtomicFile.write(JSONEncoder().encode(object), to: url)
    }
}
