extension Variant {
    /// A variant over one lock-guarded counter, whose outcome is known before it runs: for the
    /// harness's own tests and synthetic fixtures, not for lessons.
    ///
    /// `operation` runs for every iteration; by default it adds one to the counter. The lock makes
    /// every addition whole, so a shortfall is exactly the one the operation chooses (skipping an
    /// iteration, throwing, recording an error), never a race. The check, unless given, expects one
    /// addition per iteration (`Observation.kept`).
    package static func counting(
        name: String,
        kind: VariantKind,
        summary: String = "",
        crashMeansReproduced: Bool = false,
        operation: @escaping @Sendable (LockedValueBox<Int>, Iteration) throws -> Void = { counter, _ in
            counter.withLockedValue { $0 += 1 }
        },
        check: @escaping @Sendable (LockedValueBox<Int>, TrialInfo) async throws -> Observation = { counter, trial in
            .kept(counter.value, of: trial.iterations)
        },
        tearDown: @escaping @Sendable (LockedValueBox<Int>) -> Void = { _ in }
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            crashMeansReproduced: crashMeansReproduced,
            makeState: { LockedValueBox(0) },
            operation: operation,
            check: check,
            tearDown: tearDown
        )
    }
}
