#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by the
/// calling thread so far. Counted by the interposed allocator in this executable.
uint64_t bench_malloc_count(void);
/// Whether allocations are counted (glibc: 1; elsewhere 0, and bench_malloc_count() stays 0).
int bench_counts_mallocs(void);

/// Raw libuv baseline: `producers` threads each send `per_producer` 80-byte structs to a libuv loop
/// thread through a mutex-guarded vector and uv_async_send. Returns the nanoseconds from the start
/// signal until the loop has consumed every struct.
uint64_t bench_rawuv_throughput(int producers, long per_producer);

/// Raw libuv round trips: `count` times, send one struct to the loop and spin until the loop has
/// stored its sequence number in an atomic. Writes each round trip's nanoseconds to `out`.
void bench_rawuv_roundtrip(long count, uint64_t *out);

/// A monotonic clock in nanoseconds.
uint64_t bench_now_ns(void);

/// Peak resident set size of terminated children, in kilobytes (getrusage RUSAGE_CHILDREN).
long bench_children_maxrss_kb(void);
/// Peak resident set size of this process, in kilobytes.
long bench_self_maxrss_kb(void);
/// Resident set size of this process now, in kilobytes (Linux: /proc/self/statm; Darwin: task_info).
long bench_self_rss_kb(void);
#endif
