import EventLog
import ResponderBus

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `responder-bus-plugin` protocol, version 1: the messages as bytes (see <doc:PluginProtocolVersion1>).
public enum PluginProtocol {
    /// The protocol's name, in both handshakes.
    public static let name = "responder-bus-plugin"
    /// The version this host speaks.
    public static let version = 1

    /// The log-format events a plugin can ask for, by name.
    static let eventNames: [String: AnyEventName] = Dictionary(
        uniqueKeysWithValues: BuiltinEvent.allCases.filter(\.isInLog).map { ($0.name, $0.anyName) })

    /// The events that change the screen model: sent to every plugin, asked for or not, so that it
    /// can keep its own model.
    public static let modelEvents: Set<String> = Set(BuiltinEvent.allCases.filter(\.changesModel).map(\.name))

    // MARK: Host to plugin

    /// The keyboard's events, by name, in the vocabulary's order: the host's hello sends them.
    public static let keyboardEvents: [String] = BuiltinEvent.keyboardEvents.map(\.name)

    /// The keyboard events after which a keyboard model holds the keyboard hidden, by name: the
    /// host's hello sends them.
    public static let keyboardHides: [String] = BuiltinEvent.keyboardEvents.filter(\.hidesKeyboard).map(\.name)

    /// The host's handshake line: protocol, version, the session's header, the keyboard's events
    /// (so that a kit's screen model follows the host's vocabulary), the settings, and
    /// `"timers":true`: this host takes a plugin's `wake` lines and answers them with `tick`s.
    static func hostHello(header: LogHeader, settings: [String: String]) -> [UInt8] {
        let settingsText = settings.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)):\(JSONText.string($0.value))" }
            .joined(separator: ",")
        func list(_ names: [String]) -> String { "[" + names.map(JSONText.string).joined(separator: ",") + "]" }
        let line =
            "{\"header\":\(LogWriter.line(for: header)),\"keyboardEvents\":\(list(keyboardEvents)),\"keyboardHides\":\(list(keyboardHides)),"
            + "\"protocol\":\(JSONText.string(name)),\"settings\":{\(settingsText)},\"timers\":true,\"type\":\"hello\",\"version\":\(version)}\n"
        return Array(line.utf8)
    }

    /// Appends an event line: the log record with `"deliver":true` and its `seq` when the plugin
    /// answers it, `"deliver":false` when it is a model update only.
    static func appendEventLine(_ record: LogRecord, sequence: Int?, to bytes: inout [UInt8]) {
        let start = bytes.count
        LogWriter.append(record, to: &bytes)
        // The record's opening brace becomes the prefix's.
        let prefix = sequence.map { "{\"deliver\":true,\"seq\":\($0)," } ?? "{\"deliver\":false,"
        bytes.replaceSubrange(start..<start + 1, with: prefix.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends the line that ends a loop turn for a plugin that asked for turns.
    static func appendTurnEnd(sequence: Int, t: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "{\"seq\":\(sequence),\"t\":\(JSONText.number(t)),\"type\":\"turnEnd\"}\n".utf8)
    }

    /// Appends the line that wakes a plugin at the time its `wake` asked for: it runs its timers
    /// due by `t` and answers with what they derived.
    static func appendTick(sequence: Int, t: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "{\"seq\":\(sequence),\"t\":\(JSONText.number(t)),\"type\":\"tick\"}\n".utf8)
    }

    /// The line that tells a plugin why it is refused.
    static func errorLine(_ message: String) -> [UInt8] {
        Array("{\"message\":\(JSONText.string(message)),\"type\":\"error\"}\n".utf8)
    }

    // MARK: Plugin to host

    /// A plugin's handshake.
    struct PluginHello {
        var name: String
        var events: [String]
        var position: PluginPosition?
        var turns: Bool
    }

    private struct HelloMessage: Decodable {
        var type: String?
        var `protocol`: String?
        var version: Int?
        var name: String?
        var events: [String]?
        var position: String?
        var turns: Bool?
    }

    private struct ControlMessage: Decodable {
        var type: String?
        var seq: Int?
        var t: Double?
    }

    /// Reads a plugin's handshake, or says what is wrong with it.
    static func pluginHello(_ line: ArraySlice<UInt8>) -> Result<PluginHello, ExternalPluginError> {
        guard let hello = try? JSONDecoder().decode(HelloMessage.self, from: Data(line)), hello.type == "hello" else {
            return .failure(ExternalPluginError(.badHandshake, "its first line is not a hello: \(excerpt(line))"))
        }
        guard hello.protocol == name else {
            return .failure(
                ExternalPluginError(.badHandshake, "its hello names protocol '\(hello.protocol ?? "")', not '\(name)'"))
        }
        guard hello.version == version else {
            return .failure(
                ExternalPluginError(
                    .versionMismatch,
                    "it speaks version \(hello.version.map(String.init) ?? "(none)") of the protocol; this host speaks version \(version)"))
        }
        guard let pluginName = hello.name, !pluginName.isEmpty else {
            return .failure(ExternalPluginError(.badHandshake, "its hello has no name"))
        }
        let events = hello.events ?? []
        if let unknown = events.first(where: { eventNames[$0] == nil }) {
            return .failure(
                ExternalPluginError(
                    .badHandshake,
                    "it asks for '\(unknown)', which is not an event of the log format (\(eventNames.keys.sorted().joined(separator: ", ")))"
                ))
        }
        var position: PluginPosition?
        if let text = hello.position {
            guard let parsed = PluginPosition(protocolText: text) else {
                return .failure(
                    ExternalPluginError(.badHandshake, "its position '\(text)' is not first, last, before:NAME or after:NAME"))
            }
            position = parsed
        }
        return .success(PluginHello(name: pluginName, events: events, position: position, turns: hello.turns ?? false))
    }

    /// What a line from a plugin is.
    enum Message: Equatable {
        /// The end of a delivery, with the number it answers.
        case done(Int?)
        /// A derived record.
        case record(ArraySlice<UInt8>)
        /// A plugin's request to be woken (sent a `tick`) at session time `t`, for its timers; the
        /// latest one of an answer stands.
        case wake(Double)
        /// Another control message, by type.
        case control(String)
        /// Not a message of this protocol.
        case notProtocol(String)
        /// An empty line (or only blanks), skipped.
        case blank
    }

    private static let donePrefix = Array("{\"type\":\"done\",\"seq\":".utf8)

    /// Classifies a line from a plugin.
    static func classify(_ line: ArraySlice<UInt8>) -> Message {
        // The common case, written by both author libraries, without a JSON decoder.
        if line.starts(with: donePrefix), line.last == UInt8(ascii: "}") {
            let digits = line.dropFirst(donePrefix.count).dropLast()
            if !digits.isEmpty, digits.count < 19, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return .done(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            }
        }
        guard let first = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return .blank }
        guard first == UInt8(ascii: "{") else { return .notProtocol("not a JSON object") }
        if contains(line, typeKey),
            let control = try? JSONDecoder().decode(ControlMessage.self, from: Data(line)), let type = control.type
        {
            if type == "wake", let t = control.t, t.isFinite { return .wake(t) }
            return type == "done" ? .done(control.seq) : .control(type)
        }
        return .record(line)
    }

    static let typeKey = Array("\"type\"".utf8)

    /// Whether `needle` occurs in `line` (a plain loop: Foundation's generic `firstRange(of:)` was
    /// most of a model update's cost).
    static func contains(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, line.count >= needle.count else { return false }
        var index = line.startIndex
        let last = line.endIndex - needle.count
        while index <= last {
            if line[index] == first && line[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// The start of a line, for a diagnostic.
    static func excerpt(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return line.count > 120 ? text + "…" : text
    }

    // MARK: Model

    /// The model events that bring a plugin's model to the screen's state (when it is registered
    /// on a bus already running, and after a restart): the screen's size and safe area, the scene
    /// with the root at its resting place, the root's shift, the insets avoidance gave scroll
    /// views, the keyboard and the first responder. A WebAssembly plugin's fresh instance is shown
    /// the same (see the article *Restarts and catch-up*).
    package static func modelSnapshot(of screen: Screen) -> [LogEvent] {
        var events: [LogEvent] = [.screen(ScreenChange(size: screen.size, safeArea: screen.safeArea))]
        guard let root = screen.root else { return events }
        var spec = root.spec
        spec.frame.origin.y = screen.restingRootOriginY
        events.append(.scene(SceneInfo(root: spec, lastFieldAction: screen.lastFieldAction)))
        if screen.rootOriginY != screen.restingRootOriginY {
            events.append(.viewShift(ViewShift(originY: screen.rootOriginY, duration: 0, curve: 7)))
        }
        for view in screen.allViews {
            if view.kind == .scrollView && view.contentInset.bottom != 0 {
                events.append(.scroll(ScrollChange(view: view.id, contentOffsetY: view.contentOffset.y, bottomInset: view.contentInset.bottom)))
            }
            // The scene's spec carries the gap and the views' frames (a follower where it was
            // moved); only a plugin's `viewSettings` turns avoidance off or following on.
            if !view.avoidsKeyboard || view.followsKeyboard {
                events.append(.viewSettings(view.settings))
            }
        }
        if let latest = screen.keyboard.latest {
            events.append(.keyboard(screen.keyboard.frame == nil ? .keyboardDidHide : .keyboardDidShow, latest))
        }
        if let responder = screen.firstResponder {
            events.append(.didBeginEditing(EditingInfo(view: responder.id)))
        }
        return events
    }
}

extension PluginPosition {
    /// Reads `first`, `last`, `before:NAME` or `after:NAME`.
    init?(protocolText text: String) {
        switch text {
        case "first": self = .first
        case "last": self = .last
        default:
            if text.hasPrefix("before:"), text.count > 7 {
                self = .before(String(text.dropFirst(7)))
            } else if text.hasPrefix("after:"), text.count > 6 {
                self = .after(String(text.dropFirst(6)))
            } else {
                return nil
            }
        }
    }
}
