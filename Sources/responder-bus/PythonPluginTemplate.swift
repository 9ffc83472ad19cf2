/// The files `responder-bus new-plugin NAME --language python` writes: a plugin that runs out of
/// process, the author module beside it, and a passing test (standard library only).
struct PythonPluginTemplate {
    let name: String
    /// The author module's source (`PluginKits/python/responder_bus_plugin.py` of the checkout).
    let authorModule: String

    var files: [(String, String)] {
        [
            ("\(name).py", plugin),
            ("responder_bus_plugin.py", authorModule),
            ("test_\(name).py", tests),
            ("README.md", readme),
            (".gitignore", "__pycache__/\n"),
        ]
    }

    var plugin: String {
        """
        \"\"\"Says, each time the keyboard shows, which field it showed for — or that no field was focused
        yet (a text view's keyboard comes before its didBeginEditing).

        Replace this with your plugin: list the events you want answered, read the screen through the
        context, and post what you decide through it.

            responder-bus replay session.jsonl --plugin-command 'python3 \(name).py'
        \"\"\"

        import os
        import sys

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

        from responder_bus_plugin import Plugin, run  # noqa: E402


        class \(name)(Plugin):
            # The name in the "by" of what it derives; unique in the pipeline.
            name = "\(name)"
            # The events it is asked about (the model events reach its screen model anyway).
            events = ["keyboardWillShow"]
            # first, last, before:NAME or after:NAME; None: last.
            position = None

            def on_event(self, event, context):
                field = context.first_responder
                if field is None:
                    context.diagnose("info", "the keyboard showed for no field yet")
                else:
                    context.diagnose("info", "the keyboard showed for '%s'" % field.id, views=[field.id])


        if __name__ == "__main__":
            sys.exit(run(\(name)()))

        """
    }

    var tests: String {
        """
        \"\"\"The plugin, driven through the protocol as responder-bus drives it: python3 -m unittest\"\"\"

        import io
        import json
        import unittest

        from responder_bus_plugin import run
        from \(name) import \(name)

        HELLO = {"type": "hello", "protocol": "responder-bus-plugin", "version": 1, "settings": {},
                 "header": {"format": "responder-bus-log", "version": 1, "screen": {"width": 375, "height": 812}}}
        SCENE = {"deliver": False, "event": "scene", "t": 0, "root": {
            "id": "root", "kind": "view", "frame": [0, 0, 375, 812],
            "children": [{"id": "email", "kind": "textField", "frame": [20, 600, 335, 44]}]}}
        BEGIN = {"deliver": False, "event": "didBeginEditing", "t": 1, "view": "email"}
        SHOW = {"deliver": True, "seq": 1, "event": "keyboardWillShow", "t": 1.001,
                "begin": [0, 812, 375, 0], "end": [0, 521, 375, 291], "duration": 0.25, "curve": 7}


        def exchange(*messages):
            output = io.StringIO()
            status = run(\(name)(), stdin=io.StringIO("".join(json.dumps(m) + "\\n" for m in messages)), stdout=output)
            return status, [json.loads(line) for line in output.getvalue().splitlines()]


        class \(name)Tests(unittest.TestCase):
            def test_handshake(self):
                status, lines = exchange(HELLO)
                self.assertEqual(status, 0)
                self.assertEqual(lines[0]["type"], "hello")
                self.assertEqual(lines[0]["name"], "\(name)")
                self.assertEqual(lines[0]["events"], ["keyboardWillShow"])

            def test_reports_the_field(self):
                status, lines = exchange(HELLO, SCENE, BEGIN, SHOW)
                self.assertEqual(status, 0)
                self.assertEqual(lines[1]["event"], "diagnostic")
                self.assertEqual(lines[1]["message"], "the keyboard showed for 'email'")
                self.assertEqual(lines[2], {"type": "done", "seq": 1})

            def test_no_field_yet(self):
                status, lines = exchange(HELLO, SCENE, SHOW)
                self.assertEqual(lines[1]["message"], "the keyboard showed for no field yet")
                self.assertEqual(lines[2], {"type": "done", "seq": 1})


        if __name__ == "__main__":
            unittest.main()

        """
    }

    var readme: String {
        """
        # \(name)

        A ResponderBus plugin in Python, run out of process (standard library only).

        ```sh
        python3 -m unittest
        responder-bus replay session.jsonl --plugin-command 'python3 \(name).py'
        responder-bus check-plugin -- python3 \(name).py
        ```

        - `\(name).py` — the plugin: subclass `Plugin`, list `events`, implement `on_event` (and
          `on_turn_end` to decide once per loop turn, on the turn's final state).
        - `responder_bus_plugin.py` — the author module: the `responder-bus-plugin` protocol on
          standard input and output, and the screen model (`context.screen`, `context.first_responder`,
          `context.keyboard`, `context.post`, `context.diagnose`). Standard output belongs to the
          protocol: print to standard error (each line becomes an info diagnostic).
        - `test_\(name).py` — drives the plugin through the protocol, as `responder-bus` does.

        A crash, a hang or a line that is not the protocol is reported and the replay goes on
        (`--plugin-failure stop` to end it instead).

        """
    }
}
