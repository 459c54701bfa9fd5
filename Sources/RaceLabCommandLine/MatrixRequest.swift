import RaceLab

/// What `matrix` was asked to do: which variants to put through the runner, ThreadSanitizer and the
/// Swift 6 compiler, and where the probes, expectations and logs are.
struct MatrixRequest: Equatable {
    /// Lesson numbers, in order.
    var lessons: [Int]
    /// Add the calibration rows (TSan on correct code); on when every lesson runs.
    var calibration: Bool = false
    /// At most this many trials per variant (default: the lesson's).
    var trials: Int?
    /// Seconds of trials per variant: no new trial starts after this (one always runs).
    var budget: Double = MatrixRequest.defaultBudget
    var seed: UInt64?
    var noise: Bool = true
    var timeout: Double = MatrixRequest.defaultTimeout
    /// An expectations file replacing the expectations the variants declare; nil to use those.
    var expectations: String?
    var probes: String = MatrixRequest.defaultProbes
    /// Where TSan writes its logs; nil means a folder in the temporary directory.
    var logs: String?
    /// The build of the tool that runs the variants; nil means this one.
    var executable: String?
    var json: Bool = false
    var junit: String?

    /// Seconds of trials per variant under TSan: most variants finish all their trials within it; the
    /// slowest lessons (files on disk) run one or two.
    static let defaultBudget: Double = 20
    /// Longer than `run`'s: TSan makes a variant 5-100 times slower.
    static let defaultTimeout: Double = 300
    /// The folder of lesson folders: probes are `Lessons/<NN-slug>/CompilerProbes/<variant>.swift`.
    static let defaultProbes = "Lessons"
}
