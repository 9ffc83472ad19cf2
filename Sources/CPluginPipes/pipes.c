#include "CPluginPipes.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#ifdef __APPLE__

// XNU raises a pipe's SIGPIPE on the process, not on the writing thread (dofilewrite's psignal),
// so blocking it here would not keep another thread from taking it; the plugin's pipe is marked
// F_SETNOSIGPIPE instead (ResponderBusPlatform's SystemFiles.raiseNoSigPipe), and Darwin has no
// sigtimedwait to consume one. Both calls keep the guard and errno as they are.

void rb_sigpipe_block(rb_sigpipe_guard *guard) {
    sigemptyset(&guard->previousMask);
    guard->wasBlocked = 0;
}

void rb_sigpipe_restore(const rb_sigpipe_guard *guard, int writeFailed) {
    (void)guard;
    (void)writeFailed;
}

#else

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

#endif
