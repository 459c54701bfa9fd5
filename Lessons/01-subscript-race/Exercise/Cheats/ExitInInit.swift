// A cheat (CI checks that it FAILS): end the program with status 0 before the check has checked
// anything. The checker takes its verdict from the harness, not from the exit status, so a program
// that ends before the harness wrote one fails: "the program exited before the check finished".
import Foundation

final class Storage: @unchecked Sendable {
    init() { exit(0) }
    func store(_ data: Data, forIdentifier id: String) {}
    func data(forIdentifier id: String) -> Data? { nil }
    var numberOfItems: Int { 0 }
}
