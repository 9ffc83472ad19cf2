"""Says, each time the keyboard shows, which field it showed for — or that no field was focused
yet (a text view's keyboard comes before its didBeginEditing).

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
    sys.exit(run(__PluginName__()))
