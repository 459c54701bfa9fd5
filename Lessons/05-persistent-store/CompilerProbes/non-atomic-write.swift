// Compiler probe · lesson 5 · non-atomic-write
// Writes are barriers, but truncate and refill the file in place: a reader outside the queue (or
// another process) can read it half written. Accepted by Swift 6; invisible to TSan (the file is
// not memory).
import Foundation

extension PersistentDataStore {
    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async(flags: .barrier) { self.write(data, identifier: identifier, options: [], completion: completion) }
    }
}
