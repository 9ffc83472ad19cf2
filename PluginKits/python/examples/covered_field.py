"""An out-of-process plugin: warns when the keyboard has shown over the focused field.

    responder-bus replay session.jsonl --plugin-command 'python3 PluginKits/python/examples/covered_field.py'
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from responder_bus_plugin import Plugin, run  # noqa: E402


class CoveredField(Plugin):
    name = "CoveredField"
    events = ["keyboardDidShow"]
    position = "last"

    def on_event(self, event, context):
        field = context.first_responder
        covered = context.screen.covered_part()
        if field is None or covered is None:
            return
        frame = context.screen.frame_in_screen(field)
        if frame.max_y > covered.y + 0.5:
            context.diagnose(
                "warning",
                "the keyboard covers %s by %g points" % (field.id, frame.max_y - covered.y),
                views=[field.id],
            )


if __name__ == "__main__":
    sys.exit(run(CoveredField()))
