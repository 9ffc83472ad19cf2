import Foundation
import Testing

/// The command's live modes against its fast replay, with a project file's settle window: the
/// example session's decisions (its seven `viewShift`s among them) in every mode.
@Suite("responder-bus replay: live is the replay", .serialized)
struct LiveIsTheReplayCLITests {
    /// The example, in a folder of its own whose project file sets a 50 ms settle window.
    private func exampleWithSettleWindow() throws -> String {
        let path = try CLI.temporaryFile(try String(contentsOfFile: CLI.example, encoding: .utf8), name: "session.jsonl")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try #"{"textViewOrdering":{"settleWindow":50}}"#.write(
            to: folder.appendingPathComponent(".responder-bus.json"), atomically: true, encoding: .utf8)
        return path
    }

    /// The `--format jsonl` lines less the summary.
    private func decisions(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { !$0.contains(#""event":"summary""#) }
    }

    @Test(
        "with a 50 ms settle window: --realtime at 1,000 and 10⁶ times, --follow of the finished file, and replay - from a slow pipe give the fast replay's seven viewShifts and every other decision"
    )
    func everyModeDecidesTheSame() throws {
        let path = try exampleWithSettleWindow()
        let fast = try CLI.run(["replay", path, "--format", "jsonl"])
        #expect(fast.status == 0, "\(fast.stderr)")
        let expected = decisions(fast.stdout)
        #expect(expected.count(where: { $0.contains(#""event":"viewShift""#) }) == 7, "\(fast.stdout)")
        #expect(expected.contains { $0.contains(#""t":3.05"#) }, "the settle window's decision, at 3 + 0.05: \(fast.stdout)")

        for speed in ["1000", "1000000"] {
            let run = try CLI.run(["replay", path, "--format", "jsonl", "--realtime", "--speed", speed])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(decisions(run.stdout) == expected, "--realtime --speed \(speed)")
        }

        // --follow of the whole file, interrupted once it was read.
        let follow = try LiveRun(["replay", path, "--follow", "--format", "jsonl"])
        usleep(700_000)
        #expect(follow.stop() == 0, "\(follow.stderr)")
        #expect(decisions(follow.stdout) == expected, "--follow")

        // A line every 5 ms into `replay -`, as `import --follow | replay -` feeds it.
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let piped = try CLI.shell(
            "cd \(CLI.quoted(folder)) && while IFS= read -r line; do printf '%s\\n' \"$line\"; sleep 0.005; done < session.jsonl | "
                + "\(CLI.quoted(CLI.binary.path)) replay - --format jsonl")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(decisions(piped.stdout) == expected, "replay - from a slow pipe")
        #expect(!piped.stderr.contains("held since"), "\(piped.stderr)")
    }

    @Test("--allowed-lateness decides a followed log's last turn without waiting for more, and says when a record then arrives late")
    func allowedLateness() throws {
        let lines = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n").filter { !$0.contains(#""origin":"derived""#) }
        // Up to the keyboard's first frames at t 1.009, whose turn is held without a later record.
        let cut = try #require(lines.firstIndex { $0.contains(#""t":1.009"#) })
        let path = try CLI.temporaryFile(lines[...cut].joined(separator: "\n") + "\n")
        let follow = try LiveRun(["replay", path, "--follow", "--format", "jsonl", "--allowed-lateness", "100"])
        // The turn at t 1.009 has no later record: it is decided once the lateness has passed.
        #expect(follow.wait(upTo: 5) { $0.stdout.contains(#""event":"viewShift""#) }, "\(follow.stdout)")
        // A record of the turn already decided: late.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((lines[cut] + "\n").utf8))
        try handle.close()
        #expect(follow.wait(upTo: 5) { $0.stderr.contains("allowed lateness 100 ms") }, "\(follow.stderr)")
        #expect(follow.stop() == 0, "\(follow.stderr)")
        let (output, errors) = (follow.stdout, follow.stderr)
        #expect(output.contains(#""event":"viewShift""#), "\(output)")
        #expect(errors.contains("warning: line \(cut + 2): '") && errors.contains("allowed lateness 100 ms"), "\(errors)")
        #expect(errors.contains("read with a warning"), "\(errors)")

        let bad = try CLI.run(["replay", path, "--allowed-lateness", "100"])
        #expect(bad.status == 64 && bad.stderr.contains("--allowed-lateness goes with --follow"), "\(bad.stderr)")
    }
}
