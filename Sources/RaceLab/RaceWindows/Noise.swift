import Foundation
import Synchronization

/// Seeded noise at race windows, in the style of IBM's ConTest: at each marked window a thread
/// may yield, spin a little or sleep briefly, which makes a thread lose its core in exactly the
/// places where that exposes a bug.
///
/// Noise decisions are a pure function of (seed, trial, iteration, how many windows this iteration
/// already passed). The same seed therefore makes the same decisions; it cannot make the operating
/// system schedule threads identically, so outcomes vary from run to run while noise does not.
public enum Noise {
    /// What a thread does at one window.
    public enum Action: Equatable, Sendable {
        /// Go on at once.
        case proceed
        /// Give up the core (`sched_yield`).
        case yield
        /// Busy-wait for this many loop turns.
        case spin(Int)
        /// Sleep for this many microseconds.
        case sleep(microseconds: Int)
    }

    /// The decision for the `step`-th window reached by one iteration.
    ///
    /// Half the windows proceed untouched; of the rest, a third yield, a third spin (up to 2,000
    /// turns) and a third sleep (20–200 µs, long enough for another core to run a whole operation).
    public static func action(seed: UInt64, trial: Int, iteration: Int, step: Int) -> Action {
        var random = SplitMix64(seed: SplitMix64.derive(seed, trial, iteration, step))
        let roll = random.next() % 6
        switch roll {
        case 0, 1, 2: return .proceed
        case 3: return .yield
        case 4: return .spin(Int(random.next() % 2_000) + 1)
        default: return .sleep(microseconds: Int(random.next() % 181) + 20)
        }
    }

    /// Carries out `action` on the calling thread.
    public static func perform(_ action: Action) {
        switch action {
        case .proceed:
            break
        case .yield:
            sched_yield()
        case .spin(let turns):
            var sink = 0
            for turn in 0..<turns { sink &+= blackHole(turn) }
            _ = blackHole(sink)
        case .sleep(let microseconds):
            usleep(UInt32(microseconds))
        }
    }
}

/// The hook the runner binds for one iteration: it counts the windows the iteration reaches and,
/// with noise on, each window takes the next decision of that iteration's seeded sequence.
///
/// With noise off it only counts, so that a report can say whether any window was reached at all:
/// a run that reached none gave noise nothing to act on, and its silence is no evidence.
final class NoiseHook: RaceWindowHook {
    private let seed: UInt64
    private let trial: Int
    private let iteration: Int
    private let noise: Bool
    private let steps = Atomic<Int>(0)

    init(seed: UInt64, trial: Int, iteration: Int, noise: Bool = true) {
        self.seed = seed
        self.trial = trial
        self.iteration = iteration
        self.noise = noise
    }

    /// Windows reached under this hook so far.
    var windowsReached: Int { steps.load(ordering: .relaxed) }

    func windowReached(_ name: StaticString) {
        let step = steps.wrappingAdd(1, ordering: .relaxed).oldValue
        if noise { Noise.perform(Noise.action(seed: seed, trial: trial, iteration: iteration, step: step)) }
    }
}

/// Returns its argument through a function the optimizer may not look into, so that work done only
/// to burn time (or only to race) is not deleted or merged.
@inline(never)
public func blackHole<T>(_ value: T) -> T {
    value
}
