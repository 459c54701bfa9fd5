import Foundation
import RaceLabTesting
import Testing

@testable import PersistentStore

@Suite("PersistentDataStore stores, loads and removes files in its own folder")
struct StoreBehaviorTests {
    @Test("stored data loads back, and removal makes it not found")
    func roundTrip() async throws {
        try await withStore { (store) async throws in
            let stored = await store.storeData({ Data("hello".utf8) }, identifier: "greeting")
            #expect(stored.identifier == "greeting")
            let loaded = await store.loadData(forIdentifier: "greeting") { String(decoding: $0, as: UTF8.self) }
            #expect(loaded.value == "hello")
            #expect(try await store.removeData(forIdentifier: "greeting"))
            #expect(try await store.removeData(forIdentifier: "greeting") == false)
            #expect(await store.loadData(forIdentifier: "greeting") { $0 }.isNotFound)
        }
    }

    @Test("without an identifier, a store gets a new UUID")
    func defaultIdentifier() async throws {
        try await withStore { store in
            let first = try #require(await store.storeData({ Data([1]) }).identifier)
            let second = try #require(await store.storeData({ Data([2]) }).identifier)
            #expect(UUID(uuidString: first) != nil)
            #expect(first != second)
            #expect(await store.loadData(forIdentifier: second) { $0 }.value == Data([2]))
        }
    }

    @Test("a provider with nothing to store gives noData and writes nothing", arguments: [nil, Data()])
    func noData(data: Data?) async throws {
        try await withStore { store in
            #expect(await store.storeData({ data }, identifier: "empty").isNoData)
            #expect(await store.loadData(forIdentifier: "empty") { $0 }.isNotFound)
        }
    }

    @Test("a transformer that cannot make a value is a failure, not a missing file")
    func transformerFailure() async throws {
        try await withStore { store in
            _ = await store.storeData({ Data([0xFF, 0xFE]) }, identifier: "binary")
            let loaded: LoadResult<Int> = await store.loadData(forIdentifier: "binary") { _ in nil }
            #expect(loaded.error.map { "\($0)" }?.contains("transformer") == true)
        }
    }

    @Test("every completion runs on the queue the caller chose")
    func completionsOnChosenQueue() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let completions = CompletionQueue()
        let store = try PersistentDataStore(name: "documents", in: folder.url, completionQueue: completions.queue)
        let onQueue = await onOwnThread { () -> [Bool] in
            let stored = Completion<Bool>()
            let loaded = Completion<Bool>()
            let removed = Completion<Bool>()
            let all = Completion<Bool>()
            let rejected = Completion<Bool>()
            store.storeData({ Data([1]) }, identifier: "a") { _ in stored.fulfil(completions.isCurrent) }
            store.loadData(forIdentifier: "a", transformer: { $0 }) { _ in loaded.fulfil(completions.isCurrent) }
            store.removeData(forIdentifier: "a") { _ in removed.fulfil(completions.isCurrent) }
            store.removeAll { _ in all.fulfil(completions.isCurrent) }
            store.storeData({ Data([1]) }, identifier: "../a") { _ in rejected.fulfil(completions.isCurrent) }
            return [stored.wait(), loaded.wait(), removed.wait(), all.wait(), rejected.wait()]
        }
        #expect(onQueue == [true, true, true, true, true])
    }

    @Test("stores of one identifier made one after another are applied in that order")
    func storesApplyInOrder() async throws {
        let last = try await withStore { store in
            await onOwnThread { () -> Int in
                let done = DispatchGroup()
                for version in 1...200 {
                    done.enter()
                    store.storeData({ payload(0, version: version) }, identifier: "document") { _ in done.leave() }
                }
                done.wait()
                let loaded = Completion<LoadResult<Payload>>()
                store.loadData(forIdentifier: "document", transformer: { Payload(validating: $0) }) {
                    loaded.fulfil($0)
                }
                return loaded.wait().value?.version ?? -1
            }
        }
        #expect(last == 200)
    }

    @Test(
        "a load made after a store returned sees that store, however long its encode",
        arguments: [WriteDiscipline.fixed, .encodeInBarrier]
    )
    func loadAfterStoreSeesIt(discipline: WriteDiscipline) async throws {
        let loaded = try await withStore(discipline: discipline) { store in
            await afterHeldStore(in: store) { later, _ in
                let loaded = Completion<Int>()
                store.loadData(forIdentifier: "document", transformer: { Payload(validating: $0) }) {
                    later.othersDone()
                    loaded.fulfil($0.value?.version ?? -1)
                }
                return loaded.wait()
            }
        }
        #expect(loaded == 2)
    }

    @Test(
        "a removal made after a store returned leaves nothing, however long the store's encode",
        arguments: [WriteDiscipline.fixed, .encodeInBarrier]
    )
    func removeAfterStoreLeavesNothing(discipline: WriteDiscipline) async throws {
        try await withStore(discipline: discipline) { store in
            let (stored, removed) = await afterHeldStore(in: store) { later, stored in
                let removed = Completion<Bool>()
                store.removeData(forIdentifier: "document") {
                    later.othersDone()
                    removed.fulfil((try? $0.get()) == true)
                }
                return (stored.wait(), removed.wait())
            }
            #expect(stored && removed)
            #expect(await store.loadData(forIdentifier: "document") { $0 }.isNotFound)
        }
    }

    /// Stores version 1 of "document" in `store`, then, on a thread of its own, starts a store of
    /// version 2 whose encode is held (`later`) and runs `next`, the operation made after that store
    /// returned. `stored` is fulfilled when the held store completes, with whether it stored.
    private func afterHeldStore<Value: Sendable>(
        in store: PersistentDataStore,
        _ next: @escaping @Sendable (_ later: HeldEncode, _ stored: Completion<Bool>) -> Value
    ) async -> Value {
        _ = await store.storeData({ payload(0, version: 1) }, identifier: "document")
        return await onOwnThread { () -> Value in
            let later = HeldEncode()
            let stored = Completion<Bool>()
            store.storeData(later.provider(payload(0, version: 2)), identifier: "document") {
                stored.fulfil($0.identifier != nil)
            }
            return next(later, stored)
        }
    }

    @Test("a second store on the same folder is refused until the first is gone")
    func oneStorePerFolder() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        var first: PersistentDataStore? = try openStore(in: folder)
        #expect(first != nil)
        #expect {
            try openStore(in: folder)
        } throws: { error in
            "\(error)".contains("another PersistentDataStore manages")
        }
        first = nil
        _ = try await openStoreOnceReleased(in: folder)
    }

    @Test("opening a store removes staging files a crashed writer left, never data files")
    func stagingLeftoversAreCleared() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        weak var first: PersistentDataStore?
        do {
            let store = try openStore(in: folder)
            first = store
            _ = await store.storeData({ payload(0, version: 1) }, identifier: "document-0")
            try Data("half".utf8).write(to: store.staging.appendingPathComponent("document-0"))
        }
        // The completion can run before the block that called it has let go of the store, which
        // keeps its claim on the folder until then: wait for the first store to be gone.
        let deadline = ContinuousClock.now + .seconds(30)
        while first != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(first == nil, "the first store was never released")
        let store = try await openStoreOnceReleased(in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.staging.path).isEmpty)
        #expect(await store.loadData(forIdentifier: "document-0") { Payload(validating: $0) }.value?.version == 1)
    }
}

/// An encode held open until the operations made after its store have completed (or half a second
/// passed, which is what happens when they wait for it): a store that lets them run first is caught
/// every time, not when a thread happens to be slow.
private final class HeldEncode: Sendable {
    private let done = DispatchSemaphore(value: 0)

    func provider(_ data: Data) -> @Sendable () -> Data? {
        { [done] in
            _ = done.wait(timeout: .now() + .milliseconds(500))
            return data
        }
    }

    /// Called by the completion of the operation made after the store.
    func othersDone() {
        done.signal()
    }
}
