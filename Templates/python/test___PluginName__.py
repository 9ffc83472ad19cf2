"""The plugin, driven through the protocol as responder-bus drives it: python3 -m unittest"""

import io
import json
import unittest

from responder_bus_plugin import run
from __PluginName__ import __PluginName__

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
    status = run(__PluginName__(), stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), stdout=output)
    return status, [json.loads(line) for line in output.getvalue().splitlines()]


class __PluginName__Tests(unittest.TestCase):
    def test_handshake(self):
        status, lines = exchange(HELLO)
        self.assertEqual(status, 0)
        self.assertEqual(lines[0]["type"], "hello")
        self.assertEqual(lines[0]["name"], "__PluginName__")
        self.assertEqual(lines[0]["events"], ["keyboardWillShow", "keyboardWillChangeFrame", "keyboardWillHide"])

    def test_reports_the_field(self):
        status, lines = exchange(HELLO, SCENE, BEGIN, SHOW)
        self.assertEqual(status, 0)
        self.assertEqual(lines[1]["event"], "diagnostic")
        self.assertEqual(lines[1]["message"], "the keyboard showed for 'email'")
        self.assertEqual(lines[2], {"type": "done", "seq": 1})

    def test_frame_changes_alone(self):
        # An imported console: no keyboardWillShow, only frame changes; said once per coming up.
        def change(seq, t, y):
            return {"deliver": True, "seq": seq, "event": "keyboardWillChangeFrame", "t": t, "end": [0, y, 375, 291]}
        status, lines = exchange(HELLO, SCENE, BEGIN, change(1, 1.001, 521), change(2, 1.5, 500), change(3, 2, 812), change(4, 3, 521))
        self.assertEqual(status, 0)
        said = [line["message"] for line in lines if line.get("event") == "diagnostic"]
        self.assertEqual(said, ["the keyboard showed for 'email'", "the keyboard showed for 'email'"])

    def test_no_field_yet(self):
        status, lines = exchange(HELLO, SCENE, SHOW)
        self.assertEqual(lines[1]["message"], "the keyboard showed for no field yet")
        self.assertEqual(lines[2], {"type": "done", "seq": 1})


if __name__ == "__main__":
    unittest.main()
