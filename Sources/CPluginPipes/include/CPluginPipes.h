// The two C calls ResponderBusExternal needs that Swift's Glibc module does not give it: pipe2
// (a _GNU_SOURCE function, needed so that no other thread's child inherits a plugin's pipe before
// it is close-on-exec) and a write that cannot raise SIGPIPE in the host.
#ifndef CPLUGINPIPES_H
#define CPLUGINPIPES_H

#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start. Returns 0, or -1 with errno.
int rb_pipe_cloexec(int fds[2]);

/// write(2) to a pipe whose reader may have gone: SIGPIPE is blocked on the calling thread for the
/// call, and the one it raised (if it raised one, and none was pending before) is consumed, so a
/// dead plugin makes the write fail with EPIPE instead of ending the host. Returns what write
/// returns, errno as write left it.
ssize_t rb_write_nosigpipe(int fd, const void *bytes, size_t count);

#endif
