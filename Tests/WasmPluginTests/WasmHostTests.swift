import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusWasm
import Synchronization
import Testing

/// Says, from the bus's own model, what `Modules/recorder.c` says from the host's functions: the
/// same line for every event, so that the two can be compared.
final class RecorderTwin: EventObserving {
    let name = "RecorderTwin"
    var preferredPosition: PluginPosition? { .after("Recorder") }
    var observedEvents: Set<AnyEventName>? { Set(WasmPluginABI.eventKinds.map(\.name).filter { $0 != EventName.diagnostic.erased }) }
    /// Where the lines go: shared with the test, which made the twin in a `@Sendable` maker.
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }
    let said: Lines
    private var lines: [String] = [] {
        didSet { said.value.withLock { $0 = lines } }
    }

    init(_ said: Lines) { self.said = said }

    func observe(_ event: AnyEvent, context: PluginContext) {
        let screen = context.screen
        let views = screen.allViews
        func handle(_ view: ViewNode?) -> Int { view.flatMap { view in views.firstIndex { $0 === view } } ?? -1 }
        let kind = WasmPluginABI.kind(of: event.name) ?? 0
        var line = "kind \(kind) t \(Self.number(context.now.seconds))"
        if let info = event.payload as? KeyboardInfo {
            var flags = 0
            if info.begin != nil { flags |= 1 }
            if info.end != nil { flags |= 2 }
            if info.duration != nil { flags |= 4 }
            if info.curve != nil { flags |= 8 }
            if let local = info.isLocal { flags |= 16 | (local ? 32 : 0) }
            line += " flags \(flags)"
            if let end = info.end { line += " end " + Self.rect(end) }
        } else {
            let view: ViewID? =
                switch event.payload {
                case let info as EditingInfo: info.view
                case let info as ReturnKeyInfo: info.view
                case let info as ResignInfo: info.view
                case let info as FrameChange: info.view
                case let info as ScrollChange: info.view
                case let info as ViewSettings: info.view
                case let change as FocusChange: change.to
                default: nil
                }
            if let view { line += " view \(view.rawValue)" }
        }
        if let keyboard = screen.keyboard.frame {
            line += " keyboard " + (keyboard.size.height > 0 ? Self.rect(keyboard) : "")
        } else {
            line += " no keyboard"
        }
        line += " root \(Self.number(screen.rootOriginY)) responder \(handle(screen.firstResponder)) views \(views.count)"
        lines.append(line)
        guard event.name == EventName.scene.erased else { return }
        for view in views {
            var flags = 0
            if view.isHidden { flags |= 1 }
            if view.isEnabled { flags |= 2 }
            if view.isSecure { flags |= 4 }
            if view.avoidsKeyboard { flags |= 8 }
            if view.isFirstResponder { flags |= 16 }
            if view.tag != nil { flags |= 32 }
            if view.keyboardDistance != nil { flags |= 64 }
            var text = "view \(view.id.rawValue) kind \(WasmPluginABI.viewKinds.firstIndex(of: view.kind) ?? 0) flags \(flags)"
            if let tag = view.tag { text += " tag \(tag)" }
            text += " parent \(handle(view.parent)) frame " + Self.rect(screen.frameInScreen(of: view))
            lines.append(text)
        }
    }

    /// As recorder.c writes numbers: to the thousandth, without trailing zeros.
    static func number(_ value: Double) -> String {
        var milli = Int64((value * 1000 + (value < 0 ? -0.5 : 0.5)).rounded(.towardZero))
        var text = ""
        if milli < 0 {
            text = "-"
            milli = -milli
        }
        text += "\(milli / 1000)"
        let rest = milli % 1000
        if rest != 0 {
            var fraction = String(format: "%03lld", rest)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }

    static func rect(_ rect: Rect) -> String {
        "{\(number(rect.origin.x)),\(number(rect.origin.y)),\(number(rect.size.width)),\(number(rect.size.height))}"
    }
}

@Suite("WebAssembly plugins: what the host tells a module")
struct WasmHostTests {
    @Test(
        "a module reads the same screen, keyboard, views and payloads as a Swift plugin at the same place, on every bundled and imported session"
    )
    func sameModel() throws {
        let module = try WasmModules.load("recorder.c")
        #expect(module.name == "Recorder")
        #expect(module.preferredPosition == .after("KeyboardAvoidance"))
        #expect(module.observedEvents.count == 18)
        let examples = WasmModules.repository.appendingPathComponent("Sources/responder-bus/Examples")
        let logs = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(logs.count >= 2)
        for log in logs {
            let lines = RecorderTwin.Lines()
            let replayed = try WasmReplay.run(
                [PluginMaker { try module.makePlugin() }, PluginMaker { RecorderTwin(lines) }], log: examples.appendingPathComponent(log).path)
            let twin = lines.value.withLock { $0 }
            let said = replayed.diagnostics(by: "Recorder")
            #expect(replayed.result.pluginFaults.isEmpty, "\(log): \(replayed.result.pluginFaults)")
            #expect(said.count > 10, "\(log)")
            #expect(said == twin, "\(log)")
            if said != twin {
                for (index, (a, b)) in zip(said, twin).enumerated() where a != b {
                    Issue.record("\(log) line \(index):\nmodule: \(a)\nswift:  \(b)")
                    break
                }
            }
        }
    }

    @Test("the ABI's kinds are one each, and its keyboard kinds are exactly those of the bus's keyboard events")
    func kindsFollowTheVocabulary() {
        let kinds = WasmPluginABI.eventKinds
        #expect(Set(kinds.map(\.kind)).count == kinds.count)
        #expect(Set(kinds.map(\.name)).count == kinds.count)
        let keyboardEvents = Set(EventName<KeyboardInfo>.allKeyboardEvents.map(\.erased))
        let keyboardKinds = Set(kinds.filter { keyboardEvents.contains($0.name) }.map(\.kind))
        #expect(keyboardKinds == Set(WasmPluginABI.keyboardKinds))
        for (kind, name) in kinds {
            #expect(WasmPluginABI.kind(of: name) == kind)
            #expect(WasmPluginABI.event(ofKind: kind) == name)
        }
        #expect(WasmPluginABI.kind(of: EventName.turnSettled.erased) == nil)
    }
}
