import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The child's side of the child protocol: does what a `ChildRequest` asks with one variant and
/// answers on the request's `ChildChannel`.
///
/// A run says which `ChildPhase` each trial is in before it gets there, so that the parent can tell
/// a crash in the variant's code (which `Variant.crashMeansReproduced` may count as the bug) from one
/// in its check. Whatever the job, the child says `.report` before it writes its result: a child that
/// dies after that failed to report, which is an error of the machine, not something the variant did.
package enum ChildService {
    /// Serves `request` in this process.
    ///
    /// - Parameter lessons: the lessons the request may name.
    /// - Returns: whether the result was written to the channel; when it was not, the reason is on
    ///   stderr.
    package static func serve(_ request: ChildRequest, lessons: [Lesson]) -> Bool {
        // A parent killed with SIGKILL cannot kill its child's group: the child notices and stops.
        WorkerProcess.exitWhenOrphaned(parent: getppid())
        guard let lesson = lessons.first(where: { $0.number == request.lesson }),
            let variant = lesson.variant(named: request.variant)
        else {
            complain("no variant \(request.variant) in lesson \(request.lesson)")
            return false
        }
        let channel: ChildChannel.Writer
        do {
            channel = try ChildChannel.Writer(path: request.channel)
        } catch {
            complain("cannot open the report channel \(request.channel): \(error)")
            return false
        }
        let result = perform(request.job, on: variant, lesson: request.lesson, channel: channel)
        do {
            try channel.send(.phase(.report))
            try channel.send(result)
            return true
        } catch {
            complain("cannot write the report: \(error)")
            return false
        }
    }

    private static func perform(
        _ job: ChildRequest.Job,
        on variant: Variant,
        lesson: Int,
        channel: ChildChannel.Writer
    )
        -> ChildMessage
    {
        switch job {
        case let .run(workload, seed, noise, budget, firstTrial):
            var current: StressRunner.Phase?
            var options = StressRunner.Options(workload: workload, seed: seed, noise: noise, timeBudget: budget)
            options.firstTrial = firstTrial
            let report = StressRunner.run(
                variant,
                options: options,
                entering: { phase in
                    guard phase != current else { return }
                    current = phase
                    // A phase that cannot be written leaves the last one standing: a crash then
                    // counts as the harness's at worst, never as the bug's by mistake.
                    try? channel.send(.phase(phase == .variant ? .variant : .check))
                },
                // Only a variant whose process may die of its bug pays for a report after every
                // trial: its crash must not hide what the trials before it showed.
                progress: variant.crashMeansReproduced ? { report in try? channel.send(.progress(report)) } : nil
            )
            return .report(report)
        case let .explore(options, replay, wantsStates):
            guard let exploration = variant.exploration else { return .setupFailed("it has no exploration") }
            do {
                let schedule = try replay.map { text throws -> Schedule in
                    guard let schedule = Schedule(replayString: text) else { throw UnreadableReplay(text: text) }
                    return schedule
                }
                let run: VariantExploration.Run
                if let schedule {
                    run = .replay(try Explorer.replay(exploration, schedule: schedule, options: options))
                } else if options.jobs > 1 {
                    let workers = ChildWorkers(lesson: lesson, variant: variant.name, jobs: options.jobs)
                    run = .search(try Explorer.explore(exploration, options: options, workers: workers))
                } else {
                    run = .search(try Explorer.explore(exploration, options: options))
                }
                let failure = VariantExploration(variant: variant.name, kind: variant.kind, run: run).failure
                let states = wantsStates ? try statesAlong(failure, of: exploration, options: options) : []
                return .exploration(run, states: states)
            } catch let refusal as ReplayRefusal {
                return .replayRefused(refusal.reason)
            } catch {
                return .setupFailed("\(error)")
            }
        case .exploreTasks(let batch):
            guard let exploration = variant.exploration else { return .setupFailed("it has no exploration") }
            do {
                return .tasks(try Explorer.runTasks(exploration, batch: batch))
            } catch {
                return .setupFailed("\(error)")
            }
        case let .exploreShard(options, shard, shards):
            guard let exploration = variant.exploration else { return .setupFailed("it has no exploration") }
            do {
                let result = try Explorer.exploreShard(exploration, options: options, shard: shard, of: shards)
                return .shard(try JSONText.encode(result, pretty: false))
            } catch {
                return .setupFailed("\(error)")
            }
        case let .measure(options, strategyName):
            guard let exploration = variant.exploration else { return .setupFailed("it has no exploration") }
            do {
                let report = try Explorer.explore(exploration, options: options)
                return .rate(DetectionRate(variant: variant.name, strategy: strategyName, exploration: report))
            } catch {
                return .setupFailed("\(error)")
            }
        }
    }

    /// The state before the first step of `failure`'s schedule and after each step, from one more
    /// replay of it; empty when the exploration does not describe its state, or when the replay was
    /// refused or went elsewhere (it would show the states of another execution).
    private static func statesAlong(
        _ failure: VariantExploration.Failure?,
        of exploration: Exploration,
        options: ExplorationOptions
    ) throws -> [String] {
        guard let failure, exploration.describesState, let schedule = Schedule(replayString: failure.replay) else {
            return []
        }
        // A schedule the replay refuses, or one that went elsewhere, would show another execution.
        guard
            let result = try? Explorer.replay(
                exploration,
                schedule: schedule,
                options: options,
                describingStates: true
            )
        else { return [] }
        return result.steps == failure.steps ? result.states : []
    }

    private struct UnreadableReplay: Error, CustomStringConvertible {
        var text: String
        var description: String { "not a replay string: \(text)" }
    }

    private static func complain(_ line: String) {
        FileHandle.standardError.write(Data("racelab child: \(line)\n".utf8))
    }
}

/// The worker processes of a parallel exploration in a variant's child: more children of the
/// running tool, each serving one batch of tasks of the same variant.
private struct ChildWorkers: ExplorationWorkers {
    let lesson: Int
    let variant: String
    let jobs: Int

    func run(batch: String) -> String? {
        // No watchdog, as for the exploration itself; a worker whose parent died exits.
        guard
            let answer = try? ChildProcess.serve(
                .exploreTasks(batch: batch),
                lesson: lesson,
                variant: variant,
                executable: ChildProcess.currentExecutable,
                timeout: .infinity
            ),
            case .tasks(let reply) = answer.reply
        else { return nil }
        return reply
    }
}
