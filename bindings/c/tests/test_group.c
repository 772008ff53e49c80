/* Animation groups (SEMANTICS.md §9). */
#include "test_util.h"

static cad_anim group_of(cad_engine *e, const cad_anim *kids, int32_t n, double duration) {
  cad_anim g = t_anim(e, CAD_ANIM_GROUP, NULL);
  int32_t i;
  ASSERT_OK(cad_anim_group_set_children(e, g, kids, n));
  for (i = 0; i < n; i++) ASSERT_OK(cad_anim_destroy(e, kids[i])); /* copied */
  ASSERT_OK(cad_anim_set_duration(e, g, duration));
  return g;
}

TEST(children_in_group_time) {
  /* group 2 s: A (duration 0 -> the group's 2 s) opacity 0 -> 1,
     B zPosition 0 -> 10 over 1 s beginning 0.5 s after the group's start */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kids[2];
  kids[0] = t_basic1(e, "opacity", 0, 1, 0);
  kids[1] = t_basic1(e, "zPosition", 0, 10, 1);
  ASSERT_OK(cad_anim_set_begin_time(e, kids[1], 0.5));
  t_set1(e, l, "zPosition", -1);
  t_tick(e, 10);
  t_add(e, l, group_of(e, kids, 2, 2), "g");
  t_tick(e, 10.25);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.125, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), -1, 1e-9); /* B not begun */
  t_tick(e, 11);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.5, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  t_tick(e, 11.75); /* B over (no fill), A still running */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), -1, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.875, 1e-9);
  t_tick(e, 12.5); /* the group is over and removed */
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 1, 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  cad_engine_destroy(e);
}

TEST(children_clipped_to_group) {
  /* a 5 s child in a 1 s group filled forwards shows what it had at 1 s */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kids[1];
  cad_anim g;
  kids[0] = t_basic1(e, "zPosition", 0, 50, 5);
  ASSERT_OK(cad_anim_set_fill_mode(e, kids[0], CAD_FILL_FORWARDS));
  g = group_of(e, kids, 1, 1);
  ASSERT_OK(cad_anim_set_fill_mode(e, g, CAD_FILL_FORWARDS));
  ASSERT_OK(cad_anim_set_removed_on_completion(e, g, 0));
  t_tick(e, 0);
  t_add(e, l, g, "g");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  t_tick(e, 3);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 10, 1e-9);
  cad_engine_destroy(e);
}

TEST(group_timing_function_eases_children) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kids[1];
  cad_anim g;
  kids[0] = t_basic1(e, "zPosition", 0, 1, 1);
  g = group_of(e, kids, 1, 1);
  ASSERT_OK(cad_anim_set_timing_function(e, g, CAD_TIMING_EASE_IN));
  t_tick(e, 0);
  t_add(e, l, g, "g");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), t_bezier_y(0.42, 0, 1, 1, 0.5), 2e-7);
  cad_engine_destroy(e);
}

TEST(group_speed_and_repeat) {
  /* speed 2, repeatCount 2, duration 1: the child (linear, 1 s) runs twice in 1 s */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kids[1];
  cad_anim g;
  kids[0] = t_basic1(e, "zPosition", 0, 10, 1);
  g = group_of(e, kids, 1, 1);
  ASSERT_OK(cad_anim_set_speed(e, g, 2));
  ASSERT_OK(cad_anim_set_repeat_count(e, g, 2));
  t_tick(e, 0);
  t_add(e, l, g, "g");
  t_tick(e, 0.25);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  t_tick(e, 0.75);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  t_tick(e, 1.1);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  cad_engine_destroy(e);
}

TEST(events_are_the_groups) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kids[2];
  cad_anim g;
  cad_event ev[8];
  int n;
  kids[0] = t_basic1(e, "zPosition", 0, 10, 0.2);
  kids[1] = t_basic1(e, "opacity", 0, 1, 0.4);
  g = group_of(e, kids, 2, 0.5);
  ASSERT_OK(cad_anim_set_tag(e, g, 77));
  t_tick(e, 0);
  t_add(e, l, g, "group");
  t_tick(e, 1);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 2);
  EXPECT_INT_EQ(ev[0].kind, CAD_EVENT_START);
  EXPECT_INT_EQ(ev[1].kind, CAD_EVENT_STOP);
  EXPECT_STR_EQ(ev[1].key, "group");
  EXPECT_INT_EQ(ev[1].tag, 77);
  EXPECT_NEAR(ev[1].time, 0.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(nested_groups) {
  /* outer 2 s [ inner 1 s, beginning at 0.5 [ zPosition 0 -> 10 ] ] */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim leaf[1], mid[1];
  cad_anim outer;
  leaf[0] = t_basic1(e, "zPosition", 0, 10, 0);
  mid[0] = group_of(e, leaf, 1, 1);
  ASSERT_OK(cad_anim_set_begin_time(e, mid[0], 0.5));
  outer = group_of(e, mid, 1, 2);
  t_tick(e, 0);
  t_add(e, l, outer, "g");
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  cad_engine_destroy(e);
}

TEST(children_are_copied) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim kid = t_basic1(e, "zPosition", 0, 10, 1);
  cad_anim g = t_anim(e, CAD_ANIM_GROUP, NULL);
  double to = 1000;
  ASSERT_OK(cad_anim_group_set_children(e, g, &kid, 1));
  ASSERT_OK(cad_anim_set_to(e, kid, &to, 1)); /* after copying: no effect */
  ASSERT_OK(cad_anim_set_duration(e, g, 1));
  t_tick(e, 0);
  t_add(e, l, g, "g");
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 5, 1e-9);
  EXPECT_STATUS(cad_anim_group_set_children(e, g, NULL, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_group_set_children(e, g, &kid, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_group_set_children(e, kid, &kid, 1), CAD_ERR_INVALID_STATE); /* not a group */
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(children_in_group_time),
    TEST_ENTRY(children_clipped_to_group),
    TEST_ENTRY(group_timing_function_eases_children),
    TEST_ENTRY(group_speed_and_repeat),
    TEST_ENTRY(events_are_the_groups),
    TEST_ENTRY(nested_groups),
    TEST_ENTRY(children_are_copied),
};

TEST_MAIN("group")
