import Foundation
import RaceLab

/// What `racelab explore 1` runs: the lesson's own store, two (or `--threads`) threads, one key each.
extension SubscriptRaceLesson {
    /// The store type in both variants: `store(_:forIdentifier:)` and `numberOfItems`.
    protocol KeyStore: Sendable {
        func store(_ data: Data, forIdentifier id: String)
        var numberOfItems: Int { get }
        var identifiers: [String] { get }
        /// The stores' copies on their way back, when the store keeps them (the buggy one): each
        /// store's key and the keys it read.
        var copiesInFlight: [(key: String, read: [String])] { get }
    }

    /// Each logical thread stores one distinct key; afterwards every key must be there.
    ///
    /// The scheduling points are the store's `RaceQueue`'s: `sync storage` (the getter's
    /// `queue.sync`), each barrier work item (a thread of its own, `storage barrier`), and, with
    /// marks off, each `async barrier storage` submission; with marks, the setter's window
    /// `set contents` and the fixed store's `store contents` step. The queue model runs barriers in
    /// the order they were submitted and holds every later `sync` back until they ran, as
    /// libdispatch does, so the order of the steps alone decides what the store holds, and a
    /// schedule replays exactly.
    ///
    /// The state shown between steps is the store's keys, read through its own `queue.sync` from
    /// the controller's thread, outside the explorer, while every logical thread is paused, and
    /// the buggy store's copies on their way back: what each store read, plus its key.
    static func storeOneKeyEach<Store: KeyStore>(_ makeStore: @escaping @Sendable () -> Store) -> Exploration {
        Exploration(
            summary: "each thread stores one key; invariant: every key is present",
            makeState: makeStore,
            thread: { store, index in store.store(Data([0x52, 0x4C]), forIdentifier: "item-\(index)") },
            invariant: { store, threads in
                let kept = store.numberOfItems
                return kept == threads ? nil : "kept \(kept) of \(threads) keys"
            },
            describeState: { store in
                // Thread i stores item-i: its copy is what it read, plus its key.
                let copies = store.copiesInFlight.map { copy in
                    "thread \(copy.key.dropFirst("item-".count)) read [\(copy.read.joined(separator: ", "))] → "
                        + "will write [\((copy.read + [copy.key]).joined(separator: ", "))]"
                }
                return (["store holds [" + store.identifiers.joined(separator: ", ") + "]"] + copies)
                    .joined(separator: " · ")
            }
        ).markingEveryWindow()
    }
}

extension SubscriptRaceLesson {
    /// The actor store, one key per thread. Its only scheduling point is `call store`, before the
    /// `await`: the method has no window of its own, because the actor runs it whole. The explorer
    /// can only confirm that no order of the calls loses a key, which is the lesson's point: with an
    /// actor, the interleavings that broke the queue-guarded store no longer exist.
    static let actorStoresOneKeyEach = Exploration(
        summary: "each task awaits one store on the actor; invariant: every key is present",
        makeState: { ActorStorage() },
        asyncThread: { storage, index in
            Race.step("call store")
            await storage.store(Data([0x52, 0x4C]), forIdentifier: "item-\(index)")
        },
        invariant: { storage, threads in
            let kept = await storage.numberOfItems
            return kept == threads ? nil : "kept \(kept) of \(threads) keys"
        }
    ).markingEveryWindow()
}

extension Storage: SubscriptRaceLesson.KeyStore {
    var copiesInFlight: [(key: String, read: [String])] { copies?.inFlight ?? [] }
}

extension FixedStorage: SubscriptRaceLesson.KeyStore {
    /// None: a store reads and writes in one work item, with no copy in between.
    var copiesInFlight: [(key: String, read: [String])] { [] }
}
