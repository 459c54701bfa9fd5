// Compiler probe · lesson 5 · fixed
// The fix: barrier writes, each written atomically (to a temporary file renamed over the old one).
// Accepted by Swift 6, exactly like both bugs: the compiler cannot tell them apart.
import Foundation

extension PersistentDataStore {
    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async(flags: .barrier) {
            self.write(data, identifier: identifier, options: .atomic, completion: completion)
        }
    }
}
