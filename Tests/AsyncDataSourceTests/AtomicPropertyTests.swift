import Dispatch
import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import AsyncDataSource

@Suite("An atomic property: every read is whole, two reads are two states")
struct AtomicPropertyTests {
    @Test("an update between cellForItemAt's two reads of state tears the cell; the snapshot part stays whole")
    func tornPair() {
        let dataSource = AtomicPropertyDataSource(initialState: CollectionState.initial)
        let writer = AtWindow("read detailedTitle") {
            dataSource.update { $0.next() }
            dataSource.waitUntilIdle()
        }
        let found = Race.$hook.withValue(writer) { dataSource.render(cell: 0) }
        #expect(writer.fired)
        // Only the two-read part fails: header, items and footer came from one read.
        #expect(kinds(found) == [.tornCell])
    }

    @Test("with no update in between, the article's reader is fine, which is why the bug survives review")
    func quietReader() {
        let dataSource = AtomicPropertyDataSource(initialState: CollectionState.initial)
        #expect(dataSource.render(cell: 0).isEmpty)
    }

    @Test("the meter counts a read that found the lock taken")
    func readerWaitsAreCounted() {
        let dataSource = AtomicPropertyDataSource(initialState: CollectionState.initial)
        _ = dataSource.state
        #expect(dataSource.readerWaits.readCount == 1)
        #expect(dataSource.readerWaits.waitCount == 0)
        #expect(dataSource.readerWaits.bucket == "0 reads waited")
    }

    @Test(
        "a trial's waits count the readers' reads only, not the writers' or the check's read of the final version",
        arguments: ["atomic-property", "sync-operations", "public-properties"]
    )
    func finalReadIsNotAReaderRead(variant: String) async {
        // The reads of a trial with `renders` renders (and as many writes), as its end counts them.
        func reads(renders: Int) async -> Int {
            let trial: any DataSourceTrial =
                switch variant {
                case "atomic-property": AtomicPropertyVariant.Trial()
                case "sync-operations": SyncOperationsVariant.Trial()
                default: PublicPropertiesVariant.Trial()
                }
            for _ in 0..<renders {
                trial.write(waiting: true)
                _ = trial.render(cell: 0)
            }
            return await trial.settle().waits?.total ?? 0
        }
        let one = await reads(renders: 1)
        let three = await reads(renders: 3)
        // A final read counted with them would make these r + 1 and 3r + 1.
        #expect(one > 0 && three == 3 * one, "\(one) reads after 1 render, \(three) after 3")
    }

    @Test("the wait buckets read from no wait to the most in the histogram's outcome order")
    func waitBucketsInOutcomeOrder() {
        // Reads that waited, out of 1,000: none, 5, 50, 200, 300, 500 (50% is in the bucket above it).
        let buckets = [0, 5, 50, 200, 300, 500].map { waited in
            let meter = WaitMeter()
            for read in 0..<1_000 { meter.record(waited: read < waited) }
            return meter.bucket
        }
        #expect(
            buckets == [
                "0 reads waited", "1 or more reads waited, under 1%", "1–10% of reads waited",
                "10–25% of reads waited", "25–50% of reads waited", "50–100% of reads waited",
            ]
        )
        // The histogram puts rows equally far from the correct result in this order.
        let sorted = buckets.reversed().sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(sorted == buckets)
    }

    @Test("the meter's tally states the measured count: reads that waited, of all reads")
    func waitTallyCountsReads() {
        let meter = WaitMeter()
        for read in 0..<1_000 { meter.record(waited: read < 5) }
        #expect(meter.tally.text == "5 of 1,000 reads waited (their lock or queue was busy)")
        // A trial's observation carries it, so the run sums it under the verdict.
        let end = TrialEnd(finalVersion: 2, problems: [], readers: meter)
        let observation = TrialOutcome.observation(
            updates: 2,
            finalVersion: end.finalVersion,
            problems: end.problems,
            readers: end.readers,
            waits: end.waits
        )
        #expect(observation.outcome == "in order · 1 or more reads waited, under 1%")
        #expect(observation.tallies == [meter.tally])
    }

    @Test("observers: notify-on-add tells the current state once, then every state in order")
    func observers() {
        let dataSource = AtomicPropertyDataSource(initialState: CollectionState.initial)
        expectObserversHearEveryState(of: dataSource, updates: 1_000)
    }
}
