/// SplitMix64 (Steele, Lea and Flood, 2014): the small seeded generator every random draw is re-run with.
///
/// Each step adds 0x9E3779B97F4A7C15 to the 64-bit state (wrapping) and mixes a copy of it:
/// `z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31)`.
/// Seed 0 starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F. It is fast and reproducible, not
/// a secret: seeds come from the system's secure generator, the sequence from here.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The state after the last output (the seed before the first).
    public private(set) var state: UInt64

    /// A generator whose first output is the mix of `seed &+ 0x9E3779B97F4A7C15`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1): the top 53 bits of `next()` times 2⁻⁵³.
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
