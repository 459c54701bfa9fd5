// Compiler probe · lesson 5 · shared-staging-name
// No barrier, and every write of a file stages into one temporary file named after it, then renames
// it into place: two writes of one file share the temporary file and tear it. Accepted by Swift 6:
// the class has no mutable memory, and the files it shares are beyond what the compiler models.
// Silent under TSan for the same reason.
import Foundation

/// The store's writes, made "atomic" by hand with a fixed temporary name per identifier.
extension PersistentDataStore {
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
