#include "CTemporaryFiles.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// More outputs than a command ever has open at once (a recording and a report; `test --jobs N`
// a report or a snapshot per worker).
#define RB_TEMPORARY_SLOTS 256

static _Atomic(char *) slots[RB_TEMPORARY_SLOTS];
static atomic_int installed;

int rb_temporary_remember(const char *path) {
    char *copy = strdup(path);
    if (copy == NULL) return -1;
    for (int slot = 0; slot < RB_TEMPORARY_SLOTS; slot++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&slots[slot], &expected, copy)) return slot;
    }
    free(copy);
    return -1;
}

void rb_temporary_forget(int slot) {
    if (slot < 0 || slot >= RB_TEMPORARY_SLOTS) return;
    // Freed: a handler running at this very moment on another thread may still read the string,
    // but it runs only when the process is about to end, and then unlinks at worst a file that is
    // no longer this output's temporary one; never freed would leak a path per output written.
    free(atomic_exchange(&slots[slot], NULL));
}

static void remove_and_raise(int signal_number) {
    for (int slot = 0; slot < RB_TEMPORARY_SLOTS; slot++) {
        char *path = atomic_load(&slots[slot]);
        if (path != NULL) unlink(path);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
}

void rb_temporary_remove_on_signals(void) {
    if (atomic_exchange(&installed, 1)) return;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0) continue;
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL) {
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_handler = remove_and_raise;
            sigemptyset(&action.sa_mask);
            sigaction(signals[index], &action, NULL);
        }
    }
}
