import RaceLab

/// One design of the data source under trial: what a writer, a UI reader and an observer adder each
/// do to it, and what it reports once the trial is over.
///
/// Every synchronous variant of this lesson is one `DataSourceTrial` turned into a `Variant` by
/// `variant(name:kind:summary:)`, so each variant's file shows only its own design: `Role` decides
/// which part an iteration plays, and `TrialOutcome` checks every design the same way. The explorer
/// (`racelab explore 6`) renders with the same `render(cell:)`, so a run and an exploration exercise
/// the same reading code.
protocol DataSourceTrial: Sendable {
    /// Fresh state for one trial; observers the design needs from the start are added here.
    init()
    /// A writer: publish the next state. `waiting`: the writer wants the update applied before it
    /// goes on ("apply before going on"); a design whose updates cannot be waited for ignores it.
    func write(waiting: Bool)
    /// The UI reading `cell` with the design's own reading code; what it found wrong.
    func render(cell: Int) -> [Inconsistency]
    /// A reader: records what it found in `iteration`. By default, `render(cell:)`'s findings.
    func read(cell: Int, _ iteration: Iteration)
    /// An observer added mid-trial. By default, for designs with no observer to add: one more read.
    func addObserver(_ iteration: Iteration)
    /// Once every iteration has returned: waits for the design's queues, then returns its final
    /// version, what observers (and the UI's final copy) got wrong, and how readers fared.
    func settle() async -> TrialEnd
}

/// What a trial of one design ended with; see `DataSourceTrial.settle()`.
struct TrialEnd {
    let finalVersion: Int
    let problems: [Inconsistency]
    /// A `WaitMeter.bucket`, or a few words on why no reader can wait.
    let readers: String
    /// The reads that waited, of all reads (`WaitMeter.tally`), for a design whose readers can wait.
    var waits: Tally? = nil
}

extension TrialEnd {
    /// The end of a trial whose readers can wait: how they fared, as `meter` measured it.
    init(finalVersion: Int, problems: [Inconsistency], readers meter: WaitMeter) {
        self.init(finalVersion: finalVersion, problems: problems, readers: meter.bucket, waits: meter.tally)
    }
}

extension TrialEnd {
    /// The end of a trial whose UI reads the data source itself: `finalVersion`, what `observers`
    /// got wrong by then, and how often readers found the data source busy (`readerWaits`).
    /// `readerWaits` is read before `finalVersion`: the check's own read of the final version is no
    /// reader's, so `N of M reads waited` counts the readers' reads only.
    init(finalVersion: () -> Int, observers: ObserverRegistry, readerWaits: WaitMeter) {
        let (readers, waits) = (readerWaits.bucket, readerWaits.tally)
        let final = finalVersion()
        self.init(
            finalVersion: final,
            problems: observers.problems(finalVersion: final),
            readers: readers,
            waits: waits
        )
    }
}

extension DataSourceTrial {
    func read(cell: Int, _ iteration: Iteration) {
        iteration.record(render(cell: cell))
    }

    func addObserver(_ iteration: Iteration) {
        read(cell: 0, iteration)
    }

    /// This design as one of the lesson's variants: each iteration plays its `Role`, and the check
    /// is `TrialOutcome.observation` over `settle()`. `makeTrial` makes each trial's state (`init()`
    /// unless the variant configures the design otherwise). `crashMeansReproduced`: for a buggy
    /// variant whose data race can kill the process, so that an isolated run counts the crash as the
    /// bug reproduced.
    static func variant(
        name: String,
        kind: VariantKind,
        summary: String,
        crashMeansReproduced: Bool = false,
        makeTrial: @escaping @Sendable () -> Self = { Self() }
    ) -> Variant {
        var variant = Variant(
            name: name,
            kind: kind,
            summary: summary,
            makeState: makeTrial,
            operation: { trial, iteration in
                switch Role(iteration) {
                case .writer:
                    // One writer in two (writers are the even iterations) waits for its update.
                    trial.write(waiting: iteration.index % 4 == 0)
                case .reader(let cell):
                    trial.read(cell: cell, iteration)
                case .observerAdder:
                    trial.addObserver(iteration)
                }
            },
            check: { trial, info in
                let end = await trial.settle()
                return TrialOutcome.observation(
                    updates: Role.updates(in: info.iterations),
                    finalVersion: end.finalVersion,
                    problems: end.problems,
                    readers: end.readers,
                    waits: end.waits
                )
            }
        )
        variant.crashMeansReproduced = crashMeansReproduced
        return variant
    }
}

extension StateDataSource {
    /// The end of a trial in which the UI keeps its own copy of the state, sent to it by an
    /// observer. Once every update has run: the final version (`version` of the last state), whether
    /// the UI's copy (`uiVersion`, read after that) ended there, and what `observers`, if the design
    /// has any, got wrong. Readers never wait for the copy.
    func trialEnd(
        version: (State) -> Int,
        uiVersion: @autoclosure () -> Int,
        observers: ObserverRegistry?
    ) async -> TrialEnd {
        waitUntilIdle()
        let final = version(await currentState())
        let ui = uiVersion()
        return TrialEnd(
            finalVersion: final,
            problems: (observers?.problems(finalVersion: final) ?? [])
                + TrialOutcome.uiCopy(endedAt: ui, finalVersion: final),
            readers: "UI reads own copy"
        )
    }
}
