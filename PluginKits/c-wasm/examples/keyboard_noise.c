/*
 * keyboard_noise.c — the built-in KeyboardNoise plugin (Plugins/KeyboardNoise), ported to C as a
 * WebAssembly plugin: a worked example of the ABI in responder_bus_plugin.h.
 *
 * What it does: for each keyboard session — from the first keyboard event to the hide that ends
 * it — it counts how noisy the keyboard was, and when the session ends with a hide and something
 * noisy happened, it says so in one info diagnostic, word for word what the built-in says:
 *
 *   keyboard session 1–9.5 s: 3 frames, 1 burst, 0 duplicate shows,
 *   0 hides with an on-screen frame, 0 events from another app's keyboard
 *
 * (one line; the dash is an en dash, U+2013). The counts:
 *   - frames: keyboard events with an end frame during the session;
 *   - bursts: runs of two or more different frames less than 50 ms apart (a third-party keyboard
 *     announcing 0, 216 and 259 points within milliseconds is one burst);
 *   - duplicate shows: keyboardWillShow repeating the frame of the previous show;
 *   - hides with an on-screen frame: a hide whose end frame still covers part of the screen
 *     (iOS with Reduce Motion sends those);
 *   - events from another app's keyboard: events with isLocal false (iPad multitasking).
 * A quiet session (no bursts, duplicates, on-screen hides or other apps' events) says nothing.
 *
 * Build (the Swift toolchain's clang, nothing else):
 *
 *   clang --target=wasm32 -nostdlib -O2 -Wl,--no-entry -I PluginKits/c-wasm \
 *         -o keyboard_noise.wasm PluginKits/c-wasm/examples/keyboard_noise.c
 *
 * Run:
 *
 *   responder-bus replay session.jsonl --plugin keyboard_noise.wasm
 *
 * Things worth knowing, for your own plugins:
 *   - There is no libc: -nostdlib links nothing. Everything below is written out (a few lines of
 *     text formatting) or uses __builtin_ functions that become single WebAssembly instructions
 *     (__builtin_trunc is f64.trunc, __builtin_fabs f64.abs, __builtin_copysign f64.copysign).
 *     __builtin_round, by contrast, has no instruction: it becomes a call to libm's round(),
 *     and with nothing linked the link fails ("undefined symbol: round"); so does printf.
 *   - State lives in static variables: the host makes one instance per replay, and delivers
 *     events one at a time, so nothing here needs locking or allocation.
 *   - `t` is the replay's clock in seconds, the same number the built-in reads from
 *     `context.now.seconds` (rb_now() returns it too).
 *   - What rb_log posts is an info diagnostic under the plugin's name; it is posted when
 *     rb_plugin_event returns (nothing is posted if the call traps).
 */
#include "responder_bus_plugin.h"

/* The burst window of the built-in (NoiseCounter(burstWindow: 0.05)), in seconds. */
#define BURST_WINDOW 0.05

/* Double.greatestFiniteMagnitude. */
#define GREATEST_FINITE 0x1.fffffffffffffp1023

/* ------------------------------------------------------------------------------------------ */
/* Rectangles, as ResponderBus's Rect (Sources/ResponderBus/Geometry/Rect.swift) treats them.   */
/* Only what the covered-part rule needs. Comparisons are written as `!(a < b)` where Swift      */
/* writes `guard a < b else { … }`, so that a NaN goes the same way it goes in Swift.            */
/* ------------------------------------------------------------------------------------------ */

static int rect_equal(const rb_rect *a, const rb_rect *b) {
    /* Rect's synthesized ==: the four numbers compared with Double's == (NaN is unequal to
       everything, -0 equals 0), exactly what C's == does. */
    return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
}

static double rect_min_x(const rb_rect *r) { return r->width >= 0 ? r->x : r->x + r->width; }
static double rect_max_x(const rb_rect *r) { return r->width >= 0 ? r->x + r->width : r->x; }
static double rect_min_y(const rb_rect *r) { return r->height >= 0 ? r->y : r->y + r->height; }
static double rect_max_y(const rb_rect *r) { return r->height >= 0 ? r->y + r->height : r->y; }

static int rect_is_null(const rb_rect *r) { return r->x == __builtin_inf() || r->y == __builtin_inf(); }

static int rect_has_nan(const rb_rect *r) {
    return __builtin_isnan(r->x) || __builtin_isnan(r->y) || __builtin_isnan(r->width) || __builtin_isnan(r->height);
}

static int rect_is_infinite(const rb_rect *r) {
    if (rect_is_null(r) || rect_has_nan(r)) return 0;
    return !__builtin_isfinite(r->x) || !__builtin_isfinite(r->y) || !__builtin_isfinite(r->width)
        || !__builtin_isfinite(r->height) || __builtin_fabs(r->width) >= GREATEST_FINITE / 2
        || __builtin_fabs(r->height) >= GREATEST_FINITE / 2;
}

static int rect_is_empty(const rb_rect *r) {
    return rect_is_null(r) || r->width == 0 || r->height == 0 || rect_has_nan(r);
}

/* Swift.max and Swift.min, argument order and all (`y >= x ? y : x`, `y < x ? y : x`). */
static double swift_max(double x, double y) { return y >= x ? y : x; }
static double swift_min(double x, double y) { return y < x ? y : x; }

/* Rect.intersection; the null rectangle when they do not meet. */
static rb_rect rect_intersection(const rb_rect *a, const rb_rect *b) {
    const rb_rect null_rect = { __builtin_inf(), __builtin_inf(), 0, 0 };
    if (rect_is_null(a) || rect_is_null(b) || rect_has_nan(a) || rect_has_nan(b)) return null_rect;
    double x0 = swift_max(rect_min_x(a), rect_min_x(b));
    double y0 = swift_max(rect_min_y(a), rect_min_y(b));
    double x1 = swift_min(rect_max_x(a), rect_max_x(b));
    double y1 = swift_min(rect_max_y(a), rect_max_y(b));
    if (!(x0 < x1 && y0 < y1)) return null_rect;
    rb_rect part = { x0, y0, x1 - x0, y1 - y0 };
    return part;
}

/*
 * KeyboardInfo.coveredPart(ofScreen:isHide: false) != nil
 * (Sources/ResponderBus/Events/KeyboardInfo+Covering.swift): whether a keyboard whose end frame
 * is `end` covers part of a screen `width` × `height`. The built-in asks this of a hide's frame
 * with isHide false, to find hides that still draw the keyboard on screen.
 */
static int covers_part_of_screen(const rb_rect *end, double width, double height) {
    /* The usual docked keyboard, inside the screen (the Swift code's fast path). */
    double x = end->x, y = end->y;
    double x1 = x + end->width, y1 = y + end->height;
    if (x >= 0 && y >= 0 && x < x1 && y < y1 && x1 <= width && y1 <= height && y1 >= height - 0.5
        && width < GREATEST_FINITE / 2 && height < GREATEST_FINITE / 2)
        return 1;
    /* The general case: intersect with the screen; it must reach the bottom edge. */
    if (rect_is_null(end) || rect_is_infinite(end) || rect_is_empty(end)) return 0;
    rb_rect bounds = { 0, 0, width, height };
    rb_rect part = rect_intersection(end, &bounds);
    if (rect_is_null(&part) || rect_is_empty(&part)) return 0;
    if (!(rect_max_y(end) >= height - 0.5)) return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Text: the message is built in a static buffer, then handed to rb_log_n with its length.      */
/* ------------------------------------------------------------------------------------------ */

static char message[512];
static int32_t message_length;

static void put_char(char c) {
    if (message_length < (int32_t)sizeof message) message[message_length++] = c;
}

static void put_text(const char *text) {
    while (*text) put_char(*text++);
}

/* An unsigned integer in decimal; `digits` > 0 pads with leading zeros to that many digits. */
static void put_unsigned(uint64_t n, int digits) {
    char reversed[24];
    int count = 0;
    do {
        reversed[count++] = (char)('0' + n % 10);
        n /= 10;
    } while (n != 0);
    while (count < digits) reversed[count++] = '0';
    while (count > 0) put_char(reversed[--count]);
}

static void put_int(int64_t n) {
    if (n < 0) {
        put_char('-');
        put_unsigned(0 - (uint64_t)n, 0);
    } else {
        put_unsigned((uint64_t)n, 0);
    }
}

/* NoiseReport's count(n, one, many): "1 frame", "3 frames", "0 frames". */
static void put_count(int64_t n, const char *one, const char *many) {
    put_int(n);
    put_char(' ');
    put_text(n == 1 ? one : many);
}

/* ---- seconds text ---- */

/*
 * Swift's `x.rounded()`: to the nearest integer, halves away from zero. WebAssembly's f64.nearest
 * (what __builtin_rint/__builtin_nearbyint become) rounds halves to even, and __builtin_round is a
 * library call, so: truncate, then step away from zero when the part cut off is a half or more.
 * (x - trunc(x) is exact for every double, so there is no rounding in the test; a NaN stays NaN,
 * an infinity stays infinite, and -0.3 gives -0, as in Swift.)
 */
static double round_half_away(double x) {
    double whole = __builtin_trunc(x);
    if (__builtin_fabs(x - whole) >= 0.5) whole += __builtin_copysign(1.0, x);
    return whole;
}

/*
 * Swift's `String(v)` (Double.description) for a v that is not an integer and whose magnitude is
 * below 2^52 (every double at or above 2^52 is an integer), and which is `r / 1000` for an integer
 * r (a time rounded to the millisecond). Swift prints the shortest decimal that reads back as v —
 * and of those with that many digits, the nearest to v — in plain (not exponential) notation at
 * these magnitudes, and always with a fraction: "1.004", "9.5", "-0.25".
 *
 * Two cases, both exact:
 *
 *  1. |v| < 2^43: the spacing of doubles there is 2^-10 or finer, less than a millisecond, so the
 *     decimal r/1000 (which reads back as v: v is its nearest double) is the answer with its
 *     trailing zeros dropped. A decimal with fewer fraction digits is at least 0.001 away from
 *     r/1000 and so more than half a spacing away from v: it would read back as another double.
 *     Every time a replay can reach (a log's times are far below 2^43 s, some 278,000 years) is
 *     here.
 *
 *  2. 2^43 ≤ |v| < 2^52: the spacing is 2^-s for s from 9 down to 1, coarser than a millisecond,
 *     and the shortest decimal may have fewer digits than r/1000. Here v's fraction is F / 2^s,
 *     an exact multiple of 10^-10, so everything is counted in units of 10^-10 with 64-bit
 *     integers: for 1, 2, … fraction digits, take the nearest decimal with that many digits, and
 *     stop at the first that lies within half a spacing of v (the boundary included when v's
 *     significand is even: a decimal exactly halfway reads back as the even neighbour). Two
 *     decimals equally near: the one with the even last digit (what Swift prints).
 *
 * Both were checked against Swift's own String(Double) on 1.3 million values, ties included.
 */
static void put_fraction_of_millis(int64_t millis) {
    /* Case 1: millis / 1000, e.g. 1004 → "1.004", 9500 → "9.5", -250 → "-0.25". */
    uint64_t magnitude = millis < 0 ? 0 - (uint64_t)millis : (uint64_t)millis;
    if (millis < 0) put_char('-');
    put_unsigned(magnitude / 1000, 0);
    put_char('.');
    uint64_t fraction = magnitude % 1000; /* not 0: v is not an integer */
    int digits = 3;
    while (digits > 1 && fraction % 10 == 0) {
        fraction /= 10;
        digits--;
    }
    put_unsigned(fraction, digits);
}

static void put_shortest_large(double v) {
    /* Case 2: 2^43 ≤ |v| < 2^52, not an integer. */
    union { double d; uint64_t bits; } u = { v };
    if (u.bits >> 63) put_char('-');
    int exponent = (int)((u.bits >> 52) & 0x7ff) - 1023;                 /* 43 … 51 */
    int s = 52 - exponent;                                               /* fraction bits, 1 … 9 */
    uint64_t significand = (u.bits & ((1ull << 52) - 1)) | (1ull << 52);
    uint64_t whole = significand >> s;
    uint64_t unit = 10000000000ull >> s;                                 /* 2^-s in 10^-10 units */
    uint64_t f = (significand & ((1ull << s) - 1)) * unit;               /* the fraction */
    uint64_t half = unit / 2;                                            /* half a spacing */
    int even = (significand & 1) == 0;
    uint64_t step = 10000000000ull;
    for (int digits = 1; digits <= 10; digits++) {
        step /= 10;                                                      /* 10^-digits */
        uint64_t below = f / step * step, above = below + step;
        uint64_t d_below = f - below, d_above = above - f;
        uint64_t pick, distance;
        if (d_below < d_above || (d_below == d_above && (below / step) % 2 == 0)) {
            pick = below;
            distance = d_below;
        } else {
            pick = above;
            distance = d_above;
        }
        if (distance < half || (even && distance == half)) {
            /* Never 0 or 1: no integer lies within half a spacing of a non-integer here. */
            put_unsigned(whole, 0);
            put_char('.');
            put_unsigned(pick / step, digits);
            return;
        }
    }
}

/*
 * NoiseReport's secondsText(t): seconds to the millisecond, without a trailing ".0".
 *
 *     let rounded = (t * 1000).rounded() / 1000
 *     return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
 *
 * 1 → "1", 1.0042 → "1.004", 9.5 → "9.5", 3.0004 → "3", -0.0001 → "0".
 */
static void put_seconds(double t) {
    double millis = round_half_away(t * 1000);
    double rounded = millis / 1000;
    if (rounded == round_half_away(rounded)) {
        /* An integer: String(Int(rounded)). (Swift traps beyond Int's range; a replay's clock
           never gets there: the host's times are Durations, within Int64 seconds.) */
        if (__builtin_fabs(rounded) < 0x1p63) put_int((int64_t)rounded);
        else put_text(rounded < 0 ? "-inf" : "inf");
        return;
    }
    if (__builtin_isnan(rounded)) {
        put_text("nan");
        return;
    }
    if (__builtin_fabs(rounded) < 0x1p43) put_fraction_of_millis((int64_t)millis);
    else put_shortest_large(rounded);
}

/* ---- end of seconds text ---- */

/* ------------------------------------------------------------------------------------------ */
/* The counter: NoiseCounter (Plugins/KeyboardNoise/NoiseCounter.swift), one field per field.   */
/* ------------------------------------------------------------------------------------------ */

/* NoiseReport. */
typedef struct {
    double start, end;
    int64_t frames, bursts, duplicate_shows, hides_on_screen, other_app_events;
} noise_report;

static int in_session;          /* report != nil */
static noise_report report;
static int has_last_frame;      /* lastFrameAt and lastFrame are set together */
static double last_frame_at;
static rb_rect last_frame;
static int in_burst;
static int has_last_show_frame;
static rb_rect last_show_frame;

static void ensure_session(double t) {
    if (!in_session) {
        in_session = 1;
        noise_report fresh = { t, t, 0, 0, 0, 0, 0 };
        report = fresh;
    }
}

static void reset(void) {
    in_session = 0;
    has_last_frame = 0;
    in_burst = 0;
    has_last_show_frame = 0;
}

/* NoiseReport.description, into `message`. */
static void describe(const noise_report *r) {
    message_length = 0;
    put_text("keyboard session ");
    put_seconds(r->start);
    put_text("\xE2\x80\x93"); /* – EN DASH, U+2013, in UTF-8 */
    put_seconds(r->end);
    put_text(" s: ");
    put_count(r->frames, "frame", "frames");
    put_text(", ");
    put_count(r->bursts, "burst", "bursts");
    put_text(", ");
    put_count(r->duplicate_shows, "duplicate show", "duplicate shows");
    put_text(", ");
    put_count(r->hides_on_screen, "hide with an on-screen frame", "hides with an on-screen frame");
    put_text(", ");
    put_count(r->other_app_events, "event from another app's keyboard", "events from another app's keyboard");
}

/*
 * NoiseCounter.note: notes one keyboard event at time t; returns 1 and fills `finished` when the
 * event ends a session (its first hide).
 */
static int note(int32_t kind, const rb_keyboard *info, double t, double screen_width, double screen_height,
                noise_report *finished) {
    /* isLocal == false: known, and false (a missing isLocal is not another app's). */
    if ((info->flags & RB_HAS_IS_LOCAL) && !(info->flags & RB_IS_LOCAL)) {
        ensure_session(t);
        report.other_app_events += 1;
        return 0;
    }
    if (kind == RB_KEYBOARD_WILL_HIDE || kind == RB_KEYBOARD_DID_HIDE) {
        if (!in_session) return 0;
        *finished = report;
        /* coveredPart(ofScreen:isHide: false) != nil: nil without an end frame. */
        if ((info->flags & RB_HAS_END) && covers_part_of_screen(&info->end, screen_width, screen_height))
            finished->hides_on_screen += 1;
        finished->end = t;
        reset();
        return 1;
    }
    if (!(info->flags & RB_HAS_END)) return 0;
    const rb_rect *end = &info->end;
    ensure_session(t);
    report.frames += 1;
    if (has_last_frame && !rect_equal(end, &last_frame) && t - last_frame_at <= BURST_WINDOW) {
        if (!in_burst) report.bursts += 1;
        in_burst = 1;
    } else if (!has_last_frame || !rect_equal(&last_frame, end)) {
        /* `lastFrame != end` with lastFrame an Optional: true when there is none. */
        in_burst = 0;
    }
    if (kind == RB_KEYBOARD_WILL_SHOW) {
        if (has_last_show_frame && rect_equal(&last_show_frame, end)) report.duplicate_shows += 1;
        has_last_show_frame = 1;
        last_show_frame = *end;
    }
    has_last_frame = 1;
    last_frame_at = t;
    last_frame = *end;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The plugin.                                                                                   */
/* ------------------------------------------------------------------------------------------ */

int32_t rb_plugin_init(void) {
    /* Not "KeyboardNoise": that is the built-in's name, and a pipeline may have both. */
    rb_set_name("KeyboardNoiseWasm");
    /* The six keyboard events, as a KeyboardObserving plugin gets them. */
    rb_observe(RB_KEYBOARD_WILL_SHOW);
    rb_observe(RB_KEYBOARD_DID_SHOW);
    rb_observe(RB_KEYBOARD_WILL_HIDE);
    rb_observe(RB_KEYBOARD_DID_HIDE);
    rb_observe(RB_KEYBOARD_WILL_CHANGE_FRAME);
    rb_observe(RB_KEYBOARD_DID_CHANGE_FRAME);
    /* No rb_set_position: it only says things, so the end of the pipeline (the default) is fine. */
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    /* Only keyboard events come (we observed nothing else): the payload is an rb_keyboard. */
    rb_screen_info screen;
    rb_screen(&screen); /* the built-in reads context.screen.size */
    noise_report finished;
    if (!note(kind, &payload->keyboard, t, screen.width, screen.height, &finished)) return 0;
    /* NoiseReport.isQuiet: the frame count alone is not noise. */
    if (finished.bursts == 0 && finished.duplicate_shows == 0 && finished.hides_on_screen == 0
        && finished.other_app_events == 0)
        return 0;
    describe(&finished);
    rb_log_n(message, message_length);
    return 0;
}
