import RaceLab

/// A variant whose every iteration does `operation` once on the trial's `State`; afterwards `count`
/// must have counted every iteration, in `unit`s.
func countingVariant<State: Sendable>(
    _ name: String,
    _ kind: VariantKind,
    summary: String,
    makeState: @escaping @Sendable () -> State,
    count: @escaping @Sendable (State) -> Int,
    unit: String,
    _ operation: @escaping @Sendable (State) -> Void
) -> Variant {
    Variant(
        name: name,
        kind: kind,
        summary: summary,
        makeState: makeState,
        operation: { state, _ in operation(state) },
        check: { state, trial in .kept(count(state), of: trial.iterations, unit: unit) }
    )
}
