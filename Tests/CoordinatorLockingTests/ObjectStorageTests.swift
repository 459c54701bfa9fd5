import Foundation
import Testing

@testable import CoordinatorLocking

@Suite("ObjectStorage keeps one Codable object in one JSON file")
struct ObjectStorageTests {
    @Test("an object saved by one instance is fetched by another, and delete removes it")
    func roundTrip() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let writer = ObjectStorage<Counter>(url: folder.counter)
        let reader = ObjectStorage<Counter>(url: folder.counter, coordinator: FileCoordinator.shared)
        #expect(try reader.fetchObject() == nil)
        try writer.save(object: Counter(value: 41))
        #expect(try reader.fetchObject() == Counter(value: 41))
        try writer.delete()
        #expect(try reader.fetchObject() == nil)
        try writer.delete()  // deleting nothing is fine
    }

    @Test("mutatingObject starts from the default value and saves the change")
    func mutatingStartsFromDefault() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let storage = ObjectStorage<Counter>(url: folder.counter)
        try storage.mutatingObject(defaultValue: Counter(value: 10)) { $0.value += 1 }
        try storage.mutatingObject(defaultValue: Counter(value: 10)) { $0.value += 1 }
        #expect(try storage.fetchObject() == Counter(value: 12))
    }

    @Test("a file that is not the object's JSON is an error, not a silent default")
    func corruptFileThrows() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try Data("not json".utf8).write(to: folder.counter)
        let storage = ObjectStorage<Counter>(url: folder.counter)
        #expect(throws: DecodingError.self) { try storage.fetchObject() }
        #expect(throws: DecodingError.self) { try storage.mutatingObject(defaultValue: Counter()) { $0.value += 1 } }
    }

    @Test("saves leave no temporary files behind")
    func savesLeaveOnlyTheFile() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let storage = ObjectStorage<Counter>(url: folder.counter)
        for value in 0..<20 { try storage.save(object: Counter(value: value)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["counter.json"])
    }
}
