/// One value behind its own lock: each get and each set is whole, like an Objective-C `atomic`
/// property.
///
/// The buggy data source stores each of its public properties in one of these so that the lesson
/// shows *inconsistency* and nothing else. With plain `var`s, an `Array` or `String` read while
/// another thread assigns it can be freed under the reader and crash the process, the article's
/// first problem ("bad access is possible"); a lock per property removes that one and leaves the
/// second: three whole reads are still not one state.
final class LockedProperty<Value: Sendable>: @unchecked Sendable {
    private let lock = MeteredLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get(meter: WaitMeter?) -> Value {
        lock.withLock(meter: meter) { value }
    }

    func set(_ newValue: Value) {
        lock.withLock { value = newValue }
    }
}
