/// A lock the schedule explorer can see (`RaceLock`, `RaceRecursiveLock`): `NSLocking`'s shape,
/// with the name it shows in schedules.
///
/// Each lock decides what taking it means on a logical thread of the explorer; what they share,
/// the initialiser that stands in for `NSLock()` and `withLock`, is defined once here.
public protocol RaceLocking: AnyObject, Sendable {
    /// Shown in schedules: `lock <name>`.
    var name: String { get }
    /// A lock shown in schedules as `lock <name>`.
    init(_ name: String)
    /// Takes the lock, waiting while another thread holds it.
    func lock()
    /// Releases the lock, which the calling thread must hold.
    func unlock()
}

extension RaceLocking {
    /// A lock named after the line that makes it (`Cache.swift:12`): `NSLock()`'s initialiser, for
    /// code that takes RaceLab's locks under its own names (see `Examples/RaceLabSwitch`).
    public init(fileID: String = #fileID, line: Int = #line) {
        self.init(primitiveName(fileID: fileID, line: line))
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        self.lock()
        defer { unlock() }
        return try body()
    }
}
