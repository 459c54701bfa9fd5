// expect-diagnosis: semaphore-count
// A wrong fix for exercise 2 (CI checks that it FAILS, and that the checker reads the semaphore's
// value from the code): one stored semaphore held across the check, the work and the set, as a
// lock would be, but made with the value 2, so two callers are inside at once.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false
    private let semaphore = DispatchSemaphore(value: 2)

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        semaphore.wait()
        defer { semaphore.signal() }
        guard !didExecute else { return }
        Race.window("saw false → execute()")
        execute()
        didExecute = true
    }
}
