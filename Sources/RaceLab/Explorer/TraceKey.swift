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
