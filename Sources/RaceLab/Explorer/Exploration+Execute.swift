extension Exploration {
    /// Runs `program`, made by this exploration, once under `strategy` with `options`' scheduling
    /// points, and marks the result as this exploration's: its schedule names the program by
    /// `fingerprint` (`fingerprint(marks:)`), and a thrown error counts as this exploration declares.
    ///
    /// - Parameter startPoints: whether each synchronous thread starts at a scheduling point.
    /// - Parameter states: where the state between steps is written, when it is described.
    func execute(
        _ program: ExplorableProgram,
        strategy: any SchedulingStrategy,
        stepBound: Int,
        options: ExplorationOptions,
        startPoints: Bool,
        fingerprint: String,
        states: StateLog? = nil
    ) -> ExecutionResult {
        var result = ControlledExecution.run(
            program,
            strategy: strategy,
            stepBound: stepBound,
            stallTimeout: options.stallTimeout,
            states: states,
            marks: options.marks,
            schedulesJobs: options.schedulesJobs,
            footprintsComplete: footprintsComplete,
            startPoints: startPoints,
            windowsMarked: windowsMarked
        )
        result.schedule.program = fingerprint
        result.errorsAreFailures = errorsAreFailures
        return result
    }
}
