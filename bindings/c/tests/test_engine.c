/* Engine and time: create/destroy, tick, now, layer count, event queue capacity (API.md "Engine and time"). */
#include <stddef.h>
#include "test_util.h"

TEST(create_and_destroy) {
  cad_engine *e = cad_engine_create();
  ASSERT_TRUE(e != NULL);
  cad_engine_destroy(e);
  cad_engine_destroy(NULL); /* no-op */
}

TEST(now_is_zero_before_first_tick) {
  cad_engine *e = t_engine();
  double now = -1;
  EXPECT_OK(cad_engine_now(e, &now));
  EXPECT_NEAR(now, 0.0, 0.0);
  cad_engine_destroy(e);
}

TEST(tick_sets_now) {
  cad_engine *e = t_engine();
  double now = -1;
  EXPECT_OK(cad_engine_tick(e, 1.5));
  EXPECT_OK(cad_engine_now(e, &now));
  EXPECT_NEAR(now, 1.5, 0.0);
  EXPECT_OK(cad_engine_tick(e, 1.5)); /* equal to the previous now is fine */
  EXPECT_OK(cad_engine_tick(e, 1e6));
  EXPECT_OK(cad_engine_now(e, &now));
  EXPECT_NEAR(now, 1e6, 0.0);
  cad_engine_destroy(e);
}

TEST(tick_may_start_at_any_time) {
  /* hosts pass cad_media_time(), which is far from 0 */
  cad_engine *e = t_engine();
  double now = 0, t0 = cad_media_time();
  EXPECT_OK(cad_engine_tick(e, t0));
  EXPECT_OK(cad_engine_now(e, &now));
  EXPECT_NEAR(now, t0, 0.0);
  cad_engine_destroy(e);
}

TEST(tick_rejects_going_back_and_non_finite) {
  cad_engine *e = t_engine();
  double now = -1;
  ASSERT_OK(cad_engine_tick(e, 2.0));
  EXPECT_STATUS(cad_engine_tick(e, 1.0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_tick(e, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_tick(e, INFINITY), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_tick(e, -INFINITY), CAD_ERR_INVALID_ARGUMENT);
  /* a failed call changes nothing */
  EXPECT_OK(cad_engine_now(e, &now));
  EXPECT_NEAR(now, 2.0, 0.0);
  cad_engine_destroy(e);
}

TEST(null_engine_and_out_pointers) {
  cad_engine *e = t_engine();
  double d;
  int32_t n;
  EXPECT_STATUS(cad_engine_tick(NULL, 1.0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_now(NULL, &d), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_now(e, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_layer_count(NULL, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_layer_count(e, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_poll_event(e, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strlen(cad_last_error()) > 0);
  cad_engine_destroy(e);
}

TEST(layer_count) {
  cad_engine *e = t_engine();
  int32_t n = -1;
  cad_layer a, b;
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 0);
  a = t_layer(e);
  b = t_layer(e);
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_OK(cad_layer_destroy(e, a));
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 1);
  EXPECT_OK(cad_layer_destroy(e, b));
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 0);
  cad_engine_destroy(e);
}

TEST(engines_are_independent) {
  cad_engine *e1 = t_engine();
  cad_engine *e2 = t_engine();
  cad_layer l1 = t_layer(e1);
  double now = -1;
  int32_t n = -1;
  t_set1(e1, l1, "opacity", 0.5);
  ASSERT_OK(cad_engine_tick(e1, 10));
  EXPECT_OK(cad_engine_now(e2, &now));
  EXPECT_NEAR(now, 0.0, 0.0);
  EXPECT_OK(cad_engine_layer_count(e2, &n));
  EXPECT_INT_EQ(n, 0);
  cad_engine_destroy(e2);
  /* destroying one leaves the other working */
  EXPECT_NEAR(t_get1(e1, l1, "opacity"), 0.5, 0.0);
  cad_engine_destroy(e1);
}

TEST(destroy_with_content) {
  /* an engine with layers, trees, animations and queued events goes away whole */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e);
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  t_tick(e, 0);
  t_add(e, c, t_basic1(e, "opacity", 0, 1, 1), "fade");
  t_tick(e, 0.5);
  cad_engine_destroy(e);
  EXPECT_TRUE(1);
}

TEST(poll_empty_queue) {
  cad_engine *e = t_engine();
  cad_event ev;
  memset(&ev, 0x5a, sizeof ev);
  EXPECT_STATUS(cad_engine_poll_event(e, &ev), CAD_ERR_NOT_FOUND);
  EXPECT_INT_EQ(ev.kind, 0x5a5a5a5a); /* nothing written on failure */
  cad_engine_destroy(e);
}

/* Five short animations, each with a start and a stop: ten events. */
static void ten_events(cad_engine *e, cad_layer l) {
  int i;
  t_tick(e, 0);
  for (i = 0; i < 5; i++) {
    cad_anim a = t_basic1(e, "opacity", 0, 1, 0.1 * (i + 1));
    ASSERT_OK(cad_anim_set_tag(e, a, i + 1));
    t_add(e, l, a, NULL);
  }
  t_tick(e, 1);
}

TEST(event_capacity_drops_oldest) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[16];
  uint64_t dropped = 99;
  int n;
  EXPECT_OK(cad_engine_events_dropped(e, &dropped));
  EXPECT_U64_EQ(dropped, 0);
  ASSERT_OK(cad_engine_set_event_capacity(e, 4));
  ten_events(e, l);
  n = t_drain(e, ev, 16);
  EXPECT_INT_EQ(n, 4);
  EXPECT_OK(cad_engine_events_dropped(e, &dropped));
  EXPECT_U64_EQ(dropped, 6);
  /* the oldest were dropped: the last four are the stops of animations 2..5 */
  if (n == 4) {
    int i;
    for (i = 0; i < 4; i++) {
      EXPECT_INT_EQ(ev[i].kind, CAD_EVENT_STOP);
      EXPECT_INT_EQ(ev[i].tag, i + 2);
    }
  }
  cad_engine_destroy(e);
}

TEST(event_capacity_zero_keeps_nothing) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev;
  uint64_t dropped = 0;
  ASSERT_OK(cad_engine_set_event_capacity(e, 0));
  ten_events(e, l);
  EXPECT_STATUS(cad_engine_poll_event(e, &ev), CAD_ERR_NOT_FOUND);
  EXPECT_OK(cad_engine_events_dropped(e, &dropped));
  EXPECT_U64_EQ(dropped, 10);
  EXPECT_STATUS(cad_engine_set_event_capacity(e, -1), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

/* Builds the same small scene (a root, 40 leaves with a position animation,
   one group of rotation and scale on every fourth leaf) and renders it at t. */
static int32_t reserve_scene(cad_engine *e, double t, cad_render_item *out, int32_t cap) {
  cad_layer root = t_layer(e), l;
  int32_t i, n = 0;
  t_tick(e, 0);
  t_set4(e, root, "bounds", 0, 0, 400, 300);
  for (i = 0; i < 40; i++) {
    cad_anim a, g, kids[2];
    l = t_layer(e);
    ASSERT_OK(cad_layer_add_sublayer(e, root, l));
    t_set4(e, l, "bounds", 0, 0, 10, 10);
    t_set2(e, l, "position", 5.0 * i, 3.0 * i);
    a = t_anim(e, CAD_ANIM_BASIC, "position");
    {
      double from[2] = {5.0 * i, 3.0 * i}, to[2] = {5.0 * i + 50, 3.0 * i + 20};
      ASSERT_OK(cad_anim_set_from(e, a, from, 2));
      ASSERT_OK(cad_anim_set_to(e, a, to, 2));
    }
    ASSERT_OK(cad_anim_set_duration(e, a, 2.0));
    t_add(e, l, a, "move");
    cad_anim_destroy(e, a);
    if (i % 4 == 0) {
      kids[0] = t_basic1(e, "transform.rotation.z", 0, 1.5, 1.0);
      kids[1] = t_basic1(e, "transform.scale", 1, 2, 1.0);
      g = t_anim(e, CAD_ANIM_GROUP, NULL);
      ASSERT_OK(cad_anim_group_set_children(e, g, kids, 2));
      ASSERT_OK(cad_anim_set_duration(e, g, 1.0));
      t_add(e, l, g, "spin");
      cad_anim_destroy(e, g); cad_anim_destroy(e, kids[0]); cad_anim_destroy(e, kids[1]);
    }
  }
  t_tick(e, t);
  ASSERT_OK(cad_engine_render_list(e, root, out, cap, &n));
  return n;
}

/* cad_engine_reserve only sizes storage: the scene renders the same bytes
   whether it was reserved (exactly, too little, or more than it needs) or
   not; the counts are checked. */
TEST(reserve_changes_no_result) {
  static cad_render_item plain[64], reserved[64];
  int32_t counts[3][2] = {{41, 50}, {8, 3}, {5000, 9000}}, k, n0;
  cad_engine *e = t_engine();
  n0 = reserve_scene(e, 0.75, plain, 64);
  EXPECT_INT_EQ(n0, 41);
  /* leaf 1 at 0.75 s of 2 s: position (5, 3) + 0.375 (50, 20) = (23.75, 10.5),
     less its anchor offset (5, 5), under the root's (-200, -150) */
  EXPECT_NEAR(plain[2].world[12], -181.25, 1e-4);
  EXPECT_NEAR(plain[2].world[13], -144.5, 1e-4);
  cad_engine_destroy(e);
  for (k = 0; k < 3; k++) {
    int32_t n;
    e = t_engine();
    ASSERT_OK(cad_engine_reserve(e, counts[k][0], counts[k][1]));
    n = reserve_scene(e, 0.75, reserved, 64);
    EXPECT_INT_EQ(n, n0);
    {
      /* every field but the layer id (each engine stamps its own into ids) */
      int32_t j;
      size_t off = offsetof(cad_render_item, parent);
      for (j = 0; j < n0 && j < n; j++)
        EXPECT_TRUE(memcmp((const char *)&plain[j] + off, (const char *)&reserved[j] + off,
                           sizeof(cad_render_item) - off) == 0);
    }
    /* at or below what the engine holds: nothing changes */
    EXPECT_OK(cad_engine_reserve(e, 0, 0));
    EXPECT_OK(cad_engine_reserve(e, 10, 10));
    cad_engine_destroy(e);
  }
  e = t_engine();
  EXPECT_OK(cad_engine_reserve(e, 1 << 20, 0));
  EXPECT_STATUS(cad_engine_reserve(e, -1, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_reserve(e, 0, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_reserve(e, (1 << 20) + 1, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_reserve(e, 0, INT32_MAX), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_reserve(NULL, 1, 1), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(create_and_destroy),
    TEST_ENTRY(now_is_zero_before_first_tick),
    TEST_ENTRY(tick_sets_now),
    TEST_ENTRY(tick_may_start_at_any_time),
    TEST_ENTRY(tick_rejects_going_back_and_non_finite),
    TEST_ENTRY(null_engine_and_out_pointers),
    TEST_ENTRY(layer_count),
    TEST_ENTRY(engines_are_independent),
    TEST_ENTRY(destroy_with_content),
    TEST_ENTRY(poll_empty_queue),
    TEST_ENTRY(event_capacity_drops_oldest),
    TEST_ENTRY(event_capacity_zero_keeps_nothing),
    TEST_ENTRY(reserve_changes_no_result),
};

TEST_MAIN("engine")
