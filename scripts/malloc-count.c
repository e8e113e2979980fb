/* LD_PRELOAD allocation counter for `pushgate bench translate` (AllocationCounter): counts malloc, calloc, realloc and
 * the aligned allocators, and prints the total to stderr when the process exits.
 *
 * Every call goes on to the allocator the process would use without the counter (dlsym(RTLD_NEXT)): jemalloc,
 * which pushgate links, or glibc's. free goes there too, so memory is always freed by the allocator that gave it.
 * dlsym itself may allocate before the lookups are done: those few bytes come from a static buffer. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_ulong allocations;

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void *(*next_memalign)(size_t, size_t);
static void (*next_free)(void *);
static int resolving;

static _Alignas(16) char bootstrap[8192];
static size_t bootstrap_used;

static int from_bootstrap(const void *p) {
    return (const char *)p >= bootstrap && (const char *)p < bootstrap + sizeof bootstrap;
}

static void *bootstrap_alloc(size_t size) {
    size_t start = (bootstrap_used + 15) & ~(size_t)15;
    if (start + size > sizeof bootstrap) return NULL;
    bootstrap_used = start + size;
    return bootstrap + start;
}

static void resolve(void) {
    if (next_free || resolving) return;
    resolving = 1;
    next_malloc = dlsym(RTLD_NEXT, "malloc");
    next_calloc = dlsym(RTLD_NEXT, "calloc");
    next_realloc = dlsym(RTLD_NEXT, "realloc");
    next_memalign = dlsym(RTLD_NEXT, "memalign");
    next_free = dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

void *malloc(size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    resolve();
    return next_malloc ? next_malloc(size) : bootstrap_alloc(size);
}

void *calloc(size_t n, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    resolve();
    if (next_calloc) return next_calloc(n, size);
    void *p = bootstrap_alloc(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *realloc(void *p, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    resolve();
    if (p && from_bootstrap(p)) {
        void *moved = malloc(size);
        if (moved) memcpy(moved, p, size);
        return moved;
    }
    return next_realloc(p, size);
}

void *memalign(size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    resolve();
    return next_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = memalign(alignment, size);
    if (!p) return 12;
    *out = p;
    return 0;
}

void free(void *p) {
    if (!p || from_bootstrap(p)) return;
    resolve();
    next_free(p);
}

__attribute__((destructor)) static void report(void) {
    char line[64];
    int n = snprintf(line, sizeof line, "malloc-count: %lu\n", (unsigned long)atomic_load(&allocations));
    if (n > 0) (void)!write(2, line, (size_t)n);
}
