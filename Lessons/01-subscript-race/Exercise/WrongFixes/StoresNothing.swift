// expect-diagnosis: functional
// Not a fix (CI checks that it FAILS): a store that stores nothing can never lose a key. The
// functional checks catch it: the keys stored one after another are not there.
import Foundation

final class Storage: @unchecked Sendable {
    init() {}
    func store(_ data: Data, forIdentifier id: String) {}
    func data(forIdentifier id: String) -> Data? { nil }
    var numberOfItems: Int { 0 }
}
