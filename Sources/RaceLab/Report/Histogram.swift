import Foundation

/// One row of an outcome histogram: how many trials ended with this outcome, and whether that
/// outcome is allowed. Modelled on jcstress's `RESULT SAMPLES FREQ EXPECT DESCRIPTION`.
public struct HistogramRow: Sendable, Codable, Equatable {
    /// Whether an outcome may happen in a correct program.
    public enum Expectation: String, Sendable, Codable {
        /// A correct program can end this way.
        case acceptable
        /// Only a bug ends this way.
        case forbidden
        /// The trial had an error (a failed setup, system call or check): it says nothing either way.
        case error
    }

    /// The outcome, as the variant's check named it (e.g. `"1,000/1,000"` or `"2 executions"`).
    public var outcome: String
    /// Trials that ended with this outcome.
    public var samples: Int
    /// `samples` over all trials of the run, from 0 to 1.
    public var frequency: Double
    /// Whether a correct program can end this way (`acceptable`) or only a bug (`forbidden`).
    public var expectation: Expectation
    /// What the outcome means.
    public var meaning: String
}

/// Counts trial outcomes as they come in.
struct HistogramBuilder {
    private var rows: [String: HistogramRow] = [:]
    /// Per outcome, the smallest distance seen between what a trial produced and what it should
    /// have: the key that puts rows in outcome order.
    private var distances: [String: Int] = [:]

    /// Counts one trial.
    /// - Parameter distance: how far the trial's result is from the correct one
    ///   (`|observed − expected|`), so that rows read from the correct outcome outwards.
    mutating func add(
        outcome: String,
        expectation: HistogramRow.Expectation,
        meaning: String,
        distance: Int = 0
    ) {
        rows[
            outcome,
            default: HistogramRow(
                outcome: outcome,
                samples: 0,
                frequency: 0,
                expectation: expectation,
                meaning: meaning
            )
        ].samples += 1
        distances[outcome] = min(distances[outcome] ?? distance, distance)
    }

    /// The rows with frequencies over `trials`, in outcome order, never by how often they occurred:
    /// acceptable outcomes first, then forbidden ones, then errors; within each, from the outcome
    /// nearest the correct result outwards (`1,000/1,000`, `900–999/1,000`, `800–899/1,000`), ties by
    /// the outcome's name in numeric order.
    func rows(trials: Int) -> [HistogramRow] {
        rows.values
            .map { row in
                var row = row
                row.frequency = trials > 0 ? Double(row.samples) / Double(trials) : 0
                return row
            }
            .sorted { lhs, rhs in
                if lhs.expectation != rhs.expectation { return lhs.expectation.order < rhs.expectation.order }
                let (left, right) = (distances[lhs.outcome] ?? 0, distances[rhs.outcome] ?? 0)
                if left != right { return left < right }
                return lhs.outcome.localizedStandardCompare(rhs.outcome) == .orderedAscending
            }
    }
}

extension HistogramRow.Expectation {
    /// Rows print acceptable first, then forbidden, then errors.
    fileprivate var order: Int {
        switch self {
        case .acceptable: 0
        case .forbidden: 1
        case .error: 2
        }
    }
}
