import Foundation

extension PersistentDataStore {
    /// Reads the data stored under `identifier` and turns it into a value with `transformer`.
    ///
    /// Runs concurrently with other loads; waits for writes submitted before it.
    ///
    /// - Parameters:
    ///   - transformer: makes the value from the data (runs on the store's queue); nil is a failure.
    ///   - completion: gets `.loaded(value)`, `.notFound` or `.failed(error)`, on the completion queue.
    public func loadData<Value: Sendable>(
        forIdentifier identifier: Identifier,
        transformer: @escaping @Sendable (Data) -> Value?,
        completion: @escaping @Sendable (LoadResult<Value>) -> Void
    ) {
        guard let name = fileName(for: identifier, orDeliver: { .failed($0) }, to: completion) else { return }
        submit(writing: false) {
            let result: LoadResult<Value>
            do {
                if let data = try DataFile.contents(of: name, in: self.directory) {
                    if let value = transformer(data) {
                        result = .loaded(value)
                    } else {
                        result = .failed(StoreError.transformFailed(identifier))
                    }
                } else {
                    result = .notFound
                }
            } catch {
                result = .failed(error)
            }
            self.deliver(result, to: completion)
        }
    }
}
