/// A value that is not `Sendable`, passed across threads anyway: the way to put a class you did not
/// write for concurrency (and so did not mark `Sendable`) under test in the Swift 6 language mode.
///
/// ```swift
/// Variant(name: "legacy-cache", kind: .fixed, summary: "the cache as shipped",
///         makeState: { UncheckedSendable(LegacyCache()) },
///         operation: { cache, iteration in cache.value.insert(iteration.index) },
///         check: { cache, trial in .kept(cache.value.count, of: trial.iterations) })
/// ```
///
/// The wrapper switches the compiler's check off for this one value and nothing more: whether the
/// wrapped type really is safe to share is exactly what the test finds out. Do not use it in
/// production code to silence the compiler.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The wrapped value.
    public var value: Value

    /// Wraps `value`; its thread safety is the caller's claim, not the compiler's.
    public init(_ value: Value) {
        self.value = value
    }
}
