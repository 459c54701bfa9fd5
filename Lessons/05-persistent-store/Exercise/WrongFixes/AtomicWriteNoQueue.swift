// expect-diagnosis: unordered-stores
// A wrong fix for exercise 5 (CI checks that it FAILS): write atomically and drop the store's own
// queue for a global one. Every reader finds a whole file, yet nothing keeps stores of one
// document in order any more: an older store can rename its file in last.
import Foundation

final class DocumentStore: @unchecked Sendable {
    let folder: URL

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            do {
                try data.write(to: self.folder.appendingPathComponent(name), options: .atomic)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    func load(_ name: String) throws -> Data? {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }
}
