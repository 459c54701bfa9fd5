import Foundation
import RaceLab
import Testing

/// Partial-order reduction (`--reduction dpor`) on programs whose traces can be counted by hand,
/// and against `--reduction none`: the reduced search must cover every trace the full one does.
@Suite("Partial-order reduction")
struct ReductionTests {
    /// Objects the programs' steps are marked `on:`; the steps touch no memory of their own.
    final class Objects: @unchecked Sendable {
        let own = (0..<8).map { _ in NSObject() }
        let shared = NSObject()
        let lock = RaceLock("shared")
        var order: [Int] = []
        /// Objects that log which threads stepped on them: honest footprints with an outcome.
        let cells = (0..<3).map { _ in Cell() }
    }

    final class Cell: @unchecked Sendable {
        var log: [Int] = []
    }

    /// Each thread takes `steps` steps, each on an object no other thread touches.
    static func disjoint(steps: Int, threads: Int) -> Exploration {
        Exploration(
            summary: "\(threads) threads, \(steps) steps each on an object of their own",
            defaultThreads: threads,
            makeState: { Objects() },
            thread: { objects, index in
                for _ in 0..<steps { Race.step("own step", on: objects.own[index]) }
            },
            invariant: { _, _ in nil }
        )
    }

    /// Each thread takes a step on its own object, then appends its index to one shared array (a
    /// step on the shared object). The invariant records the order, so every trace is an outcome.
    static let ownThenShared = Exploration(
        summary: "each thread: a step on its own object, then one append to a shared array",
        defaultThreads: 3,
        makeState: { Objects() },
        thread: { objects, index in
            Race.step("own step", on: objects.own[index])
            Race.window("append", on: objects.shared)
            objects.order.append(index)
        },
        invariant: { objects, _ in "order \(objects.order)" }
    )

    /// Each thread takes the shared lock once; with `ownStep`, after a step on its own object.
    static func lockOnce(ownStep: Bool) -> Exploration {
        Exploration(
            summary: "each thread: " + (ownStep ? "a step on its own object, then " : "") + "the shared lock once",
            makeState: { Objects() },
            thread: { objects, index in
                if ownStep { Race.step("own step", on: objects.own[index]) }
                objects.lock.withLock { objects.order.append(index) }
            },
            invariant: { objects, _ in "order \(objects.order)" }
        )
    }

    /// Each thread takes `steps` steps on the shared object: reads, or (from thread `writer` on) writes.
    static func readers(steps: Int, writerFrom writer: Int = .max) -> Exploration {
        Exploration(
            summary: "threads reading one object" + (writer == .max ? "" : ", from thread \(writer) on writing it"),
            makeState: { Objects() },
            thread: { objects, index in
                for _ in 0..<steps {
                    if index >= writer {
                        Race.step("write", on: objects.shared)
                    } else {
                        Race.step("read", reading: objects.shared)
                    }
                }
            },
            invariant: { _, _ in nil }
        )
    }

    /// Where sleep sets and the preemption bound meet. Thread 0 steps on A, B, then D; thread 1 on
    /// D, then on everything (no object: it writes A's log). The trace "1 on D; 0 on A, B, D; 1 on
    /// everything" has one order within 1 preemption: that one (thread 1 first, switch to 0, back to
    /// 1 once 0 finished). Explored after thread 0 went first, a sleep set that ignores the bound
    /// keeps thread 0 asleep after thread 1's step on D (independent of 0's step on A, and "0 on A
    /// first" was explored), though every order that starts with thread 0 needs 2 preemptions.
    /// Measured: with that rule dpor covered 4 of the 5 traces `none` covers within 1 preemption.
    static let sleepUnderBound = Exploration(
        summary: "thread 0 on A, B, D; thread 1 on D, then on everything",
        defaultThreads: 2,
        makeState: { Objects() },
        thread: { objects, index in
            let (a, b, d) = (objects.cells[0], objects.cells[1], objects.cells[2])
            if index == 0 {
                for cell in [a, b, d] {
                    Race.step("step", on: cell)
                    cell.log.append(index)
                }
            } else {
                Race.step("step", on: d)
                d.log.append(index)
                Race.step("step anywhere")
                a.log.append(index)
            }
        },
        invariant: { objects, _ in "logs \(objects.cells.map(\.log))" }
    )

    /// Each thread runs one `sync` on a concurrent `RaceQueue`: plain items, or (from thread
    /// `barrier` on) barriers. Plain items of a concurrent queue run side by side, so they commute.
    static func concurrentSyncs(barrierFrom barrier: Int = .max) -> Exploration {
        Exploration(
            summary: "threads calling sync on one concurrent queue" + (barrier == .max ? "" : ", some with a barrier"),
            makeState: { RaceQueue(label: "racelab.reduction", attributes: .concurrent) },
            thread: { queue, index in
                queue.sync(flags: index >= barrier ? .barrier : []) {}
            },
            invariant: { _, _ in nil }
        )
    }

    static func explore(
        _ exploration: Exploration,
        _ reduction: ExplorationOptions.Reduction,
        threads: Int? = nil,
        preemptions: Int = 2
    ) async throws -> ExplorationReport {
        let options = ExplorationOptions(reduction: reduction, threads: threads, preemptions: preemptions)
        let report = try await Explorer.explore(exploration, options: options)
        #expect(report.exhaustive)
        return report
    }

    /// A program whose steps all commute, run on each thread count in `threads`.
    struct Commuting: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var threads: ClosedRange<Int>
        var program: @Sendable (_ threads: Int) -> Exploration

        static let disjointObjects = Commuting(testDescription: "k threads on disjoint objects", threads: 2...4) {
            ReductionTests.disjoint(steps: 2, threads: $0)
        }
        static let readers = Commuting(testDescription: "threads that only read one object", threads: 2...3) { _ in
            ReductionTests.readers(steps: 2)
        }
        static let sharedReads = Commuting(
            testDescription: "threads that only read a @RaceShared variable",
            threads: 3...3
        ) { _ in
            Exploration(
                summary: "each thread reads a @RaceShared Int twice",
                makeState: { RaceSharedTests.Counter() },
                thread: { counter, _ in _ = counter.value + counter.value },
                invariant: { _, _ in nil }
            )
        }
    }

    @Test(
        "steps that all commute: one schedule with dpor; every schedule none runs is the same trace",
        arguments: [Commuting.disjointObjects, .readers, .sharedReads]
    )
    func commutingStepsRunOneSchedule(commuting: Commuting) async throws {
        for threads in commuting.threads {
            let reduced = try await Self.explore(commuting.program(threads), .dpor, threads: threads)
            #expect(reduced.schedules == 1)
            #expect(reduced.tracesCovered == 1)
            let full = try await Self.explore(commuting.program(threads), .none, threads: threads)
            #expect(full.schedules > 1)
            #expect(full.tracesCovered == 1)
        }
    }

    @Test("plain items of a concurrent queue commute; a barrier does not")
    func concurrentQueue() async throws {
        let plain = try await Self.explore(Self.concurrentSyncs(), .dpor, threads: 3)
        #expect(plain.schedules == 1)
        #expect(plain.tracesCovered == 1)
        // The barrier's item goes before or after each plain one: 2 × 2 traces.
        let barrier = try await Self.explore(Self.concurrentSyncs(barrierFrom: 2), .dpor, threads: 3)
        let full = try await Self.explore(Self.concurrentSyncs(barrierFrom: 2), .none, threads: 3)
        #expect(barrier.tracesCovered == 4)
        #expect(full.tracesCovered == 4)
    }

    /// One read and one write of one object, a step each: the write comes first or second, so
    /// two traces. With two readers and one writer (the shape of the example Abdulla et al. use to
    /// introduce source sets, POPL 2014), each read is before or after the write, and the reads are
    /// not ordered between themselves: 2 × 2 = 4 traces (6 interleavings).
    @Test("a read and a write of one object do not commute; two reads do")
    func readAgainstWrite() async throws {
        for (threads, traces) in [(2, 2), (3, 4)] {
            let program = Self.readers(steps: 1, writerFrom: threads - 1)
            let reduced = try await Self.explore(program, .dpor, threads: threads)
            let full = try await Self.explore(program, .none, threads: threads)
            #expect(reduced.tracesCovered == traces)
            #expect(full.tracesCovered == traces)
        }
    }

    @Test("two threads each taking one shared lock once: two traces (who locks first), two schedules")
    func lockTakenOnce() async throws {
        let reduced = try await Self.explore(Self.lockOnce(ownStep: false), .dpor)
        #expect(reduced.schedules == 2)
        #expect(reduced.tracesCovered == 2)
        // After a private step each: still 2 traces, and none runs all 6 interleavings. dpor may
        // run as many: each race is also tried where its thread's run of steps began (the bound's
        // extra points), which here is each thread's first step.
        let full = try await Self.explore(Self.lockOnce(ownStep: true), .none)
        #expect(full.schedules == 6)
        #expect(full.tracesCovered == 2)
        let afterOwnStep = try await Self.explore(Self.lockOnce(ownStep: true), .dpor)
        #expect(afterOwnStep.schedules <= 6)
        #expect(afterOwnStep.tracesCovered == 2)
    }

    @Test("three threads, one shared step each after a private one: 3! = 6 traces, both ways, at every bound")
    func threeThreads() async throws {
        for preemptions in [0, 1, 2, 6] {
            let reduced = try await Self.explore(Self.ownThenShared, .dpor, preemptions: preemptions)
            let full = try await Self.explore(Self.ownThenShared, .none, preemptions: preemptions)
            #expect(reduced.tracesCovered == 6)
            #expect(full.tracesCovered == 6)
            #expect(reduced.schedules <= full.schedules)
        }
    }

    /// Every program of the explorer's own tests, with every preemption bound up to 2: each reduction
    /// covers exactly the traces none covers (`tracesCovered` counts distinct traces, so equal
    /// counts of a subset are the same set) and finds a failure exactly when none does, as short.
    @Test(
        "each reduction covers every trace none covers, within each preemption bound",
        arguments: [ExplorationOptions.Reduction.dpor, .states],
        [0, 1, 2]
    )
    func coversWhatNoneCovers(reduction: ExplorationOptions.Reduction, preemptions: Int) async throws {
        for (program, threads) in Self.programs {
            let reduced = try await Self.explore(program, reduction, threads: threads, preemptions: preemptions)
            let full = try await Self.explore(program, .none, threads: threads, preemptions: preemptions)
            #expect(reduced.tracesCovered == full.tracesCovered, "\(program.summary), \(threads) threads")
            #expect(reduced.schedules <= full.schedules)
            #expect((reduced.failure == nil) == (full.failure == nil))
            #expect(reduced.failure?.steps.count == full.failure?.steps.count)
        }
    }

    /// The programs `coversWhatNoneCovers` compares, with their thread counts.
    static let programs: [(Exploration, Int)] = [
        (ExplorerTests.lostUpdate, 2), (ExplorerTests.lostUpdate, 3), (ExplorerTests.lockedIncrement, 3),
        (ExplorerTests.lockOrder, 2), (Self.ownThenShared, 3), (Self.lockOnce(ownStep: true), 3),
        (ExplorerTests.independent(steps: 2, threads: 3), 3), (Self.readers(steps: 2, writerFrom: 2), 3),
        (Self.readers(steps: 2, writerFrom: 1), 3), (Self.concurrentSyncs(barrierFrom: 1), 3),
        (Self.sleepUnderBound, 2), (RaceSharedTests.unmarkedIncrement, 2), (RaceSharedTests.unmarkedIncrement, 3),
    ]

    /// State caching runs at least one execution per distinct trace, and one per state it cannot
    /// name before running the step that reaches it; on programs this small it saves less than dpor
    /// (on lesson 6 with 3 threads, far more: see `StateCachingReduction`).
    @Test("states on hand-countable programs: two threads taking one lock once run 2 schedules; traces as counted")
    func statesOnSmallPrograms() async throws {
        let lock = try await Self.explore(Self.lockOnce(ownStep: false), .states)
        #expect(lock.schedules == 2)
        #expect(lock.tracesCovered == 2)
        let afterOwnStep = try await Self.explore(Self.lockOnce(ownStep: true), .states)
        #expect(afterOwnStep.schedules < 6)
        #expect(afterOwnStep.tracesCovered == 2)
        for (threads, traces) in [(2, 2), (3, 4)] {
            let program = Self.readers(steps: 1, writerFrom: threads - 1)
            #expect(try await Self.explore(program, .states, threads: threads).tracesCovered == traces)
        }
        for preemptions in [1, 2, 6] {
            let reduced = try await Self.explore(Self.ownThenShared, .states, preemptions: preemptions)
            let full = try await Self.explore(Self.ownThenShared, .none, preemptions: preemptions)
            #expect(reduced.tracesCovered == 6)
            #expect(reduced.schedules * 2 < full.schedules)
        }
    }

    @Test("auto is states for an exploration that declares complete footprints, none otherwise")
    func automaticReduction() async throws {
        let plain = Self.lockOnce(ownStep: true)
        let declared = plain.declaringCompleteFootprints()
        #expect(try await Explorer.explore(plain, options: .init()).reduction == ExplorationOptions.Reduction.none)
        #expect(try await Explorer.explore(declared, options: .init()).reduction == .states)
        #expect(
            try await Explorer.explore(declared, options: .init(reduction: .none)).reduction
                == ExplorationOptions.Reduction.none
        )
        let pct = try await Explorer.explore(declared, options: .init(strategy: .pct, schedules: 5))
        #expect(pct.reduction == nil)
    }
}
