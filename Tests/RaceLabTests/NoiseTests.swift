import Foundation
import Synchronization
import Testing

@testable import RaceLab

@Suite("Noise follows its seed")
struct NoiseTests {
    private func decisions(seed: UInt64) -> [Noise.Action] {
        (0..<20).flatMap { iteration in
            (0..<5).map { step in Noise.action(seed: seed, trial: 3, iteration: iteration, step: step) }
        }
    }

    @Test("the same seed makes the same decisions")
    func sameSeed() {
        #expect(decisions(seed: 7) == decisions(seed: 7))
    }

    @Test("another seed makes other decisions")
    func otherSeed() {
        #expect(decisions(seed: 7) != decisions(seed: 8))
    }

    @Test("every kind of noise occurs, and about half the windows proceed")
    func mixOfActions() {
        let actions = (0..<6_000).map { Noise.action(seed: 1, trial: 0, iteration: $0, step: 0) }
        let proceeds = actions.filter { $0 == .proceed }.count
        #expect((2_700...3_300).contains(proceeds))
        #expect(actions.contains(.yield))
        #expect(actions.contains { if case .spin = $0 { true } else { false } })
        #expect(actions.contains { if case .sleep = $0 { true } else { false } })
    }

    @Test("SplitMix64 matches its reference sequence")
    func splitMixReference() {
        // First outputs of SplitMix64 seeded with 0, from the reference C implementation.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}

@Suite("Race windows reach the bound hook, and only it")
struct RaceWindowTests {
    /// Records the names of the windows it sees.
    final class Recorder: RaceWindowHook {
        private let seen = LockedValueBox<[String]>([])
        func windowReached(_ name: StaticString) {
            seen.withLockedValue { $0.append("\(name)") }
        }
        var names: [String] { seen.value }
    }

    @Test("a window where no hook is bound reaches no hook, not even one bound on another thread at that moment")
    func unbound() async {
        let recorder = Recorder()
        let bound = DispatchSemaphore(value: 0)
        let reached = DispatchSemaphore(value: 0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onOwnThread {
                    Race.$hook.withValue(recorder) {
                        bound.signal()
                        reached.wait()  // still bound while the other thread passes its window
                        Race.window("bound here")
                    }
                }
            }
            group.addTask {
                await onOwnThread {
                    bound.wait()
                    #expect(Race.hook == nil)
                    Race.window("nobody listens")
                    reached.signal()
                }
            }
        }
        #expect(recorder.names == ["bound here"])
    }

    @Test("a bound hook sees the windows of its thread and of tasks created there")
    func boundHookIsInherited() async {
        let recorder = Recorder()
        await Race.$hook.withValue(recorder) {
            Race.window("on the thread")
            await Task { Race.window("in a task") }.value
        }
        Race.window("after unbinding")
        #expect(recorder.names == ["on the thread", "in a task"])
    }

    @Test("a hand-off carries the hook to a callback on another queue; plain dispatch does not")
    func handOffCarriesTheHook() async {
        let recorder = Recorder()
        let done = DispatchGroup()
        Race.$hook.withValue(recorder) {
            let callback = Race.handOff("callback")
            done.enter()
            DispatchQueue.global().async {
                callback.run { Race.window("in the callback") }
                done.leave()
            }
            done.enter()
            DispatchQueue.global().async {
                Race.window("in plain dispatch")
                done.leave()
            }
        }
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        #expect(recorder.names == ["in the callback"])
    }

    @Test("outside the explorer a RaceQueue's async item sees its submitter's hook, a RaceTask's body its creator's")
    func raceQueueAndTaskCarryTheHook() async {
        let recorder = Recorder()
        let queue = RaceQueue(label: "racelab.test.carry")
        let task = Race.$hook.withValue(recorder) {
            queue.async { Race.window("in the async item") }
            return RaceTask("task") { Race.window("in the task") }
        }
        await task.value
        queue.sync {}
        #expect(Set(recorder.names) == ["in the async item", "in the task"])
    }
}
