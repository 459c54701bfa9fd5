import Foundation

/// Two real threads passing a baton back and forth, each waiting for it on a semaphore of its own
/// (the explorer's turns are such semaphores), with nothing else between two passes. What a pass
/// costs here (a futex wake-up, the other thread scheduled in, a futex wait) is the least a step
/// that moves the baton to another real thread can cost on this machine: the floor to set the
/// explorer's own cost per hand-off against. It depends on the load: a parked thread woken on an
/// idle core waits for that core to wake up, one woken on a busy core for the waker to park.
package enum HandOffFloor {
    /// Passes the baton `handOffs` times between two threads; returns the seconds each pass took
    /// (the wall time from the first pass to the last, divided by the passes between them).
    package static func secondsPerHandOff(handOffs: Int) -> Double {
        let passes = max(handOffs, 2)
        let turns = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let done = DispatchSemaphore(value: 0)
        // Thread 1 answers every pass of thread 0's: passes / 2 rounds, each two passes.
        let rounds = passes / 2
        let other = Thread {
            for _ in 0..<rounds {
                turns[1].wait()
                turns[0].signal()
            }
            done.signal()
        }
        other.stackSize = 1 << 20
        other.start()
        // The first round also waits for thread 1 to start: it is not counted.
        turns[1].signal()
        turns[0].wait()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 1..<rounds {
            turns[1].signal()
            turns[0].wait()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        done.wait()
        return seconds / Double(2 * (rounds - 1))
    }
}
