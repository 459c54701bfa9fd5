// expect-diagnosis: unordered-stores
// A common wrong fix for exercise 5 (CI checks that it FAILS): write atomically (temporary file,
// then rename) and keep the plain `queue.sync`. Every reader now finds a whole file, yet nothing
// orders stores: one that starts later can rename first, and the older one lands last and wins.
import Foundation
import RaceLab

final class DocumentStore: @unchecked Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "exercise.document-store", attributes: .concurrent)

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String) throws {
        try queue.sync {
            try data.write(to: folder.appendingPathComponent(name), options: .atomic)
        }
    }

    func load(_ name: String) throws -> Data? {
        try queue.sync {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return try Data(contentsOf: url)
        }
    }
}
