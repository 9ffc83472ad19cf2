/// The explorer's random numbers: SplitMix64, the same sequence for the same seed on every
/// machine and every run (the standard library's `random(in:using:)` is not promised to stay so
/// across versions, so nothing here uses it).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<count` (`count` > 0).
    public mutating func below(_ count: Int) -> Int {
        precondition(count > 0, "below(0)")
        return Int(next() % UInt64(count))
    }

    /// A number in `range`.
    public mutating func number(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True with probability `percent` in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `choices` (not empty).
    public mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// The seed of session `index` of an exploration seeded `seed`: each session is reproducible on
    /// its own (`responder-bus explore --seed` with this number and `--count 1`).
    public static func sessionSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var mixer = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return index == 0 ? seed : mixer.next()
    }
}
