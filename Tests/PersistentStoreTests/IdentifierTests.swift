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
        ("escape\u{1B}[2J", .containsControlCharacter(0x1B)),
        ("delete\u{7F}", .containsControlCharacter(0x7F)),
        ("next\u{85}line", .containsControlCharacter(0x85)),
        ("c1\u{9B}csi", .containsControlCharacter(0x9B)),
        ("line\u{2028}separator", .containsLineOrParagraphSeparator(0x2028)),
        ("paragraph\u{2029}separator", .containsLineOrParagraphSeparator(0x2029)),
        ("left\u{202A}embedding", .containsBidiControl(0x202A)),
        ("invoice\u{202E}fdp.exe", .containsBidiControl(0x202E)),
        ("isolate\u{2066}start", .containsBidiControl(0x2066)),
        ("isolate\u{2069}end", .containsBidiControl(0x2069)),
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

    @Test("bidi controls are named in words")
    func bidiErrorReadsWell() {
        let error = InvalidIdentifier(identifier: "a\u{202E}b", reason: .containsBidiControl(0x202E))
        #expect(error.description.contains("U+202E"))
        #expect(error.description.contains("bidirectional"))
        // The identifier is shown escaped, so the error line itself is not reordered.
        #expect(!error.description.unicodeScalars.contains("\u{202E}"))
    }

    @Test("NFC and NFD spellings of one name are one file")
    func canonicalSpellingsAreOneFile() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let store = try openStore(in: folder)
        let composed = "caf\u{E9}"  // é as one scalar (NFC)
        let decomposed = "cafe\u{301}"  // e + combining acute (NFD)
        #expect(Array(composed.unicodeScalars) != Array(decomposed.unicodeScalars))

        #expect(await store.storeData({ Data("one".utf8) }, identifier: decomposed).identifier != nil)
        #expect(await store.loadData(forIdentifier: composed) { $0 }.value == Data("one".utf8))
        #expect(await store.storeData({ Data("two".utf8) }, identifier: composed).identifier != nil)
        #expect(await store.loadData(forIdentifier: decomposed) { $0 }.value == Data("two".utf8))

        let names = try FileManager.default.contentsOfDirectory(atPath: store.folder.path)
            .filter { !$0.hasPrefix(".") }
        #expect(names.map { Array($0.unicodeScalars) } == [Array(composed.unicodeScalars)], "one file, named in NFC")
        #expect(try await store.removeData(forIdentifier: decomposed))
        #expect(await store.loadData(forIdentifier: composed) { $0 }.isNotFound)
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
