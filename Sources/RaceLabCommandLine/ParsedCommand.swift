import RaceLab

/// A command line after parsing and validation: everything in it is known to be runnable.
enum ParsedCommand: Equatable {
    case help(CommandName?)
    case version
    case list(json: Bool)
    case run(RunRequest)
    /// Measure how likely each buggy variant is to show its bug, per strategy.
    case power(RunRequest)
    /// The hidden command a parent starts a child process with, to run or explore one variant there.
    case child(ChildRequest)
    /// Put every variant through the stress runner, ThreadSanitizer and the Swift 6 compiler.
    case matrix(MatrixRequest)
    /// Run variants under the schedule explorer, or replay one schedule.
    case explore(ExploreRequest)
    /// Let a person be the scheduler of one variant's exploration.
    case play(PlayRequest)
    /// The hidden command `WorkerProcess` uses to run one of a lesson's workers in a process of its own.
    case runWorker(WorkerRequest)
}

/// What `run` was asked to do.
struct RunRequest: Equatable {
    /// Lesson numbers to run, in order.
    var lessons: [Int]
    var variant: String?
    var trials: Int?
    var iterations: Int?
    var seed: UInt64?
    var noise: Bool = true
    var timeout: Double = RunRequest.defaultTimeout
    var json: Bool = false
    /// Also write the report as JUnit XML to this file (`--junit FILE`).
    var junit: String?
    /// Also write the report as a self-contained HTML page (`--html FILE`, `run` only).
    var html: String?

    /// Seconds a variant's process may run before the watchdog kills it.
    static let defaultTimeout: Double = 120
}

extension ParsedCommand {
    /// The public command, when it keeps files in the temporary directory (its variants run in child
    /// processes whose output goes there): the one whose usage to show when `TMPDIR` is unusable, and
    /// whose start sweeps the folders that killed runs left there.
    var scratchCommand: CommandName? {
        switch self {
        case .run: .run
        case .power: .power
        case .matrix: .matrix
        case .explore: .explore
        default: nil
        }
    }
}
