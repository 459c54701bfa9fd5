import Foundation
import RaceLab

/// What a schedule of the explorer costs, against the least a hand-off between two real threads
/// costs on this machine (`HandOffFloor`), measured in one run.
///
/// The program is a lock counter: 4 threads each add 1 to a shared count twice under one
/// `RaceLock`, explored with dfs, no reduction, within 2 preemptions (every schedule the bound
/// allows). Besides the time, it counts what a schedule does, which no load changes: steps,
/// hand-offs that woke another real thread, and steps whose thread kept the baton (no wake-up).
struct ExplorerCost {
    let repetitions: Int

    struct Result {
        /// Seconds per hand-off of the bare two-thread ping-pong, per repetition.
        let floor: Sample
        /// Seconds per schedule of the lock counter, per repetition.
        let perSchedule: Sample
        let schedules: Int
        let steps: Double
        let handOffs: Double
        let kept: Double
    }

    /// The shared count and its lock.
    final class Counter: @unchecked Sendable {
        let lock = RaceLock("counter")
        var value = 0
    }

    static let threads = 4
    static let increments = 2

    static let exploration = Exploration(
        summary: "\(threads) threads each add 1 to a shared count \(increments) times under one RaceLock",
        defaultThreads: threads,
        makeState: { Counter() },
        thread: { counter, _ in
            for _ in 0..<increments {
                counter.lock.lock()
                counter.value += 1
                counter.lock.unlock()
            }
        },
        invariant: { counter, threads in
            counter.value == threads * increments ? nil : "count \(counter.value), expected \(threads * increments)"
        }
    )

    func run() throws -> Result {
        var floor: [Double] = []
        var perSchedule: [Double] = []
        var schedules = 0
        var counts = (handOffs: 0, kept: 0, steps: 0, executions: 0)
        let options = ExplorationOptions(reduction: .none, preemptions: 2)
        for _ in 0..<repetitions {
            floor.append(HandOffFloor.secondsPerHandOff(handOffs: 20_000))
            let before = HandOffCounts.now
            let report = try Explorer.explore(Self.exploration, options: options)
            let after = HandOffCounts.now
            precondition(report.exhaustive && report.failingSchedules == 0, "the lock counter's search went wrong")
            schedules = report.schedules
            perSchedule.append(report.elapsedSeconds / Double(report.schedules))
            counts = (
                after.handOffs - before.handOffs, after.kept - before.kept, after.steps - before.steps,
                after.executions - before.executions
            )
        }
        // The counts are the same in every repetition: the last one's, per execution run.
        let executions = Double(max(counts.executions, 1))
        return Result(
            floor: Sample(floor),
            perSchedule: Sample(perSchedule),
            schedules: schedules,
            steps: Double(counts.steps) / executions,
            handOffs: Double(counts.handOffs) / executions,
            kept: Double(counts.kept) / executions
        )
    }
}

extension ExplorerCost.Result {
    /// The lines `make bench-explorer` prints.
    var text: String {
        func us(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1e6) }
        func sample(_ sample: Sample, _ scale: Double, _ format: String) -> String {
            String(
                format: "\(format) (\(format)–\(format))",
                sample.median * scale,
                sample.minimum * scale,
                sample.maximum * scale
            )
        }
        let perHandOff = perSchedule.median / max(handOffs, 1)
        return """
            hand-off floor (two threads passing a baton, a semaphore each): \
            \(sample(floor, 1e6, "%.1f")) µs per hand-off, median (min–max) of the repetitions
            lock counter (\(ExplorerCost.threads) threads × \(ExplorerCost.increments) increments under one RaceLock, \
            dfs, reduction none, 2 preemptions): \(schedules) schedules, \
            \(sample(perSchedule, 1e3, "%.3f")) ms per schedule
              per schedule: \(String(format: "%.1f", steps)) steps, \(String(format: "%.1f", handOffs)) baton \
            hand-offs (to a paused thread, a thread not started yet, or the controller), \(String(format: "%.1f", kept)) steps kept their thread
              \(us(perHandOff)) µs of a schedule per hand-off = \(String(format: "%.1f", perHandOff / floor.median))× \
            the floor
            """
    }
}
