import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import Testing

@Suite("Output: a record whose line is over a limit is not written")
struct OutputLineLimitTests {
    @Test("line(_:atMost:) writes a line within the limit, and leaves out one over it, saying its length")
    func limit() throws {
        var pipe: [Int32] = [0, 0]
        try #require(ResponderBusPlatform.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        let output = Output(descriptor: pipe[1], closes: true, name: "the pipe")
        let short = LogRecord(t: 1, event: .returnKey(ReturnKeyInfo(view: ViewID("ok"))))
        let long = LogRecord(t: 2, event: .returnKey(ReturnKeyInfo(view: ViewID(String(repeating: "v", count: 200)))))
        #expect(output.line(short, atMost: 100) == nil)
        #expect(output.line(long, atMost: 100) == 237, "the line without its newline")
        output.flush()
        close(pipe[1])
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(pipe[0], &bytes, bytes.count)
        #expect(String(decoding: bytes[..<max(count, 0)], as: UTF8.self) == #"{"event":"returnKey","t":1,"view":"ok"}"# + "\n")
    }
}
