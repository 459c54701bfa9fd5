/// SplitMix64, a small, fast, seedable generator (Steele, Lea and Flood, 2014).
///
/// Used for noise decisions, where what matters is that the same seed gives the same sequence on
/// every platform and Swift version, which `SystemRandomNumberGenerator` does not promise.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is a function of `seed` alone.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 finalizer: a bijective scramble of one 64-bit value.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// A seed for one part of a run, derived from the run's seed and the part's coordinates, so that
    /// each (trial, iteration) gets its own independent stream.
    public static func derive(_ seed: UInt64, _ parts: Int...) -> UInt64 {
        parts.reduce(mix(seed)) { mix($0 ^ UInt64(truncatingIfNeeded: $1)) }
    }
}
