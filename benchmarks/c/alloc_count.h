/* alloc_count.h - heap allocation counter for the benchmarks (see alloc_count.c). */
#ifndef CADENCE_BENCH_ALLOC_COUNT_H
#define CADENCE_BENCH_ALLOC_COUNT_H

#include <stdint.h>

typedef struct alloc_counts {
  uint64_t malloc_calls;
  uint64_t calloc_calls;
  uint64_t realloc_calls;
  uint64_t aligned_calls; /* posix_memalign, aligned_alloc, memalign, valloc, pvalloc */
  uint64_t free_calls;
  uint64_t bytes_requested;
} alloc_counts;

/* Starts (1) or stops (0) counting. */
void alloc_count_arm(int on);
/* All counters since the start of the process (only armed calls are counted). */
void alloc_count_read(alloc_counts *out);
/* Allocating calls counted so far (everything but free). */
uint64_t alloc_count_total(void);
/* free() calls counted so far. */
uint64_t alloc_count_frees(void);
/* 1 when an armed malloc made from this binary is seen by the counter. */
int alloc_count_self_test(void);

#endif
