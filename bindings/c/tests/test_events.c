/* Events: start/stop order, finished flags, tags, callbacks that re-enter the engine (SEMANTICS.md §5.4, §11). */
#include "test_util.h"

/* ---- recording callback ------------------------------------------------ */

typedef struct rec {
  int kind;
  cad_layer layer;
  char key[64];
  int finished;
  int64_t tag;
  void *userdata;
} rec;

static rec recs[64];
static int nrecs;

static void record(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                   int32_t finished, int64_t tag, void *userdata) {
  (void)e;
  if (nrecs < 64) {
    rec *r = &recs[nrecs];
    r->kind = (int)kind;
    r->layer = layer;
    strncpy(r->key, key ? key : "(null)", 63);
    r->key[63] = 0;
    r->finished = finished;
    r->tag = tag;
    r->userdata = userdata;
  }
  nrecs++;
}

static void expect_event(const cad_event *ev, int kind, cad_layer layer, const char *key,
                         int finished, int64_t tag, double time, int line) {
  if (ev->kind != kind || ev->layer != layer || strcmp(ev->key, key) != 0 ||
      ev->finished != finished || ev->tag != tag || !(fabs(ev->time - time) <= 1e-9))
    cad_test_fail_(__FILE__, line,
                   "event: expected kind %d layer %llu key \"%s\" finished %d tag %lld time %g\n"
                   "             got kind %d layer %llu key \"%s\" finished %d tag %lld time %g",
                   kind, (unsigned long long)layer, key, finished, (long long)tag, time,
                   ev->kind, (unsigned long long)ev->layer, ev->key, ev->finished,
                   (long long)ev->tag, ev->time);
}
#define EXPECT_EVENT(ev, kind, layer, key, finished, tag, time) \
  expect_event(ev, kind, layer, key, finished, tag, time, __LINE__)

/* ---- tests ------------------------------------------------------------- */

TEST(start_then_stop_within_one_tick) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 0.1);
  cad_event ev[8];
  int n;
  ASSERT_OK(cad_anim_set_tag(e, a, 42));
  t_tick(e, 0);
  t_add(e, l, a, "blink");
  t_tick(e, 1);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 2);
  EXPECT_EVENT(&ev[0], CAD_EVENT_START, l, "blink", 0, 42, 0);
  EXPECT_EVENT(&ev[1], CAD_EVENT_STOP, l, "blink", 1, 42, 0.1);
  n = t_drain(e, ev, 8);
  EXPECT_INT_EQ(n, 0);
  cad_engine_destroy(e);
}

TEST(start_when_active_time_begins) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  cad_event ev[8];
  int n;
  ASSERT_OK(cad_anim_set_begin_time(e, a, 2));
  t_tick(e, 0);
  t_add(e, l, a, "later");
  t_tick(e, 1);
  EXPECT_INT_EQ(t_drain(e, ev, 8), 0);
  t_tick(e, 2.5);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 1);
  EXPECT_EVENT(&ev[0], CAD_EVENT_START, l, "later", 0, 0, 2);
  t_tick(e, 3.5);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 1);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l, "later", 1, 0, 3);
  cad_engine_destroy(e);
}

TEST(start_at_once_when_filled_backwards) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  cad_event ev[8];
  int n;
  ASSERT_OK(cad_anim_set_begin_time(e, a, 2));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_BACKWARDS));
  t_tick(e, 0);
  t_add(e, l, a, "early");
  t_tick(e, 0.5);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 1);
  EXPECT_INT_EQ(ev[0].kind, CAD_EVENT_START);
  EXPECT_TRUE(ev[0].time <= 0.5);
  cad_engine_destroy(e);
}

TEST(stop_finished_true_even_when_kept) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  cad_event ev[8];
  int n;
  ASSERT_OK(cad_anim_set_removed_on_completion(e, a, 0));
  ASSERT_OK(cad_anim_set_fill_mode(e, a, CAD_FILL_FORWARDS));
  t_tick(e, 0);
  t_add(e, l, a, "kept");
  t_tick(e, 0);
  t_drain(e, ev, 8);
  t_tick(e, 2);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 1);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l, "kept", 1, 0, 1);
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  /* only once */
  t_tick(e, 3);
  EXPECT_INT_EQ(t_drain(e, ev, 8), 0);
  /* removing it later gives no second stop */
  EXPECT_OK(cad_layer_remove_animation(e, l, "kept"));
  t_tick(e, 4);
  EXPECT_INT_EQ(t_drain(e, ev, 8), 0);
  cad_engine_destroy(e);
}

TEST(removed_replaced_destroyed_stop_unfinished) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  cad_event ev[16];
  int n, i, seen[6] = {0, 0, 0, 0, 0, 0};
  cad_anim a;
  t_tick(e, 0);
  a = t_basic1(e, "opacity", 0, 1, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 1));
  t_add(e, l, a, "removed");
  a = t_basic1(e, "zPosition", 0, 1, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 2));
  t_add(e, l, a, "replaced");
  a = t_basic1(e, "borderWidth", 0, 1, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 3));
  t_add(e, l, a, "all");
  a = t_basic1(e, "opacity", 0, 1, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 4));
  t_add(e, m, a, "destroyed");
  t_tick(e, 1);
  EXPECT_INT_EQ(t_drain(e, ev, 16), 4); /* the starts */

  ASSERT_OK(cad_layer_remove_animation(e, l, "removed"));
  a = t_basic1(e, "zPosition", 5, 6, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 5));
  t_add(e, l, a, "replaced");
  ASSERT_OK(cad_layer_remove_all_animations(e, l)); /* stops 3 and 5 */
  ASSERT_OK(cad_layer_destroy(e, m));               /* stops 4 */
  /* events caused by calls are delivered at the next tick */
  EXPECT_INT_EQ(t_drain(e, ev, 16), 0);
  t_tick(e, 2);
  n = t_drain(e, ev, 16);
  for (i = 0; i < n && i < 16; i++) {
    if (ev[i].kind != CAD_EVENT_STOP) continue;
    EXPECT_INT_EQ(ev[i].finished, 0);
    if (ev[i].tag >= 1 && ev[i].tag <= 5) seen[ev[i].tag]++;
    if (ev[i].tag == 4) {
      EXPECT_U64_EQ(ev[i].layer, m);
      EXPECT_STR_EQ(ev[i].key, "destroyed");
    }
  }
  for (i = 1; i <= 5; i++)
    if (seen[i] != 1) cad_test_fail_(__FILE__, __LINE__, "tag %d: %d unfinished stop events, want 1", i, seen[i]);
  cad_engine_destroy(e);
}

TEST(removed_and_replaced_report_at_next_tick) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[8];
  cad_anim a;
  int n;
  t_tick(e, 0);
  a = t_basic1(e, "opacity", 0, 1, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 1));
  t_add(e, l, a, "x");
  t_tick(e, 1);
  t_drain(e, ev, 8);
  a = t_basic1(e, "opacity", 1, 0, 10);
  ASSERT_OK(cad_anim_set_tag(e, a, 2));
  t_add(e, l, a, "x"); /* replaces tag 1 */
  t_tick(e, 2);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 2);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l, "x", 0, 1, 1);
  EXPECT_EVENT(&ev[1], CAD_EVENT_START, l, "x", 0, 2, 1);
  ASSERT_OK(cad_layer_remove_animation(e, l, "x"));
  t_tick(e, 3);
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 1);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l, "x", 0, 2, 2);
  cad_engine_destroy(e);
}

TEST(order_by_time_then_layer_then_add_order) {
  cad_engine *e = t_engine();
  cad_layer l1 = t_layer(e), l2 = t_layer(e); /* l1 created first */
  cad_event ev[16];
  int n;
  t_tick(e, 0);
  t_add(e, l2, t_basic1(e, "opacity", 0, 1, 0.25), "x");
  t_add(e, l1, t_basic1(e, "opacity", 0, 1, 0.5), "a");
  t_add(e, l2, t_basic1(e, "zPosition", 0, 1, 0.5), "y");
  t_add(e, l1, t_basic1(e, "zPosition", 0, 1, 0.5), "b");
  t_tick(e, 0);
  n = t_drain(e, ev, 16);
  ASSERT_INT_EQ(n, 4);
  EXPECT_EVENT(&ev[0], CAD_EVENT_START, l1, "a", 0, 0, 0);
  EXPECT_EVENT(&ev[1], CAD_EVENT_START, l1, "b", 0, 0, 0);
  EXPECT_EVENT(&ev[2], CAD_EVENT_START, l2, "x", 0, 0, 0);
  EXPECT_EVENT(&ev[3], CAD_EVENT_START, l2, "y", 0, 0, 0);
  t_tick(e, 1);
  n = t_drain(e, ev, 16);
  ASSERT_INT_EQ(n, 4);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l2, "x", 1, 0, 0.25);
  EXPECT_EVENT(&ev[1], CAD_EVENT_STOP, l1, "a", 1, 0, 0.5);
  EXPECT_EVENT(&ev[2], CAD_EVENT_STOP, l1, "b", 1, 0, 0.5);
  EXPECT_EVENT(&ev[3], CAD_EVENT_STOP, l2, "y", 1, 0, 0.5);
  cad_engine_destroy(e);
}

TEST(tags_identify_animations) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_event ev[16];
  int n, i;
  int64_t tags[3] = {INT64_MIN, -1, INT64_MAX};
  t_tick(e, 0);
  for (i = 0; i < 3; i++) {
    cad_anim a = t_basic1(e, "opacity", 0, 1, 0.1 * (i + 1));
    ASSERT_OK(cad_anim_set_tag(e, a, tags[i]));
    t_add(e, l, a, NULL);
  }
  t_tick(e, 1);
  n = t_drain(e, ev, 16);
  ASSERT_INT_EQ(n, 6);
  for (i = 0; i < 3; i++) {
    EXPECT_INT_EQ(ev[3 + i].kind, CAD_EVENT_STOP);
    EXPECT_INT_EQ(ev[3 + i].tag, tags[i]);
  }
  cad_engine_destroy(e);
}

TEST(long_keys_are_truncated) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  char key[100];
  cad_event ev[4];
  int n;
  memset(key, 'k', 99);
  key[99] = 0;
  t_tick(e, 0);
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 0.1), key);
  t_tick(e, 1);
  n = t_drain(e, ev, 4);
  ASSERT_INT_EQ(n, 2);
  EXPECT_INT_EQ(strlen(ev[1].key), 63);
  EXPECT_TRUE(strncmp(ev[1].key, key, 63) == 0);
  cad_engine_destroy(e);
}

/* A cut inside a character moves back to the character's first byte: the
   key stays UTF-8. 62 'a' then U+00E9 (2 bytes: 62, 63) then 'b': 62 bytes.
   61 'a' then U+20AC (3 bytes: 61-63): 61 bytes. 63 'a' then U+00E9: 63. */
TEST(truncated_keys_stay_utf8) {
  static const struct { int pad; const char *tail; size_t want; } cases[] = {
      {62, "\xc3\xa9" "b", 62}, {61, "\xe2\x82\xac" "b", 61}, {63, "\xc3\xa9", 63}, {60, "\xf0\x9f\x98\x80", 60}};
  size_t c;
  for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    cad_engine *e = t_engine();
    cad_layer l = t_layer(e);
    char key[100];
    cad_event ev[4];
    int n;
    memset(key, 'a', (size_t)cases[c].pad);
    strcpy(key + cases[c].pad, cases[c].tail);
    t_tick(e, 0);
    t_add(e, l, t_basic1(e, "opacity", 0, 1, 0.1), key);
    t_tick(e, 1);
    n = t_drain(e, ev, 4);
    ASSERT_INT_EQ(n, 2);
    EXPECT_INT_EQ(strlen(ev[1].key), cases[c].want);
    EXPECT_TRUE(strncmp(ev[1].key, key, cases[c].want) == 0);
    cad_engine_destroy(e);
  }
}

/* Keys are UTF-8: other bytes are refused, not mapped to U+FFFD (where
   "\xff" and "\xfe" would be one key). */
TEST(keys_that_are_not_utf8_are_refused) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  cad_anim got = 0;
  int32_t n = -1;
  t_tick(e, 0);
  EXPECT_STATUS(cad_layer_add_animation(e, l, a, "\xff"), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_add_animation(e, l, a, "ok\xc3"), CAD_ERR_INVALID_ARGUMENT);  /* cut character */
  EXPECT_STATUS(cad_layer_add_animation(e, l, a, "\xc0\xaf"), CAD_ERR_INVALID_ARGUMENT);  /* overlong '/' */
  EXPECT_OK(cad_layer_animation_count(e, l, &n));
  EXPECT_INT_EQ(n, 0);
  EXPECT_OK(cad_layer_add_animation(e, l, a, "caf\xc3\xa9"));
  EXPECT_OK(cad_layer_animation_for_key(e, l, "caf\xc3\xa9", &got));
  EXPECT_STATUS(cad_layer_animation_for_key(e, l, "caf\xe9", &got), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_remove_animation(e, l, "\xfe"), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_set_action(e, l, "\xff", 0), CAD_ERR_UNKNOWN_KEYPATH);  /* a key path: unknown, as in cad_layer_set */
  cad_engine_destroy(e);
}

TEST(callback_gets_the_event_and_queue_too) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 0.5);
  int token = 7;
  cad_event ev[4];
  nrecs = 0;
  ASSERT_OK(cad_anim_set_tag(e, a, 99));
  ASSERT_OK(cad_anim_set_callback(e, a, record, &token));
  t_tick(e, 0);
  t_add(e, l, a, "cb");
  t_tick(e, 1);
  ASSERT_INT_EQ(nrecs, 2);
  EXPECT_INT_EQ(recs[0].kind, CAD_EVENT_START);
  EXPECT_INT_EQ(recs[1].kind, CAD_EVENT_STOP);
  EXPECT_U64_EQ(recs[1].layer, l);
  EXPECT_STR_EQ(recs[1].key, "cb");
  EXPECT_INT_EQ(recs[1].finished, 1);
  EXPECT_INT_EQ(recs[1].tag, 99);
  EXPECT_TRUE(recs[1].userdata == &token);
  /* and through the queue for polling hosts */
  EXPECT_INT_EQ(t_drain(e, ev, 4), 2);
  cad_engine_destroy(e);
}

TEST(callback_can_be_removed) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 0.5);
  nrecs = 0;
  ASSERT_OK(cad_anim_set_callback(e, a, record, NULL));
  ASSERT_OK(cad_anim_set_callback(e, a, NULL, NULL));
  t_tick(e, 0);
  t_add(e, l, a, "cb");
  t_tick(e, 1);
  EXPECT_INT_EQ(nrecs, 0);
  cad_engine_destroy(e);
}

TEST(failed_add_never_calls_back) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 0.5);
  double by = 1;
  nrecs = 0;
  ASSERT_OK(cad_anim_set_by(e, a, &by, 1)); /* from + to + by */
  ASSERT_OK(cad_anim_set_callback(e, a, record, NULL));
  t_tick(e, 0);
  EXPECT_STATUS(cad_layer_add_animation(e, l, a, "bad"), CAD_ERR_INVALID_STATE);
  t_tick(e, 1);
  EXPECT_INT_EQ(nrecs, 0);
  cad_engine_destroy(e);
}

/* On the stop of "first": add "second" to the same layer, change a property
   and read values, all from inside the callback. */
static int chained;
static double seen_presentation;
static void chain(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                  int32_t finished, int64_t tag, void *userdata) {
  cad_anim a = 0;
  double v = 0.25;
  int32_t n = 0;
  (void)finished;
  (void)tag;
  (void)userdata;
  record(e, kind, layer, key, finished, tag, userdata);
  if (kind != CAD_EVENT_STOP || strcmp(key, "first") != 0) return;
  chained++;
  if (cad_anim_create(e, CAD_ANIM_BASIC, "zPosition", &a) != CAD_OK) return;
  cad_anim_set_from(e, a, &v, 1);
  v = 0.75;
  cad_anim_set_to(e, a, &v, 1);
  cad_anim_set_duration(e, a, 1);
  cad_anim_set_callback(e, a, chain, NULL);
  if (cad_layer_add_animation(e, layer, a, "second") == CAD_OK) chained++;
  cad_anim_destroy(e, a);
  v = 3;
  if (cad_layer_set(e, layer, "borderWidth", &v, 1) == CAD_OK) chained++;
  if (cad_layer_presentation(e, layer, "zPosition", &seen_presentation, 1, &n) == CAD_OK) chained++;
}

TEST(callback_adds_an_animation) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 0.5);
  cad_event ev[16];
  int n, i, second_start = 0, second_stop = 0;
  nrecs = 0;
  chained = 0;
  ASSERT_OK(cad_layer_set_actions_enabled(e, l, 0));
  ASSERT_OK(cad_anim_set_callback(e, a, chain, NULL));
  t_tick(e, 0);
  t_add(e, l, a, "first");
  t_tick(e, 1); /* first stops (at 0.5); the callback runs during this tick */
  EXPECT_INT_EQ(chained, 4);
  /* the call took effect at the engine's current time (1): second began at 1 */
  EXPECT_NEAR(seen_presentation, 0.25, 1e-9);
  EXPECT_NEAR(t_get1(e, l, "borderWidth"), 3, 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  t_tick(e, 1.5);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 0.5, 1e-9);
  t_tick(e, 3);
  n = t_drain(e, ev, 16);
  for (i = 0; i < n && i < 16; i++) {
    if (strcmp(ev[i].key, "second") != 0) continue;
    if (ev[i].kind == CAD_EVENT_START) second_start++;
    if (ev[i].kind == CAD_EVENT_STOP) {
      second_stop++;
      EXPECT_NEAR(ev[i].time, 2, 1e-9);
      EXPECT_INT_EQ(ev[i].finished, 1);
    }
  }
  EXPECT_INT_EQ(second_start, 1);
  EXPECT_INT_EQ(second_stop, 1);
  /* the callback saw first start, first stop, second start, second stop */
  EXPECT_INT_EQ(nrecs, 4);
  cad_engine_destroy(e);
}

/* A callback that removes other animations, destroys a layer and ticks nothing. */
static cad_layer victim;
static void vandal(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                   int32_t finished, int64_t tag, void *userdata) {
  (void)key;
  (void)finished;
  (void)tag;
  (void)userdata;
  if (kind != CAD_EVENT_STOP) return;
  cad_layer_remove_all_animations(e, layer);
  cad_layer_destroy(e, victim);
  cad_layer_destroy(e, victim); /* stale now: an error, not a crash */
}

TEST(callback_removes_and_destroys) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "zPosition", 0, 1, 0.5);
  cad_event ev[16];
  int n, i, unfinished = 0;
  int32_t count = -1;
  victim = t_layer(e);
  t_tick(e, 0);
  t_add(e, victim, t_basic1(e, "opacity", 0, 1, 10), "v");
  t_add(e, l, t_basic1(e, "opacity", 0, 1, 10), "other");
  ASSERT_OK(cad_anim_set_callback(e, a, vandal, NULL));
  t_add(e, l, a, "trigger");
  t_tick(e, 1);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  EXPECT_OK(cad_engine_layer_count(e, &count));
  EXPECT_INT_EQ(count, 1);
  t_tick(e, 2);
  n = t_drain(e, ev, 16);
  for (i = 0; i < n && i < 16; i++)
    if (ev[i].kind == CAD_EVENT_STOP && ev[i].finished == 0) unfinished++;
  EXPECT_INT_EQ(unfinished, 2); /* "other" and "v" */
  cad_engine_destroy(e);
}

/* cad_engine_destroy from one of the engine's own callbacks is documented as
   safe: the remaining callbacks of that tick are skipped. */
static int destroy_calls;
static void destroyer(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                      int32_t finished, int64_t tag, void *userdata) {
  (void)layer;
  (void)key;
  (void)finished;
  (void)tag;
  (void)userdata;
  destroy_calls++;
  if (kind == CAD_EVENT_STOP) cad_engine_destroy(e);
}

TEST(callback_destroys_the_engine) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  int i;
  destroy_calls = 0;
  t_tick(e, 0);
  for (i = 0; i < 3; i++) {
    cad_anim a = t_basic1(e, "opacity", 0, 1, 0.5 + i * 0.1);
    ASSERT_OK(cad_anim_set_callback(e, a, destroyer, NULL));
    t_add(e, l, a, NULL);
  }
  t_tick(e, 0);
  EXPECT_INT_EQ(destroy_calls, 3); /* the starts */
  (void)cad_engine_tick(e, 1);     /* the first stop destroys it; e is gone afterwards */
  EXPECT_INT_EQ(destroy_calls, 4);
}

TEST(removed_before_begin_stops_without_start) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  cad_event ev[4];
  int n;
  ASSERT_OK(cad_anim_set_begin_time(e, a, 5));
  t_tick(e, 0);
  t_add(e, l, a, "never");
  t_tick(e, 1);
  EXPECT_INT_EQ(t_drain(e, ev, 4), 0);
  ASSERT_OK(cad_layer_remove_animation(e, l, "never"));
  t_tick(e, 2);
  n = t_drain(e, ev, 4);
  ASSERT_INT_EQ(n, 1);
  EXPECT_EVENT(&ev[0], CAD_EVENT_STOP, l, "never", 0, 0, 1);
  cad_engine_destroy(e);
}

TEST(misaligned_event_buffers_are_refused) { /* and uncountable takes */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 0.1);
  static double arena[64]; /* 8-aligned; +4 bytes is misaligned for cad_event */
  cad_event *bad = (cad_event *)(void *)((char *)arena + 4); /* never dereferenced here */
  cad_event ev[8];
  int32_t got = -1;
  int n;
  t_tick(e, 0);
  t_add(e, l, a, "blink");
  t_tick(e, 1);
  EXPECT_STATUS(cad_engine_poll_events(e, bad, 2, &got), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_poll_event(e, bad), CAD_ERR_INVALID_ARGUMENT);
  /* events taken must be counted: a NULL n_out with cap > 0 is refused */
  EXPECT_STATUS(cad_engine_poll_events(e, ev, 2, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_poll_events(e, NULL, 0, NULL), CAD_OK);
  /* nothing was taken: both events are still queued */
  n = t_drain(e, ev, 8);
  ASSERT_INT_EQ(n, 2);
  EXPECT_EVENT(&ev[0], CAD_EVENT_START, l, "blink", 0, 0, 0);
  EXPECT_EVENT(&ev[1], CAD_EVENT_STOP, l, "blink", 1, 0, 0.1);
  cad_engine_destroy(e);
}

/* A callback that ticks again (SEMANTICS.md §11: callbacks may call any function;
   events are delivered in the order they happened). The outer tick to 2.5 has two
   stops at 2.0; the first one's callback ticks to 5.0, which stops the third
   animation at 3.0. Expected order: l1 (2.0), l2 (2.0), l3 (3.0), and the nested
   tick delivers everything before it returns (its own stop comes after the outer
   tick's remaining one, which it delivers first). */
static int nested_order[8];
static int nested_count, nested_seen_inside;
static void nested_ticker(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                          int32_t finished, int64_t tag, void *userdata) {
  (void)layer;
  (void)key;
  (void)finished;
  (void)tag;
  if (kind != CAD_EVENT_STOP) return;
  if (nested_count < 8) nested_order[nested_count] = (int)(intptr_t)userdata;
  nested_count++;
  if ((intptr_t)userdata == 1) {
    (void)cad_engine_tick(e, 5.0);
    nested_seen_inside = nested_count;
  }
}

TEST(callback_that_ticks_keeps_time_order) {
  cad_engine *e = t_engine();
  cad_layer l[3];
  double dur[3] = {2.0, 2.0, 3.0};
  int i;
  for (i = 0; i < 3; i++) l[i] = t_layer(e);
  nested_count = 0;
  nested_seen_inside = -1;
  t_tick(e, 0);
  for (i = 0; i < 3; i++) {
    cad_anim a = t_basic1(e, "opacity", 0, 1, dur[i]);
    ASSERT_OK(cad_anim_set_callback(e, a, nested_ticker, (void *)(intptr_t)(i + 1)));
    t_add(e, l[i], a, "fade");
  }
  t_tick(e, 0); /* the starts */
  EXPECT_INT_EQ(nested_count, 0);
  t_tick(e, 2.5);
  ASSERT_INT_EQ(nested_count, 3);
  EXPECT_INT_EQ(nested_order[0], 1);
  EXPECT_INT_EQ(nested_order[1], 2);
  EXPECT_INT_EQ(nested_order[2], 3);
  EXPECT_INT_EQ(nested_seen_inside, 3);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(misaligned_event_buffers_are_refused),
    TEST_ENTRY(start_then_stop_within_one_tick),
    TEST_ENTRY(start_when_active_time_begins),
    TEST_ENTRY(start_at_once_when_filled_backwards),
    TEST_ENTRY(stop_finished_true_even_when_kept),
    TEST_ENTRY(removed_replaced_destroyed_stop_unfinished),
    TEST_ENTRY(removed_and_replaced_report_at_next_tick),
    TEST_ENTRY(order_by_time_then_layer_then_add_order),
    TEST_ENTRY(tags_identify_animations),
    TEST_ENTRY(long_keys_are_truncated),
    TEST_ENTRY(truncated_keys_stay_utf8),
    TEST_ENTRY(keys_that_are_not_utf8_are_refused),
    TEST_ENTRY(callback_gets_the_event_and_queue_too),
    TEST_ENTRY(callback_can_be_removed),
    TEST_ENTRY(failed_add_never_calls_back),
    TEST_ENTRY(callback_adds_an_animation),
    TEST_ENTRY(callback_removes_and_destroys),
    TEST_ENTRY(callback_destroys_the_engine),
    TEST_ENTRY(removed_before_begin_stops_without_start),
    TEST_ENTRY(callback_that_ticks_keeps_time_order),
};

TEST_MAIN("events")
