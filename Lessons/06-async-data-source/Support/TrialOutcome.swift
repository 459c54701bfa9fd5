import RaceLab

/// The check every variant of this lesson ends a trial with, once all queues are idle.
enum TrialOutcome {
    /// - Parameters:
    ///   - updates: updates the writers made; the final version must equal it.
    ///   - finalVersion: the data source's version after the trial.
    ///   - problems: what observers (and the UI's final copy) got wrong.
    ///   - readers: a few words on how the readers fared: a `WaitMeter.bucket`, or why nothing can wait.
    ///   - waits: the reads that waited, of all reads, for a design whose readers can wait.
    static func observation(
        updates: Int,
        finalVersion: Int,
        problems: [Inconsistency],
        readers: String,
        waits: Tally? = nil
    ) -> Observation {
        let lost = max(0, updates - finalVersion)
        // The verdict comes first, so a participant reads it at a glance; how readers fared (what a
        // compromise costs) only under a clean trial, where it is the news.
        let outcome: String
        let meaning: String
        if lost > 0 {
            outcome = "updates lost"
            meaning = "updates missing from the final state"
        } else if !problems.isEmpty {
            outcome = "observers misled"
            meaning = "told twice, skipped, or out of order"
        } else {
            outcome = "in order · " + readers
            meaning = "nothing lost, all in order"
        }
        var observation = Observation(
            expected: updates,
            observed: finalVersion,
            lostWrites: lost,
            inconsistencies: problems.count,
            outcome: outcome,
            meaning: meaning
        )
        observation.samples = problems.prefix(3).map { "inconsistency: \($0)" }
        observation.tallies = waits.map { [$0] } ?? []
        return observation
    }

    /// A problem if the UI's copy did not end at the data source's last state.
    static func uiCopy(endedAt uiVersion: Int, finalVersion: Int) -> [Inconsistency] {
        uiVersion == finalVersion
            ? []
            : [Inconsistency(.observerOrder, "the UI ended at v\(uiVersion), the data source at v\(finalVersion)")]
    }
}

extension StateDataSource {
    /// The current state, waited for. For checks: it runs after every earlier update.
    func currentState() async -> State {
        await withCheckedContinuation { continuation in
            read { continuation.resume(returning: $0) }
        }
    }
}
