import Foundation

/// Explores one variant in a child process of the current executable, as `IsolatedRun` runs one:
/// a thread that traps or calls `exit`, or an invariant that traps, becomes an `ExplorationFailure`
/// for that variant instead of the end of the tool (or, worse, its exit status), and what the code
/// under test prints stays on its own stdout, apart from the result.
package enum IsolatedExploration {
    /// What became of one variant's exploration.
    package enum Outcome: Equatable {
        /// It ran; `states` are the states along its failing schedule, when asked for and described.
        case explored(VariantExploration, states: [String])
        /// The variant's exploration could not be set up (its state could not be made, say).
        case setupFailed(String)
        /// The schedule to replay does not fit the variant: the reason (`ReplayRefusal`).
        case replayRefused(String)
        /// The child ended without a result.
        case failed(ExplorationFailure)
    }

    /// Explores `variant` of lesson `lesson` with `options`, or replays `replay`, in a child of
    /// `executable`.
    ///
    /// - Parameter states: also replay the failing schedule describing the state after each step.
    package static func run(
        _ variant: Variant,
        lesson: Int,
        options: ExplorationOptions,
        replay: Schedule? = nil,
        states: Bool = false,
        executable: String
    ) -> Outcome {
        let job = ChildRequest.Job.explore(options: options, replay: replay?.replayString, states: states)
        switch serve(job, variant: variant, lesson: lesson, executable: executable) {
        case .reply(.exploration(let run, let states)):
            return .explored(VariantExploration(variant: variant.name, kind: variant.kind, run: run), states: states)
        case .reply(.setupFailed(let why)): return .setupFailed(why)
        case .reply(.replayRefused(let reason)): return .replayRefused(reason)
        case .reply: return .failed(unexpectedReply(variant))
        case .ended(let failure): return .failed(failure)
        }
    }

    /// What became of one shard's exploration.
    package enum ShardOutcome {
        case explored(ShardResult)
        /// Its exploration could not be set up, or its search does not shard.
        case setupFailed(String)
        /// The child ended without a result.
        case failed(ExplorationFailure)
    }

    /// Explores shard `shard` of `shards` of `variant`'s dfs search with `options` in a child of
    /// `executable`.
    package static func runShard(
        _ variant: Variant,
        lesson: Int,
        options: ExplorationOptions,
        shard: Int,
        of shards: Int,
        executable: String
    ) -> ShardOutcome {
        let job = ChildRequest.Job.exploreShard(options: options, shard: shard, shards: shards)
        switch serve(job, variant: variant, lesson: lesson, executable: executable) {
        case .reply(.shard(let text)):
            guard let result = try? JSONDecoder().decode(ShardResult.self, from: Data(text.utf8)) else {
                return .failed(unexpectedReply(variant))
            }
            return .explored(result)
        case .reply(.setupFailed(let why)): return .setupFailed(why)
        case .reply: return .failed(unexpectedReply(variant))
        case .ended(let failure): return .failed(failure)
        }
    }

    /// Samples `variant` with the explorer's `options` (random or PCT) in a child of `executable`,
    /// as `racelab power` measures it; nil when its exploration could not be set up.
    package static func measure(
        _ variant: Variant,
        lesson: Int,
        options: ExplorationOptions,
        strategyName: String,
        executable: String
    ) -> DetectionRate? {
        let job = ChildRequest.Job.measure(options: options, strategyName: strategyName)
        switch serve(job, variant: variant, lesson: lesson, executable: executable) {
        case .reply(.rate(let rate)): return rate
        case .reply(.setupFailed): return nil
        case .reply: return DetectionRate(variant: variant.name, strategy: strategyName, ended: .error)
        case .ended(let failure):
            return DetectionRate(variant: variant.name, strategy: strategyName, ended: failure.verdict)
        }
    }

    /// A child's reply, or how it ended without one.
    private enum Reply {
        case reply(ChildMessage)
        case ended(ExplorationFailure)
    }

    /// Runs `job` in a child and returns its reply, or the failure of a child that left none.
    private static func serve(
        _ job: ChildRequest.Job,
        variant: Variant,
        lesson: Int,
        executable: String
    ) -> Reply {
        let answer: ChildProcess.Answer
        do {
            // No watchdog: a search may rightly take hours; a thread that stops reaching scheduling
            // points is the explorer's to report (`ExplorationOptions.stallTimeout`).
            answer = try ChildProcess.serve(
                job,
                lesson: lesson,
                variant: variant.name,
                executable: executable,
                timeout: .infinity
            )
        } catch {
            return .ended(failure(variant, .error, "the variant's process could not be started: \(error)", stderr: []))
        }
        if let reply = answer.reply { return .reply(reply) }
        let stderr = IsolatedRun.tail(of: answer.result.stderr, lines: IsolatedRun.stderrTailLines)
        var ended = failure(variant, .crashed, "the process \(answer.ending)", stderr: stderr)
        if case .signaled(let number) = answer.result.termination { ended.signal = Int(number) }
        if case .exited(let status) = answer.result.termination { ended.exitStatus = Int(status) }
        if answer.wroteResult {
            ended.verdictReason += " after writing its report, which is therefore not used"
        } else if answer.lastPhase == .report {
            ended.verdict = .error
            ended.verdictReason = "the exploration ran, but its process could not write the report"
        } else {
            ended.verdictReason += " without a report, during the exploration; no schedule was judged"
        }
        return .ended(ended)
    }

    private static func failure(
        _ variant: Variant,
        _ verdict: Verdict,
        _ reason: String,
        stderr: [String]
    )
        -> ExplorationFailure
    {
        ExplorationFailure(
            variant: variant.name,
            kind: variant.kind,
            verdict: verdict,
            verdictReason: reason,
            stderrTail: stderr
        )
    }

    private static func unexpectedReply(_ variant: Variant) -> ExplorationFailure {
        failure(variant, .error, "the variant's process answered with something else than its exploration", stderr: [])
    }
}
