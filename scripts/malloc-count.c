/* LD_PRELOAD allocation counter for `pushgate bench translate` (AllocationCounter): counts malloc, calloc, realloc and
 * the aligned allocators, and prints the total to stderr when the process exits. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong allocations;

void *malloc(size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_realloc(p, size); }
void *memalign(size_t alignment, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = memalign(alignment, size);
    if (!p) return 12;
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    char line[64];
    int n = snprintf(line, sizeof line, "malloc-count: %lu\n", (unsigned long)atomic_load(&allocations));
    if (n > 0) (void)!write(2, line, (size_t)n);
}
