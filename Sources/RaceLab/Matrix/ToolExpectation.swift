/// What ThreadSanitizer and the Swift 6 compiler are expected to make of one variant, as measured
/// on one operating system, with the reason in one line.
///
/// Declared on the variant itself, next to its code (as jcstress declares a test's outcomes on the
/// test), with `Variant.expecting(tsan:compiler:on:because:)`:
///
/// ```swift
/// static let buggy = Variant(name: "buggy", kind: .buggy, ...)
///     .expecting(tsan: .reported, compiler: .rejected, on: .linux,
///                because: "a plain Bool read and written from several threads: a data race both tools see")
/// ```
///
/// `racelab matrix` (`make tsan`) checks each row against the expectation declared for the
/// operating system it runs on. A variant with no expectation for that system is *unmeasured*
/// there: its row says so, and only the rules that need no expectation apply (a buggy variant must
/// reproduce; a fixed one must stay clean in the runner and silent under TSan). What a tool sees
/// can differ between systems (a lock's implementation, Foundation's annotations), so an
/// expectation measured on one is never assumed on another.
public struct ToolExpectation: Sendable, Codable, Equatable {
    /// What ThreadSanitizer reports for the variant's processes.
    public enum TSan: String, Sendable, Codable, CaseIterable {
        /// TSan reports nothing (`silent`), or at least one race (`reported`).
        case silent, reported
        /// Either: a race TSan catches in some runs only (the reason says why).
        case any
    }

    /// What the Swift 6 compiler says about the variant's compiler probe
    /// (`Lessons/NN-slug/CompilerProbes/<variant>.swift`).
    public enum Compiler: String, Sendable, Codable, CaseIterable {
        /// The probe type-checks (`accepted`), or the compiler refuses it (`rejected`).
        case accepted, rejected
        /// No probe: the variant's pattern is not compiled on its own (the calibration rows).
        case notMeasured = "not-measured"
        /// Either: the answer is not checked.
        case any
    }

    /// An operating system an expectation was measured on.
    public enum OperatingSystem: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// Linux.
        case linux
        /// macOS.
        case macOS = "macos"

        /// The system this code was compiled for, or nil on one RaceLab has no expectations for.
        public static var current: OperatingSystem? {
            #if os(Linux)
            .linux
            #elseif os(macOS)
            .macOS
            #else
            nil
            #endif
        }

        public var description: String {
            switch self {
            case .linux: "Linux"
            case .macOS: "macOS"
            }
        }
    }

    /// What ThreadSanitizer is expected to report.
    public var tsan: TSan
    /// What the Swift 6 compiler is expected to say about the variant's probe.
    public var compiler: Compiler
    /// Where `tsan` and `compiler` were measured.
    public var measuredOn: OperatingSystem
    /// Why the tools answer as they do, in one line.
    public var reason: String

    /// An expectation measured on `measuredOn`.
    /// - Parameters:
    ///   - tsan: what TSan is expected to report.
    ///   - compiler: what the compiler is expected to say.
    ///   - measuredOn: the operating system it was measured on.
    ///   - reason: why, in one line.
    public init(tsan: TSan, compiler: Compiler, measuredOn: OperatingSystem, reason: String) {
        self.tsan = tsan
        self.compiler = compiler
        self.measuredOn = measuredOn
        self.reason = reason
    }
}

extension Variant {
    /// This variant, with what ThreadSanitizer and the Swift 6 compiler are expected to make of it on
    /// `system` (see `ToolExpectation`). Chain one call per system measured.
    ///
    /// - Precondition: the variant has no expectation for `system` yet.
    public func expecting(
        tsan: ToolExpectation.TSan,
        compiler: ToolExpectation.Compiler,
        on system: ToolExpectation.OperatingSystem,
        because reason: String
    ) -> Variant {
        precondition(
            toolExpectation(on: system) == nil && unmeasuredReasons[system] == nil,
            "variant \(name) declares two expectations for \(system)"
        )
        var copy = self
        copy.toolExpectations.append(
            ToolExpectation(tsan: tsan, compiler: compiler, measuredOn: system, reason: reason)
        )
        return copy
    }

    /// The expectation measured on `system`, if the variant declares one.
    public func toolExpectation(on system: ToolExpectation.OperatingSystem?) -> ToolExpectation? {
        guard let system else { return nil }
        return toolExpectations.first { $0.measuredOn == system }
    }

    /// This variant, declared *unmeasured* on `system`: it runs there, but nobody has measured what
    /// ThreadSanitizer and the compiler make of it (code written for a system no one here can reach,
    /// against its documentation). The matrix on `system` then prints its row as unmeasured with
    /// `reason`, and applies only the rules that need no expectation. It stays a claim to check: a
    /// buggy variant must still reproduce and a fixed one stay clean when it runs.
    ///
    /// - Precondition: the variant declares nothing for `system` yet.
    public func unmeasured(on system: ToolExpectation.OperatingSystem, because reason: String) -> Variant {
        precondition(
            toolExpectation(on: system) == nil && unmeasuredReasons[system] == nil,
            "variant \(name) declares \(system) twice"
        )
        var copy = self
        copy.unmeasuredReasons[system] = reason
        return copy
    }

    /// Whether the variant declares anything (an expectation, or that it is unmeasured) for any system.
    public var declaresToolExpectations: Bool {
        !toolExpectations.isEmpty || !unmeasuredReasons.isEmpty
    }
}
