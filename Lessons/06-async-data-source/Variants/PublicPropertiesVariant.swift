import Dispatch
import RaceLab

/// `public-properties` (buggy): writers change header, items and footer in barrier blocks; the UI
/// reads the three public properties one by one and sees states that never existed.
enum PublicPropertiesVariant {
    final class Trial: Sendable {
        let dataSource = PublicPropertiesDataSource()
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
    }

    static let variant = Variant(
        name: "public-properties",
        kind: .buggy,
        summary: "header, items, footer as public properties set in change {} barriers, read one by one "
            + "[snapshot: no · two reads: no · reader waits: per-property lock · deadlock: no]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                trial.dataSource.publishNextVersion()
            case .reader(let cell):
                iteration.record(trial.ui.sync { trial.dataSource.render(cell: cell) })
            case .observerAdder:
                // This data source tells observers "I changed", not the new state: nothing to order.
                iteration.record(trial.ui.sync { trial.dataSource.render(cell: 0) })
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: trial.dataSource.header.version,
                problems: [],
                readers: trial.dataSource.readerWaits.bucket
            )
        }
    )
}
