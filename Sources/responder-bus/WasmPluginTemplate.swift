/// The files `responder-bus new-plugin NAME --language c-wasm|swift-wasm` writes: a WebAssembly
/// plugin built with the Swift toolchain alone, the author kit beside it, a build script that makes
/// `NAME.wasm`, and a test script that runs the module through `responder-bus` on two small sessions
/// and through `check-plugin`.
struct WasmPluginTemplate {
    enum Language {
        case c, swift
    }

    let name: String
    let language: Language
    /// The kit's files, by name, read from the checkout (`PluginKits/c-wasm` or
    /// `PluginKits/swift-wasm`).
    let kit: [(String, String)]
    /// The `responder-bus` the test script runs (the one that wrote the plugin), unless
    /// `RESPONDER_BUS` says otherwise.
    let responderBus: String

    /// The kit's files a plugin of `language` needs.
    static func kitFiles(_ language: Language) -> (folder: String, files: [String]) {
        switch language {
        case .c: ("PluginKits/c-wasm", ["responder_bus_plugin.h"])
        case .swift: ("PluginKits/swift-wasm", ["ResponderBusPlugin.swift", "runtime.c", "build.sh"])
        }
    }

    var files: [(String, String)] {
        var files: [(String, String)] = kit.map { name, text in (name == "build.sh" ? "kit-build.sh" : name, text) }
        switch language {
        case .c: files.append(("\(name).c", cPlugin))
        case .swift: files.append(("\(name).swift", swiftPlugin))
        }
        files += [
            ("build.sh", buildScript),
            ("test.sh", testScript),
            ("sessions/focused.jsonl", Self.focusedSession),
            ("sessions/unfocused.jsonl", Self.unfocusedSession),
            ("README.md", readme),
            (".gitignore", "*.wasm\n*.o\n"),
        ]
        return files
    }

    /// The files the command marks executable.
    static let scripts: Set<String> = ["build.sh", "test.sh", "kit-build.sh"]

    var cPlugin: String {
        """
        /*
         * \(name): says, each time the keyboard shows, which field it showed for — or that no field
         * was focused yet (a text view's keyboard comes before its didBeginEditing).
         *
         * Replace this with your plugin: ask for the events you want in rb_plugin_init, read the screen
         * through the rb_ functions, and post what you decide through them.
         *
         *   ./build.sh && responder-bus replay session.jsonl --plugin \(name).wasm
         */
        #include "responder_bus_plugin.h"

        int32_t rb_plugin_init(void) {
            rb_set_name("\(name)");  /* the "by" of what it derives; unique in the pipeline */
            rb_observe(RB_KEYBOARD_WILL_SHOW);
            /* rb_set_position(RB_AFTER, "KeyboardAvoidance");  -- else it goes last */
            return 0;
        }

        int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
            static const char prefix[] = "the keyboard showed for '";
            char message[160];
            int32_t field = rb_first_responder();
            if (field < 0) {
                rb_log("the keyboard showed for no field yet");
                return 0;
            }
            int32_t used = 0;
            for (; prefix[used]; used++) message[used] = prefix[used];
            int32_t length = rb_view_id(field, message + used, (int32_t)sizeof message - used - 1);
            used += length < (int32_t)sizeof message - used - 1 ? length : (int32_t)sizeof message - used - 1;
            message[used++] = '\\'';
            rb_diagnose_n(RB_INFO, message, used, field);
            return 0;
        }

        """
    }

    var swiftPlugin: String {
        """
        // \(name): says, each time the keyboard shows, which field it showed for — or that no field
        // was focused yet (a text view's keyboard comes before its didBeginEditing).
        //
        // Replace this with your plugin: ask for the events you want in pluginInit, read the screen
        // through the kit's functions, and post what you decide through them.
        //
        //   ./build.sh && responder-bus replay session.jsonl --plugin \(name).wasm

        func pluginInit() -> Int32 {
            setName("\(name)")  // the "by" of what it derives; unique in the pipeline
            observe(.keyboardWillShow)
            // setPosition(.after("KeyboardAvoidance"))  -- else it goes last
            return 0
        }

        func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32 {
            guard let field = firstResponder() else {
                log("the keyboard showed for no field yet")
                return 0
            }
            diagnose(.info, "the keyboard showed for '" + viewID(field) + "'", view: field)
            return 0
        }

        """
    }

    var buildScript: String {
        let toolchain = #"bin=$(dirname "$(readlink -f "$(command -v swiftc)")")"#
        switch language {
        case .c:
            return """
                #!/bin/sh
                # Builds \(name).wasm with the Swift toolchain's clang (no SDK, no WASI).
                set -eu
                cd "$(dirname "$0")"
                \(toolchain)
                "$bin/clang" --target=wasm32 -nostdlib -O2 -Wl,--no-entry -I . -o \(name).wasm \(name).c
                echo "built \(name).wasm"

                """
        case .swift:
            return """
                #!/bin/sh
                # Builds \(name).wasm from \(name).swift and the kit with the Swift toolchain alone
                # (Embedded Swift for wasm32-unknown-none-wasm; no SDK, no WASI).
                set -eu
                cd "$(dirname "$0")"
                ./kit-build.sh \(name).swift \(name).wasm
                echo "built \(name).wasm"

                """
        }
    }

    var testScript: String {
        """
        #!/bin/sh
        # Builds the plugin, runs it through responder-bus on the two sessions in sessions/, and runs
        # the conformance checks on it: exit 0 when all pass. RESPONDER_BUS names another responder-bus
        # (one built with the WebAssembly trait, on by default).
        set -eu
        cd "$(dirname "$0")"
        RESPONDER_BUS=${RESPONDER_BUS:-\(responderBus)}
        ./build.sh
        failed=0
        expect() {
            if "$RESPONDER_BUS" replay "sessions/$1.jsonl" --no-project-file --plugin \(name).wasm --format jsonl | grep -qF "$2"; then
                echo "✓ $1: $2"
            else
                echo "✗ $1: no '$2'"
                failed=1
            fi
        }
        expect focused '"message":"the keyboard showed for '"'"'email'"'"'"'
        expect unfocused '"message":"the keyboard showed for no field yet"'
        "$RESPONDER_BUS" check-plugin \(name).wasm || failed=1
        [ "$failed" = 0 ] && echo "all tests passed"
        exit "$failed"

        """
    }

    static let focusedSession = """
        {"format":"responder-bus-log","screen":{"height":812,"width":375},"version":1}
        {"event":"scene","root":{"children":[{"frame":[20,600,335,44],"id":"email","kind":"textField","tag":1}],"frame":[0,0,375,812],"id":"root","kind":"view"},"t":0}
        {"event":"didBeginEditing","t":1,"view":"email"}
        {"begin":[0,812,375,0],"curve":7,"duration":0.25,"end":[0,521,375,291],"event":"keyboardWillShow","t":1.001}

        """

    static let unfocusedSession = """
        {"format":"responder-bus-log","screen":{"height":812,"width":375},"version":1}
        {"event":"scene","root":{"children":[{"frame":[20,300,335,120],"id":"notes","kind":"textView","tag":1}],"frame":[0,0,375,812],"id":"root","kind":"view"},"t":0}
        {"begin":[0,812,375,0],"curve":7,"duration":0.25,"end":[0,521,375,291],"event":"keyboardWillShow","t":1}
        {"event":"didBeginEditing","t":1.001,"view":"notes"}

        """

    var readme: String {
        let source = language == .c ? "\(name).c" : "\(name).swift"
        let kitNote =
            language == .c
            ? "- `responder_bus_plugin.h` — the kit: the ABI's entry points around your `rb_plugin_init` and\n  `rb_plugin_event`, and the host's functions (`rb_first_responder`, `rb_view_info`, `rb_post_focus_change`, …)."
            : "- `ResponderBusPlugin.swift` — the kit: the ABI's entry points around your `pluginInit` and\n  `pluginEvent`, and the host's functions as Swift (`firstResponder()`, `viewInfo(_:)`, `postFocusChange(from:to:)`, …);\n  `kit-build.sh` compiles it with your file as Embedded Swift, and `runtime.c` (the few C functions\n  the embedded standard library needs), and links the module."
        return """
            # \(name)

            A ResponderBus plugin in \(language == .c ? "C" : "Embedded Swift"), built into a WebAssembly module that
            `responder-bus` runs in process, sandboxed: it reaches nothing but the host's functions (no files,
            no clock but the replay's, no network), a loop is stopped by its fuel, and a trap is reported and
            the module replaced by a fresh instance — the replay goes on.

            ```sh
            ./build.sh                                        # makes \(name).wasm
            ./test.sh                                         # builds, replays sessions/, runs check-plugin
            responder-bus replay session.jsonl --plugin \(name).wasm
            ```

            `responder-bus` must be built with WebAssembly plugins: the package's `WebAssembly` trait,
            on by default (`new-plugin` refuses to write this plugin from a build without it).

            - `\(source)` — the plugin.
            \(kitNote)
            - `sessions/` — two small sessions the test replays: a field focused before the keyboard, and a
              text view whose keyboard comes first.

            The ABI (version 1) is the article "WebAssembly plugin ABI" of the ResponderBusWasm module.

            """
    }
}
