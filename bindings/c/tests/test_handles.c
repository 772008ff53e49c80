/*
 * Handles: zero, stale (destroyed), forged, and foreign (another engine's)
 * layer and animation handles give CAD_ERR_INVALID_HANDLE and never crash;
 * failing calls leave the engine unchanged (API.md conventions, SEMANTICS.md §12).
 */
#include "test_util.h"

/* Calls every layer function with `l` and expects CAD_ERR_INVALID_HANDLE. */
static void expect_layer_rejected(cad_engine *e, cad_layer l, cad_layer good, const char *what,
                                  int line) {
  double v[16] = {0};
  int32_t n = 0;
  cad_layer out = 0;
  uint64_t c = 0;
  char buf[32];
  cad_anim a = 0;
  cad_render_item item;
  cad_status s[32];
  int i, k = 0;
  v[0] = 1;
  s[k++] = cad_layer_destroy(e, l);
  s[k++] = cad_layer_add_sublayer(e, l, good);
  s[k++] = cad_layer_add_sublayer(e, good, l);
  s[k++] = cad_layer_insert_sublayer(e, l, good, 0);
  s[k++] = cad_layer_insert_sublayer(e, good, l, 0);
  s[k++] = cad_layer_remove_from_superlayer(e, l);
  s[k++] = cad_layer_superlayer(e, l, &out);
  s[k++] = cad_layer_sublayers(e, l, &out, 1, &n);
  s[k++] = cad_layer_set(e, l, "opacity", v, 1);
  s[k++] = cad_layer_get(e, l, "opacity", v, 16, &n);
  s[k++] = cad_layer_presentation(e, l, "opacity", v, 16, &n);
  s[k++] = cad_layer_set_contents(e, l, 5);
  s[k++] = cad_layer_get_contents(e, l, &c);
  s[k++] = cad_layer_set_actions_enabled(e, l, 0);
  s[k++] = cad_layer_set_action(e, l, "opacity", 0);
  s[k++] = cad_layer_clear_action(e, l, "opacity");
  if (l != 0) { /* 0 is "global time" here */
    s[k++] = cad_layer_convert_time(e, 1, l, 0, v);
    s[k++] = cad_layer_convert_time(e, 1, 0, l, v);
    s[k++] = cad_layer_convert_point(e, 1, 2, l, 0, 0, v);
    s[k++] = cad_layer_convert_point(e, 1, 2, 0, l, 1, v);
  }
  s[k++] = cad_layer_hit_test(e, l, 1, 2, 0, &out);
  s[k++] = cad_layer_remove_animation(e, l, "x");
  s[k++] = cad_layer_remove_all_animations(e, l);
  s[k++] = cad_layer_animation_count(e, l, &n);
  s[k++] = cad_layer_animation_key_at(e, l, 0, buf, 32, &n);
  s[k++] = cad_layer_animation_for_key(e, l, "x", &a);
  s[k++] = cad_engine_render_list(e, l, &item, 1, &n);
  /* (room for every call above: the ASan run of these tests catches a call past it) */
  ASSERT_TRUE(k <= (int)(sizeof s / sizeof s[0]));
  for (i = 0; i < k; i++)
    if (s[i] != CAD_ERR_INVALID_HANDLE)
      cad_test_fail_(__FILE__, line, "%s layer handle 0x%llx, call #%d: expected CAD_ERR_INVALID_HANDLE, got %s",
                     what, (unsigned long long)l, i, cad_status_name(s[i]));
}
#define EXPECT_LAYER_REJECTED(e, l, good, what) expect_layer_rejected(e, l, good, what, __LINE__)

/* Calls every animation function with `a` and expects CAD_ERR_INVALID_HANDLE. */
static void expect_anim_rejected(cad_engine *e, cad_anim a, cad_layer good, const char *what,
                                 int line) {
  double v[4] = {0, 0, 0, 0}, t[2] = {0, 1};
  cad_anim kids[1];
  cad_status s[40];
  int i, k = 0;
  kids[0] = a;
  s[k++] = cad_anim_destroy(e, a);
  s[k++] = cad_anim_set_begin_time(e, a, 1);
  s[k++] = cad_anim_set_duration(e, a, 1);
  s[k++] = cad_anim_set_speed(e, a, 1);
  s[k++] = cad_anim_set_time_offset(e, a, 1);
  s[k++] = cad_anim_set_repeat_count(e, a, 1);
  s[k++] = cad_anim_set_repeat_duration(e, a, 1);
  s[k++] = cad_anim_set_autoreverses(e, a, 1);
  s[k++] = cad_anim_set_fill_mode(e, a, CAD_FILL_BOTH);
  s[k++] = cad_anim_set_removed_on_completion(e, a, 0);
  s[k++] = cad_anim_set_timing_function(e, a, CAD_TIMING_EASE_IN);
  s[k++] = cad_anim_set_timing_bezier(e, a, 0.1, 0.2, 0.3, 0.4);
  s[k++] = cad_anim_set_timing_steps(e, a, 3, 0);
  s[k++] = cad_anim_set_from(e, a, v, 1);
  s[k++] = cad_anim_set_to(e, a, v, 1);
  s[k++] = cad_anim_set_by(e, a, v, 1);
  s[k++] = cad_anim_set_additive(e, a, 1);
  s[k++] = cad_anim_set_cumulative(e, a, 1);
  s[k++] = cad_anim_set_spring(e, a, 1, 100, 10, 0);
  s[k++] = cad_anim_spring_settling_duration(e, a, v);
  s[k++] = cad_anim_set_values(e, a, v, 2, 1);
  s[k++] = cad_anim_set_key_times(e, a, t, 2);
  s[k++] = cad_anim_set_calculation_mode(e, a, CAD_CALC_DISCRETE);
  s[k++] = cad_anim_path_move_to(e, a, 0, 0);
  s[k++] = cad_anim_path_line_to(e, a, 1, 1);
  s[k++] = cad_anim_path_close(e, a);
  s[k++] = cad_anim_set_rotation_mode(e, a, CAD_ROTATE_AUTO);
  s[k++] = cad_anim_set_transition(e, a, CAD_TRANSITION_PUSH, CAD_FROM_TOP);
  s[k++] = cad_anim_set_transition_progress(e, a, 0, 1);
  s[k++] = cad_anim_set_tag(e, a, 3);
  s[k++] = cad_anim_set_callback(e, a, NULL, NULL);
  s[k++] = cad_layer_add_animation(e, good, a, "k");
  if (a != 0) s[k++] = cad_layer_set_action(e, good, "opacity", a); /* 0 is "no action" */
  for (i = 0; i < k; i++)
    if (s[i] != CAD_ERR_INVALID_HANDLE)
      cad_test_fail_(__FILE__, line, "%s animation handle 0x%llx, call #%d: expected CAD_ERR_INVALID_HANDLE, got %s",
                     what, (unsigned long long)a, i, cad_status_name(s[i]));
  /* a group with a bad child */
  {
    cad_anim g = 0;
    if (cad_anim_create(e, CAD_ANIM_GROUP, NULL, &g) == CAD_OK) {
      cad_status gs = cad_anim_group_set_children(e, g, kids, 1);
      if (gs != CAD_ERR_INVALID_HANDLE)
        cad_test_fail_(__FILE__, line, "%s animation as a group child: got %s", what, cad_status_name(gs));
      cad_anim_destroy(e, g);
    }
  }
}
#define EXPECT_ANIM_REJECTED(e, a, good, what) expect_anim_rejected(e, a, good, what, __LINE__)

TEST(zero_handles) {
  cad_engine *e = t_engine();
  cad_layer good = t_layer(e);
  EXPECT_LAYER_REJECTED(e, 0, good, "zero");
  EXPECT_ANIM_REJECTED(e, 0, good, "zero");
  cad_engine_destroy(e);
}

TEST(stale_layer) {
  cad_engine *e = t_engine();
  cad_layer good = t_layer(e), dead = t_layer(e);
  int32_t n = -1;
  int i;
  ASSERT_OK(cad_layer_destroy(e, dead));
  EXPECT_LAYER_REJECTED(e, dead, good, "stale");
  /* slots are reused, handles are not: create many and retry */
  for (i = 0; i < 100; i++) (void)t_layer(e);
  EXPECT_LAYER_REJECTED(e, dead, good, "stale (after reuse)");
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 101);
  cad_engine_destroy(e);
}

TEST(stale_animation) {
  cad_engine *e = t_engine();
  cad_layer good = t_layer(e);
  cad_anim dead = t_anim(e, CAD_ANIM_BASIC, "opacity");
  int i;
  ASSERT_OK(cad_anim_destroy(e, dead));
  EXPECT_ANIM_REJECTED(e, dead, good, "stale");
  for (i = 0; i < 100; i++) (void)t_anim(e, CAD_ANIM_BASIC, "opacity");
  EXPECT_ANIM_REJECTED(e, dead, good, "stale (after reuse)");
  EXPECT_INT_EQ(t_anim_count(e, good), 0);
  cad_engine_destroy(e);
}

TEST(stale_read_only_handle) {
  /* the read-only handle of an attached copy dies with the copy */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim ro = 0;
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 1), "a");
  ASSERT_OK(cad_layer_animation_for_key(e, l, "a", &ro));
  ASSERT_OK(cad_layer_remove_animation(e, l, "a"));
  EXPECT_STATUS(cad_layer_add_animation(e, l, ro, "b"), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_anim_set_duration(e, ro, 2), CAD_ERR_INVALID_HANDLE);
  cad_engine_destroy(e);
}

TEST(forged_handles) {
  static const uint64_t forged[] = {
      1, 2, 3, 0xdeadbeefull, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull,
      0x7fffffffffffffffull, 0xffffffffffffffffull, 0x0123456789abcdefull,
  };
  cad_engine *e = t_engine();
  cad_layer good = t_layer(e);
  cad_anim ga = t_anim(e, CAD_ANIM_BASIC, "opacity");
  size_t i;
  for (i = 0; i < sizeof forged / sizeof forged[0]; i++) {
    if (forged[i] == good || forged[i] == ga) continue;
    EXPECT_LAYER_REJECTED(e, forged[i], good, "forged");
    EXPECT_ANIM_REJECTED(e, forged[i], good, "forged");
  }
  /* neighbours of real handles, bit flips */
  for (i = 0; i < 64; i++) {
    cad_layer l = good ^ (1ull << i);
    cad_anim a = ga ^ (1ull << i);
    if (l != ga) EXPECT_LAYER_REJECTED(e, l, good, "bit-flipped");
    if (a != good) EXPECT_ANIM_REJECTED(e, a, good, "bit-flipped");
  }
  /* the real ones still work */
  EXPECT_NEAR(t_get1(e, good, "opacity"), 1, 0);
  cad_engine_destroy(e);
}

TEST(kind_confusion) {
  /* an animation handle is not a layer handle and vice versa */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  cad_layer good = t_layer(e);
  EXPECT_LAYER_REJECTED(e, (cad_layer)a, good, "animation used as layer");
  EXPECT_ANIM_REJECTED(e, (cad_anim)l, good, "layer used as animation");
  cad_engine_destroy(e);
}

TEST(foreign_handles) {
  /* each engine's first layer and animation: likely the same slot numbers */
  cad_engine *e1 = t_engine();
  cad_engine *e2 = t_engine();
  cad_layer l1 = t_layer(e1), l2 = t_layer(e2);
  cad_anim a1 = t_anim(e1, CAD_ANIM_BASIC, "opacity");
  cad_anim a2 = t_anim(e2, CAD_ANIM_BASIC, "opacity");
  EXPECT_TRUE(l1 != l2);
  EXPECT_TRUE(a1 != a2);
  EXPECT_LAYER_REJECTED(e1, l2, l1, "foreign");
  EXPECT_ANIM_REJECTED(e1, a2, l1, "foreign");
  EXPECT_LAYER_REJECTED(e2, l1, l2, "foreign");
  EXPECT_ANIM_REJECTED(e2, a1, l2, "foreign");
  /* after its engine is gone too */
  cad_engine_destroy(e2);
  EXPECT_LAYER_REJECTED(e1, l2, l1, "foreign (engine destroyed)");
  EXPECT_ANIM_REJECTED(e1, a2, l1, "foreign (engine destroyed)");
  cad_engine_destroy(e1);
}

/* Makes `rounds` engines one after another, each with a first layer and a
   first animation (the slots every engine fills first), and counts the
   engines whose first handles equal `l` or `a` (clashes) and the calls that
   accepted `l` or `a` in them. */
static void churn_engines(cad_layer l, cad_anim a, int rounds, int *clashes, int *accepted) {
  double v = 0.5;
  int i;
  *clashes = 0;
  *accepted = 0;
  for (i = 0; i < rounds; i++) {
    cad_engine *f = cad_engine_create();
    cad_layer m = 0;
    cad_anim b = 0;
    if (!f) { EXPECT_TRUE(f != NULL); break; }
    if (cad_layer_create(f, &m) != CAD_OK || cad_anim_create(f, CAD_ANIM_BASIC, "opacity", &b) != CAD_OK) {
      EXPECT_TRUE(0);
      cad_engine_destroy(f);
      break;
    }
    if (m == l || b == a) (*clashes)++;
    if (cad_layer_set(f, l, "opacity", &v, 1) != CAD_ERR_INVALID_HANDLE) (*accepted)++;
    if (cad_anim_set_duration(f, a, 2) != CAD_ERR_INVALID_HANDLE) (*accepted)++;
    cad_engine_destroy(f);
  }
}

/* Engines stamp a 14-bit salt into their handles; a live engine's salt is
   never handed to another engine, however many engines come and go (16383
   salts: the loop goes round them all). */
TEST(foreign_handles_of_a_live_engine_after_many_engines) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  double v = 0;
  int clashes = -1, accepted = -1;
  churn_engines(l, a, 16400, &clashes, &accepted);
  EXPECT_INT_EQ(clashes, 0);
  EXPECT_INT_EQ(accepted, 0);
  EXPECT_OK(cad_layer_get(e, l, "opacity", &v, 1, NULL));
  EXPECT_NEAR(v, 1, 0);
  cad_engine_destroy(e);
}

/* A destroyed engine's salt comes back after the other 16382; the engines
   that hold it later start their objects at other generations, so the
   destroyed engine's handles are still refused, round after round. */
TEST(handles_of_a_destroyed_engine_after_its_salt_comes_back) {
  cad_engine *x = t_engine();
  cad_layer l = t_layer(x);
  cad_anim a = t_anim(x, CAD_ANIM_BASIC, "opacity");
  int clashes = -1, accepted = -1;
  cad_engine_destroy(x);
  churn_engines(l, a, 2 * 16383 + 8, &clashes, &accepted);
  EXPECT_INT_EQ(clashes, 0);
  EXPECT_INT_EQ(accepted, 0);
}

TEST(failed_calls_change_nothing) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), c = t_layer(e);
  cad_layer subs[4];
  int32_t n = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, p, c));
  EXPECT_STATUS(cad_layer_add_sublayer(e, p, 0xdeadbeefull), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_add_sublayer(e, 0xdeadbeefull, c), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, 0xdeadbeefull, c, 0), CAD_ERR_INVALID_HANDLE);
  ASSERT_OK(cad_layer_sublayers(e, p, subs, 4, &n));
  EXPECT_INT_EQ(n, 1);
  EXPECT_U64_EQ(subs[0], c);
  {
    cad_layer s = 0;
    ASSERT_OK(cad_layer_superlayer(e, c, &s));
    EXPECT_U64_EQ(s, p);
  }
  cad_engine_destroy(e);
}

TEST(sample_with_one_bad_handle_fails_whole_call) {
  cad_engine *e = t_engine();
  cad_layer ls[3];
  double out[6] = {7, 7, 7, 7, 7, 7};
  int32_t n = -1;
  ls[0] = t_layer(e);
  ls[1] = 0xdeadbeefull;
  ls[2] = t_layer(e);
  EXPECT_STATUS(cad_engine_sample(e, ls, 3, "position", out, 6, &n), CAD_ERR_INVALID_HANDLE);
  EXPECT_NEAR(out[0], 7, 0);
  EXPECT_NEAR(out[5], 7, 0);
  cad_engine_destroy(e);
}

TEST(everything_after_abuse_still_works) {
  /* after a storm of bad calls the engine behaves normally */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int i;
  for (i = 0; i < 2000; i++) {
    double v = (double)(x >> 11);
    int32_t n;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    (void)cad_layer_set(e, (cad_layer)x, "opacity", &v, 1);
    (void)cad_layer_get(e, (cad_layer)x, "position", &v, 1, &n);
    (void)cad_anim_set_duration(e, (cad_anim)x, 1);
    (void)cad_layer_destroy(e, (cad_layer)x);
    (void)cad_anim_destroy(e, (cad_anim)x);
  }
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 1), "a");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(failures_write_nothing) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = 12345;
  cad_layer s = 777;
  double d = 42;
  int32_t n = 99;
  uint64_t c = 5;
  EXPECT_STATUS(cad_layer_animation_for_key(e, l, "missing", &a), CAD_ERR_NOT_FOUND);
  EXPECT_U64_EQ(a, 12345);
  EXPECT_STATUS(cad_layer_superlayer(e, 0xdeadbeefull, &s), CAD_ERR_INVALID_HANDLE);
  EXPECT_U64_EQ(s, 777);
  EXPECT_STATUS(cad_layer_convert_time(e, 1, 0xdeadbeefull, 0, &d), CAD_ERR_INVALID_HANDLE);
  EXPECT_NEAR(d, 42, 0);
  EXPECT_STATUS(cad_layer_animation_count(e, 0xdeadbeefull, &n), CAD_ERR_INVALID_HANDLE);
  EXPECT_INT_EQ(n, 99);
  EXPECT_STATUS(cad_layer_get_contents(e, 0xdeadbeefull, &c), CAD_ERR_INVALID_HANDLE);
  EXPECT_U64_EQ(c, 5);
  EXPECT_STATUS(cad_layer_create(NULL, &s), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_U64_EQ(s, 777);
  cad_engine_destroy(e);
}

TEST(failed_setters_keep_the_description) {
  /* an invalid keyTimes list leaves the previous one in place */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_KEYFRAME, "zPosition");
  double v[3] = {0, 10, 30}, good[3] = {0, 0.75, 1}, bad[3] = {0, 0.8, 0.5};
  ASSERT_OK(cad_anim_set_values(e, a, v, 3, 1));
  ASSERT_OK(cad_anim_set_key_times(e, a, good, 3));
  EXPECT_STATUS(cad_anim_set_key_times(e, a, bad, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_duration(e, a, -5), CAD_ERR_INVALID_ARGUMENT);
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "k");
  t_tick(e, 0.375);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(zero_handles),
    TEST_ENTRY(stale_layer),
    TEST_ENTRY(stale_animation),
    TEST_ENTRY(stale_read_only_handle),
    TEST_ENTRY(forged_handles),
    TEST_ENTRY(kind_confusion),
    TEST_ENTRY(foreign_handles),
    TEST_ENTRY(foreign_handles_of_a_live_engine_after_many_engines),
    TEST_ENTRY(handles_of_a_destroyed_engine_after_its_salt_comes_back),
    TEST_ENTRY(failed_calls_change_nothing),
    TEST_ENTRY(sample_with_one_bad_handle_fails_whole_call),
    TEST_ENTRY(everything_after_abuse_still_works),
    TEST_ENTRY(failures_write_nothing),
    TEST_ENTRY(failed_setters_keep_the_description),
};

TEST_MAIN("handles")
