"""An out-of-process plugin: a chat input bar stays on the keyboard's top (the plugin guide's
ChatInputBar, in Python). The view holding a text input at the bottom of the safe area follows the
keyboard, and avoidance leaves the screen alone for the field inside it; KeyboardAvoidance moves it.

    responder-bus replay PluginKits/sessions/chat-input-bar.jsonl --plugin-command 'python3 PluginKits/python/examples/chat_input_bar.py'
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from responder_bus_plugin import Plugin, run  # noqa: E402


class ChatInputBar(Plugin):
    name = "ChatInputBar"
    events = ["scene"]
    position = "before:KeyboardAvoidance"

    def on_event(self, event, context):
        screen = context.screen
        safe_bottom = screen.height - screen.safe_area.get("bottom", 0)
        for field in [view for view in screen.views.values() if view.is_text_input]:
            bar = field.parent
            if bar is None or bar is screen.root or abs(screen.frame_in_screen(bar).max_y - safe_bottom) >= 1:
                continue
            if bar.avoids_keyboard or not bar.follows_keyboard:
                context.set_view_settings(bar.id, avoids_keyboard=False, follows_keyboard=True)


if __name__ == "__main__":
    sys.exit(run(ChatInputBar()))
