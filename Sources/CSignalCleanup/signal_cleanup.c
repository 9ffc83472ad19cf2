#include "CSignalCleanup.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// More outputs and plugins than a command ever has at once (a recording and a report; `test
// --jobs N` a report or a snapshot and a plugin process or two per worker).
#define RB_CLEANUP_SLOTS 256

static _Atomic(char *) files[RB_CLEANUP_SLOTS];
static atomic_int groups[RB_CLEANUP_SLOTS];
static atomic_int installed;

int rb_cleanup_remember_file(const char *path) {
    char *copy = strdup(path);
    if (copy == NULL) return -1;
    for (int slot = 0; slot < RB_CLEANUP_SLOTS; slot++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&files[slot], &expected, copy)) return slot;
    }
    free(copy);
    return -1;
}

void rb_cleanup_forget_file(int slot) {
    if (slot < 0 || slot >= RB_CLEANUP_SLOTS) return;
    // Freed: a handler running at this very moment on another thread may still read the string,
    // but it runs only when the process is about to end, and then unlinks at worst a file that is
    // no longer this output's temporary one; never freed would leak a path per output written.
    free(atomic_exchange(&files[slot], NULL));
}

void rb_cleanup_remember_group(pid_t leader) {
    if (leader <= 0) return;
    for (int slot = 0; slot < RB_CLEANUP_SLOTS; slot++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&groups[slot], &expected, (int)leader)) return;
    }
}

void rb_cleanup_forget_group(pid_t leader) {
    if (leader <= 0) return;
    for (int slot = 0; slot < RB_CLEANUP_SLOTS; slot++) {
        int expected = (int)leader;
        if (atomic_compare_exchange_strong(&groups[slot], &expected, 0)) return;
    }
}

static void clean_up_and_raise(int signal_number) {
    for (int slot = 0; slot < RB_CLEANUP_SLOTS; slot++) {
        char *path = atomic_load(&files[slot]);
        if (path != NULL) unlink(path);
        int leader = atomic_load(&groups[slot]);
        if (leader > 0) kill(-leader, SIGKILL);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
}

void rb_cleanup_on_signals(void) {
    if (atomic_exchange(&installed, 1)) return;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0) continue;
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL) {
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_handler = clean_up_and_raise;
            sigemptyset(&action.sa_mask);
            sigaction(signals[index], &action, NULL);
        }
    }
}
