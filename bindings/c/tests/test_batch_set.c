/* cad_engine_set: one key path's model value on many layers, row by row. */
#include "test_util.h"

#include <math.h>
#include <string.h>

static void get2(cad_engine *e, cad_layer l, const char *kp, double out[2]) {
  int32_t n = -1;
  ASSERT_OK(cad_layer_get(e, l, kp, out, 2, &n));
}

TEST(rows_in_order_last_row_wins) {
  cad_engine *e = t_engine();
  cad_layer ls[3];
  double v[6] = {1, 2, 3, 4, 5, 6}, got[2];
  int i;
  for (i = 0; i < 3; i++) ls[i] = t_layer(e);
  EXPECT_OK(cad_engine_set(e, ls, 3, "position", v, 6));
  for (i = 0; i < 3; i++) {
    get2(e, ls[i], "position", got);
    EXPECT_VEC_NEAR(got, v + 2 * i, 2, 0);
  }
  {
    cad_layer twice[3] = {ls[0], ls[1], ls[0]};
    double o[3] = {0.1, 0.2, 0.3};
    EXPECT_OK(cad_engine_set(e, twice, 3, "opacity", o, 3));
    EXPECT_NEAR(t_get1(e, ls[0], "opacity"), 0.3, 0);
    EXPECT_NEAR(t_get1(e, ls[1], "opacity"), 0.2, 0);
  }
  /* An empty batch: NULL arrays with zero counts. */
  EXPECT_OK(cad_engine_set(e, NULL, 0, "opacity", NULL, 0));
  cad_engine_destroy(e);
}

TEST(runs_implicit_actions) {
  cad_engine *e = t_engine();
  cad_layer ls[2];
  double o[2] = {0, 0.5};
  ls[0] = t_layer(e);
  ls[1] = t_layer(e);
  t_tick(e, 0); /* layers are no longer new */
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_timing_function(e, CAD_TIMING_LINEAR));
  EXPECT_OK(cad_engine_set(e, ls, 2, "opacity", o, 2));
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 0.125); /* halfway through the 0.25 s default action, from 1 */
  EXPECT_NEAR(t_pres1(e, ls[0], "opacity"), 0.5, 1e-12);
  EXPECT_NEAR(t_pres1(e, ls[1], "opacity"), 0.75, 1e-12);
  cad_engine_destroy(e);
}

TEST(refused_batches_change_nothing) {
  cad_engine *e = t_engine();
  cad_layer ls[3], gone = t_layer(e);
  double v[6] = {1, 2, 3, 4, 5, 6}, got[2];
  int i;
  for (i = 0; i < 3; i++) ls[i] = t_layer(e);
  ASSERT_OK(cad_layer_destroy(e, gone));
  {
    cad_layer bad[3] = {ls[0], ls[1], gone};
    EXPECT_STATUS(cad_engine_set(e, bad, 3, "position", v, 6), CAD_ERR_INVALID_HANDLE);
    EXPECT_TRUE(strstr(cad_last_error(), "layers[2]") != NULL);
  }
  EXPECT_STATUS(cad_engine_set(e, ls, 3, "position", v, 5), CAD_ERR_TYPE_MISMATCH);
  v[5] = NAN;
  EXPECT_STATUS(cad_engine_set(e, ls, 3, "position", v, 6), CAD_ERR_INVALID_ARGUMENT);
  v[5] = 6;
  EXPECT_STATUS(cad_engine_set(e, ls, 3, "nope", v, 6), CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_STATUS(cad_engine_set(e, ls, -1, "position", v, 6), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_set(e, NULL, 3, "position", v, 6), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_set(e, ls, 3, "position", NULL, 6), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_set(NULL, ls, 3, "position", v, 6), CAD_ERR_INVALID_ARGUMENT);
  {
    double d[3] = {1, 2, -1}; /* durations must not be negative */
    EXPECT_STATUS(cad_engine_set(e, ls, 3, "duration", d, 3), CAD_ERR_INVALID_ARGUMENT);
    EXPECT_NEAR(t_get1(e, ls[0], "duration"), 0, 0);
  }
  for (i = 0; i < 3; i++) {
    double zero[2] = {0, 0};
    get2(e, ls[i], "position", got);
    EXPECT_VEC_NEAR(got, zero, 2, 0);
  }
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(rows_in_order_last_row_wins),
    TEST_ENTRY(runs_implicit_actions),
    TEST_ENTRY(refused_batches_change_nothing),
};

TEST_MAIN("batch set")
