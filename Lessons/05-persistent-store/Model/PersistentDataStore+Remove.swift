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
        guard let name = fileName(for: identifier, orDeliver: { .failure($0) }, to: completion) else { return }
        submit(writing: true) {
            let result = Result { try self.directory.remove(name) }
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
                // Names as they are on disk (not normalised): the entry removed is the one listed.
                for name in try self.directory.names()
                where InvalidIdentifier.isValid(name) && self.directory.isFileOrLink(name) {
                    if try self.directory.remove(name) { removed += 1 }
                }
                return removed
            }
            self.deliver(result, to: completion)
        }
    }
}
