// The one thing ResponderBusExternal needs that neither libuv nor Swift's Glibc module gives it:
// writing to a plugin's pipe without the risk of SIGPIPE ending the host. libuv leaves SIGPIPE to
// the application (its documentation says to ignore it); a library cannot change the disposition
// of its embedder's process, so it blocks the signal on its own thread while it writes (Linux raises
// a pipe's SIGPIPE on the writing thread). On Darwin both calls do nothing: XNU raises it on the
// process, and the pipe's write end is marked F_SETNOSIGPIPE instead (see pipes.c).
#ifndef CPLUGINPIPES_H
#define CPLUGINPIPES_H

#include <signal.h>

/// What `rb_sigpipe_block` changed, for `rb_sigpipe_restore` to undo.
typedef struct {
    sigset_t previousMask;
    int wasBlocked;
} rb_sigpipe_guard;

/// Blocks SIGPIPE on the calling thread, remembering its mask (one system call).
void rb_sigpipe_block(rb_sigpipe_guard *guard);

/// Restores the thread's signal mask. When `writeFailed` and SIGPIPE was not blocked before
/// `rb_sigpipe_block`, first consumes the SIGPIPE the failed write raised on this thread (while it
/// was blocked, it waited as pending), so a write to a pipe whose reader has gone fails with EPIPE
/// instead of ending the process. Where the thread blocked SIGPIPE itself, its pending signal is
/// left to its owner.
void rb_sigpipe_restore(const rb_sigpipe_guard *guard, int writeFailed);

#endif
