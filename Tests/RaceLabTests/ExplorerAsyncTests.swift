import Foundation
import Testing

@testable import RaceLab

/// An account written as anyone would: a plain actor, a plain `Task`, `Task.sleep` standing for a
/// network call. No RaceLab type and no mark.
actor PlainAccount {
    private(set) var balance = 0

    /// hazard: actor reentrancy. Reads the balance, awaits, writes back what it read plus the amount.
    func deposit(_ amount: Int) async {
        let read = balance
        try? await Task.sleep(for: .seconds(1))
        balance = read + amount
    }

    /// The fixed twin: awaits first, then reads and writes in one job.
    func depositAfterConfirming(_ amount: Int) async {
        try? await Task.sleep(for: .seconds(1))
        balance += amount
    }
}

/// Whether `Task.sleep` in a task on the explorer's executor reaches it (`SchedulingExecutor`, in
/// `ExplorerExecutor+Scheduling.swift`); elsewhere each sleep takes its real second.
private var sleepsAreExplorerChoices: Bool {
    #if compiler(>=6.3)
    if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) { return true }
    #endif
    return false
}

@Suite(
    "The explorer with marks off: async code with no marks and no RaceLab types",
    .enabled(
        if: sleepsAreExplorerChoices,
        "a sleep is the explorer's choice only where its executor can take delayed jobs (Swift 6.3; macOS 26.4)"
    )
)
struct ExplorerAsyncTests {
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120, marks: false)

    /// Each thread deposits 10.
    static func deposits(fixed: Bool) -> Exploration {
        Exploration(
            summary: "each thread deposits 10 in a Task; invariant: the balance is 10 per thread",
            makeState: { PlainAccount() },
            asyncThread: { account, _ in
                if fixed { await account.depositAfterConfirming(10) } else { await account.deposit(10) }
            },
            invariant: { account, threads in
                let balance = await account.balance
                return balance == 10 * threads ? nil : "balance \(balance), expected \(10 * threads)"
            }
        )
    }

    @Test("a read-await-write-back actor method loses a deposit in some schedule, which replays 100 of 100 times")
    func plainActorBugIsFound() async throws {
        // The first failing schedule and 50 more: the search goes on past failures. The fixed
        // twin's search runs the same tree of schedules to its end.
        var options = Self.options
        options.schedulesAfterFailure = 50
        let failure = try await Explorer.expectFailureThatReplays(
            Self.deposits(fixed: false),
            options: options,
            outcome: .invariantBroken("balance 10, expected 20")
        )
        // The sleeps are threads of the explorer's own: a wake-up is a choice, not a wait.
        #expect(failure.spawned.contains { $0.name == "sleep" })
    }

    @Test("its fixed twin, which awaits before it reads, has no failing schedule")
    func fixedTwinIsClean() async throws {
        try await Explorer.expectExhaustiveClean(Self.deposits(fixed: true), options: Self.options)
    }

    @Test("with the default options the bug is found too; with jobs off the code has no point but its start")
    func defaultOptionsFindIt() async throws {
        var options = ExplorationOptions(preemptions: 2, stallTimeout: 120)
        options.schedulesAfterFailure = 0
        let found = try await Explorer.explore(Self.deposits(fixed: false), options: options)
        #expect(found.failure?.outcome == .invariantBroken("balance 10, expected 20"))
        options.schedulesJobs = false
        let report = try await Explorer.explore(Self.deposits(fixed: false), options: options)
        // Each thread is one step from its start, in either order.
        #expect(report.schedules == 2)
        #expect(report.failingSchedules == 0)
        #expect(report.notInterleaved?.contains("schedulesJobs is false") == true)
    }

    /// A plain `Task` that a second thread awaits: thread 0 stores it, thread 1 awaits its value.
    static let sharedTask = sharedTask { box in
        await box.received == 42 ? nil : "thread 1 received \(await box.received)"
    }

    /// Thread 0 starts a plain `Task` and publishes it; thread 1 awaits it; then `invariant`.
    static func sharedTask(invariant: @escaping @Sendable (TaskBox) async -> String?) -> Exploration {
        Exploration(
            summary: "thread 0 starts a Task and publishes it; thread 1 awaits it",
            makeState: { TaskBox() },
            asyncThread: { box, index in
                if index == 0 {
                    await box.publish(Task { 42 })
                } else {
                    _ = await box.awaitPublished()
                }
            },
            invariant: { box, _ in await invariant(box) }
        )
    }

    @Test("a plain Task that another thread awaits is scheduled by the explorer, not reported stuck")
    func awaitedPlainTask() async throws {
        let report = try await Explorer.explore(Self.sharedTask, options: Self.options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.failingSchedules == 0)
        // The first schedule, shown through an invariant that always fails.
        let shown = try await Explorer.explore(
            Self.sharedTask { _ in "shown" },
            options: ExplorationOptions(preemptions: 0, schedules: 1, stallTimeout: 120, marks: false)
        )
        let result = try #require(shown.failure)
        #expect(result.spawned.contains { $0.name == "Task" })
    }
}

/// Holds a task until someone awaits it; a waiter that comes first waits for it to be published.
actor TaskBox {
    private var task: Task<Int, Never>?
    private var waiters: [CheckedContinuation<Task<Int, Never>, Never>] = []
    private(set) var received = 0

    func publish(_ task: Task<Int, Never>) {
        self.task = task
        for waiter in waiters { waiter.resume(returning: task) }
        waiters = []
    }

    func awaitPublished() async -> Int {
        let published = await withCheckedContinuation { continuation in
            if let task { continuation.resume(returning: task) } else { waiters.append(continuation) }
        }
        received = await published.value
        return received
    }
}
