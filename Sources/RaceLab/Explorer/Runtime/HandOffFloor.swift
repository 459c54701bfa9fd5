import Foundation

/// Two real threads passing a baton back and forth with pthread's primitives (one `ParkingLock`, a
/// `ParkingCondition` for each thread, the passer waking the other after it unlocks) and nothing
/// else between two passes. What a pass costs here (a futex wake-up, the other thread scheduled
/// in, a futex wait) is the least a step that moves the baton to another real thread can cost on
/// this machine: the floor to set the explorer's own cost per hand-off against.
package enum HandOffFloor {
    /// Passes the baton `handOffs` times between two threads; returns the seconds each pass took
    /// (the wall time from the first pass to the last, divided by the passes between them).
    package static func secondsPerHandOff(handOffs: Int) -> Double {
        let table = Table(passes: max(handOffs, 2))
        let done = DispatchSemaphore(value: 0)
        let other = Thread {
            table.play(1)
            done.signal()
        }
        other.stackSize = 1 << 20
        other.start()
        table.play(0)
        done.wait()
        return table.seconds / Double(table.passes - 1)
    }

    private final class Table: @unchecked Sendable {
        let lock = ParkingLock()
        let turns = [ParkingCondition(), ParkingCondition()]
        let passes: Int
        /// Guarded by `lock`: who holds the baton, passes made, and when the first was made.
        var holder = 1
        var made = 0
        var started: UInt64 = 0
        var seconds = 0.0

        init(passes: Int) {
            self.passes = passes
        }

        /// Thread `me`'s side: wait for the baton, pass it on, until every pass is made.
        func play(_ me: Int) {
            lock.lock()
            while made < passes {
                while holder != me && made < passes { turns[me].wait(on: lock) }
                if made == passes { break }
                holder = 1 - me
                made += 1
                let now = DispatchTime.now().uptimeNanoseconds
                if made == 1 { started = now }
                if made == passes { seconds = Double(now - started) / 1e9 }
                lock.unlock()
                turns[1 - me].signal()
                lock.lock()
            }
            lock.unlock()
            // The other thread may wait for a baton that no longer moves: wake it to see the end.
            turns[1 - me].signal()
        }
    }
}
