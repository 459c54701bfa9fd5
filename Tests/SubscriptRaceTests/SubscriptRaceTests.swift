import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import SubscriptRace

@Suite("Lesson 1: contents[id] = data loses keys")
struct SubscriptRaceTests {
    @Test("a store that runs between another store's get and set is undone")
    func forcedInterleavingLosesAKey() async {
        let storage = Storage()
        // A: get contents ([:]) … in the window, B's whole store runs … set contents = ["a"]
        // B (inside A's window): get contents ([:]), set contents = ["b"]
        let hook = AtWindow("set contents") { storage.store(Data([2]), forIdentifier: "b") }
        await onThreads(1, hook: hook) { _ in storage.store(Data([1]), forIdentifier: "a") }
        // A's barrier write ran after B's and replaced ["b"] with ["a"]: B's key is gone.
        #expect(hook.fired)
        #expect(storage.numberOfItems == 1)
    }

    @Test("the fixed store offers no window between get and set: the same forced interleaving finds none")
    func fixedStoreHasNoWindow() async {
        let storage = FixedStorage()
        // The same hook as above: it would run B's store inside A's get/set window, if there were one.
        let hook = AtWindow("set contents") { storage.store(Data([2]), forIdentifier: "b") }
        await onThreads(1, hook: hook) { _ in storage.store(Data([1]), forIdentifier: "a") }
        #expect(!hook.fired, "the fixed store must not open a window between reading and writing contents")
        storage.store(Data([2]), forIdentifier: "b")
        #expect(storage.numberOfItems == 2)
        #expect(storage.data(forIdentifier: "a") == Data([1]))
        #expect(storage.data(forIdentifier: "b") == Data([2]))
    }

    @Test("under concurrentPerform with noise, the buggy store loses keys")
    func buggyVariantReproduces() async {
        // Measured on 2 cores: about half of all keys are lost in every trial, with or without noise,
        // so 20 trials of 1,000 stores without a single lost key would take a miracle, not bad luck.
        let report = await StressRunner.run(
            SubscriptRaceLesson.buggy,
            options: .init(
                workload: Workload(trials: 20, iterations: 1_000),
                seed: 1,
                noise: true
            )
        )
        #expect(report.lostWrites > 0)
        #expect(report.verdict == .reproduced)
        // The verbose block shows the one count the lesson measures, lost keys, and no other.
        let block = TextReport(lessonVariants: true).variant(report, counts: SubscriptRaceLesson.lesson.measuredCounts)
        #expect(block.contains("\n  lost writes       \(grouped(report.lostWrites)) total"), "\(block)")
        #expect(!block.contains("duplicates") && !block.contains("inconsistencies"), "\(block)")
    }

    @Test(
        "fixed variants keep every key over 10^5 stores",
        arguments: [SubscriptRaceLesson.fixed, SubscriptRaceLesson.actor]
    )
    func fixedVariantsAreClean(variant: Variant) async {
        let report = await StressRunner.run(
            variant,
            options: .init(
                workload: Workload(trials: 100, iterations: 1_000),
                seed: 2,
                noise: true
            )
        )
        #expect(report.operations == 100_000)
        #expect(report.lostWrites == 0)
        #expect(report.anomalousTrials == 0)
        #expect(report.verdict == .clean)
        // A clean variant's verbose block still shows the count its verdict rests on: zero lost keys.
        let block = TextReport(lessonVariants: true).variant(report, counts: SubscriptRaceLesson.lesson.measuredCounts)
        #expect(block.contains("\n  lost writes       0 total, 0.00 per trial"), "\(block)")
        #expect(!block.contains("duplicates") && !block.contains("inconsistencies"), "\(block)")
    }
}

extension Variant: CustomTestStringConvertible {
    public var testDescription: String { name }
}
