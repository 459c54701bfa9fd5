// Not a fix (CI checks that it FAILS): work that never runs never runs twice. The functional
// checks catch it: the first call must run the work.
final class Once: @unchecked Sendable {
    init() {}
    func run(_ execute: () -> Void) {}
}
