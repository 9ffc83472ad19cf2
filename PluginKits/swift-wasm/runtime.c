/*
 * runtime.c — the few C symbols an Embedded Swift plugin needs on wasm32-unknown-none-wasm, where
 * there is no libc: an allocator, the memory functions, print's putchar, a random source for
 * hashing, and the arithmetic WebAssembly has no instruction for. build.sh compiles it with the
 * toolchain's clang:
 *
 *   clang --target=wasm32 -O2 -ffreestanding -fno-builtin -nostdlib -c runtime.c -o runtime.o
 *
 * wasm-ld keeps only what the plugin reaches: a plugin that never allocates carries no allocator.
 * The host offers no WASI, so everything here is computation on the module's own memory, except
 * putchar, which hands whole lines to rb.log.
 */

typedef __SIZE_TYPE__ size_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;

#define ENOMEM 12
#define EINVAL 22

__attribute__((import_module("rb"), import_name("log"))) void rb_log_n(const char *text, int32_t length);

/* ---- Memory: a size-class free-list allocator over memory.grow ------------------------------
 *
 * Every block is 32 << k bytes (k < 24, so at most 512 MiB; the sandbox's ceiling is far lower),
 * 16-byte aligned, taken from its class's free list or else from the top of the heap, which starts
 * at __heap_base (wasm-ld: the end of the data and the stack) and grows the memory a page at a
 * time. The 8 bytes before the address handed out say the block's class and where it starts, so
 * free() puts it back on its list. Nothing is ever given back to the host, and blocks are not
 * split or merged: plugins allocate small, short-lived strings and arrays, for which this is
 * small, fast and does not fragment.
 */

extern uint8_t __heap_base;

#define PAGE 65536u
#define HEADER 16u
#define CLASSES 24

typedef struct free_block {
    struct free_block *next;
} free_block;

static free_block *free_lists[CLASSES];
static uintptr_t heap_top, heap_end;

/* A block of class k: from its free list, else from the top of the heap. */
static void *take_block(int k) {
    free_block *block = free_lists[k];
    if (block) {
        free_lists[k] = block->next;
        return block;
    }
    size_t size = (size_t)32 << k;
    if (!heap_top) {
        heap_top = ((uintptr_t)&__heap_base + HEADER - 1) & ~(uintptr_t)(HEADER - 1);
        heap_end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    }
    if (size > heap_end - heap_top) {
        size_t pages = (size - (heap_end - heap_top) + PAGE - 1) / PAGE;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
        heap_end += pages * PAGE;
    }
    void *start = (void *)heap_top;
    heap_top += size;
    return start;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < HEADER) alignment = HEADER;
    if (alignment & (alignment - 1)) return EINVAL;
    if (size > ((size_t)1 << 28) || alignment > ((size_t)1 << 20)) return ENOMEM;
    size_t need = size + alignment; /* the header, and room to align the address */
    int k = 0;
    while (((size_t)32 << k) < need) {
        if (++k == CLASSES) return ENOMEM;
    }
    uint8_t *block = take_block(k);
    if (!block) return ENOMEM;
    uintptr_t address = ((uintptr_t)block + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uint32_t *tag = (uint32_t *)(address - 8);
    tag[0] = (uint32_t)k;
    tag[1] = (uint32_t)(address - (uintptr_t)block);
    *out = (void *)address;
    return 0;
}

void *malloc(size_t size) {
    void *address;
    return posix_memalign(&address, HEADER, size) == 0 ? address : 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *address;
    return posix_memalign(&address, alignment, size) == 0 ? address : 0;
}

void free(void *address) {
    if (!address) return;
    uint32_t *tag = (uint32_t *)((uintptr_t)address - 8);
    free_block *block = (free_block *)((uintptr_t)address - tag[1]);
    block->next = free_lists[tag[0]];
    free_lists[tag[0]] = block;
}

/* ---- The memory functions (the compiler emits memory.copy and memory.fill itself; these are
 * for code that calls them by name) ---------------------------------------------------------- */

void *memcpy(void *to, const void *from, size_t count) {
    uint8_t *d = to;
    const uint8_t *s = from;
    while (count--) *d++ = *s++;
    return to;
}

void *memmove(void *to, const void *from, size_t count) {
    uint8_t *d = to;
    const uint8_t *s = from;
    if (d < s) {
        while (count--) *d++ = *s++;
    } else {
        while (count--) d[count] = s[count];
    }
    return to;
}

void *memset(void *to, int value, size_t count) {
    uint8_t *d = to;
    while (count--) *d++ = (uint8_t)value;
    return to;
}

int memcmp(const void *a, const void *b, size_t count) {
    const uint8_t *x = a, *y = b;
    for (; count; count--, x++, y++) {
        if (*x != *y) return *x - *y;
    }
    return 0;
}

size_t strlen(const char *text) {
    size_t n = 0;
    while (text[n]) n++;
    return n;
}

/* ---- print: lines to rb.log ------------------------------------------------------------------
 *
 * Embedded Swift's print() writes a character at a time with putchar. Each line becomes one info
 * diagnostic (rb.log; the host keeps what is logged during a delivery, not in rb_init). The kit
 * flushes a partial line when a delivery returns (rb_kit_flush_output). */

static char line[256];
static int32_t line_length;

void rb_kit_flush_output(void) {
    if (line_length > 0) rb_log_n(line, line_length);
    line_length = 0;
}

int putchar(int c) {
    if (c == '\n') {
        /* An empty line is still a line: log it as one. */
        rb_log_n(line, line_length);
        line_length = 0;
        return c;
    }
    if (line_length == (int32_t)sizeof line) rb_kit_flush_output();
    line[line_length++] = (char)c;
    return c;
}

/* ---- Randomness: hashing seeds ---------------------------------------------------------------
 *
 * The standard library seeds Set and Dictionary hashing here. A plugin must be deterministic (a
 * replay is run again and compared), and the sandbox has no entropy anyway: a fixed splitmix64
 * sequence. */

static uint64_t random_state = 0x52657370426e7573ull; /* "RespBnus" */

void arc4random_buf(void *buffer, size_t count) {
    uint8_t *out = buffer;
    while (count) {
        uint64_t z = (random_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (int i = 0; i < 8 && count; i++, count--) *out++ = (uint8_t)(z >> (8 * i));
    }
}

/* ---- round: Double.rounded() (to nearest, ties away from zero), which WebAssembly has no
 * instruction for (f64.nearest ties to even). ---------------------------------------------------- */

double round(double x) {
    if (!(__builtin_fabs(x) < 4503599627370496.0)) return x; /* NaN, infinities, already whole */
    double whole = __builtin_trunc(x);
    if (__builtin_fabs(x - whole) >= 0.5) whole += __builtin_copysign(1.0, x);
    return whole;
}

float roundf(float x) {
    if (!(__builtin_fabsf(x) < 8388608.0f)) return x;
    float whole = __builtin_truncf(x);
    if (__builtin_fabsf(x - whole) >= 0.5f) whole += __builtin_copysignf(1.0f, x);
    return whole;
}

/* ---- __multi3: 128-bit multiplication (compiler-rt's), which the Double-to-text code of the
 * standard library (String(someDouble), "\(someDouble)") uses. ----------------------------------- */

typedef union {
    __int128 all;
    struct {
        uint64_t low, high;
    } s;
} twords;

/* The full 128-bit product of two 64-bit numbers, from 32-bit halves. */
static __int128 multiply_64x64(uint64_t a, uint64_t b) {
    const uint64_t mask = 0xffffffffu;
    twords r;
    r.s.low = (a & mask) * (b & mask);
    uint64_t t = r.s.low >> 32;
    r.s.low &= mask;
    t += (a >> 32) * (b & mask);
    r.s.low += (t & mask) << 32;
    r.s.high = t >> 32;
    t = r.s.low >> 32;
    r.s.low &= mask;
    t += (b >> 32) * (a & mask);
    r.s.low += (t & mask) << 32;
    r.s.high += t >> 32;
    r.s.high += (a >> 32) * (b >> 32);
    return r.all;
}

__int128 __multi3(__int128 a, __int128 b) {
    twords x = {.all = a}, y = {.all = b}, r;
    r.all = multiply_64x64(x.s.low, y.s.low);
    r.s.high += x.s.high * y.s.low + x.s.low * y.s.high;
    return r.all;
}
