import RaceLab

/// What `racelab explore 4` runs: two (or `--threads`) logical threads, each incrementing the trial's
/// counter file once through a new `ObjectStorage` and the variant's coordinator, as `racelab run`
/// does a thousand times.
///
/// The scheduling points are the call of `mutatingObject` (marked here, so that taking the claim is
/// a step of the schedule and not set-up), the owner-scoped coordinator's `claim for writing` (so
/// that a schedule shows both claims granted under one owner), and the storage's own windows:
/// `read object`, where it reads the file under its claim, and `save object`, between the read and
/// the atomic rename. Everything between two points is plain synchronous file I/O on the running
/// thread, and only one logical thread runs at a time, so the order of the points alone decides
/// which value each thread read and which rename lands last: a failing schedule replays.
///
/// The buggy coordinators explore faithfully because none of them ever makes a thread wait: an
/// owner-scoped claim admits its own owner at once, and a process-owned `fcntl` lock is granted to
/// every thread of the process. The fixed `FileCoordinator`'s file queues are `RaceQueue`s, so its
/// barrier `sync` is a scheduling point too, which the explorer holds back while another thread's
/// barrier item is paused at `save object`. (Its map's own queue is not: see `QueueMap.access`.)
///
/// Between steps (`racelab play 4`, `explore --html`, a failing schedule) it shows the counter
/// file's value, read directly rather than through a claim (a paused thread may hold the lock), and
/// each increment between its read and its save, which is the time it holds its writing claim: who
/// holds the claim, who was granted it too and why the lock let them in, what each read, and so what
/// it will write back. Under `uncoordinated` there is no claim: it shows who went in too.
/// `cross-process` is not explored: its increments run in worker processes (`notExplored`).
extension CoordinatorLockingLesson {
    /// Each thread increments the counter once; afterwards it must equal the thread count.
    ///
    /// - Parameter overlap: what two claims have in common for this lock, shown beside a thread
    ///   granted the claim while another holds it (`same owner`).
    ///   - claims: whether the coordinator takes a claim at all; without one (`uncoordinated`) the
    ///     state says who went in, not who holds or was granted a claim.
    ///   - held: the word for what a thread holds: `claim` (a coordinator's), or `lock`
    ///     (`fcntl-process-lock`'s record lock).
    static func incrementOnceEach(
        _ coordinator: @escaping @Sendable (ClaimOwner) -> any FileAccessCoordinator,
        overlap: String,
        oneInstance: Bool = false,
        claims: Bool = true,
        held: String = "claim"
    ) -> Exploration {
        Exploration(
            summary: "each thread increments the counter file once through "
                + (oneInstance ? "the trial's one ObjectStorage" : "a new ObjectStorage")
                + "; invariant: counter == threads",
            makeState: {
                let owner = ClaimOwner()
                return try CounterFile(
                    coordinator: { coordinator(owner) },
                    oneInstance: oneInstance,
                    showingCopies: true
                )
            },
            thread: { counter, index in
                Race.step("call mutatingObject")
                try counter.increment(thread: index)
            },
            invariant: { counter, threads in
                guard let value = try? counter.finalValue() else { return "the counter file cannot be read" }
                return value == threads ? nil : "counter is \(value) after \(threads) increments"
            },
            tearDown: { counter in counter.remove() },
            describeState: { counter in
                // A copy is in flight from the read to the save, both under the thread's claim if it takes one.
                let copies = (counter.copies?.inFlight ?? []).enumerated().map { index, copy in
                    let read = "read \(copy.read) → will write \(copy.read + 1)"
                    switch (index == 0, claims) {
                    case (true, true): return "thread \(copy.thread) holds the \(held), \(read)"
                    case (false, true): return "thread \(copy.thread) granted it too (\(overlap)), \(read)"
                    case (true, false): return "thread \(copy.thread) \(read)"
                    case (false, false): return "thread \(copy.thread) went in too (\(overlap)), \(read)"
                    }
                }
                return ([counter.describeFile()] + copies).joined(separator: " · ")
            }
        ).markingEveryWindow()
    }
}
