import RaceLab

/// Two ways to add one to a protected counter: one that loses increments and one that does not.
extension Protected where Resource == Int {
    /// Reads the count, then writes the count plus one: the check-then-act of lesson 2 in another
    /// shape. Every call is made of two safe work items, and the pair is not safe.
    @inline(never)
    public func incrementByReadingThenWriting() {
        let value = read()
        CounterReads.current?.record(value)
        // hazard: the read item has finished and the write is not enqueued yet; another thread can
        // read the same value now, and both write `value + 1`: one increment is lost.
        Race.window("write value + 1")
        write(value + 1)
    }

    /// Adds one inside a single barrier item: the value read and the value written belong together.
    @inline(never)
    public func incrementByMutating() {
        mutate { $0 + 1 }
    }
}
