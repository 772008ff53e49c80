/* Additive and cumulative animations, and composition on one layer (SEMANTICS.md §2.3, §5.2). */
#include "test_util.h"

TEST(additive_adds_to_the_model) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 10, 1);
  ASSERT_OK(cad_anim_set_additive(e, a, 1));
  t_set1(e, l, "zPosition", 100);
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 105, 1e-9);
  cad_engine_destroy(e);
}

TEST(additive_stack) {
  /* A replaces (10 -> 20), B adds (1 -> 1), C adds (0 -> 100) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim b = t_basic1(e, "zPosition", 1, 1, 2);
  cad_anim c = t_basic1(e, "zPosition", 0, 100, 2);
  ASSERT_OK(cad_anim_set_additive(e, b, 1));
  ASSERT_OK(cad_anim_set_additive(e, c, 1));
  t_set1(e, l, "zPosition", -1000);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 10, 20, 2), "a");
  t_add(e, l, b, "b");
  t_add(e, l, c, "c");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15 + 1 + 50, 1e-9);
  /* a later non-additive animation replaces everything below it */
  t_add(e, l, t_basic1(e, "zPosition", 7, 7, 2), "d");
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 7, 1e-9);
  cad_engine_destroy(e);
}

TEST(additive_point) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "position");
  double from[2] = {0, 0}, to[2] = {-20, 40}, v[2];
  ASSERT_OK(cad_anim_set_from(e, a, from, 2));
  ASSERT_OK(cad_anim_set_to(e, a, to, 2));
  ASSERT_OK(cad_anim_set_additive(e, a, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_set2(e, l, "position", 100, 200);
  t_tick(e, 0);
  t_add(e, l, a, "shake");
  t_tick(e, 0.25);
  t_presn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 95, 1e-9);
  EXPECT_NEAR(v[1], 210, 1e-9);
  cad_engine_destroy(e);
}

TEST(additive_transform_concatenates_underlying_then_value) {
  /* model T(10, 0, 0); additive value S(2): underlying * value = T * S,
     which scales the translation too (m41 = 20) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat s = t_scale(2, 2, 1), model = t_translate(10, 0, 0), want = t_mul(model, s);
  double m[16];
  t_setn(e, l, "transform", model.m, 16);
  ASSERT_OK(cad_anim_set_from(e, a, s.m, 16));
  ASSERT_OK(cad_anim_set_to(e, a, s.m, 16));
  ASSERT_OK(cad_anim_set_additive(e, a, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 0.5);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(transform_by_concatenates) {
  /* byValue on a whole matrix: underlying -> underlying * by (Cadence) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat by = t_translate(0, 8, 0), model = t_scale(3, 3, 1), want = t_mul(model, by);
  double m[16];
  t_setn(e, l, "transform", model.m, 16);
  ASSERT_OK(cad_anim_set_by(e, a, by.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 2); /* the end value */
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(virtual_keys_compose) {
  /* rotation.z and scale animations together give S(s) * Rz(theta) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want = t_mul(t_scale(2, 2, 2), t_rot_z(T_PI / 2));
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "transform.rotation.z", 0, T_PI, 2), "spin");
  t_add(e, l, t_basic1(e, "transform.scale", 1, 3, 2), "grow");
  t_tick(e, 1);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.z"), T_PI / 2, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "transform.scale"), 2, 1e-9);
  cad_engine_destroy(e);
}

TEST(additive_virtual_rotation) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "transform.rotation.z", 0, 1, 1);
  ASSERT_OK(cad_anim_set_additive(e, a, 1));
  t_set1(e, l, "transform.rotation.z", 0.5);
  t_tick(e, 0);
  t_add(e, l, a, "wobble");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.z"), 1.0, 1e-9);
  cad_engine_destroy(e);
}

/* "a 0 -> 10 cumulative animation repeated 3 times ends at 30" */
TEST(cumulative_three_repeats_end_at_30) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 10, 1);
  ASSERT_OK(cad_anim_set_cumulative(e, a, 1));
  ASSERT_OK(cad_anim_set_repeat_count(e, a, 3));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  t_tick(e, 0);
  t_add(e, l, a, "c");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15, 1e-9);
  t_tick(e, 2.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 22.5, 1e-9);
  t_tick(e, 5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 30, 1e-9);
  cad_engine_destroy(e);
}

TEST(cumulative_from_nonzero_start) {
  /* 5 -> 8: each completed cycle adds 8 - 5 = 3; 2.5 repeats end in the
     third cycle at its half: 5 + 2 * 3 + 1.5 = 12.5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 5, 8, 1);
  ASSERT_OK(cad_anim_set_cumulative(e, a, 1));
  ASSERT_OK(cad_anim_set_repeat_count(e, a, 2.5));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  t_tick(e, 0);
  t_add(e, l, a, "c");
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 3 + 6.5, 1e-9);
  t_tick(e, 10);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 12.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(cumulative_point) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "position");
  double from[2] = {0, 0}, to[2] = {10, -1}, v[2];
  ASSERT_OK(cad_anim_set_from(e, a, from, 2));
  ASSERT_OK(cad_anim_set_to(e, a, to, 2));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  ASSERT_OK(cad_anim_set_cumulative(e, a, 1));
  ASSERT_OK(cad_anim_set_repeat_count(e, a, 4));
  t_tick(e, 0);
  t_add(e, l, a, "walk");
  t_tick(e, 3.5);
  t_presn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 35, 1e-9);
  EXPECT_NEAR(v[1], -3.5, 1e-9);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(additive_adds_to_the_model),
    TEST_ENTRY(additive_stack),
    TEST_ENTRY(additive_point),
    TEST_ENTRY(additive_transform_concatenates_underlying_then_value),
    TEST_ENTRY(transform_by_concatenates),
    TEST_ENTRY(virtual_keys_compose),
    TEST_ENTRY(additive_virtual_rotation),
    TEST_ENTRY(cumulative_three_repeats_end_at_30),
    TEST_ENTRY(cumulative_from_nonzero_start),
    TEST_ENTRY(cumulative_point),
};

TEST_MAIN("additive")
