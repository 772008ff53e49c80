/* Engine and time: create/destroy, tick, now, layer count, event queue capacity (API.md "Engine and time"). */
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
};

TEST_MAIN("engine")
