import Foundation
import RaceLab

/// What `racelab explore 6` runs: logical thread 1 is the UI, rendering once with the variant's own
/// reading code; every other thread is a writer publishing the next state twice (thread 0 alone, by
/// default: v1, then v2).
///
/// Every queue of the lesson is a `RaceQueue`, so the explorer sees the work the code really does
/// on queues: a writer's `update` only submits a work item, and that item is a thread of its own
/// (`state-data-source barrier`, `atomic-property item`, ...), started whenever the
/// queue's rules allow it; the state an observer sends to the UI queue is one more
/// (`ui item`); and a `sync` onto a queue (`sync ui`) waits, as a scheduling point,
/// for the items ahead of it. So the schedules put updates between the UI's reads, updates against
/// each other inside the queue, and a late delivery to the UI against the next update; and a
/// writer that waits for real (`sync-operations`' synchronous update, `safe-reading-queue`'s
/// assignment inside the UI queue) waits for the queue's model, not for a paused thread.
///
/// Scheduling points, besides the queue operations: `update` (`change` in `public-properties`, after
/// its API) and `render` (marked here, so that each thread's first move is a step of the schedule
/// and not set-up) and the windows of the variant's code: `read header` (`public-properties`), `read
/// items`, `read footer` (`read footer, title` in `public-properties`, whose step reads both), `read detailedTitle`, `read state again`,
/// `set header` (a step) and `set items, footer` (`public-properties`' change, whose last step sets
/// both), `notify observers`. The set-up's own work items (observers added in `init`) run
/// before the threads start, on the real queues. The invariant is checked once every thread and
/// every work item has finished, so the final state needs no waiting. The order of the steps
/// alone decides what every thread read, and a failing schedule replays.
///
/// Size: with 2 threads (one writer) and 2 preemptions, 9 to 228 schedules per variant. With 3,
/// each of the 4 updates, and each state sent on to the UI queue, is a thread: the variants that
/// send states to the UI queue (`state-object`, `specific-queue-observer`, `mutable-inside-state`)
/// then need 82,748 schedules or more (over 100,000 for `specific-queue-observer`) within 2
/// preemptions without reduction, a minute or two in release; `--preemptions 1` takes about 20,000.
/// `state-object` and `update-without-barrier` declare complete footprints, so `auto` explores them
/// with the states reduction (`state-object`: 7,248 schedules, the same 5,256 traces). The deadlocks
/// the compromises warn about are shown in `AsyncDataSourceDeadlockTests`, not here: the variants
/// as `racelab run` runs them never make the forbidden call.
extension AsyncDataSourceLesson {
    /// What the UI thread reported, collected for the invariant.
    final class Findings: @unchecked Sendable {
        private let lock = NSLock()
        private var found: [Inconsistency] = []

        func add(_ inconsistencies: [Inconsistency]) {
            lock.withLock { found += inconsistencies }
        }

        var first: Inconsistency? {
            lock.withLock { found.first }
        }
    }

    /// One variant's trial and what its UI found in one schedule.
    struct Explored<Trial: Sendable>: Sendable {
        let trial: Trial
        let findings = Findings()
    }

    /// Updates each writer publishes.
    static let updatesPerWriter = 2

    /// What the threads do, for a run of `threads` logical threads: thread 1 does `ui` (with two
    /// threads or more), each other thread publishes the next state `updatesPerWriter` times; then
    /// the invariant. One writer's versions are known (v1, then v2); several writers' interleave.
    /// `unit` names what runs each role: `thread`, or `task` for a variant of async bodies.
    static func roles(_ threads: Int, ui: String, invariant: String, unit: String = "thread") -> String {
        let writers = (0..<max(threads, 1)).filter { $0 != 1 }
        let publish: String
        if writers.count == 1 {
            publish = "\(unit) 0 publishes " + (1...updatesPerWriter).map { "v\($0)" }.joined(separator: ", then ")
        } else {
            let names =
                switch writers.count {
                case 2: "\(unit)s 0 and 2"
                case 3: "\(unit)s 0, 2 and 3"
                default: "\(unit)s 0 and 2 to \(threads - 1)"
                }
            publish =
                "\(names) each publish the next state "
                + (updatesPerWriter == 2 ? "twice " : "\(updatesPerWriter) times ")
                + "(v1 to v\(writers.count * updatesPerWriter) between them)"
        }
        return (threads > 1 ? "\(unit) 1 \(ui); " : "") + publish + "; invariant: " + invariant
    }

    /// The updates made in all: the UI is thread 1, the others are writers (one with `--threads 2`).
    static func updates(among threads: Int) -> Int {
        (threads > 1 ? threads - 1 : threads) * updatesPerWriter
    }

    /// Thread 1 renders cell 0 once with the design's own `render(cell:)`, as `racelab run`'s readers
    /// do; every other thread writes twice with the design's `write(waiting:)`, waiting for its first
    /// update (where the design can), not for its second. `makeTrial` returns once the set-up's own
    /// work items have run. `settle`, called
    /// when every thread and work item has finished, returns the final version and what the
    /// observers got wrong.
    ///
    /// - Parameters:
    ///   - readOnlySteps: true for a design whose `write` and `render` touch nothing shared but the
    ///     trial's constants before their first queue call (which is a step of its own): the
    ///     "update" and "render" steps then only read the trial, and commute (`Race.step(_:reading:)`).
    ///   - describe: the data source's state between steps (`racelab play 6`, `explore`'s failing
    ///     schedule), for a design that can be read without waiting for a paused thread.
    ///   - story: the inconsistency the lesson's story tells for this design; a failure that shows
    ///     another kind says so, so the room does not look for the story in it.
    ///   - storyWords: words of the failure the story tells (`mixed state: header says`): of the
    ///     shortest failing schedules, the first with them is shown.
    ///   - writerStep: a writer's step before each state it publishes, named after the design's
    ///     API (`change` for the public properties, `update` for the others).
    static func uiAgainstWriters<Trial: DataSourceTrial & AnyObject>(
        _ makeTrial: @escaping @Sendable () -> Trial,
        readOnlySteps: Bool = false,
        writerStep: StaticString = "update",
        story: Inconsistency.Kind? = nil,
        storyWords: String? = nil,
        settle: @escaping @Sendable (Trial) -> (version: Int, problems: [Inconsistency]),
        describe: (@Sendable (Trial) -> String)? = nil
    ) -> Exploration {
        let exploration = Exploration(
            // What names the program in replay strings; the text shown is `roles` (below).
            summary: "thread 1 renders the UI once; every other thread publishes the next state twice; "
                + "invariant: the UI saw one whole state and no update was lost",
            makeState: { Explored(trial: makeTrial()) },
            thread: { explored, index in
                // Both steps touch the design only through the trial (the dependence partial-order
                // reduction needs); what runs on its queues are steps of their own.
                if index == 1 {
                    if readOnlySteps {
                        Race.step("render", reading: explored.trial)
                    } else {
                        Race.step("render", on: explored.trial)
                    }
                    explored.findings.add(explored.trial.render(cell: 0))
                } else {
                    publish(explored.trial, step: writerStep, readOnly: readOnlySteps)
                }
            },
            invariant: { explored, threads in
                let (version, problems) = settle(explored.trial)
                let broken = verdict(explored.findings, problems, version: version, updates: updates(among: threads))
                guard let broken, let story, let first = explored.findings.first, first.kind != story else {
                    return broken
                }
                return broken + " (not the story's \(story.rawValue))"
            },
            describeState: describe.map { describe in { explored in describe(explored.trial) } }
        )
        .markingEveryWindow()
        .summarizing {
            roles($0, ui: "renders the UI once", invariant: "the UI saw one whole state and no update was lost")
        }
        // With read-only steps every step touches shared state only inside the design's queues (a
        // `queue.async` item, a `ui.sync`), which the explorer sees: its footprints are complete.
        let declared = readOnlySteps ? exploration.declaringCompleteFootprints() : exploration
        // Of the shortest failing schedules, one that shows the story is kept when there is one.
        return storyWords.map { words in declared.preferringFailures { $0.contains(words) } } ?? declared
    }

    /// A writer's part: the next state, `updatesPerWriter` times, waiting for the first update (where
    /// the design can), not for the second.
    private static func publish(
        _ trial: some DataSourceTrial & AnyObject,
        step: StaticString = "update",
        readOnly: Bool = false
    ) {
        for round in 0..<updatesPerWriter {
            if readOnly { Race.step(step, reading: trial) } else { Race.step(step, on: trial) }
            trial.write(waiting: round == 0)
        }
    }

    /// Thread 1 adds an observer with notify-on-add to the UI-queue observer of `makeTrial`'s trial
    /// (from its own thread in `observer-on-main-queue`, on the UI queue in the fix); every other
    /// thread publishes the next state twice. The observer must hear the UI's state once, then every
    /// later one, in order.
    static func observerAddedAgainstWriters(
        _ makeTrial: @escaping @Sendable () -> SpecificQueueObserverVariant.Trial
    ) -> Exploration {
        Exploration(
            // What names the program in replay strings; the text shown is `roles` (below).
            summary: "thread 1 adds an observer with notify-on-add; every other thread publishes the next state twice; "
                + "invariant: every observer told each state once, in order, and no update lost",
            makeState: { settled(makeTrial()) { $0.dataSource.waitUntilIdle() } },
            thread: { trial, index in
                if index == 1 {
                    Race.step("add observer")
                    trial.addObserver()
                } else {
                    publish(trial)
                }
            },
            invariant: { trial, threads in
                let version = trial.ui.sync { trial.uiState.state.version }
                let problems = trial.observers.problems(finalVersion: version)
                return verdict(Findings(), problems, version: version, updates: updates(among: threads))
            },
            // What each observer heard: the UI's first observer (old), then the one thread 1 adds (new).
            describeState: { trial in
                "data source v\(trial.dataSource.stateWhileEveryThreadIsPaused.version); "
                    + trial.observers.toldVersionsLabelled
            }
        )
        .markingEveryWindow()
        .summarizing {
            roles(
                $0,
                ui: "adds an observer with notify-on-add",
                invariant: "every observer told each state once, in order, and no update lost"
            )
        }
    }

    /// The actor variant: the same roles, each step an `await` on the actor.
    static let actorExploration = Exploration(
        // What names the program in replay strings; the text shown is `roles` (below).
        summary:
            "thread 1 reads the actor's state twice and renders it; every other thread publishes the next state twice; "
            + "invariant: one whole state, never older on the second read, no update lost",
        makeState: { Explored(trial: ActorStateVariant.Trial()) },
        asyncThread: { explored, index in
            let dataSource = explored.trial.dataSource
            if index == 1 {
                Race.step("render")
                let snapshot = await dataSource.state
                var found = CollectionReader.audit(snapshot: snapshot, cell: 0)
                Race.step("read state again")
                let later = await dataSource.state
                if let wentBack = Audit.olderAfterNewer(earlier: snapshot.version, later: later.version) {
                    found.append(wentBack)
                }
                explored.findings.add(found)
            } else {
                for _ in 0..<updatesPerWriter {
                    Race.step("update")
                    await dataSource.updateState { $0.next() }
                }
            }
        },
        invariant: { explored, threads in
            let version = await explored.trial.dataSource.state.version
            let problems = explored.trial.observers.problems(finalVersion: version)
            return verdict(explored.findings, problems, version: version, updates: updates(among: threads))
        }
    )
    .markingEveryWindow()
    .summarizing {
        roles(
            $0,
            ui: "reads the actor's state twice and renders it",
            invariant: "one whole state, never older on the second read, no update lost",
            unit: "task"
        )
    }

    private static func verdict(
        _ findings: Findings,
        _ problems: [Inconsistency],
        version: Int,
        updates: Int
    ) -> String? {
        if let first = findings.first { return "the UI saw \(first)" }
        // An observer's problem is in its own words: "told v1 twice", "told v4 right after v2".
        let observer = problems.first.map { "an observer was \($0.detail)" }
        // A lost update is the bug, and an observer told a state twice only its symptom: it leads.
        guard version == updates else {
            let lost = version < updates ? "\(updates - version) of \(updates) updates lost: " : ""
            return lost + "the data source ended at v\(version) after \(updates) updates"
                + (observer.map { ", and \($0)" } ?? "")
        }
        return observer.map { "observer order broken: \($0)" }
    }
}

extension AsyncDataSourceLesson {
    /// Between steps: the version each property holds and, beside it, the one the UI read
    /// (`header v2 (UI v0)`), then the cell's reads (`UI got title v0, detail v1`). Each property is
    /// read under its own lock, which no paused thread holds (a `change` block pauses between its
    /// assignments, not inside one).
    static let publicPropertiesExploration = uiAgainstWriters(
        { PublicPropertiesVariant.Trial(logsReads: true) },
        writerStep: "change",
        story: .mixedState,
        storyWords: "the UI saw mixed state: header says",
        settle: { trial in (trial.dataSource.header.version, []) },
        describe: { trial in
            let source = trial.dataSource
            let items = Set(source.items.map(\.version)).sorted().map { "v\($0)" }.joined(separator: "/")
            let reads = trial.uiReads?.all ?? []
            let held = [
                ("header", "v\(source.header.version)"), ("items", items), ("footer", "v\(source.footer.version)"),
            ]
            let properties = held.map { name, version in
                let got = reads.first { $0.hasPrefix(name + " ") }.map { " (UI \($0.dropFirst(name.count + 1)))" }
                return "\(name) \(version)\(got ?? "")"
            }
            let cell = reads.filter { read in !held.contains { read.hasPrefix($0.0 + " ") } }
            let ui =
                reads.isEmpty ? "; UI got nothing yet" : cell.isEmpty ? "" : "; UI got " + cell.joined(separator: ", ")
            return properties.joined(separator: ", ") + ui
        }
    )

    /// Between steps: the data source's state and what the UI has read (its lock is never held
    /// across a scheduling point).
    static let atomicPropertyExploration = uiAgainstWriters(
        { settled(AtomicPropertyVariant.Trial(logsReads: true)) { $0.dataSource.waitUntilIdle() } },
        settle: { trial in
            let version = trial.dataSource.state.version
            return (version, trial.observers.problems(finalVersion: version))
        },
        describe: { trial in
            "data source v\(trial.dataSource.describedState.version); "
                + "UI got \(trial.uiReads?.described ?? "")"
        }
    )

    static let stateObjectExploration = stateObjectDesign { StateObjectVariant.Trial() }

    static let updateWithoutBarrierExploration = stateObjectDesign { UpdateWithoutBarrierVariant.makeTrial() }

    /// The state-object design (`StateObjectVariant`), its updates applied as `makeTrial`'s data
    /// source applies them (with the barrier or without).
    static func stateObjectDesign(_ makeTrial: @escaping @Sendable () -> StateObjectVariant.Trial) -> Exploration {
        uiAgainstWriters(
            { settled(makeTrial()) { $0.dataSource.waitUntilIdle() } },
            // `write` is one `queue.async` of the data source, `render` one `ui.sync`: both steps only
            // read the trial's constants first.
            readOnlySteps: true,
            settle: { trial in
                let version = trial.ui.sync { trial.component.currentState.version }
                return (version, trial.observers.problems(finalVersion: version))
            },
            describe: { trial in
                "data source v\(trial.dataSource.stateWhileEveryThreadIsPaused.version); "
                    + "observer told \(trial.observers.toldVersions)"
            }
        )
    }

    /// One writer's first update is synchronous (the caller waits until it has been applied), the
    /// second asynchronous, as in `racelab run`'s mix.
    static let syncOperationsExploration = uiAgainstWriters(
        { settled(SyncOperationsVariant.Trial()) { $0.dataSource.waitUntilIdle() } },
        settle: { trial in
            let version = trial.dataSource.read { $0.version }
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    /// The variant's reader: five separate reads of `state` inside one UI work item.
    static let safeReadingQueueExploration = uiAgainstWriters(
        { SafeReadingQueueVariant.Trial() },
        settle: { trial in (trial.ui.sync { trial.dataSource.state.version }, []) }
    )

    static let specificQueueObserverExploration = uiAgainstWriters(
        { settled(SpecificQueueObserverVariant.Trial()) { $0.dataSource.waitUntilIdle() } },
        settle: { trial in
            let version = trial.ui.sync { trial.uiState.state.version }
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    static let observerOnMainQueueExploration = observerAddedAgainstWriters(ObserverOnMainQueueVariant.makeTrial)

    /// The reader is `racelab run`'s, from the variant's operation: one snapshot, audited, then a
    /// second read that must not be older.
    static let atomicObserverExploration = uiAgainstWriters(
        { settled(AtomicObserverVariant.Trial()) { $0.dataSource.waitUntilIdle() } },
        settle: { trial in
            let version = trial.latest.state.version
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    /// Between steps: the data source's state and the UI's copy, each with the version its shared
    /// footer object holds now.
    static let mutableInsideStateExploration = uiAgainstWriters(
        { settled(MutableInsideStateVariant.Trial()) { $0.dataSource.waitUntilIdle() } },
        settle: { trial in (trial.ui.sync { trial.uiState.state.version }, []) },
        describe: { trial in
            let source = trial.dataSource.stateWhileEveryThreadIsPaused
            let copy = trial.uiState.stateWhileEveryThreadIsPaused
            return "data source v\(source.version) (footer v\(source.footer.version)); "
                + "UI copy v\(copy.version) (footer v\(copy.footer.version))"
        }
    )

    /// `trial` once `wait` has returned: the observers its `init` adds are added on the real queue,
    /// before any thread of the exploration starts.
    private static func settled<Trial>(_ trial: Trial, _ wait: (Trial) -> Void) -> Trial {
        wait(trial)
        return trial
    }
}
