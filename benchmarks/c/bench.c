/*
 * bench.c - frame-cost benchmarks of libcadence (see benchmarks/README.md).
 *
 *   bench [--scene A|B|C|scaling|jitter|all]... [--json FILE] [options]
 *
 * Scenes (each frame: host work, then cad_engine_tick(now += 1/60) and
 * cad_engine_render_list into a caller buffer):
 *   A        100k layers under one root, each with one basic `position`
 *            animation (linear, infinite).
 *   B        10k layers in a 4-level tree (1 + 9 + 90 + 9900): per layer a
 *            cubic keyframe `position` animation, a spring on `opacity`, a
 *            group (transform.rotation.z + transform.scale); every 100th layer
 *            has a push or fade transition, re-added (with new contents) every
 *            60 frames, staggered, so transitions run during the measurement.
 *   C        the scene-B tree without explicit animations; each frame 10% of
 *            the layers (a deterministic rotation) get a new `position` with
 *            cad_layer_set outside any transaction (implicit animation, which
 *            retargets the one still running).
 *   scaling  scene A at 1k, 10k, 100k and 1M layers.
 *   jitter   scene B for 10k frames: median and p99 frame cost.
 *
 * Every measured frame is followed by a memcpy of the frame's output (the
 * render list, n_items * sizeof(cad_render_item) bytes) into a second buffer
 * of the same size: both buffers are touched before measuring, both timed with
 * CLOCK_MONOTONIC, alternating, so the frame and its copy floor see the same
 * cache and thermal conditions. Reported ratio = median frame / median copy.
 *
 * Heap allocations (malloc, calloc, realloc, the aligned family) are counted
 * during the measured frames only (alloc_count.c); any allocation makes the
 * program exit with status 1 after writing its results.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc_count.h"
#include "cadence.h"

/* ------------------------------------------------------------------------ */
/* options                                                                  */

static struct {
  double target_seconds;  /* measurement budget per scene (adaptive frame count) */
  int min_frames, max_frames;
  int fixed_frames;       /* > 0: exactly this many measured frames */
  int warmup;             /* warm-up frames (scene B/C use at least one full cycle) */
  int warmup_exact;       /* --warmup given: exactly that many, no time cap */
  int jitter_frames;
  const char *dump_frames;  /* --dump-frames FILE: append every measured frame's costs */
  int layers_a, layers_b, layers_c;
  int64_t scaling_sizes[16];
  int n_scaling;
  int quiet;
} opt = {
    .target_seconds = 3.0, .min_frames = 21, .max_frames = 3000, .fixed_frames = 0,
    .warmup = 50, .jitter_frames = 10000,
    .layers_a = 100000, .layers_b = 10000, .layers_c = 10000,
    .scaling_sizes = {1000, 10000, 100000, 1000000}, .n_scaling = 4,
};

static FILE *json;
static int json_first_scene = 1;
static int alloc_failures = 0;
static char alloc_failed_scenes[512];

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

static inline int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CPU time of this thread: excludes the time the thread was not running (preempted). */
static inline int64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void ck(cad_status s, const char *what) {
  if (s != CAD_OK) {
    fprintf(stderr, "bench: %s failed: %s (%s)\n", what, cad_status_name(s), cad_last_error());
    exit(3);
  }
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
    exit(3);
  }
  return p;
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...) {
  if (opt.quiet) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fflush(stderr);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

typedef struct {
  double median, p99, p90, min, max, mean;
} stats;

/* Nearest-rank percentiles of n samples (v is not modified). */
static stats stats_of(const int64_t *v, int n) {
  stats s = {0};
  if (n <= 0) return s;
  int64_t *c = xmalloc(sizeof *c * (size_t)n);
  memcpy(c, v, sizeof *c * (size_t)n);
  qsort(c, (size_t)n, sizeof *c, cmp_i64);
  s.median = (n % 2) ? (double)c[n / 2] : 0.5 * ((double)c[n / 2 - 1] + (double)c[n / 2]);
  int r99 = (int)ceil(0.99 * n) - 1, r90 = (int)ceil(0.90 * n) - 1;
  s.p99 = (double)c[r99 < 0 ? 0 : r99];
  s.p90 = (double)c[r90 < 0 ? 0 : r90];
  s.min = (double)c[0];
  s.max = (double)c[n - 1];
  double sum = 0;
  for (int i = 0; i < n; i++) sum += (double)c[i];
  s.mean = sum / n;
  free(c);
  return s;
}

static double median_d(double *v, int n) {
  /* small insertion sort is fine for what we use it on; use qsort for size */
  for (int i = 1; i < n; i++) {
    double x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
    v[j + 1] = x;
  }
  return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void set2(cad_engine *e, cad_layer l, const char *k, double a, double b) {
  double v[2] = {a, b};
  ck(cad_layer_set(e, l, k, v, 2), k);
}
static void set4(cad_engine *e, cad_layer l, const char *k, double a, double b, double c, double d) {
  double v[4] = {a, b, c, d};
  ck(cad_layer_set(e, l, k, v, 4), k);
}

/* ------------------------------------------------------------------------ */
/* scenes                                                                   */

enum { SCENE_A, SCENE_B, SCENE_C };

typedef struct {
  int kind;
  const char *name;
  cad_engine *e;
  cad_layer root;
  cad_layer *layers; /* all layers, layers[0] = root */
  int32_t n;         /* number of layers, root included */
  double *base;      /* 2 doubles per layer: the base position */
  cad_render_item *out, *dst;
  int32_t cap;
  double now;
  uint64_t frame;
  double setup_seconds;
  /* scene B: transition layers (indices into layers) */
  int32_t *trans;
  int32_t n_trans;
  cad_anim trans_push, trans_fade;
  uint64_t contents_seq;
  int trans_period; /* frames between two re-adds of one layer's transition */
  /* scene C */
  int32_t churn_k;
  int64_t churn_cursor;
  /* counters */
  uint64_t events;
  uint64_t host_calls;
} scene;

static const double DT = 1.0 / 60.0;

static void scene_alloc_buffers(scene *s, int32_t cap) {
  s->cap = cap;
  size_t bytes = sizeof(cad_render_item) * (size_t)cap;
  s->out = xmalloc(bytes);
  s->dst = xmalloc(bytes);
  /* Touch every page of both buffers so no page fault lands in a measured frame. */
  memset(s->out, 0, bytes);
  memset(s->dst, 1, bytes);
}

static int32_t render_needed(scene *s) {
  int32_t need = 0;
  cad_status st = cad_engine_render_list(s->e, s->root, NULL, 0, &need);
  if (st != CAD_OK && st != CAD_ERR_BUFFER_TOO_SMALL) ck(st, "cad_engine_render_list (size query)");
  return need;
}

/* Scene A: n layers under one root, each with a linear basic animation of position. */
static scene *scene_a_create(int32_t n_children) {
  scene *s = calloc(1, sizeof *s);
  s->kind = SCENE_A;
  s->name = "A";
  int64_t t0 = now_ns();
  s->e = cad_engine_create();
  if (!s->e) { fprintf(stderr, "bench: cad_engine_create failed\n"); exit(3); }
  s->n = n_children + 1;
  /* As a host that knows its scene's size: storage sized once (the setup
     column), no regrowth while building. */
  ck(cad_engine_reserve(s->e, s->n, s->n), "cad_engine_reserve");
  s->layers = xmalloc(sizeof *s->layers * (size_t)s->n);
  s->base = xmalloc(sizeof *s->base * 2 * (size_t)s->n);
  ck(cad_layer_create(s->e, &s->root), "cad_layer_create");
  s->layers[0] = s->root;
  set4(s->e, s->root, "bounds", 0, 0, 1920, 1080);
  set2(s->e, s->root, "position", 960, 540);
  s->base[0] = 960; s->base[1] = 540;

  cad_anim a;
  ck(cad_anim_create(s->e, CAD_ANIM_BASIC, "position", &a), "cad_anim_create");
  ck(cad_anim_set_duration(s->e, a, 4.0), "duration");
  ck(cad_anim_set_autoreverses(s->e, a, 1), "autoreverses");
  ck(cad_anim_set_repeat_count(s->e, a, INFINITY), "repeat_count");
  ck(cad_anim_set_timing_function(s->e, a, CAD_TIMING_LINEAR), "timing");
  for (int32_t i = 1; i < s->n; i++) {
    cad_layer l;
    ck(cad_layer_create(s->e, &l), "cad_layer_create");
    ck(cad_layer_add_sublayer(s->e, s->root, l), "cad_layer_add_sublayer");
    s->layers[i] = l;
    double x = (double)((i * 7) % 1900), y = (double)((i * 13) % 1060);
    s->base[2 * i] = x; s->base[2 * i + 1] = y;
    set4(s->e, l, "bounds", 0, 0, 8, 8);
    set2(s->e, l, "position", x, y);
    set4(s->e, l, "backgroundColor", (i % 255) / 255.0, 0.5, 1.0 - (i % 127) / 127.0, 1.0);
    double from[2] = {x, y}, to[2] = {x + 100.0, y + 60.0};
    ck(cad_anim_set_from(s->e, a, from, 2), "from");
    ck(cad_anim_set_to(s->e, a, to, 2), "to");
    ck(cad_anim_set_time_offset(s->e, a, (i % 256) * (1.0 / 64.0)), "time_offset");
    ck(cad_layer_add_animation(s->e, l, a, "move"), "cad_layer_add_animation");
  }
  ck(cad_anim_destroy(s->e, a), "cad_anim_destroy");
  s->now = 0;
  ck(cad_engine_tick(s->e, s->now), "cad_engine_tick");
  int32_t need = render_needed(s);
  scene_alloc_buffers(s, need + 16);
  s->setup_seconds = (now_ns() - t0) * 1e-9;
  return s;
}

/* The 4-level tree of scenes B and C: 1 root, 9, 90, and n - 100 leaves. */
static void build_tree(scene *s, int32_t n) {
  if (n < 200) { fprintf(stderr, "bench: the tree scenes need >= 200 layers\n"); exit(2); }
  s->n = n;
  s->layers = xmalloc(sizeof *s->layers * (size_t)n);
  s->base = xmalloc(sizeof *s->base * 2 * (size_t)n);
  for (int32_t i = 0; i < n; i++) ck(cad_layer_create(s->e, &s->layers[i]), "cad_layer_create");
  s->root = s->layers[0];
  int32_t leaves = n - 100;
  for (int32_t i = 0; i < n; i++) {
    cad_layer l = s->layers[i];
    int32_t parent;
    double w, x, y;
    if (i == 0) { parent = -1; w = 1920; x = 960; y = 540; }
    else if (i < 10) { parent = 0; w = 200; x = 110 + (i - 1) * 210.0; y = 540; }
    else if (i < 100) { parent = 1 + (i - 10) / 10; w = 60; x = 30 + ((i - 10) % 10) * 17.0; y = 30 + ((i - 10) % 3) * 60.0; }
    else { parent = 10 + (int32_t)((int64_t)(i - 100) * 90 / leaves); w = 8; x = ((i * 7) % 52) + 4.0; y = ((i * 11) % 52) + 4.0; }
    if (parent >= 0) ck(cad_layer_add_sublayer(s->e, s->layers[parent], l), "cad_layer_add_sublayer");
    s->base[2 * i] = x; s->base[2 * i + 1] = y;
    set4(s->e, l, "bounds", 0, 0, w, w);
    set2(s->e, l, "position", x, y);
    set4(s->e, l, "backgroundColor", (i % 255) / 255.0, 0.4, 1.0 - (i % 127) / 127.0, 1.0);
    if (i >= 10 && i < 100) {
      double one = 1;
      ck(cad_layer_set(s->e, l, "masksToBounds", &one, 1), "masksToBounds");
    }
  }
}

static scene *scene_b_create(int32_t n) {
  scene *s = calloc(1, sizeof *s);
  s->kind = SCENE_B;
  s->name = "B";
  int64_t t0 = now_ns();
  s->e = cad_engine_create();
  if (!s->e) { fprintf(stderr, "bench: cad_engine_create failed\n"); exit(3); }
  /* keyframe + spring + group of two per layer (a group counts its tree), and the transitions */
  ck(cad_engine_reserve(s->e, n, 5 * n + n / 100 + 1), "cad_engine_reserve");
  build_tree(s, n);
  cad_engine *e = s->e;

  /* keyframe: cubic position through 5 points */
  cad_anim kf, sp, grp, rot, scl;
  ck(cad_anim_create(e, CAD_ANIM_KEYFRAME, "position", &kf), "create keyframe");
  ck(cad_anim_set_calculation_mode(e, kf, CAD_CALC_CUBIC), "calc mode");
  ck(cad_anim_set_duration(e, kf, 2.0), "duration");
  ck(cad_anim_set_repeat_count(e, kf, INFINITY), "repeat");
  /* spring on opacity */
  ck(cad_anim_create(e, CAD_ANIM_SPRING, "opacity", &sp), "create spring");
  double o0 = 0.35, o1 = 1.0;
  ck(cad_anim_set_from(e, sp, &o0, 1), "spring from");
  ck(cad_anim_set_to(e, sp, &o1, 1), "spring to");
  ck(cad_anim_set_spring_perceptual(e, sp, 0.8, 0.3), "spring perceptual");
  ck(cad_anim_set_autoreverses(e, sp, 1), "spring autoreverses");
  ck(cad_anim_set_repeat_count(e, sp, INFINITY), "spring repeat");
  /* group: rotation.z + scale */
  ck(cad_anim_create(e, CAD_ANIM_BASIC, "transform.rotation.z", &rot), "create rot");
  double r0 = 0, r1 = 2 * M_PI;
  ck(cad_anim_set_from(e, rot, &r0, 1), "rot from");
  ck(cad_anim_set_to(e, rot, &r1, 1), "rot to");
  ck(cad_anim_set_duration(e, rot, 3.0), "rot duration");
  ck(cad_anim_create(e, CAD_ANIM_BASIC, "transform.scale", &scl), "create scale");
  double s0 = 0.9, s1 = 1.1;
  ck(cad_anim_set_from(e, scl, &s0, 1), "scale from");
  ck(cad_anim_set_to(e, scl, &s1, 1), "scale to");
  ck(cad_anim_set_duration(e, scl, 1.5), "scale duration");
  ck(cad_anim_set_autoreverses(e, scl, 1), "scale autoreverses");
  ck(cad_anim_set_timing_function(e, scl, CAD_TIMING_EASE_IN_EASE_OUT), "scale timing");
  ck(cad_anim_create(e, CAD_ANIM_GROUP, NULL, &grp), "create group");
  cad_anim kids[2] = {rot, scl};
  ck(cad_anim_group_set_children(e, grp, kids, 2), "group children");
  ck(cad_anim_set_duration(e, grp, 3.0), "group duration");
  ck(cad_anim_set_repeat_count(e, grp, INFINITY), "group repeat");

  for (int32_t i = 1; i < n; i++) {
    cad_layer l = s->layers[i];
    double x = s->base[2 * i], y = s->base[2 * i + 1];
    double d = (i < 100) ? 20.0 : 6.0;
    double vals[10] = {x, y, x + d, y, x + d, y + d, x, y + d, x, y};
    ck(cad_anim_set_values(e, kf, vals, 5, 2), "keyframe values");
    ck(cad_anim_set_time_offset(e, kf, (i % 97) * 0.0137), "kf offset");
    ck(cad_layer_add_animation(e, l, kf, "path"), "add keyframe");
    ck(cad_anim_set_time_offset(e, sp, (i % 89) * 0.0111), "spring offset");
    ck(cad_layer_add_animation(e, l, sp, "fade"), "add spring");
    ck(cad_anim_set_time_offset(e, grp, (i % 83) * 0.0173), "group offset");
    ck(cad_layer_add_animation(e, l, grp, "spin"), "add group");
  }
  cad_anim_destroy(e, kf); cad_anim_destroy(e, sp); cad_anim_destroy(e, grp);
  cad_anim_destroy(e, rot); cad_anim_destroy(e, scl);

  /* transitions: every 100th layer (index 99, 199, ...: one level-2 layer with
     its ~110 leaves, the rest leaves), re-added every trans_period frames */
  s->trans_period = 60;
  s->n_trans = 0;
  s->trans = xmalloc(sizeof *s->trans * (size_t)(n / 100 + 1));
  for (int32_t i = 99; i < n; i += 100) s->trans[s->n_trans++] = i;
  ck(cad_anim_create(e, CAD_ANIM_TRANSITION, NULL, &s->trans_push), "create transition");
  ck(cad_anim_set_transition(e, s->trans_push, CAD_TRANSITION_PUSH, CAD_FROM_LEFT), "transition type");
  ck(cad_anim_set_duration(e, s->trans_push, 1.2), "transition duration");
  ck(cad_anim_create(e, CAD_ANIM_TRANSITION, NULL, &s->trans_fade), "create transition");
  ck(cad_anim_set_transition(e, s->trans_fade, CAD_TRANSITION_FADE, CAD_FROM_LEFT), "transition type");
  ck(cad_anim_set_duration(e, s->trans_fade, 1.2), "transition duration");

  s->now = 0;
  ck(cad_engine_tick(e, s->now), "cad_engine_tick");
  /* start every transition once, so the first frames already have them */
  for (int32_t k = 0; k < s->n_trans; k++) {
    cad_layer l = s->layers[s->trans[k]];
    ck(cad_layer_add_animation(e, l, (k & 1) ? s->trans_fade : s->trans_push, "transition"), "add transition");
    ck(cad_layer_set_contents(e, l, ++s->contents_seq), "set contents");
  }
  int32_t need = render_needed(s);
  /* transitions draw their subtree twice plus a clip item: room for all of them */
  scene_alloc_buffers(s, need * 2 + 1024);
  s->setup_seconds = (now_ns() - t0) * 1e-9;
  return s;
}

static scene *scene_c_create(int32_t n) {
  scene *s = calloc(1, sizeof *s);
  s->kind = SCENE_C;
  s->name = "C";
  int64_t t0 = now_ns();
  s->e = cad_engine_create();
  if (!s->e) { fprintf(stderr, "bench: cad_engine_create failed\n"); exit(3); }
  ck(cad_engine_reserve(s->e, n, n), "cad_engine_reserve");
  build_tree(s, n);
  s->now = 0;
  ck(cad_engine_tick(s->e, s->now), "cad_engine_tick"); /* layers are no longer new */
  s->churn_k = (n - 1) / 10;
  s->churn_cursor = 0;
  int32_t need = render_needed(s);
  scene_alloc_buffers(s, need + 16);
  s->setup_seconds = (now_ns() - t0) * 1e-9;
  return s;
}

static void scene_destroy(scene *s) {
  cad_engine_destroy(s->e);
  free(s->layers); free(s->base); free(s->out); free(s->dst); free(s->trans);
  free(s);
}

/* ------------------------------------------------------------------------ */
/* one frame                                                                */

/* Host work at the start of a frame (at the engine's current now). */
static void host_phase(scene *s) {
  if (s->kind == SCENE_B) {
    int32_t phase = (int32_t)(s->frame % (uint64_t)s->trans_period);
    for (int32_t k = phase; k < s->n_trans; k += s->trans_period) {
      cad_layer l = s->layers[s->trans[k]];
      cad_status st = cad_layer_add_animation(s->e, l, (k & 1) ? s->trans_fade : s->trans_push, "transition");
      if (st != CAD_OK) ck(st, "cad_layer_add_animation (transition)");
      st = cad_layer_set_contents(s->e, l, ++s->contents_seq);
      if (st != CAD_OK) ck(st, "cad_layer_set_contents");
      s->host_calls += 2;
    }
  } else if (s->kind == SCENE_C) {
    int32_t m = s->n - 1; /* every layer but the root */
    for (int32_t j = 0; j < s->churn_k; j++) {
      int64_t c = s->churn_cursor++;
      int32_t i = 1 + (int32_t)(c % m);
      int64_t visit = c / m; /* how many times this layer was moved before */
      double off = (visit & 1) ? 0.0 : 24.0;
      double v[2] = {s->base[2 * i] + off, s->base[2 * i + 1] + off * 0.5};
      cad_status st = cad_layer_set(s->e, s->layers[i], "position", v, 2);
      if (st != CAD_OK) ck(st, "cad_layer_set (position)");
    }
    s->host_calls += (uint64_t)s->churn_k;
  }
}

static inline void tick_phase(scene *s) {
  s->now += DT;
  cad_status st = cad_engine_tick(s->e, s->now);
  if (st != CAD_OK) ck(st, "cad_engine_tick");
}

static inline int32_t render_phase(scene *s) {
  int32_t n = 0;
  cad_status st = cad_engine_render_list(s->e, s->root, s->out, s->cap, &n);
  if (st != CAD_OK) ck(st, "cad_engine_render_list");
  return n;
}

static inline void drain_phase(scene *s) {
  cad_event ev;
  while (cad_engine_poll_event(s->e, &ev) == CAD_OK) s->events++;
}

static inline void copy_phase(scene *s, int32_t items) {
  memcpy(s->dst, s->out, sizeof(cad_render_item) * (size_t)items);
  /* the copy is observable: keep the compiler from dropping it */
  __asm__ volatile("" : : "r"(s->dst), "r"(s->out) : "memory");
}

/* ------------------------------------------------------------------------ */
/* measurement                                                              */

/* cpu = thread CPU time of host + tick + render (CLOCK_THREAD_CPUTIME_ID, read
   outside the wall-clock phases): shows whether a slow frame ran longer or was
   preempted. */
enum { PH_HOST, PH_TICK, PH_RENDER, PH_DRAIN, PH_COPY, PH_FRAME, PH_CPU, N_PH };
static const char *PH_NAMES[N_PH] = {"host", "tick", "render", "drain", "copy", "frame", "cpu"};

typedef struct {
  const char *label;    /* "A", "B", "C", "scaling", "jitter" */
  int kind;
  int32_t layers;
  int frames, warmup;
  double setup_seconds;
  stats st[N_PH];
  double ratio;          /* median(frame) / median(copy) */
  double paired_ratio;   /* median over frames of frame_i / copy_i */
  double per_layer_ns;   /* median(frame) / layers */
  double items_median;
  double bytes_median;
  double copy_gbps;
  uint64_t allocs[N_PH];  /* allocating calls counted per phase */
  uint64_t frees;
  int frames_with_allocs;
  uint64_t max_allocs_one_frame;
  uint64_t alloc_bytes;
  double events_per_frame;
  double host_calls_per_frame;
  double first_quarter_median, last_quarter_median; /* frame cost: drift over the run */
  int frame_includes_host;
} result;

/* frame cost: tick + render (scene C: + the host's cad_layer_set calls) */
static result measure(scene *s, const char *label, int fixed_frames, int warmup) {
  result r;
  memset(&r, 0, sizeof r);
  r.label = label;
  r.kind = s->kind;
  r.layers = s->n;
  r.setup_seconds = s->setup_seconds;
  r.frame_includes_host = (s->kind == SCENE_C);

  /* warm-up: same work as a measured frame; large scenes stop after ~5 s, but
     not before one full cycle of the scene's periodic host work */
  int min_warm = s->kind == SCENE_B ? s->trans_period + 5 : s->kind == SCENE_C ? 15 : 5;
  if (min_warm > warmup) min_warm = warmup;
  int64_t w0 = now_ns();
  int w = 0;
  for (; w < warmup; w++) {
    host_phase(s);
    tick_phase(s);
    int32_t items = render_phase(s);
    drain_phase(s);
    copy_phase(s, items);
    s->frame++;
    if (!opt.warmup_exact && w >= min_warm && now_ns() - w0 > 5000000000LL) { w++; break; }
  }
  r.warmup = w;
  double per_iter = (double)(now_ns() - w0) / (w > 0 ? w : 1);

  int frames = fixed_frames;
  if (frames <= 0) {
    double f = opt.target_seconds * 1e9 / (per_iter > 1 ? per_iter : 1);
    frames = f < opt.min_frames ? opt.min_frames : (f > opt.max_frames ? opt.max_frames : (int)f);
  }
  r.frames = frames;

  int64_t *ph[N_PH];
  for (int p = 0; p < N_PH; p++) ph[p] = xmalloc(sizeof(int64_t) * (size_t)frames);
  int32_t *items_v = xmalloc(sizeof(int32_t) * (size_t)frames);
  uint64_t *frame_allocs = xmalloc(sizeof(uint64_t) * (size_t)frames);
  double *paired = xmalloc(sizeof(double) * (size_t)frames);
  uint64_t events0 = s->events, calls0 = s->host_calls;
  alloc_counts c0, c1;

  alloc_count_read(&c0);
  uint64_t frees0 = alloc_count_frees();
  alloc_count_arm(1);
  for (int i = 0; i < frames; i++) {
    uint64_t a0 = alloc_count_total();
    int64_t c0 = cpu_ns();
    int64_t t0 = now_ns();
    host_phase(s);
    int64_t t1 = now_ns();
    uint64_t a1 = alloc_count_total();
    tick_phase(s);
    int64_t t2 = now_ns();
    uint64_t a2 = alloc_count_total();
    int32_t items = render_phase(s);
    int64_t t3 = now_ns();
    int64_t c1 = cpu_ns();
    uint64_t a3 = alloc_count_total();
    drain_phase(s);
    int64_t t4 = now_ns();
    uint64_t a4 = alloc_count_total();
    copy_phase(s, items);
    int64_t t5 = now_ns();
    s->frame++;
    ph[PH_HOST][i] = t1 - t0;
    ph[PH_TICK][i] = t2 - t1;
    ph[PH_RENDER][i] = t3 - t2;
    ph[PH_DRAIN][i] = t4 - t3;
    ph[PH_COPY][i] = t5 - t4;
    ph[PH_FRAME][i] = (t3 - t1) + (r.frame_includes_host ? (t1 - t0) : 0);
    ph[PH_CPU][i] = c1 - c0;
    items_v[i] = items;
    r.allocs[PH_HOST] += a1 - a0;
    r.allocs[PH_TICK] += a2 - a1;
    r.allocs[PH_RENDER] += a3 - a2;
    r.allocs[PH_DRAIN] += a4 - a3;
    frame_allocs[i] = a4 - a0;
  }
  alloc_count_arm(0);
  alloc_count_read(&c1);
  r.frees = alloc_count_frees() - frees0;
  r.alloc_bytes = c1.bytes_requested - c0.bytes_requested;
  r.allocs[PH_FRAME] = r.allocs[PH_HOST] + r.allocs[PH_TICK] + r.allocs[PH_RENDER] + r.allocs[PH_DRAIN];

  for (int i = 0; i < frames; i++) {
    if (frame_allocs[i]) r.frames_with_allocs++;
    if (frame_allocs[i] > r.max_allocs_one_frame) r.max_allocs_one_frame = frame_allocs[i];
    paired[i] = ph[PH_COPY][i] > 0 ? (double)ph[PH_FRAME][i] / (double)ph[PH_COPY][i] : 0;
  }
  if (opt.dump_frames) {
    /* one line per measured frame: frame index, frame ns, thread CPU ns, tick ns, render ns */
    FILE *df = fopen(opt.dump_frames, "a");
    if (df) {
      for (int i = 0; i < frames; i++)
        fprintf(df, "%s %d %lld %lld %lld %lld\n", label, i, (long long)ph[PH_FRAME][i], (long long)ph[PH_CPU][i],
                (long long)ph[PH_TICK][i], (long long)ph[PH_RENDER][i]);
      fclose(df);
    }
  }
  for (int p = 0; p < N_PH; p++) r.st[p] = stats_of(ph[p], frames);
  int q = frames / 4 > 0 ? frames / 4 : 1;
  r.first_quarter_median = stats_of(ph[PH_FRAME], q).median;
  r.last_quarter_median = stats_of(ph[PH_FRAME] + (frames - q), q).median;
  int64_t *iv = xmalloc(sizeof(int64_t) * (size_t)frames);
  for (int i = 0; i < frames; i++) iv[i] = items_v[i];
  stats is = stats_of(iv, frames);
  free(iv);
  r.items_median = is.median;
  r.bytes_median = is.median * (double)sizeof(cad_render_item);
  r.ratio = r.st[PH_COPY].median > 0 ? r.st[PH_FRAME].median / r.st[PH_COPY].median : 0;
  r.paired_ratio = median_d(paired, frames);
  r.per_layer_ns = r.st[PH_FRAME].median / s->n;
  r.copy_gbps = r.st[PH_COPY].median > 0 ? r.bytes_median / r.st[PH_COPY].median : 0;
  r.events_per_frame = (double)(s->events - events0) / frames;
  r.host_calls_per_frame = (double)(s->host_calls - calls0) / frames;

  for (int p = 0; p < N_PH; p++) free(ph[p]);
  free(items_v); free(frame_allocs); free(paired);

  if (r.allocs[PH_FRAME] > 0) {
    alloc_failures++;
    size_t used = strlen(alloc_failed_scenes);
    snprintf(alloc_failed_scenes + used, sizeof alloc_failed_scenes - used, "%s%s(%d layers)",
             used ? ", " : "", label, (int)s->n);
  }
  return r;
}

static void print_result(const result *r) {
  logf_("  %-8s layers %8d  items %8.0f  frames %5d (warm-up %d, setup %.2f s)\n", r->label, r->layers,
        r->items_median, r->frames, r->warmup, r->setup_seconds);
  logf_("           frame median %10.1f us  p99 %10.1f us   [host %.1f  tick %.1f  render %.1f  drain %.1f us]\n",
        r->st[PH_FRAME].median / 1e3, r->st[PH_FRAME].p99 / 1e3, r->st[PH_HOST].median / 1e3,
        r->st[PH_TICK].median / 1e3, r->st[PH_RENDER].median / 1e3, r->st[PH_DRAIN].median / 1e3);
  logf_("           memcpy floor %10.1f us  (%.2f MB, %.1f GB/s)   ratio %.2fx (paired %.2fx)   %.1f ns/layer\n",
        r->st[PH_COPY].median / 1e3, r->bytes_median / 1e6, r->copy_gbps, r->ratio, r->paired_ratio,
        r->per_layer_ns);
  logf_("           thread CPU time of host + tick + render: median %.1f us, p99 %.1f us (p99/median %.3f)\n",
        r->st[PH_CPU].median / 1e3, r->st[PH_CPU].p99 / 1e3, r->st[PH_CPU].p99 / r->st[PH_CPU].median);
  logf_("           drift: median of the first quarter %.1f us, of the last quarter %.1f us\n",
        r->first_quarter_median / 1e3, r->last_quarter_median / 1e3);
  logf_("           allocations: %llu in %d frames (host %llu, tick %llu, render %llu, drain %llu; %llu frees)%s\n",
        (unsigned long long)r->allocs[PH_FRAME], r->frames, (unsigned long long)r->allocs[PH_HOST],
        (unsigned long long)r->allocs[PH_TICK], (unsigned long long)r->allocs[PH_RENDER],
        (unsigned long long)r->allocs[PH_DRAIN], (unsigned long long)r->frees,
        r->allocs[PH_FRAME] ? "   <-- ALLOCATES" : "");
}

static void json_result(const result *r, const char *indent) {
  fprintf(json, "{\n%s  \"label\": \"%s\", \"layers\": %d, \"frames\": %d, \"warmup\": %d, \"setup_seconds\": %.3f,\n",
          indent, r->label, r->layers, r->frames, r->warmup, r->setup_seconds);
  fprintf(json, "%s  \"frame_includes_host\": %s,\n", indent, r->frame_includes_host ? "true" : "false");
  fprintf(json, "%s  \"items_median\": %.0f, \"bytes_median\": %.0f,\n", indent, r->items_median, r->bytes_median);
  const char *sn[6] = {"median", "p99", "p90", "min", "max", "mean"};
  for (int k = 0; k < 6; k++) {
    fprintf(json, "%s  \"%s_ns\": {", indent, sn[k]);
    for (int p = 0; p < N_PH; p++) {
      const stats *s = &r->st[p];
      double v = k == 0 ? s->median : k == 1 ? s->p99 : k == 2 ? s->p90 : k == 3 ? s->min : k == 4 ? s->max : s->mean;
      fprintf(json, "%s\"%s\": %.1f", p ? ", " : "", PH_NAMES[p], v);
    }
    fprintf(json, "},\n");
  }
  fprintf(json, "%s  \"ratio_frame_to_copy\": %.4f, \"paired_ratio\": %.4f, \"per_layer_ns\": %.3f, \"copy_gb_per_s\": %.2f,\n",
          indent, r->ratio, r->paired_ratio, r->per_layer_ns, r->copy_gbps);
  fprintf(json, "%s  \"allocs\": {\"host\": %llu, \"tick\": %llu, \"render\": %llu, \"drain\": %llu, \"total\": %llu, "
                "\"per_frame\": %.3f, \"frames_with_allocs\": %d, \"max_in_one_frame\": %llu, \"bytes\": %llu, \"frees\": %llu},\n",
          indent, (unsigned long long)r->allocs[PH_HOST], (unsigned long long)r->allocs[PH_TICK],
          (unsigned long long)r->allocs[PH_RENDER], (unsigned long long)r->allocs[PH_DRAIN],
          (unsigned long long)r->allocs[PH_FRAME], (double)r->allocs[PH_FRAME] / r->frames, r->frames_with_allocs,
          (unsigned long long)r->max_allocs_one_frame, (unsigned long long)r->alloc_bytes, (unsigned long long)r->frees);
  fprintf(json, "%s  \"first_quarter_median_ns\": %.1f, \"last_quarter_median_ns\": %.1f,\n", indent,
          r->first_quarter_median, r->last_quarter_median);
  fprintf(json, "%s  \"events_per_frame\": %.2f, \"host_calls_per_frame\": %.2f\n%s}", indent, r->events_per_frame,
          r->host_calls_per_frame, indent);
}

static void json_key(const char *key) {
  fprintf(json, "%s\n  \"%s\": ", json_first_scene ? "" : ",", key);
  json_first_scene = 0;
}

/* ------------------------------------------------------------------------ */
/* runs                                                                     */

static int warmup_for(int kind) {
  /* at least one full cycle of the scene's periodic host work, plus margin */
  int w = opt.warmup;
  if (opt.warmup_exact) return w;
  if (kind == SCENE_B && w < 120) w = 120;
  if (kind == SCENE_C && w < 30) w = 30;
  return w;
}

static result run_a(int32_t layers, const char *label) {
  logf_("scene %s: building %d layers...\n", label, layers);
  scene *s = scene_a_create(layers);
  result r = measure(s, label, opt.fixed_frames, warmup_for(SCENE_A));
  scene_destroy(s);
  print_result(&r);
  return r;
}

static result run_b(int32_t layers, const char *label, int frames) {
  logf_("scene %s: building %d layers...\n", label, layers);
  scene *s = scene_b_create(layers);
  result r = measure(s, label, frames, warmup_for(SCENE_B));
  scene_destroy(s);
  print_result(&r);
  return r;
}

static result run_c(int32_t layers) {
  logf_("scene C: building %d layers...\n", layers);
  scene *s = scene_c_create(layers);
  result r = measure(s, "C", opt.fixed_frames, warmup_for(SCENE_C));
  scene_destroy(s);
  print_result(&r);
  return r;
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench [--scene A|B|C|scaling|jitter|all]... [--json FILE] [--quick]\n"
          "             [--target-seconds S] [--min-frames N] [--max-frames N] [--frames N]\n"
          "             [--warmup N] [--jitter-frames N] [--layers-a N] [--layers-b N] [--layers-c N]\n"
          "             [--dump-frames FILE]\n"
          "             [--scaling-sizes 1000,10000,...] [--quiet]\n");
}

int main(int argc, char **argv) {
  int want_a = 0, want_b = 0, want_c = 0, want_scaling = 0, want_jitter = 0, any = 0;
  const char *json_path = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) { usage(); return 2; } i++; } while (0)
    if (!strcmp(a, "--scene")) {
      NEEDV();
      any = 1;
      if (!strcmp(v, "A")) want_a = 1;
      else if (!strcmp(v, "B")) want_b = 1;
      else if (!strcmp(v, "C")) want_c = 1;
      else if (!strcmp(v, "scaling")) want_scaling = 1;
      else if (!strcmp(v, "jitter")) want_jitter = 1;
      else if (!strcmp(v, "all")) want_a = want_b = want_c = want_scaling = want_jitter = 1;
      else { usage(); return 2; }
    } else if (!strcmp(a, "--json")) { NEEDV(); json_path = v; }
    else if (!strcmp(a, "--target-seconds")) { NEEDV(); opt.target_seconds = atof(v); }
    else if (!strcmp(a, "--min-frames")) { NEEDV(); opt.min_frames = atoi(v); }
    else if (!strcmp(a, "--max-frames")) { NEEDV(); opt.max_frames = atoi(v); }
    else if (!strcmp(a, "--frames")) { NEEDV(); opt.fixed_frames = atoi(v); }
    else if (!strcmp(a, "--warmup")) { NEEDV(); opt.warmup = atoi(v); opt.warmup_exact = 1; }
    else if (!strcmp(a, "--jitter-frames")) { NEEDV(); opt.jitter_frames = atoi(v); }
    else if (!strcmp(a, "--dump-frames")) { NEEDV(); opt.dump_frames = v; }
    else if (!strcmp(a, "--layers-a")) { NEEDV(); opt.layers_a = atoi(v); }
    else if (!strcmp(a, "--layers-b")) { NEEDV(); opt.layers_b = atoi(v); }
    else if (!strcmp(a, "--layers-c")) { NEEDV(); opt.layers_c = atoi(v); }
    else if (!strcmp(a, "--scaling-sizes")) {
      NEEDV();
      opt.n_scaling = 0;
      char *p = (char *)v;
      while (*p && opt.n_scaling < 16) {
        opt.scaling_sizes[opt.n_scaling++] = strtoll(p, &p, 10);
        if (*p == ',') p++;
      }
    } else if (!strcmp(a, "--quick")) {
      opt.target_seconds = 0.5; opt.min_frames = 11; opt.jitter_frames = 1000;
    } else if (!strcmp(a, "--quiet")) opt.quiet = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(); return 0; }
    else { usage(); return 2; }
  }
  if (!any) want_a = want_b = want_c = want_scaling = want_jitter = 1;

  if (!CAD_CHECK_LAYOUT()) {
    fprintf(stderr, "bench: libcadence does not match cadence.h (ABI %u, item %u bytes, header %zu)\n",
            cad_abi_version(), cad_sizeof_render_item(), sizeof(cad_render_item));
    return 3;
  }
  /* the counter must see this binary's and the library's allocations */
  if (!alloc_count_self_test()) {
    fprintf(stderr, "bench: allocation counter does not see malloc (interposition failed)\n");
    return 3;
  }
  uint64_t lib0 = alloc_count_total();
  alloc_count_arm(1);
  cad_engine *probe = cad_engine_create();
  cad_layer pl;
  cad_layer_create(probe, &pl);
  alloc_count_arm(0);
  cad_engine_destroy(probe);
  uint64_t lib_allocs = alloc_count_total() - lib0;
  if (lib_allocs == 0) {
    fprintf(stderr, "bench: allocation counter does not see libcadence's allocations (interposition failed)\n");
    return 3;
  }
  logf_("libcadence %s, sizeof(cad_render_item) = %zu; allocation counter ok (%llu allocations to create an engine and a layer)\n",
        cad_version_string(), sizeof(cad_render_item), (unsigned long long)lib_allocs);

  if (json_path) {
    json = fopen(json_path, "w");
    if (!json) { fprintf(stderr, "bench: cannot write %s: %s\n", json_path, strerror(errno)); return 3; }
  } else {
    json = fopen("/dev/null", "w");
  }
  fprintf(json, "{\n  \"library_version\": \"%s\", \"sizeof_render_item\": %zu, \"dt\": %.9f,\n",
          cad_version_string(), sizeof(cad_render_item), DT);
  fprintf(json, "  \"options\": {\"target_seconds\": %.3f, \"min_frames\": %d, \"max_frames\": %d, \"fixed_frames\": %d, "
                "\"warmup\": %d, \"jitter_frames\": %d},\n",
          opt.target_seconds, opt.min_frames, opt.max_frames, opt.fixed_frames, opt.warmup, opt.jitter_frames);
  fprintf(json, "  \"scenes\": {");

  if (want_a) { result r = run_a(opt.layers_a, "A"); json_key("A"); json_result(&r, "  "); fflush(json); }
  if (want_b) { result r = run_b(opt.layers_b, "B", opt.fixed_frames); json_key("B"); json_result(&r, "  "); fflush(json); }
  if (want_c) { result r = run_c(opt.layers_c); json_key("C"); json_result(&r, "  "); fflush(json); }
  if (want_jitter) {
    result r = run_b(opt.layers_b, "jitter", opt.jitter_frames);
    logf_("           jitter: p99 / median = %.3f\n", r.st[PH_FRAME].p99 / r.st[PH_FRAME].median);
    json_key("jitter"); json_result(&r, "  "); fflush(json);
  }
  fprintf(json, "\n  }");
  if (want_scaling) {
    fprintf(json, ",\n  \"scaling\": [");
    for (int k = 0; k < opt.n_scaling; k++) {
      result r = run_a((int32_t)opt.scaling_sizes[k], "scaling");
      fprintf(json, "%s\n    ", k ? "," : "");
      json_result(&r, "    ");
      fflush(json);
    }
    fprintf(json, "\n  ]");
  }
  fprintf(json, ",\n  \"alloc_failures\": %d, \"alloc_failed\": \"%s\"\n}\n", alloc_failures, alloc_failed_scenes);
  fclose(json);

  if (alloc_failures) {
    fprintf(stderr, "bench: FAIL: heap allocations in measured frames: %s\n", alloc_failed_scenes);
    return 1;
  }
  logf_("bench: no heap allocations in measured frames\n");
  return 0;
}
