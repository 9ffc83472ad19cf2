import EventLog
import ResponderBus
import ResponderBusPlatform
import Testing

@Suite("LogReader: inputs that are not logs end the read, with their name")
struct LogReaderInputTests {
    @Test("a line longer than the limit is named and skipped as soon as the limit is passed, and reading goes on after it", arguments: [false, true])
    func tooLongIsSkipped(spansChunks: Bool) {
        var bytes = Array((header + "\n").utf8)
        bytes += Array(#"{"t":0,"event":"action","origin":"derived","by":"X","name":""#.utf8)
        // Within one 64 KiB chunk of the reader's, or over many.
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: spansChunks ? 1 << 20 : 2_000)
        bytes += Array("\"}\n".utf8)
        bytes += Array(#"{"t":1,"event":"returnKey","view":"ok"}"#.utf8)
        let (_, records, problems) = readAll(bytes, maxLineLength: spansChunks ? 1 << 16 : 1_000)
        #expect(records.map(\.t) == [1], "the line after it is read")
        #expect(problems.map(\.code) == [.lineTooLong])
        #expect(problems.first?.line == 2)
        #expect(problems.first?.endsReading == false)
        #expect(problems.first?.message.contains("skipped") == true)
    }

    @Test("the default limit is the format's, 64 MiB: a 3 MB scene line (a 20,000-view screen) is read")
    func largeSceneIsRead() throws {
        #expect(LogLimits.maximumLineLength == 64 << 20)
        var children: [String] = []
        for index in 0..<20_000 {
            children.append(#"{"id":"label\#(index)","kind":"label","frame":[0,\#(index),375,20]}"#)
        }
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":["# + children.joined(separator: ",") + "]}}"
        #expect(scene.utf8.count > 1 << 20)
        let reader = LogReader(bytes: Array((header + "\n" + scene + "\n").utf8))
        _ = try reader.readHeader()
        guard case .record(let record, _) = reader.next() else {
            Issue.record("the scene was not read")
            return
        }
        guard case .scene(let info) = record.event else {
            Issue.record("not a scene: \(record.event.name)")
            return
        }
        #expect(info.root.children.count == 20_000)
    }

    @Test("an endless device is refused by name when opened", arguments: ["/dev/zero", "/dev/urandom"])
    func deviceIsRefused(path: String) {
        #expect {
            _ = try LogReader(path: path)
        } throws: { error in
            guard let error = error as? LogReadError else { return false }
            return error.code == .unreadable && error.message == "'\(path)' is a device, not a log file; name a .jsonl log"
        }
    }

    @Test("endless NULs from a descriptor end a gigabyte past the line limit, with no newline ever", .timeLimit(.minutes(1)))
    func endlessBytesEnd() throws {
        let descriptor = open("/dev/zero", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let reader = LogReader(fileDescriptor: descriptor, maxLineLength: 1 << 20)
        #expect {
            _ = try reader.readHeader()
        } throws: { error in
            (error as? LogReadError)?.code == .lineTooLong
        }
        guard case .problem(let error) = reader.next() else {
            Issue.record("the endless line was not named")
            return
        }
        #expect(error.code == .endlessLine && error.endsReading, "\(error)")
        #expect(error.message.contains("no newline came in the 1 GiB after; reading stopped here"))
        #expect(reader.next() == nil)
    }

    @Test("a read that fails (a directory as the descriptor) ends the read with its reason")
    func failedReadIsSaid() throws {
        let descriptor = open("/", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let reader = LogReader(fileDescriptor: descriptor)
        #expect {
            _ = try reader.readHeader()
        } throws: { error in
            guard let error = error as? LogReadError else { return false }
            return error.code == .unreadable && error.message == "cannot read the input after line 0: Is a directory; reading stopped here"
        }
    }

    @Test("a UTF-8 byte-order mark before the header is skipped")
    func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((header + "\n" + #"{"t":1,"event":"returnKey","view":"ok"}"# + "\n").utf8)
        let (parsed, records, problems) = readAll(bytes)
        let screen = try parsed.get().screen
        #expect(screen.width == 375)
        #expect(records.count == 1)
        #expect(problems.isEmpty)
    }

    @Test("a byte-order mark anywhere else is still a problem")
    func byteOrderMarkLater() {
        let bytes = Array((header + "\n").utf8) + [0xEF, 0xBB, 0xBF] + Array(#"{"t":1,"event":"returnKey","view":"ok"}"#.utf8)
        let (_, records, problems) = readAll(bytes)
        #expect(records.isEmpty)
        #expect(problems.map(\.code) == [.malformedJSON])
    }
}
