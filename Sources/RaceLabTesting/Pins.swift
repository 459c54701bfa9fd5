import Foundation
import RaceLab

/// The seed and the schedules a test pins, so that a failure once seen is re-run first.
///
/// Three sources, the first that says something wins: an explicit `seed:` argument; the Swift Testing
/// traits `.raceLab(seed:)` and `.raceLabReplay(_:)` (bound for the test's duration); the environment
/// variables `RACELAB_SEED` (decimal or `0x` hex) and `RACELAB_REPLAY` (replay strings separated by
/// commas), which XCTest tests and whole CI runs can use too.
public enum RaceLabPins {
    /// The seed the `.raceLab(seed:)` trait binds.
    @TaskLocal public static var seed: UInt64?
    /// The schedules the `.raceLabReplay(_:)` trait binds.
    @TaskLocal public static var replays: [Schedule] = []

    /// The environment variable read for a seed.
    public static let seedVariable = "RACELAB_SEED"
    /// The environment variable read for schedules to replay first.
    public static let replayVariable = "RACELAB_REPLAY"

    /// A pin that cannot be used: a malformed environment variable. The check fails with this message
    /// instead of running something other than what was asked for.
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The seed to run with: `explicit`, else the trait's, else `RACELAB_SEED`, else a new random one.
    public static func resolvedSeed(
        _ explicit: UInt64?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Malformed) -> UInt64 {
        if let explicit { return explicit }
        if let seed { return seed }
        if let text = environment[seedVariable] {
            guard let value = parseSeed(text) else {
                throw Malformed(description: "\(seedVariable)='\(text)' is not a seed (decimal or 0x hex)")
            }
            return value
        }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }

    /// The schedules to replay before searching: the trait's, then those in `RACELAB_REPLAY`.
    public static func resolvedReplays(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Malformed) -> [Schedule] {
        var schedules = replays
        if let text = environment[replayVariable] {
            for field in text.split(separator: ",") {
                let trimmed = field.trimmingCharacters(in: .whitespaces)
                do {
                    schedules.append(try Schedule.parse(trimmed))
                } catch let refusal {
                    throw Malformed(description: "\(replayVariable) holds '\(trimmed)': \(refusal.reason)")
                }
            }
        }
        return schedules
    }

    /// `42` or `0x2a`.
    static func parseSeed(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }
}
