// A common wrong fix for exercise 2 (CI checks that it FAILS): set the flag before executing. The
// window shrinks from "the whole of execute()" to "between the read and the write of the flag",
// but it is still there: two threads can both read `false` before either writes `true`.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        guard !didExecute else { return }
        Race.window("read didExecute")
        didExecute = true
        execute()
    }
}
