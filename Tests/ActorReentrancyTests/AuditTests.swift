import ActorReentrancy
import Testing

@Suite("The audit: what a data source may look like after a trial")
struct AuditTests {
    @Test("every reported update in its live item, nothing else: consistent")
    func consistent() {
        let snapshot = SourceSnapshot(
            items: [Item(id: 0, updates: [1, 5]), Item(id: 1, updates: [2])],
            liveIDs: [0, 1]
        )
        let found = ReentrancyAudit.findings(snapshot, applied: [1: 0, 5: 0, 2: 1])
        #expect(found.isConsistent)
        #expect(found.expectedUpdates == 3)
        #expect(!ReentrancyAudit.observe(snapshot, applied: [1: 0, 5: 0, 2: 1]).isAnomalous)
    }

    @Test("an update reported applied but missing from its live item is lost")
    func lostUpdate() {
        let snapshot = SourceSnapshot(items: [Item(id: 0, updates: [1])], liveIDs: [0])
        let found = ReentrancyAudit.findings(snapshot, applied: [1: 0, 2: 0])
        #expect(found.lostUpdates == 1)
        #expect(found.resurrectedItems == 0)
        #expect(ReentrancyAudit.observe(snapshot, applied: [1: 0, 2: 0]).outcome == "lost writes")
    }

    @Test("updates to items that a later clear removed are not expected")
    func clearedUpdatesAreGone() {
        let snapshot = SourceSnapshot(items: [Item(id: 2)], liveIDs: [2])
        #expect(ReentrancyAudit.findings(snapshot, applied: [1: 0, 2: 1]).isConsistent)
    }

    @Test("an item that is not live has come back, and the live one it replaced is lost")
    func resurrected() {
        let snapshot = SourceSnapshot(items: [Item(id: 0, updates: [1])], liveIDs: [2])
        let found = ReentrancyAudit.findings(snapshot, applied: [1: 0])
        #expect(found.resurrectedItems == 1)
        #expect(found.vanishedItems == 1)
        let observation = ReentrancyAudit.observe(snapshot, applied: [1: 0])
        #expect(observation.inconsistencies == 1 && observation.lostWrites == 1)
        #expect(observation.outcome == "lost writes + inconsistencies")
    }

    @Test("after a clear, any item at all is a resurrected one")
    func anythingAfterClear() {
        let snapshot = SourceSnapshot(items: [Item(id: 0)], liveIDs: [])
        #expect(ReentrancyAudit.findings(snapshot, applied: [:]).resurrectedItems == 1)
    }

    @Test("an update nobody applied to that item, or an id listed twice, is a stray")
    func strays() {
        let stray = SourceSnapshot(items: [Item(id: 0, updates: [9])], liveIDs: [0])
        #expect(ReentrancyAudit.findings(stray, applied: [:]).strays == 1)
        let twice = SourceSnapshot(items: [Item(id: 0), Item(id: 0)], liveIDs: [0])
        #expect(ReentrancyAudit.findings(twice, applied: [:]).strays == 1)
    }

    @Test("the trial plan refreshes the list once in sixteen, in the middle of each run")
    func plan() {
        #expect(TrialPlan.step(for: 0) == .update(slot: 0, update: 0))
        #expect(TrialPlan.step(for: 5) == .update(slot: 1, update: 5))
        #expect(TrialPlan.step(for: 7) == .refresh(generation: 8))
        let refreshes = (0..<64).filter { if case .refresh = TrialPlan.step(for: $0) { true } else { false } }
        #expect(refreshes == [7, 23, 39, 55])
    }

    @Test("outcomes rank as kinds of damage: consistent, lost writes, inconsistencies, both")
    func outcomesRankAsKinds() {
        let snapshots = [
            SourceSnapshot(items: [Item(id: 0, updates: [1])], liveIDs: [0]),
            SourceSnapshot(items: [Item(id: 0, updates: [1])], liveIDs: [0]),
            SourceSnapshot(items: [Item(id: 0, updates: [1]), Item(id: 9)], liveIDs: [0]),
            SourceSnapshot(items: [Item(id: 0), Item(id: 9)], liveIDs: [0]),
        ]
        let applied = [[1: 0], [1: 0, 2: 0], [1: 0], [1: 0]]
        let observations = zip(snapshots, applied).map { ReentrancyAudit.observe($0, applied: $1) }
        let kinds = ["consistent", "lost writes", "inconsistencies", "lost writes + inconsistencies"]
        #expect(observations.map(\.outcome) == kinds)
        #expect(observations.map(\.rank) == [0, 1, 2, 3])
    }
}
