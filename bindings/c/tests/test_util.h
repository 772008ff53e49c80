/*
 * test_util.h - helpers shared by the C tests: short-hand calls that assert
 * success, 4x4 matrices in Core Animation's layout (SEMANTICS.md §2.2) and a
 * cubic Bézier solved by bisection. Expected values in the tests are computed
 * with these, never read back from the engine.
 */
#ifndef CAD_TEST_UTIL_H
#define CAD_TEST_UTIL_H

#include "harness.h"

#define T_PI 3.14159265358979323846

/* ---- engine and layers ------------------------------------------------- */

static inline cad_engine *t_engine(void) {
  cad_engine *e = cad_engine_create();
  ASSERT_TRUE(e != NULL);
  return e;
}

static inline cad_layer t_layer(cad_engine *e) {
  cad_layer l = 0;
  ASSERT_OK(cad_layer_create(e, &l));
  ASSERT_TRUE(l != 0);
  return l;
}

static inline void t_setn(cad_engine *e, cad_layer l, const char *kp, const double *v, int32_t n) {
  ASSERT_OK(cad_layer_set(e, l, kp, v, n));
}

static inline void t_set1(cad_engine *e, cad_layer l, const char *kp, double v) {
  ASSERT_OK(cad_layer_set(e, l, kp, &v, 1));
}

static inline void t_set2(cad_engine *e, cad_layer l, const char *kp, double x, double y) {
  double v[2];
  v[0] = x;
  v[1] = y;
  ASSERT_OK(cad_layer_set(e, l, kp, v, 2));
}

static inline void t_set4(cad_engine *e, cad_layer l, const char *kp, double a, double b, double c,
                          double d) {
  double v[4];
  v[0] = a;
  v[1] = b;
  v[2] = c;
  v[3] = d;
  ASSERT_OK(cad_layer_set(e, l, kp, v, 4));
}

/* Model value with `n` components (asserts the count). */
static inline void t_getn(cad_engine *e, cad_layer l, const char *kp, double *out, int32_t n) {
  int32_t got = -1;
  ASSERT_OK(cad_layer_get(e, l, kp, out, n, &got));
  ASSERT_INT_EQ(got, n);
}

static inline double t_get1(cad_engine *e, cad_layer l, const char *kp) {
  double v = NAN;
  t_getn(e, l, kp, &v, 1);
  return v;
}

/* Presentation value with `n` components (asserts the count). */
static inline void t_presn(cad_engine *e, cad_layer l, const char *kp, double *out, int32_t n) {
  int32_t got = -1;
  ASSERT_OK(cad_layer_presentation(e, l, kp, out, n, &got));
  ASSERT_INT_EQ(got, n);
}

static inline double t_pres1(cad_engine *e, cad_layer l, const char *kp) {
  double v = NAN;
  t_presn(e, l, kp, &v, 1);
  return v;
}

static inline void t_tick(cad_engine *e, double now) { ASSERT_OK(cad_engine_tick(e, now)); }

static inline int32_t t_anim_count(cad_engine *e, cad_layer l) {
  int32_t n = -1;
  ASSERT_OK(cad_layer_animation_count(e, l, &n));
  return n;
}

/* ---- animations -------------------------------------------------------- */

static inline cad_anim t_anim(cad_engine *e, cad_anim_kind kind, const char *kp) {
  cad_anim a = 0;
  ASSERT_OK(cad_anim_create(e, kind, kp, &a));
  ASSERT_TRUE(a != 0);
  return a;
}

/* A basic scalar animation from `from` to `to` over `duration` (linear). */
static inline cad_anim t_basic1(cad_engine *e, const char *kp, double from, double to,
                                double duration) {
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, kp);
  ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, duration));
  return a;
}

/* Attaches a copy under `key` and destroys the description. */
static inline void t_add(cad_engine *e, cad_layer l, cad_anim a, const char *key) {
  ASSERT_OK(cad_layer_add_animation(e, l, a, key));
  ASSERT_OK(cad_anim_destroy(e, a));
}

/* ---- events ------------------------------------------------------------ */

/* Polls every queued event into `out` (at most `cap`); returns the count. */
static inline int t_drain(cad_engine *e, cad_event *out, int cap) {
  int n = 0;
  cad_event ev;
  cad_status s;
  while ((s = cad_engine_poll_event(e, &ev)) == CAD_OK) {
    if (n < cap) out[n] = ev;
    n++;
  }
  EXPECT_STATUS(s, CAD_ERR_NOT_FOUND);
  return n;
}

/* ---- 4x4 matrices, row-vector convention (p' = p * M), m[r*4 + c] ----- */

typedef struct t_mat {
  double m[16];
} t_mat;

static inline t_mat t_identity(void) {
  t_mat r;
  int i;
  for (i = 0; i < 16; i++) r.m[i] = (i % 5 == 0) ? 1.0 : 0.0;
  return r;
}

/* a * b: apply a first, then b (row vectors). */
static inline t_mat t_mul(t_mat a, t_mat b) {
  t_mat r;
  int i, j, k;
  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++) {
      double s = 0;
      for (k = 0; k < 4; k++) s += a.m[i * 4 + k] * b.m[k * 4 + j];
      r.m[i * 4 + j] = s;
    }
  return r;
}

static inline t_mat t_translate(double x, double y, double z) {
  t_mat r = t_identity();
  r.m[12] = x;
  r.m[13] = y;
  r.m[14] = z;
  return r;
}

static inline t_mat t_scale(double x, double y, double z) {
  t_mat r = t_identity();
  r.m[0] = x;
  r.m[5] = y;
  r.m[10] = z;
  return r;
}

/* CATransform3DMakeRotation(a, 1, 0, 0) */
static inline t_mat t_rot_x(double a) {
  t_mat r = t_identity();
  r.m[5] = cos(a);
  r.m[6] = sin(a);
  r.m[9] = -sin(a);
  r.m[10] = cos(a);
  return r;
}

/* CATransform3DMakeRotation(a, 0, 1, 0) */
static inline t_mat t_rot_y(double a) {
  t_mat r = t_identity();
  r.m[0] = cos(a);
  r.m[2] = -sin(a);
  r.m[8] = sin(a);
  r.m[10] = cos(a);
  return r;
}

/* CATransform3DMakeRotation(a, 0, 0, 1) */
static inline t_mat t_rot_z(double a) {
  t_mat r = t_identity();
  r.m[0] = cos(a);
  r.m[1] = sin(a);
  r.m[4] = -sin(a);
  r.m[5] = cos(a);
  return r;
}

/* Identity with m34 = -1/eye: the usual perspective. */
static inline t_mat t_perspective(double eye) {
  t_mat r = t_identity();
  r.m[11] = -1.0 / eye;
  return r;
}

/* ---- cubic Bézier timing functions, solved by bisection -------------- */

static inline double t_bezier_coord(double s, double p1, double p2) {
  /* B(s) with P0 = 0, P3 = 1 */
  double u = 1 - s;
  return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s;
}

/* y for x on the curve (0,0) (c1x,c1y) (c2x,c2y) (1,1); x(s) is monotonic for c1x, c2x in [0,1]. */
static inline double t_bezier_y(double c1x, double c1y, double c2x, double c2y, double x) {
  double lo = 0, hi = 1, mid = 0.5;
  int i;
  for (i = 0; i < 200; i++) {
    mid = 0.5 * (lo + hi);
    if (t_bezier_coord(mid, c1x, c2x) < x)
      lo = mid;
    else
      hi = mid;
  }
  return t_bezier_coord(0.5 * (lo + hi), c1y, c2y);
}

#endif /* CAD_TEST_UTIL_H */
