#!/usr/bin/env python3
"""Writes a realistic ResponderBus v1 log of N external events: a sign-up scene, focus moving
through its fields with Return, a third-party keyboard announcing two heights, hides, rotations'
worth of frame changes, and a fresh scene now and then.

Usage: gen_log.py N PATH [shared|distinct]. With `distinct`, every event has a time of its own (a
millisecond after the one before at least), as in most real recordings, so that each is its own
loop turn; by default the events of a moment share its time (and a turn)."""
import json, sys

n, path = int(sys.argv[1]), sys.argv[2]
distinct = len(sys.argv) > 3 and sys.argv[3] == "distinct"
dumps = lambda o: json.dumps(o, separators=(",", ":"), sort_keys=True)
H, W = 812, 375
scene = {"event": "scene", "lastFieldAction": "signUp", "root": {"id": "root", "kind": "view", "frame": [0, 0, W, H], "children": [
    {"id": "title", "kind": "view", "frame": [20, 100, 335, 60]},
    {"id": "signUpButton", "kind": "view", "frame": [20, 180, 335, 50]},
    {"id": "name", "kind": "textField", "frame": [20, 480, 335, 44], "tag": 1},
    {"id": "bio", "kind": "textView", "frame": [20, 540, 335, 90], "tag": 2},
    {"id": "email", "kind": "textField", "frame": [20, 640, 335, 44], "tag": 3},
    {"id": "password", "kind": "textField", "frame": [20, 700, 335, 44], "tag": 4}]}}
def kb(ev, t, b, e, d):
    return {"event": ev, "t": t, "begin": [0, H - b, W, b], "end": [0, H - e, W, e], "duration": d, "curve": 7, "isLocal": True}
with open(path, "w") as f:
    f.write(dumps({"format": "responder-bus-log", "version": 1, "device": "benchmark", "screen": {"width": W, "height": H},
                   "safeArea": {"top": 44, "left": 0, "right": 0, "bottom": 34}}) + "\n")
    written, cycle, last_t = 0, 0, -1.0
    def w(o):
        global written, last_t
        if written < n:
            o["t"] = round(max(o["t"], last_t + 0.001) if distinct else o["t"], 3)
            last_t = o["t"]
            f.write(dumps(o) + "\n"); written += 1
    while written < n:
        t = cycle * 10.0
        if cycle % 200 == 0:
            w(dict(scene, t=t))
        w({"event": "didBeginEditing", "t": t + 1, "view": "name"})
        w(kb("keyboardWillChangeFrame", t + 1, 0, 216, 0.25)); w(kb("keyboardWillShow", t + 1, 0, 216, 0.25))
        w(kb("keyboardWillChangeFrame", t + 1.005, 216, 291, 0.25)); w(kb("keyboardWillShow", t + 1.005, 216, 291, 0.25))
        w(kb("keyboardDidChangeFrame", t + 1.26, 216, 291, 0.25)); w(kb("keyboardDidShow", t + 1.26, 216, 291, 0.25))
        w({"event": "returnKey", "t": t + 3, "view": "name"})
        w({"event": "didEndEditing", "t": t + 3.01, "view": "name"}); w({"event": "didBeginEditing", "t": t + 3.01, "view": "bio"})
        w({"event": "setFrame", "t": t + 4, "view": "bio", "frame": [20, 540, 335, 90 + (cycle % 3) * 20]})
        w({"event": "didEndEditing", "t": t + 5, "view": "bio"}); w({"event": "didBeginEditing", "t": t + 5, "view": "email"})
        w({"event": "returnKey", "t": t + 6, "view": "email"})
        w({"event": "didEndEditing", "t": t + 6.01, "view": "email"}); w({"event": "didBeginEditing", "t": t + 6.01, "view": "password"})
        w({"event": "returnKey", "t": t + 7, "view": "password"})
        w({"event": "didEndEditing", "t": t + 7.01, "view": "password"})
        w(kb("keyboardWillChangeFrame", t + 7.01, 291, 0, 0.25)); w(kb("keyboardWillHide", t + 7.01, 291, 0, 0.25))
        w(kb("keyboardDidChangeFrame", t + 7.27, 291, 0, 0.25)); w(kb("keyboardDidHide", t + 7.27, 291, 0, 0.25))
        cycle += 1
