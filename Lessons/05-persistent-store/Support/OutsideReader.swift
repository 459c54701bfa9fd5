import Foundation

/// A reader outside the store: a thread that reads the documents' files directly, one after the
/// other, for as long as a trial runs, the way an app extension or a backup tool reads a folder
/// another process writes.
///
/// It never uses the store's queue, so the barrier does nothing for it: all it can rely on is that
/// a data file is replaced whole. Every read it makes is checked for tearing.
final class OutsideReader: @unchecked Sendable {
    /// Microseconds between two reads: a reader that polls, not one that spins, so that it leaves
    /// the writer most of a core on a 2-core machine. A write's window is long enough that reads
    /// this frequent still land in it in every trial.
    static let pause: UInt32 = 20

    private let paths: [String]
    private let lock = NSLock()
    private var started = false
    private var stopped = false
    private var reads = 0
    private var torn = 0
    private var firstTorn: String?
    /// The highest version read of each document so far, and the reads that found a lower one.
    private var highest: [Int: Int] = [:]
    private var backInTime = 0
    private let done = DispatchSemaphore(value: 0)

    /// - Parameter paths: the data files to read, in turn; `paths[i]` holds document `i`.
    init(paths: [String]) {
        self.paths = paths
    }

    /// Starts reading on a thread of its own.
    func start() {
        lock.lock()
        started = true
        lock.unlock()
        let thread = Thread { [self] in
            var next = 0
            while !isStopped {
                read(document: next)
                next = (next + 1) % paths.count
                usleep(Self.pause)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops the thread (waiting for its last read) and returns what it saw. Later calls only return.
    func stop() -> (reads: Int, torn: Int, firstTorn: String?, backInTime: Int) {
        lock.lock()
        let running = started && !stopped
        stopped = true
        lock.unlock()
        if running { done.wait() }
        lock.lock()
        defer { lock.unlock() }
        return (reads, torn, firstTorn, backInTime)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Reads `document`'s file once and counts the read; the thread calls it in turn for each
    /// document, the schedule explorer's reader threads directly.
    func read(document: Int) {
        let data = try? DataFile.contents(of: paths[document])
        let payload = data.flatMap { Payload(validating: $0) }.flatMap { $0.document == document ? $0 : nil }
        lock.lock()
        defer { lock.unlock() }
        reads += 1
        if let payload {
            // Stores that are applied in order only ever raise a file's version, and each open
            // gets the file current at that moment: a lower version than one read before means an
            // older store replaced a newer one.
            if payload.version < highest[document, default: 0] { backInTime += 1 }
            highest[document] = max(highest[document, default: 0], payload.version)
        } else {
            torn += 1
            if firstTorn == nil { firstTorn = "\((data?.count ?? 0).formatted()) bytes of document-\(document)" }
        }
    }
}
