/*
 * Spring animations (SEMANTICS.md §6). progress = 1 - x(s), x the solution of
 * m x'' + c x' + k x = 0, x(0) = 1, x'(0) = -v0, in closed form here.
 */
#include "test_util.h"

/* x(s) of the damped oscillator, by case */
static double spring_x(double m, double k, double c, double v0, double s) {
  double w0 = sqrt(k / m), zeta = c / (2 * sqrt(k * m));
  if (zeta < 1) {
    double wd = w0 * sqrt(1 - zeta * zeta);
    return exp(-zeta * w0 * s) * (cos(wd * s) + ((zeta * w0 - v0) / wd) * sin(wd * s));
  }
  if (zeta == 1) return (1 + (w0 - v0) * s) * exp(-w0 * s);
  {
    double r = w0 * sqrt(zeta * zeta - 1);
    double r1 = -zeta * w0 + r, r2 = -zeta * w0 - r;
    double a = (-v0 - r2) / (r1 - r2);
    return a * exp(r1 * s) + (1 - a) * exp(r2 * s);
  }
}

/* settling duration for zeta < 1: ln((1 + |B|) / 0.001) / (zeta w0), B = (zeta w0 - v0) / wd */
static double settling_under(double m, double k, double c, double v0) {
  double w0 = sqrt(k / m), zeta = c / (2 * sqrt(k * m));
  double wd = w0 * sqrt(1 - zeta * zeta), b = (zeta * w0 - v0) / wd;
  return log((1 + fabs(b)) / 0.001) / (zeta * w0);
}

static cad_anim spring_anim(cad_engine *e, double m, double k, double c, double v0, double dur) {
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  double from = 0, to = 100;
  ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_spring(e, a, m, k, c, v0));
  ASSERT_OK(cad_anim_set_duration(e, a, dur));
  return a;
}

static void check_spring(double m, double k, double c, double v0, int line) {
  static const double ss[] = {0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.8, 1.2};
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  size_t i;
  t_tick(e, 0);
  t_add(e, l, spring_anim(e, m, k, c, v0, 5), "s");
  for (i = 0; i < sizeof ss / sizeof ss[0]; i++) {
    double want = 100 * (1 - spring_x(m, k, c, v0, ss[i]));
    double got;
    t_tick(e, ss[i]);
    got = t_pres1(e, l, "zPosition");
    if (!(fabs(got - want) <= 1e-6))
      cad_test_fail_(__FILE__, line, "spring m=%g k=%g c=%g v0=%g at s=%g: expected %.9g, got %.9g",
                     m, k, c, v0, ss[i], want, got);
  }
  cad_engine_destroy(e);
}

TEST(defaults_example) {
  /* defaults m 1, k 100, c 10: w0 = 10, zeta = 0.5,
     x(s) = e^-5s (cos(wd s) + (5/wd) sin(wd s)), wd = sqrt 75 */
  double wd = sqrt(75.0), s = 0.1;
  double x = exp(-5 * s) * (cos(wd * s) + (5 / wd) * sin(wd * s));
  EXPECT_NEAR(spring_x(1, 100, 10, 0, s), x, 1e-15);
  {
    cad_engine *e = t_engine();
    cad_layer l = t_layer(e);
    cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
    double from = 0, to = 100;
    ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
    ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
    ASSERT_OK(cad_anim_set_duration(e, a, 3)); /* default spring parameters */
    t_tick(e, 0);
    t_add(e, l, a, "s");
    t_tick(e, s);
    EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * (1 - x), 1e-6);
    cad_engine_destroy(e);
  }
}

TEST(underdamped) { check_spring(1, 100, 10, 0, __LINE__); check_spring(2, 300, 6, 0, __LINE__); }
TEST(underdamped_with_velocity) { check_spring(1, 200, 12, 5, __LINE__); check_spring(1, 100, 10, -3, __LINE__); }
TEST(critically_damped) { check_spring(1, 100, 20, 0, __LINE__); check_spring(1, 100, 20, 4, __LINE__); }
TEST(overdamped) { check_spring(1, 100, 30, 0, __LINE__); check_spring(0.5, 50, 40, 2, __LINE__); }

TEST(spring_time_is_not_scaled_by_duration) {
  /* the same spring with duration 2 or 10 has the same value at s = 0.3 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  t_tick(e, 0);
  t_add(e, l, spring_anim(e, 1, 100, 10, 0, 2), "s");
  t_add(e, m, spring_anim(e, 1, 100, 10, 0, 10), "s");
  t_tick(e, 0.3);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * (1 - spring_x(1, 100, 10, 0, 0.3)), 1e-6);
  EXPECT_NEAR(t_pres1(e, m, "zPosition"), 100 * (1 - spring_x(1, 100, 10, 0, 0.3)), 1e-6);
  cad_engine_destroy(e);
}

TEST(duration_ends_the_spring) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[4];
  int n, i, stops = 0;
  t_tick(e, 0);
  t_add(e, l, spring_anim(e, 1, 100, 10, 0, 0.75), "s");
  t_tick(e, 2);
  n = t_drain(e, ev, 4);
  for (i = 0; i < n && i < 4; i++)
    if (ev[i].kind == CAD_EVENT_STOP) {
      stops++;
      EXPECT_NEAR(ev[i].time, 0.75, 1e-9);
    }
  EXPECT_INT_EQ(stops, 1);
  cad_engine_destroy(e);
}

TEST(settling_duration_underdamped) {
  cad_engine *e = t_engine();
  double d = 0;
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  /* defaults */
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settling_under(1, 100, 10, 0), 1e-9);
  /* Apple's documented figures: damping 5 about 2.855 s, damping 15 just over 1 s */
  ASSERT_OK(cad_anim_set_spring(e, a, 1, 100, 5, 0));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settling_under(1, 100, 5, 0), 1e-9);
  EXPECT_NEAR(d, 2.855, 0.001);
  ASSERT_OK(cad_anim_set_spring(e, a, 1, 100, 15, 0));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settling_under(1, 100, 15, 0), 1e-9);
  EXPECT_TRUE(d > 1.0 && d < 1.1);
  /* with an initial velocity */
  ASSERT_OK(cad_anim_set_spring(e, a, 2, 150, 4, 7));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settling_under(2, 150, 4, 7), 1e-9);
  cad_engine_destroy(e);
}

/* first time after which |x| stays below 0.001, by scanning the closed form */
static double settle_scan(double m, double k, double c, double v0) {
  double s, last = 0;
  for (s = 0; s < 20; s += 1e-5)
    if (fabs(spring_x(m, k, c, v0, s)) >= 0.001) last = s;
  return last;
}

TEST(settling_duration_damped) {
  cad_engine *e = t_engine();
  double d = 0;
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  ASSERT_OK(cad_anim_set_spring(e, a, 1, 100, 20, 0)); /* critical */
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settle_scan(1, 100, 20, 0), 1e-4);
  ASSERT_OK(cad_anim_set_spring(e, a, 1, 100, 30, 0)); /* overdamped */
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settle_scan(1, 100, 30, 0), 1e-4);
  cad_engine_destroy(e);
}

TEST(perceptual_constructor) {
  /* d = 0.5, b = 0.3: m = 1, k = (2 pi / d)^2 ~ 157.9, zeta = 0.7, c = 4 pi zeta / d ~ 17.6;
     the duration becomes the settling duration */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  double k = pow(2 * T_PI / 0.5, 2), c = 4 * T_PI * 0.7 / 0.5, settle = settling_under(1, k, c, 0);
  double from = 0, to = 100, d = 0;
  cad_event ev[4];
  int n, i, stops = 0;
  EXPECT_NEAR(k, 157.9, 0.05);
  EXPECT_NEAR(c, 17.6, 0.05);
  ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_spring_perceptual(e, a, 0.5, 0.3));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, settle, 1e-9);
  t_tick(e, 0);
  t_add(e, l, a, "s");
  t_tick(e, 0.2);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * (1 - spring_x(1, k, c, 0, 0.2)), 1e-6);
  t_tick(e, 5);
  n = t_drain(e, ev, 4);
  for (i = 0; i < n && i < 4; i++)
    if (ev[i].kind == CAD_EVENT_STOP) {
      stops++;
      EXPECT_NEAR(ev[i].time, settle, 1e-9);
    }
  EXPECT_INT_EQ(stops, 1);
  cad_engine_destroy(e);
}

TEST(perceptual_negative_bounce) {
  /* b = -0.5: zeta = 1 / (1 + b) = 2 (overdamped) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  double k = pow(2 * T_PI / 1.0, 2), c = 4 * T_PI * 2 / 1.0;
  double from = 0, to = 100;
  ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_spring_perceptual(e, a, 1.0, -0.5));
  t_tick(e, 0);
  t_add(e, l, a, "s");
  t_tick(e, 0.3);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * (1 - spring_x(1, k, c, 0, 0.3)), 1e-6);
  cad_engine_destroy(e);
}

TEST(uikit_spring_settles_at_duration) {
  /* zeta = 0.5, v0 = 0: B = zeta / sqrt(1 - zeta^2), so settling = D gives
     zeta w0 = ln((1 + B) / 0.001) / D */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  double zeta = 0.5, D = 1.0, B = zeta / sqrt(1 - zeta * zeta);
  double w0 = log((1 + B) / 0.001) / D / zeta, k = w0 * w0, c = 2 * zeta * w0;
  double from = 0, to = 100, d = 0;
  ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_spring_uikit(e, a, D, zeta, 0));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, D, 1e-6);
  {
    /* the derived parameters read back; any out pointer may be NULL */
    double m = 0, kk = 0, cc = 0, v = -1;
    ASSERT_OK(cad_anim_get_spring(e, a, &m, &kk, &cc, &v));
    EXPECT_NEAR(m, 1, 0);
    EXPECT_NEAR(kk, k, 1e-9 * k);
    EXPECT_NEAR(cc, c, 1e-9 * c);
    EXPECT_NEAR(v, 0, 0);
    ASSERT_OK(cad_anim_get_spring(e, a, NULL, &kk, NULL, NULL));
    EXPECT_NEAR(kk, k, 1e-9 * k);
  }
  t_tick(e, 0);
  ASSERT_OK(cad_layer_add_animation(e, l, a, "s")); /* keeps the description */
  t_tick(e, 0.2);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * (1 - spring_x(1, k, c, 0, 0.2)), 1e-5);
  /* with an initial velocity it still settles at D */
  ASSERT_OK(cad_anim_set_spring_uikit(e, a, 0.8, 0.3, 4));
  ASSERT_OK(cad_anim_spring_settling_duration(e, a, &d));
  EXPECT_NEAR(d, 0.8, 1e-6);
  cad_engine_destroy(e);
}

TEST(invalid_parameters) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_SPRING, "zPosition");
  cad_anim b = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  double d;
  EXPECT_STATUS(cad_anim_set_spring(e, a, 0, 100, 10, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring(e, a, 1, -1, 10, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring(e, a, 1, 100, -1, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring(e, a, 1, 100, 10, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring_perceptual(e, a, 0, 0.3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring_perceptual(e, a, 1, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring_perceptual(e, a, 1, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_spring_uikit(e, a, 1, 0, 0), CAD_ERR_INVALID_ARGUMENT);
  {
    cad_anim b = t_anim(e, CAD_ANIM_BASIC, "opacity");
    double m = 0;
    EXPECT_STATUS(cad_anim_get_spring(e, b, &m, NULL, NULL, NULL), CAD_ERR_INVALID_STATE);
    EXPECT_STATUS(cad_anim_get_spring(e, 0, &m, NULL, NULL, NULL), CAD_ERR_INVALID_HANDLE);
    EXPECT_STATUS(cad_anim_get_spring(NULL, b, &m, NULL, NULL, NULL), CAD_ERR_INVALID_ARGUMENT);
  }
  EXPECT_STATUS(cad_anim_set_spring_uikit(e, a, 1, 1.5, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_spring_settling_duration(e, a, NULL), CAD_ERR_INVALID_ARGUMENT);
  /* spring calls on a basic animation: the wrong kind */
  EXPECT_STATUS(cad_anim_set_spring(e, b, 1, 100, 10, 0), CAD_ERR_INVALID_STATE);
  EXPECT_STATUS(cad_anim_spring_settling_duration(e, b, &d), CAD_ERR_INVALID_STATE);
  cad_engine_destroy(e);
}

/* Arguments inside the documented ranges whose derived quantities do not fit
   in doubles are refused, and the message says which quantity (it repeated
   the ranges the arguments already met). */
TEST(unrepresentable_springs_say_why) {
  cad_engine *e = t_engine();
  cad_anim a;
  EXPECT_OK(cad_anim_create(e, CAD_ANIM_SPRING, "opacity", &a));
  EXPECT_STATUS(cad_anim_set_spring(e, a, 1e-300, 1e300, 10, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strstr(cad_last_error(), "natural frequency") != NULL);
  EXPECT_STATUS(cad_anim_set_spring(e, a, 0, 1, 1, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strstr(cad_last_error(), "mass > 0") != NULL);
  EXPECT_STATUS(cad_anim_set_spring_perceptual(e, a, 1e-200, 0.3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strstr(cad_last_error(), "stiffness") != NULL);
  EXPECT_STATUS(cad_anim_set_spring_uikit(e, a, 1, 1e-300, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strstr(cad_last_error(), "representable") != NULL);
  cad_anim_destroy(e, a);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(unrepresentable_springs_say_why),
    TEST_ENTRY(defaults_example),
    TEST_ENTRY(underdamped),
    TEST_ENTRY(underdamped_with_velocity),
    TEST_ENTRY(critically_damped),
    TEST_ENTRY(overdamped),
    TEST_ENTRY(spring_time_is_not_scaled_by_duration),
    TEST_ENTRY(duration_ends_the_spring),
    TEST_ENTRY(settling_duration_underdamped),
    TEST_ENTRY(settling_duration_damped),
    TEST_ENTRY(perceptual_constructor),
    TEST_ENTRY(perceptual_negative_bounce),
    TEST_ENTRY(uikit_spring_settles_at_duration),
    TEST_ENTRY(invalid_parameters),
};

TEST_MAIN("spring")
