/* Benchmark group 7: a WebAssembly plugin that asks for the six keyboard events and decides
   nothing (-DLOOPS: loops forever on each; -DTRAPS: traps on each). */
#include "responder_bus_plugin.h"

int32_t rb_plugin_init(void) {
    rb_set_name("NullKeyboard");
    for (int32_t kind = RB_KEYBOARD_WILL_SHOW; kind <= RB_KEYBOARD_DID_CHANGE_FRAME; kind++) rb_observe(kind);
    return 0;
}

static volatile int32_t sink;

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) {
#if defined(LOOPS)
    for (;;) sink++;
#elif defined(TRAPS)
    __builtin_trap();
#endif
    return 0;
}
