/*
 * Timing: the CAMediaTiming model (SEMANTICS.md §3). Every expected value is
 * worked out by hand from the formulas of §3.1-3.5:
 *   local t = (tp - beginTime) * speed + timeOffset
 *   d = duration (0.25 if 0), c = autoreverses ? 2d : d,
 *   D = repeatDuration > 0 ? repeatDuration : max(repeatCount, 1) * c
 */
#include "test_util.h"

/* A scalar animation of "zPosition" 0 -> 1 (linear) on a fresh root layer
 * whose model zPosition is 0, added at now = 0. */
typedef struct timing_setup {
  double duration, repeat_count, repeat_duration, speed, time_offset;
  int autoreverses, fill, removed_on_completion;
} timing_setup;

static timing_setup default_setup(void) {
  timing_setup s;
  s.duration = 1;
  s.repeat_count = 0;
  s.repeat_duration = 0;
  s.speed = 1;
  s.time_offset = 0;
  s.autoreverses = 0;
  s.fill = CAD_FILL_REMOVED;
  s.removed_on_completion = 1;
  return s;
}

static cad_anim make_anim(cad_engine *e, const timing_setup *s) {
  cad_anim a = t_basic1(e, "zPosition", 0, 1, s->duration);
  ASSERT_OK(cad_anim_set_repeat_count(e, a, s->repeat_count));
  ASSERT_OK(cad_anim_set_repeat_duration(e, a, s->repeat_duration));
  ASSERT_OK(cad_anim_set_speed(e, a, s->speed));
  ASSERT_OK(cad_anim_set_time_offset(e, a, s->time_offset));
  ASSERT_OK(cad_anim_set_autoreverses(e, a, s->autoreverses));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, (cad_fill_mode)s->fill));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, s->removed_on_completion));
  return a;
}

/*
 * Ticks from 0 in steps of `step` until the stop event arrives (or `limit`),
 * checks that it arrives at the first tick at or after `want_end` with
 * finished = 1, and returns the event's time (the global time at which the
 * animation ended), or -1.
 */
static double stop_time(const timing_setup *s, double step, double limit, double want_end) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double now, found = -1;
  t_tick(e, 0);
  t_add(e, l, make_anim(e, s), "a");
  for (now = 0; now <= limit && found < 0; now += step) {
    cad_event ev[8];
    int i, n;
    t_tick(e, now);
    n = t_drain(e, ev, 8);
    for (i = 0; i < n && i < 8; i++) {
      if (ev[i].kind != CAD_EVENT_STOP) continue;
      EXPECT_INT_EQ(ev[i].finished, 1);
      EXPECT_STR_EQ(ev[i].key, "a");
      if (now < want_end)
        cad_test_fail_(__FILE__, __LINE__, "stop event at tick %g, before the end %g", now, want_end);
      if (now - step >= want_end)
        cad_test_fail_(__FILE__, __LINE__, "stop event only at tick %g; the end %g was reached at tick %g",
                       now, want_end, now - step);
      found = ev[i].time;
    }
  }
  cad_engine_destroy(e);
  return found;
}

TEST(active_duration_repeat_count) {
  /* duration 2, repeatCount 3.5: D = 3.5 * 2 = 7 s */
  timing_setup s = default_setup();
  s.duration = 2;
  s.repeat_count = 3.5;
  EXPECT_NEAR(stop_time(&s, 0.75, 30, 7), 7.0, 1e-9);
  EXPECT_NEAR(stop_time(&s, 0.5, 30, 7), 7.0, 1e-9); /* a tick exactly at the end */
}

TEST(active_duration_repeat_count_autoreverses) {
  /* with autoreverses c = 4: D = 3.5 * 4 = 14 s */
  timing_setup s = default_setup();
  s.duration = 2;
  s.repeat_count = 3.5;
  s.autoreverses = 1;
  EXPECT_NEAR(stop_time(&s, 0.75, 30, 14), 14.0, 1e-9);
}

TEST(active_duration_repeat_duration) {
  timing_setup s = default_setup();
  s.repeat_duration = 2.5;
  EXPECT_NEAR(stop_time(&s, 0.2, 10, 2.5), 2.5, 1e-9);
  /* both set: repeatDuration wins */
  s.repeat_count = 10;
  s.repeat_duration = 1.5;
  EXPECT_NEAR(stop_time(&s, 0.2, 10, 1.5), 1.5, 1e-9);
}

TEST(active_duration_default_duration) {
  /* duration 0 means 0.25 s */
  timing_setup s = default_setup();
  s.duration = 0;
  EXPECT_NEAR(stop_time(&s, 0.1, 5, 0.25), 0.25, 1e-9);
  s.repeat_count = 2;
  EXPECT_NEAR(stop_time(&s, 0.1, 5, 0.5), 0.5, 1e-9);
}

TEST(animation_speed_scales_active_duration) {
  /* speed 4: a = (tp - b) * 4 reaches D = 2 at tp = 0.5 */
  timing_setup s = default_setup();
  s.duration = 2;
  s.speed = 4;
  EXPECT_NEAR(stop_time(&s, 0.2, 5, 0.5), 0.5, 1e-9);
}

TEST(infinite_repeat_never_ends) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  timing_setup s = default_setup();
  cad_anim a;
  cad_event ev[4];
  double now;
  t_tick(e, 0);
  a = make_anim(e, &s);
  ASSERT_OK(cad_anim_set_repeat_count(e, a, INFINITY));
  t_add(e, l, a, "forever");
  a = make_anim(e, &s);
  ASSERT_OK(cad_anim_set_repeat_duration(e, a, INFINITY));
  t_add(e, l, a, "forever2");
  for (now = 0; now < 1000; now += 9.75) {
    int i, n;
    t_tick(e, now);
    n = t_drain(e, ev, 4);
    for (i = 0; i < n && i < 4; i++) EXPECT_TRUE(ev[i].kind != CAD_EVENT_STOP);
  }
  EXPECT_INT_EQ(t_anim_count(e, l), 2);
  /* still cycling: at 500.25 the second animation (added last, not additive) shows 0.25 */
  t_tick(e, 500.25 + 1000);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.25, 1e-9);
  cad_engine_destroy(e);
}

/* Presentation of zPosition at each time of `times` (ticked in order). */
static void expect_values(const timing_setup *s, const double *times, const double *want, int n,
                          int line) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  int i;
  t_tick(e, 0);
  t_add(e, l, make_anim(e, s), "a");
  for (i = 0; i < n; i++) {
    double got;
    t_tick(e, times[i]);
    got = t_pres1(e, l, "zPosition");
    if (!(fabs(got - want[i]) <= 1e-9))
      cad_test_fail_(__FILE__, line, "at t = %g: expected zPosition %.12g, got %.12g", times[i],
                     want[i], got);
  }
  cad_engine_destroy(e);
}
#define EXPECT_VALUES(s, times, want) \
  expect_values(s, times, want, (int)(sizeof times / sizeof times[0]), __LINE__)

TEST(repeat_values) {
  /* d = 2, repeatCount 3.5: i = floor(t / 2), u = t - 2i, p = u / 2 */
  timing_setup s = default_setup();
  double times[] = {0, 1, 2.5, 4.5, 6.5, 8};
  /* at 8 (after the end, fill forwards, kept): the fractional point of the
     fourth cycle, 3.5 cycles -> u = 1 -> 0.5 */
  double want[] = {0, 0.5, 0.25, 0.25, 0.25, 0.5};
  s.duration = 2;
  s.repeat_count = 3.5;
  s.fill = CAD_FILL_FORWARDS;
  s.removed_on_completion = 0;
  EXPECT_VALUES(&s, times, want);
}

TEST(repeat_values_autoreverses) {
  /* d = 2, c = 4, D = 14; u > d mirrors to 2d - u */
  timing_setup s = default_setup();
  double times[] = {0, 1, 2.5, 3, 5, 7.5, 13, 15};
  /* 15: after the end, t = D = 14: 14 / 4 = 3.5 cycles, u = 2 = d -> p = 1 */
  double want[] = {0, 0.5, 0.75, 0.5, 0.5, 0.25, 0.5, 1.0};
  s.duration = 2;
  s.repeat_count = 3.5;
  s.autoreverses = 1;
  s.fill = CAD_FILL_FORWARDS;
  s.removed_on_completion = 0;
  EXPECT_VALUES(&s, times, want);
}

TEST(end_value_whole_cycles) {
  /* "a whole number of forward cycles ends at the end value, with
     autoreverses at the start value" */
  timing_setup s = default_setup();
  double times[] = {0.5, 5};
  double want_forward[] = {0.5, 1.0};
  double want_reversed[] = {0.5, 0.0};
  s.repeat_count = 2;
  s.fill = CAD_FILL_FORWARDS;
  s.removed_on_completion = 0;
  EXPECT_VALUES(&s, times, want_forward);
  s.autoreverses = 1;
  EXPECT_VALUES(&s, times, want_reversed);
}

TEST(speed_and_time_offset_example) {
  /* speed 2, timeOffset 0.5, duration 1, linear, SEMANTICS.md §3.3:
     at tp = b: progress 0.5; at b + 0.25: wraps to 0; finishes at b + 0.5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  timing_setup s = default_setup();
  cad_event ev[8];
  int n, i, stops = 0;
  s.speed = 2;
  s.time_offset = 0.5;
  t_tick(e, 10);
  t_add(e, l, make_anim(e, &s), "a"); /* beginTime = 10 */
  t_tick(e, 10);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.5, 1e-9);
  t_tick(e, 10.125); /* a = 0.25, t = 0.75 */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.75, 1e-9);
  t_tick(e, 10.25); /* a = 0.5, t = 1.0 mod 1 = 0 */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.0, 1e-9);
  t_tick(e, 10.375); /* a = 0.75, t = 1.25 mod 1 = 0.25 */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.25, 1e-9);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) EXPECT_TRUE(ev[i].kind != CAD_EVENT_STOP);
  t_tick(e, 10.5); /* a = 1 = D: finished and removed */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.0, 1e-9);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) {
    if (ev[i].kind != CAD_EVENT_STOP) continue;
    stops++;
    EXPECT_NEAR(ev[i].time, 10.5, 1e-9);
    EXPECT_INT_EQ(ev[i].finished, 1);
  }
  EXPECT_INT_EQ(stops, 1);
  cad_engine_destroy(e);
}

TEST(speed_and_time_offset_end_value) {
  /* kept and filled forwards, the end samples t = D = 1 exactly: progress 1 */
  timing_setup s = default_setup();
  double times[] = {0, 0.25, 0.4, 3};
  double want[] = {0.5, 0.0, 0.3, 1.0}; /* 0.4: a = 0.8, t = 1.3 mod 1 */
  s.speed = 2;
  s.time_offset = 0.5;
  s.fill = CAD_FILL_FORWARDS;
  s.removed_on_completion = 0;
  EXPECT_VALUES(&s, times, want);
}

TEST(speed_zero_holds_time_offset) {
  /* speed 0: a = 0 for all time, t = timeOffset = 0.3; active for ever */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  timing_setup s = default_setup();
  cad_event ev[8];
  int n, i;
  s.speed = 0;
  s.time_offset = 0.3;
  t_tick(e, 0);
  t_add(e, l, make_anim(e, &s), "a");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.3, 1e-9);
  t_tick(e, 100);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.3, 1e-9);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) EXPECT_TRUE(ev[i].kind != CAD_EVENT_STOP);
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  cad_engine_destroy(e);
}

/* from 10 to 20 over 1 s, beginning at 2 (global = the root's local time) */
static void fill_case(int fill, int removed_on_completion, const double *want, int line) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  static const double times[4] = {1, 2.5, 3.5, 4};
  cad_anim a = t_basic1(e, "zPosition", 10, 20, 1);
  int i;
  ASSERT_OK(cad_anim_set_begin_time(e, a, 2));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, (cad_fill_mode)fill));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, removed_on_completion));
  t_tick(e, 0.5);
  t_add(e, l, a, "a");
  for (i = 0; i < 4; i++) {
    double got;
    t_tick(e, times[i]);
    got = t_pres1(e, l, "zPosition");
    if (!(fabs(got - want[i]) <= 1e-9))
      cad_test_fail_(__FILE__, line, "fill %d, removedOnCompletion %d, t = %g: expected %g, got %g",
                     fill, removed_on_completion, times[i], want[i], got);
  }
  i = (int)t_anim_count(e, l);
  if (i != (removed_on_completion ? 0 : 1))
    cad_test_fail_(__FILE__, line, "fill %d, removedOnCompletion %d: %d animations left", fill,
                   removed_on_completion, i);
  cad_engine_destroy(e);
}

TEST(fill_modes) {
  /* model zPosition is 0; the animation shows 15 halfway */
  static const double removed[4] = {0, 15, 0, 0};
  static const double backwards[4] = {10, 15, 0, 0};
  static const double forwards_kept[4] = {0, 15, 20, 20};
  static const double both_kept[4] = {10, 15, 20, 20};
  static const double backwards_kept[4] = {10, 15, 0, 0};
  fill_case(CAD_FILL_REMOVED, 1, removed, __LINE__);
  fill_case(CAD_FILL_REMOVED, 0, removed, __LINE__); /* kept, but no effect after the end */
  fill_case(CAD_FILL_BACKWARDS, 1, backwards, __LINE__);
  fill_case(CAD_FILL_BACKWARDS, 0, backwards_kept, __LINE__);
  fill_case(CAD_FILL_FORWARDS, 1, removed, __LINE__); /* removed at the end: nothing to fill */
  fill_case(CAD_FILL_FORWARDS, 0, forwards_kept, __LINE__);
  fill_case(CAD_FILL_BOTH, 1, backwards, __LINE__);
  fill_case(CAD_FILL_BOTH, 0, both_kept, __LINE__);
}

TEST(begin_time_delays) {
  /* §3.4: a non-zero beginTime is taken as given: now + 2 delays by two seconds */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  ASSERT_OK(cad_anim_set_begin_time(e, a, 5 + 2));
  t_tick(e, 5);
  t_add(e, l, a, "a");
  t_tick(e, 6);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0, 1e-9);
  t_tick(e, 7.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.25, 1e-9);
  cad_engine_destroy(e);
}

TEST(layer_speed_scales_animations) {
  /* layer speed 2: local = 2 * tp. Added at now 1 (local 2), the 1 s
     animation is halfway at tp = 1.25 and ends at tp = 1.5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[8];
  int n, i, stops = 0;
  t_set1(e, l, "speed", 2);
  t_tick(e, 1);
  t_add(e, l, t_basic1(e, "zPosition", 0, 1, 1), "a");
  t_tick(e, 1.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.5, 1e-9);
  t_tick(e, 2);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) {
    if (ev[i].kind != CAD_EVENT_STOP) continue;
    stops++;
    EXPECT_NEAR(ev[i].time, 1.5, 1e-9); /* global time */
  }
  EXPECT_INT_EQ(stops, 1);
  cad_engine_destroy(e);
}

TEST(convert_time_composes_the_tree) {
  /* parent P: beginTime 1, speed 2; child C: timeOffset 3.
     P local = (tg - 1) * 2; C local = P local + 3 */
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), c = t_layer(e);
  double out = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, p, c));
  t_set1(e, p, "beginTime", 1);
  t_set1(e, p, "speed", 2);
  t_set1(e, c, "timeOffset", 3);
  EXPECT_OK(cad_layer_convert_time(e, 5, 0, c, &out));
  EXPECT_NEAR(out, 11, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 5, 0, p, &out));
  EXPECT_NEAR(out, 8, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 11, c, 0, &out));
  EXPECT_NEAR(out, 5, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 11, c, p, &out));
  EXPECT_NEAR(out, 8, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 8, p, c, &out));
  EXPECT_NEAR(out, 11, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 4.5, 0, 0, &out));
  EXPECT_NEAR(out, 4.5, 0);
  EXPECT_OK(cad_layer_convert_time(e, 4.5, c, c, &out));
  EXPECT_NEAR(out, 4.5, 1e-12);
  cad_engine_destroy(e);
}

TEST(convert_time_between_branches) {
  /* two siblings under one root: A speed 2, B beginTime 3 */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), a = t_layer(e), b = t_layer(e);
  double out = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, r, a));
  ASSERT_OK(cad_layer_add_sublayer(e, r, b));
  t_set1(e, r, "timeOffset", 1);
  t_set1(e, a, "speed", 2);
  t_set1(e, b, "beginTime", 3);
  /* tg = 4: R = 5, A = 10, B = 2; from A's 10 to B: 2 */
  EXPECT_OK(cad_layer_convert_time(e, 10, a, b, &out));
  EXPECT_NEAR(out, 2, 1e-12);
  EXPECT_OK(cad_layer_convert_time(e, 2, b, a, &out));
  EXPECT_NEAR(out, 10, 1e-12);
  cad_engine_destroy(e);
}

TEST(convert_time_paused) {
  /* into a paused layer is defined; out of it gives the layer's beginTime */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double out = -1;
  t_set1(e, l, "speed", 0);
  t_set1(e, l, "timeOffset", 2.5);
  t_set1(e, l, "beginTime", 0.75);
  EXPECT_OK(cad_layer_convert_time(e, 100, 0, l, &out));
  EXPECT_NEAR(out, 2.5, 0);
  EXPECT_OK(cad_layer_convert_time(e, 7, l, 0, &out));
  EXPECT_NEAR(out, 0.75, 0);
  EXPECT_STATUS(cad_layer_convert_time(e, NAN, 0, l, &out), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_convert_time(e, 1, 0, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

static double convert_to(cad_engine *e, double t, cad_layer to) {
  double out = NAN;
  ASSERT_OK(cad_layer_convert_time(e, t, 0, to, &out));
  return out;
}

/* §3.5, exactly as written: pause and resume keep presentation continuous and
   every animation of the layer and its sublayers resumes where it stopped. */
TEST(pause_and_resume_idiom) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), c = t_layer(e);
  cad_event ev[8];
  double t, p, stop_move = -1, stop_fade = -1;
  int n, i;
  ASSERT_OK(cad_layer_add_sublayer(e, l, c));
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "position.x", 0, 100, 10), "move");
  t_add(e, c, t_basic1(e, "opacity", 1, 0, 10), "fade");
  t_tick(e, 2);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9);
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.8, 1e-9);

  /* pause at now = 2 */
  t = convert_to(e, 2, l);
  EXPECT_NEAR(t, 2, 1e-12);
  t_set1(e, l, "speed", 0);
  t_set1(e, l, "timeOffset", t);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9); /* continuous at once */
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.8, 1e-9);
  t_tick(e, 3);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9);
  t_tick(e, 5);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9);
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.8, 1e-9);
  EXPECT_NEAR(convert_to(e, 5, l), 2, 1e-12);

  /* resume at now = 5 */
  p = t_get1(e, l, "timeOffset");
  EXPECT_NEAR(p, 2, 0);
  t_set1(e, l, "speed", 1);
  t_set1(e, l, "timeOffset", 0);
  t_set1(e, l, "beginTime", 0);
  t = convert_to(e, 5, l);
  EXPECT_NEAR(t, 5, 1e-12);
  t_set1(e, l, "beginTime", t - p); /* 3 */
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9); /* continuous at once */
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.8, 1e-9);
  EXPECT_NEAR(convert_to(e, 5, l), 2, 1e-12);
  t_tick(e, 5);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 20, 1e-9);
  t_tick(e, 6); /* local time 3 */
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 30, 1e-9);
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.7, 1e-9);
  t_tick(e, 12); /* local time 9 */
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 90, 1e-9);
  EXPECT_NEAR(t_pres1(e, c, "opacity"), 0.1, 1e-9);
  /* both end at local time 10 = global 13 (3 s later than without the pause) */
  t_tick(e, 14);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) {
    if (ev[i].kind != CAD_EVENT_STOP) continue;
    EXPECT_INT_EQ(ev[i].finished, 1);
    if (strcmp(ev[i].key, "move") == 0) stop_move = ev[i].time;
    if (strcmp(ev[i].key, "fade") == 0) stop_fade = ev[i].time;
  }
  EXPECT_NEAR(stop_move, 13, 1e-9);
  EXPECT_NEAR(stop_fade, 13, 1e-9);
  cad_engine_destroy(e);
}

/* The paused scrub of §3.3: layer speed 0, a 1 s animation of
   transform.rotation.y from 0 to -pi/2 added at local time 0; timeOffset 0.25
   shows -pi/8 (linear). */
TEST(paused_scrub_example) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "transform.rotation.y", 0, -T_PI / 2, 1);
  double m[16];
  t_mat want;
  t_set1(e, l, "speed", 0);
  t_tick(e, 1);
  EXPECT_NEAR(convert_to(e, 1, l), 0, 0);
  t_add(e, l, a, "scrub");
  t_set1(e, l, "timeOffset", 0.25);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.y"), -T_PI / 8, 1e-9);
  t_tick(e, 2);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.y"), -T_PI / 8, 1e-9);
  t_presn(e, l, "transform", m, 16);
  want = t_rot_y(-T_PI / 8);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  /* the model is untouched */
  EXPECT_NEAR(t_get1(e, l, "transform.rotation.y"), 0, 0);
  /* scrubbing */
  t_set1(e, l, "timeOffset", 0.5);
  t_tick(e, 3);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.y"), -T_PI / 4, 1e-9);
  t_set1(e, l, "timeOffset", 0.75);
  t_tick(e, 4);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.y"), -3 * T_PI / 8, 1e-9);
  t_set1(e, l, "timeOffset", 0.1);
  t_tick(e, 5);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.y"), -T_PI / 20, 1e-9);
  cad_engine_destroy(e);
}

TEST(animation_begins_at_layer_local_time) {
  /* child C beginTime 5 under a default root: C's local time is tg - 5, so an
     animation added at tg = 1 gets beginTime = C's local time -4 and starts at once */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e);
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  t_set1(e, c, "beginTime", 5);
  t_tick(e, 1);
  EXPECT_NEAR(convert_to(e, 1, c), -4, 1e-12);
  t_add(e, c, t_basic1(e, "zPosition", 0, 1, 1), "a");
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, c, "zPosition"), 0.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(invalid_timing_values) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  EXPECT_STATUS(cad_anim_set_duration(e, a, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_duration(e, a, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_duration(e, a, INFINITY), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_speed(e, a, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_speed(e, a, INFINITY), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_time_offset(e, a, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_begin_time(e, a, INFINITY), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_repeat_count(e, a, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_repeat_count(e, a, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_repeat_duration(e, a, -0.5), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_fill_mode(e, a, (cad_fill_mode)4), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_fill_mode(e, a, (cad_fill_mode)-1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_OK(cad_anim_set_repeat_count(e, a, INFINITY));
  EXPECT_OK(cad_anim_set_repeat_duration(e, a, INFINITY));
  EXPECT_OK(cad_anim_set_speed(e, a, -1)); /* finite speeds are allowed */
  cad_engine_destroy(e);
}

TEST(backwards_fill_applies_the_offset) {
  /* before its begin, a backwards-filled animation shows active time 0 with the
     offset applied: t = 0 + 0.3 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  ASSERT_OK(cad_anim_set_time_offset(e, a, 0.3));
  ASSERT_OK(cad_anim_set_begin_time(e, a, 2));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_BACKWARDS));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.3, 1e-9);
  t_tick(e, 2.5); /* a = 0.5, t = 0.8 */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.8, 1e-9);
  cad_engine_destroy(e);
}

TEST(begin_time_in_the_past) {
  /* a beginTime before now is taken as given: the animation starts part-way */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 1);
  ASSERT_OK(cad_anim_set_begin_time(e, a, 9.5));
  t_tick(e, 10);
  t_add(e, l, a, "a");
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.5, 1e-9);
  t_tick(e, 10.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.75, 1e-9);
  cad_engine_destroy(e);
}

TEST(fractional_repeat_count_below_one) {
  /* repeatCount 0.5 of a 2 s animation: D = 1 s, ending at its half-way value */
  timing_setup s = default_setup();
  double times[] = {0.5, 3};
  double want[] = {0.25, 0.5};
  s.duration = 2;
  s.repeat_count = 0.5;
  s.fill = CAD_FILL_FORWARDS;
  s.removed_on_completion = 0;
  EXPECT_VALUES(&s, times, want);
  s = default_setup();
  s.duration = 2;
  s.repeat_count = 0.5;
  EXPECT_NEAR(stop_time(&s, 0.25, 5, 1), 1.0, 1e-9);
}

TEST(implicit_animation_in_layer_time) {
  /* a layer at speed 2 runs its 0.25 s implicit animation in 0.125 s of global time */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[8];
  int n, i, stops = 0;
  t_set1(e, l, "speed", 2);
  t_tick(e, 1);
  t_set1(e, l, "zPosition", 10);
  ASSERT_INT_EQ(t_anim_count(e, l), 1);
  t_tick(e, 2);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++)
    if (ev[i].kind == CAD_EVENT_STOP) {
      stops++;
      EXPECT_NEAR(ev[i].time, 1.125, 1e-9);
    }
  EXPECT_INT_EQ(stops, 1);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(active_duration_repeat_count),
    TEST_ENTRY(active_duration_repeat_count_autoreverses),
    TEST_ENTRY(active_duration_repeat_duration),
    TEST_ENTRY(active_duration_default_duration),
    TEST_ENTRY(animation_speed_scales_active_duration),
    TEST_ENTRY(infinite_repeat_never_ends),
    TEST_ENTRY(repeat_values),
    TEST_ENTRY(repeat_values_autoreverses),
    TEST_ENTRY(end_value_whole_cycles),
    TEST_ENTRY(speed_and_time_offset_example),
    TEST_ENTRY(speed_and_time_offset_end_value),
    TEST_ENTRY(speed_zero_holds_time_offset),
    TEST_ENTRY(fill_modes),
    TEST_ENTRY(begin_time_delays),
    TEST_ENTRY(layer_speed_scales_animations),
    TEST_ENTRY(convert_time_composes_the_tree),
    TEST_ENTRY(convert_time_between_branches),
    TEST_ENTRY(convert_time_paused),
    TEST_ENTRY(pause_and_resume_idiom),
    TEST_ENTRY(paused_scrub_example),
    TEST_ENTRY(animation_begins_at_layer_local_time),
    TEST_ENTRY(invalid_timing_values),
    TEST_ENTRY(backwards_fill_applies_the_offset),
    TEST_ENTRY(begin_time_in_the_past),
    TEST_ENTRY(fractional_repeat_count_below_one),
    TEST_ENTRY(implicit_animation_in_layer_time),
};

TEST_MAIN("timing")
