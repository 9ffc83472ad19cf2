/*
 * responder_bus_plugin.h — the ResponderBus WebAssembly plugin ABI, version 1, for C.
 *
 * A plugin is a module built with the Swift toolchain's clang alone:
 *
 *   clang --target=wasm32 -nostdlib -O2 -Wl,--no-entry -o my_plugin.wasm my_plugin.c
 *
 * It defines rb_plugin_init() (name itself with rb_set_name, ask for events with rb_observe) and
 * rb_plugin_event(kind, t, payload); this header exports the ABI's entry points around them
 * (rb_abi_version, rb_init, rb_event_buffer, rb_on_event). Everything else it reaches is the
 * host's functions below: no files, no clock but the replay's, no network. The article
 * "WebAssembly plugin ABI" (ResponderBusWasm's documentation) is the reference.
 *
 * Include it in exactly one source file.
 */
#ifndef RESPONDER_BUS_PLUGIN_H
#define RESPONDER_BUS_PLUGIN_H

#include <stdint.h>

#ifndef RB_ABI_VERSION
#define RB_ABI_VERSION 1 /* a test builds another version with -DRB_ABI_VERSION=2 */
#endif

/* Event kinds (fixed by ABI version 1). */
enum {
    RB_KEYBOARD_WILL_SHOW = 1, RB_KEYBOARD_DID_SHOW = 2, RB_KEYBOARD_WILL_HIDE = 3, RB_KEYBOARD_DID_HIDE = 4,
    RB_KEYBOARD_WILL_CHANGE_FRAME = 5, RB_KEYBOARD_DID_CHANGE_FRAME = 6,
    RB_DID_BEGIN_EDITING = 7, RB_DID_END_EDITING = 8, RB_RETURN_KEY = 9,
    RB_SCENE = 10, RB_SET_FRAME = 11, RB_SCREEN = 12,
    RB_VIEW_SHIFT = 13, RB_SCROLL = 14, RB_FOCUS_CHANGE = 15, RB_ACTION = 16, RB_RESIGN = 17,
    RB_VIEW_SETTINGS = 18, RB_DIAGNOSTIC = 19, RB_VIEW_MOVE = 20
};

/* View kinds (rb_view_info's kind). */
enum { RB_VIEW = 0, RB_TEXT_FIELD = 1, RB_TEXT_VIEW = 2, RB_SCROLL_VIEW = 3, RB_BUTTON = 4, RB_LABEL = 5 };

/* View flags (rb_view_info's flags). */
enum {
    RB_HIDDEN = 1, RB_ENABLED = 2, RB_SECURE = 4, RB_AVOIDS_KEYBOARD = 8, RB_FIRST_RESPONDER = 16,
    RB_HAS_TAG = 32, RB_HAS_KEYBOARD_DISTANCE = 64, RB_FOLLOWS_KEYBOARD = 128
};

/* rb_post_view_settings's flags: avoidance applies to the view and its subtree; the view's bottom
   follows the keyboard's top (KeyboardAvoidance moves it). 1 and 0 keep their old meaning. */
enum { RB_SETTINGS_AVOIDS_KEYBOARD = 1, RB_SETTINGS_FOLLOWS_KEYBOARD = 2 };

/* Keyboard payload flags. */
enum { RB_HAS_BEGIN = 1, RB_HAS_END = 2, RB_HAS_DURATION = 4, RB_HAS_CURVE = 8, RB_HAS_IS_LOCAL = 16, RB_IS_LOCAL = 32 };

/* Positions (rb_set_position). */
enum { RB_FIRST = 0, RB_LAST = 1, RB_BEFORE = 2, RB_AFTER = 3 };

/* Diagnostic levels (rb_diagnose). */
enum { RB_INFO = 0, RB_WARNING = 1, RB_ERROR = 2 };

typedef struct { double x, y, width, height; } rb_rect;

/* The payload of a keyboard event (kinds 1 to 6), 80 bytes. */
typedef struct {
    int32_t flags;   /* RB_HAS_… bits */
    int32_t curve;
    double duration;
    rb_rect begin;
    rb_rect end;
} rb_keyboard;

/* The payload of the other events: the view they are about (-1 when it is not on the screen);
   for focusChange, `view` is `from` and `other` is `to`; for viewShift, see rb_view_shift. */
typedef struct { int32_t view; int32_t other; } rb_view_event;
typedef struct { int32_t curve; int32_t pad; double origin_y; double duration; } rb_view_shift;

typedef union {
    rb_keyboard keyboard;
    rb_view_event view;
    rb_view_shift shift;
    unsigned char bytes[128];
} rb_payload;

/* What rb_view_info writes, 96 bytes. Frames are in screen coordinates; `unmoved` is where the
   view is when the content is not shifted. */
typedef struct {
    int32_t kind, flags, tag, parent;
    double keyboard_distance;
    rb_rect frame;
    rb_rect unmoved;
    int32_t children;
    int32_t tag_high; /* the tag's high 32 bits: rb_view_tag gives the whole 64-bit tag */
} rb_view;

/* A view's tag, 64 bits (UIKit's tags are NSInteger); `tag` alone is its low 32 bits, which is the
   whole tag when it fits. Meaningful when flags has RB_HAS_TAG. */
static inline int64_t rb_view_tag(const rb_view *view) {
    return (int64_t)(((uint64_t)(uint32_t)view->tag_high << 32) | (uint32_t)view->tag);
}

/* What rb_screen writes, 64 bytes. */
typedef struct {
    double width, height;
    double safe_top, safe_left, safe_bottom, safe_right;
    double root_origin_y, resting_root_origin_y;
} rb_screen_info;

#define RB_IMPORT(name) __attribute__((import_module("rb"), import_name(#name)))
#define RB_EXPORT(name) __attribute__((export_name(#name)))

/* The handshake: only from rb_plugin_init. */
RB_IMPORT(set_name) void rb_set_name_n(const char *name, int32_t length);
RB_IMPORT(observe) void rb_observe(int32_t kind);
RB_IMPORT(set_position) void rb_set_position_n(int32_t where, const char *anchor, int32_t length);

/* Saying things: diagnostics on the bus, under the plugin's name. `view` -1 names none. */
RB_IMPORT(log) void rb_log_n(const char *text, int32_t length); /* cut at 64 KiB */
RB_IMPORT(diagnose) void rb_diagnose_n(int32_t level, const char *text, int32_t length, int32_t view);

/* Reading the screen (during a delivery). Views are handles 0 … rb_view_count()-1, in tree
   order (a view before its children); a handle is good until the screen changes. */
RB_IMPORT(now) double rb_now(void);
RB_IMPORT(screen) void rb_screen(rb_screen_info *out);
RB_IMPORT(keyboard) int32_t rb_keyboard_frame(rb_rect *out);      /* 1 when the keyboard is shown */
RB_IMPORT(first_responder) int32_t rb_first_responder(void);      /* -1 for none */
RB_IMPORT(view_count) int32_t rb_view_count(void);
RB_IMPORT(view_find) int32_t rb_view_find_n(const char *id, int32_t length);
RB_IMPORT(view_id) int32_t rb_view_id(int32_t view, char *out, int32_t capacity); /* full length */
RB_IMPORT(view_info) int32_t rb_view_info(int32_t view, rb_view *out);
RB_IMPORT(event_view_id) int32_t rb_event_view_id(char *out, int32_t capacity);    /* -1 for none */
RB_IMPORT(screen_action) int32_t rb_screen_action(char *out, int32_t capacity);    /* -1 for none */

/* Deciding: posted on the bus when rb_plugin_event returns, whatever it returns (nothing is posted if
   it traps); a non-zero return is also reported as the plugin's error. */
RB_IMPORT(post_view_shift) void rb_post_view_shift(double origin_y, double duration, int32_t curve);
RB_IMPORT(post_focus_change) void rb_post_focus_change(int32_t from, int32_t to);
RB_IMPORT(post_scroll) void rb_post_scroll(int32_t view, double content_offset_y, double bottom_inset);
RB_IMPORT(post_resign) void rb_post_resign(int32_t view);
RB_IMPORT(post_action) void rb_post_action_n(const char *name, int32_t length);
RB_IMPORT(post_view_settings) void rb_post_view_settings(int32_t view, double keyboard_distance, int32_t flags); /* RB_SETTINGS_… */
RB_IMPORT(post_view_move) void rb_post_view_move(int32_t view, double x, double y, double width, double height, double duration, int32_t curve);

static inline int32_t rb_strlen(const char *text) {
    int32_t n = 0;
    while (text[n]) n++;
    return n;
}
/* C's round(): half away from zero (there is no C library; __builtin_round would call one). */
static inline double rb_round(double x) {
    double whole = __builtin_trunc(x);
    double rest = x - whole;
    if (rest >= 0.5) return whole + 1.0;
    if (rest <= -0.5) return whole - 1.0;
    return whole;
}
static inline void rb_set_name(const char *name) { rb_set_name_n(name, rb_strlen(name)); }
static inline void rb_set_position(int32_t where, const char *anchor) {
    rb_set_position_n(where, anchor, anchor ? rb_strlen(anchor) : 0);
}
static inline void rb_log(const char *text) { rb_log_n(text, rb_strlen(text)); }
static inline void rb_diagnose(int32_t level, const char *text, int32_t view) { rb_diagnose_n(level, text, rb_strlen(text), view); }
static inline int32_t rb_view_find(const char *id) { return rb_view_find_n(id, rb_strlen(id)); }
static inline void rb_post_action(const char *name) { rb_post_action_n(name, rb_strlen(name)); }

/* What the plugin defines. */
int32_t rb_plugin_init(void);
int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload);

/* The ABI's entry points. */
static rb_payload rb_event_payload;
RB_EXPORT(rb_abi_version) int32_t rb_abi_version(void) { return RB_ABI_VERSION; }
RB_EXPORT(rb_init) int32_t rb_init(void) { return rb_plugin_init(); }
RB_EXPORT(rb_event_buffer) int32_t rb_event_buffer(void) { return (int32_t)(intptr_t)&rb_event_payload; }
RB_EXPORT(rb_on_event) int32_t rb_on_event(int32_t kind, double t) { return rb_plugin_event(kind, t, &rb_event_payload); }

#endif
