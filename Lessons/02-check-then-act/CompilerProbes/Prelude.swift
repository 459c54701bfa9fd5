// Compiler probes · lesson 2 · prelude
// What the probes of this lesson share, type-checked together with each of them (see
// CompilerProbe.preludeName): the article's reader-writer lock, and the fetches whose callbacks
// fan in. Each probe holds only the pattern it measures.
import Foundation

/// The article's reader-writer lock: a concurrent queue, reads with sync, writes as barriers.
final class ReadWriteLock {
    private let queue = DispatchQueue(label: "rw", attributes: .concurrent)

    func read<Value>(_ body: () -> Value) -> Value { queue.sync(execute: body) }
    func write(_ body: @escaping @Sendable () -> Void) { queue.async(flags: .barrier, execute: body) }
}

struct FetchError: Error {}

/// Calls back on a global queue, with an error for every third index.
func fetch(_ index: Int, completion: @escaping @Sendable (Result<Int, FetchError>) -> Void) {
    DispatchQueue.global().async { completion(index.isMultiple(of: 3) ? .failure(FetchError()) : .success(index)) }
}
