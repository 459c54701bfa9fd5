import Foundation
import CheckThenAct
import RaceLab

/// A race-window hook that holds every thread reaching the window `name` until `parties` threads
/// are there, then lets them all go: the losing interleaving, forced. Every thread has read the
/// shared value before any of them writes it.
///
/// Tests check `isComplete`, so a window that was renamed or moved fails the test instead of
/// letting it pass without the interleaving. The wait gives up after `patience` so that a broken
/// test fails rather than hangs; it never decides the outcome of a passing one.
final class Rendezvous: RaceWindowHook, @unchecked Sendable {
    private let name: String
    private let parties: Int
    private let patience: TimeInterval
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var arrived = 0

    init(at name: String, parties: Int, patience: TimeInterval = 30) {
        self.name = name
        self.parties = parties
        self.patience = patience
    }

    /// True when all parties met at the window.
    var isComplete: Bool {
        condition.lock()
        defer { condition.unlock() }
        return arrived >= parties
    }

    func windowReached(_ reached: StaticString) {
        guard reached.description == name else { return }
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties {
            condition.broadcast()
            return
        }
        let deadline = Date(timeIntervalSinceNow: patience)
        while arrived < parties {
            if !condition.wait(until: deadline) { return }
        }
    }
}

/// Runs `body(index)` on `count` threads of their own, each with `hook` (if any) bound, and returns when all
/// have finished. Plain threads, not the cooperative pool: a hook that blocks one must not starve
/// the pool the test itself runs on.
func onSeparateThreads(_ count: Int, hook: (any RaceWindowHook)? = nil, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                Race.$hook.withValue(hook) { body(index) }
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) { continuation.resume() }
    }
}

/// Runs `variant` with the stress runner on a thread of its own, outside the cooperative pool.
///
/// `StressRunner.run` blocks its thread and then needs the pool for the trial's check; two of them
/// blocking both pool threads of a 2-core machine would wait for each other forever.
func stress(_ variant: Variant, trials: Int, iterations: Int, noise: Bool = true, seed: UInt64 = 2) async -> VariantReport {
    let options = StressRunner.Options(workload: Workload(trials: trials, iterations: iterations), seed: seed, noise: noise)
    return await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: StressRunner.run(variant, options: options)) }.start()
    }
}

/// The lesson's variant called `name`.
func lessonVariant(_ name: String) -> Variant {
    guard let variant = CheckThenActLesson.lesson.variant(named: name) else {
        fatalError("lesson 2 has no variant named \(name)")
    }
    return variant
}
