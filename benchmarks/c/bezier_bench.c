/*
 * bezier_bench.c - cost and accuracy of cubic Bézier timing-function solving:
 * libcadence's solver against the WebKit/Chromium approach, in one binary.
 *
 *   bezier_bench [--json FILE] [--n N] [--reps R] [--dump-reference FILE] [--quick]
 *
 * The WebKit/Chromium approach (WebCore's UnitBezier, Chromium's
 * gfx::CubicBezier), written here from its description: polynomial
 * coefficients; 11 samples of x(t) at t = 0, 0.1, ..., 1 taken when the curve
 * is made; a first guess by linear interpolation between the two samples that
 * bracket x; at most 4 Newton steps, stopping when |x(t) - x| < 1e-7 or when
 * |x'(t)| < 1e-7; then bisection inside the bracketing sample interval down to
 * |x(t) - x| < max(1e-10, epsilon). epsilon = 1e-7 (Chromium's kBezierEpsilon).
 *
 * libcadence's solver is reached through
 *   cad_status cad_timing_eval_batch(double c1x, double c1y, double c2x, double c2y,
 *                                    const double *x, double *y, int32_t n);
 * resolved with dlsym, so this program builds and runs ("not available")
 * against a library that does not export it yet. Both solvers are timed the
 * same way: one call per curve evaluates N shuffled inputs (a uniform grid in
 * [0, 1] in random order), and the outputs are summed to keep the work.
 * Repetitions alternate between the two solvers; medians are reported.
 *
 * Accuracy: the reference is the exact solution computed in long double (64-bit
 * mantissa): bisection on t to the last bit of x(t) = x, then y(t). Max
 * absolute error of each solver over a dense grid plus random and edge points.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cadence.h"

typedef cad_status (*eval_batch_fn)(double c1x, double c1y, double c2x, double c2y, const double *x, double *y,
                                    int32_t n);
typedef cad_status (*eval_batch4_fn)(const double *curve4, const double *x, double *y, int32_t n);

static eval_batch_fn cad_eval;          /* cad_timing_eval_batch */
static eval_batch4_fn cad_eval4;        /* cad_timing_function_eval_batch (alternative spelling) */
static const char *cad_eval_name = NULL;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------------------ */
/* The WebKit/Chromium approach                                             */

#define WK_SAMPLES 11
static const double WK_EPSILON = 1e-7;          /* kBezierEpsilon */
static const double WK_BISECTION_EPSILON = 1e-10;
static const int WK_MAX_NEWTON = 4;

typedef struct {
  double ax, bx, cx, ay, by, cy;
  double start_gradient, end_gradient;
  double samples[WK_SAMPLES];
} wk_curve;

static inline double wk_x(const wk_curve *c, double t) { return ((c->ax * t + c->bx) * t + c->cx) * t; }
static inline double wk_y(const wk_curve *c, double t) { return ((c->ay * t + c->by) * t + c->cy) * t; }
static inline double wk_dx(const wk_curve *c, double t) { return (3.0 * c->ax * t + 2.0 * c->bx) * t + c->cx; }

static void wk_init(wk_curve *c, double p1x, double p1y, double p2x, double p2y) {
  c->cx = 3.0 * p1x;
  c->bx = 3.0 * (p2x - p1x) - c->cx;
  c->ax = 1.0 - c->cx - c->bx;
  c->cy = 3.0 * p1y;
  c->by = 3.0 * (p2y - p1y) - c->cy;
  c->ay = 1.0 - c->cy - c->by;
  /* gradients for inputs outside [0, 1] (not exercised here) */
  if (p1x > 0) c->start_gradient = p1y / p1x;
  else if (p1y == 0 && p2x > 0) c->start_gradient = p2y / p2x;
  else if (p1y == 0 && p2y == 0) c->start_gradient = 1;
  else c->start_gradient = 0;
  if (p2x < 1) c->end_gradient = (p2y - 1) / (p2x - 1);
  else if (p2y == 1 && p1x < 1) c->end_gradient = (p1y - 1) / (p1x - 1);
  else if (p2y == 1 && p1y == 1) c->end_gradient = 1;
  else c->end_gradient = 0;
  for (int i = 0; i < WK_SAMPLES; i++) c->samples[i] = wk_x(c, i * (1.0 / (WK_SAMPLES - 1)));
}

static inline double wk_solve_t(const wk_curve *c, double x, double eps) {
  const double dt = 1.0 / (WK_SAMPLES - 1);
  double lo = 0.0, hi = 0.0, t = x, err = 0.0;
  /* first guess: interpolate between the bracketing samples */
  for (int i = 1; i < WK_SAMPLES; i++) {
    if (x <= c->samples[i]) {
      hi = dt * i;
      lo = hi - dt;
      t = lo + (hi - lo) * (x - c->samples[i - 1]) / (c->samples[i] - c->samples[i - 1]);
      break;
    }
  }
  /* Newton */
  double newton_eps = eps < WK_EPSILON ? eps : WK_EPSILON;
  for (int i = 0; i < WK_MAX_NEWTON; i++) {
    err = wk_x(c, t) - x;
    if (fabs(err) < newton_eps) return t;
    double d = wk_dx(c, t);
    if (fabs(d) < WK_EPSILON) break;
    t -= err / d;
  }
  if (fabs(err) < eps) return t;
  /* bisection inside the sample interval */
  double beps = eps > WK_BISECTION_EPSILON ? eps : WK_BISECTION_EPSILON;
  while (lo < hi) {
    double xt = wk_x(c, t);
    if (fabs(xt - x) < beps) return t;
    if (x > xt) lo = t;
    else hi = t;
    t = lo + (hi - lo) * 0.5;
  }
  return t;
}

static inline double wk_solve(const wk_curve *c, double x, double eps) {
  if (x < 0.0) return 0.0 + c->start_gradient * x;
  if (x > 1.0) return 1.0 + c->end_gradient * (x - 1.0);
  return wk_y(c, wk_solve_t(c, x, eps));
}

/* The same shape of call as the library's batch: build the curve once, solve n inputs. */
__attribute__((noinline)) static void wk_eval_batch(double c1x, double c1y, double c2x, double c2y, const double *x,
                                                    double *y, int32_t n) {
  wk_curve c;
  wk_init(&c, c1x, c1y, c2x, c2y);
  for (int32_t i = 0; i < n; i++) y[i] = wk_solve(&c, x[i], WK_EPSILON);
}

static cad_status cadence_eval_batch(double c1x, double c1y, double c2x, double c2y, const double *x, double *y,
                                     int32_t n) {
  if (cad_eval) return cad_eval(c1x, c1y, c2x, c2y, x, y, n);
  double c4[4] = {c1x, c1y, c2x, c2y};
  return cad_eval4(c4, x, y, n);
}

/* ------------------------------------------------------------------------ */
/* Reference: long double                                                   */

static long double ref_bez(long double p1, long double p2, long double t) {
  long double s = 1.0L - t;
  return 3.0L * s * s * t * p1 + 3.0L * s * t * t * p2 + t * t * t;
}

static double ref_solve(const double cv[4], double xd) {
  long double x = xd;
  if (x <= 0) return 0.0;
  if (x >= 1) return 1.0;
  long double lo = 0.0L, hi = 1.0L;
  /* x(t) is non-decreasing for c1x, c2x in [0, 1] */
  for (int i = 0; i < 200; i++) {
    long double mid = 0.5L * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (ref_bez(cv[0], cv[2], mid) < x) lo = mid;
    else hi = mid;
  }
  /* pick the closer end of the final bracket */
  long double t = (fabsl(ref_bez(cv[0], cv[2], lo) - x) <= fabsl(ref_bez(cv[0], cv[2], hi) - x)) ? lo : hi;
  return (double)ref_bez(cv[1], cv[3], t);
}

/* ------------------------------------------------------------------------ */

typedef struct {
  const char *name;
  double c[4];
} curve;

static const curve CURVES[] = {
    {"linear", {0, 0, 1, 1}},
    {"easeIn", {0.42, 0, 1, 1}},
    {"easeOut", {0, 0, 0.58, 1}},
    {"easeInEaseOut", {0.42, 0, 0.58, 1}},
    {"default", {0.25, 0.1, 0.25, 1}},
    {"steep", {0.9, 0, 0.1, 1}},
    {"overshoot", {0.68, -0.6, 0.32, 1.6}},
    {"backOut", {0.34, 1.56, 0.64, 1}},
};
#define N_CURVES ((int)(sizeof CURVES / sizeof CURVES[0]))

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double rng_unit(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}
static double median_i64(int64_t *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_i64);
  return (n % 2) ? (double)v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { fprintf(stderr, "bezier_bench: out of memory\n"); exit(3); }
  return p;
}

int main(int argc, char **argv) {
  const char *json_path = NULL, *dump_path = NULL;
  int32_t n = 1000000;
  int reps = 15;
  int32_t n_acc = 200001;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json") && v) { json_path = v; i++; }
    else if (!strcmp(a, "--n") && v) { n = atoi(v); i++; }
    else if (!strcmp(a, "--reps") && v) { reps = atoi(v); i++; }
    else if (!strcmp(a, "--accuracy-points") && v) { n_acc = atoi(v); i++; }
    else if (!strcmp(a, "--dump-reference") && v) { dump_path = v; i++; }
    else if (!strcmp(a, "--quick")) { n = 200000; reps = 7; n_acc = 50001; }
    else {
      fprintf(stderr, "usage: bezier_bench [--json FILE] [--n N] [--reps R] [--accuracy-points N] "
                      "[--dump-reference FILE] [--quick]\n");
      return 2;
    }
  }

  cad_eval = (eval_batch_fn)dlsym(RTLD_DEFAULT, "cad_timing_eval_batch");
  if (cad_eval) cad_eval_name = "cad_timing_eval_batch";
  else {
    cad_eval4 = (eval_batch4_fn)dlsym(RTLD_DEFAULT, "cad_timing_function_eval_batch");
    if (cad_eval4) cad_eval_name = "cad_timing_function_eval_batch";
  }
  int have_cad = cad_eval_name != NULL;
  fprintf(stderr, "libcadence %s: %s\n", cad_version_string(),
          have_cad ? cad_eval_name : "cad_timing_eval_batch not available (timing and accuracy of Cadence skipped)");

  /* timing inputs: a uniform grid over [0, 1], shuffled */
  double *x = xmalloc(sizeof *x * (size_t)n), *y = xmalloc(sizeof *y * (size_t)n);
  for (int32_t i = 0; i < n; i++) x[i] = (double)i / (double)(n - 1);
  for (int32_t i = n - 1; i > 0; i--) {
    int32_t j = (int32_t)(rng_next() % (uint64_t)(i + 1));
    double t = x[i]; x[i] = x[j]; x[j] = t;
  }

  /* accuracy inputs: dense grid + random + edges */
  int32_t n_rand = n_acc / 4;
  static const double edges[] = {0.0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-3, 0.5, 1 - 1e-3, 1 - 1e-5, 1 - 1e-7, 1 - 1e-9,
                                 1 - 1e-12, 1.0};
  int32_t n_edges = (int32_t)(sizeof edges / sizeof edges[0]);
  int32_t na = n_acc + n_rand + n_edges;
  double *xa = xmalloc(sizeof *xa * (size_t)na), *ya = xmalloc(sizeof *ya * (size_t)na);
  double *yr = xmalloc(sizeof *yr * (size_t)na);
  int32_t k = 0;
  for (int32_t i = 0; i < n_acc; i++) xa[k++] = (double)i / (double)(n_acc - 1);
  for (int32_t i = 0; i < n_rand; i++) xa[k++] = rng_unit();
  for (int32_t i = 0; i < n_edges; i++) xa[k++] = edges[i];

  FILE *dump = NULL;
  if (dump_path) {
    dump = fopen(dump_path, "w");
    if (!dump) { fprintf(stderr, "bezier_bench: cannot write %s\n", dump_path); return 3; }
  }

  FILE *json = json_path ? fopen(json_path, "w") : NULL;
  if (json_path && !json) { fprintf(stderr, "bezier_bench: cannot write %s: %s\n", json_path, strerror(errno)); return 3; }
  if (json) {
    fprintf(json, "{\n  \"available\": %s, \"function\": \"%s\", \"n_inputs\": %d, \"reps\": %d, \"accuracy_points\": %d,\n"
                  "  \"webkit_epsilon\": %g,\n  \"curves\": [",
            have_cad ? "true" : "false", have_cad ? cad_eval_name : "", n, reps, na, WK_EPSILON);
  }

  int64_t *tw = xmalloc(sizeof *tw * (size_t)reps), *tc = xmalloc(sizeof *tc * (size_t)reps);
  double total_w = 0, total_c = 0, worst_w = 0, worst_c = 0;
  volatile double sink = 0;
  fprintf(stderr, "%-14s %12s %12s %8s %14s %14s\n", "curve", "webkit ns", "cadence ns", "ratio", "webkit maxerr",
          "cadence maxerr");
  for (int ci = 0; ci < N_CURVES; ci++) {
    const double *c = CURVES[ci].c;
    /* accuracy */
    for (int32_t i = 0; i < na; i++) yr[i] = ref_solve(c, xa[i]);
    if (dump)
      for (int32_t i = 0; i < na; i += 97) fprintf(dump, "%d %.17g %.17g\n", ci, xa[i], yr[i]);
    double ew = 0, ec = -1, ew_x = 0, ec_x = 0;
    wk_eval_batch(c[0], c[1], c[2], c[3], xa, ya, na);
    for (int32_t i = 0; i < na; i++) {
      double e = fabs(ya[i] - yr[i]);
      if (e > ew) { ew = e; ew_x = xa[i]; }
    }
    if (have_cad) {
      cad_status st = cadence_eval_batch(c[0], c[1], c[2], c[3], xa, ya, na);
      if (st != CAD_OK) {
        fprintf(stderr, "bezier_bench: %s failed: %s (%s)\n", cad_eval_name, cad_status_name(st), cad_last_error());
        return 3;
      }
      ec = 0;
      for (int32_t i = 0; i < na; i++) {
        double e = fabs(ya[i] - yr[i]);
        if (!(e <= ec)) { ec = e; ec_x = xa[i]; } /* NaN counts as worst */
      }
    }
    /* timing: alternate the two solvers; warm both first */
    wk_eval_batch(c[0], c[1], c[2], c[3], x, y, n);
    if (have_cad) cadence_eval_batch(c[0], c[1], c[2], c[3], x, y, n);
    for (int r = 0; r < reps; r++) {
      int64_t t0 = now_ns();
      wk_eval_batch(c[0], c[1], c[2], c[3], x, y, n);
      int64_t t1 = now_ns();
      double s = 0;
      for (int32_t i = 0; i < n; i += 64) s += y[i];
      sink += s;
      tw[r] = t1 - t0;
      if (have_cad) {
        t0 = now_ns();
        cadence_eval_batch(c[0], c[1], c[2], c[3], x, y, n);
        t1 = now_ns();
        s = 0;
        for (int32_t i = 0; i < n; i += 64) s += y[i];
        sink += s;
        tc[r] = t1 - t0;
      }
    }
    double mw = median_i64(tw, reps) / n;
    double mc = have_cad ? median_i64(tc, reps) / n : 0;
    total_w += mw;
    total_c += mc;
    if (ew > worst_w) worst_w = ew;
    if (ec > worst_c) worst_c = ec;
    if (have_cad)
      fprintf(stderr, "%-14s %12.2f %12.2f %8.3f %14.3g %14.3g\n", CURVES[ci].name, mw, mc, mc / mw, ew, ec);
    else
      fprintf(stderr, "%-14s %12.2f %12s %8s %14.3g %14s\n", CURVES[ci].name, mw, "n/a", "n/a", ew, "n/a");
    if (json) {
      fprintf(json, "%s\n    {\"name\": \"%s\", \"curve\": [%g, %g, %g, %g], \"webkit_ns_per_solve\": %.3f, "
                    "\"webkit_max_error\": %.4g, \"webkit_max_error_at\": %.17g",
              ci ? "," : "", CURVES[ci].name, c[0], c[1], c[2], c[3], mw, ew, ew_x);
      if (have_cad)
        fprintf(json, ", \"cadence_ns_per_solve\": %.3f, \"ratio\": %.4f, \"cadence_max_error\": %.4g, "
                      "\"cadence_max_error_at\": %.17g",
                mc, mc / mw, ec, ec_x);
      fprintf(json, "}");
    }
  }
  double aw = total_w / N_CURVES, ac = total_c / N_CURVES;
  if (have_cad)
    fprintf(stderr, "%-14s %12.2f %12.2f %8.3f %14.3g %14.3g\n", "all curves", aw, ac, ac / aw, worst_w, worst_c);
  else
    fprintf(stderr, "%-14s %12.2f %12s %8s %14.3g %14s\n", "all curves", aw, "n/a", "n/a", worst_w, "n/a");
  if (json) {
    fprintf(json, "\n  ],\n  \"overall\": {\"webkit_ns_per_solve\": %.3f, \"webkit_max_error\": %.4g", aw, worst_w);
    if (have_cad)
      fprintf(json, ", \"cadence_ns_per_solve\": %.3f, \"ratio\": %.4f, \"cadence_max_error\": %.4g", ac, ac / aw,
              worst_c);
    fprintf(json, "}\n}\n");
    fclose(json);
  }
  if (dump) fclose(dump);
  if (sink == 12345.678) fprintf(stderr, "!");
  free(x); free(y); free(xa); free(ya); free(yr); free(tw); free(tc);
  return 0;
}
