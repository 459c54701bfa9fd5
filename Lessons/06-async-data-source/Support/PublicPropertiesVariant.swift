import Dispatch
import RaceLab

/// `public-properties` (buggy): writers change header, items and footer in barrier blocks; the UI
/// reads the three public properties one by one and sees states that never existed.
enum PublicPropertiesVariant {
    /// This data source tells observers "I changed", not the new state: with nothing to order, an
    /// observer adder reads once more (`DataSourceTrial`'s default).
    final class Trial: DataSourceTrial {
        let dataSource = PublicPropertiesDataSource()
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        /// What the UI read, for the explorer's state lines; nil in `racelab run`.
        let uiReads: ReadLog?

        convenience init() {
            self.init(logsReads: false)
        }

        init(logsReads: Bool) {
            uiReads = logsReads ? ReadLog() : nil
        }

        func write(waiting: Bool) {
            dataSource.publishNextVersion()
        }

        func render(cell: Int) -> [Inconsistency] {
            ui.sync { dataSource.render(cell: cell, log: uiReads) }
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            return TrialEnd(
                finalVersion: dataSource.publishedVersion,
                problems: [],
                readers: dataSource.readerWaits
            )
        }
    }

    /// Its example is the story's mixed state (a header naming another count than the list) when
    /// any trial saw one, rather than whichever inconsistency came first.
    static let variant: Variant = {
        var variant = Trial.variant(
            name: "public-properties",
            kind: .buggy,
            summary: "header, items, footer as public locked properties, read one by one"
        )
        variant.leadingSample = "inconsistency: \(Inconsistency.Kind.mixedState.rawValue): header says"
        return variant
    }()
}
