// expect-diagnosis: semaphore-count
// A wrong fix for exercise 2 (CI checks that it FAILS, and that the checker does not call the
// semaphore a lock): one stored semaphore made with 0, which `run` signals before it waits on it,
// so each call lets itself in and no call waits for another.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false
    private let semaphore = DispatchSemaphore(value: 0)

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        semaphore.signal()
        semaphore.wait()
        guard !didExecute else { return }
        Race.window("saw false → execute()")
        execute()
        didExecute = true
    }
}
