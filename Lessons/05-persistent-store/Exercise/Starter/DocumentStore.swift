// Exercise 5: make `DocumentStore` safe for readers and writers.
//
// `DocumentStore` keeps each document as a file in a folder. `store(_:as:completion:)` returns at
// once and writes the file on the store's queue, then calls `completion`; `load(_:)` reads it.
// Yet under concurrent stores and loads, readers find files that are neither the old version nor
// the new (torn); and once every write is whole, a document stored v1, v2, v3 in order can still
// end up holding v2 (it went back).
// Fix `DocumentStore` so that every reader, including one that reads the file directly without
// the store's queue (another process, the next launch after a crash), sees either a whole old
// version or a whole new one (never no file, once the document is stored), and stores of one
// document land in the order they were made.
//
// Rules:
// - Keep the API: `init(folder:)`, `store(_:as:completion:)`, `load(_:)`.
// - Document `name` lives in the file `folder/name`; `load` of a document never stored is `nil`.
// - `completion` runs once, after the file is written (with the error, if the write failed).
//
// Check your fix:   make exercise-5        (PASS, or FAIL with how many reads were torn and
//                                          how many documents went back)
// Hints, one at a time: Lessons/05-persistent-store/Exercise/hints.md
// Start over:       make exercise-5-reset
import Foundation

final class DocumentStore: @unchecked Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "exercise.document-store", attributes: .concurrent)

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async {
            do {
                let url = self.folder.appendingPathComponent(name)
                if !FileManager.default.fileExists(atPath: url.path) {
                    FileManager.default.createFile(atPath: url.path, contents: nil)
                }
                // Write in place: empty the file, then write it chunk by chunk.
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.truncate(atOffset: 0)
                var offset = 0
                while offset < data.count {
                    let end = min(offset + 4_096, data.count)
                    try handle.write(contentsOf: data[offset..<end])
                    offset = end
                }
                completion(nil)
            } catch {
                completion(error)
            }
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
