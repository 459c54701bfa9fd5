import Foundation
import RaceLab

@testable import PersistentStore

/// A parent folder of the test's own (the store's folder goes inside), removed by `remove()`.
struct TestFolder {
    let url: URL

    init() throws {
        url = try ScratchSpace.makeFolder(label: "persistent-store-test")
    }

    func remove() {
        ScratchSpace.remove(url)
    }
}

/// A queue for completions, distinguishable from every other queue.
final class CompletionQueue: Sendable {
    static let key = DispatchSpecificKey<String>()
    let queue: DispatchQueue
    let name: String

    init(_ name: String = "test-completions-\(UUID().uuidString)") {
        self.name = name
        queue = DispatchQueue(label: name)
        queue.setSpecific(key: Self.key, value: name)
    }

    /// Whether the calling code runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == name }
}

/// Runs `body` with a store opened (`openStore`) in a new test folder, removed afterwards.
func withStore<Value>(
    discipline: WriteDiscipline = .fixed,
    _ body: (PersistentDataStore) async throws -> Value
) async throws -> Value {
    let folder = try TestFolder()
    defer { folder.remove() }
    return try await body(openStore(in: folder, discipline: discipline))
}

/// Opens a store named "documents" in `folder`.
func openStore(in folder: TestFolder, discipline: WriteDiscipline = .fixed) throws -> PersistentDataStore {
    try PersistentDataStore(
        name: "documents",
        in: folder.url,
        completionQueue: CompletionQueue().queue,
        discipline: discipline
    )
}

/// Opens a store on `folder` once no released store holds its claim any more. The claim is a
/// `flock` on an open file description, which a child process another test spawns at that moment
/// shares until its `exec` closes it (`O_CLOEXEC`): the claim can outlive the store that took it by
/// the time a child takes to start. Gives up after 30 s with the last error.
func openStoreOnceReleased(in folder: TestFolder) async throws -> PersistentDataStore {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
        do {
            return try openStore(in: folder)
        } catch StoreError.folderInUse where ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// The bytes of version `version` of document `document`.
func payload(_ document: Int, version: Int, bodyLength: Int = 12_000) -> Data {
    Payload(document: document, version: version, bodyLength: bodyLength).encoded()
}

/// Waits for a completion-handler API from plain blocking code.
final class Completion<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Value?

    func fulfil(_ result: Value) {
        lock.withLock { value = result }
        done.signal()
    }

    func wait() -> Value {
        done.wait()
        return lock.withLock { value! }
    }
}

/// A store's or a load's result seen the same way: what it produced, or the error it failed with;
/// neither means there was nothing (no data to store, nothing under the identifier).
protocol StoreOutcome {
    associatedtype Payload
    var outcome: (payload: Payload?, error: (any Error)?) { get }
}

extension StoreOutcome {
    var error: (any Error)? { outcome.error }
    var isEmpty: Bool { outcome.payload == nil && outcome.error == nil }
}

extension StoreResult: StoreOutcome {
    var outcome: (payload: PersistentDataStore.Identifier?, error: (any Error)?) {
        switch self {
        case .success(let identifier): (identifier, nil)
        case .noData: (nil, nil)
        case .failed(let error): (nil, error)
        }
    }

    var identifier: PersistentDataStore.Identifier? { outcome.payload }
    var isNoData: Bool { isEmpty }
}

extension LoadResult: StoreOutcome {
    var outcome: (payload: Value?, error: (any Error)?) {
        switch self {
        case .loaded(let value): (value, nil)
        case .notFound: (nil, nil)
        case .failed(let error): (nil, error)
        }
    }

    var value: Value? { outcome.payload }
    var isNotFound: Bool { isEmpty }
}
