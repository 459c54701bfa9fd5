import Foundation

extension PersistentDataStore {
    /// Stores the data `provider` makes under `identifier`, replacing what was there.
    ///
    /// With `encodesBeforeWrite` the provider (a slow conversion: an image to JPEG data, say) runs
    /// on the caller's thread, before the write is submitted: the caller pays for its encode, and
    /// loads never wait for it. Without it, as in the article, the provider runs inside the write.
    /// Either way the write is submitted before this returns, so operations made after it (stores,
    /// loads, removals) are applied after it.
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
        guard discipline.encodesBeforeWrite else {
            // The article's store: the encode runs inside the write, so a barrier holds every load
            // back for as long as the provider takes. The item's first step, as a schedule names
            // it, also writes the first chunk: the step says where (a staging file, or the data
            // file itself, emptied first), so that a torn file after it is not read as the encode's.
            let firstStep = discipline.replaceAtomically ? "encode, stage chunk 1" : "encode, empty file, chunk 1"
            submit(writing: true, firstStep: firstStep) {
                self.write(provider(), to: name, identifier: identifier, completion: completion)
            }
            return
        }
        // The encode runs here, before the write is submitted: a load or removal made after this
        // call returns is queued behind the write, and only the write itself is a barrier.
        let data = provider()
        submit(writing: true, firstStep: discipline.replaceAtomically ? "stage chunk 1" : "empty file, chunk 1") {
            self.write(data, to: name, identifier: identifier, completion: completion)
        }
    }

    /// Writes `data` to the file `name`, as the discipline says, and delivers the result.
    private func write(
        _ data: Data?,
        to name: String,
        identifier: Identifier,
        completion: @escaping @Sendable (StoreResult) -> Void
    ) {
        guard let data, !data.isEmpty else {
            deliver(.noData, to: completion)
            return
        }
        do {
            if discipline.replaceAtomically {
                // The article's `.atomic` write stages into a temporary file of its own; the
                // shared-staging-name variant reuses one name per identifier.
                let stagingName = discipline.uniqueStaging ? "\(name).\(UUID().uuidString)" : name
                try DataFile.replace(
                    name,
                    in: directory,
                    with: data,
                    staging: stagingDirectory,
                    stagingName: stagingName
                )
            } else {
                try DataFile.overwrite(name, in: directory, with: data)
            }
            deliver(.success(identifier), to: completion)
        } catch {
            deliver(.failed(error), to: completion)
        }
    }
}
