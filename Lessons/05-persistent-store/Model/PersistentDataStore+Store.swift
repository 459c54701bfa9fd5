import Foundation

extension PersistentDataStore {
    /// Stores the data `provider` makes under `identifier`, replacing what was there.
    ///
    /// The provider runs on the store's queue, inside the write, so a slow conversion (an image to
    /// JPEG data, say) does not hold up the caller. Stores made one after another are applied in
    /// that order.
    ///
    /// - Parameters:
    ///   - provider: makes the data; nil or empty data means there is nothing to store (`.noData`).
    ///   - identifier: the file name to store under; a new UUID by default.
    ///   - completion: gets `.success(identifier)`, `.noData` or `.failed(error)`, on the completion queue.
    public func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: Identifier = UUID().uuidString,
        completion: @escaping @Sendable (StoreResult) -> Void
    ) {
        guard let name = fileName(for: identifier, orDeliver: { .failed($0) }, to: completion) else { return }
        submit(writing: true) {
            guard let data = provider(), !data.isEmpty else {
                self.deliver(.noData, to: completion)
                return
            }
            do {
                if self.discipline.replaceAtomically {
                    // The article's `.atomic` write stages into a temporary file of its own; the
                    // shared-staging-name variant reuses one name per identifier.
                    let stagingName = self.discipline.uniqueStaging ? "\(name).\(UUID().uuidString)" : name
                    try DataFile.replace(
                        name,
                        in: self.directory,
                        with: data,
                        staging: self.stagingDirectory,
                        stagingName: stagingName
                    )
                } else {
                    try DataFile.overwrite(name, in: self.directory, with: data)
                }
                self.deliver(.success(identifier), to: completion)
            } catch {
                self.deliver(.failed(error), to: completion)
            }
        }
    }
}
