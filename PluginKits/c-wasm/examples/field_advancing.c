/*
 * field_advancing.c — the Return rule of the built-in FieldAdvancing plugin
 * (Plugins/FieldAdvancing: FieldAdvancing.swift, FieldNavigator.swift, ReturnDecision.swift),
 * ported to C as a WebAssembly plugin: a worked example of reading the screen and deciding.
 *
 * What Return in a field does (ReturnDecision.decide), in order:
 *   1. The field is not on the screen: nothing, and a warning diagnostic says so.
 *   2. It is a text view: nothing (Return inserts a newline), unless built with
 *      -DTEXT_VIEW_RETURN_ADVANCES=1 (the built-in's --text-view-return-advances).
 *   3. There is a next field: move the focus to it (a focusChange from the field to it).
 *   4. Else the screen has a last-field action (a scene's lastFieldAction, not empty): perform it
 *      (an action).
 *   5. Else: resign the field (a resign; the keyboard goes away).
 *
 * The next field is found among the candidates: the text fields and text views of the screen
 * that are enabled and visible (a hidden view hides its whole subtree), in one of two orders:
 *   - tag order (the default): the candidate with the smallest tag above the field's — gaps are
 *     fine — and among equal tags the first in tree order; a candidate with the field's own tag
 *     comes next only if it comes after the field in the tree. An untagged field has no next.
 *   - position order (build with -DFIELD_ORDER_POSITION): top to bottom, then left to right,
 *     where the fields are when the content is not shifted; ties in tree order.
 *
 * It names itself "FieldAdvancing", the built-in's name, so that what it decides is recorded
 * exactly as the built-in's decisions are: run it in place of the built-in, where the built-in
 * sits (after TextViewOrdering, before KeyboardAvoidance):
 *
 *   clang --target=wasm32 -nostdlib -O2 -Wl,--no-entry -I PluginKits/c-wasm \
 *         -o field_advancing.wasm PluginKits/c-wasm/examples/field_advancing.c
 *   clang --target=wasm32 -nostdlib -O2 -Wl,--no-entry -I PluginKits/c-wasm -DFIELD_ORDER_POSITION \
 *         -o field_advancing_position.wasm PluginKits/c-wasm/examples/field_advancing.c
 *
 *   responder-bus replay session.jsonl --disable FieldAdvancing --plugin field_advancing.wasm
 *   responder-bus replay session.jsonl --disable FieldAdvancing --plugin field_advancing_position.wasm
 *
 * (The order is chosen when the module is built; --field-order and --text-view-return-advances
 * set the built-in's, and do nothing to this module.)
 *
 * (Two plugins cannot share a name: with the built-in enabled, registering this one fails. The
 * handshake asks for the built-in's place, after TextViewOrdering; with TextViewOrdering disabled,
 * give a place on the command line instead, such as
 * --plugin field_advancing.wasm@before:KeyboardAvoidance.)
 *
 * Where it can differ from the built-in (limits of ABI version 1, not of the logic):
 *   - Fuel: a delivery may run only so many instructions (--plugin-fuel). Finding the next field
 *     walks every view of the screen: about 140 units a view in tag order and 175 in position
 *     order, so a screen of more than some 35,000 (tag) or 28,000 (position) views needs more
 *     than the default 5,000,000 units.
 * Tags are 64-bit, as the built-in's Swift Ints are (rb_view_tag), and the action name and the
 * ids are passed whole.
 *
 * Things worth knowing, for your own plugins:
 *   - Views are handles, 0 … rb_view_count()-1, in tree order (pre-order: a view before its
 *     children, children in order), so a parent's handle is smaller than its children's and one
 *     pass over the handles sees every parent before its children. rb_view_info reads one view.
 *   - A handle is good until the screen changes; a delivery never sees the screen change under
 *     it, so handles read in one rb_plugin_event call stay good for that call. Keep ids (strings),
 *     not handles, across events.
 *   - A view's own RB_HIDDEN flag is only its own: a hidden ancestor hides it too, and the plugin
 *     works that out (below).
 *   - Decisions (rb_post_…) take handles; the host turns them into the views' ids. They are
 *     posted, in the order made, when rb_plugin_event returns (none if it traps).
 *   - There is no libc and no malloc; the one thing here whose size is not known in advance (a
 *     byte per view, a few strings) goes in a scratch area past the module's data, grown with
 *     memory.grow when a screen needs more (the sandbox caps a module's memory, 16 MiB by
 *     default).
 */
#include "responder_bus_plugin.h"

#ifndef TEXT_VIEW_RETURN_ADVANCES
#define TEXT_VIEW_RETURN_ADVANCES 0
#endif

/* ------------------------------------------------------------------------------------------ */
/* Scratch memory: a bump allocator over the memory past the module's own data and stack, where  */
/* the linker's __heap_base points. Everything allocated lives until the next event.              */
/* ------------------------------------------------------------------------------------------ */

extern unsigned char __heap_base;
static uintptr_t scratch_used;

static void scratch_reset(void) { scratch_used = 0; }

/* `bytes` bytes, 8-aligned, or 0 when the memory cannot grow that far. */
static void *scratch_alloc(uint32_t bytes) {
    uintptr_t start = (((uintptr_t)&__heap_base + scratch_used) + 7) & ~(uintptr_t)7;
    uintptr_t end = start + bytes;
    if (end < start) return 0;
    uintptr_t have = (uintptr_t)__builtin_wasm_memory_size(0) * 65536;
    if (end > have) {
        uintptr_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (uintptr_t)-1) return 0;
    }
    scratch_used = end - (uintptr_t)&__heap_base;
    return (void *)start;
}

static void copy_bytes(char *to, const char *from, int32_t count) {
    for (int32_t i = 0; i < count; i++) to[i] = from[i];
}

/*
 * A string the host copies out: rb_event_view_id (the event's view) or rb_screen_action (the
 * screen's last-field action). Those calls write at most `capacity` bytes and return the full
 * length, so: try a small buffer, and when the string is longer, allocate one that fits and ask
 * again. Returns the length (the bytes, not NUL-terminated, in *out), -1 when there is none, or
 * -2 when the memory ran out.
 */
enum { EVENT_VIEW_ID, SCREEN_ACTION };

static int32_t ask_for_string(int which, char *buffer, int32_t capacity) {
    return which == EVENT_VIEW_ID ? rb_event_view_id(buffer, capacity) : rb_screen_action(buffer, capacity);
}

static int32_t get_string(int which, char **out) {
    int32_t capacity = 256;
    char *buffer = scratch_alloc((uint32_t)capacity);
    if (!buffer) return -2;
    int32_t length = ask_for_string(which, buffer, capacity);
    if (length > capacity) {
        buffer = scratch_alloc((uint32_t)length);
        if (!buffer) return -2;
        length = ask_for_string(which, buffer, length);
    }
    *out = buffer;
    return length;
}

/* ------------------------------------------------------------------------------------------ */
/* The candidates: FieldNavigator.candidates, as an iterator over the handles.                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int32_t handle;         /* the next handle to look at */
    int32_t count;          /* rb_view_count() */
    unsigned char *hidden;  /* per handle: hidden itself or under a hidden view */
} candidate_walk;

/* Starts a walk; 0 when the scratch memory for it cannot be had. */
static int start_walk(candidate_walk *walk) {
    walk->handle = 0;
    walk->count = rb_view_count();
    walk->hidden = scratch_alloc((uint32_t)walk->count + 1);
    return walk->hidden != 0;
}

/*
 * Moves to the next candidate — an enabled text field or text view with no hidden view above
 * it, nor hidden itself — and reads it into *view; returns its handle, or -1 at the end. The
 * candidates come in tree order: the order whose index breaks ties in FieldNavigator.
 */
static int32_t next_candidate(candidate_walk *walk, rb_view *view) {
    while (walk->handle < walk->count) {
        int32_t handle = walk->handle++;
        rb_view_info(handle, view);
        /* Pre-order: the parent's handle is smaller, so its effective hiddenness is known. */
        int hidden = (view->flags & RB_HIDDEN) || (view->parent >= 0 && walk->hidden[view->parent]);
        walk->hidden[handle] = (unsigned char)hidden;
        if (hidden) continue;
        if ((view->kind == RB_TEXT_FIELD || view->kind == RB_TEXT_VIEW) && (view->flags & RB_ENABLED)) return handle;
    }
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The next field.                                                                              */
/* ------------------------------------------------------------------------------------------ */

#ifndef FIELD_ORDER_POSITION

/*
 * Tag order: FieldNavigator.neighbourByTag(step: +1), in one walk, without sorting. A candidate's
 * key is (tag, index); the next field is the smallest key after the field's (fieldTag, fieldIndex):
 *   - a candidate met before the field needs a greater tag (an equal tag would sort before it);
 *   - one met after the field needs a tag at least the field's;
 *   - untagged candidates take no part;
 *   - if the field is not a candidate itself (hidden, disabled), it is never met, and only
 *     greater tags count.
 * Indexes only grow along the walk, so among equal tags the first met wins: a later candidate
 * replaces the best so far only with a smaller tag.
 * Returns the handle of the next field, or -1; -2 when the scratch memory ran out.
 */
static int32_t next_field(int32_t field, const rb_view *field_view) {
    if (!(field_view->flags & RB_HAS_TAG)) return -1; /* untagged: no part in tag order */
    int64_t tag = rb_view_tag(field_view);
    candidate_walk walk;
    if (!start_walk(&walk)) return -2;
    int field_seen = 0;
    int32_t best = -1;
    int64_t best_tag = 0;
    rb_view view;
    for (int32_t handle; (handle = next_candidate(&walk, &view)) >= 0;) {
        if (!field_seen && handle == field) {
            field_seen = 1;
            continue;
        }
        if (!(view.flags & RB_HAS_TAG)) continue;
        int64_t candidate = rb_view_tag(&view);
        if (!(field_seen ? candidate >= tag : candidate > tag)) continue;
        if (best >= 0 && candidate >= best_tag) continue; /* (candidate, index) >= best's key */
        best = handle;
        best_tag = candidate;
    }
    return best;
}

#else

/*
 * Position order: FieldNavigator's .position neighbour(step: +1). A candidate's key is
 * (minY, minX, index) of its unmoved frame — where it is when the content is not shifted, so that
 * the order does not change while the keyboard pushes the screen up — and its index among the
 * candidates; the next field is the candidate with the smallest key greater than the field's. The
 * field must be a candidate itself (a hidden or disabled field has no next).
 *
 * As in tag order, one walk does it, with no list of candidates: indexes grow along the walk, so
 * where the keys' positions are equal, "index greater than the field's" is "met after the field",
 * and "index less than the best's" is never true.
 *
 * Keys are compared as Swift compares tuples: the first elements that differ (`!=`) decide, with
 * `<` or `>`; when all are equal, the last comparison decides. With a NaN in a frame that is not a
 * total order, and the answer depends on how the comparison is written: it is written as Swift's.
 */
typedef struct { double min_y, min_x; } position;

/* Rect.minY and Rect.minX: a negative height or width counts from the other edge. */
static position position_of(const rb_view *view) {
    const rb_rect *f = &view->unmoved;
    position p = { f->height >= 0 ? f->y : f->y + f->height, f->width >= 0 ? f->x : f->x + f->width };
    return p;
}

/* Swift's (minY, minX, index) > (minY', minX', index'), where index > index' is `after`. */
static int key_greater(position l, position r, int after) {
    if (l.min_y != r.min_y) return l.min_y > r.min_y;
    if (l.min_x != r.min_x) return l.min_x > r.min_x;
    return after;
}

/* Swift's (minY, minX, index) < (minY', minX', index') for a candidate met after the best so
   far (its index is greater). */
static int key_less_than_earlier(position l, position r) {
    if (l.min_y != r.min_y) return l.min_y < r.min_y;
    if (l.min_x != r.min_x) return l.min_x < r.min_x;
    return 0;
}

static int32_t next_field(int32_t field, const rb_view *field_view) {
    position field_key = position_of(field_view);
    candidate_walk walk;
    if (!start_walk(&walk)) return -2;
    int field_seen = 0;
    int32_t best = -1;
    position best_key = { 0, 0 };
    rb_view view;
    for (int32_t handle; (handle = next_candidate(&walk, &view)) >= 0;) {
        if (handle == field) {
            field_seen = 1;
            continue; /* its own key is not greater than itself */
        }
        position key = position_of(&view);
        if (!key_greater(key, field_key, field_seen)) continue;
        if (best >= 0 && !key_less_than_earlier(key, best_key)) continue;
        best = handle;
        best_key = key;
    }
    return field_seen ? best : -1; /* not a candidate: not in the order */
}

#endif

/* ------------------------------------------------------------------------------------------ */
/* The plugin.                                                                                   */
/* ------------------------------------------------------------------------------------------ */

int32_t rb_plugin_init(void) {
    rb_set_name("FieldAdvancing");
    rb_observe(RB_RETURN_KEY);
    /* Where the built-in sits. (A position on the command line, --plugin x.wasm@…, overrides
       this; one is needed when TextViewOrdering is disabled: an anchor must be there.) */
    rb_set_position(RB_AFTER, "TextViewOrdering");
    return 0;
}

static const char unknown_prefix[] = "Return in '";
static const char unknown_suffix[] = "', which is not on the screen: nothing to advance from";

/* Error codes: a non-zero return is reported as the plugin's error. This plugin returns one only
   when the memory ran out, before it has posted anything. */
enum { OUT_OF_MEMORY = 1 };

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    (void)kind; /* only RB_RETURN_KEY comes */
    (void)t;
    scratch_reset();
    int32_t field = payload->view.view;

    /* 1. Not on the screen: the payload's handle is -1, and the id comes from rb_event_view_id. */
    if (field < 0) {
        char *id;
        int32_t length = get_string(EVENT_VIEW_ID, &id);
        if (length == -2) return OUT_OF_MEMORY;
        if (length < 0) return 0; /* a Return without a view: does not happen */
        int32_t prefix = (int32_t)sizeof unknown_prefix - 1, suffix = (int32_t)sizeof unknown_suffix - 1;
        char *text = scratch_alloc((uint32_t)(prefix + length + suffix));
        if (!text) return OUT_OF_MEMORY;
        copy_bytes(text, unknown_prefix, prefix);
        copy_bytes(text + prefix, id, length);
        copy_bytes(text + prefix + length, unknown_suffix, suffix);
        rb_diagnose_n(RB_WARNING, text, prefix + length + suffix, -1);
        return 0;
    }

    rb_view field_view;
    rb_view_info(field, &field_view);

    /* 2. A text view: Return inserts a newline. */
    if (field_view.kind == RB_TEXT_VIEW && !TEXT_VIEW_RETURN_ADVANCES) return 0;

    /* 3. The next field. */
    int32_t next = next_field(field, &field_view);
    if (next == -2) return OUT_OF_MEMORY;
    if (next >= 0) {
        rb_post_focus_change(field, next);
        return 0;
    }

    /* 4. The last field: the screen's action, when it has one that is not empty. */
    char *action;
    int32_t length = get_string(SCREEN_ACTION, &action);
    if (length == -2) return OUT_OF_MEMORY;
    if (length > 0) {
        rb_post_action_n(action, length);
        return 0;
    }

    /* 5. No action: resign. */
    rb_post_resign(field);
    return 0;
}
