/*
 * __PluginName__: says, each time the keyboard shows, which field it showed for — or that no field
 * was focused yet (a text view's keyboard comes before its didBeginEditing).
 *
 * Replace this with your plugin: ask for the events you want in rb_plugin_init, read the screen
 * through the rb_ functions, and post what you decide through them.
 *
 *   ./build.sh && responder-bus replay session.jsonl --plugin __PluginName__.wasm
 */
#include "responder_bus_plugin.h"

int32_t rb_plugin_init(void) {
    rb_set_name("__PluginName__");  /* the "by" of what it derives; unique in the pipeline */
    rb_observe(RB_KEYBOARD_WILL_SHOW);
    /* rb_set_position(RB_AFTER, "KeyboardAvoidance");  -- else it goes last */
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
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
