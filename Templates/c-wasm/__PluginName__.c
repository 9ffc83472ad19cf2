/*
 * __PluginName__: says, each time the keyboard comes up, which field it came up for — or that no
 * field was focused yet (a text view's keyboard comes before its didBeginEditing). It watches the
 * keyboard's frame changes as well as its shows: a log imported from a console mostly carries
 * keyboardWillChangeFrame alone.
 *
 * Replace this with your plugin: ask for the events you want in rb_plugin_init, read the screen
 * through the rb_ functions, and post what you decide through them.
 *
 *   ./build.sh && responder-bus replay session.jsonl --plugin __PluginName__.wasm
 */
#include "responder_bus_plugin.h"

/* Whether the keyboard was on the screen after the last keyboard event. */
static int32_t keyboard_was_up;

int32_t rb_plugin_init(void) {
    rb_set_name("__PluginName__");  /* the "by" of what it derives; unique in the pipeline */
    rb_observe(RB_KEYBOARD_WILL_SHOW);
    rb_observe(RB_KEYBOARD_WILL_CHANGE_FRAME);
    rb_observe(RB_KEYBOARD_WILL_HIDE);
    /* rb_set_position(RB_AFTER, "KeyboardAvoidance");  -- else it goes last */
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    /* The model has applied the event: the keyboard is up when it is shown with its top on the screen. */
    rb_rect keyboard;
    rb_screen_info screen;
    rb_screen(&screen);
    int32_t up = rb_keyboard_frame(&keyboard) && keyboard.height > 0 && keyboard.y < screen.height;
    int32_t came_up = up && !keyboard_was_up;
    keyboard_was_up = up;
    if (!came_up) return 0;

    static const char prefix[] = "the keyboard showed for '";
    char message[160];
    int32_t field = rb_first_responder();
    if (field < 0) {
        rb_log("the keyboard showed for no field yet");
        return 0;
    }
    int32_t used = 0;
    for (; prefix[used]; used++) message[used] = prefix[used];
    int32_t length = rb_view_id(field, message + used, (int32_t)sizeof message - used - 1);
    used += length < (int32_t)sizeof message - used - 1 ? length : (int32_t)sizeof message - used - 1;
    message[used++] = '\'';
    rb_diagnose_n(RB_INFO, message, used, field);
    return 0;
}
