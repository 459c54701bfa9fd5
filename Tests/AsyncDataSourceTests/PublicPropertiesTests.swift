import AsyncDataSource
import Dispatch
import RaceLab
import RaceLabTesting
import Testing

@Suite("Public properties read one by one show states that never existed")
struct PublicPropertiesTests {
    @Test("a change between reading the header and the items makes the UI show a mixed state")
    func changeBetweenHeaderAndItems() {
        let found = renderPublishingAt("read items", cell: 0)
        // Header v0 with 2 items, then the items and footer of v1 (3 items): nobody published that.
        #expect(kinds(found) == [.mixedState])
    }

    @Test("a change between the title and the detailed title tears the cell")
    func changeBetweenTheTwoLabels() {
        let found = renderPublishingAt("read detailedTitle", cell: 1)
        #expect(kinds(found) == [.tornCell])
    }

    @Test("with no change in between, the same reads agree")
    func quietReader() {
        let dataSource = PublicPropertiesDataSource()
        dataSource.publishNextVersion()
        dataSource.waitUntilIdle()
        #expect(dataSource.render(cell: 0).isEmpty)
        #expect(dataSource.header.version == 1)
    }

    @Test("each property on its own is whole: a reader blocked on a property's lock gets a complete value")
    func eachPropertyIsWhole() {
        let dataSource = PublicPropertiesDataSource()
        for _ in 0..<10 { dataSource.publishNextVersion() }
        dataSource.waitUntilIdle()
        let items = dataSource.items
        #expect(items.count == dataSource.header.itemCount)
        #expect(Set(items.map(\.version)) == [10])
    }

    /// The UI's render of `cell`, while a writer publishes the next version and waits for it at
    /// `window`; expects the writer to have run there.
    func renderPublishingAt(_ window: String, cell: Int) -> [Inconsistency] {
        let dataSource = PublicPropertiesDataSource()
        let writer = AtWindow(window) {
            dataSource.publishNextVersion()
            dataSource.waitUntilIdle()
        }
        let found = Race.$hook.withValue(writer) { dataSource.render(cell: cell) }
        #expect(writer.fired)
        return found
    }
}
