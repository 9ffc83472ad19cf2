import EventLog
import ResponderBus
import ResponderBusPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs a plugin written against the `ResponderBus` plugin protocols in a process of its own,
/// speaking the `responder-bus-plugin` protocol on standard input and output: the same plugin
/// source can be registered in-process or run out of process (`--plugin-command`).
///
/// ```swift
/// // Sources/MyPluginProcess/main.swift
/// import ResponderBusExternal
/// ExternalPluginMain.serve(MyPlugin())
/// ```
///
/// The plugin sits on a bus of its own, on virtual time, whose screen model the host's model
/// events keep in step with the host's: every event is posted on it at its time, so the plugin
/// reads `context.screen`, `context.firstResponder` and `context.keyboard` exactly as it would
/// in-process, and what it posts (`PluginContext.post(_:_:style:coalescing:)`, diagnostics,
/// `asap` posts at the end of the turn) goes back to the host as its answer. The events it asks
/// for are the ones its protocols observe (`KeyboardObserving`: the keyboard events;
/// `EditingObserving`: begin and end editing; `ReturnKeyObserving`: Return;
/// `EventObserving`: its `observedEvents`, or every event of the log format).
///
/// A plugin with a `preferredPosition` (`.before("KeyboardAvoidance")`, say) sends it in its hello,
/// and the host places it there, as it would place the same plugin in process; on its own bus the
/// plugin is alone, so no companion is registered there and none is needed.
///
/// A timer the plugin schedules (`context.loop.schedule(after:)`) runs at its time on the host's
/// clock: each answer asks the host to wake the plugin (`wake`) when its earliest timer is due, the
/// host sends a `tick` then, and what the timer posts is posted on the host's bus at that time, as
/// in process. (A host that does not offer timers — one before they were in the protocol — gets
/// what a timer posted with the answer to the next delivery.)
public enum ExternalPluginMain {
    /// Serves `plugin` until the host closes standard input; returns the exit status (0, or 2 when
    /// the host's handshake is not one this side speaks).
    ///
    /// - Parameters:
    ///   - plugin: the plugin to serve.
    ///   - turns: whether to ask the host for the end of each turn (`true`, the default, so that
    ///     `asap` posts and end-of-turn work happen where they would in-process); a plugin that
    ///     decides on each event alone can say `false` and save a round trip per turn.
    public static func run(_ plugin: any ResponderPlugin, turns: Bool = true) -> Int32 {
        var server = PluginServer(plugin: plugin, input: 0, output: 1, turns: turns)
        return server.run()
    }

    /// Serves `plugin` as ``run(_:turns:)`` does, then ends the process with the status it returns:
    /// the whole `main.swift` of a plugin's process (`ExternalPluginMain.serve(MyPlugin())`), with
    /// nothing of the system's C library to import for `exit`.
    ///
    /// - Parameters:
    ///   - plugin: the plugin to serve.
    ///   - turns: as for ``run(_:turns:)``.
    public static func serve(_ plugin: any ResponderPlugin, turns: Bool = true) -> Never {
        exit(run(plugin, turns: turns))
    }

    /// The log-format events `plugin`'s protocols observe, by name.
    public static func requestedEvents(of plugin: any ResponderPlugin) -> [String] {
        var names: Set<String> = []
        if plugin is KeyboardObserving { names.formUnion(EventName<KeyboardInfo>.allKeyboardEvents.map(\.rawValue)) }
        if plugin is EditingObserving { names.formUnion(["didBeginEditing", "didEndEditing"]) }
        if plugin is ReturnKeyObserving { names.insert("returnKey") }
        if let observer = plugin as? EventObserving {
            if let observed = observer.observedEvents {
                names.formUnion(observed.map(\.rawValue).filter { PluginProtocol.eventNames[$0] != nil })
            } else {
                names.formUnion(PluginProtocol.eventNames.keys)
            }
        }
        return names.sorted()
    }
}

/// The plugin side of the protocol, over two file descriptors.
struct PluginServer {
    let plugin: any ResponderPlugin
    let input: Int32
    let output: Int32
    private var lines = LineBuffer()
    private var out: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)
    private var spinUntil: ContinuousClock.Instant?

    init(plugin: any ResponderPlugin, input: Int32, output: Int32, turns: Bool) {
        self.plugin = plugin
        self.input = input
        self.output = output
        self.turns = turns
    }

    private struct HostHello: Decodable {
        struct Header: Decodable {
            struct ScreenSize: Decodable {
                var width: Double
                var height: Double
            }
            struct Insets: Decodable {
                var top: Double?
                var left: Double?
                var bottom: Double?
                var right: Double?
            }
            var screen: ScreenSize
            var safeArea: Insets?
        }
        var type: String?
        var `protocol`: String?
        var version: Int?
        var header: Header?
        /// The host's keyboard events (absent from hosts before they were sent: the six).
        var keyboardEvents: [String]?
        /// Whether the host answers `wake` lines with `tick`s (absent from hosts before it did).
        var timers: Bool?
    }

    private struct Delivery: Decodable {
        var deliver: Bool?
        var seq: Int?
    }

    /// Reads the host's hello, puts the plugin on a bus of its own and answers with the plugin's
    /// hello; `nil`, said on standard error, when the handshake fails.
    private mutating func start() -> (hello: HostHello, loop: VirtualTimeLoop, bus: Bus)? {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        guard let (hello, header) = readHello() else { return nil }
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Self.screen(of: header))
        do {
            try bus.register(plugin, at: .last)  // alone here: its position is the host's, from the hello
        } catch {
            complain("cannot register \(plugin.name): \(error)")
            return nil
        }
        emit(helloLine(hostKeyboardEvents: hello.keyboardEvents))
        flush()
        return (hello, loop, bus)
    }

    /// Asks the host for a tick when the plugin's earliest timer is due (`wake`), unless it was
    /// asked for that time already: what the timer posts is then decided at its time, as in
    /// process, not with the answer to a later delivery.
    private mutating func requestWake(for loop: VirtualTimeLoop, asked: inout Duration?) {
        guard let next = loop.nextDeadline, next > loop.now, next != asked else { return }
        asked = next
        emit(Array("{\"t\":\(JSONText.number(next.seconds)),\"type\":\"wake\"}\n".utf8))
    }

    /// Runs the timers due by session time `t`, each at its time, as they would in process (the
    /// host's `tick`).
    private static func runTimers(until t: Double, on loop: VirtualTimeLoop, asked: inout Duration?) {
        let time = Duration.saturating(seconds: t)
        if asked.map({ $0 <= time }) ?? false { asked = nil }
        if time > loop.now { loop.advance(to: time) } else { loop.run() }
    }

    mutating func run() -> Int32 {
        guard let (hello, loop, bus) = start() else { return 2 }

        // What the plugin derives.
        let name = plugin.name
        var derived: [UInt8] = []
        let recorder = LogRecorder(bus: bus, selection: .derived, clock: { loop.now.seconds }) { record in
            guard record.origin.derivingPlugin == name else { return }
            LogWriter.append(record, to: &derived)
            derived.append(UInt8(ascii: "\n"))
        }
        defer { recorder.stop() }
        // The host's turn structure is kept: the events of one host turn are posted in one local
        // turn, and its end-of-turn work runs when the host says the turn ended.
        var status: Int32?
        // The time of the plugin's earliest timer the host was last asked to wake it for.
        var wakeAsked: Duration?
        let hostWakes = hello.timers == true
        func answer(_ seq: Int) {
            emit(derived)
            derived.removeAll(keepingCapacity: true)
            if hostWakes { requestWake(for: loop, asked: &wakeAsked) }
            emit(Array("{\"type\":\"done\",\"seq\":\(seq)}\n".utf8))
            flush()
        }
        func post(_ record: LogRecord, _ delivery: (deliver: Bool, seq: Int?)) {
            // The plugin's own events come back as model updates: its bus has them already, and
            // in-process it would see each once.
            if record.origin.derivingPlugin != name {
                let before = derived.count
                record.event.post(on: bus, origin: record.origin)
                // A line it is not asked about is a model update; one it observes is only ever
                // the host bringing its model up to date (at registration, after a restart), and
                // what it would derive from that is not an answer to anything.
                if !delivery.deliver { derived.removeSubrange(before...) }
            }
            if delivery.deliver, let seq = delivery.seq { answer(seq) }
        }
        while status == nil, let line = readLine() {
            switch message(line) {
            case .blank:
                continue
            case .stop(let code):
                status = code
            case .turnEnd(let seq):
                answer(seq)
            case .tick(let seq, let t):
                Self.runTimers(until: t, on: loop, asked: &wakeAsked)
                answer(seq)
            case .event(let record, let delivery):
                let time = Duration.saturating(seconds: record.t)
                if time > loop.now { loop.advance(to: time) }
                var endOfTurn: Int?
                loop.runAsTurn {
                    post(record, delivery)
                    guard turns else { return }
                    while let next = readLine() {
                        switch message(next) {
                        case .blank: continue
                        case .stop(let code):
                            status = code
                            return
                        case .turnEnd(let seq):
                            endOfTurn = seq
                            return
                        case .tick(let seq, _):
                            // Not sent within a turn; answered, should a host send one.
                            answer(seq)
                        case .event(let record, let delivery):
                            post(record, delivery)
                        }
                    }
                }
                if let endOfTurn { answer(endOfTurn) }
            }
        }
        return status ?? 0
    }

    /// The host's hello and its log header; `nil`, said on standard error, when the first line is
    /// not one or speaks another version.
    private mutating func readHello() -> (HostHello, HostHello.Header)? {
        guard let first = readLine(),
            let hello = try? JSONDecoder().decode(HostHello.self, from: Data(first)),
            hello.type == "hello", hello.protocol == PluginProtocol.name, let header = hello.header
        else {
            complain("the host's first line is not a \(PluginProtocol.name) hello")
            return nil
        }
        guard hello.version == PluginProtocol.version else {
            complain("the host speaks version \(hello.version.map(String.init) ?? "(none)"); this plugin speaks \(PluginProtocol.version)")
            return nil
        }
        return (hello, header)
    }

    /// The screen the host's header describes.
    private static func screen(of header: HostHello.Header) -> Screen {
        let insets = header.safeArea.map {
            EdgeInsets(top: $0.top ?? 0, left: $0.left ?? 0, bottom: $0.bottom ?? 0, right: $0.right ?? 0)
        }
        return Screen(size: Size(width: header.screen.width, height: header.screen.height), safeArea: insets ?? .zero)
    }

    /// Whether the plugin is told when turns end, so that its `asap` posts and end-of-turn work
    /// happen when they would in-process.
    private let turns: Bool

    /// How long the plugin asks again for the host's next line before it sleeps in `poll`, giving
    /// its core away at each try (`sched_yield`): longer than the host's wait for an answer, since
    /// between two deliveries the host replays the events the plugin did not ask for, and a wake-up
    /// from `poll` costs far more than the wait.
    static let spin = Duration.microseconds(500)

    private static let turnEndPrefix = Array("{\"seq\":".utf8)
    private static let turnEndSuffix = Array(",\"type\":\"turnEnd\"}".utf8)

    /// The number of a `turnEnd` line as this host writes it (`{"seq":N,"t":T,"type":"turnEnd"}`),
    /// read without a JSON decoder.
    static func turnEnd(_ line: ArraySlice<UInt8>) -> Int? {
        guard line.starts(with: turnEndPrefix), line.count > turnEndPrefix.count + turnEndSuffix.count,
            line.suffix(turnEndSuffix.count).elementsEqual(turnEndSuffix)
        else { return nil }
        var seq = 0
        var digits = 0
        for byte in line.dropFirst(turnEndPrefix.count) {
            guard byte >= 0x30, byte <= 0x39 else { break }
            seq = seq * 10 + Int(byte - 0x30)
            digits += 1
            if digits > 18 { return nil }
        }
        return digits > 0 ? seq : nil
    }

    private enum Message {
        case blank
        case stop(Int32)
        case turnEnd(Int)
        case tick(Int, Double)
        case event(LogRecord, (deliver: Bool, seq: Int?))
    }

    private struct TurnEnd: Decodable {
        var type: String?
        var seq: Int?
        var t: Double?
    }

    /// Reads one line from the host.
    private func message(_ line: ArraySlice<UInt8>) -> Message {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        if let seq = Self.turnEnd(line) { return .turnEnd(seq) }
        let isEvent = line.starts(with: Self.deliverPrefix) || line.starts(with: Self.modelPrefix)
        if !isEvent, PluginProtocol.contains(line, PluginProtocol.typeKey), let control = try? JSONDecoder().decode(TurnEnd.self, from: Data(line)),
            let type = control.type
        {
            if type == "turnEnd", let seq = control.seq { return .turnEnd(seq) }
            if type == "tick", let seq = control.seq, let t = control.t, t.isFinite { return .tick(seq, t) }
            complain(
                type == "error" ? "the host refused this plugin: \(String(decoding: line, as: UTF8.self))" : "unexpected '\(type)' from the host")
            return .stop(2)
        }
        do throws(LogReadError) {
            return .event(try LogReader.record(line: line), Self.delivery(line))
        } catch {
            complain("cannot read the host's line: \(error.message)")
            return .stop(2)
        }
    }

    /// The plugin's hello; a keyboard event this plugin knows and the host does not (a host older
    /// than the plugin) is not asked for.
    private func helloLine(hostKeyboardEvents: [String]?) -> [UInt8] {
        let hostKeyboard = Set(hostKeyboardEvents ?? Self.firstKeyboardEvents)
        let events = ExternalPluginMain.requestedEvents(of: plugin)
            .filter { EventName<KeyboardInfo>(keyboardEventNamed: $0) == nil || hostKeyboard.contains($0) }
            .map(JSONText.string).joined(separator: ",")
        let position = plugin.preferredPosition.map { ",\"position\":\(JSONText.string(Self.text(of: $0)))" } ?? ""
        return Array(
            "{\"events\":[\(events)],\"name\":\(JSONText.string(plugin.name))\(position),\"protocol\":\(JSONText.string(PluginProtocol.name)),\"turns\":\(turns),\"type\":\"hello\",\"version\":\(PluginProtocol.version)}\n"
                .utf8)
    }

    /// The keyboard events of hosts that did not send theirs.
    static let firstKeyboardEvents = [
        "keyboardWillShow", "keyboardDidShow", "keyboardWillHide", "keyboardDidHide", "keyboardWillChangeFrame", "keyboardDidChangeFrame",
    ]

    static func text(of position: PluginPosition) -> String {
        switch position {
        case .first: "first"
        case .last: "last"
        case .before(let name): "before:\(name)"
        case .after(let name): "after:\(name)"
        }
    }

    private static let deliverPrefix = Array("{\"deliver\":true,\"seq\":".utf8)
    private static let modelPrefix = Array("{\"deliver\":false,".utf8)

    /// Whether the line asks for an answer, and its number: read from the prefix the host writes,
    /// or from the whole line when another host orders its keys differently.
    static func delivery(_ line: ArraySlice<UInt8>) -> (deliver: Bool, seq: Int?) {
        if line.starts(with: modelPrefix) { return (false, nil) }
        if line.starts(with: deliverPrefix) {
            var seq = 0
            var index = line.startIndex + deliverPrefix.count
            var digits = 0
            while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39, digits < 18 {
                seq = seq * 10 + Int(line[index] - 0x30)
                index += 1
                digits += 1
            }
            if digits > 0 { return (true, seq) }
        }
        guard let decoded = try? JSONDecoder().decode(Delivery.self, from: Data(line)) else { return (false, nil) }
        return (decoded.deliver ?? false, decoded.seq)
    }

    // MARK: Bytes

    /// The next line of input without its line break, `nil` at its end.
    private mutating func readLine() -> ArraySlice<UInt8>? {
        while true {
            if let line = lines.nextLine() { return line }
            guard !lines.isOverlong else {
                complain("the host wrote a line longer than \(LineBuffer.maximumLength >> 20) MiB")
                return nil
            }
            let fd = input
            let count = DescriptorCalls.readChunk(fd, into: &scratch)
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // The host's next line usually follows within microseconds: ask again for a moment
                // (see `spin`), then sleep until it comes.
                if spinUntil == nil { spinUntil = ContinuousClock.now + Self.spin }
                if let spinUntil, ContinuousClock.now < spinUntil {
                    sched_yield()
                    continue
                }
                SystemFiles.waitUntilReady(input)
                continue
            }
            if count < 0 && errno == EINTR { continue }
            spinUntil = nil
            guard count > 0 else { return lines.rest() }
            lines.append(scratch[..<count])
        }
    }

    private mutating func emit(_ bytes: [UInt8]) {
        out.append(contentsOf: bytes)
    }

    /// Writes what was emitted, whole (standard output may share the non-blocking file of standard
    /// input, so a full pipe is waited for, not dropped).
    private mutating func flush() {
        var offset = 0
        let fd = output
        while offset < out.count {
            let written = DescriptorCalls.writeChunk(fd, out, from: offset)
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                SystemFiles.waitUntilReady(fd, forWriting: true)
                continue
            }
            guard written > 0 else { break }
            offset += written
        }
        out.removeAll(keepingCapacity: true)
    }

    private func complain(_ message: String) {
        let bytes = Array("\(plugin.name): \(message)\n".utf8)
        _ = DescriptorCalls.writeChunk(2, bytes)
    }
}
