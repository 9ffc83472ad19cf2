// Temporary files that a signal ending the process removes: an output is written to a temporary
// file beside its target and renamed into place when complete; a run ended by SIGINT, SIGTERM or
// SIGHUP before that must not leave the temporary file behind. A signal handler may call only
// async-signal-safe functions, so the paths are kept here, in C, as plain strings in fixed slots.
#ifndef CTEMPORARYFILES_H
#define CTEMPORARYFILES_H

/// Remembers `path` as a temporary file to remove if a signal ends the process. Returns its slot
/// (for `rb_temporary_forget`), or -1 when all slots are taken (the file is then not removed by a
/// signal; it still is by an orderly end).
int rb_temporary_remember(const char *path);

/// Forgets the temporary file in `slot` (renamed into place, or removed): a later signal leaves it.
/// A slot of -1 is ignored.
void rb_temporary_forget(int slot);

/// Installs, once, a handler for SIGINT, SIGTERM and SIGHUP — each only where the signal's action
/// is still the default, so an ignored signal stays ignored and a handler set by the program (or
/// by libuv, later) is not replaced — that removes the remembered files, restores the default
/// action and raises the signal again, so the process ends as the signal would have ended it.
/// For a command-line program; a library leaves its embedder's signals alone.
void rb_temporary_remove_on_signals(void);

#endif
