/*
 * Timing functions (SEMANTICS.md §4): named cubic Béziers, custom curves,
 * steps. The expected eased progress is computed here by bisection on the
 * Bézier's x(s) (test_util.h), independent of the engine's solver; the spec
 * asks for 1e-7 accuracy.
 */
#include "test_util.h"

typedef struct curve {
  cad_timing_name name;
  const char *label;
  double c1x, c1y, c2x, c2y;
} curve;

static const curve named[] = {
    {CAD_TIMING_LINEAR, "linear", 0, 0, 1, 1},
    {CAD_TIMING_EASE_IN, "easeIn", 0.42, 0, 1, 1},
    {CAD_TIMING_EASE_OUT, "easeOut", 0, 0, 0.58, 1},
    {CAD_TIMING_EASE_IN_EASE_OUT, "easeInEaseOut", 0.42, 0, 0.58, 1},
    {CAD_TIMING_DEFAULT, "default", 0.25, 0.1, 0.25, 1},
};

static const double xs[] = {0.0, 0.05, 0.1, 0.25, 0.3, 0.5, 0.62, 0.75, 0.9, 0.99};

#define TOL 2e-7

/* zPosition 0 -> 1 over 1 s from beginTime 10; returns the value at 10 + x. */
static void check_curve(const curve *c, int use_name) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  size_t i;
  if (use_name)
    ASSERT_OK(cad_anim_set_timing_function(e, a, c->name));
  else
    ASSERT_OK(cad_anim_set_timing_bezier(e, a, c->c1x, c->c1y, c->c2x, c->c2y));
  t_tick(e, 10);
  t_add(e, l, a, "a");
  for (i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    double want = t_bezier_y(c->c1x, c->c1y, c->c2x, c->c2y, xs[i]);
    double got;
    t_tick(e, 10 + xs[i]);
    got = t_pres1(e, l, "zPosition");
    if (!(fabs(got - want) <= TOL))
      cad_test_fail_(__FILE__, __LINE__, "%s%s at x = %g: expected %.10f, got %.10f (diff %.2g)",
                     c->label, use_name ? "" : " (as Bézier)", xs[i], want, got, got - want);
  }
  cad_engine_destroy(e);
}

TEST(named_curves) {
  size_t i;
  for (i = 0; i < sizeof named / sizeof named[0]; i++) check_curve(&named[i], 1);
}

TEST(named_curves_as_bezier) {
  size_t i;
  for (i = 0; i < sizeof named / sizeof named[0]; i++) check_curve(&named[i], 0);
}

TEST(reference_values) {
  /* spot values independent of any solver: by symmetry easeInEaseOut(0.5) = 0.5;
     linear is the identity; easeIn is below the diagonal, easeOut above it */
  EXPECT_NEAR(t_bezier_y(0.42, 0, 0.58, 1, 0.5), 0.5, 1e-12);
  EXPECT_NEAR(t_bezier_y(0, 0, 1, 1, 0.3), 0.3, 1e-12);
  EXPECT_TRUE(t_bezier_y(0.42, 0, 1, 1, 0.5) < 0.5);
  EXPECT_TRUE(t_bezier_y(0, 0, 0.58, 1, 0.5) > 0.5);
  /* s = 0.5 on the default curve: x = 3/8 * 0.25 * 2 + 1/8 = 0.3125,
     y = 3/8 * 0.1 + 3/8 * 1 + 1/8 = 0.5375 */
  EXPECT_NEAR(t_bezier_y(0.25, 0.1, 0.25, 1, 0.3125), 0.5375, 1e-12);
}

TEST(overshooting_and_steep_curves) {
  static const curve custom[] = {
      {CAD_TIMING_LINEAR, "back-out", 0.34, 1.56, 0.64, 1},
      {CAD_TIMING_LINEAR, "anticipate", 0.5, -0.5, 0.5, 1.5},
      {CAD_TIMING_LINEAR, "steep", 0.99, 0, 0.01, 1},
      {CAD_TIMING_LINEAR, "hold", 0, 1, 1, 0},
  };
  size_t i;
  for (i = 0; i < sizeof custom / sizeof custom[0]; i++) check_curve(&custom[i], 0);
}

TEST(overshoot_goes_past_the_end) {
  /* back-out peaks above 1 */
  double peak = 0;
  size_t i;
  for (i = 1; i < 100; i++) {
    double y = t_bezier_y(0.34, 1.56, 0.64, 1, i / 100.0);
    if (y > peak) peak = y;
  }
  EXPECT_TRUE(peak > 1.0);
  {
    cad_engine *e = t_engine();
    cad_layer l = t_layer(e);
    cad_anim a = t_basic1(e, "zPosition", 0, 100, 1);
    double best = 0;
    ASSERT_OK(cad_anim_set_timing_bezier(e, a, 0.34, 1.56, 0.64, 1));
    t_tick(e, 0);
    t_add(e, l, a, "a");
    for (i = 1; i < 100; i++) {
      double v;
      t_tick(e, i / 100.0);
      v = t_pres1(e, l, "zPosition");
      if (v > best) best = v;
    }
    EXPECT_NEAR(best, 100 * peak, 1e-4);
    cad_engine_destroy(e);
  }
}

TEST(invalid_control_points) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  EXPECT_STATUS(cad_anim_set_timing_bezier(e, a, 1.5, 0, 0.5, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_bezier(e, a, 0.5, 0, -0.1, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_bezier(e, a, NAN, 0, 0.5, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_bezier(e, a, 0.5, INFINITY, 0.5, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_OK(cad_anim_set_timing_bezier(e, a, 0.5, 5, 0.5, -5)); /* y may overshoot */
  EXPECT_OK(cad_anim_set_timing_bezier(e, a, 0, 0, 1, 1));     /* x at the limits */
  EXPECT_STATUS(cad_anim_set_timing_function(e, a, (cad_timing_name)5), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_function(e, a, (cad_timing_name)-1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_steps(e, a, 0, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_timing_steps(e, a, -3, 1), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(no_timing_function_is_linear) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 0, 1, 1), "a");
  t_tick(e, 0.3);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.3, 1e-12);
  cad_engine_destroy(e);
}

/* steps(n, end) = floor(p n) / n; steps(n, start) = ceil(p n) / n (CSS Easing) */
TEST(steps) {
  static const double ps[] = {0.1, 0.3, 0.6, 0.9};
  int jump_start;
  for (jump_start = 0; jump_start <= 1; jump_start++) {
    cad_engine *e = t_engine();
    cad_layer l = t_layer(e);
    cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
    size_t i;
    ASSERT_OK(cad_anim_set_timing_steps(e, a, 4, jump_start));
    t_tick(e, 0);
    t_add(e, l, a, "a");
    for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
      double want = (jump_start ? ceil(ps[i] * 4) : floor(ps[i] * 4)) / 4;
      double got;
      t_tick(e, ps[i]);
      got = t_pres1(e, l, "zPosition");
      if (!(fabs(got - want) <= 1e-12))
        cad_test_fail_(__FILE__, __LINE__, "steps(4, %s) at %g: expected %g, got %g",
                       jump_start ? "start" : "end", ps[i], want, got);
    }
    cad_engine_destroy(e);
  }
}

TEST(timing_function_applies_per_cycle) {
  /* easeIn on a repeated animation eases each cycle: at t = 1.5 the second
     cycle is at x = 0.5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  ASSERT_OK(cad_anim_set_timing_function(e, a, CAD_TIMING_EASE_IN));
  ASSERT_OK(cad_anim_set_repeat_count(e, a, 3));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), t_bezier_y(0.42, 0, 1, 1, 0.5), TOL);
  /* with autoreverses the backward half mirrors the time, then eases:
     u = 2d - u */
  cad_engine_destroy(e);
}

TEST(timing_function_with_autoreverses) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  ASSERT_OK(cad_anim_set_timing_function(e, a, CAD_TIMING_EASE_IN));
  ASSERT_OK(cad_anim_set_autoreverses(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 1.25); /* u = 1.25 > 1 -> 0.75 */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), t_bezier_y(0.42, 0, 1, 1, 0.75), TOL);
  cad_engine_destroy(e);
}

/* ---- cad_timing_eval_batch (Cadence extension): the engine's solver ---- */

static void check_batch(double c1x, double c1y, double c2x, double c2y, const char *label) {
  enum { N = 1001 };
  static double x[N], y[N];
  int i, bad = 0;
  double worst = 0, worst_x = 0;
  for (i = 0; i < N; i++) {
    x[i] = (double)i / (N - 1);
    y[i] = NAN;
  }
  ASSERT_OK(cad_timing_eval_batch(c1x, c1y, c2x, c2y, x, y, N));
  for (i = 0; i < N; i++) {
    double want = t_bezier_y(c1x, c1y, c2x, c2y, x[i]);
    double err = fabs(y[i] - want);
    if (!(err <= 1e-7)) bad++;
    if (!(err <= worst)) {
      worst = err;
      worst_x = x[i];
    }
  }
  if (bad)
    cad_test_fail_(__FILE__, __LINE__, "%s: %d of %d points off by more than 1e-7 (worst %.3g at x = %g)",
                   label, bad, N, worst, worst_x);
}

TEST(eval_batch_accuracy) {
  size_t i;
  for (i = 0; i < sizeof named / sizeof named[0]; i++)
    check_batch(named[i].c1x, named[i].c1y, named[i].c2x, named[i].c2y, named[i].label);
  check_batch(0.34, 1.56, 0.64, 1, "back-out");
  check_batch(0.5, -0.5, 0.5, 1.5, "anticipate");
  check_batch(0.99, 0, 0.01, 1, "steep");
  check_batch(0, 1, 1, 0, "hold");
  check_batch(0.1, 0.9, 0.2, 1.0, "fast-start");
  check_batch(1, 0, 1, 1, "late");
}

TEST(eval_batch_clamps_and_checks) {
  double x[4] = {-1, 0, 1, 2}, y[4] = {7, 7, 7, 7};
  EXPECT_OK(cad_timing_eval_batch(0.42, 0, 0.58, 1, x, y, 4));
  EXPECT_NEAR(y[0], 0, 1e-12);
  EXPECT_NEAR(y[1], 0, 1e-12);
  EXPECT_NEAR(y[2], 1, 1e-12);
  EXPECT_NEAR(y[3], 1, 1e-12);
  EXPECT_OK(cad_timing_eval_batch(0.42, 0, 0.58, 1, x, y, 0));
  y[0] = 7;
  EXPECT_STATUS(cad_timing_eval_batch(1.5, 0, 0.58, 1, x, y, 4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_timing_eval_batch(0.4, 0, -0.1, 1, x, y, 4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_timing_eval_batch(0.4, NAN, 0.5, 1, x, y, 4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_timing_eval_batch(0.4, 0, 0.5, 1, NULL, y, 4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_timing_eval_batch(0.4, 0, 0.5, 1, x, NULL, 4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_timing_eval_batch(0.4, 0, 0.5, 1, x, y, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_NEAR(y[0], 7, 0); /* nothing written on failure */
}

TEST(eval_batch_matches_animations) {
  /* the batch solver and an animation both give the reference curve value
     (t_bezier_y: a bisection on x(t) written in the test) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  double x = 0.37, y = -1;
  ASSERT_OK(cad_anim_set_timing_bezier(e, a, 0.3, 0.8, 0.6, 0.1));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, x);
  ASSERT_OK(cad_timing_eval_batch(0.3, 0.8, 0.6, 0.1, &x, &y, 1));
  EXPECT_NEAR(y, t_bezier_y(0.3, 0.8, 0.6, 0.1, 0.37), 1e-7);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), t_bezier_y(0.3, 0.8, 0.6, 0.1, 0.37), 1e-7);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(named_curves),
    TEST_ENTRY(named_curves_as_bezier),
    TEST_ENTRY(reference_values),
    TEST_ENTRY(overshooting_and_steep_curves),
    TEST_ENTRY(overshoot_goes_past_the_end),
    TEST_ENTRY(invalid_control_points),
    TEST_ENTRY(no_timing_function_is_linear),
    TEST_ENTRY(steps),
    TEST_ENTRY(timing_function_applies_per_cycle),
    TEST_ENTRY(timing_function_with_autoreverses),
    TEST_ENTRY(eval_batch_accuracy),
    TEST_ENTRY(eval_batch_clamps_and_checks),
    TEST_ENTRY(eval_batch_matches_animations),
};

TEST_MAIN("timing_functions")
