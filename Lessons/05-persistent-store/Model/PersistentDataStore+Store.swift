import Foundation

extension PersistentDataStore {
    /// Stores the data `provider` makes under `identifier`, replacing what was there.
    ///
    /// The provider runs off the caller's thread, so a slow conversion (an image to JPEG data, say)
    /// does not hold up the caller: before the write on the encoding queue (`encodesBeforeWrite`),
    /// or inside the write as in the article. Stores made one after another are applied in that order.
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
            // back for as long as the provider takes.
            submit(writing: true, firstStep: "encode, chunk 1") {
                self.write(provider(), to: name, identifier: identifier, completion: completion)
            }
            return
        }
        // The encode runs on the serial encoding queue, which submits the writes in the order the
        // stores were made; only the write itself is a barrier.
        encodingQueue.async(firstStep: "encode") {
            let data = provider()
            self.submit(writing: true, firstStep: "write chunk 1") {
                self.write(data, to: name, identifier: identifier, completion: completion)
            }
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
