#define _GNU_SOURCE
#include "CBenchSupport.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <sys/resource.h>
#include <uv.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach/mach.h>
#endif

/* ---- malloc counter: the executable's definitions win over libc's for every library ---- */
/* glibc's: it calls __libc_malloc and friends behind its own names. Darwin's libmalloc has no
   such names, and a Mach-O program's malloc does not replace the libraries' (two-level
   namespace): there nothing is counted, and bench_counts_mallocs() says so. */
#if defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread uint64_t tls_mallocs;

void *malloc(size_t n) { tls_mallocs++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { tls_mallocs++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { tls_mallocs++; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) { tls_mallocs++; return __libc_memalign(al, n); }
void *aligned_alloc(size_t al, size_t n) { tls_mallocs++; return __libc_memalign(al, n); }
int posix_memalign(void **out, size_t al, size_t n) {
    tls_mallocs++;
    void *p = __libc_memalign(al, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
uint64_t bench_malloc_count(void) { return tls_mallocs; }
int bench_counts_mallocs(void) { return 1; }
#else
uint64_t bench_malloc_count(void) { return 0; }
int bench_counts_mallocs(void) { return 0; }
#endif

uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ru_maxrss is in kilobytes on Linux, in bytes on Darwin. */
#ifdef __APPLE__
#define RB_MAXRSS_KB(u) ((u).ru_maxrss / 1024)
#else
#define RB_MAXRSS_KB(u) ((u).ru_maxrss)
#endif
long bench_children_maxrss_kb(void) { struct rusage u; getrusage(RUSAGE_CHILDREN, &u); return RB_MAXRSS_KB(u); }
long bench_self_maxrss_kb(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return RB_MAXRSS_KB(u); }

long bench_self_rss_kb(void) {
#ifdef __APPLE__
    mach_task_basic_info_data_t info;
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, (task_info_t)&info, &count) != KERN_SUCCESS) return 0;
    return (long)(info.resident_size / 1024);
#else
    long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm == NULL) return 0;
    if (fscanf(statm, "%*ld %ld", &pages) != 1) pages = 0;
    fclose(statm);
    return pages * (sysconf(_SC_PAGESIZE) / 1024);
#endif
}

/* ---- raw libuv baseline ---- */
typedef struct { uint64_t seq; double frame[8]; uint64_t flags; } item_t; /* 80 bytes, like KeyboardInfo */

typedef struct {
    uv_loop_t loop;
    uv_async_t async;
    pthread_mutex_t lock;
    item_t *items; size_t count, cap;
    item_t *spare; size_t spare_cap;
    int stop;
    long consumed;
    long target;
    double sink;
    _Atomic uint64_t last_seq;
    _Atomic int done;
} rawuv_t;

static void rawuv_async_cb(uv_async_t *h) {
    rawuv_t *r = h->data;
    pthread_mutex_lock(&r->lock);
    item_t *batch = r->items; size_t n = r->count, cap = r->cap;
    r->items = r->spare; r->cap = r->spare_cap; r->count = 0;
    int stop = r->stop;
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < n; i++) {
        r->sink += batch[i].frame[3];
        atomic_store_explicit(&r->last_seq, batch[i].seq, memory_order_release);
    }
    r->consumed += (long)n;
    r->spare = batch; r->spare_cap = cap;
    if (r->target && r->consumed >= r->target) atomic_store_explicit(&r->done, 1, memory_order_release);
    if (stop) uv_close((uv_handle_t *)&r->async, NULL);
}

static void *rawuv_thread(void *arg) {
    rawuv_t *r = arg;
    uv_run(&r->loop, UV_RUN_DEFAULT);
    return NULL;
}

static void rawuv_send(rawuv_t *r, const item_t *it) {
    pthread_mutex_lock(&r->lock);
    if (r->count == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->items = realloc(r->items, r->cap * sizeof(item_t));
    }
    int was_empty = r->count == 0;
    r->items[r->count++] = *it;
    if (was_empty) uv_async_send(&r->async);
    pthread_mutex_unlock(&r->lock);
}

static void rawuv_start(rawuv_t *r, pthread_t *t) {
    memset(r, 0, sizeof *r);
    uv_loop_init(&r->loop);
    uv_async_init(&r->loop, &r->async, rawuv_async_cb);
    r->async.data = r;
    pthread_mutex_init(&r->lock, NULL);
    pthread_create(t, NULL, rawuv_thread, r);
}

static void rawuv_stop(rawuv_t *r, pthread_t t) {
    pthread_mutex_lock(&r->lock);
    r->stop = 1;
    uv_async_send(&r->async);
    pthread_mutex_unlock(&r->lock);
    pthread_join(t, NULL);
    uv_loop_close(&r->loop);
    pthread_mutex_destroy(&r->lock);
    free(r->items); free(r->spare);
}

typedef struct { rawuv_t *r; long n; _Atomic int *go; } producer_arg;

static void *rawuv_producer(void *p) {
    producer_arg *a = p;
    while (!atomic_load(a->go)) {}
    item_t it = {0};
    for (long i = 0; i < a->n; i++) {
        it.seq = (uint64_t)i; it.frame[3] = (double)(i & 255);
        rawuv_send(a->r, &it);
    }
    return NULL;
}

uint64_t bench_rawuv_throughput(int producers, long per_producer) {
    static rawuv_t r; pthread_t loop_thread;
    rawuv_start(&r, &loop_thread);
    r.target = (long)producers * per_producer;
    _Atomic int go = 0;
    pthread_t threads[64]; producer_arg args[64];
    for (int i = 0; i < producers; i++) {
        args[i] = (producer_arg){&r, per_producer, &go};
        pthread_create(&threads[i], NULL, rawuv_producer, &args[i]);
    }
    uint64_t start = bench_now_ns();
    atomic_store(&go, 1);
    for (int i = 0; i < producers; i++) pthread_join(threads[i], NULL);
    while (!atomic_load_explicit(&r.done, memory_order_acquire)) usleep(50);
    uint64_t elapsed = bench_now_ns() - start;
    rawuv_stop(&r, loop_thread);
    return elapsed;
}

void bench_rawuv_roundtrip(long count, uint64_t *out) {
    static rawuv_t r; pthread_t loop_thread;
    rawuv_start(&r, &loop_thread);
    item_t it = {0};
    for (long i = 0; i < count; i++) {
        it.seq = (uint64_t)i + 1;
        uint64_t t0 = bench_now_ns();
        rawuv_send(&r, &it);
        while (atomic_load_explicit(&r.last_seq, memory_order_acquire) != it.seq) {}
        out[i] = bench_now_ns() - t0;
    }
    rawuv_stop(&r, loop_thread);
}
