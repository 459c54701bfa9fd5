// Compiler probes · lesson 5 · prelude
// What the probes of this lesson share, type-checked together with each of them (see
// CompilerProbe.preludeName): the article's store and its concurrent callers. Each probe adds
// only `storeData`, the pattern it measures: whether a write is a barrier, whether it is atomic, and
// where the encode runs.
import Foundation

/// The article's PersistentDataStore, as a Swift 6 developer declares it: every stored property is
/// a `let` of a Sendable type, so `Sendable` is checked, not claimed.
final class PersistentDataStore: Sendable {
    let folder: URL
    let queue = DispatchQueue(label: "persistent-data-store", attributes: .concurrent)

    init(folder: URL) { self.folder = folder }

    /// Writes one document's file with `options` and reports how it went: what every probe's
    /// `storeData` runs, queued its own way.
    func write(
        _ data: Data,
        identifier: String,
        options: Data.WritingOptions,
        completion: @escaping @Sendable (Error?) -> Void
    ) {
        do {
            try data.write(to: folder.appendingPathComponent(identifier), options: options)
            completion(nil)
        } catch {
            completion(error)
        }
    }

    func loadData(identifier: String, completion: @escaping @Sendable (Data?) -> Void) {
        queue.async {
            completion(try? Data(contentsOf: self.folder.appendingPathComponent(identifier)))
        }
    }
}

/// Stores and loads four documents from concurrent threads.
func storeConcurrently(in folder: URL) {
    let store = PersistentDataStore(folder: folder)
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        store.storeData(Data(repeating: UInt8(index), count: 4_096), identifier: "document-\(index % 4)") { _ in }
        store.loadData(identifier: "document-\(index % 4)") { _ in }
    }
}

/// A store whose `storeData` takes a data provider (the article's encode), as the probes that measure
/// where the encode runs declare it; data already encoded goes through the same path.
protocol EncodingStore {
    func storeData(
        _ provider: @escaping @Sendable () -> Data?,
        identifier: String,
        completion: @escaping @Sendable (Error?) -> Void
    )
}

extension EncodingStore {
    func storeData(_ data: Data, identifier: String, completion: @escaping @Sendable (Error?) -> Void) {
        storeData({ data }, identifier: identifier, completion: completion)
    }
}
