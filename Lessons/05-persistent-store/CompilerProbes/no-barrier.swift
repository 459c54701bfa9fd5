// Compiler probe · lesson 5 · no-barrier
// The article's store without .barrier: atomic writes of one file overlap and finish in any order, and
// loads run beside them. Accepted by Swift 6: the class has no mutable memory, and the files it
// shares are beyond what the compiler models. Silent under TSan for the same reason.
import Foundation

extension PersistentDataStore {
    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async { self.write(data, identifier: identifier, options: .atomic, completion: completion) }
    }
}
