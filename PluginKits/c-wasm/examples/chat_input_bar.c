/* chat_input_bar.c — the plugin guide's ChatInputBar in C: the view holding a text input whose bottom
 * sits on the bottom of the safe area follows the keyboard, out of avoidance; KeyboardAvoidance moves it.
 *   clang --target=wasm32 -nostdlib -fno-builtin -O2 -Wl,--no-entry -I PluginKits/c-wasm \
 *         -o chat_input_bar.wasm PluginKits/c-wasm/examples/chat_input_bar.c */
#include "responder_bus_plugin.h"

int32_t rb_plugin_init(void) {
    rb_set_name("ChatInputBar");
    rb_observe(RB_SCENE);
    rb_set_position(RB_BEFORE, "KeyboardAvoidance");
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    rb_screen_info screen;
    rb_screen(&screen);
    double safe_bottom = screen.height - screen.safe_bottom;
    for (int32_t handle = 0; handle < rb_view_count(); handle++) {
        rb_view field, bar;
        rb_view_info(handle, &field);
        if ((field.kind != RB_TEXT_FIELD && field.kind != RB_TEXT_VIEW) || field.parent <= 0) continue;
        rb_view_info(field.parent, &bar);
        double bottom = bar.frame.y + bar.frame.height;
        if (bottom - safe_bottom >= 1 || safe_bottom - bottom >= 1) continue;
        if ((bar.flags & RB_AVOIDS_KEYBOARD) || !(bar.flags & RB_FOLLOWS_KEYBOARD))
            rb_post_view_settings(field.parent, bar.flags & RB_HAS_KEYBOARD_DISTANCE ? bar.keyboard_distance : __builtin_nan(""),
                                  RB_SETTINGS_FOLLOWS_KEYBOARD);
    }
    return 0;
}
