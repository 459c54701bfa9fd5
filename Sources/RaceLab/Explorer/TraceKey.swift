/// Identifies the Mazurkiewicz trace of an execution: the same key for two executions that differ
/// only in the order of adjacent independent steps (steps of different threads whose footprints
/// do not meet, see `Footprint`).
///
/// The key is the execution's lexicographic normal form: repeatedly, among the steps whose
/// earlier dependent steps have all been taken, take the one of the smallest thread. Threads the
/// program started while it ran are named by their parent and their rank among its children, not
/// by their id, which depends on the order in which they were started.
struct TraceKey: Hashable {
    private let steps: [String]

    init(_ result: ExecutionResult) {
        let threads = result.schedule.choices
        let footprints = result.footprints
        let count = min(threads.count, footprints.count, result.steps.count)
        var names: [Int: String] = [:]
        var children: [Int: Int] = [:]
        func name(_ thread: Int) -> String {
            if let known = names[thread] { return known }
            guard let spawned = result.spawned.first(where: { $0.thread == thread }) else { return "\(thread)" }
            let rank = children[spawned.parent, default: 0]
            children[spawned.parent] = rank + 1
            let made = name(spawned.parent) + "." + "\(rank)"
            names[thread] = made
            return made
        }
        // Named in the order they were started, so that a parent's children get their ranks in order.
        for spawned in result.spawned { _ = name(spawned.thread) }
        // Kahn's algorithm on the dependence order, taking the smallest thread name first.
        var waitingFor = Array(repeating: 0, count: count)
        var followers = Array(repeating: [Int](), count: count)
        for later in 0..<count {
            for earlier in 0..<later
            where threads[earlier] == threads[later] || footprints[earlier].isDependent(on: footprints[later]) {
                waitingFor[later] += 1
                followers[earlier].append(later)
            }
        }
        var ready = (0..<count).filter { waitingFor[$0] == 0 }
        var order: [String] = []
        while !ready.isEmpty {
            let position = ready.indices.min { name(threads[ready[$0]]) < name(threads[ready[$1]]) }!
            let step = ready.remove(at: position)
            order.append(name(threads[step]) + " " + result.steps[step].operation)
            for follower in followers[step] {
                waitingFor[follower] -= 1
                if waitingFor[follower] == 0 { ready.append(follower) }
            }
        }
        steps = order + [result.outcome.summary]
    }
}

extension TraceKey {
    /// The key in 128 bits, the same in every process (`Hasher` is seeded per process): what a
    /// parallel search's tasks report so that the coordinator counts distinct traces across them.
    var digest: TraceDigest { TraceDigest(steps) }
}

/// A stable 128-bit digest of a trace's canonical form: two independent 64-bit hashes (FNV-1a, and
/// a multiplicative hash finished by a 64-bit mixer) over the steps' UTF-8 bytes, each step closed
/// by a byte no UTF-8 text holds. Two traces share a digest by chance with a probability near 2^-128.
struct TraceDigest: Hashable, Codable, Sendable {
    var high: UInt64
    var low: UInt64

    init(_ steps: [String]) {
        var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
        var other: UInt64 = 0x9e37_79b9_7f4a_7c15
        func add(_ byte: UInt8) {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            other = (other &+ UInt64(byte) &+ 1) &* 0xbf58_476d_1ce4_e5b9
            other ^= other >> 29
        }
        for step in steps {
            for byte in step.utf8 { add(byte) }
            add(0xff)
        }
        other ^= other >> 31
        other = other &* 0x94d0_49bb_1331_11eb
        other ^= other >> 32
        high = fnv
        low = other
    }
}
