/* "SceneMemory": counts the text inputs of the last scene it was shown and says the count on each
   keyboardWillShow ("fields lost" when it saw no scene). It traps on the show at t = 2, so that the
   fresh instance that replaces it has to get its count back from the host's catch-up. */
#include "responder_bus_plugin.h"

static int32_t fields = -1;

int32_t rb_plugin_init(void) {
    rb_set_name("SceneMemory");
    rb_observe(RB_SCENE);
    rb_observe(RB_KEYBOARD_WILL_SHOW);
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    if (kind == RB_SCENE) {
        fields = 0;
        for (int32_t view = 0; view < rb_view_count(); view++) {
            rb_view info;
            rb_view_info(view, &info);
            if (info.kind == RB_TEXT_FIELD || info.kind == RB_TEXT_VIEW) fields++;
        }
        rb_log("scene");
        return 0;
    }
    if (t >= 2 && t < 2.5) __builtin_trap();
    char text[] = "fields ?";
    if (fields < 0) {
        rb_log("fields lost");
    } else {
        if (fields < 10) text[7] = (char)('0' + fields);
        rb_log_n(text, (int32_t)sizeof text - 1);
    }
    return 0;
}
