import ArgumentParser
import EventLog
import ResponderBus

/// `responder-bus new-session`: a session written from a sentence of a bug report.
struct NewSessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-session",
        abstract: "Write a session from a device, its fields and what the user did: a bug report as a log.",
        discussion: """
            Writes a v1 log that replay reads: the device's screen and safe area, a scene with the \
            fields (tagged in order, laid out one above the other), and the events UIKit sends for each \
            action, with the device's keyboard heights. Focus a field, press Return, rotate, dismiss: \
            Return in a text field moves to the next field (or ends editing on the last), a rotation \
            writes the new screen, a setFrame for every view laid out for the new width and the keyboard \
            in the new coordinates at the device's landscape (or portrait) height, and keeps the focus. \
            Only what the world did is written: replay derives every decision.

            A field is NAME[:WORD…]: a kind (text, secure, textView) and flags: hidden, disabled, \
            done or return=done (Return ends editing there), gap=N (the distance avoidance keeps), height=N, y=N (its \
            top, in points). Without --focus, the first field that can take the focus is focused at 1 s. \
            Times are seconds; actions at least 0.05 s apart. --list-devices shows the devices, their \
            screens and keyboards. A device name that is not known, a field that cannot be read and an \
            action that cannot happen then (Return with no field focused) exit 64 saying why.

            Examples:
              responder-bus new-session --device "iPhone SE" --fields user,password:secure --rotate-at 3 -o se-rotate.jsonl
              responder-bus new-session --device "iPhone SE" --fields user,password:secure --focus password@1 --rotate-at 3 | responder-bus replay - --check
              responder-bus new-session --device "iPhone 8" --fields name,email,notes:textView --return-at 2 --return-at 3 --dismiss-at 5
              responder-bus new-session --device 390x844 --fields message --third-party-keyboard 0,216,259
              responder-bus new-session --device iPad --landscape --fields search --no-prediction-bar --layout top
              responder-bus new-session --list-devices
            """
    )

    @Option(help: ArgumentHelp("The device, by name (\"iPhone SE\", \"iPhone 13\") or screen size in points (320x568).", valueName: "name|WxH"))
    var device: String?

    @Option(help: ArgumentHelp("The fields, in order: NAME[:WORD…] separated by commas, such as user,password:secure.", valueName: "fields"))
    var fields: String?

    @Flag(help: "Start in landscape (a size wider than tall, such as 568x320, does too).")
    var landscape = false

    @Option(help: ArgumentHelp("Where the fields sit: bottom (above the safe area's bottom) or top (below its top).", valueName: "bottom|top"))
    var layout: String = "bottom"

    @Option(help: ArgumentHelp("Focus a field at a time (default 1 s); repeatable.", valueName: "field[@seconds]"))
    var focus: [String] = []

    @Option(name: .customLong("return-at"), help: ArgumentHelp("Press Return in the focused field; repeatable.", valueName: "seconds"))
    var returnAt: [Double] = []

    @Option(name: .customLong("rotate-at"), help: ArgumentHelp("Turn the device to the other orientation; repeatable.", valueName: "seconds"))
    var rotateAt: [Double] = []

    @Option(
        name: .customLong("dismiss-at"),
        help: ArgumentHelp("Dismiss the keyboard (the focused field ends editing); repeatable.", valueName: "seconds"))
    var dismissAt: [Double] = []

    @Option(
        name: .customLong("third-party-keyboard"),
        help: ArgumentHelp(
            "A third-party keyboard announcing these heights in portrait, 4 ms apart, as it appears (SwiftKey on an iPhone 6: 0,216,259).",
            valueName: "heights"))
    var thirdPartyKeyboard: String?

    @Option(
        name: .customLong("third-party-keyboard-landscape"),
        help: ArgumentHelp("Its heights in landscape (default: the portrait ones scaled as the system keyboard's).", valueName: "heights"))
    var thirdPartyLandscape: String?

    @Flag(inversion: .prefixedNo, help: "The system keyboard with its prediction bar (QuickType), or without.")
    var predictionBar = true

    @Option(help: ArgumentHelp("How long the keyboard's animations last.", valueName: "seconds"))
    var duration: Double = 0.25

    @Option(
        name: .customLong("last-field-action"),
        help: ArgumentHelp("What Return on the last field performs (the scene's lastFieldAction).", valueName: "name"))
    var lastFieldAction: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the log to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "List the known devices with their screens, safe areas and keyboard heights, and exit.")
    var listDevices = false

    func validate() throws {
        guard !listDevices else { return }
        guard device != nil else {
            throw ValidationError("--device is required: a name such as \"iPhone SE\" or a size such as 320x568 (--list-devices lists them)")
        }
        guard fields != nil else { throw ValidationError("--fields is required: NAME[:WORD…] separated by commas, such as user,password:secure") }
        guard SessionSketch.Layout(rawValue: layout) != nil else { throw ValidationError("--layout \(layout): expected bottom or top") }
        if thirdPartyKeyboard == nil, thirdPartyLandscape != nil {
            throw ValidationError("--third-party-keyboard-landscape needs --third-party-keyboard (the heights in portrait)")
        }
    }

    func run() throws {
        if listDevices {
            print(Self.deviceList())
            return
        }
        let sketch: SessionSketch
        let text: String
        do throws(SessionSketchError) {
            sketch = try makeSketch()
            text = try sketch.log()
        } catch {
            let implicit = focus.isEmpty && error.code == .impossibleAction ? " (without --focus, the first field is focused at 1 s)" : ""
            complain(error.message + implicit)
            throw ExitCode.validationFailure
        }
        _ = StandardOutput.wasClosed
        do throws(OutputError) {
            let file = try output.map { path throws(OutputError) in try OutputFile(path: path) }
            let out = file.map(Output.init(file:)) ?? Output()
            out.line(String(text.dropLast()))
            out.flush()
            if let error = out.error {
                file?.abandon()
                throw error
            }
            try file?.commit()
        } catch {
            throw error.reported()
        }
        let records = text.split(separator: "\n").count - 1
        let fields = "\(sketch.fields.count) field\(sketch.fields.count == 1 ? "" : "s")"
        let actions = sketch.actions.sorted { $0.t < $1.t }.map(\.description).joined(separator: ", ")
        complain(
            "new-session: wrote \(output ?? "the log"): \(sketch.device), \(sketch.orientation.rawValue), \(fields), \(records) records\(actions.isEmpty ? "" : ": " + actions)"
        )
    }

    /// The sketch the options describe.
    func makeSketch() throws(SessionSketchError) -> SessionSketch {
        let deviceName = device ?? ""
        guard let found = Device.named(deviceName) else { throw SessionSketchError.unknownDevice(deviceName) }
        let orientation: Device.Orientation = landscape ? .landscape : Device.orientation(named: deviceName) ?? .portrait
        let fields = try FieldSketch.list(parsing: self.fields ?? "")
        var keyboard = KeyboardStyle.system(predictionBar: predictionBar)
        if let thirdPartyKeyboard {
            let portrait = try Self.heights(thirdPartyKeyboard, option: "--third-party-keyboard")
            let landscape = try thirdPartyLandscape.map { text throws(SessionSketchError) in
                try Self.heights(text, option: "--third-party-keyboard-landscape")
            }
            keyboard = .thirdParty(ThirdPartyKeyboard(portraitHeights: portrait, landscapeHeights: landscape))
        }
        var actions: [SessionSketch.Action] = []
        for item in focus { actions.append(try Self.focusAction(item)) }
        if focus.isEmpty, let first = fields.first(where: \.isFocusable) { actions.append(.focus(first.id, at: 1)) }
        actions += returnAt.map { .returnKey(at: $0) } + rotateAt.map { .rotate(at: $0) } + dismissAt.map { .dismiss(at: $0) }
        return SessionSketch(
            device: found, orientation: orientation, fields: fields, layout: SessionSketch.Layout(rawValue: layout) ?? .bottom, keyboard: keyboard,
            animationDuration: duration, lastFieldAction: lastFieldAction, actions: actions)
    }

    /// `FIELD[@SECONDS]`.
    static func focusAction(_ text: String) throws(SessionSketchError) -> SessionSketch.Action {
        guard let at = text.lastIndex(of: "@") else { return .focus(ViewID(text), at: 1) }
        guard let t = Double(text[text.index(after: at)...]) else {
            throw SessionSketchError(.badValue, "--focus \(text): expected FIELD@SECONDS, such as password@1.5")
        }
        return .focus(ViewID(String(text[..<at])), at: t)
    }

    /// `0,216,259`.
    static func heights(_ text: String, option: String) throws(SessionSketchError) -> [Double] {
        // Spaces around a height are allowed, inside one not ("2 16" is no 216); no empty item.
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let words = item.split(separator: " ")
            return words.count == 1 ? Double(words[0]) : nil
        }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw SessionSketchError(.badValue, "\(option) \(text): expected heights in points separated by commas, such as 0,216,259")
        }
        return values.compactMap { $0 }
    }

    /// The table of devices, one line each.
    static func deviceList() -> String {
        Device.all.map { device in
            let size = "\(JSONText.number(device.portraitSize.width))x\(JSONText.number(device.portraitSize.height))"
            let k = device.keyboard
            let heights =
                "keyboard \(JSONText.number(k.portrait))/\(JSONText.number(k.portraitWithPredictionBar)) portrait, \(JSONText.number(k.landscape))/\(JSONText.number(k.landscapeWithPredictionBar)) landscape (without/with the prediction bar)"
            let safe = "safe area \(device.portraitSafeArea) portrait, \(device.landscapeSafeArea) landscape"
            let also = device.aliases.isEmpty ? "" : "; also \(device.aliases.joined(separator: ", "))"
            return "\(device.name): \(size), \(heights), \(safe)\(also)"
        }
        .joined(separator: "\n")
    }
}
