/// The Mazurkiewicz trace of an execution's steps so far, as a fingerprint that two prefixes share
/// exactly when they are the same trace: when they differ only in the order of steps that commute.
///
/// A step is an *event*: the `k`-th step of a thread, named canonically (below). A trace is
/// determined by its events and, for each pair of dependent events of different threads, which
/// comes first; and that is determined by recording, for each event, the latest event of each other
/// thread that comes before it and is dependent on it (an earlier dependent event of that thread
/// comes before it too; a later one comes after). So each event's *record* is its name, `k`, its
/// operation and those latest dependent predecessors, all invariant under reordering commuting
/// steps, and the fingerprint of a prefix is the sum of its records' 128-bit hashes: equal for
/// equal traces whatever the order of their steps, and different for different traces unless two
/// sums of hashes collide (about one chance in 2^64 for a search of four billion states).
///
/// Objects are fresh in every execution, so records never name one: dependence is decided inside
/// the execution, from the steps' footprints, and only its result is recorded.
struct TracePrefix {
    /// 128 bits; `+` and `-` wrap, so a sum of event hashes is independent of their order.
    struct Fingerprint: Hashable {
        var high: UInt64
        var low: UInt64

        static let zero = Fingerprint(high: 0, low: 0)

        static func + (left: Fingerprint, right: Fingerprint) -> Fingerprint {
            Fingerprint(high: left.high &+ right.high, low: left.low &+ right.low)
        }

        static func - (left: Fingerprint, right: Fingerprint) -> Fingerprint {
            Fingerprint(high: left.high &- right.high, low: left.low &- right.low)
        }

        /// Two independent 64-bit hashes of `values` (SplitMix64's finalizer, chained from two seeds).
        init(hashing values: [UInt64]) {
            var high: UInt64 = 0x243F_6A88_85A3_08D3
            var low: UInt64 = 0x1319_8A2E_0370_7344
            for value in values {
                high = SplitMix64.mix(high ^ value)
                low = SplitMix64.mix(low &+ (value &* 0x9E37_79B9_7F4A_7C15))
            }
            self.init(high: SplitMix64.mix(high ^ UInt64(values.count)), low: SplitMix64.mix(low))
        }

        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }
    }

    /// Canonical thread names, the same in every execution: a program thread by its index, a
    /// thread started while the program ran by its parent's name and its rank among the parent's
    /// children (its id depends on the order in which threads were started; its rank does not,
    /// since a thread starts its children in its own order). Each name is interned as a small
    /// number that stays the same for the whole search.
    struct Names {
        private var numbers: [String: Int] = [:]
        private var text: [String] = []
        /// This execution: per thread id, its name's number.
        private var canonical: [Int] = []
        private var spawnedSeen = 0
        private var children: [Int: Int] = [:]

        /// Forgets the previous execution's threads.
        mutating func reset() {
            canonical = []
            spawnedSeen = 0
            children = [:]
        }

        /// Names the program's threads and every thread started so far.
        mutating func learn(_ spawned: [SpawnedThread], programThreads: Int) {
            while canonical.count < programThreads { canonical.append(intern("\(canonical.count)")) }
            while spawnedSeen < spawned.count {
                let thread = spawned[spawnedSeen]
                let rank = children[thread.parent, default: 0]
                children[thread.parent] = rank + 1
                let parent = thread.parent < canonical.count ? text[canonical[thread.parent]] : "?\(thread.parent)"
                while canonical.count <= thread.thread { canonical.append(intern("?\(canonical.count)")) }
                canonical[thread.thread] = intern(parent + ".\(rank)")
                spawnedSeen += 1
            }
        }

        func name(_ thread: Int) -> Int {
            thread < canonical.count ? canonical[thread] : -1 - thread
        }

        private mutating func intern(_ name: String) -> Int {
            if let number = numbers[name] { return number }
            numbers[name] = text.count
            text.append(name)
            return text.count - 1
        }
    }

    private(set) var fingerprint = Fingerprint.zero
    private var threads: [Int] = []
    private var names: [Int] = []
    private var local: [Int] = []
    private var footprints: [Footprint] = []
    private var ran: [Int: Int] = [:]

    /// Steps so far.
    var count: Int { threads.count }

    /// Adds a step of `thread` (canonically `name`) that touched `footprint`; returns its event's hash.
    @discardableResult
    mutating func append(thread: Int, name: Int, operation: String, footprint: Footprint) -> Fingerprint {
        let k = ran[thread, default: 0] + 1
        ran[thread] = k
        var latest: [(name: Int, k: Int)] = []
        var seen: Set<Int> = [thread]
        for earlier in stride(from: threads.count - 1, through: 0, by: -1) where !seen.contains(threads[earlier]) {
            guard footprints[earlier].isDependent(on: footprint) else { continue }
            seen.insert(threads[earlier])
            latest.append((names[earlier], local[earlier]))
        }
        latest.sort { $0.name < $1.name }
        var values: [UInt64] = [UInt64(bitPattern: Int64(name)), UInt64(k), Self.stableHash(operation)]
        for (other, step) in latest {
            values.append(UInt64(bitPattern: Int64(other)))
            values.append(UInt64(step))
        }
        let event = Fingerprint(hashing: values)
        fingerprint = fingerprint + event
        threads.append(thread)
        names.append(name)
        local.append(k)
        footprints.append(footprint)
        return event
    }

    /// FNV-1a of the UTF-8 bytes: the same in every process (`String.hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return hash
    }
}
