import AsyncDataSource
import Testing

@Suite("The reader's checks tell a state that existed from one that did not")
struct AuditTests {
    @Test("every published state is consistent, and so is every cell of it", arguments: 0..<8)
    func publishedStatesAreConsistent(version: Int) {
        let state = CollectionState(version: version)
        #expect(CollectionReader.audit(snapshot: state, cell: 0).isEmpty)
        #expect(CollectionReader.audit(snapshot: state, cell: 1).isEmpty)
    }

    @Test("two consecutive versions never agree on header, item count or footer", arguments: 0..<8)
    func consecutiveVersionsDisagree(version: Int) {
        let old = CollectionState(version: version)
        let new = old.next()
        #expect(new.version == old.version + 1)
        #expect(new.items.count != old.items.count)
        #expect(Audit.mixedState(header: old.header, items: new.items, footer: new.footer)?.kind == .mixedState)
        #expect(Audit.mixedState(header: new.header, items: new.items, footer: old.footer)?.kind == .mixedState)
        #expect(Audit.tornCell(title: old.items[0].title, detailedTitle: new.items[0].detailedTitle)?.kind == .tornCell)
    }

    @Test("a mixed state is told in the story's words: the header's count against the list's")
    func mixedStateInTheStorysWords() {
        let v3 = CollectionState(version: 3)
        let v4 = v3.next()
        #expect(
            Audit.mixedState(header: v3.header, items: v4.items, footer: v3.footer)?.description
                == "mixed state: header says 5 items, the list shows 2 (header v3, items v4, footer v3)"
        )
        #expect(
            Audit.mixedState(header: v3.header, items: v3.items, footer: v4.footer)?.description
                == "mixed state: header, list and footer from different versions (header v3, items v3, footer v4)"
        )
    }

    @Test("a later read may be newer, never older")
    func olderAfterNewer() {
        #expect(Audit.olderAfterNewer(earlier: 3, later: 3) == nil)
        #expect(Audit.olderAfterNewer(earlier: 3, later: 4) == nil)
        #expect(Audit.olderAfterNewer(earlier: 4, later: 3)?.kind == .olderAfterNewer)
    }
}

@Suite("The order-checking observer catches every way of telling states wrong")
struct OrderCheckingObserverTests {
    private func observer(told versions: [Int], expectsCurrentState: Bool = true) -> OrderCheckingObserver {
        let observer = OrderCheckingObserver(expectsCurrentState: expectsCurrentState)
        for version in versions { observer.dataSourceChanged(CollectionState(version: version)) }
        return observer
    }

    @Test("states told once each, in order, up to the last: nothing to report")
    func inOrder() {
        #expect(observer(told: [3, 4, 5]).problems(finalVersion: 5).isEmpty)
    }

    @Test("an older state after a newer one is reported")
    func older() {
        #expect(observer(told: [3, 5, 4]).problems(finalVersion: 5).count >= 1)
    }

    @Test("the same state twice is reported (notify-on-add must tell the current state exactly once)")
    func twice() {
        #expect(kinds(observer(told: [3, 3, 4]).problems(finalVersion: 4)) == [.observerOrder])
    }

    @Test("a skipped state is reported")
    func skipped() {
        #expect(kinds(observer(told: [3, 5]).problems(finalVersion: 5)) == [.observerOrder])
    }

    @Test("an observer that never heard the last state is reported")
    func notTheLast() {
        #expect(kinds(observer(told: [3, 4]).problems(finalVersion: 5)) == [.observerOrder])
    }

    @Test("notify-on-add with no notification at all is reported; a plain observer may hear nothing")
    func neverTold() {
        #expect(kinds(observer(told: []).problems(finalVersion: 5)) == [.observerOrder])
        #expect(observer(told: [], expectsCurrentState: false).problems(finalVersion: 5).isEmpty)
    }
}
