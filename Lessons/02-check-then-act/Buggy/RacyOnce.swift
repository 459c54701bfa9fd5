import RaceLab

/// "Run this once" written as the article's incorrect example: check a plain `Bool`, act, then set it.
///
/// Each line is fine on its own; together they are a *check-then-act*: the decision (`!didExecute`)
/// is made on a value that another thread may change before this thread acts on it. Every thread
/// that reads `false` before the first one stores `true` runs `execute()`, so the work can run two,
/// three, ten times. The longer `execute()` takes, the wider the window, because the flag is only
/// set after it returns.
///
/// `@unchecked Sendable` is the type's claim to be safe to share; the lesson shows the claim is false.
///
/// `@RaceShared` keeps `didExecute` a plain, unsynchronised `Bool` (ThreadSanitizer still reports
/// the race); it only lets the schedule explorer see each read and write of it.
public final class RacyOnce: @unchecked Sendable {
    @RaceShared("didExecute") private var didExecute = false

    public init() {}

    /// Runs `execute` unless some call already did. Not thread-safe, whatever the type claims.
    @inline(never)
    public func run(_ execute: () -> Void) {
        guard !didExecute else { return }
        // hazard: check-then-act. This thread saw `false`; until it stores `true` below, every other
        // thread that reaches the guard sees `false` too and runs `execute()` as well.
        Race.window("saw false → execute()")
        execute()
        didExecute = true
    }

    /// The flag as it stands, for the explorer's state lines: read between steps only, when every
    /// thread is paused (a read in `run` goes through the same wrapper).
    var flagBetweenSteps: Bool { didExecute }
}
