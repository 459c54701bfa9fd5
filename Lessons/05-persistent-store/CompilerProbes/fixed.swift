// Compiler probe · lesson 5 · fixed
// The fix: the data encoded first, on the caller's thread, then a barrier write done atomically (to a
// temporary file renamed over the old one), submitted before storeData returns so that later calls
// are applied after it. Accepted by Swift 6, exactly like the bugs: the compiler cannot tell them
// apart.
import Foundation

extension PersistentDataStore: EncodingStore {
    func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: String,
        completion: @escaping @Sendable (Error?) -> Void
    ) {
        guard let data = provider() else { return completion(nil) }
        queue.async(flags: .barrier) {
            self.write(data, identifier: identifier, options: .atomic, completion: completion)
        }
    }
}
