import Foundation
import RaceLab

/// Lesson 2: a "run once" flag checked and then set loses its promise under concurrency, and the
/// article's `ReadWriteLock`/`Protected` fix each single access but not a read followed by a write.
public enum CheckThenActLesson {
    public static let lesson = Lesson(
        number: 2,
        slug: "check-then-act",
        title: "check-then-act flag race",
        summary: "`guard !didExecute else { return }; execute(); didExecute = true` from ten threads runs the work "
            + "more than once; `Protected` guards each access, yet `write(read() + 1)` still loses updates.",
        // Ten iterations per trial, as in the article. With noise the flag race shows in a quarter to
        // two thirds of the trials, so 1,500 of them (well under a second) show it in every run.
        workload: Workload(trials: 1_500, iterations: 10),
        variants: [
            buggy, serialQueue, lock, atomic, protectedReadThenWrite, protectedMutate, errorsUnprotected,
            errorsProtected,
        ],
        // Each family of variants counts its own things under the report's three names: one line
        // each, the families that count it first. A family that does not count one of them still
        // prints its row (at 0) under --verbose: its line says so.
        countMeanings: [
            "duplicates": """
            run-once variants: executions of the work after a trial's first
            errors-*: errors the completion saw twice
            protected-*: always 0 (not counted)
            """,
            // A fan-in variant's lost writes are out of its errors, a third of its iterations: the
            // verdict line's "of 600 iterations" is not their denominator, so the line gives it.
            "lost writes": """
            protected-*: increments missing from the final count
            errors-*: errors the completion never saw (of 200: one fetch in three fails)
            run-once variants: always 0 (not counted)
            """,
            "inconsistencies": """
            errors-*: errors the completion saw that name no failing fetch
            run-once and protected-*: always 0 (not counted)
            """,
        ]
    )

    // MARK: Run once

    /// The article's incorrect example: ten iterations, each checks the flag, executes, sets the flag.
    static let buggy = runOnce(
        "buggy",
        .buggy,
        summary: "guard !didExecute; execute(); didExecute = true on a plain Bool",
        once: { RacyOnce() }
    )
    .expecting(
        tsan: .reported,
        compiler: .rejected,
        on: .linux,
        because: "a plain Bool read and written from several threads: a data race both tools see"
    )

    /// The article's fix. Each trial's executions are counted once its queue has drained: the
    /// article's `async` means the work may still be pending when every iteration has returned.
    static let serialQueue = Variant(
        name: "serial-queue",
        kind: .fixed,
        summary: "each check-and-set is an async work item on one serial queue (counted once it drains)",
        makeState: { OnceTrial(once: SerialQueueOnce()) },
        operation: { trial, _ in trial.enqueueWork() },
        check: { trial, _ in .executions(trial.drainedExecutions()) }
    ).exploring(serialQueueExploration)
        .expecting(
            tsan: .silent,
            compiler: .rejected,
            on: .linux,
            because:
                "the serial queue orders every access; to the compiler the flag is a captured var mutated concurrently"
        )

    static let lock = runOnce("lock", .fixed, summary: "check and set under one NSLock", once: { LockedOnce() })
        .expecting(
            tsan: .silent,
            compiler: .rejected,
            on: .linux,
            because: "check and set under one NSLock; the compiler cannot tie the lock to the flag"
        )

    static let atomic = runOnce(
        "atomic",
        .fixed,
        summary: "one compare-and-exchange of an Atomic<Bool> decides who executes; losers return at once",
        once: { AtomicOnce() }
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "one compare-and-exchange of an Atomic: seen by TSan, Sendable to the compiler"
    )

    // MARK: Protected counter

    /// A counter behind `Protected`, one increment per iteration.
    static let protectedReadThenWrite = protectedCounter(
        "protected-read-then-write",
        .buggy,
        summary: "let value = counter.read(); counter.write(value + 1): two safe calls, one unsafe pair",
        // Fewer trials than protected-mutate: its loss shows in every trial, while a CLEAN verdict
        // needs many trials without one.
        trials: 20,
        tools: "two synchronized calls, a race neither tool sees; rejected only because Protected is not Sendable",
        increment: { $0.incrementByReadingThenWriting() }
    )

    /// The check's `read()` is enqueued after every iteration's barrier, so it sees all of them:
    /// a read after `mutate` sees the write.
    static let protectedMutate = protectedCounter(
        "protected-mutate",
        .fixed,
        summary: "counter.mutate { $0 + 1 }: read and write in one barrier item",
        trials: 100,
        tools: "read and write in one barrier item; rejected like the bug, because Protected is not Sendable",
        increment: { $0.incrementByMutating() }
    )

    // MARK: Fan-in of errors

    /// Each iteration starts one fetch; every third fails and its callback appends to a plain array.
    static let errorsUnprotected = fanIn(
        "errors-unprotected",
        .buggy,
        summary: "fetch callbacks on a global queue append their errors to a plain array",
        collector: { UnprotectedErrors() }
    )
    .exploring(errorsExploration { UnprotectedErrors(capacity: 16) })
    .expecting(
        tsan: .reported,
        compiler: .rejected,
        on: .linux,
        because: "callbacks append to a plain array from several threads: a data race both tools see"
    )

    static let errorsProtected = fanIn(
        "errors-protected",
        .fixed,
        summary: "fetch callbacks append to Protected<[Error]> with mutate; the completion reads it",
        collector: { Protected<[any Error]>(resource: []) }
    )
    .exploring(errorsExploration { Protected<[any Error]>(resource: []) })
    .expecting(
        tsan: .silent,
        compiler: .rejected,
        on: .linux,
        because: "appends go through Protected.mutate; rejected because Protected is not Sendable"
    )
}

// MARK: The three families of variants

extension CheckThenActLesson {
    /// A "run once" variant: every iteration asks the flag to run the work, which must have run
    /// exactly once per trial. The explorer runs the same type.
    static func runOnce<Once: RunOnce>(
        _ name: String,
        _ kind: VariantKind,
        summary: String,
        once makeOnce: @escaping @Sendable () -> Once
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            makeState: { OnceTrial(once: makeOnce()) },
            operation: { trial, _ in trial.once.run { trial.work.execute() } },
            check: { trial, _ in .executions(trial.work.executions) }
        ).exploring(onceExploration(makeOnce))
    }

    /// A counter behind `Protected`, incremented once per iteration by `increment`, over `trials`
    /// trials of 1,000 increments. The explorer runs the same increment. Every such variant goes
    /// through `Protected`'s own synchronization, which TSan sees, and `Protected` is not `Sendable`:
    /// TSan is silent and the compiler rejects it, for the reason `tools` gives.
    static func protectedCounter(
        _ name: String,
        _ kind: VariantKind,
        summary: String,
        trials: Int,
        tools because: String,
        increment: @escaping @Sendable (Protected<Int>) -> Void
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            workload: Workload(trials: trials, iterations: 1_000),
            makeState: { Protected(resource: 0) },
            operation: { counter, _ in increment(counter) },
            check: { counter, trial in .kept(counter.read(), of: trial.iterations, unit: "increments") }
        ).exploring(counterExploration(increment))
            .expecting(tsan: .silent, compiler: .rejected, on: .linux, because: because)
    }

    /// A fan-in variant: each iteration starts one fetch (every third fails) whose callback records
    /// its error in the collector `makeCollector` makes; the completion must see every error once.
    static func fanIn(
        _ name: String,
        _ kind: VariantKind,
        summary: String,
        collector makeCollector: @escaping @Sendable () -> any ErrorCollector
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            workload: Workload(trials: 100, iterations: 600),
            makeState: { FetchBatch(collectingInto: makeCollector()) },
            operation: { batch, iteration in batch.fetch(iteration.index) },
            check: { batch, trial in FetchAudit.observe(await batch.completion(), fetches: trial.iterations) }
        )
    }
}

/// One trial of a "run once" variant: the flag under test and the work it guards.
struct OnceTrial<Once: Sendable>: Sendable {
    let once: Once
    let work = ImportantWork()
}

extension OnceTrial where Once == SerialQueueOnce {
    /// Asks the serial queue to run the work once; the work may still be queued when this returns.
    /// (The work is captured alone, not the trial: the queue's item outlives the call.)
    func enqueueWork() {
        let work = self.work
        once.run { work.execute() }
    }

    /// How often the work ran, once every queued check-and-set has run.
    func drainedExecutions() -> Int {
        once.drain()
        return work.executions
    }
}
