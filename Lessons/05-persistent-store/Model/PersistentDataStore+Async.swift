import Foundation

/// The store's operations as `async` functions, for callers in Swift concurrency. Each submits the
/// same work item as its completion-handler twin and resumes when the completion runs.
extension PersistentDataStore {
    /// Stores the data `provider` makes under `identifier`; see `storeData(_:identifier:completion:)`.
    public func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: Identifier = UUID().uuidString
    ) async -> StoreResult {
        await withCheckedContinuation { continuation in
            storeData(provider, identifier: identifier) { continuation.resume(returning: $0) }
        }
    }

    /// Loads and transforms the data under `identifier`; see `loadData(forIdentifier:transformer:completion:)`.
    public func loadData<Value: Sendable>(
        forIdentifier identifier: Identifier,
        transformer: @escaping @Sendable (Data) -> Value?
    ) async -> LoadResult<Value> {
        await withCheckedContinuation { continuation in
            loadData(forIdentifier: identifier, transformer: transformer) { continuation.resume(returning: $0) }
        }
    }

    /// Removes the data under `identifier`; returns whether there was any.
    @discardableResult
    public func removeData(forIdentifier identifier: Identifier) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            removeData(forIdentifier: identifier) { continuation.resume(with: $0) }
        }
    }

    /// Removes every data file; returns how many.
    @discardableResult
    public func removeAll() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            removeAll { continuation.resume(with: $0) }
        }
    }
}
