// Compiler probe · lesson 5 · two-stores
// The article's store as written (barrier writes, atomic files), opened twice on one folder: each
// store's barrier orders only its own queue, so writes of one file through the two stores overlap.
// Accepted by Swift 6: nothing in memory is shared, and the folder is beyond what it models.
import Foundation

extension PersistentDataStore {
    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async(flags: .barrier) {
            self.write(data, identifier: identifier, options: .atomic, completion: completion)
        }
    }
}

/// Two stores on one folder, each written from concurrent threads.
func storeThroughTwo(in folder: URL) {
    let stores = [PersistentDataStore(folder: folder), PersistentDataStore(folder: folder)]
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        stores[index % 2].storeData(Data(repeating: UInt8(index), count: 4_096), identifier: "document-0") { _ in }
    }
}
