import Foundation
import RaceLab

/// What `racelab explore 6` runs: logical thread 1 is the UI, rendering once with the variant's own
/// reading code; every other thread is a writer publishing the next state twice.
///
/// The scheduling points are `update` and `render` (marked here, so that each thread's first move
/// is a step of the schedule and not set-up) and the readers' own windows: `read items`,
/// `read footer`, `read detailedTitle`, `read state again`. A writer's update is a work item on the
/// data source's queue, which the explorer cannot see into; so a writer here also waits for it
/// (`waitUntilIdle()`, or the actor call's own `await`), which makes the whole update one step. No
/// reader is ever paused inside the data source's queue, so that wait never stands behind a paused
/// thread. Work the update hands on to the UI queue (`queue.async` in the observers) runs before any
/// later UI work item and after the one in progress: its place is fixed by the schedule too. So the
/// order of the steps alone decides which states the UI read, and a failing schedule replays.
///
/// This explores where an update can fall among the UI's reads, which is what the buggy readers get
/// wrong. It does not explore updates interleaved with each other inside the queue, nor a slow
/// delivery to the UI racing the next update: those need the queue's work items as threads of their
/// own. `sync-operations` and `safe-reading-queue` are not explorable for that reason: their writer
/// waits, for real, on a queue that a paused UI thread is inside.
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

    /// The updates made in all: the UI is thread 1, the others are writers (one with `--threads 2`).
    static func updates(among threads: Int) -> Int {
        (threads > 1 ? threads - 1 : threads) * updatesPerWriter
    }

    /// Thread 1 renders once with `render`; every other thread runs `update` twice, which must return only
    /// once its change has been applied. `settle` waits for every queue and returns the final version
    /// and what the observers got wrong.
    static func uiAgainstWriters<Trial: Sendable>(
        _ makeTrial: @escaping @Sendable () -> Trial,
        update: @escaping @Sendable (Trial) -> Void,
        render: @escaping @Sendable (Trial) -> [Inconsistency],
        settle: @escaping @Sendable (Trial) -> (version: Int, problems: [Inconsistency])
    ) -> Exploration {
        Exploration(
            summary: "thread 1 renders the UI once, the others each publish the next state twice; "
                + "invariant: the UI saw one whole state and no update was lost",
            makeState: { Explored(trial: makeTrial()) },
            thread: { explored, index in
                if index == 1 {
                    Race.step("render")
                    explored.findings.add(render(explored.trial))
                } else {
                    for _ in 0..<updatesPerWriter {
                        Race.step("update")
                        update(explored.trial)
                    }
                }
            },
            invariant: { explored, threads in
                let (version, problems) = settle(explored.trial)
                return verdict(explored.findings, problems, version: version, updates: updates(among: threads))
            }
        )
    }

    /// The actor variant: the same roles, each step an `await` on the actor.
    static let actorExploration = Exploration(
        summary: "thread 1 reads the actor's state twice and renders it, the others each publish the next state twice; "
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
                if let wentBack = Audit.backInTime(earlier: snapshot.version, later: later.version) {
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

    private static func verdict(
        _ findings: Findings, _ problems: [Inconsistency], version: Int, updates: Int
    ) -> String? {
        if let first = findings.first { return "the UI saw \(first)" }
        if let first = problems.first { return "an observer saw \(first)" }
        return version == updates ? nil : "the data source ended at v\(version) after \(updates) updates"
    }
}

extension AsyncDataSourceLesson {
    static let publicPropertiesExploration = uiAgainstWriters(
        { PublicPropertiesVariant.Trial() },
        update: { trial in
            trial.dataSource.publishNextVersion()
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in trial.ui.sync { trial.dataSource.render(cell: 0) } },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            return (trial.dataSource.header.version, [])
        }
    )

    static let atomicPropertyExploration = uiAgainstWriters(
        { AtomicPropertyVariant.Trial() },
        update: { trial in
            trial.dataSource.update { $0.next() }
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in trial.ui.sync { trial.dataSource.render(cell: 0) } },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            let version = trial.dataSource.state.version
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    static let stateObjectExploration = uiAgainstWriters(
        { StateObjectVariant.Trial() },
        update: { trial in
            trial.dataSource.update { $0.next() }
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in trial.ui.sync { trial.component.render(cell: 0) } },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            let version = trial.ui.sync { trial.component.currentState.version }
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    static let specificQueueObserverExploration = uiAgainstWriters(
        { SpecificQueueObserverVariant.Trial() },
        update: { trial in
            trial.dataSource.update { $0.next() }
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in
            trial.ui.sync { CollectionReader.auditByRepeatedReads(cell: 0) { trial.uiState.state } }
        },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            let version = trial.ui.sync { trial.uiState.state.version }
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    /// The reader is `racelab run`'s, from the variant's operation: one snapshot, audited, then a
    /// second read that must not be older.
    static let atomicObserverExploration = uiAgainstWriters(
        { AtomicObserverVariant.Trial() },
        update: { trial in
            trial.dataSource.update { $0.next() }
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in
            let snapshot = trial.latest.state
            var found = CollectionReader.audit(snapshot: snapshot, cell: 0)
            Race.window("read state again")
            if let wentBack = Audit.backInTime(earlier: snapshot.version, later: trial.latest.state.version) {
                found.append(wentBack)
            }
            return found
        },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            let version = trial.latest.state.version
            return (version, trial.observers.problems(finalVersion: version))
        }
    )

    static let mutableInsideStateExploration = uiAgainstWriters(
        { MutableInsideStateVariant.Trial() },
        update: { trial in
            trial.dataSource.update { $0.next() }
            trial.dataSource.waitUntilIdle()
        },
        render: { trial in trial.ui.sync { trial.uiState.state.render() }.map { [$0] } ?? [] },
        settle: { trial in
            trial.dataSource.waitUntilIdle()
            return (trial.ui.sync { trial.uiState.state.version }, [])
        }
    )
}
