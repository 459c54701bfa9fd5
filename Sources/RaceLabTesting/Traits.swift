#if canImport(Testing) && compiler(>=6.1)
import RaceLab
import Testing

/// Pins a seed or schedules for every RaceLab check in a test: `.raceLab(seed:)`, `.raceLabReplay(_:)`.
///
/// The values are bound for the test's duration (task-locals of `RaceLabPins`), so the checks it
/// calls pick them up without an argument, and a failure's message prints the trait to paste.
public struct RaceLabPinTrait: TestTrait, SuiteTrait, TestScoping {
    let seed: UInt64?
    let replays: [String]

    /// On a suite, the pin applies to each of its tests.
    public var isRecursive: Bool { true }

    /// The pin scopes each test case, not the suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with the pinned seed and schedules bound.
    /// - Throws: `RaceLabPins.Malformed` when a pinned replay string cannot be read, or what the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        var schedules = RaceLabPins.replays
        for text in replays {
            do {
                schedules.append(try Schedule.parse(text))
            } catch let refusal {
                throw RaceLabPins.Malformed(description: ".raceLabReplay(\"\(text)\"): \(refusal.reason)")
            }
        }
        try await RaceLabPins.$seed.withValue(seed ?? RaceLabPins.seed) {
            try await RaceLabPins.$replays.withValue(schedules) { try await function() }
        }
    }
}

extension Trait where Self == RaceLabPinTrait {
    /// Runs the test's stress checks with this noise seed: the same noise decisions as the run that
    /// printed it (the operating system's scheduler still varies).
    public static func raceLab(seed: UInt64) -> Self {
        RaceLabPinTrait(seed: seed, replays: [])
    }

    /// Replays these schedules (replay strings such as `"2:0.1.1.0@3fa9c1"`, as a failure prints them) before
    /// the test's explorations search: a schedule that once failed is re-run first.
    public static func raceLabReplay(_ schedules: String...) -> Self {
        RaceLabPinTrait(seed: nil, replays: schedules)
    }
}
#endif
