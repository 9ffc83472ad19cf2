/* One plugin, "Misbehaving", that handles keyboardWillShow in the way the define picks (and
   logs "fine" otherwise): the sandbox tests build it once per define. */
#include "responder_bus_plugin.h"

int32_t rb_plugin_init(void) {
    rb_set_name("Misbehaving");
    rb_observe(RB_KEYBOARD_WILL_SHOW);
    rb_observe(RB_KEYBOARD_DID_SHOW);
    return 0;
}

static volatile int32_t sink;

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
    if (kind != RB_KEYBOARD_WILL_SHOW) {
        rb_log("fine");
        return 0;
    }
#if defined(LOOP)
    rb_log("looping");
    for (;;) sink++;
#elif defined(TRAP)
    rb_post_view_shift(-100, 0.25, 7); /* never posted: the call traps */
    __builtin_trap();
#elif defined(GROW)
    for (;;) {
        if (__builtin_wasm_memory_grow(0, 16) < 0) return 1;
    }
#elif defined(BAD_ADDRESS)
    rb_log_n((const char *)0x7ffffff0, 64);
#elif defined(BAD_VIEW)
    rb_post_focus_change(-1, 99999);
#elif defined(ERROR_CODE)
    return 7;
#elif defined(CHATTY)
    for (int i = 0; i < 150; i++) rb_log("chatter");
#elif defined(FLOOD)
    for (int i = 0; i < 20000; i++) rb_post_action("go");
#elif defined(BIG_NAMES)
    /* 100 action names of 4 MiB each in one delivery: the host would hold 400 MiB of them. */
    static char big[4 << 20];
    for (int i = 0; i < (int)sizeof big; i++) big[i] = 'a';
    for (int i = 0; i < 100; i++) rb_post_action_n(big, (int32_t)sizeof big);
#endif
    return 0;
}
