/*
 * pyhelper.c - C side of benchmarks/python/bench.py, built as a small shared
 * library (no link to libcadence: the library's functions are passed in as
 * pointers taken from the binding's own table, so both hosts drive the very
 * same loaded libcadence and the very same engine).
 *
 *   noop        a trivial function with cad_layer_get's argument types: the
 *               floor of a ctypes call with those arguments.
 *   cref_frame  one frame from C (cad_engine_tick + cad_engine_render_list into
 *               the caller's buffer), timed in C with CLOCK_MONOTONIC.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <time.h>

typedef int32_t (*tick_fn)(void *e, double now);
typedef int32_t (*render_fn)(void *e, uint64_t root, void *out, int32_t cap, int32_t *n_out);

int32_t noop(void *e, uint64_t layer, const char *keypath, double *out, int32_t cap, int32_t *n_out) {
  (void)e; (void)layer; (void)keypath; (void)out; (void)cap; (void)n_out;
  return 0;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Returns the first failing status (0 = CAD_OK); *ns_out = the frame's cost. */
int32_t cref_frame(void *tick, void *render, void *e, uint64_t root, void *out, int32_t cap, double now,
                   int64_t *ns_out, int32_t *n_out) {
  int64_t t0 = now_ns();
  int32_t st = ((tick_fn)tick)(e, now);
  if (st == 0) st = ((render_fn)render)(e, root, out, cap, n_out);
  int64_t t1 = now_ns();
  *ns_out = t1 - t0;
  return st;
}
