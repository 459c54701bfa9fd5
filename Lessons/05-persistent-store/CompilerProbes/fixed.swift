// Compiler probe · lesson 5 · fixed
// The fix: the data encoded first, on a serial queue that keeps stores in order, then a barrier write
// done atomically (to a temporary file renamed over the old one). Accepted by Swift 6, exactly like
// the bugs: the compiler cannot tell them apart.
import Foundation

/// Runs the providers one at a time, in the order the stores were made.
let encodingQueue = DispatchQueue(label: "persistent-data-store.encoding")

extension PersistentDataStore: EncodingStore {
    func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: String,
        completion: @escaping @Sendable (Error?) -> Void
    ) {
        encodingQueue.async {
            guard let data = provider() else { return completion(nil) }
            self.queue.async(flags: .barrier) {
                self.write(data, identifier: identifier, options: .atomic, completion: completion)
            }
        }
    }
}
