/// What a variant's check found after one trial: the numbers the report adds up.
///
/// Three kinds of anomaly are counted, and a variant fills in those that mean something for it:
/// - **lost writes**: work that was done but is not in the final state (expected − observed);
/// - **duplicates**: work that was done more times than allowed (observed − expected);
/// - **inconsistencies**: invariant violations, such as a reader seeing a state that never existed.
///
/// A check that finds work which failed for a reason of its own (a store that hit a full disk, a
/// file that could not be opened) reports it in `errors`, not as a lost write: an error is never
/// evidence of the bug, and a trial with one counts toward neither `reproduced` nor `failed`.
///
/// `outcome` is the trial's entry in the report's histogram, the way jcstress groups results: trials
/// with the same outcome are counted together, and `meaning` says what that outcome is.
public struct Observation: Sendable, Equatable {
    /// What the trial should have produced (for example, the number of keys stored).
    public var expected: Int
    /// What the trial did produce.
    public var observed: Int
    /// Writes missing from the final state.
    public var lostWrites: Int
    /// Work done more often than it may be.
    public var duplicates: Int
    /// Invariant violations found by the check (added to those iterations recorded while running).
    public var inconsistencies: Int
    /// Operations the check found failed for a reason that is not the bug (a system call's error).
    public var errors: Int
    /// The histogram key for this trial, e.g. `"1000"` or `"kept 400–499"`.
    public var outcome: String
    /// What the outcome means, in a few words and in the outcome's own terms, e.g.
    /// `"400–499 of 1,000 writes kept, the others lost"` for the outcome `"400–499/1,000"`.
    public var meaning: String
    /// A few of the problems the check found, each in one line (`inconsistency: told v1 twice`),
    /// shown as the report's samples after those the iterations recorded. Empty unless set.
    public var samples: [String] = []
    /// What the variant's design did in the trial that is neither an anomaly nor an error (reloads
    /// that joined a load in flight, say), summed over the run and printed under its verdict.
    public var tallies: [Tally] = []
    /// Where the outcome sorts in the histogram, for outcomes that are kinds of damage rather than
    /// distances from the correct result: rows read from rank 0 up. Nil (the default): by
    /// `|observed − expected|`, from the correct result outwards.
    public var rank: Int? = nil

    /// An observation; the counts not given are zero.
    /// - Parameters:
    ///   - expected: what the trial should have produced.
    ///   - observed: what it produced.
    ///   - lostWrites: writes missing from the final state.
    ///   - duplicates: work done more often than allowed.
    ///   - inconsistencies: invariant violations the check found.
    ///   - errors: operations that failed for a reason that is not the bug.
    ///   - outcome: the histogram key.
    ///   - meaning: what the outcome means.
    public init(
        expected: Int,
        observed: Int,
        lostWrites: Int = 0,
        duplicates: Int = 0,
        inconsistencies: Int = 0,
        errors: Int = 0,
        outcome: String,
        meaning: String
    ) {
        self.expected = expected
        self.observed = observed
        self.lostWrites = lostWrites
        self.duplicates = duplicates
        self.inconsistencies = inconsistencies
        self.errors = errors
        self.outcome = outcome
        self.meaning = meaning
    }

    /// The observation for work that must all be kept: `expected − observed` writes were lost.
    ///
    /// For small counts each value is its own outcome; above 20 the histogram groups observed values
    /// into tenths of `expected`, so that a run of 200 trials prints a handful of rows, not 200. A
    /// group's meaning names the same range as its outcome, counted the same way (writes kept).
    /// Numbers from 1,000 up carry thousands separators, as everywhere else in a report.
    /// - Parameters:
    ///   - observed: the writes found in the final state.
    ///   - expected: the writes done.
    ///   - unit: the plural noun for what is counted, e.g. `"keys"`.
    public static func kept(_ observed: Int, of expected: Int, unit: String = "writes") -> Observation {
        let lost = max(0, expected - observed)
        let outcome: String
        let meaning: String
        if lost == 0 {
            outcome = "\(grouped(observed))/\(grouped(expected))"
            meaning =
                observed == expected ? "all \(unit) kept" : "\(grouped(observed - expected)) \(unit) more than written"
        } else if expected <= 20 {
            outcome = "\(grouped(observed))/\(grouped(expected))"
            meaning = "\(grouped(lost)) \(unit) lost"
        } else {
            let band = Band.containing(observed, of: expected)
            let range = "\(grouped(band.lower))–\(grouped(band.upper))"
            outcome = "\(range)/\(grouped(expected))"
            meaning = "\(range) of \(grouped(expected)) \(unit) kept, the others lost"
        }
        return Observation(
            expected: expected,
            observed: observed,
            lostWrites: lost,
            inconsistencies: observed > expected ? observed - expected : 0,
            outcome: outcome,
            meaning: meaning
        )
    }

    /// The observation for work that must happen exactly `expected` times (usually once): every
    /// extra execution is a duplicate; a missing one is a lost write.
    public static func executions(_ observed: Int, expected: Int = 1, unit: String = "executions") -> Observation {
        let meaning: String
        switch observed {
        case expected: meaning = "exactly as intended"
        case ..<expected: meaning = "\(grouped(expected - observed)) missing"
        default:
            meaning = "\(grouped(observed - expected)) duplicate \(observed - expected == 1 ? singular(unit) : unit)"
        }
        return Observation(
            expected: expected,
            observed: observed,
            lostWrites: max(0, expected - observed),
            duplicates: max(0, observed - expected),
            outcome: "\(grouped(observed)) \(observed == 1 ? singular(unit) : unit)",
            meaning: meaning
        )
    }

    /// The observation for a hand-out that must give every item exactly once, the contract of a
    /// work queue or a job dispatcher: an item never handed out is a lost write, each extra hand-out
    /// of an item is a duplicate, and an item that was never put in is an inconsistency.
    ///
    /// ```swift
    /// check: { queue, trial in .eachExactlyOnce(queue.takenItems, of: 0..<trial.iterations, unit: "jobs") }
    /// ```
    ///
    /// - Parameters:
    ///   - handedOut: every item handed out, once per hand-out, in any order.
    ///   - expected: the items that were put in, each once.
    ///   - unit: the plural noun for the items, e.g. `"jobs"`.
    public static func eachExactlyOnce<Item: Hashable>(
        _ handedOut: some Sequence<Item>,
        of expected: some Sequence<Item>,
        unit: String = "items"
    ) -> Observation {
        var counts: [Item: Int] = [:]
        for item in handedOut { counts[item, default: 0] += 1 }
        let expectedItems = Set(expected)
        let missing = expectedItems.filter { counts[$0] == nil }.count
        let duplicated = counts.filter { expectedItems.contains($0.key) && $0.value > 1 }
        let extraHandOuts = duplicated.values.reduce(0) { $0 + $1 - 1 }
        let strangers = counts.filter { !expectedItems.contains($0.key) }.values.reduce(0, +)
        let handOuts = counts.values.reduce(0, +)
        func count(_ number: Int) -> String { "\(grouped(number)) \(number == 1 ? singular(unit) : unit)" }
        var parts: [String] = []
        if missing > 0 { parts.append("\(count(missing)) never handed out") }
        if !duplicated.isEmpty {
            parts.append("\(count(duplicated.count)) handed out more than once (\(grouped(extraHandOuts)) extra)")
        }
        if strangers > 0 {
            parts.append("\(grouped(strangers)) hand-out\(strangers == 1 ? "" : "s") of \(unit) never put in")
        }
        let outcome =
            parts.isEmpty
            ? "each once"
            : [
                missing > 0 ? "\(grouped(missing)) missing" : nil,
                extraHandOuts > 0 ? "\(grouped(extraHandOuts)) duplicated" : nil,
                strangers > 0 ? "\(grouped(strangers)) unknown" : nil,
            ].compactMap { $0 }.joined(separator: ", ")
        return Observation(
            expected: expectedItems.count,
            observed: handOuts,
            lostWrites: missing,
            duplicates: extraHandOuts,
            inconsistencies: strangers,
            outcome: outcome,
            meaning: parts.isEmpty
                ? "all \(count(expectedItems.count)) handed out exactly once" : parts.joined(separator: "; ")
        )
    }

    /// True when the check found the bug's signature: a lost write, a duplicate or an inconsistency.
    /// Errors are not anomalies.
    public var isAnomalous: Bool { lostWrites > 0 || duplicates > 0 || inconsistencies > 0 }
}

/// A count of some of a trial's operations that says what a design did with them, e.g. how many
/// reloads joined a load already in flight: no anomaly, a fact of the design a verdict alone hides.
/// The runner sums `count` and `total` over the trials without errors, per `phrase`, and the report
/// prints `count of total phrase` (`1,234 of 12,000 reloads joined a load in flight`).
public struct Tally: Sendable, Codable, Equatable {
    /// The operations the phrase is true of.
    public var count: Int
    /// The operations it could have been true of.
    public var total: Int
    /// What `count` of `total` did, in words that follow the numbers.
    public var phrase: String

    /// A tally: `count` of `total` operations did what `phrase` says.
    public init(_ count: Int, of total: Int, _ phrase: String) {
        self.count = count
        self.total = total
        self.phrase = phrase
    }

    /// `count of total phrase`, with thousands separators.
    public var text: String { "\(grouped(count)) of \(grouped(total)) \(phrase)" }
}

extension [Tally] {
    /// Adds each of `other`'s counts and totals to the tally with its phrase, appending a tally
    /// whose phrase is new: the sums stay in the order the phrases first came.
    mutating func add(_ other: [Tally]) {
        for tally in other {
            if let index = firstIndex(where: { $0.phrase == tally.phrase }) {
                self[index].count += tally.count
                self[index].total += tally.total
            } else {
                append(tally)
            }
        }
    }
}

/// `renders` → `render`: the noun of a plural unit for a count of one.
private func singular(_ unit: String) -> String {
    unit.hasSuffix("s") ? String(unit.dropLast()) : unit
}

/// A tenth of a count, used to group large observed values into readable histogram rows.
struct Band: Equatable {
    var lower: Int
    var upper: Int

    /// The band of `value` among `0 ..< total`, in tenths; the top band ends at `total − 1` because
    /// `total` itself (nothing lost) is always its own outcome.
    static func containing(_ value: Int, of total: Int) -> Band {
        let clamped = min(max(value, 0), total - 1)
        let tenth = (clamped * 10) / total
        let lower = (tenth * total + 9) / 10
        let upper = min(total - 1, ((tenth + 1) * total + 9) / 10 - 1)
        return Band(lower: lower, upper: upper)
    }
}
