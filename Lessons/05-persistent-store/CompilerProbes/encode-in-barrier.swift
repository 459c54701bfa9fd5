// Compiler probe · lesson 5 · encode-in-barrier
// The article's store as written: the data provider (the encode) runs inside the barrier write, so
// every load submitted meanwhile waits for it. Correct, and accepted by Swift 6: a wait is no race.
import Foundation

extension PersistentDataStore: EncodingStore {
    func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: String,
        completion: @escaping @Sendable (Error?) -> Void
    ) {
        queue.async(flags: .barrier) {
            // hazard: the encode runs while the barrier holds every load back
            guard let data = provider() else { return completion(nil) }
            self.write(data, identifier: identifier, options: .atomic, completion: completion)
        }
    }
}
