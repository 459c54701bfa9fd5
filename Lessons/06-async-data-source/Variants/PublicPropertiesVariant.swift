import Dispatch
import RaceLab

/// `public-properties` (buggy): writers change header, items and footer in barrier blocks; the UI
/// reads the three public properties one by one and sees states that never existed.
enum PublicPropertiesVariant {
    final class Trial: DataSourceTrial {
        let dataSource = PublicPropertiesDataSource()
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")

        func write(waiting: Bool) {
            dataSource.publishNextVersion()
        }

        func render(cell: Int) -> [Inconsistency] {
            ui.sync { dataSource.render(cell: cell) }
        }

        func addObserver(_ iteration: Iteration) {
            // This data source tells observers "I changed", not the new state: nothing to order.
            read(cell: 0, iteration)
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            return TrialEnd(
                finalVersion: dataSource.header.version,
                problems: [],
                readers: dataSource.readerWaits.bucket
            )
        }
    }

    static let variant = Trial.variant(
        name: "public-properties",
        kind: .buggy,
        summary: "header, items, footer as public properties set in change {} barriers, read one by one "
            + "[snapshot: no · two reads: no · reader waits: per-property lock · deadlock: no]"
    )
}
