import Foundation
import Testing

@testable import RaceLab

/// The parked threads logical threads run on (`ParkedThreads`), on instances of their own: the
/// shared one serves every exploration running in the test process at the same time.
@Suite("Parked threads")
struct ParkedThreadsTests {
    @Test("a thread whose body ended runs the next body: one after another, bodies start one thread")
    func reuse() {
        let threads = ParkedThreads()
        let ended = DispatchSemaphore(value: 0)
        let ran = LockCounter()
        for _ in 0..<5 {
            threads.run {
                ran.increment()
            } last: {
                ended.signal()
            }
            // `last` runs once the thread counts as free: the next body finds it so.
            ended.wait()
        }
        #expect(ran.count == 5)
        #expect(threads.started == 1)
    }

    @Test("bodies running at once each get a thread of their own", .timeLimit(.minutes(5)))
    func concurrentBodies() {
        // Each body waits until all have started: bodies sharing a thread would never all start,
        // and the test would hang until its time limit.
        let threads = ParkedThreads()
        let count = 4
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        /// Runs `count` bodies that all wait until every one of them has started, and waits for them.
        func runAtOnce() {
            for _ in 0..<count {
                threads.run {
                    started.signal()
                    release.wait()
                } last: {
                    ended.signal()
                }
            }
            for _ in 0..<count { started.wait() }
            for _ in 0..<count { release.signal() }
            for _ in 0..<count { ended.wait() }
        }
        runAtOnce()
        #expect(threads.started == count)
        // All free again: as many bodies at once start no new thread.
        runAtOnce()
        #expect(threads.started == count)
    }
}
