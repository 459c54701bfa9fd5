import Foundation
import Testing

@testable import PersistentStore

/// Nothing outside the store's folder is read, written or removed, even when the folder holds
/// links pointing out of it or neighbours with similar names.
@Suite("The store never reaches outside its folder")
struct ContainmentTests {
    /// A store with a neighbourhood: a file beside the folder, a folder with a similar name, a link
    /// inside pointing at the file outside, a folder inside, and two data files.
    struct Neighbourhood {
        let folder: TestFolder
        let store: PersistentDataStore
        let outside: URL
        let similar: URL

        init(discipline: WriteDiscipline = .fixed) async throws {
            folder = try TestFolder()
            store = try openStore(in: folder, discipline: discipline)
            outside = folder.url.appendingPathComponent("outside.txt")
            try Data("outside".utf8).write(to: outside)
            similar = folder.url.appendingPathComponent("documents-old")
            try FileManager.default.createDirectory(at: similar, withIntermediateDirectories: false)
            try Data("old".utf8).write(to: similar.appendingPathComponent("document-0"))
            try FileManager.default.createSymbolicLink(
                at: store.folder.appendingPathComponent("link"),
                withDestinationURL: outside
            )
            try FileManager.default.createDirectory(
                at: store.folder.appendingPathComponent("someone's folder"),
                withIntermediateDirectories: false
            )
            _ = await store.storeData({ Data([1]) }, identifier: "document-0")
            _ = await store.storeData({ Data([2]) }, identifier: "document-1")
        }

        func outsideIsIntact() throws -> Bool {
            try Data(contentsOf: outside) == Data("outside".utf8)
                && Data(contentsOf: similar.appendingPathComponent("document-0")) == Data("old".utf8)
        }
    }

    @Test("removeAll removes the data files and the link, not what the link points to")
    func removeAllStaysInside() async throws {
        let place = try await Neighbourhood()
        defer { place.folder.remove() }
        #expect(try await place.store.removeAll() == 3)  // document-0, document-1, link
        #expect(try place.outsideIsIntact())
        let left = try FileManager.default.contentsOfDirectory(atPath: place.store.folder.path).sorted()
        #expect(left == [".lock", ".staging", "someone's folder"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: place.folder.url.path).sorted()
                == ["documents", "documents-old", "outside.txt"]
        )
    }

    @Test("loading a link refuses to follow it out of the folder")
    func loadDoesNotFollowLinks() async throws {
        let place = try await Neighbourhood()
        defer { place.folder.remove() }
        let loaded = await place.store.loadData(forIdentifier: "link") { $0 }
        #expect(loaded.error != nil)
        #expect(loaded.value == nil)
    }

    @Test(
        "storing over a link replaces the link, or refuses; the file outside keeps its data",
        arguments: ["fixed", "non-atomic-write"]
    )
    func storeDoesNotWriteThroughLinks(discipline: String) async throws {
        let place = try await Neighbourhood(discipline: discipline == "fixed" ? .fixed : .nonAtomicWrite)
        defer { place.folder.remove() }
        _ = await place.store.storeData({ Data("inside".utf8) }, identifier: "link")
        #expect(try place.outsideIsIntact())
    }

    @Test("removing a link removes the link only")
    func removeDoesNotFollowLinks() async throws {
        let place = try await Neighbourhood()
        defer { place.folder.remove() }
        #expect(try await place.store.removeData(forIdentifier: "link"))
        #expect(try place.outsideIsIntact())
    }
}
