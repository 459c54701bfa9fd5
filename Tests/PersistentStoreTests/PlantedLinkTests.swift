import Foundation
import Testing

@testable import PersistentStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Links and odd files planted among the store's own entries (`.staging`, `.lock`, the folder
/// itself, a data file) before or after it opens: the store refuses them with
/// `StoreError.unexpectedEntry`, and nothing outside its folder is created, written or removed.
@Suite("The store follows no link planted in its folder")
struct PlantedLinkTests {
    /// A parent folder holding the store's folder (`documents`), and beside it an outside folder with
    /// a file that must survive.
    struct Plot {
        let folder: TestFolder
        let documents: URL
        let outside: URL
        let victim: URL

        init() throws {
            folder = try TestFolder()
            documents = folder.url.appendingPathComponent("documents", isDirectory: true)
            outside = folder.url.appendingPathComponent("outside", isDirectory: true)
            victim = outside.appendingPathComponent("victim")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
            try Data("keep me".utf8).write(to: victim)
        }

        /// Plants a symbolic link at `name` inside the store's folder, pointing at `target`.
        func plantLink(_ name: String, to target: URL) throws {
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: documents.appendingPathComponent(name).path,
                withDestinationPath: target.path
            )
        }

        /// The names in the outside folder.
        func outsideNames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()
        }

        /// Nothing outside was created, removed or written: the victim alone, as it was.
        func expectOutsideUntouched() throws {
            #expect(try outsideNames() == ["victim"])
            #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
        }
    }

    /// Opening must throw `StoreError.unexpectedEntry` naming `entry`; returns its description.
    static func expectRefusal(_ plot: Plot, entry: String) throws {
        let error = #expect(throws: StoreError.self) { try openStore(in: plot.folder) }
        guard case .unexpectedEntry(let path, _, let found)? = error else {
            Issue.record("expected StoreError.unexpectedEntry, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix(entry))
        #expect(found == "a symbolic link")
        #expect("\(error!)".contains("symbolic link"))
    }

    /// In a new plot, plants a link at `name` pointing at `target`, expects the store to refuse to
    /// open, and expects the outside folder untouched.
    static func expectLinkRefused(_ name: String, to target: (Plot) -> URL) throws {
        let plot = try Plot()
        defer { plot.folder.remove() }
        try plot.plantLink(name, to: target(plot))
        try expectRefusal(plot, entry: "documents/\(name)")
        try plot.expectOutsideUntouched()
    }

    @Test("a .staging link to an outside folder: the store refuses to open, the outside file stays")
    func stagingLinkIsRefused() throws {
        try Self.expectLinkRefused(".staging", to: \.outside)
    }

    @Test("a dangling .lock link: the store refuses to open and creates nothing outside")
    func danglingLockLinkIsRefused() throws {
        try Self.expectLinkRefused(".lock", to: { $0.outside.appendingPathComponent("created") })
    }

    @Test("a .lock link to an outside file: the store refuses to open and leaves the file alone")
    func lockLinkToFileIsRefused() throws {
        try Self.expectLinkRefused(".lock", to: \.victim)
    }

    @Test("a store folder that is itself a link is refused")
    func folderLinkIsRefused() throws {
        let plot = try Plot()
        defer { plot.folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: plot.documents.path, withDestinationPath: plot.outside.path)
        try Self.expectRefusal(plot, entry: "documents")
        try plot.expectOutsideUntouched()
    }

    @Test("a store in a parent folder that does not exist fails, and creates nothing")
    func missingParentIsNotCreated() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let parent = folder.url.appendingPathComponent("missing", isDirectory: true)
        let error = #expect(throws: StoreError.self) {
            try PersistentDataStore(name: "documents", in: parent, completionQueue: .global())
        }
        guard case .system(let operation, _, let code)? = error else {
            Issue.record("expected StoreError.system, got \(String(describing: error))")
            return
        }
        #expect(operation == "mkdir" && code == ENOENT)
        #expect(!FileManager.default.fileExists(atPath: parent.path))
    }

    @Test("a .staging link planted after the store opened is not followed: stores stay inside")
    func stagingSwappedAfterOpening() async throws {
        let plot = try Plot()
        defer { plot.folder.remove() }
        let store = try openStore(in: plot.folder)
        let moved = plot.documents.appendingPathComponent("moved-staging")
        try FileManager.default.moveItem(at: store.staging, to: moved)
        try plot.plantLink(".staging", to: plot.outside)
        // A store staged through the link would open outside/document-0: a folder, so it would fail.
        let trap = plot.outside.appendingPathComponent("document-0")
        try FileManager.default.createDirectory(at: trap, withIntermediateDirectories: false)

        let stored = await store.storeData({ payload(0, version: 1) }, identifier: "document-0")
        #expect(stored.identifier == "document-0", "\(String(describing: stored.error))")
        #expect(try plot.outsideNames() == ["document-0", "victim"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: trap.path).isEmpty)
        let loaded = await store.loadData(forIdentifier: "document-0") { Payload(validating: $0) }
        #expect(loaded.value?.version == 1)
    }

    @Test("a FIFO planted as a data file fails the load instead of blocking it")
    func fifoIsRefused() async throws {
        let plot = try Plot()
        defer { plot.folder.remove() }
        let store = try openStore(in: plot.folder)
        #expect(mkfifo(store.path(of: "pipe"), 0o644) == 0)
        let loaded = await store.loadData(forIdentifier: "pipe") { $0 }
        guard case StoreError.unexpectedEntry(_, _, let found)? = loaded.error else {
            Issue.record("expected StoreError.unexpectedEntry, got \(String(describing: loaded.error))")
            return
        }
        #expect(found == "a FIFO")
    }
}
