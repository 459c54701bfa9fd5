/// One ThreadSanitizer warning, reduced to what a reader needs to find the race: its kind, where it
/// happened, and the two conflicting accesses.
///
/// TSan prints the same race once per distinct pair of stacks, so one racy line reached from two
/// call paths gives two warnings. Warnings with the same `identity` (kind, summary location and
/// function) are one race to a reader; the matrix counts those.
public struct SanitizerReport: Sendable, Codable, Equatable {
    /// One of the accesses (or other events) a report shows a stack for.
    public struct Access: Sendable, Codable, Equatable {
        /// TSan's header for the stack, without addresses: `"Write of size 1 by main thread"`,
        /// `"Previous read of size 1 by thread T1"`.
        public var description: String
        /// The first frame in Swift source (`file.swift:line:column`), if the stack has one.
        public var location: String?
        /// That frame's function, demangled and shortened.
        public var function: String?
    }

    /// What TSan found: `"data race"`, `"Swift access race"`, `"heap-use-after-free"`,
    /// `"lock-order-inversion (potential deadlock)"`, ...
    public var kind: String
    /// The process that wrote the report.
    public var pid: Int?
    /// The location on the report's `SUMMARY` line: a source file with line and column, or
    /// `<compiler-generated>` for standard-library code specialized into the program.
    public var location: String
    /// The function on the `SUMMARY` line, demangled and shortened.
    public var function: String
    /// The raw (mangled) symbol of that function, part of the identity.
    public var symbol: String
    /// The first two accesses: the one that was caught and the earlier one it conflicts with.
    public var accesses: [Access]

    /// Warnings with equal identities are the same race reached along different stacks.
    public var identity: String { "\(kind)|\(location)|\(symbol)" }

    /// One line: `data race at Lessons/02-check-then-act/Buggy/RacyOnce.swift:25:20 in CheckThenAct.RacyOnce.run`.
    public var headline: String { "\(kind) at \(location) in \(function)" }
}
