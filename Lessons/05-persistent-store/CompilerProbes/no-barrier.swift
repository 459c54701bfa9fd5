// Compiler probe · lesson 5 · no-barrier
// The article's store without .barrier: atomic writes of one file overlap and finish in any order, and
// loads run beside them. Accepted by Swift 6: the class has no mutable memory, and the files it
// shares are beyond what the compiler models. Silent under TSan for the same reason.
import Foundation

/// The article's PersistentDataStore, as a Swift 6 developer declares it: every stored property is
/// a `let` of a Sendable type, so `Sendable` is checked, not claimed.
final class PersistentDataStore: Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "persistent-data-store", attributes: .concurrent)

    init(folder: URL) { self.folder = folder }

    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async {
            do {
                try data.write(to: self.folder.appendingPathComponent(identifier), options: .atomic)
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
