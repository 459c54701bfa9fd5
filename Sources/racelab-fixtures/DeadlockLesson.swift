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

let deadlock = Lesson(
    number: 3, slug: "deadlock", title: "two locks in opposite orders",
    summary: "Transfers each way lock their accounts in opposite orders; for 'explore' (under 'run' it hangs).",
    workload: Workload(trials: 1, iterations: 2),
    variants: [
        Variant(
            name: "lock-order", kind: .buggy, summary: "each transfer locks its source account first",
            makeState: { Accounts() },
            operation: { accounts, iteration in
                if iteration.index % 2 == 0 {
                    accounts.transfer(from: accounts.savings, to: accounts.checking)
                } else {
                    accounts.transfer(from: accounts.checking, to: accounts.savings)
                }
            },
            check: { accounts, trial in .kept(accounts.transfers, of: trial.iterations, unit: "transfers") }
        ).exploring(transfers("thread 0 transfers savings → checking, thread 1 the other way") { accounts, index in
            index % 2 == 0
                ? accounts.transfer(from: accounts.savings, to: accounts.checking)
                : accounts.transfer(from: accounts.checking, to: accounts.savings)
        }),
        Variant(
            name: "one-order", kind: .fixed, summary: "every transfer locks savings first, then checking",
            makeState: { Accounts() },
            operation: { accounts, _ in accounts.transfer(from: accounts.savings, to: accounts.checking) },
            check: { accounts, trial in .kept(accounts.transfers, of: trial.iterations, unit: "transfers") }
        ).exploring(transfers("both threads transfer savings → checking") { accounts, _ in
            accounts.transfer(from: accounts.savings, to: accounts.checking)
        }),
    ]
)

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
