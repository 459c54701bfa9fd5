// Compiler probe · lesson 5 · non-atomic-write
// Writes are barriers, but truncate and refill the file in place: a reader outside the queue (or
// another process) can read it half written. Accepted by Swift 6; invisible to TSan (the file is
// not memory).
import Foundation

/// The article's PersistentDataStore, as a Swift 6 developer declares it: every stored property is
/// a `let` of a Sendable type, so `Sendable` is checked, not claimed.
final class PersistentDataStore: Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "persistent-data-store", attributes: .concurrent)

    init(folder: URL) { self.folder = folder }

    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async(flags: .barrier) {
            do {
                try data.write(to: self.folder.appendingPathComponent(identifier))
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    func loadData(identifier: String, completion: @escaping @Sendable (Data?) -> Void) {
        queue.async {
            completion(try? Data(contentsOf: self.folder.appendingPathComponent(identifier)))
        }
    }
}

func storeConcurrently(in folder: URL) {
    let store = PersistentDataStore(folder: folder)
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        store.storeData(Data(repeating: UInt8(index), count: 4_096), identifier: "document-\(index % 4)") { _ in }
        store.loadData(identifier: "document-\(index % 4)") { _ in }
    }
}
