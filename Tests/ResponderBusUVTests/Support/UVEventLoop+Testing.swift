import ResponderBusUV
import Testing

extension UVEventLoop {
    /// Runs `body` on the loop and returns its result, waiting at most 10 s.
    func runAndWait<T: Sendable>(
        _ body: @escaping @Sendable () -> T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let result = Box<T?>(nil)
        let done = Latch()
        execute {
            result.value = body()
            done.countDown()
        }
        try #require(done.wait(), "the loop did not run the work within 10 s", sourceLocation: sourceLocation)
        return try #require(result.value, sourceLocation: sourceLocation)
    }
}

/// A log of what ran, written on the loop and read by the test once the loop signalled.
final class EventLog: @unchecked Sendable {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
