import EventLog
import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusExternal
import Testing

@Suite("External plugins: the protocol, and every fault contained")
struct ExternalPluginTests {
    typealias Configuration = ExternalPlugin.Configuration

    @Test("a plugin's derived events enter the bus as its own, after the handshake it asked for")
    func derivedEvents() throws {
        let command = try Scripts.plugin(
            name: "Shifter", events: ["keyboardWillShow"], position: "first",
            onEvent: """
                field = context.first_responder
                context.post("viewShift", originY=-float(event["t"]), duration=0.25, curve=7)
                context.diagnose("info", "field %s at %g" % (field.id, context.screen.frame_in_screen(field).y), views=[field.id])
                """)
        var names: [String] = []
        let derived = try Scripts.replay(
            Scripts.session(shows: 2), [Configuration(command: command)],
            inspect: { plugins in
                names = plugins.map(\.name)
                #expect(plugins[0].requestedEvents == ["keyboardWillShow"])
                #expect(plugins[0].preferredPosition == .first)
                #expect(plugins[0].deliveries == 2)
            })
        #expect(names == ["Shifter"])
        #expect(derived.allSatisfy { $0.origin == .derived(by: "Shifter") })
        #expect(derived.map(\.event.name) == ["viewShift", "diagnostic", "viewShift", "diagnostic"])
        // The plugin's model follows the shifts the bus applied: the second delivery sees the root moved.
        #expect(derived[1].message == "field name at 600")
        #expect(derived[3].message == "field name at 599")
        if case .viewShift(let shift) = derived[2].event { #expect(shift.originY == -2) } else { Issue.record("not a shift") }
    }

    @Test("standard error lines become info diagnostics naming the plugin")
    func standardError() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"], onEvent: #"sys.stderr.write("thinking about %s\n" % event["event"]); sys.stderr.flush()"#)
        let derived = try Scripts.replay(Scripts.session(shows: 1), [Configuration(command: command)])
        #expect(derived.map(\.message) == ["thinking about keyboardWillShow"])
        #expect(derived.map(\.level) == [.info])
        #expect(derived.first?.origin == .derived(by: "Scripted"))
    }

    /// The error diagnostics of a replay in which every delivery fails the way `body` makes it.
    private func faults(_ body: String, timeout: Duration = .milliseconds(200), shows: Int = 6) throws -> [String] {
        let command = try Scripts.plugin(events: ["keyboardWillShow"], onEvent: body)
        var delivered = 0
        let derived = try Scripts.replay(
            Scripts.session(shows: shows), [Configuration(command: command, timeout: timeout)],
            before: { bus in bus.observe(.keyboardWillShow) { _ in delivered += 1 } })
        #expect(delivered == shows, "every event reached the in-process observer once")
        return derived.filter { $0.level == .error }.compactMap(\.message)
    }

    @Test("a plugin that crashes is reported with its signal, restarted three times, then disabled; the bus goes on")
    func crashRestartLimit() throws {
        let command = try Scripts.plugin(events: ["keyboardWillShow"], onEvent: "os.kill(os.getpid(), signal.SIGSEGV)")
        var delivered = 0
        var restarts = 0
        var disabled = false
        let derived = try Scripts.replay(
            Scripts.session(shows: 6), [Configuration(command: command)],
            before: { bus in bus.observe(.keyboardWillShow) { _ in delivered += 1 } },
            inspect: { plugins in
                restarts = plugins[0].restarts
                disabled = plugins[0].isDisabled
            })
        let errors = derived.filter { $0.level == .error }.compactMap(\.message)
        #expect(delivered == 6, "no event lost or delivered twice to the other observers")
        #expect(restarts == 3)
        #expect(disabled)
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { $0.hasPrefix("plugin 'Scripted' was killed by signal 11 (SIGSEGV)") })
        #expect(errors[0].contains("restarting it in 0.1 seconds (restart 1 of 3)"))
        #expect(errors[1].contains("restarting it in 0.2 seconds (restart 2 of 3)"))
        #expect(errors[3].contains("it failed 4 times, so it is disabled for the rest of the session"))
    }

    @Test("a plugin that exits mid-delivery is reported with its status")
    func exits() throws {
        let errors = try faults("sys.exit(4)", shows: 1)
        #expect(errors == ["plugin 'Scripted' exited with status 4; restarting it in 0.1 seconds (restart 1 of 3)"])
    }

    @Test("a plugin that hangs past the time limit is killed and reported")
    func hangs() throws {
        let started = ContinuousClock.now
        let errors = try faults("time.sleep(30)", timeout: .milliseconds(100), shows: 1)
        #expect(errors == ["plugin 'Scripted' did not answer keyboardWillShow within 0.1 seconds; restarting it in 0.1 seconds (restart 1 of 3)"])
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a plugin that writes something that is not the protocol is reported with what it wrote")
    func garbage() throws {
        let errors = try faults(#"print("hello there", flush=True)"#, shows: 1)
        #expect(
            errors == [
                "plugin 'Scripted' wrote something that is not the protocol (not a JSON object): hello there; standard output carries the protocol; write logs to standard error; restarting it in 0.1 seconds (restart 1 of 3)"
            ])
    }

    @Test("derived events the bus cannot take: an unknown name, a view that does not exist, an external event")
    func badDerivedEvents() throws {
        let unknown = try faults(#"context.post("teleport", view="name")"#, shows: 1)
        #expect(unknown.count == 1)
        #expect(unknown.first?.contains("derived a record the bus cannot accept") == true)
        #expect(unknown.first?.contains("teleport") == true)
        let ghost = try faults(#"context.post("focusChange", to="ghost")"#, shows: 1)
        #expect(
            ghost == ["plugin 'Scripted' derived focusChange for view 'ghost', which does not exist; restarting it in 0.1 seconds (restart 1 of 3)"])
        let external = try faults(#"context.post("didBeginEditing", view="name")"#, shows: 1)
        #expect(external.first?.hasPrefix("plugin 'Scripted' derived 'didBeginEditing', which is not an event plugins derive") == true)
    }

    @Test("a restarted plugin gets the screen it missed, and answers again")
    func restartBringsModelUpToDate() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"],
            onEvent: """
                \(Scripts.exitOnce(status: 9))
                covered = context.screen.covered_part()
                context.diagnose("info", "responder %s, keyboard at %g" % (context.first_responder.id, covered.y))
                """)
        let derived = try Scripts.replay(Scripts.session(shows: 3), [Configuration(command: command)])
        #expect(
            derived.map(\.message) == [
                "plugin 'Scripted' exited with status 9; restarting it in 0.1 seconds (restart 1 of 3)",
                "responder name, keyboard at 521",
                "responder name, keyboard at 521",
            ])
    }

    @Test("with FailureMode.stop, the first fault disables the plugin and calls onStop once")
    func stopMode() throws {
        let command = try Scripts.plugin(events: ["keyboardWillShow"], onEvent: "sys.exit(1)")
        var delivered = 0
        let derived = try Scripts.replay(
            Scripts.session(shows: 6), [Configuration(command: command, failureMode: .stop)],
            before: { bus in bus.observe(.keyboardWillShow) { _ in delivered += 1 } },
            inspect: { plugins in
                #expect(plugins[0].isDisabled)
                #expect(plugins[0].restarts == 0)
            })
        #expect(derived.compactMap(\.message) == ["plugin 'Scripted' exited with status 1; stopping (--plugin-failure stop)"])
        #expect(delivered == 1, "the replay stopped after the turn that failed")
    }

    @Test("a plugin that speaks another version is refused with both versions named, and told why")
    func versionMismatch() throws {
        let told = Scripts.root.appendingPathComponent("told-\(UUID().uuidString)").path
        let command = try Scripts.raw(
            """
            import json, sys
            sys.stdin.readline()
            print(json.dumps({"type": "hello", "protocol": "responder-bus-plugin", "version": 2, "name": "Future", "events": []}), flush=True)
            open(\(String(reflecting: told)), "w").write(sys.stdin.readline())
            """)
        #expect {
            _ = try ExternalPlugin(Configuration(command: command), header: Scripts.header)
        } throws: { error in
            let error = error as? ExternalPluginError
            return error?.code == .versionMismatch
                && error?.message.hasSuffix("it speaks version 2 of the protocol; this host speaks version 1") == true
        }
        // The refusal reached the plugin before it was ended.
        var message = ""
        for _ in 0..<100 where message.isEmpty {
            message = (try? String(contentsOfFile: told, encoding: .utf8)) ?? ""
            usleep(10_000)
        }
        #expect(message.contains(#""type":"error""#))
    }

    @Test("handshake failures: no such program, an exit before hello, a first line that is not hello, an unknown event")
    func handshakeFailures() throws {
        func failure(_ command: [String]) -> ExternalPluginError? {
            do {
                _ = try ExternalPlugin(Configuration(command: command, startTimeout: .seconds(5)), header: Scripts.header)
                return nil
            } catch {
                return error
            }
        }
        let missing = failure(["no-such-plugin-program-xyz"])
        #expect(missing?.code == .cannotStart)
        #expect(missing?.message.contains("No such file or directory") == true)
        let exits = failure(try Scripts.raw("import sys\nsys.stderr.write('no config\\n')\nsys.exit(2)\n"))
        #expect(exits?.code == .noHandshake)
        #expect(exits?.message.contains("exited with status 2 before its handshake; it said: no config") == true)
        // Its last words without a line break, and more of them than a pipe holds at once.
        let words = "import sys\nsys.stderr.write('x' * 100000 + '\\nno config, no newline')\nsys.exit(2)\n"
        let unfinished = failure(try Scripts.raw(words))
        // Each line cut short (the message names the plugin's last lines, not all it wrote).
        #expect(unfinished?.message.hasSuffix("it said: \(String(repeating: "x", count: 300))…\nno config, no newline") == true)
        let chatty = failure(try Scripts.raw("print('ready!', flush=True)\nimport sys\nsys.stdin.read()\n"))
        #expect(chatty?.code == .badHandshake)
        let unknown = failure(
            try Scripts.raw(
                """
                import json, sys
                sys.stdin.readline()
                print(json.dumps({"type": "hello", "protocol": "responder-bus-plugin", "version": 1, "name": "X", "events": ["tap"]}), flush=True)
                sys.stdin.read()
                """))
        #expect(unknown?.code == .badHandshake)
        #expect(unknown?.message.contains("it asks for 'tap', which is not an event of the log format") == true)
    }

    @Test("events a plugin did not ask for are sent as model updates, batched, never answered")
    func modelOnlyEventsAreNotAnswered() throws {
        // Asks for returnKey only: the keyboard events reach its model but never wait for it.
        let command = try Scripts.plugin(events: ["returnKey"], onEvent: "time.sleep(30)")
        let started = ContinuousClock.now
        let derived = try Scripts.replay(Scripts.session(shows: 6), [Configuration(command: command, timeout: .milliseconds(100))])
        #expect(derived.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a plugin that asks for turns decides once at the end of each turn, on the turn's final state")
    func turns() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillChangeFrame", "keyboardWillShow"], onEvent: "seen.append(event['event'])", prelude: "seen = []",
            onTurnEnd: """
                if seen:
                    context.diagnose("info", "turn at %g: %s; keyboard at %g" % (context.now, ",".join(seen), context.screen.covered_part().y))
                del seen[:]
                """)
        let log = """
            {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
            {"event":"keyboardWillChangeFrame","t":1,"end":[0,596,375,216]}
            {"event":"keyboardWillShow","t":1,"end":[0,521,375,291]}
            {"event":"keyboardWillChangeFrame","t":2,"end":[0,500,375,312]}

            """
        var observesTurns = false
        let derived = try Scripts.replay(log, [Configuration(command: command)], inspect: { observesTurns = $0[0].observesTurns })
        #expect(observesTurns)
        #expect(
            derived.compactMap(\.message) == [
                "turn at 1: keyboardWillChangeFrame,keyboardWillShow; keyboard at 521",
                "turn at 2: keyboardWillChangeFrame; keyboard at 500",
            ])
    }

    @Test("what a plugin derives at the end of a turn comes back to its model, and to itself when it asked, without a fault")
    func endOfTurnPostsComeBack() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow", "diagnostic"],
            onEvent: """
                if event["event"] == "keyboardWillShow":
                    context.diagnose("info", "root at %g" % context.screen.root.frame.y)
                """,
            onTurnEnd: """
                if context.screen.root.frame.y > -10:
                    context.post("viewShift", originY=context.screen.root.frame.y - 5, duration=0.25, curve=7)
                    context.diagnose("info", "moved")
                """)
        var restarts = -1
        let derived = try Scripts.replay(Scripts.session(shows: 3), [Configuration(command: command)], inspect: { restarts = $0[0].restarts })
        #expect(restarts == 0)
        #expect(derived.filter { $0.level == .error }.isEmpty, "\(derived.compactMap(\.message))")
        // The scene's turn moved the root to -5 and the next (didBeginEditing) to -10: each shift
        // reached the plugin's model before the next turn, so it stopped there.
        #expect(derived.compactMap(\.message).filter { $0 == "moved" }.count == 2)
        #expect(derived.compactMap(\.message).filter { $0.hasPrefix("root at") } == ["root at -10", "root at -10", "root at -10"])
    }

    @Test("a plugin that writes much to standard error in one delivery is not blocked by it; the first 100 lines are said")
    func chattyStandardError() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"], onEvent: #"for i in range(3000): sys.stderr.write("line %d of a long story\n" % i)"#)
        let derived = try Scripts.replay(Scripts.session(shows: 1), [Configuration(command: command)])
        #expect(derived.filter { $0.level == .error }.isEmpty)
        let infos = derived.filter { $0.level == .info }.compactMap(\.message)
        #expect(infos.count == 101)
        #expect(infos[99] == "line 99 of a long story")
        #expect(infos.last == "plugin 'Scripted' wrote 2900 more lines to standard error; dropped")
    }

    @Test("a line longer than 16 MiB is a fault, not a reason to fill memory")
    func lineTooLong() throws {
        let errors = try faults(#"sys.stdout.write("x" * (17 << 20)); sys.stdout.flush(); time.sleep(30)"#, timeout: .seconds(5), shows: 1)
        #expect(errors == ["plugin 'Scripted' wrote a line longer than 16 MiB; restarting it in 0.1 seconds (restart 1 of 3)"])
    }

    @Test("a restarted plugin's model has the screen's size, the root where it rests and its shift")
    func restartSnapshotKeepsTheShift() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"],
            onEvent: """
                \(Scripts.exitOnce(status: 9, when: #"event["t"] >= 2"#))
                context.diagnose("info", "%gx%g, root at %g" % (context.screen.width, context.screen.height, context.screen.root.frame.y))
                """)
        let derived = try Scripts.replay(
            Scripts.session(shows: 4), [Configuration(command: command)],
            before: { bus in
                try bus.register(KeyboardAvoidance())
                return nil
            })
        let scripted = derived.filter { $0.origin == .derived(by: "Scripted") }
        #expect(
            scripted.filter { $0.level == .error }.compactMap(\.message) == [
                "plugin 'Scripted' exited with status 9; restarting it in 0.1 seconds (restart 1 of 3)"
            ])
        // Shows at t = 1, 3 and 4 (it exited at 2). Avoidance had moved the root up by then; the
        // restarted plugin sees the same shift at 3 and 4 that the bus has.
        let said = scripted.filter { $0.level == .info }.compactMap(\.message)
        #expect(said.count == 3, "\(said)")
        #expect(said.first == "375x812, root at 0")
        #expect(said.last == said[said.count - 2], "\(said)")
        #expect(said.last?.hasPrefix("375x812, root at -") == true, "\(said)")
    }

    @Test("writing to a plugin that is gone is a fault, not a SIGPIPE that ends the host")
    func writeToDeadPlugin() throws {
        let command = try Scripts.raw(
            """
            import json, sys
            sys.stdin.readline()
            print(json.dumps({"type": "hello", "protocol": "responder-bus-plugin", "version": 1, "name": "Gone", "events": ["keyboardWillShow"]}), flush=True)
            sys.exit(5)
            """)
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: Scripts.header.screen))
        let plugin = try ExternalPlugin(Configuration(command: command, maximumRestarts: 0), header: Scripts.header)
        try bus.register(plugin)
        usleep(300_000)  // it has exited: its input's reader is gone
        var errors: [String] = []
        let token = bus.observe(.diagnostic) { if $0.payload.level == .error { errors.append($0.payload.message) } }
        defer { token.cancel() }
        bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
        loop.runUntilQuiet()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("plugin 'Gone' exited with status 5") == true, "\(errors)")
        #expect(plugin.isDisabled)
    }

    @Test("command lines are split like a shell splits them, without one")
    func words() throws {
        #expect(try Configuration.words(of: "python3 my_plugin.py") == ["python3", "my_plugin.py"])
        #expect(try Configuration.words(of: #"python3 'my plugin.py' --gap=8"#) == ["python3", "my plugin.py", "--gap=8"])
        #expect(try Configuration.words(of: #"run "a \"b\" c" d\ e $HOME"#) == ["run", #"a "b" c"#, "d e", "$HOME"])
        #expect(try Configuration.words(of: "  a\t\tb  ") == ["a", "b"])
        #expect(try Configuration.words(of: "a '' b") == ["a", "", "b"])
        #expect(throws: ExternalPluginError.self) { try Configuration.words(of: "a 'b") }
        #expect(throws: ExternalPluginError.self) { try Configuration.words(of: #"a "b"#) }
        #expect(throws: ExternalPluginError.self) { try Configuration.words(of: "a \\") }
        #expect(throws: ExternalPluginError.self) { try Configuration.words(of: "   ") }
    }
}
