/*
 * Threads (API.md conventions): any function from any thread, calls on one
 * engine serialised, cad_last_error per thread, callbacks on the ticking thread.
 */
#include "test_util.h"

#include <pthread.h>

/* ---- per-thread last error -------------------------------------------- */

typedef struct err_arg {
  cad_engine *e;
  cad_layer l;
  char message[256];
  cad_status status;
} err_arg;

static void *fail_in_thread(void *p) {
  err_arg *a = (err_arg *)p;
  double v = 1;
  a->status = cad_layer_set(a->e, a->l, "no_such_key", &v, 1);
  strncpy(a->message, cad_last_error(), sizeof a->message - 1);
  a->message[sizeof a->message - 1] = 0;
  return NULL;
}

TEST(last_error_is_per_thread) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[3] = {1, 2, 3};
  char mine[256];
  pthread_t th;
  err_arg arg;
  memset(&arg, 0, sizeof arg);
  arg.e = e;
  arg.l = l;
  EXPECT_STATUS(cad_layer_set(e, l, "position", v, 3), CAD_ERR_TYPE_MISMATCH);
  strncpy(mine, cad_last_error(), sizeof mine - 1);
  mine[sizeof mine - 1] = 0;
  ASSERT_TRUE(strlen(mine) > 0);
  ASSERT_INT_EQ(pthread_create(&th, NULL, fail_in_thread, &arg), 0);
  ASSERT_INT_EQ(pthread_join(th, NULL), 0);
  EXPECT_INT_EQ(arg.status, CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_TRUE(strstr(arg.message, "no_such_key") != NULL);
  /* this thread's message is still its own */
  EXPECT_STR_EQ(cad_last_error(), mine);
  cad_engine_destroy(e);
}

static void *read_error(void *p) {
  err_arg *a = (err_arg *)p;
  strncpy(a->message, cad_last_error(), sizeof a->message - 1);
  a->message[sizeof a->message - 1] = 0;
  return NULL;
}

TEST(fresh_thread_has_no_error) {
  /* a thread that never failed reads "" while another thread has an error */
  cad_engine *e = t_engine();
  double v = 0;
  int32_t n;
  pthread_t th;
  err_arg arg;
  memset(&arg, 0, sizeof arg);
  strcpy(arg.message, "unset");
  EXPECT_STATUS(cad_layer_get(e, 0, "opacity", &v, 1, &n), CAD_ERR_INVALID_HANDLE);
  ASSERT_INT_EQ(pthread_create(&th, NULL, read_error, &arg), 0);
  ASSERT_INT_EQ(pthread_join(th, NULL), 0);
  EXPECT_STR_EQ(arg.message, "");
  cad_engine_destroy(e);
}

/* ---- concurrent use of one engine ------------------------------------- */

enum { WORKERS = 4, ROUNDS = 2000 };

typedef struct worker {
  cad_engine *e;
  cad_layer root;
  int id;
  int errors;
  double last;
} worker;

static void *work(void *p) {
  worker *w = (worker *)p;
  cad_layer l = 0;
  int i;
  if (cad_layer_create(w->e, &l) != CAD_OK || cad_layer_add_sublayer(w->e, w->root, l) != CAD_OK) {
    w->errors++;
    return NULL;
  }
  cad_layer_set_actions_enabled(w->e, l, 0);
  for (i = 0; i < ROUNDS; i++) {
    double v = w->id * 100000.0 + i, got = -1, pos[2];
    int32_t n = 0;
    cad_anim a = 0;
    if (cad_layer_set(w->e, l, "zPosition", &v, 1) != CAD_OK) w->errors++;
    if (cad_layer_get(w->e, l, "zPosition", &got, 1, &n) != CAD_OK || got != v) w->errors++;
    pos[0] = i;
    pos[1] = -i;
    if (cad_layer_set(w->e, l, "position", pos, 2) != CAD_OK) w->errors++;
    if (i % 50 == 0) {
      if (cad_anim_create(w->e, CAD_ANIM_BASIC, "opacity", &a) != CAD_OK) w->errors++;
      cad_anim_set_duration(w->e, a, 0.01);
      if (cad_layer_add_animation(w->e, l, a, NULL) != CAD_OK) w->errors++;
      cad_anim_destroy(w->e, a);
    }
    w->last = v;
  }
  return NULL;
}

/* shared between the main and the ticker thread: atomic (builtins work in C99 and C++17) */
static int ticking;
static cad_layer ticker_root;
static void *ticker(void *p) {
  cad_engine *e = (cad_engine *)p;
  double now = 0;
  cad_render_item items[16];
  cad_event ev;
  while (__atomic_load_n(&ticking, __ATOMIC_ACQUIRE)) {
    int32_t n;
    now += 0.001;
    cad_engine_tick(e, now);
    (void)cad_engine_render_list(e, ticker_root, items, 16, &n);
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {
    }
  }
  return NULL;
}

TEST(concurrent_calls_on_one_engine) {
  cad_engine *e = t_engine();
  cad_layer root = t_layer(e);
  pthread_t th[WORKERS], tk;
  worker w[WORKERS];
  int i;
  cad_render_item items[16];
  int32_t n = -1;
  __atomic_store_n(&ticking, 1, __ATOMIC_RELEASE);
  ticker_root = root;
  ASSERT_INT_EQ(pthread_create(&tk, NULL, ticker, e), 0);
  for (i = 0; i < WORKERS; i++) {
    w[i].e = e;
    w[i].root = root;
    w[i].id = i;
    w[i].errors = 0;
    w[i].last = -1;
    ASSERT_INT_EQ(pthread_create(&th[i], NULL, work, &w[i]), 0);
  }
  for (i = 0; i < WORKERS; i++) ASSERT_INT_EQ(pthread_join(th[i], NULL), 0);
  __atomic_store_n(&ticking, 0, __ATOMIC_RELEASE);
  ASSERT_INT_EQ(pthread_join(tk, NULL), 0);
  for (i = 0; i < WORKERS; i++) {
    EXPECT_INT_EQ(w[i].errors, 0);
    EXPECT_NEAR(w[i].last, i * 100000.0 + ROUNDS - 1, 0);
  }
  ASSERT_OK(cad_engine_render_list(e, root, items, 16, &n));
  EXPECT_INT_EQ(n, 1 + WORKERS);
  cad_engine_destroy(e);
}

/* ---- callbacks run on the ticking thread ------------------------------ */

static pthread_t callback_thread;
static int callback_calls;
static void note_thread(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key,
                        int32_t finished, int64_t tag, void *userdata) {
  (void)e;
  (void)kind;
  (void)layer;
  (void)key;
  (void)finished;
  (void)tag;
  (void)userdata;
  callback_thread = pthread_self();
  callback_calls++;
}

static void *tick_once(void *p) {
  cad_engine_tick((cad_engine *)p, 5);
  return NULL;
}

TEST(callbacks_run_on_the_ticking_thread) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  cad_anim a = t_basic1(e, "opacity", 0, 1, 1);
  pthread_t th;
  ASSERT_OK(cad_anim_set_callback(e, a, note_thread, NULL));
  t_tick(e, 0);
  t_add(e, l, a, "x");
  callback_calls = 0;
  ASSERT_INT_EQ(pthread_create(&th, NULL, tick_once, e), 0);
  ASSERT_INT_EQ(pthread_join(th, NULL), 0);
  EXPECT_INT_EQ(callback_calls, 2); /* start and stop */
  EXPECT_TRUE(pthread_equal(callback_thread, th));
  EXPECT_TRUE(!pthread_equal(callback_thread, pthread_self()));
  cad_engine_destroy(e);
}

TEST(engines_on_separate_threads) {
  /* independent engines used from different threads at once */
  pthread_t th[WORKERS];
  worker w[WORKERS];
  cad_engine *es[WORKERS];
  int i;
  for (i = 0; i < WORKERS; i++) {
    es[i] = t_engine();
    w[i].e = es[i];
    w[i].root = t_layer(es[i]);
    w[i].id = i;
    w[i].errors = 0;
    w[i].last = -1;
    ASSERT_INT_EQ(pthread_create(&th[i], NULL, work, &w[i]), 0);
  }
  for (i = 0; i < WORKERS; i++) {
    ASSERT_INT_EQ(pthread_join(th[i], NULL), 0);
    EXPECT_INT_EQ(w[i].errors, 0);
    cad_engine_destroy(es[i]);
  }
}

TEST_LIST = {
    TEST_ENTRY(last_error_is_per_thread),
    TEST_ENTRY(fresh_thread_has_no_error),
    TEST_ENTRY(concurrent_calls_on_one_engine),
    TEST_ENTRY(callbacks_run_on_the_ticking_thread),
    TEST_ENTRY(engines_on_separate_threads),
};

TEST_MAIN("threads")
