/* Basic animations: the endpoint rules of SEMANTICS.md §5.1, keys (§5.3), read-only copies. */
#include "test_util.h"

enum { F = 1, T = 2, B = 4 };

/*
 * A 2 s linear animation of zPosition (model value 100) with the given
 * endpoints; checks the presentation at p = 0, 0.5 and 0.75 against
 * start + (end - start) * p.
 */
static void endpoint_case(int set, double from, double to, double by, double start, double end,
                          int line) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  static const double ps[3] = {0, 0.5, 0.75};
  int i;
  t_set1(e, l, "zPosition", 100); /* a new layer: no action */
  if (set & F) ASSERT_OK(cad_anim_set_from(e, a, &from, 1));
  if (set & T) ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  if (set & B) ASSERT_OK(cad_anim_set_by(e, a, &by, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, 2));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  for (i = 0; i < 3; i++) {
    double got, want = start + (end - start) * ps[i];
    t_tick(e, 2 * ps[i]);
    got = t_pres1(e, l, "zPosition");
    if (!(fabs(got - want) <= 1e-9))
      cad_test_fail_(__FILE__, line, "endpoints %s%s%s at p = %g: expected %g, got %g",
                     (set & F) ? "from " : "", (set & T) ? "to " : "", (set & B) ? "by" : "", ps[i],
                     want, got);
  }
  /* removed at the end: back to the model */
  t_tick(e, 2.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 100, 0);
  cad_engine_destroy(e);
}

/* underlying value = the model, 100 */
TEST(from_to) { endpoint_case(F | T, 10, 20, 0, 10, 20, __LINE__); }
TEST(from_by) { endpoint_case(F | B, 10, 0, 4, 10, 14, __LINE__); }
TEST(by_to) { endpoint_case(B | T, 0, 20, 4, 16, 20, __LINE__); }
TEST(from_only) { endpoint_case(F, 10, 0, 0, 10, 100, __LINE__); }
TEST(to_only) { endpoint_case(T, 0, 20, 0, 100, 20, __LINE__); }
TEST(by_only) { endpoint_case(B, 0, 0, 4, 100, 104, __LINE__); }

TEST(from_to_by_is_invalid_state_at_add) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  double v = 1;
  cad_event ev;
  EXPECT_OK(cad_anim_set_from(e, a, &v, 1));
  EXPECT_OK(cad_anim_set_to(e, a, &v, 1));
  EXPECT_OK(cad_anim_set_by(e, a, &v, 1));
  t_tick(e, 0);
  EXPECT_STATUS(cad_layer_add_animation(e, l, a, "a"), CAD_ERR_INVALID_STATE);
  EXPECT_TRUE(strlen(cad_last_error()) > 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  t_tick(e, 0.1);
  EXPECT_STATUS(cad_engine_poll_event(e, &ev), CAD_ERR_NOT_FOUND); /* no events either */
  cad_engine_destroy(e);
}

TEST(none_goes_from_captured_presentation_to_underlying) {
  /* model 0; the animation without endpoints captures the presentation (0)
     when added; then the model jumps to 100 (no action): the animation moves
     from 0 to the underlying value, read every sample: 100 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  ASSERT_OK(cad_anim_set_duration(e, a, 2));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  ASSERT_OK(cad_layer_set_actions_enabled(e, l, 0));
  t_set1(e, l, "zPosition", 100);
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 50, 1e-9);
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 75, 1e-9);
  cad_engine_destroy(e);
}

TEST(underlying_value_is_read_every_sample) {
  /* "to 20" from the underlying value; the model changes half way */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  double to = 20;
  t_set1(e, l, "zPosition", 100);
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, 2));
  t_tick(e, 0);
  t_add(e, l, a, "a");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 60, 1e-9);
  ASSERT_OK(cad_layer_set_actions_enabled(e, l, 0));
  t_set1(e, l, "zPosition", 0);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 10, 1e-9); /* 0 + (20 - 0) * 0.5, at once */
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15, 1e-9);
  cad_engine_destroy(e);
}

TEST(underlying_includes_earlier_animations) {
  /* A: 10 -> 20; B (added after): by 4 on top of A's output */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim b = t_anim(e, CAD_ANIM_BASIC, "zPosition");
  double by = 4;
  ASSERT_OK(cad_anim_set_by(e, b, &by, 1));
  ASSERT_OK(cad_anim_set_duration(e, b, 2));
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 10, 20, 2), "a");
  t_add(e, l, b, "b");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15 + 4 * 0.5, 1e-9);
  /* removing A: B now builds on the model (0), at once */
  EXPECT_OK(cad_layer_remove_animation(e, l, "a"));
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0 + 4 * 0.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(later_non_additive_animation_replaces) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 10, 20, 2), "a");
  t_add(e, l, t_basic1(e, "zPosition", -10, -20, 2), "b");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), -15, 1e-9);
  cad_engine_destroy(e);
}

TEST(point_values) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "position");
  double from[2] = {0, 100}, to[2] = {10, 20}, v[2];
  ASSERT_OK(cad_anim_set_from(e, a, from, 2));
  ASSERT_OK(cad_anim_set_to(e, a, to, 2));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "p");
  t_tick(e, 0.25);
  t_presn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 2.5, 1e-9);
  EXPECT_NEAR(v[1], 80, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "position.y"), 80, 1e-9);
  /* the model is untouched */
  t_getn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 0, 0);
  EXPECT_NEAR(v[1], 0, 0);
  cad_engine_destroy(e);
}

TEST(sub_key_animation_changes_one_component) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[4];
  t_set4(e, l, "backgroundColor", 0.1, 0.2, 0.3, 0.4);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "backgroundColor.b", 0, 1, 1), "b");
  t_tick(e, 0.5);
  t_presn(e, l, "backgroundColor", v, 4);
  {
    double want[4] = {0.1, 0.2, 0.5, 0.4};
    EXPECT_VEC_NEAR(v, want, 4, 1e-9);
  }
  cad_engine_destroy(e);
}

TEST(transform_matrix_from_to) {
  /* identity -> translation (10, 0, 0): decomposed, halfway is translation 5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat from = t_identity(), to = t_translate(10, 0, 0), want = t_translate(5, 0, 0);
  double m[16];
  ASSERT_OK(cad_anim_set_from(e, a, from.m, 16));
  ASSERT_OK(cad_anim_set_to(e, a, to.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "t");
  t_tick(e, 0.5);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(virtual_rotation_is_not_wrapped) {
  /* rotation.z 0 -> 2 pi turns a full circle: a quarter of the way is pi/2 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want = t_rot_z(T_PI / 2);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "transform.rotation.z", 0, 2 * T_PI, 1), "spin");
  t_tick(e, 0.25);
  EXPECT_NEAR(t_pres1(e, l, "transform.rotation.z"), T_PI / 2, 1e-9);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(hidden_stays_visible_during_animation) {
  /* 0 -> 1 switches at e >= 1; 1 -> 0 as soon as e > 0 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  cad_anim a = t_basic1(e, "hidden", 0, 1, 1);
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  t_tick(e, 0);
  t_add(e, l, a, "h");
  t_add(e, m, t_basic1(e, "hidden", 1, 0, 1), "h");
  EXPECT_NEAR(t_pres1(e, l, "hidden"), 0, 0);
  EXPECT_NEAR(t_pres1(e, m, "hidden"), 1, 0);
  t_tick(e, 0.01);
  EXPECT_NEAR(t_pres1(e, m, "hidden"), 0, 0);
  t_tick(e, 0.99);
  EXPECT_NEAR(t_pres1(e, l, "hidden"), 0, 0);
  EXPECT_NEAR(t_pres1(e, m, "hidden"), 0, 0);
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "hidden"), 1, 0);
  cad_engine_destroy(e);
}

TEST(value_count_must_match_key_path) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "position");
  double v[16] = {0};
  EXPECT_STATUS(cad_anim_set_from(e, a, v, 1), CAD_ERR_TYPE_MISMATCH);
  EXPECT_STATUS(cad_anim_set_to(e, a, v, 3), CAD_ERR_TYPE_MISMATCH);
  EXPECT_STATUS(cad_anim_set_by(e, a, v, 16), CAD_ERR_TYPE_MISMATCH);
  EXPECT_STATUS(cad_anim_set_from(e, a, v, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_to(e, a, NULL, 2), CAD_ERR_INVALID_ARGUMENT);
  v[1] = NAN;
  EXPECT_STATUS(cad_anim_set_to(e, a, v, 2), CAD_ERR_INVALID_ARGUMENT);
  v[1] = INFINITY;
  EXPECT_STATUS(cad_anim_set_by(e, a, v, 2), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(create_checks_key_path) {
  cad_engine *e = t_engine();
  cad_anim a = 99;
  EXPECT_STATUS(cad_anim_create(e, CAD_ANIM_BASIC, "nope", &a), CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_U64_EQ(a, 99);
  EXPECT_STATUS(cad_anim_create(e, CAD_ANIM_BASIC, NULL, &a), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_create(e, (cad_anim_kind)17, "opacity", &a), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_U64_EQ(a, 99);
  cad_engine_destroy(e);
}

TEST(description_is_copied_on_add) {
  /* changing the description after adding does not affect the attached copy */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 10, 1);
  double to = 1000;
  t_tick(e, 0);
  ASSERT_OK(cad_layer_add_animation(e, l, a, "a"));
  ASSERT_OK(cad_anim_set_to(e, a, &to, 1));
  ASSERT_OK(cad_anim_set_duration(e, a, 4));
  ASSERT_OK(cad_layer_add_animation(e, m, a, "a"));
  ASSERT_OK(cad_anim_destroy(e, a)); /* attached copies live on */
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  EXPECT_NEAR(t_pres1(e, m, "zPosition"), 125, 1e-9);
  cad_engine_destroy(e);
}

TEST(attached_copy_is_read_only) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  cad_anim ro = 0;
  double v = 3;
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), "a");
  ASSERT_OK(cad_layer_animation_for_key(e, l, "a", &ro));
  ASSERT_TRUE(ro != 0);
  EXPECT_STATUS(cad_anim_set_duration(e, ro, 5), CAD_ERR_INVALID_STATE);
  EXPECT_STATUS(cad_anim_set_to(e, ro, &v, 1), CAD_ERR_INVALID_STATE);
  EXPECT_STATUS(cad_anim_set_tag(e, ro, 7), CAD_ERR_INVALID_STATE);
  EXPECT_STATUS(cad_anim_set_timing_function(e, ro, CAD_TIMING_EASE_IN), CAD_ERR_INVALID_STATE);
  /* it may be added elsewhere (copied) */
  EXPECT_OK(cad_layer_add_animation(e, m, ro, "copy"));
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  EXPECT_NEAR(t_pres1(e, m, "zPosition"), 5, 1e-9);
  EXPECT_STATUS(cad_layer_animation_for_key(e, l, "nope", &ro), CAD_ERR_NOT_FOUND);
  cad_engine_destroy(e);
}

TEST(keys_and_replacement) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  char key[64];
  int32_t len = -1;
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), "a");
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 1), "b");
  t_add(e, l, t_basic1(e, "zPosition", 50, 60, 1), "a"); /* replaces a, appended */
  EXPECT_INT_EQ(t_anim_count(e, l), 2);
  EXPECT_OK(cad_layer_animation_key_at(e, l, 0, key, 64, &len));
  EXPECT_STR_EQ(key, "b");
  EXPECT_INT_EQ(len, 1);
  EXPECT_OK(cad_layer_animation_key_at(e, l, 1, key, 64, &len));
  EXPECT_STR_EQ(key, "a");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 55, 1e-9);
  EXPECT_STATUS(cad_layer_animation_key_at(e, l, 2, key, 64, &len), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_animation_key_at(e, l, -1, key, 64, &len), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(generated_keys_are_unique) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  char k0[64], k1[64], k2[64];
  int32_t len;
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), NULL);
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), "");
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), NULL);
  EXPECT_INT_EQ(t_anim_count(e, l), 3);
  EXPECT_OK(cad_layer_animation_key_at(e, l, 0, k0, 64, &len));
  EXPECT_OK(cad_layer_animation_key_at(e, l, 1, k1, 64, &len));
  EXPECT_OK(cad_layer_animation_key_at(e, l, 2, k2, 64, &len));
  EXPECT_TRUE(strlen(k0) > 0 && strlen(k1) > 0 && strlen(k2) > 0);
  EXPECT_TRUE(strcmp(k0, k1) != 0 && strcmp(k1, k2) != 0 && strcmp(k0, k2) != 0);
  cad_engine_destroy(e);
}

TEST(key_at_buffer_too_small) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  char buf[8];
  int32_t len = -1;
  memset(buf, 'x', sizeof buf);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 0, 10, 1), "abcdefgh"); /* 8 bytes + NUL */
  EXPECT_STATUS(cad_layer_animation_key_at(e, l, 0, buf, 8, &len), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(len, 9);
  EXPECT_TRUE(buf[0] == 'x' && buf[7] == 'x');
  cad_engine_destroy(e);
}

TEST(remove_animation) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "zPosition", 10, 20, 2), "a");
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 2), "b");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 15, 1e-9);
  EXPECT_OK(cad_layer_remove_animation(e, l, "a"));
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0, 0); /* at once */
  EXPECT_STATUS(cad_layer_remove_animation(e, l, "a"), CAD_ERR_NOT_FOUND);
  EXPECT_STATUS(cad_layer_remove_animation(e, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_OK(cad_layer_remove_all_animations(e, l));
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 1, 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  EXPECT_OK(cad_layer_remove_all_animations(e, l)); /* none: fine */
  cad_engine_destroy(e);
}

TEST(transform_matrix_scale_and_translation) {
  /* identity -> S(3) * T(10, 0, 0): half way is S(2) * T(5, 0, 0) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat from = t_identity(), to = t_mul(t_scale(3, 3, 3), t_translate(10, 0, 0));
  t_mat want = t_mul(t_scale(2, 2, 2), t_translate(5, 0, 0));
  double m[16];
  ASSERT_OK(cad_anim_set_from(e, a, from.m, 16));
  ASSERT_OK(cad_anim_set_to(e, a, to.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "t");
  t_tick(e, 0.5);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(transform_matrix_rotation_takes_shortest_arc) {
  /* Rz(0) -> Rz(pi/2): half way Rz(pi/4); Rz(0) -> Rz(3 pi/2), the shortest
     arc is -pi/2: half way Rz(-pi/4) */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), k = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  cad_anim b = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat from = t_identity(), to_a = t_rot_z(T_PI / 2), to_b = t_rot_z(1.5 * T_PI);
  t_mat want_a = t_rot_z(T_PI / 4), want_b = t_rot_z(-T_PI / 4);
  double m[16];
  ASSERT_OK(cad_anim_set_from(e, a, from.m, 16));
  ASSERT_OK(cad_anim_set_to(e, a, to_a.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  ASSERT_OK(cad_anim_set_from(e, b, from.m, 16));
  ASSERT_OK(cad_anim_set_to(e, b, to_b.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, b, 1));
  t_tick(e, 0);
  t_add(e, l, a, "t");
  t_add(e, k, b, "t");
  t_tick(e, 0.5);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want_a.m, 16, 1e-9);
  t_presn(e, k, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want_b.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST(singular_matrix_switches_at_half) {
  /* identity -> S(0): not decomposable, so discrete at progress 0.5 */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "transform");
  t_mat from = t_identity(), to = t_scale(0, 0, 0);
  double m[16];
  ASSERT_OK(cad_anim_set_from(e, a, from.m, 16));
  ASSERT_OK(cad_anim_set_to(e, a, to.m, 16));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, l, a, "t");
  t_tick(e, 0.4);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, from.m, 16, 1e-12);
  t_tick(e, 0.6);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, to.m, 16, 1e-12);
  cad_engine_destroy(e);
}

TEST(virtual_key_animation_keeps_other_components) {
  /* model: scale 2, translation (5, 0); animating rotation.z to pi/2 gives
     S(2) * Rz(pi/2) * T(5, 0, 0) at the end */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "transform.rotation.z", 0, T_PI / 2, 1);
  t_mat want = t_mul(t_mul(t_scale(2, 2, 2), t_rot_z(T_PI / 2)), t_translate(5, 0, 0));
  double m[16];
  t_set1(e, l, "transform.scale", 2);
  t_set1(e, l, "transform.translation.x", 5);
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  t_tick(e, 0);
  t_add(e, l, a, "spin");
  t_tick(e, 2);
  t_presn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-9);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(from_to),
    TEST_ENTRY(from_by),
    TEST_ENTRY(by_to),
    TEST_ENTRY(from_only),
    TEST_ENTRY(to_only),
    TEST_ENTRY(by_only),
    TEST_ENTRY(from_to_by_is_invalid_state_at_add),
    TEST_ENTRY(none_goes_from_captured_presentation_to_underlying),
    TEST_ENTRY(underlying_value_is_read_every_sample),
    TEST_ENTRY(underlying_includes_earlier_animations),
    TEST_ENTRY(later_non_additive_animation_replaces),
    TEST_ENTRY(point_values),
    TEST_ENTRY(sub_key_animation_changes_one_component),
    TEST_ENTRY(transform_matrix_from_to),
    TEST_ENTRY(virtual_rotation_is_not_wrapped),
    TEST_ENTRY(hidden_stays_visible_during_animation),
    TEST_ENTRY(value_count_must_match_key_path),
    TEST_ENTRY(create_checks_key_path),
    TEST_ENTRY(description_is_copied_on_add),
    TEST_ENTRY(attached_copy_is_read_only),
    TEST_ENTRY(keys_and_replacement),
    TEST_ENTRY(generated_keys_are_unique),
    TEST_ENTRY(key_at_buffer_too_small),
    TEST_ENTRY(remove_animation),
    TEST_ENTRY(transform_matrix_scale_and_translation),
    TEST_ENTRY(transform_matrix_rotation_takes_shortest_arc),
    TEST_ENTRY(singular_matrix_switches_at_half),
    TEST_ENTRY(virtual_key_animation_keeps_other_components),
};

TEST_MAIN("basic")
