import Foundation
import RaceLab

/// One trial's count of the values a check examined and the torn ones among them, as a `Tally`
/// (`12 of 14,400 reads torn (…)`). A harness that records each torn value as an inconsistency
/// too passes `phrase` to `ExerciseCheck.stress(_:workload:requirement:lost:eachOperation:inconsistent:)`,
/// which then prints the tally's line in place of a bare inconsistency count.
public final class TornCount: @unchecked Sendable {
    private let lock = NSLock()
    private let phrase: String
    private var examined = 0
    private var torn = 0

    /// - Parameter phrase: what the count counts, as its line reads after `N of M`.
    public init(_ phrase: String) {
        self.phrase = phrase
    }

    /// Counts one examined value, torn or not, and returns `torn`.
    @discardableResult
    public func count(torn: Bool) -> Bool {
        lock.withLock {
            examined += 1
            if torn { self.torn += 1 }
        }
        return torn
    }

    /// The torn values out of all examined so far.
    public var tally: Tally { lock.withLock { Tally(torn, of: examined, phrase) } }
}
