"""An out-of-process plugin: password fields keep 40 points above the keyboard (the plugin guide's
PasswordGap, in Python). It moves nothing: it sets each password field's gap in the host's model
when a scene arrives, and KeyboardAvoidance, placed after it, reads the gap.

    responder-bus replay session.jsonl --plugin-command 'python3 PluginKits/python/examples/password_gap.py'
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from responder_bus_plugin import Plugin, run  # noqa: E402


class PasswordGap(Plugin):
    name = "PasswordGap"
    events = ["scene"]
    position = "before:KeyboardAvoidance"
    gap = 40

    def on_event(self, event, context):
        for view in context.screen.views.values():
            if view.is_text_input and view.id.lower().endswith("password") and view.keyboard_distance != self.gap:
                context.set_view_settings(view.id, keyboard_distance=self.gap)


if __name__ == "__main__":
    sys.exit(run(PasswordGap()))
