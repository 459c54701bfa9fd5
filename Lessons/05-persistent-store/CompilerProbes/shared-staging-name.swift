// Compiler probe · lesson 5 · shared-staging-name
// No barrier, and every write of a file stages into one temporary file named after it, then renames
// it into place: two writes of one file share the temporary file and tear it. Accepted by Swift 6:
// the class has no mutable memory, and the files it shares are beyond what the compiler models.
// Silent under TSan for the same reason.
import Foundation

/// A store that makes its own "atomic" writes with a fixed temporary name per identifier.
final class PersistentDataStore: Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "persistent-data-store", attributes: .concurrent)

    init(folder: URL) { self.folder = folder }

    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async {
            let staging = self.folder.appendingPathComponent(".staging-" + identifier)
            let destination = self.folder.appendingPathComponent(identifier)
            do {
                try data.write(to: staging)
                _ = try FileManager.default.replaceItemAt(destination, withItemAt: staging)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }
}

func storeConcurrently(in folder: URL) {
    let store = PersistentDataStore(folder: folder)
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        store.storeData(Data(repeating: UInt8(index), count: 4_096), identifier: "document-\(index % 4)") { _ in }
    }
}
