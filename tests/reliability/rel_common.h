/*
 * rel_common.h - small helpers shared by the reliability tests (header-only, C99).
 */
#ifndef CADENCE_RELIABILITY_COMMON_H
#define CADENCE_RELIABILITY_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "cadence.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL_FAIL(...)                                                      \
    do {                                                                   \
        fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);               \
        fprintf(stderr, __VA_ARGS__);                                      \
        fprintf(stderr, "\n");                                             \
        exit(1);                                                           \
    } while (0)

/* Asserts a call returns CAD_OK; prints the library's message otherwise. */
#define REL_OK(call)                                                                      \
    do {                                                                                  \
        cad_status rel_st_ = (call);                                                      \
        if (rel_st_ != CAD_OK)                                                            \
            REL_FAIL("%s returned %s: %s", #call, cad_status_name(rel_st_), cad_last_error()); \
    } while (0)

#define REL_CHECK(cond, ...)                       \
    do {                                           \
        if (!(cond)) REL_FAIL(__VA_ARGS__);         \
    } while (0)

/* splitmix64: a small deterministic generator. */
typedef struct { uint64_t s; } rel_rng;

static inline uint64_t rel_next(rel_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint32_t rel_below(rel_rng *r, uint32_t n) { return n ? (uint32_t)(rel_next(r) % n) : 0; }

/* Uniform in [lo, hi). */
static inline double rel_uniform(rel_rng *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(rel_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

/* FNV-1a over bytes. */
static inline uint64_t rel_hash(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define REL_HASH_INIT 0xcbf29ce484222325ull

/* An integer from the environment, or a default. */
static inline long rel_env_long(const char *name, long dflt) {
    const char *v = getenv(name);
    return (v && *v) ? strtol(v, NULL, 10) : dflt;
}

#endif
