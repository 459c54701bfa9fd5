import Foundation

extension PersistentDataStore {
    /// Removes the data stored under `identifier`.
    ///
    /// - Parameter completion: gets `.success(true)` when there was data, `.success(false)` when
    ///   there was none, `.failure` for a bad identifier or a failed removal.
    public func removeData(
        forIdentifier identifier: Identifier,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void = { _ in }
    ) {
        do {
            try InvalidIdentifier.check(identifier)
        } catch {
            deliver(.failure(error), to: completion)
            return
        }
        submit(writing: true) {
            let result = Result { try DataFile.remove(self.path(of: identifier)) }
            self.deliver(result.mapError { $0 as any Error }, to: completion)
        }
    }

    /// Removes every data file of the store.
    ///
    /// Only entries whose names are valid identifiers and that are files (or links, which are
    /// removed, never followed) go; the store's own hidden files and any folder someone put inside
    /// stay. Nothing outside the folder is touched.
    ///
    /// - Parameter completion: gets the number of files removed, or the first error.
    public func removeAll(completion: @escaping @Sendable (Result<Int, any Error>) -> Void = { _ in }) {
        submit(writing: true) {
            let result = Result<Int, any Error> {
                var removed = 0
                for name in try FileManager.default.contentsOfDirectory(atPath: self.folder.path)
                where InvalidIdentifier.isValid(name) && DataFile.isFileOrLink(self.path(of: name)) {
                    if try DataFile.remove(self.path(of: name)) { removed += 1 }
                }
                return removed
            }
            self.deliver(result, to: completion)
        }
    }
}
