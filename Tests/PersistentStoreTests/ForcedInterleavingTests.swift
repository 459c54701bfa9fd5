import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import PersistentStore

/// The lesson's timelines, forced: a store's work item stops inside a window of its write (after
/// the first 4 KiB chunk), and something else happens right there.
@Suite("A write half done: who can see it, and what it leaves behind")
struct ForcedInterleavingTests {
    /// Store A (version 1) reaches `window`; inside it, store B (version 2) of the same document is
    /// made, and A waits for B's completion (at most `patience`). Returns both results, the file's
    /// final contents, and whether B completed while A was inside the window.
    static func overlappingStores(
        discipline: WriteDiscipline,
        window: String
    )
        async throws -> (a: StoreResult, b: StoreResult?, final: Payload?, bInsideA: Bool, fired: Bool)
    {
        let folder = try TestFolder()
        defer { folder.remove() }
        let store = try openStore(in: folder, discipline: discipline)
        _ = await store.storeData({ payload(0, version: 0) }, identifier: "document")
        // A correct store keeps B out while A writes, so A waits out its patience: keep it short.
        let patience: DispatchTimeInterval = discipline.barrier ? .milliseconds(300) : .seconds(20)
        let resultB = Completion<StoreResult>()
        let bInsideA = LockedValueBox(false)
        let hook = AtWindow(window) {
            let done = DispatchSemaphore(value: 0)
            store.storeData({ payload(0, version: 2) }, identifier: "document") { result in
                resultB.fulfil(result)
                done.signal()
            }
            let inside = done.wait(timeout: .now() + patience) == .success
            bInsideA.withLockedValue { $0 = inside }
        }
        let a = await onOwnThread { () -> StoreResult in
            let resultA = Completion<StoreResult>()
            Race.$hook.withValue(hook) {
                store.storeData({ payload(0, version: 1) }, identifier: "document") { resultA.fulfil($0) }
            }
            return resultA.wait()
        }
        let b = hook.fired ? await onOwnThread { resultB.wait() } : nil
        let final = try DataFile.contents(of: store.path(of: "document")).flatMap(Payload.init(validating:))
        return (a, b, final, bInsideA.value, hook.fired)
    }

    @Test("without the barrier, B renames its file while A waits to rename: A lands last and the older data wins")
    func noBarrierLetsTheOlderStoreWin() async throws {
        let outcome = try await Self.overlappingStores(discipline: .noBarrier, window: "rename staged file")
        // A: staging-A ← all of v1 … (window, before the rename)
        // B: staging-B ← all of v2; rename staging-B → document               (B succeeds)
        // A: rename staging-A → document                                      (A succeeds)
        // Both report success, no file is torn, and the document holds v1 although v2 was stored after it.
        #expect(outcome.fired)
        #expect(outcome.bInsideA)
        #expect(outcome.a.identifier == "document")
        #expect(outcome.b?.identifier == "document")
        #expect(outcome.final?.version == 1, "the older store renamed last")
    }

    @Test("with a shared staging name, B truncates A's staging file and A's last chunks land in the renamed file")
    func sharedStagingNameTearsTheFile() async throws {
        let outcome = try await Self.overlappingStores(discipline: .sharedStagingName, window: "write staged chunk")
        // A: staging ← chunk 1 of v1 … (window)
        // B: staging ← (truncated) all of v2; rename staging → document      (B succeeds)
        // A: chunks 2… of v1 written through its descriptor, into what is now "document";
        //    rename staging → document fails: staging no longer exists        (A fails)
        #expect(outcome.fired)
        #expect(outcome.bInsideA)
        #expect(outcome.b?.identifier == "document")
        #expect(outcome.a.error != nil)
        #expect(outcome.final == nil, "the data file holds v2's first chunk and v1's rest: torn")
    }

    @Test(
        "with the barrier, B waits for A and the file ends as B wrote it",
        arguments: ["write staged chunk", "rename staged file"]
    )
    func barrierKeepsWritesApart(window: String) async throws {
        let outcome = try await Self.overlappingStores(discipline: .fixed, window: window)
        #expect(outcome.fired)
        #expect(!outcome.bInsideA)
        #expect(outcome.a.identifier == "document")
        #expect(outcome.b?.identifier == "document")
        #expect(outcome.final?.version == 2)
    }

    /// Store A (version 1) reaches `window`; inside it, the data file is read directly, as another
    /// process would, and a load is asked of the store. Returns what each saw.
    static func readsDuringWrite(
        discipline: WriteDiscipline,
        window: String
    )
        async throws -> (outside: Data?, throughStore: Payload?, fired: Bool)
    {
        let folder = try TestFolder()
        defer { folder.remove() }
        let store = try openStore(in: folder, discipline: discipline)
        _ = await store.storeData({ payload(0, version: 0) }, identifier: "document")
        let outside = LockedValueBox<Data?>(nil)
        let loaded = Completion<LoadResult<Payload>>()
        let hook = AtWindow(window) {
            let contents = try? DataFile.contents(of: store.path(of: "document"))
            outside.withLockedValue { $0 = contents }
            // Queued behind the write, whose work item this is: it runs when the write is done.
            store.loadData(forIdentifier: "document", transformer: { Payload(validating: $0) }) { loaded.fulfil($0) }
        }
        await onOwnThread {
            let stored = Completion<StoreResult>()
            Race.$hook.withValue(hook) {
                store.storeData({ payload(0, version: 1) }, identifier: "document") { stored.fulfil($0) }
            }
            _ = stored.wait()
        }
        let throughStore = hook.fired ? await onOwnThread { loaded.wait().value } : nil
        return (outside.value, throughStore, hook.fired)
    }

    @Test("writing in place, a reader outside the queue sees the file half written")
    func inPlaceWriteIsSeenHalfDone() async throws {
        let seen = try await Self.readsDuringWrite(discipline: .nonAtomicWrite, window: "write chunk in place")
        #expect(seen.fired)
        #expect(seen.outside?.count == DataFile.chunkSize, "truncated, then one chunk written")
        #expect(seen.outside.flatMap(Payload.init(validating:)) == nil)
        #expect(seen.throughStore?.version == 1, "the store's own load waited for the write")
    }

    @Test("writing to a staging file, the same outside reader sees the old version whole")
    func stagedWriteIsInvisibleUntilRenamed() async throws {
        let seen = try await Self.readsDuringWrite(discipline: .fixed, window: "write staged chunk")
        #expect(seen.fired)
        #expect(seen.outside.flatMap(Payload.init(validating:))?.version == 0)
        #expect(seen.throughStore?.version == 1)
    }
}
