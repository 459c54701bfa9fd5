import RaceLab

/// What `racelab explore 2` runs: the lesson's own types on two (or `--threads`) logical threads.
///
/// The scheduling points are the types' own marks: `check didExecute` (the racy guard), `lock`,
/// `compare-exchange didExecute`, `async check-and-set`, and `Protected`'s `read` and `mutate`.
/// Work items the serial queue and `Protected`'s reader-writer queue run on their own threads need
/// no steps: those queues run them in submission order, and every later read waits for them.
extension CheckThenActLesson {
    /// Something with the `run(_:)` of the "run once" flags.
    protocol RunOnce: Sendable {
        func run(_ execute: () -> Void)
    }

    /// Every thread asks to run the work; afterwards it must have run exactly once.
    static func onceExploration<Once: RunOnce>(_ makeOnce: @escaping @Sendable () -> Once) -> Exploration {
        Exploration(
            summary: "each thread calls run { execute() }; invariant: execute() ran exactly once",
            makeState: { OnceTrial(once: makeOnce()) },
            thread: { trial, _ in trial.once.run { trial.work.execute() } },
            invariant: { trial, _ in executedOnce(trial.work.executions) }
        )
    }

    static let serialQueueExploration = Exploration(
        summary: "each thread calls run { execute() }; invariant: execute() ran exactly once",
        makeState: { OnceTrial(once: SerialQueueOnce()) },
        thread: { trial, _ in
            let work = trial.work
            trial.once.run { work.execute() }
        },
        invariant: { trial, _ in
            trial.once.drain()
            return executedOnce(trial.work.executions)
        }
    )

    /// Every thread increments the counter once; afterwards it must equal the thread count.
    static func counterExploration(_ increment: @escaping @Sendable (Protected<Int>) -> Void) -> Exploration {
        Exploration(
            summary: "each thread increments a Protected counter once; invariant: counter == threads",
            makeState: { Protected(resource: 0) },
            thread: { counter, _ in increment(counter) },
            invariant: { counter, threads in
                let value = counter.read()
                return value == threads ? nil : "counter is \(value) after \(threads) increments"
            }
        )
    }

    private static func executedOnce(_ executions: Int) -> String? {
        executions == 1 ? nil : "execute() ran \(executions) times"
    }
}

extension RacyOnce: CheckThenActLesson.RunOnce {}
extension LockedOnce: CheckThenActLesson.RunOnce {}
extension AtomicOnce: CheckThenActLesson.RunOnce {}
