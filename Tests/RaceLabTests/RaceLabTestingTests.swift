import Foundation
import RaceLab
import RaceLabTesting
import Testing

@Suite("RaceLabTesting forces the interleavings it promises")
struct RaceLabTestingTests {
    /// A read, a marked window, a write: the smallest lost update.
    final class Cell: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func read() -> Int { lock.withLock { value } }
        func write(_ newValue: Int) { lock.withLock { value = newValue } }
        func increment() {
            let seen = read()
            Race.window("between read and write")
            write(seen + 1)
        }
    }

    @Test("AtWindow runs its action once, inside the window, on the thread that reached it")
    func atWindowRunsOnce() async {
        let cell = Cell()
        let hook = AtWindow("between read and write") { cell.increment() }
        await onThreads(1, hook: hook) { _ in cell.increment() }
        #expect(hook.fired)
        // The nested increment ran inside the outer one's window and was overwritten.
        #expect(cell.read() == 1)
    }

    @Test("AtWindow ignores windows with other names")
    func atWindowMatchesNames() async {
        let hook = AtWindow("elsewhere") {}
        await onThreads(1, hook: hook) { _ in Cell().increment() }
        #expect(!hook.fired)
    }

    @Test("Rendezvous holds every party at the window until all have read", arguments: [2, 3, 5])
    func rendezvousLosesAllButOne(parties: Int) async {
        let cell = Cell()
        let meeting = Rendezvous(at: "between read and write", parties: parties)
        await onThreads(parties, hook: meeting) { _ in cell.increment() }
        #expect(meeting.isComplete)
        #expect(cell.read() == 1)
    }

    @Test("onThread returns the body's result from a thread outside the pool")
    func onThreadReturns() async {
        #expect(await onOwnThread { 6 * 7 } == 42)
    }
}
