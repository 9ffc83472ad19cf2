"""Says, each time the keyboard comes up, which field it came up for — or that no field was
focused yet (a text view's keyboard comes before its didBeginEditing). It watches the keyboard's
frame changes as well as its shows: a log imported from a console mostly carries
keyboardWillChangeFrame alone.

Replace this with your plugin: list the events you want answered, read the screen through the
context, and post what you decide through it.

    responder-bus replay session.jsonl --plugin-command 'python3 __PluginName__.py'
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from responder_bus_plugin import Plugin, run  # noqa: E402


class __PluginName__(Plugin):
    # The name in the "by" of what it derives; unique in the pipeline.
    name = "__PluginName__"
    # The events it is asked about (the model events reach its screen model anyway).
    events = ["keyboardWillShow", "keyboardWillChangeFrame", "keyboardWillHide"]
    # first, last, before:NAME or after:NAME; None: last.
    position = None

    def on_start(self, screen, settings):
        # Whether the keyboard was on the screen after the last keyboard event.
        self.keyboard_was_up = False

    def on_event(self, event, context):
        # The model has applied the event: the keyboard is up when it is shown with its top on the screen.
        frame = context.keyboard.frame
        up = frame is not None and frame.height > 0 and frame.y < context.screen.height
        came_up = up and not self.keyboard_was_up
        self.keyboard_was_up = up
        if not came_up:
            return
        field = context.first_responder
        if field is None:
            context.diagnose("info", "the keyboard showed for no field yet")
        else:
            context.diagnose("info", "the keyboard showed for '%s'" % field.id, views=[field.id])


if __name__ == "__main__":
    sys.exit(run(__PluginName__()))
