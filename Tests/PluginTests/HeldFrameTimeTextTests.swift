import Testing

@testable import TextViewOrdering

@Suite("TextViewOrdering's held-frame times: written as Double's description writes them")
struct HeldFrameTimeTextTests {
    /// What the diagnostics wrote before the digits were made by hand.
    private func described(_ time: Duration) -> String {
        let value = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        return "t=\((value * 1000).rounded() / 1000) s"
    }

    @Test("the same text as the description for edges, round values and a million random times")
    func sameAsDescription() {
        var times: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(499_999), .nanoseconds(500_000), .milliseconds(1), .milliseconds(10),
            .milliseconds(100), .milliseconds(999), .seconds(1), .milliseconds(1_050), .milliseconds(12_005),
            .seconds(59), .seconds(3_600), .seconds(86_400 * 365 * 30), .seconds(86_400 * 365 * 40),
            .seconds(Int64(1) << 40), .seconds(Int64(1) << 53), .seconds(Int64(1) << 62), .nanoseconds(-1),
            .milliseconds(-1), .seconds(-5),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000_000 {
            let scale = Int64.random(in: 0...4, using: &generator)
            let limit: Int64 = [1_000_000_000, 60_000_000_000, 3_600_000_000_000, 1 << 50, 1 << 62][Int(scale)]
            times.append(.nanoseconds(Int64.random(in: 0...limit, using: &generator)))
        }
        var mismatches: [String] = []
        for time in times where TextViewOrdering.seconds(time) != described(time) {
            mismatches.append("\(time): \(TextViewOrdering.seconds(time)) vs \(described(time))")
            if mismatches.count > 5 { break }
        }
        #expect(mismatches.isEmpty)
        #expect(TextViewOrdering.seconds(.milliseconds(1_050)) == "t=1.05 s")
        #expect(TextViewOrdering.seconds(.seconds(2)) == "t=2.0 s")
        #expect(TextViewOrdering.seconds(.milliseconds(7)) == "t=0.007 s")
    }
}
