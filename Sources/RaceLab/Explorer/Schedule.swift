/// The decisions of one controlled execution: which logical thread ran at each scheduling point.
///
/// Given the same program, the same schedule makes the same execution, because only one logical
/// thread runs at a time and it only gives up its turn at a scheduling point. That is what makes a
/// failing schedule worth printing: `--replay` runs it again and gets the same failure.
public struct Schedule: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// How many logical threads the program had.
    public let threads: Int
    /// The thread chosen at each decision, in order. Ids from `threads` on are threads the program
    /// started while it ran (callbacks, tasks), numbered in the order they were started.
    public let choices: [Int]

    public init(threads: Int, choices: [Int]) {
        self.threads = threads
        self.choices = choices
    }

    /// The replay string: `<threads>:<choice>.<choice>...`, e.g. `2:0.1.0.1`.
    public var replayString: String {
        "\(threads):" + choices.map(String.init).joined(separator: ".")
    }

    public var description: String { replayString }

    /// Parses a replay string; nil when it is malformed. Whether the threads it names beyond the
    /// program's own exist is only known when it is replayed (a replay that does not fit diverges).
    public init?(replayString text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let threads = Int(parts[0]), threads > 0 else { return nil }
        var choices: [Int] = []
        if !parts[1].isEmpty {
            for field in parts[1].split(separator: ".", omittingEmptySubsequences: false) {
                guard let choice = Int(field), choice >= 0 else { return nil }
                choices.append(choice)
            }
        }
        self.init(threads: threads, choices: choices)
    }
}
