/// The decisions of one controlled execution: which logical thread ran at each scheduling point.
///
/// Given the same program, the same schedule makes the same execution, because only one logical
/// thread runs at a time and it only gives up its turn at a scheduling point. That is what makes a
/// failing schedule worth printing: `--replay` runs it again and gets the same failure.
///
/// A schedule found by the explorer names the program it came from (`program`, a fingerprint of
/// the exploration, see `Exploration.fingerprint(marks:)`), and its replay string carries it:
/// a string replayed on another program is refused, never run as something else.
public struct Schedule: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// How many logical threads the program had.
    public let threads: Int
    /// The thread chosen at each decision, in order. Ids from `threads` on are threads the program
    /// started while it ran (callbacks, tasks), numbered in the order they were started.
    public let choices: [Int]
    /// The fingerprint of the program the schedule belongs to; nil for a schedule made in code.
    public var program: String?

    /// A schedule made in code, or parsed from a replay string.
    /// - Parameters:
    ///   - threads: how many logical threads the program has.
    ///   - choices: the thread chosen at each decision.
    ///   - program: the fingerprint of the program; nil for one made in code.
    public init(threads: Int, choices: [Int], program: String? = nil) {
        self.threads = threads
        self.choices = choices
        self.program = program
    }

    /// The replay string: `<threads>:<choice>.<choice>...@<program>`, e.g. `2:0.1.0.1@3fa9c1`.
    public var replayString: String {
        "\(threads):" + choices.map(String.init).joined(separator: ".") + (program.map { "@\($0)" } ?? "")
    }

    public var description: String { replayString }

    /// The same decisions, for comparing what ran with what was asked (the program aside).
    var decisions: Schedule { Schedule(threads: threads, choices: choices) }

    /// Parses a replay string; nil when it is malformed or names no program (see `parse(_:)`).
    public init?(replayString text: String) {
        guard let schedule = try? Self.parse(text) else { return nil }
        self = schedule
    }

    /// Parses a replay string, saying what is wrong with one that cannot be used.
    ///
    /// Whether the choices fit the program is only known when it is replayed (`Explorer.replay`
    /// refuses one that does not).
    public static func parse(_ text: String) throws(ReplayRefusal) -> Schedule {
        let example = "like '2:0.1.0.1@3fa9c1', as a report prints it"
        let identified = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = identified[0].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let threads = Int(parts[0]), threads > 0 else {
            throw ReplayRefusal("not a replay string \(example)")
        }
        var choices: [Int] = []
        if !parts[1].isEmpty {
            for field in parts[1].split(separator: ".", omittingEmptySubsequences: false) {
                guard let choice = Int(field), choice >= 0 else {
                    throw ReplayRefusal("not a replay string \(example): a choice is not a thread number")
                }
                choices.append(choice)
            }
        }
        guard identified.count == 2 else {
            throw ReplayRefusal(
                "the replay string names no program (it ends without '@' and a fingerprint): it was written "
                    + "by hand, cut short, or made by an older RaceLab; explore again for a current one"
            )
        }
        let program = String(identified[1])
        guard program.count == Fingerprint.length, program.allSatisfy(\.isHexDigit) else {
            throw ReplayRefusal(
                "the replay string's fingerprint '\(program)' is not \(Fingerprint.length) hexadecimal digits "
                    + "(cut short or altered?)"
            )
        }
        return Schedule(threads: threads, choices: choices, program: program)
    }
}
