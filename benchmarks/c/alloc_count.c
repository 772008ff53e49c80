/*
 * alloc_count.c - counts heap allocations made by anything in the process
 * (libcadence's Swift runtime included: it allocates through malloc and
 * friends, and the library calls them through the PLT, so the definitions in
 * this executable win over glibc's).
 *
 * Every entry point forwards to the next definition (glibc's), found with
 * dlsym(RTLD_NEXT). dlsym itself may call calloc/malloc before the real
 * functions are known: those requests are served from a small static buffer
 * that free() and realloc() recognise.
 *
 * Counting is off until alloc_count_arm(1); the counters only grow.
 */
#define _GNU_SOURCE
#include "alloc_count.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_alloc_fn)(size_t, size_t);
typedef void *(*memalign_fn)(size_t, size_t);
typedef void *(*valloc_fn)(size_t);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static free_fn real_free;
static posix_memalign_fn real_posix_memalign;
static aligned_alloc_fn real_aligned_alloc;
static memalign_fn real_memalign;
static valloc_fn real_valloc;
static valloc_fn real_pvalloc;

/* Bootstrap arena for allocations made while dlsym resolves the real functions. */
static _Alignas(64) unsigned char boot_buf[64 * 1024];
static size_t boot_used;
static int resolving;

static int armed;
static alloc_counts counts;

static void *boot_alloc(size_t n) {
  size_t need = (n + 63) & ~(size_t)63;
  if (need < n || boot_used + need > sizeof boot_buf) return NULL;
  void *p = boot_buf + boot_used;
  boot_used += need;
  return p; /* static storage: already zeroed, never reused */
}

static int is_boot(const void *p) {
  return (const unsigned char *)p >= boot_buf && (const unsigned char *)p < boot_buf + sizeof boot_buf;
}

static void resolve(void) {
  if (real_malloc || resolving) return;
  resolving = 1;
  real_calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
  real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
  real_free = (free_fn)dlsym(RTLD_NEXT, "free");
  real_posix_memalign = (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = (aligned_alloc_fn)dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = (memalign_fn)dlsym(RTLD_NEXT, "memalign");
  real_valloc = (valloc_fn)dlsym(RTLD_NEXT, "valloc");
  real_pvalloc = (valloc_fn)dlsym(RTLD_NEXT, "pvalloc");
  real_malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc"); /* last: it marks "resolved" */
  resolving = 0;
}

#define BUMP(field, bytes)                                              \
  do {                                                                  \
    if (__atomic_load_n(&armed, __ATOMIC_RELAXED)) {                    \
      __atomic_fetch_add(&counts.field, 1, __ATOMIC_RELAXED);           \
      __atomic_fetch_add(&counts.bytes_requested, (uint64_t)(bytes), __ATOMIC_RELAXED); \
    }                                                                   \
  } while (0)

void *malloc(size_t n) {
  if (!real_malloc) {
    resolve();
    if (!real_malloc) return boot_alloc(n);
  }
  BUMP(malloc_calls, n);
  return real_malloc(n);
}

void *calloc(size_t k, size_t n) {
  if (!real_calloc) {
    resolve();
    if (!real_calloc) {
      if (n && k > SIZE_MAX / n) return NULL;
      return boot_alloc(k * n);
    }
  }
  BUMP(calloc_calls, k * n);
  return real_calloc(k, n);
}

void *realloc(void *p, size_t n) {
  if (p && is_boot(p)) {
    /* Move a bootstrap block to the real heap (its old size is unknown: copy
       what can be copied without reading past the arena). */
    void *q = malloc(n);
    if (q) {
      size_t avail = (size_t)(boot_buf + sizeof boot_buf - (unsigned char *)p);
      memcpy(q, p, n < avail ? n : avail);
    }
    return q;
  }
  if (!real_realloc) {
    resolve();
    if (!real_realloc) return boot_alloc(n);
  }
  BUMP(realloc_calls, n);
  return real_realloc(p, n);
}

void free(void *p) {
  if (!p || is_boot(p)) return;
  if (!real_free) resolve();
  if (__atomic_load_n(&armed, __ATOMIC_RELAXED)) __atomic_fetch_add(&counts.free_calls, 1, __ATOMIC_RELAXED);
  real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n) {
  if (!real_posix_memalign) resolve();
  BUMP(aligned_calls, n);
  return real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n) {
  if (!real_aligned_alloc) resolve();
  BUMP(aligned_calls, n);
  return real_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n) {
  if (!real_memalign) resolve();
  BUMP(aligned_calls, n);
  return real_memalign(align, n);
}

void *valloc(size_t n) {
  if (!real_valloc) resolve();
  BUMP(aligned_calls, n);
  return real_valloc(n);
}

void *pvalloc(size_t n) {
  if (!real_pvalloc) resolve();
  BUMP(aligned_calls, n);
  return real_pvalloc(n);
}

void alloc_count_arm(int on) { __atomic_store_n(&armed, on ? 1 : 0, __ATOMIC_SEQ_CST); }

void alloc_count_read(alloc_counts *out) {
  out->malloc_calls = __atomic_load_n(&counts.malloc_calls, __ATOMIC_RELAXED);
  out->calloc_calls = __atomic_load_n(&counts.calloc_calls, __ATOMIC_RELAXED);
  out->realloc_calls = __atomic_load_n(&counts.realloc_calls, __ATOMIC_RELAXED);
  out->aligned_calls = __atomic_load_n(&counts.aligned_calls, __ATOMIC_RELAXED);
  out->free_calls = __atomic_load_n(&counts.free_calls, __ATOMIC_RELAXED);
  out->bytes_requested = __atomic_load_n(&counts.bytes_requested, __ATOMIC_RELAXED);
}

uint64_t alloc_count_total(void) {
  /* Allocating calls only (malloc, calloc, realloc, the aligned family). */
  return __atomic_load_n(&counts.malloc_calls, __ATOMIC_RELAXED) +
         __atomic_load_n(&counts.calloc_calls, __ATOMIC_RELAXED) +
         __atomic_load_n(&counts.realloc_calls, __ATOMIC_RELAXED) +
         __atomic_load_n(&counts.aligned_calls, __ATOMIC_RELAXED);
}

uint64_t alloc_count_frees(void) { return __atomic_load_n(&counts.free_calls, __ATOMIC_RELAXED); }

int alloc_count_self_test(void) {
  /* Proves interposition works: an armed malloc from here must be counted.
     The volatile function pointer keeps the compiler from eliding the pair. */
  void *(*volatile m)(size_t) = malloc;
  void (*volatile f)(void *) = free;
  uint64_t before = alloc_count_total();
  alloc_count_arm(1);
  void *p = m(32);
  f(p);
  alloc_count_arm(0);
  return alloc_count_total() == before + 1;
}
