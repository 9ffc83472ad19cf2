"""Write ResponderBus plugins in Python: the `responder-bus-plugin` protocol, version 1.

Standard library only. A plugin is a class with a name, the events it wants and a method per
event; this module speaks the protocol on standard input and output, keeps a model of the screen
(views, frames, first responder, keyboard) from the events the host sends, and gives each call the
same context as a Swift plugin: the screen, the first responder, post and diagnose.

    from responder_bus_plugin import Plugin, run

    class ReturnCounter(Plugin):
        name = "ReturnCounter"
        events = ["returnKey"]

        def on_event(self, event, context):
            context.diagnose("info", "Return on " + event["view"], views=[event["view"]])

    if __name__ == "__main__":
        run(ReturnCounter())

Standard output belongs to the protocol: print to standard error (the host turns each line into
an info diagnostic), or use context.diagnose.
"""

import io
import json
import sys

PROTOCOL = "responder-bus-plugin"
VERSION = 1

# The keyboard's events and the hides among them, as a host that does not send its own lists
# ("keyboardEvents", "keyboardHides" in its hello) means them. run() sets KEYBOARD_EVENTS and
# HIDE_EVENTS to the host's lists before the plugin answers.
DEFAULT_KEYBOARD_EVENTS = (
    "keyboardWillShow", "keyboardDidShow", "keyboardWillHide", "keyboardDidHide",
    "keyboardWillChangeFrame", "keyboardDidChangeFrame",
)
DEFAULT_HIDE_EVENTS = ("keyboardWillHide", "keyboardDidHide")
KEYBOARD_EVENTS = DEFAULT_KEYBOARD_EVENTS
HIDE_EVENTS = DEFAULT_HIDE_EVENTS



# set_view_settings's default: keep the view's current value.
KEEP = object()

class Rect:
    """A rectangle in points: x, y, width, height (the log format's order)."""

    def __init__(self, x, y, width, height):
        self.x, self.y, self.width, self.height = float(x), float(y), float(width), float(height)

    @classmethod
    def of(cls, values):
        return None if values is None else cls(*values)

    @property
    def max_x(self):
        return self.x + self.width

    @property
    def max_y(self):
        return self.y + self.height

    def offset(self, dx, dy):
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def intersection(self, other):
        x0, y0 = max(self.x, other.x), max(self.y, other.y)
        x1, y1 = min(self.max_x, other.max_x), min(self.max_y, other.max_y)
        if x0 >= x1 or y0 >= y1:
            return None
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def as_list(self):
        return [self.x, self.y, self.width, self.height]

    def __eq__(self, other):
        return isinstance(other, Rect) and self.as_list() == other.as_list()

    def __repr__(self):
        return "Rect(%g, %g, %g, %g)" % tuple(self.as_list())


class View:
    """One view of the scene, as the log's `scene` record describes it."""

    def __init__(self, spec, parent=None):
        self.id = spec["id"]
        self.kind = spec.get("kind", "view")
        self.frame = Rect.of(spec.get("frame", [0, 0, 0, 0]))
        self.tag = spec.get("tag")
        self.is_hidden = bool(spec.get("hidden", False))
        self.is_enabled = bool(spec.get("enabled", True))
        self.keyboard_distance = spec.get("keyboardDistance")
        # A password field (UIKit's isSecureTextEntry), the log's optional "secure": only a text
        # input is one, as in the bus's model; written only when true.
        self.is_secure = self.is_text_input and spec.get("secure") is True
        # Set by a derived viewSettings (a plugin's per-view policy); a scene says nothing of it.
        self.avoids_keyboard = True
        # Set by a derived viewSettings too: the view's bottom follows the keyboard's top.
        self.follows_keyboard = False
        offset = spec.get("contentOffset") or [0, 0]
        self.content_offset_x = float(offset[0])
        self.content_offset_y = float(offset[1])
        self.bottom_inset = 0.0
        self.parent = parent
        self.children = [View(child, self) for child in spec.get("children", [])]

    @property
    def is_text_input(self):
        """Whether it can be first responder (the bus's rule: text fields and text views)."""
        return self.kind in ("textField", "textView")

    @property
    def secure(self):
        """The log's name for `is_secure`: whether this text input hides what is typed."""
        return self.is_secure

    @property
    def is_avoiding_keyboard(self):
        """Whether keyboard avoidance applies to the view: its own avoids_keyboard and every
        ancestor's are on (the bus's ViewNode.isAvoidingKeyboard)."""
        view = self
        while view is not None:
            if not view.avoids_keyboard:
                return False
            view = view.parent
        return True

    def subtree(self):
        yield self
        for child in self.children:
            yield from child.subtree()


class Keyboard:
    """Where the keyboard is: this app's own keyboard events, by the bus's rules."""

    def __init__(self):
        self.latest = None
        self.is_hidden = True

    def note(self, name, record):
        if record.get("isLocal") is False:
            return
        if name in HIDE_EVENTS or record.get("end") is not None:
            self.latest = record
            self.is_hidden = name in HIDE_EVENTS

    @property
    def frame(self):
        if self.is_hidden or self.latest is None:
            return None
        return Rect.of(self.latest.get("end"))


class Screen:
    """The model the host keeps, rebuilt here from the model events it always sends."""

    def __init__(self, header):
        size = header.get("screen", {})
        self.width = float(size.get("width", 0))
        self.height = float(size.get("height", 0))
        self.safe_area = header.get("safeArea") or {}
        self.root = None
        self.views = {}
        self.first_responder_id = None
        self.last_field_action = None
        self.keyboard = Keyboard()

    def view(self, view_id):
        return self.views.get(view_id)

    @property
    def first_responder(self):
        return self.views.get(self.first_responder_id)

    def frame_in_screen(self, view):
        """The view's frame in screen coordinates: its ancestors' origins added, the content offsets
        of the scroll views among them taken away (the bus's Screen.frameInScreen)."""
        frame = view.frame
        parent = view.parent
        while parent is not None:
            dx, dy = parent.frame.x, parent.frame.y
            if parent.kind == "scrollView":
                dx -= parent.content_offset_x
                dy -= parent.content_offset_y
            frame = frame.offset(dx, dy)
            parent = parent.parent
        return frame

    def covered_part(self):
        """The part of the screen this app's keyboard covers, or None (the bus's rule)."""
        end = self.keyboard.frame
        if end is None or end.width == 0 or end.height == 0:
            return None
        part = end.intersection(Rect(0, 0, self.width, self.height))
        if part is None or end.max_y < self.height - 0.5:
            return None
        return part

    def apply(self, record):
        name = record["event"]
        if name == "scene":
            self.root = View(record["root"])
            self.views = {view.id: view for view in self.root.subtree()}
            self.first_responder_id = None
            self.last_field_action = record.get("lastFieldAction")
        elif name == "setFrame":
            view = self.views.get(record["view"])
            if view is not None:
                view.frame = Rect.of(record["frame"])
        elif name == "screen":
            self.width = float(record.get("width", self.width))
            self.height = float(record.get("height", self.height))
            if record.get("safeArea") is not None:
                self.safe_area = record["safeArea"]
        elif name == "didBeginEditing":
            self._set_first_responder(record["view"])
        elif name in ("didEndEditing", "resign"):
            if self.first_responder_id == record["view"]:
                self.first_responder_id = None
        elif name == "focusChange":
            self._set_first_responder(record.get("to"))
        elif name == "viewShift" and self.root is not None:
            self.root.frame = Rect(self.root.frame.x, record["originY"], self.root.frame.width, self.root.frame.height)
        elif name == "scroll":
            view = self.views.get(record["view"])
            if view is not None and view.kind == "scrollView":
                view.content_offset_y = float(record["contentOffsetY"])
                view.bottom_inset = float(record["bottomInset"])
        elif name == "viewSettings":
            view = self.views.get(record["view"])
            if view is not None:
                view.keyboard_distance = record.get("keyboardDistance")
                view.avoids_keyboard = bool(record.get("avoidsKeyboard", True))
                view.follows_keyboard = bool(record.get("followsKeyboard", False))
        elif name == "viewMove":
            view = self.views.get(record["view"])
            if view is not None:
                view.frame = Rect.of(record["frame"])
        elif name in KEYBOARD_EVENTS:
            self.keyboard.note(name, record)


    def _set_first_responder(self, view_id):
        # As the bus does: only a text input that exists can become first responder.
        if view_id is None:
            self.first_responder_id = None
            return
        view = self.views.get(view_id)
        if view is not None and view.is_text_input:
            self.first_responder_id = view_id


class Context:
    """What a plugin sees during one delivery: the same as a Swift plugin's context."""

    def __init__(self, plugin_name, screen, now, settings):
        self.plugin_name = plugin_name
        self.screen = screen
        self.now = now
        self.settings = settings
        self.posted = []

    @property
    def first_responder(self):
        return self.screen.first_responder

    @property
    def keyboard(self):
        return self.screen.keyboard

    def post(self, event, **fields):
        """Derives an event of the log format: post("viewShift", originY=-120, duration=0.25, curve=7)."""
        record = dict(fields)
        record["event"] = event
        self.posted.append(record)

    def set_view_settings(self, view_id, keyboard_distance=KEEP, avoids_keyboard=None, follows_keyboard=None):
        """Derives a viewSettings: the gap avoidance keeps for the view (None for avoidance's default),
        whether avoidance handles it and its subtree at all, and whether its bottom follows the
        keyboard's top. A setting left out keeps the view's current value in this plugin's model (the
        record gives all three, as the bus's ViewSettings does). The host applies it to its model when
        it is delivered, after the event it answers has reached every plugin; KeyboardAvoidance then
        decides again. When two plugins set one view, the later one wins."""
        view = self.screen.views.get(view_id)
        if keyboard_distance is KEEP:
            keyboard_distance = view.keyboard_distance if view is not None else None
        if avoids_keyboard is None:
            avoids_keyboard = view.avoids_keyboard if view is not None else True
        if follows_keyboard is None:
            follows_keyboard = view.follows_keyboard if view is not None else False
        fields = {"view": view_id, "avoidsKeyboard": bool(avoids_keyboard)}
        if follows_keyboard:
            fields["followsKeyboard"] = True
        if keyboard_distance is not None:
            fields["keyboardDistance"] = keyboard_distance
        self.post("viewSettings", **fields)

    def move_view(self, view_id, frame, duration=0.25, curve=7):
        """Derives a viewMove: the view's new frame ([x, y, width, height] or a Rect, in its parent's
        coordinates), as a decision of this plugin's (a chat input bar onto the keyboard's top)."""
        if isinstance(frame, Rect):
            frame = [frame.x, frame.y, frame.width, frame.height]
        fields = {"view": view_id, "frame": [float(v) for v in frame], "duration": duration, "curve": curve}
        self.post("viewMove", **fields)

    def diagnose(self, level, message, views=(), metadata=None):
        """Derives a diagnostic ("info", "warning" or "error") naming the views it is about."""
        fields = {"level": level, "message": message}
        if views:
            fields["views"] = list(views)
        if metadata:
            fields["metadata"] = dict(metadata)
        self.post("diagnostic", **fields)


class Plugin:
    """Subclass it: set name and events (and position: first, last, before:NAME or after:NAME)."""

    name = "PythonPlugin"
    events = ()
    position = None

    def on_start(self, screen, settings):
        """Called once the host's handshake is read (and again after a restart)."""

    def on_event(self, event, context):
        """Called with each event the plugin asked for (a dict: the log record), model applied; also
        with those of them in the host's catch-up when it starts again after a fault (or joins a
        running session), where what it posts is dropped."""

    def on_turn_end(self, context):
        """Override it to decide once per loop turn, on the turn's final state: called at the end of
        every turn in which the plugin was sent something (the host is asked for turns only when
        a subclass overrides this)."""


def _write(stream, message):
    # NaN and infinities are not JSON: refused here, in the plugin, rather than by the host.
    stream.write(json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n")


def run(plugin, stdin=None, stdout=None):
    """Speaks the protocol until the host closes standard input; returns the exit status."""
    # UTF-8 both ways, whatever the locale says (view ids may be any text).
    stdin = stdin or io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    stdout = stdout or io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=False)
    first = stdin.readline()
    if not first:
        return 0
    hello = json.loads(first)
    if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL:
        sys.stderr.write("the host's first line is not a %s hello\n" % PROTOCOL)
        return 2
    if hello.get("version") != VERSION:
        sys.stderr.write("the host speaks version %r; this library speaks %d\n" % (hello.get("version"), VERSION))
        return 2
    global KEYBOARD_EVENTS, HIDE_EVENTS
    keyboard_events, hides = hello.get("keyboardEvents"), hello.get("keyboardHides")
    KEYBOARD_EVENTS = tuple(keyboard_events) if isinstance(keyboard_events, list) else DEFAULT_KEYBOARD_EVENTS
    HIDE_EVENTS = tuple(hides) if isinstance(hides, list) else DEFAULT_HIDE_EVENTS
    asked = list(plugin.events)
    reply = {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": plugin.name, "events": asked}
    if plugin.position:
        reply["position"] = plugin.position
    wants_turns = type(plugin).on_turn_end is not Plugin.on_turn_end
    if wants_turns:
        reply["turns"] = True
    _write(stdout, reply)
    stdout.flush()
    settings = hello.get("settings") or {}
    screen = Screen(hello.get("header") or {})
    plugin.on_start(screen, settings)
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "error":
            sys.stderr.write("the host refused this plugin: %s\n" % message.get("message"))
            return 2
        if kind is not None and kind != "turnEnd":
            sys.stderr.write("ignoring a '%s' message this library does not know\n" % kind)
            continue
        if kind == "turnEnd":
            context = Context(plugin.name, screen, message.get("t", 0.0), settings)
            plugin.on_turn_end(context)
            _answer(stdout, context, message["seq"])
            continue
        deliver = message.pop("deliver", False)
        seq = message.pop("seq", None)
        screen.apply(message)
        if deliver:
            context = Context(plugin.name, screen, message.get("t", 0.0), settings)
            plugin.on_event(message, context)
            _answer(stdout, context, seq)
        elif message.get("event") in asked:
            # An event it asked for that is not to be answered is the host's catch-up (after a
            # restart, or when it joins a running bus): shown to the plugin, as to every kind of
            # plugin, so that state built on a scene comes back; what it posts from it is dropped.
            plugin.on_event(message, Context(plugin.name, screen, message.get("t", 0.0), settings))
    return 0


def _answer(stdout, context, seq):
    for record in context.posted:
        record.setdefault("t", context.now)
        _write(stdout, record)
    stdout.write('{"type":"done","seq":%d}\n' % seq)
    stdout.flush()
