/* Keyframe and path animations (SEMANTICS.md §7). */
#include "test_util.h"

/* A keyframe animation of zPosition over `duration` s with `n` values, added at 0. */
static cad_anim keyframes(cad_engine *e, const double *values, int32_t n, double duration) {
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "zPosition");
  ASSERT_OK(cad_anim_set_values(e, a, values, n, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, duration));
  return a;
}

/* Ticks at each time and compares zPosition. */
static void expect_track(cad_engine *e, cad_layer l, const char *kp, const double *times,
                         const double *want, int n, double tol, int line) {
  int i;
  for (i = 0; i < n; i++) {
    double got;
    t_tick(e, times[i]);
    got = t_pres1(e, l, kp);
    if (!(fabs(got - want[i]) <= tol))
      cad_test_fail_(__FILE__, line, "%s at t = %g: expected %.10g, got %.10g", kp, times[i],
                     want[i], got);
  }
}
#define EXPECT_TRACK(e, l, kp, times, want, tol) \
  expect_track(e, l, kp, times, want, (int)(sizeof times / sizeof times[0]), tol, __LINE__)

TEST(linear_evenly_spaced) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {0, 10, 30};
  double times[] = {0, 0.5, 1, 1.5, 1.9};
  double want[] = {0, 5, 10, 20, 28};
  t_tick(e, 0);
  t_add(e, l, keyframes(e, v, 3, 2), "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 1e-9);
  cad_engine_destroy(e);
}

TEST(linear_with_key_times) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {0, 10, 30}, kt[3] = {0, 0.75, 1};
  double times[] = {0.375, 0.75, 0.875};
  double want[] = {5, 10, 20};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_key_times(e, a, kt, 3));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 1e-9);
  cad_engine_destroy(e);
}

TEST(invalid_key_times) {
  cad_engine *e = t_engine();
  double v[3] = {0, 1, 2};
  cad_anim a = keyframes(e, v, 3, 1);
  double not_from_zero[3] = {0.1, 0.5, 1};
  double not_to_one[3] = {0, 0.5, 0.9};
  double decreasing[3] = {0, 0.6, 0.5};
  double with_nan[3] = {0, NAN, 1};
  EXPECT_STATUS(cad_anim_set_key_times(e, a, not_from_zero, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_key_times(e, a, not_to_one, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_key_times(e, a, decreasing, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_key_times(e, a, with_nan, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_key_times(e, a, with_nan, -1), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(values_must_match_key_path) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double v[6] = {0, 1, 2, 3, 4, 5};
  EXPECT_STATUS(cad_anim_set_values(e, a, v, 6, 1), CAD_ERR_TYPE_MISMATCH);
  EXPECT_STATUS(cad_anim_set_values(e, a, v, 2, 3), CAD_ERR_TYPE_MISMATCH);
  EXPECT_OK(cad_anim_set_values(e, a, v, 3, 2));
  EXPECT_STATUS(cad_anim_set_values(e, a, NULL, 3, 2), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_values(e, a, v, -1, 2), CAD_ERR_INVALID_ARGUMENT);
  v[3] = INFINITY;
  EXPECT_STATUS(cad_anim_set_values(e, a, v, 3, 2), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(point_values) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double v[6] = {0, 0, 10, 20, 10, 40}, p[2];
  ASSERT_OK(cad_anim_set_values(e, a, v, 3, 2));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  t_tick(e, 0.25);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 5, 1e-9);
  EXPECT_NEAR(p[1], 10, 1e-9);
  t_tick(e, 0.75);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 10, 1e-9);
  EXPECT_NEAR(p[1], 30, 1e-9);
  cad_engine_destroy(e);
}

TEST(discrete_without_key_times) {
  /* key time j = j / n: each of the 3 values shows for a third */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {5, 6, 7};
  double times[] = {0, 0.3, 0.34, 0.6, 0.7, 0.99};
  double want[] = {5, 5, 6, 6, 7, 7};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_DISCRETE));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 0);
  cad_engine_destroy(e);
}

TEST(discrete_with_n_plus_one_key_times) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {5, 6, 7}, kt[4] = {0, 0.5, 0.75, 1};
  double times[] = {0.25, 0.6, 0.8};
  double want[] = {5, 6, 7};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_DISCRETE));
  ASSERT_OK(cad_anim_set_key_times(e, a, kt, 4));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 0);
  cad_engine_destroy(e);
}

TEST(paced) {
  /* 0 -> 10 -> 40: constant speed over the total distance 40; keyTimes ignored */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {0, 10, 40}, kt[3] = {0, 0.9, 1};
  double times[] = {0.125, 0.25, 0.5, 0.75};
  double want[] = {5, 10, 20, 30};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_PACED));
  ASSERT_OK(cad_anim_set_key_times(e, a, kt, 3));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 1e-9);
  cad_engine_destroy(e);
}

TEST(paced_points_use_euclidean_distance) {
  /* (0,0) -> (3,4) -> (3,14): lengths 5 and 10 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double v[6] = {0, 0, 3, 4, 3, 14}, p[2];
  ASSERT_OK(cad_anim_set_values(e, a, v, 3, 2));
  ASSERT_OK(cad_anim_set_duration(e, a, 3));
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_PACED));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  t_tick(e, 1); /* a third of 15: the corner */
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 3, 1e-9);
  EXPECT_NEAR(p[1], 4, 1e-9);
  t_tick(e, 2); /* 10 of 15 */
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 3, 1e-9);
  EXPECT_NEAR(p[1], 9, 1e-9);
  cad_engine_destroy(e);
}

TEST(segment_timing_functions) {
  /* segment 0 eases in, segment 1 is linear */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {0, 10, 20};
  double seg[8] = {0.42, 0, 1, 1, 0, 0, 1, 1};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_segment_timing(e, a, seg, 2));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  t_tick(e, 0.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 10 * t_bezier_y(0.42, 0, 1, 1, 0.5), 2e-6);
  t_tick(e, 0.75);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15, 1e-9);
  cad_engine_destroy(e);
}

TEST(own_timing_function_applies_first) {
  /* easeIn over the whole progress, then the segments */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {0, 50, 100};
  cad_anim a = keyframes(e, v, 3, 1);
  ASSERT_OK(cad_anim_set_timing_function(e, a, CAD_TIMING_EASE_IN));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  t_tick(e, 0.6);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100 * t_bezier_y(0.42, 0, 1, 1, 0.6), 2e-5);
  cad_engine_destroy(e);
}

/* Hermite segment from p1 to p2 with tangents m1, m2 at u */
static double hermite(double p1, double p2, double m1, double m2, double u) {
  double u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * p1 + (u3 - 2 * u2 + u) * m1 + (-2 * u3 + 3 * u2) * p2 +
         (u3 - u2) * m2;
}

TEST(cubic_catmull_rom) {
  /* values 0, 10, 0, 10 one second apart; Catmull-Rom tangents
     m_i = (p_{i+1} - p_{i-1}) / 2, end points duplicated: m_0 = (10 - 0) / 2 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[4] = {0, 10, 0, 10};
  double m0 = (10 - 0) / 2.0, m1 = (0 - 0) / 2.0, m2 = (10 - 10) / 2.0, m3 = (10 - 0) / 2.0;
  double times[] = {0.5, 1.25, 2.5};
  double want[3];
  cad_anim a = keyframes(e, v, 4, 3);
  want[0] = hermite(0, 10, m0, m1, 0.5);
  want[1] = hermite(10, 0, m1, m2, 0.25);
  want[2] = hermite(0, 10, m2, m3, 0.5);
  EXPECT_NEAR(want[0], 5.625, 1e-12); /* the hand value */
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_CUBIC));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  EXPECT_TRACK(e, l, "zPosition", times, want, 1e-9);
  cad_engine_destroy(e);
}

TEST(path_linear_equal_time_per_segment) {
  /* (0,0) -> (100,0) -> (100,50): each segment half the time */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double p[2];
  ASSERT_OK(cad_anim_path_move_to(e, a, 0, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 100, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 100, 50));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "path");
  t_tick(e, 0.25);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 50, 1e-9);
  EXPECT_NEAR(p[1], 0, 1e-9);
  t_tick(e, 0.75);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 100, 1e-9);
  EXPECT_NEAR(p[1], 25, 1e-9);
  cad_engine_destroy(e);
}

TEST(path_paced) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double p[2];
  ASSERT_OK(cad_anim_path_move_to(e, a, 0, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 100, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 100, 50));
  ASSERT_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_PACED));
  ASSERT_OK(cad_anim_set_duration(e, a, 1.5));
  t_tick(e, 0);
  t_add(e, l, a, "path");
  t_tick(e, 0.75); /* 75 of 150 */
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 75, 1e-9);
  EXPECT_NEAR(p[1], 0, 1e-9);
  t_tick(e, 1.25); /* 125 of 150 */
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 100, 1e-9);
  EXPECT_NEAR(p[1], 25, 1e-9);
  cad_engine_destroy(e);
}

TEST(path_close) {
  /* square 0,0 -> 10,0 -> 10,10 -> close: three drawable segments */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double p[2];
  ASSERT_OK(cad_anim_path_move_to(e, a, 0, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 10, 0));
  ASSERT_OK(cad_anim_path_line_to(e, a, 10, 10));
  ASSERT_OK(cad_anim_path_close(e, a));
  ASSERT_OK(cad_anim_set_duration(e, a, 3));
  t_tick(e, 0);
  t_add(e, l, a, "path");
  t_tick(e, 2.5); /* half way along the closing diagonal (10,10) -> (0,0) */
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 5, 1e-9);
  EXPECT_NEAR(p[1], 5, 1e-9);
  cad_engine_destroy(e);
}

/* point on the cubic Bézier */
static void cubic_point(const double *c, double s, double *out) {
  double u = 1 - s;
  out[0] = u * u * u * c[0] + 3 * u * u * s * c[2] + 3 * u * s * s * c[4] + s * s * s * c[6];
  out[1] = u * u * u * c[1] + 3 * u * u * s * c[3] + 3 * u * s * s * c[5] + s * s * s * c[7];
}

TEST(path_single_cubic_constant_speed) {
  /* the arc length is measured here with a fine polyline */
  static const double c[8] = {0, 0, 0, 100, 100, 100, 100, 0};
  enum { N = 200000 };
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double total = 0, prev[2], cur[2], p[2], want[2] = {0, 0}, target, acc = 0;
  int i;
  cubic_point(c, 0, prev);
  for (i = 1; i <= N; i++) {
    cubic_point(c, (double)i / N, cur);
    total += hypot(cur[0] - prev[0], cur[1] - prev[1]);
    prev[0] = cur[0];
    prev[1] = cur[1];
  }
  target = 0.3 * total;
  cubic_point(c, 0, prev);
  for (i = 1; i <= N; i++) {
    double d;
    cubic_point(c, (double)i / N, cur);
    d = hypot(cur[0] - prev[0], cur[1] - prev[1]);
    if (acc + d >= target) {
      double f = (target - acc) / d;
      want[0] = prev[0] + f * (cur[0] - prev[0]);
      want[1] = prev[1] + f * (cur[1] - prev[1]);
      break;
    }
    acc += d;
    prev[0] = cur[0];
    prev[1] = cur[1];
  }
  ASSERT_OK(cad_anim_path_move_to(e, a, c[0], c[1]));
  ASSERT_OK(cad_anim_path_cubic_to(e, a, c[2], c[3], c[4], c[5], c[6], c[7]));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "path");
  t_tick(e, 0.3);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], want[0], 0.05);
  EXPECT_NEAR(p[1], want[1], 0.05);
  cad_engine_destroy(e);
}

TEST(path_quad) {
  /* a quadratic from (0,0) via (50,100) to (100,0) is symmetric: half the
     time (paced) is the apex (50, 50) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
  double p[2];
  ASSERT_OK(cad_anim_path_move_to(e, a, 0, 0));
  ASSERT_OK(cad_anim_path_quad_to(e, a, 50, 100, 100, 0));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "path");
  t_tick(e, 0.5);
  t_presn(e, l, "position", p, 2);
  EXPECT_NEAR(p[0], 50, 0.01);
  EXPECT_NEAR(p[1], 50, 0.01);
  cad_engine_destroy(e);
}

TEST(path_rotation_auto) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  int i;
  for (i = 0; i < 2; i++) {
    cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "position");
    ASSERT_OK(cad_anim_path_move_to(e, a, 0, 0));
    ASSERT_OK(cad_anim_path_line_to(e, a, 100, 0));
    ASSERT_OK(cad_anim_path_line_to(e, a, 100, 50));
    ASSERT_OK(cad_anim_set_duration(e, a, 1));
    ASSERT_OK(cad_anim_set_rotation_mode(e, a, i == 0 ? CAD_ROTATE_AUTO : CAD_ROTATE_AUTO_REVERSE));
    if (i == 0) t_tick(e, 0);
    t_add(e, i == 0 ? l : m, a, "path");
  }
  t_tick(e, 0.25); /* along +x: atan2(0, 100) = 0 */
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.z"), 0, 1e-9);
  EXPECT_NEAR(fabs(t_pres1(e, m, "transform.rotation.z")), T_PI, 1e-9);
  t_tick(e, 0.75); /* along +y: pi/2 */
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.z"), T_PI / 2, 1e-9);
  {
    double r = t_pres1(e, m, "transform.rotation.z");
    /* pi/2 + pi, possibly reported as the equivalent -pi/2 */
    EXPECT_NEAR(cos(r), cos(T_PI / 2 + T_PI), 1e-9);
    EXPECT_NEAR(sin(r), sin(T_PI / 2 + T_PI), 1e-9);
  }
  cad_engine_destroy(e);
}

TEST(path_only_for_points) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "opacity");
  cad_layer l = t_layer(e);
  cad_status s1 = cad_anim_path_move_to(e, a, 0, 0);
  /* either the path call or the add must refuse a path on a scalar key */
  if (s1 == CAD_OK) {
    (void)cad_anim_path_line_to(e, a, 1, 1);
    EXPECT_TRUE(cad_layer_add_animation(e, l, a, "p") != CAD_OK);
  } else {
    EXPECT_TRUE(s1 == CAD_ERR_TYPE_MISMATCH || s1 == CAD_ERR_INVALID_STATE);
  }
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(linear_evenly_spaced),
    TEST_ENTRY(linear_with_key_times),
    TEST_ENTRY(invalid_key_times),
    TEST_ENTRY(values_must_match_key_path),
    TEST_ENTRY(point_values),
    TEST_ENTRY(discrete_without_key_times),
    TEST_ENTRY(discrete_with_n_plus_one_key_times),
    TEST_ENTRY(paced),
    TEST_ENTRY(paced_points_use_euclidean_distance),
    TEST_ENTRY(segment_timing_functions),
    TEST_ENTRY(own_timing_function_applies_first),
    TEST_ENTRY(cubic_catmull_rom),
    TEST_ENTRY(path_linear_equal_time_per_segment),
    TEST_ENTRY(path_paced),
    TEST_ENTRY(path_close),
    TEST_ENTRY(path_single_cubic_constant_speed),
    TEST_ENTRY(path_quad),
    TEST_ENTRY(path_rotation_auto),
    TEST_ENTRY(path_only_for_points),
};

TEST_MAIN("keyframe")
