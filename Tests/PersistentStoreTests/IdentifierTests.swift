import Foundation
import Testing

@testable import PersistentStore

@Suite("Identifiers become file names: anything that could escape the folder is refused")
struct IdentifierTests {
    static let rejected: [(String, InvalidIdentifier.Reason)] = [
        ("", .empty),
        (".", .dotOrDotDot),
        ("..", .dotOrDotDot),
        ("../victim", .leadingDot),
        (".hidden", .leadingDot),
        ("sub/file", .containsSlash),
        ("a/../../victim", .containsSlash),
        ("/etc/passwd", .containsSlash),
        ("nul\u{0}byte", .containsNUL),
        ("line\nbreak", .containsControlCharacter(0x0A)),
        (String(repeating: "x", count: 256), .tooLong(bytes: 256)),
        (String(repeating: "é", count: 128), .tooLong(bytes: 256)),
    ]

    @Test("bad identifiers are rejected with the reason", arguments: rejected)
    func rejectsBadIdentifiers(identifier: String, reason: InvalidIdentifier.Reason) {
        #expect(throws: InvalidIdentifier(identifier: identifier, reason: reason)) {
            try InvalidIdentifier.check(identifier)
        }
    }

    @Test(
        "ordinary names pass",
        arguments: [
            UUID().uuidString, "photo 1.jpg", "résumé.pdf", "數據", "a..b", "x~", String(repeating: "x", count: 255),
        ]
    )
    func acceptsOrdinaryNames(identifier: String) throws {
        try InvalidIdentifier.check(identifier)
    }

    @Test("the error says what is wrong in words")
    func readableErrors() {
        let error = InvalidIdentifier(identifier: "../victim", reason: .leadingDot)
        #expect(
            error.description
                == #"invalid identifier "../victim": names starting with '.' are reserved for the store's own files"#
        )
        #expect("\(InvalidIdentifier(identifier: "a/b", reason: .containsSlash))".contains("another folder"))
    }

    @Test(
        "store, load and remove refuse a bad identifier and touch nothing outside the folder",
        arguments: rejected.map(\.0)
    )
    func operationsRefuse(identifier: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let victim = folder.url.appendingPathComponent("victim")
        try Data("keep me".utf8).write(to: victim)
        let store = try openStore(in: folder)

        let stored = await store.storeData({ Data("overwritten".utf8) }, identifier: identifier)
        #expect(stored.error is InvalidIdentifier)
        let loaded = await store.loadData(forIdentifier: identifier) { $0 }
        #expect(loaded.error is InvalidIdentifier)
        await #expect(throws: InvalidIdentifier.self) { try await store.removeData(forIdentifier: identifier) }

        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.folder.path).sorted() == [".lock", ".staging"]
        )
    }

    @Test("a store name is an identifier too")
    func storeNameIsChecked() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        #expect(throws: InvalidIdentifier.self) {
            try PersistentDataStore(name: "../elsewhere", in: folder.url, completionQueue: .global())
        }
    }
}
