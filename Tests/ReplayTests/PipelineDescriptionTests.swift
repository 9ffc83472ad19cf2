import ResponderBus
import ResponderBusExternal
import ResponderBusReplay
import Synchronization
import Testing

/// A plugin an embedding program adds: it counts the keyboard events it sees, in a tally shared
/// with the test, under a serial number given when it is made.
final class KeyboardEventCounter: KeyboardObserving {
    let name: String
    let serial: Int
    private let tally: CounterTally

    init(name: String = "KeyboardEventCounter", tally: CounterTally) {
        self.name = name
        self.tally = tally
        serial = tally.made()
    }

    func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        tally.saw(serial)
    }
}

/// How many counters were made, and how many events each one saw.
final class CounterTally: Sendable {
    private let state = Mutex<(made: Int, seen: [Int: Int])>((0, [:]))

    /// Counters made so far.
    var madeCount: Int { state.withLock { $0.made } }
    /// Events seen, by counter serial number (only counters that saw something).
    var seen: [Int: Int] { state.withLock { $0.seen } }

    /// A new serial number.
    func made() -> Int {
        state.withLock {
            $0.made += 1
            return $0.made
        }
    }

    func saw(_ serial: Int) { state.withLock { $0.seen[serial, default: 0] += 1 } }

    /// A maker of counters at `position`.
    func maker(at position: PluginPosition? = nil, name: String = "KeyboardEventCounter") -> PluginMaker {
        PluginMaker(at: position) { KeyboardEventCounter(name: name, tally: self) }
    }
}

/// The usage error `description` is refused with, if any.
private func refusal(_ description: PipelineDescription) -> PipelineError? {
    do throws(PipelineError) {
        try description.validate()
        return nil
    } catch {
        return error
    }
}

@Suite("PipelineDescription: what a replay runs, checked and overridden")
struct PipelineDescriptionTests {
    @Test("the default description and settings at the ends of their ranges are valid")
    func validDescriptions() throws {
        try PipelineDescription().validate()
        var edges = PipelineDescription(disabled: Set(BuiltinPlugins.names))
        edges.settings.keyboardDistance = 0
        edges.settings.settleWindow = .zero
        edges.settings.heldFrameTimeout = .seconds(600)
        edges.commands = [ExternalPlugin.Configuration(command: ["python3", "p.py"], timeout: .milliseconds(1))]
        try edges.validate()
        edges.settings.keyboardDistance = 10_000
        edges.commands[0].timeout = .seconds(600)
        try edges.validate()
    }

    @Test(
        "validate() refuses a description with a usage error that names the option and the value",
        arguments: [
            (PipelineDescription(disabled: ["NoSuchPlugin"]), "--disable NoSuchPlugin: no such plugin"),
            (PipelineDescription(disabled: ["KeyboardAvoidance", "fieldadvancing"]), "--disable fieldadvancing: no such plugin"),
            (PipelineDescription(commands: [ExternalPlugin.Configuration(command: [])]), "--plugin-command: the command is empty"),
            (PipelineDescription(commands: [ExternalPlugin.Configuration(command: ["", "x"])]), "--plugin-command: the command is empty"),
            (
                PipelineDescription(commands: [ExternalPlugin.Configuration(command: ["p"], timeout: .zero)]),
                "--plugin-timeout must be between 1 and 600000 milliseconds"
            ),
            (
                PipelineDescription(commands: [ExternalPlugin.Configuration(command: ["p"], timeout: .milliseconds(600_001))]),
                "--plugin-timeout must be between 1 and 600000 milliseconds"
            ),
        ])
    func refused(_ description: PipelineDescription, _ message: String) throws {
        let error = try #require(refusal(description))
        #expect(error.kind == .usage)
        #expect(error.exitCode == 64)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("validate() refuses a keyboard distance that is negative, too large or not a number", arguments: [-1, 10_000.5, .nan, .infinity])
    func badKeyboardDistance(_ distance: Double) throws {
        var description = PipelineDescription()
        description.settings.keyboardDistance = distance
        let error = try #require(refusal(description))
        #expect(error.kind == .usage)
        #expect(error.message.hasPrefix("--keyboard-distance must be a number of points from 0 to 10000, got "), "\(error.message)")
    }

    @Test("validate() refuses a settle window or held-frame timeout out of range")
    func badDurations() throws {
        var window = PipelineDescription()
        window.settings.settleWindow = .seconds(61)
        #expect(refusal(window)?.message.hasPrefix("--settle-window must be between 0 and 60000 milliseconds") == true)
        var held = PipelineDescription()
        held.settings.heldFrameTimeout = .zero
        #expect(refusal(held)?.message.hasPrefix("--held-frame-timeout must be between 1 and 600000 milliseconds") == true)
        #expect(refusal(held)?.kind == .usage)
    }

    @Test("overridden(by:): each list the other gives replaces this one's whole; one it leaves empty is kept")
    func listsReplace() throws {
        let tally = CounterTally()
        let file = PipelineDescription(
            disabled: ["FieldAdvancing", "TextViewOrdering"], libraries: [PluginReference(path: "libA.so", position: .first)],
            commands: [ExternalPlugin.Configuration(command: ["python3", "a.py"])], plugins: [tally.maker(at: .first)])
        let nothing = file.overridden(by: PipelineDescription())
        #expect(nothing.disabled == ["FieldAdvancing", "TextViewOrdering"])
        #expect(nothing.libraries == [PluginReference(path: "libA.so", position: .first)])
        #expect(nothing.commands.map(\.command) == [["python3", "a.py"]])
        #expect(nothing.plugins.map(\.position) == [.first])

        let options = PipelineDescription(
            disabled: ["KeyboardAvoidance"], libraries: [PluginReference(path: "libB.so")],
            commands: [ExternalPlugin.Configuration(command: ["./b"]), ExternalPlugin.Configuration(command: ["./c"])],
            plugins: [tally.maker(at: .last), tally.maker()])
        let all = file.overridden(by: options)
        #expect(all.disabled == ["KeyboardAvoidance"], "replaced, not merged")
        #expect(all.libraries == [PluginReference(path: "libB.so")])
        #expect(all.commands.map(\.command) == [["./b"], ["./c"]])
        #expect(all.plugins.map(\.position) == [.last, nil])
    }

    @Test("overridden(by:): each setting the other sets replaces this one's; the others are kept")
    func settingsPerField() throws {
        var file = PipelineDescription()
        file.settings.keyboardDistance = 30
        file.settings.fieldOrder = .position
        file.settings.avoidanceTiming = .everyEvent
        file.settings.settleWindow = .milliseconds(50)
        var options = PipelineDescription()
        options.settings.keyboardDistance = 40
        options.settings.honorsOtherAppsKeyboards = true
        options.settings.heldFrameTimeout = .milliseconds(500)
        let result = file.overridden(by: options).settings
        #expect(result.keyboardDistance == 40)
        #expect(result.fieldOrder == .position)
        #expect(result.avoidanceTiming == .everyEvent)
        #expect(result.settleWindow == .milliseconds(50))
        #expect(result.honorsOtherAppsKeyboards == true)
        #expect(result.heldFrameTimeout == .milliseconds(500))
        #expect(result.textViewReturnAdvances == nil)
        #expect(!result.isDefault)
        #expect(file.overridden(by: PipelineDescription()).settings == file.settings)
        #expect(PipelineDescription().overridden(by: options).settings == options.settings)
    }
}

@Suite("ReplayPipeline: a description made ready once")
struct ReplayPipelineTests {
    @Test("a plugin placed after a plugin that is not there fails when the pipeline is made, as a plugin error, having been made once")
    func missingAnchor() throws {
        let tally = CounterTally()
        let description = PipelineDescription(plugins: [tally.maker(at: .after("NoSuchPlugin"))])
        var caught: PipelineError?
        do throws(PipelineError) {
            _ = try ReplayPipeline(description)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.kind == .plugin)
        #expect(error.exitCode == 78)
        #expect(error.message.hasPrefix("cannot use plugin 'KeyboardEventCounter': "), "\(error.message)")
        #expect(error.message.contains("no plugin named 'NoSuchPlugin'"), "\(error.message)")
        #expect(tally.madeCount == 1)
    }

    @Test("a plugin that cannot be made fails when the pipeline is made, as a plugin error")
    func makerThrows() throws {
        struct Refusal: Error {}
        var caught: PipelineError?
        do throws(PipelineError) {
            _ = try ReplayPipeline(PipelineDescription(plugins: [PluginMaker { throw Refusal() }]))
        } catch {
            caught = error
        }
        #expect(caught?.kind == .plugin)
        #expect(caught?.message.hasPrefix("cannot make a plugin: ") == true)
    }

    @Test("a bad description fails when the pipeline is made, as a usage error")
    func usage() throws {
        var caught: PipelineError?
        do throws(PipelineError) {
            _ = try ReplayPipeline(PipelineDescription(disabled: ["Nope"]))
        } catch {
            caught = error
        }
        #expect(caught?.kind == .usage)
    }

    @Test("the in-process plugins' names, in pipeline order: the built-ins less the disabled, a plugin at .first before them")
    func names() throws {
        #expect(try ReplayPipeline(PipelineDescription()).inProcessPluginNames == BuiltinPlugins.names)
        #expect(ReplayPipeline.empty.inProcessPluginNames == [])
        let tally = CounterTally()
        let description = PipelineDescription(
            disabled: ["FieldAdvancing"],
            plugins: [
                tally.maker(name: "Last"), tally.maker(at: .first, name: "First"), tally.maker(at: .after("TextViewOrdering"), name: "Middle"),
            ])
        let pipeline = try ReplayPipeline(description)
        let expected = ["First", "TextViewOrdering", "Middle", "KeyboardAvoidance", "Last"]
        #expect(pipeline.inProcessPluginNames == expected)
        #expect(try pipeline.makeInProcessPlugins().map(\.name) == expected)
        let made = tally.madeCount
        let plugins = try pipeline.makeInProcessPlugins()
        let serials = plugins.compactMap { $0 as? KeyboardEventCounter }.map(\.serial)
        #expect(serials.count == 3)
        #expect(Set(serials).count == 3 && serials.allSatisfy { $0 > made }, "fresh instances each time")
    }

    @Test("only built-ins disabled: the others keep their order")
    func disabledBuiltins() throws {
        for name in BuiltinPlugins.names {
            let pipeline = try ReplayPipeline(PipelineDescription(disabled: [name]))
            #expect(pipeline.inProcessPluginNames == BuiltinPlugins.names.filter { $0 != name })
            #expect(try pipeline.makeInProcessPlugins().map(\.name) == pipeline.inProcessPluginNames)
        }
    }
}
