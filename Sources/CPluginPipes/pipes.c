#include "CPluginPipes.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

void rb_sigpipe_block(rb_sigpipe_guard *guard) {
    sigset_t pipeSet;
    sigemptyset(&pipeSet);
    sigaddset(&pipeSet, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSet, &guard->previousMask);
    guard->wasBlocked = sigismember(&guard->previousMask, SIGPIPE);
}

void rb_sigpipe_restore(const rb_sigpipe_guard *guard, int writeFailed) {
    int saved = errno;
    if (writeFailed && !guard->wasBlocked) {
        sigset_t pipeSet, pending;
        sigemptyset(&pipeSet);
        sigaddset(&pipeSet, SIGPIPE);
        sigemptyset(&pending);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = {0, 0};
            while (sigtimedwait(&pipeSet, NULL, &zero) < 0 && errno == EINTR) {
            }
        }
    }
    pthread_sigmask(SIG_SETMASK, &guard->previousMask, NULL);
    errno = saved;
}
