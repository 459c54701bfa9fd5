// A cheat (CI checks that it FAILS): print what a pass looks like, then end with status 0. The
// verdict is not read from the output: only the harness can write it, with a token for this run
// that the participant's code never sees.
import Foundation

final class Storage: @unchecked Sendable {
    init() {
        print("  ok    concurrent stores of 1,000 distinct keys keep all 1,000 (every trial)")
        print("PASS: 1 · Storage keeps every key under concurrent stores")
        exit(0)
    }
    func store(_ data: Data, forIdentifier id: String) {}
    func data(forIdentifier id: String) -> Data? { nil }
    var numberOfItems: Int { 0 }
}
