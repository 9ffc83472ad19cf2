/* Handshakes the host refuses, one per define: another ABI version, no name, an event kind that
   does not exist, an import the host does not offer, a module that declares too much memory (built
   with -Wl,--initial-memory). */
#include "responder_bus_plugin.h"

#if defined(NO_FILES)
__attribute__((import_module("wasi_snapshot_preview1"), import_name("fd_write")))
int32_t fd_write(int32_t, int32_t, int32_t, int32_t);
__attribute__((import_module("env"), import_name("fopen"))) int32_t fopen_(int32_t, int32_t);
#endif


int32_t rb_plugin_init(void) {
#if defined(NO_NAME)
    return 0;
#else
    rb_set_name("Refused");
#endif
#if defined(UNKNOWN_EVENT)
    rb_observe(42);
#endif
#if defined(NO_FILES)
    fd_write(1, 0, 0, 0);
    fopen_(0, 0);
#endif
#if defined(NOT_READY)
    return 3;
#endif
    return 0;
}

int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *payload) { return 0; }
