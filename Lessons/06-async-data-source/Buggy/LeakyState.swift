import RaceLab

/// A footer counter held by reference, so that states can "share" it instead of copying it.
///
/// Its `version` is a plain `Int` that a writer changes in place. An aligned `Int` cannot tear on
/// x86-64, so the race shows as wrong values, never as a crash; with an `NSMutableString` or an
/// `Array` here, the same code could read freed memory. ThreadSanitizer reports the race either way.
public final class SharedFooter: @unchecked Sendable {
    public var version: Int

    public init(version: Int) {
        self.version = version
    }
}

/// A state that *looks* immutable: a struct of `let`s. But `footer` is a reference to a mutable
/// object, so every copy of this struct shares one footer, and a change to it changes every state
/// that holds it, including snapshots that readers already hold.
///
/// Swift 6 does not accept `Sendable` for a struct holding a non-`Sendable` class; the compiler is
/// quieted here by `@unchecked Sendable` on `SharedFooter`, which is exactly the false claim.
public struct LeakyState: Sendable {
    public let version: Int
    public let header: Header
    public let footer: SharedFooter

    public static func initial() -> LeakyState {
        LeakyState(version: 0, header: CollectionState.initial.header, footer: SharedFooter(version: 0))
    }

    /// The next state, made the "cheap" way: the footer object is reused and bumped in place.
    @inline(never)
    public func next() -> LeakyState {
        let version = self.version + 1
        // hazard: `footer` is shared with every state handed out so far; readers holding one of them
        // see this write, so their snapshot changes under them.
        footer.version = version
        return LeakyState(version: version, header: CollectionState(version: version).header, footer: footer)
    }

    /// What the UI does with the snapshot it holds: it shows the header, then the footer. The footer's
    /// version is read through the reference, now, not as it was when the state was made.
    @inline(never)
    public func render() -> Inconsistency? {
        let headerVersion = header.version
        // hazard: this snapshot is the reader's own, but its footer is shared with the writer's queue.
        Race.window("read footer")
        let footerVersion = footer.version
        if footerVersion == version && headerVersion == version { return nil }
        return Inconsistency(
            .mixedState,
            "snapshot v\(version) shows footer v\(footerVersion), changed after it was handed out"
        )
    }
}
