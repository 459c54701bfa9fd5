import RaceLab

/// Compares the errors a batch's completion saw with the failures that happened.
public enum FetchAudit {
    /// The observation for a batch of `fetches` fetches whose completion saw `errors`.
    ///
    /// Every failing fetch must appear exactly once: a missing one is a lost write, a second copy a
    /// duplicate, and an error that names no failing fetch an inconsistency.
    public static func observe(_ errors: [any Error], fetches: Int) -> Observation {
        let expected = SimulatedFetcher.failures(among: fetches)
        var seen = Set<Int>()
        var duplicates = 0
        var strangers = 0
        for error in errors {
            guard let failure = error as? FetchError, SimulatedFetcher.fails(failure.index),
                failure.index < fetches
            else {
                strangers += 1
                continue
            }
            if !seen.insert(failure.index).inserted { duplicates += 1 }
        }
        var observation = Observation.kept(seen.count, of: expected, unit: "errors")
        observation.duplicates = duplicates
        observation.inconsistencies += strangers
        if duplicates > 0 || strangers > 0 {
            observation.meaning += "; \(duplicates) recorded twice, \(strangers) unknown"
        }
        return observation
    }
}
