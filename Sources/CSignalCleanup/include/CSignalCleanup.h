// What a signal ending the command must not leave behind: the temporary files of its outputs
// (written beside their target and renamed into place when complete) and the process groups of
// its out-of-process plugins (a plugin hung in a loop would outlive the host). A signal handler may
// call only async-signal-safe functions, so both are kept here, in C, in fixed slots.
#ifndef CSIGNALCLEANUP_H
#define CSIGNALCLEANUP_H

#include <sys/types.h>

/// Remembers `path` as a temporary file to remove if a signal ends the process. Returns its slot
/// (for `rb_cleanup_forget_file`), or -1 when all slots are taken (the file is then not removed by
/// a signal; it still is by an orderly end).
int rb_cleanup_remember_file(const char *path);

/// Forgets the temporary file in `slot` (renamed into place, or removed). -1 is ignored.
void rb_cleanup_forget_file(int slot);

/// Remembers the process group `leader` leads (a plugin's), to kill if a signal ends the process.
void rb_cleanup_remember_group(pid_t leader);

/// Forgets the process group `leader` led (it has been ended).
void rb_cleanup_forget_group(pid_t leader);

/// Installs, once, a handler for SIGINT, SIGTERM and SIGHUP — each only where the signal's action
/// is still the default, so an ignored signal stays ignored and a handler set by the program (or
/// by libuv, later) is not replaced — that removes the remembered files, kills the remembered
/// process groups (SIGKILL), restores the default action and raises the signal again, so the
/// process ends as the signal would have ended it. For a command-line program; a library leaves its
/// embedder's signals alone.
void rb_cleanup_on_signals(void);

#endif
