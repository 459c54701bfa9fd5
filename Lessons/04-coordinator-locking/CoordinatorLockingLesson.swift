import Foundation
import RaceLab

/// Lesson 4: many `ObjectStorage` instances increment one file. Coordination that is misconfigured
/// (one owner for every claim) or owned by the wrong party (a process-owned lock between threads)
/// excludes nothing and loses increments; a per-file queue map fixes it within a process, an
/// open-file-description lock across processes.
public enum CoordinatorLockingLesson {
    static let number = 4

    public static let lesson = Lesson(
        number: number,
        slug: "coordinator-locking",
        title: "misconfigured coordinator-style locking",
        summary: "Separate ObjectStorage instances increment one JSON file through mutatingObject. A coordinator "
            + "whose claims share one owner, or a lock owned by the process, lets them all in at once.",
        workload: Workload(trials: 10, iterations: 200),
        // On Darwin also the article's own NSFileCoordinator code (CoordinatorLockingLesson+Darwin.swift).
        variants: [
            uncoordinated, sameOwner, sameOwnerOneInstance, sameOwnerCostlyClaim, processRecordLock, coordinated,
            crossProcess,
        ]
            + systemCoordinatorVariants,
        workers: [incrementWorker],
        countMeanings: [
            "lost writes": "increments that ran (mutatingObject returned) but are not in the final value",
            // Only overlaps: the counter cannot end above the increments made, since every save
            // writes one more than a value saved before it (or than 0) and replaces the file whole.
            "inconsistencies":
                "increments that began while another was still in its read-modify-write of the file",
        ],
        // Its outcomes already say `overlap`: the count says the same.
        countLabels: ["inconsistencies": "overlaps"],
        // `uncoordinated` is the baseline; the lesson's bug is a coordinator with one owner.
        mainBug: "same-owner"
    )

    static let uncoordinated = counterVariant(
        name: "uncoordinated",
        kind: .buggy,
        summary: "no coordination: every read-modify-write of the file runs at once",
        coordinator: { _ in Uncoordinated() },
        overlap: "no lock",
        claims: false
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "the shared state is a file, which neither TSan nor the compiler models"
    )

    static let sameOwner = sameOwnerVariant(
        name: "same-owner",
        summary: "owner-scoped claims (NSFileCoordinator's rule), every claim with one owner",
        overlap: "same owner"
    )

    static let sameOwnerOneInstance = sameOwnerVariant(
        name: "same-owner-one-instance",
        summary: "same-owner through one ObjectStorage, as in the article's test",
        overlap: "same owner, one instance",
        oneInstance: true
    )

    /// `same-owner` with a modelled per-claim cost (not Foundation's): 300 µs of bookkeeping under
    /// the claim table's lock, before the claim is granted. Claims are then granted one bookkeeping
    /// apart, so two increments' read-modify-writes overlap only when one outlasts the bookkeeping:
    /// the bug is the same, its rate lower, hence more iterations per trial.
    static let sameOwnerCostlyClaim = sameOwnerVariant(
        name: "same-owner-costly-claim",
        summary: "same-owner, each claim 300 µs of modelled bookkeeping, serialized in the coordinator",
        overlap: "same owner, costly claims",
        claimCost: .microseconds(300),
        workload: Workload(trials: 10, iterations: 1_000)
    )

    /// The lesson's bug, through a new storage per increment or through one (`oneInstance`): every
    /// claim of `OwnerScopedCoordinator` with the trial's one owner.
    private static func sameOwnerVariant(
        name: String,
        summary: String,
        overlap: String,
        oneInstance: Bool = false,
        claimCost: Duration = .zero,
        workload: Workload? = nil
    ) -> Variant {
        counterVariant(
            name: name,
            kind: .buggy,
            summary: summary,
            coordinator: { owner in OwnerScopedCoordinator(owner: owner, claimCost: claimCost, table: .shared) },
            overlap: overlap,
            workload: workload,
            oneInstance: oneInstance
        )
        .expecting(
            tsan: .silent,
            compiler: .accepted,
            on: .linux,
            because:
                "a lock with the wrong owner is still a lock, and the shared state is a file: invisible to both tools"
        )
    }

    static let processRecordLock = counterVariant(
        name: "fcntl-process-lock",
        kind: .buggy,
        summary: "fcntl(F_SETLKW) record locks: owned by the process, not the thread",
        coordinator: { _ in ProcessRecordLock() },
        overlap: "one process",
        held: "lock"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "TSan does not treat fcntl as a lock and no memory is shared; the storage holds Sendable values"
    )

    static let coordinated = counterVariant(
        name: "coordinated",
        kind: .fixed,
        summary: "the article's FileCoordinator: a concurrent queue per file, barrier writes",
        coordinator: { _ in FileCoordinator.shared },
        overlap: "no owner",
        workload: Workload(trials: 8, iterations: 500)
    )
    .expecting(
        tsan: .silent,
        compiler: .rejected,
        on: .linux,
        because: "a queue per file guards the map; the compiler cannot see that, so it refuses the shared instance"
    )

    /// Not explorable: its increments run in worker processes, which the explorer cannot schedule.
    static let crossProcess = Variant(
        name: "cross-process",
        kind: .fixed,
        summary: "open-file-description locks; 4 worker processes share the iterations",
        workload: Workload(trials: 8, iterations: 500),
        makeState: { try CrossProcessTrial() },
        operation: { trial, iteration in try trial.launchWorker(iteration.index, of: iteration.count) },
        check: { trial, info in
            try await trial.waitForWorkers()
            return outcome(
                .kept(try trial.counter.finalValue(), of: info.iterations, unit: "increments"),
                overlaps: try CrossProcessMeteredCoordinator.overlaps(in: trial.meter),
                overlap: "no owner"
            )
        },
        tearDown: { trial in trial.tearDown() }
    )
    .notExplored(because: "its increments run in worker processes, which the explorer cannot schedule")
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "locks owned by the open file exclude threads and processes; the shared state is a file"
    )

    /// The worker processes of the cross-process variant run.
    static let incrementWorker = LessonWorker(
        name: "increment",
        summary: "increments a counter file from every core of a process of its own"
    ) { arguments in
        try IncrementWorker(arguments: arguments).run()
    }

    /// A variant in which every iteration increments the trial's file once, through a new
    /// `ObjectStorage` whose coordinator `coordinator` makes (given the trial's one shared owner).
    ///
    /// - Parameters:
    ///   - overlap: what the claims have in common in the eyes of this lock (its owner), named in
    ///     a trial's outcome when the lock granted a claim while another was held.
    ///   - claims: whether its coordinator takes a claim at all (not `uncoordinated`'s), for the
    ///     explorer's state.
    ///   - held: what the explorer's state calls what a thread holds: `claim` for a coordinator's
    ///     claim, `lock` for a lock.
    ///   - explorable: whether the schedule explorer can run it: not when a claim blocks inside a
    ///     system framework, where the explorer cannot see or schedule the waiting thread.
    static func counterVariant(
        name: String,
        kind: VariantKind,
        summary: String,
        coordinator: @escaping @Sendable (ClaimOwner) -> any FileAccessCoordinator,
        overlap: String,
        workload: Workload? = nil,
        oneInstance: Bool = false,
        claims: Bool = true,
        held: String = "claim",
        explorable: Bool = true
    ) -> Variant {
        let variant = Variant(
            name: name,
            kind: kind,
            summary: summary,
            workload: workload,
            makeState: {
                let owner = ClaimOwner()
                return try CounterFile(coordinator: { coordinator(owner) }, oneInstance: oneInstance)
            },
            operation: { counter, _ in try counter.increment() },
            check: { counter, trial in
                outcome(
                    .kept(try counter.finalValue(), of: trial.iterations, unit: "increments"),
                    overlaps: counter.meter.overlaps,
                    overlap: overlap
                )
            },
            tearDown: { counter in counter.remove() }
        )
        return explorable
            ? variant.exploring(
                incrementOnceEach(
                    coordinator,
                    overlap: overlap,
                    oneInstance: oneInstance,
                    claims: claims,
                    held: held
                )
            )
            : variant.notExplored(
                because: "its claims wait inside a system framework, where the explorer cannot see the waiting thread"
            )
    }

    /// A counter trial's outcome: whether the lock ever granted a claim while another was held
    /// (`overlaps` of them) and, if it did, what the two had in common for the lock, then how many
    /// increments it kept. The buggy variants fail the same way, so the part where they differ
    /// leads. The meaning says what the outcome does not: where the increments went.
    ///
    /// Each overlap is an inconsistency, a broken "one claim at a time": a lock that let a second
    /// claim in failed even in a trial whose increments all happened to survive.
    static func outcome(_ kept: Observation, overlaps: Int, overlap: String) -> Observation {
        var observation = kept
        observation.inconsistencies += overlaps
        observation.outcome = (overlaps > 0 ? "overlap: " + overlap : "no overlap") + " · " + kept.outcome
        // A band (`100–119/200`) says what its two numbers count: the counter's final value, and the
        // increments the trial made.
        let band = kept.outcome.split(separator: "/", maxSplits: 1)
        let lost =
            kept.meaning.hasSuffix(", the others lost") && band.count == 2
            ? "the counter ended at \(band[0]) of the trial's \(band[1]) increments, the rest lost"
            : kept.meaning
        observation.meaning = lost + (overlaps > 0 ? " to overlaps" : ", one claim at a time")
        return observation
    }
}
