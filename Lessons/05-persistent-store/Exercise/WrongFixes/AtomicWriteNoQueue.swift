// expect-diagnosis: unordered-stores
// A wrong fix for exercise 5 (CI checks that it FAILS): write atomically and drop the store's
// queue. Every reader finds a whole file, yet nothing keeps two stores apart any more.
import Foundation
import RaceLab

final class DocumentStore: @unchecked Sendable {
    let folder: URL

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String) throws {
        Race.window("write chunk")
        try data.write(to: folder.appendingPathComponent(name), options: .atomic)
    }

    func load(_ name: String) throws -> Data? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }
}
