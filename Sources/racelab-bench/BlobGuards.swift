import Dispatch
import Foundation
import RaceLab
import Synchronization

/// One way to guard a shared data blob: the blob workload's counterpart of `CounterGuard`.
///
/// This is the case the source article (lesson 1's `Storage`) gives for its concurrent queue: "we
/// store large data blobs and concurrent reading gives us a slight benefit over serial reading".
/// The blob is a `Data`, as in the article. A reader either copies its bytes while holding the guard
/// (`copy(into:)`: the only way the guard's critical section grows with the blob, and the case where
/// readers that run in parallel could gain), or takes the `Data` out and copies it after leaving the
/// guard (`load()`: what the article's getter does, where copy-on-write makes the guarded part a
/// reference-count increment whatever the size). A writer replaces the blob with one it built earlier.
protocol BlobGuard: AnyObject, Sendable {
    /// Copies the blob's bytes into `buffer` (exactly the blob's size) while holding the guard.
    func copy(into buffer: UnsafeMutableRawBufferPointer)
    /// The blob itself: copy-on-write, so no bytes are copied under the guard.
    func load() -> Data
    /// Replaces the blob.
    func store(_ blob: Data)
    /// Waits until every write issued so far has been applied (for guards that write asynchronously).
    func drain()
}

extension BlobGuard {
    func drain() {}
}

extension Data {
    /// Copies all of this blob's bytes to `buffer`, which must be exactly as large.
    fileprivate func copyAll(into buffer: UnsafeMutableRawBufferPointer) {
        withUnsafeBytes { buffer.copyMemory(from: $0) }
    }
}

/// No guard at all: the cost of the copy alone, and how copies scale with threads on this machine
/// (memory bandwidth). Correct only when nobody writes, so the benchmark runs it on read-only mixes.
final class UnguardedBlob: BlobGuard, @unchecked Sendable {
    private let value: Data
    init(_ initial: Data) { value = initial }
    func copy(into buffer: UnsafeMutableRawBufferPointer) { value.copyAll(into: buffer) }
    func load() -> Data { value }
    func store(_ blob: Data) { preconditionFailure("the unguarded baseline is for read-only mixes") }
}

/// The article's choice: a concurrent queue, `sync` reads, asynchronous barrier writes.
final class ConcurrentQueueBlob: BlobGuard, @unchecked Sendable {
    private let queue = DispatchQueue(label: "bench.blob.concurrent", attributes: .concurrent)
    private var value: Data
    init(_ initial: Data) { value = initial }
    func copy(into buffer: UnsafeMutableRawBufferPointer) { queue.sync { value.copyAll(into: buffer) } }
    func load() -> Data { queue.sync { value } }
    func store(_ blob: Data) { queue.async(flags: .barrier) { self.value = blob } }
    func drain() { queue.sync(flags: .barrier) {} }
}

/// The serial queue, `NSLock` and the read-write lock (readers copy in parallel).
extension Locked: BlobGuard where Value == Data {
    func copy(into buffer: UnsafeMutableRawBufferPointer) { reading { $0.copyAll(into: buffer) } }
    func load() -> Data { reading { $0 } }
    func store(_ blob: Data) { writing { $0 = blob } }
}

/// `Synchronization.Mutex` (a futex on Linux).
final class MutexBlob: BlobGuard {
    private let mutex: Mutex<Data>
    init(_ initial: Data) { mutex = Mutex(initial) }
    func copy(into buffer: UnsafeMutableRawBufferPointer) { mutex.withLock { $0.copyAll(into: buffer) } }
    func load() -> Data { mutex.withLock { $0 } }
    func store(_ blob: Data) { mutex.withLock { $0 = blob } }
}

/// The guards the blob workload compares, in the order its tables show them.
///
/// Not the actor (it serializes every access, like the serial queue, and a pointer to the reader's
/// buffer cannot cross into it) and not `Atomic` (a blob is not one machine word).
enum BlobStrategy: String, CaseIterable, Sendable {
    case unguarded = "no guard (baseline, reads only)"
    case serialQueue = "serial queue sync"
    case concurrentQueue = "concurrent queue + barrier"
    case nsLock = "NSLock"
    case readWriteLock = "pthread_rwlock_t"
    case mutex = "Synchronization.Mutex"

    func makeGuard(_ initial: Data) -> any BlobGuard {
        switch self {
        case .unguarded: UnguardedBlob(initial)
        case .serialQueue: Locked(SerialQueue(queue: DispatchQueue(label: "bench.blob.serial")), initial)
        case .concurrentQueue: ConcurrentQueueBlob(initial)
        case .nsLock: Locked(NSLock(), initial)
        case .readWriteLock: Locked(ReadWriteLock(), initial)
        case .mutex: MutexBlob(initial)
        }
    }

    /// Whether this strategy can run `workload` correctly.
    func supports(_ workload: BlobWorkload) -> Bool {
        self != .unguarded || workload.writePercent == 0
    }
}

/// One blob workload: the blob's size, where readers copy it, and how often threads write.
struct BlobWorkload: Sendable {
    let bytes: Int
    /// True: readers copy the bytes while holding the guard; false: they take the `Data` and copy after.
    let copyUnderGuard: Bool
    /// Percentage of operations that replace the blob, 0–100.
    let writePercent: Int

    var sizeName: String { bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB" }
    var name: String {
        "\(sizeName), copy \(copyUnderGuard ? "under" : "after") the guard, "
            + (writePercent == 0 ? "reads only" : "\(100 - writePercent)% reads")
    }

    /// 64 KB and 1 MB; copied under or after the guard; reads only, and 90% reads.
    static let all: [BlobWorkload] = [64 << 10, 1 << 20].flatMap { bytes in
        [true, false].flatMap { copy in
            [0, 10].map { BlobWorkload(bytes: bytes, copyUnderGuard: copy, writePercent: $0) }
        }
    }
}

/// A blob of `bytes` bytes, every byte `fill`: a torn read (bytes of two blobs) shows as unequal ends.
func makeBlob(bytes: Int, fill: UInt8) -> Data {
    Data(repeating: fill, count: bytes)
}

/// Wall time of one blob measurement: `threads` threads each doing `operationsPerThread` operations.
///
/// As `measure` for the counter: real threads released together by a start gate, the clock from the
/// release to the last thread's end plus a drain of queued writes. Each thread owns a reader buffer
/// (touched before the gate, so page faults stay out of the timing) and two blobs to write, built
/// before the gate, so a write is the store alone. Every read checks that it copied one whole blob
/// (first and last byte equal), so a broken guard or copy cannot go unnoticed as a fast one.
func measureBlob(
    _ strategy: BlobStrategy,
    workload: BlobWorkload,
    threads: Int,
    operationsPerThread: Int,
    seed: UInt64
) -> Duration {
    let shared = strategy.makeGuard(makeBlob(bytes: workload.bytes, fill: 0xFF))
    return timeThreads(threads, drain: shared.drain) { thread, waitForStart in
        var random = SplitMix64(seed: SplitMix64.derive(seed, thread))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: workload.bytes, alignment: 64)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        let own = [
            makeBlob(bytes: workload.bytes, fill: UInt8(2 * thread)),
            makeBlob(bytes: workload.bytes, fill: UInt8(2 * thread + 1)),
        ]
        var sink = 0
        waitForStart()
        for index in 0..<operationsPerThread {
            if Int(random.next() % 100) < workload.writePercent {
                shared.store(own[index & 1])
            } else {
                if workload.copyUnderGuard {
                    shared.copy(into: buffer)
                } else {
                    shared.load().copyAll(into: buffer)
                }
                precondition(buffer[0] == buffer[workload.bytes - 1], "a read copied no whole blob")
                sink &+= Int(buffer[0])
            }
        }
        _ = blackHole(sink)
    }
}
