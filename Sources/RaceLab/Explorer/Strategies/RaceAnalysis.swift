/// The races of one finished execution, and the decisions at which dynamic partial-order reduction
/// (`DPORReduction`) schedules their other order.
///
/// Step `i` *happens before* step `j` when a chain of steps leads from one to the other, each
/// of the same thread as the next or dependent on it (their footprints meet). Two steps of
/// different threads *race* when they are dependent and nothing else orders them: no third step
/// comes after the first and before the second in happens-before. Reversing a race may change
/// the outcome, so the thread of the second step is scheduled at the decision before the first
/// (or, if it could not run there, every thread that could: Flanagan and Godefroid's fallback).
///
/// Under a preemption bound the reversal itself may cost a preemption the bound forbids, while
/// scheduling the thread where the first step's thread took over (the start of its run of
/// consecutive steps) may not. Coons, Musuvathi and McKinley (OOPSLA 2013) show that DPOR loses
/// schedules within the bound without such extra points; so every race is also scheduled there
/// (`blockStart`), not only where the bound forbids the reversal itself, which loses traces too.
///
/// After a deadlock, each blocked thread's operation counts as a step after all the others: a race
/// with it is reversed like any other (Flanagan and Godefroid look at every thread's next
/// operation, run or not).
///
/// A step of a thread never races with the step that started that thread: no order puts a thread
/// before its creation.
struct RaceAnalysis {
    /// A race's other order: the thread of its second step, to try at the decision before its
    /// first step, or else where the first step's run of consecutive steps began (nil when that is
    /// the same decision).
    struct Reversal {
        let decision: Int
        let blockStart: Int?
        let thread: Int
    }

    private(set) var reversals: [Reversal] = []

    /// - Parameters:
    ///   - pending: per decision, each unfinished thread and what its paused operation declares
    ///     it touches (`SchedulingPoint.footprint`), whether or not it could run there.
    init(_ result: ExecutionResult, decisions: Int, pending: [[(thread: Int, footprint: Footprint)]]) {
        let threads = result.schedule.choices
        let footprints = result.footprints
        let count = min(threads.count, footprints.count, decisions, pending.count)
        let threadCount = max(result.threadCount, (threads.max() ?? 0) + 1)
        // Per step: how many steps its thread had run up to it (1 for its first), and its vector
        // clock: per thread, how many of that thread's steps happen before it or are it.
        var local: [Int] = []
        var clocks: [[Int]] = []
        var ran = Array(repeating: 0, count: threadCount)
        // The step that started each spawned thread.
        var started: [Int: Int] = [:]
        var previous = Array(repeating: -1, count: threadCount)

        func happensBefore(_ i: Int, _ j: Int) -> Bool {
            clocks[j][threads[i]] >= local[i]
        }

        /// The last step before `end` of each thread but `thread` that `footprint` depends on.
        func latestDependent(on footprint: Footprint, of thread: Int, before end: Int) -> [Int] {
            var latest: [Int] = []
            var seen = Set<Int>()
            var i = end - 1
            while i >= 0 && seen.count < threadCount - 1 {
                if threads[i] != thread && !seen.contains(threads[i]) && footprints[i].isDependent(on: footprint) {
                    seen.insert(threads[i])
                    latest.append(i)
                }
                i -= 1
            }
            return latest
        }

        /// Whether step `i` is already ordered before every step of `thread` after `last` (its last
        /// step so far): `i` happens before `last`, or before the step that started the thread (or is
        /// it), so no schedule puts the thread's next step before `i`.
        func ordered(_ i: Int, before thread: Int, last: Int) -> Bool {
            if let start = started[thread], start == i || (start > i && happensBefore(i, start)) { return true }
            return last > i && happensBefore(i, last)
        }

        /// Schedules `thread` before step `i`, and where `i`'s run of steps of its thread began.
        func reverse(_ i: Int, for thread: Int) {
            var start = i
            while start > 0 && threads[start - 1] == threads[i] { start -= 1 }
            reversals.append(Reversal(decision: i, blockStart: start == i ? nil : start, thread: thread))
        }

        /// Flanagan and Godefroid's rule for `thread`'s next operation: the last step it depends on
        /// that nothing already orders before it.
        func reverseLast(on footprint: Footprint, for thread: Int, before end: Int) {
            let candidates = latestDependent(on: footprint, of: thread, before: end)
                .filter { !ordered($0, before: thread, last: previous[thread]) }
            if let i = candidates.max() { reverse(i, for: thread) }
        }

        for j in 0..<count {
            let thread = threads[j]
            // Every thread's next operation, as it stands before this step (Flanagan and
            // Godefroid): a race with a step it could not follow at once is found here.
            for (other, footprint) in pending[j] where other != thread {
                reverseLast(on: footprint, for: other, before: j)
            }
            // The step itself, with what it really touched: each race, the latest step of each other
            // thread it depends on unless that one happens before another of them.
            let latest = latestDependent(on: footprints[j], of: thread, before: j)
            for i in latest where !ordered(i, before: thread, last: previous[thread]) {
                if latest.contains(where: { k in k > i && happensBefore(i, k) }) { continue }
                reverse(i, for: thread)
            }
            var clock = previous[thread] >= 0 ? clocks[previous[thread]] : Array(repeating: 0, count: threadCount)
            for i in latest {
                for other in 0..<threadCount where clocks[i][other] > clock[other] { clock[other] = clocks[i][other] }
            }
            ran[thread] += 1
            clock[thread] = ran[thread]
            local.append(ran[thread])
            clocks.append(clock)
            for other in footprints[j].threads where other != thread && started[other] == nil {
                started[other] = j
            }
            previous[thread] = j
        }
        // After a deadlock, each blocked operation as a step after all the others.
        for (thread, footprint) in result.blocked.sorted(by: { $0.key < $1.key }) where thread < threadCount {
            reverseLast(on: footprint, for: thread, before: count)
        }
    }
}
