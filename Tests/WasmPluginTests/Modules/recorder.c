/* "Recorder": logs what the host tells it — each event's kind, time and payload, the screen, the
   first responder and each view — so that a test can compare it with the bus's own model. */
#include "responder_bus_plugin.h"

static char line[512];
static int32_t used;

static void put(const char *text) { while (*text && used < 500) line[used++] = *text++; }
static void put_int(long long value) {
    char digits[24];
    int n = 0;
    if (value < 0) { put("-"); value = -value; }
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value);
    while (n) { char c[2] = {digits[--n], 0}; put(c); }
}
/* Numbers to the thousandth, enough for frames and times. */
static void put_num(double value) {
    long long milli = (long long)(value * 1000 + (value < 0 ? -0.5 : 0.5));
    if (milli < 0) { put("-"); milli = -milli; }
    put_int(milli / 1000);
    long long rest = milli % 1000;
    if (rest) {
        put(".");
        char frac[4] = {(char)('0' + rest / 100), (char)('0' + rest / 10 % 10), (char)('0' + rest % 10), 0};
        int end = 3;
        while (frac[end - 1] == '0') frac[--end] = 0;
        put(frac);
    }
}
static void put_rect(rb_rect r) {
    put("{"); put_num(r.x); put(","); put_num(r.y); put(","); put_num(r.width); put(","); put_num(r.height); put("}");
}
static void flush(void) { rb_log_n(line, used); used = 0; }

int32_t rb_plugin_init(void) {
    rb_set_name("Recorder");
    for (int32_t kind = 1; kind <= 19; kind++) if (kind != RB_DIAGNOSTIC) rb_observe(kind);
    rb_set_position(RB_AFTER, "KeyboardAvoidance");
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *p) {
    put("kind "); put_int(kind); put(" t "); put_num(t);
    if (kind <= RB_KEYBOARD_DID_CHANGE_FRAME) {
        put(" flags "); put_int(p->keyboard.flags);
        if (p->keyboard.flags & RB_HAS_END) { put(" end "); put_rect(p->keyboard.end); }
    } else {
        char id[128];
        int32_t n = rb_event_view_id(id, sizeof id);
        if (n >= 0) { put(" view "); for (int32_t i = 0; i < n && i < 128; i++) { char c[2] = {id[i], 0}; put(c); } }
    }
    rb_rect keyboard;
    put(rb_keyboard_frame(&keyboard) ? " keyboard " : " no keyboard");
    if (keyboard.height > 0) put_rect(keyboard);
    rb_screen_info screen;
    rb_screen(&screen);
    put(" root "); put_num(screen.root_origin_y);
    put(" responder "); put_int(rb_first_responder());
    put(" views "); put_int(rb_view_count());
    flush();
    if (kind == RB_SCENE) {
        for (int32_t v = 0; v < rb_view_count(); v++) {
            rb_view info;
            char id[128];
            int32_t n = rb_view_id(v, id, sizeof id);
            rb_view_info(v, &info);
            put("view "); for (int32_t i = 0; i < n && i < 128; i++) { char c[2] = {id[i], 0}; put(c); }
            put(" kind "); put_int(info.kind); put(" flags "); put_int(info.flags);
            if (info.flags & RB_HAS_TAG) { put(" tag "); put_int(rb_view_tag(&info)); }
            put(" parent "); put_int(info.parent); put(" frame "); put_rect(info.frame);
            flush();
        }
    }
    return 0;
}
