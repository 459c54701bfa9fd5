import RaceLab

/// Two locks, for `racelab-fixtures explore deadlock`: the schedule explorer's deadlock report,
/// demonstrated on code that takes real (`RaceLock`) locks.
///
/// For `explore` only: under `run`, `lock-order` can really deadlock, and the watchdog then reports
/// it as timed out, as it does for `faults`' hanging variant.
final class Accounts: @unchecked Sendable {
    let savings = RaceLock("savings")
    let checking = RaceLock("checking")
    /// Guarded by both locks.
    var transfers = 0

    /// Locks `from` then `to`: a transfer each way, at the same time, holds one lock each and waits
    /// for the other's.
    func transfer(from: RaceLock, to: RaceLock) {
        from.withLock {
            // hazard: lock order. This thread holds `from` and is about to wait for `to`; a transfer
            // the other way holds `to` and waits for `from`.
            to.withLock { transfers += 1 }
        }
    }
}

/// A spending limit kept on a serial queue, for the second way to deadlock: a work item that calls
/// `sync` on the queue it is running on waits for itself.
final class Budget: @unchecked Sendable {
    private let queue = RaceQueue(label: "budget")
    private let limit = 10
    /// Touched only on `queue`.
    private var spent = 0

    /// The public, queue-synchronized read.
    var total: Int {
        queue.sync { spent }
    }

    /// Spends `amount` if it fits, checking the limit through the public `total`.
    func spendCheckingTotal(_ amount: Int) {
        queue.sync {
            // hazard: `total` is `queue.sync`, and this item is running on `queue`: a serial queue
            // starts the inner item only after this one ends, which waits for the inner one.
            guard total + amount <= limit else { return }
            spent += amount
        }
    }

    /// The fix: inside an item, read the state directly; only callers off the queue use `total`.
    func spend(_ amount: Int) {
        queue.sync {
            guard spent + amount <= limit else { return }
            spent += amount
        }
    }
}

let deadlock = Lesson(
    number: 3,
    slug: "deadlock",
    title: "two locks in opposite orders; sync onto one's own queue",
    summary: "Transfers each way lock their accounts in opposite orders, and a queue item syncs onto its own queue; "
        + "for 'explore' (under 'run' they hang or crash).",
    workload: Workload(trials: 1, iterations: 2),
    variants: [
        Variant(
            name: "lock-order",
            kind: .buggy,
            summary: "each transfer locks its source account first",
            makeState: { Accounts() },
            operation: { accounts, iteration in
                if iteration.index % 2 == 0 {
                    accounts.transfer(from: accounts.savings, to: accounts.checking)
                } else {
                    accounts.transfer(from: accounts.checking, to: accounts.savings)
                }
            },
            check: { accounts, trial in .kept(accounts.transfers, of: trial.iterations, unit: "transfers") }
        ).exploring(
            transfers("thread 0 transfers savings → checking, thread 1 the other way") { accounts, index in
                index % 2 == 0
                    ? accounts.transfer(from: accounts.savings, to: accounts.checking)
                    : accounts.transfer(from: accounts.checking, to: accounts.savings)
            }
        ),
        Variant(
            name: "one-order",
            kind: .fixed,
            summary: "every transfer locks savings first, then checking",
            makeState: { Accounts() },
            operation: { accounts, _ in accounts.transfer(from: accounts.savings, to: accounts.checking) },
            check: { accounts, trial in .kept(accounts.transfers, of: trial.iterations, unit: "transfers") }
        ).exploring(
            transfers("both threads transfer savings → checking") { accounts, _ in
                accounts.transfer(from: accounts.savings, to: accounts.checking)
            }
        ),
        spending(
            "sync-on-own-queue",
            .buggy,
            summary: "a serial queue's item reads the total with queue.sync",
            through: "spendCheckingTotal"
        ) { $0.spendCheckingTotal(1) },
        spending("read-inside-item", .fixed, summary: "the item reads the state directly", through: "spend") {
            $0.spend(1)
        },
    ]
)

/// A variant in which every iteration spends 1 through `method` (`spend`), and the explorer does
/// the same on each thread; afterwards every spend must be counted.
func spending(
    _ name: String,
    _ kind: VariantKind,
    summary: String,
    through method: String,
    _ spend: @escaping @Sendable (Budget) -> Void
) -> Variant {
    countingVariant(name, kind, summary: summary, makeState: { Budget() }, count: \.total, unit: "spends", spend)
        .exploring(spends("each thread spends 1 through \(method)", spend))
}

/// One spend per thread; afterwards each must be counted.
func spends(_ what: String, _ spend: @escaping @Sendable (Budget) -> Void) -> Exploration {
    Exploration(
        summary: what + "; invariant: total == threads",
        makeState: { Budget() },
        thread: { budget, _ in spend(budget) },
        invariant: { budget, threads in
            budget.total == threads ? nil : "total is \(budget.total) after \(threads) spends"
        }
    )
}

/// Two threads, one transfer each; afterwards both transfers must be done.
func transfers(_ what: String, _ transfer: @escaping @Sendable (Accounts, Int) -> Void) -> Exploration {
    Exploration(
        summary: what + "; invariant: both done",
        makeState: { Accounts() },
        thread: { accounts, index in transfer(accounts, index) },
        invariant: { accounts, threads in
            accounts.transfers == threads ? nil : "\(accounts.transfers) of \(threads) transfers done"
        }
    )
}
