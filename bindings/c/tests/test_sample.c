/* cad_engine_sample: presentation values of one key path for many layers (API.md "Frame output"). */
#include "test_util.h"

TEST(rows_in_layer_order) {
  cad_engine *e = t_engine();
  cad_layer ls[3];
  double out[6];
  int32_t n = -1;
  int i;
  for (i = 0; i < 3; i++) {
    ls[i] = t_layer(e);
    t_set2(e, ls[i], "position", i * 10.0, -i * 1.0);
  }
  EXPECT_OK(cad_engine_sample(e, ls, 3, "position", out, 6, &n));
  EXPECT_INT_EQ(n, 6);
  {
    double want[6] = {0, 0, 10, -1, 20, -2};
    EXPECT_VEC_NEAR(out, want, 6, 0);
  }
  cad_engine_destroy(e);
}

TEST(presentation_not_model) {
  cad_engine *e = t_engine();
  cad_layer ls[2];
  double out[2];
  int32_t n = -1;
  ls[0] = t_layer(e);
  ls[1] = t_layer(e);
  t_tick(e, 0);
  t_add(e, ls[0], t_basic1(e, "opacity", 0, 1, 1), "a");
  t_add(e, ls[1], t_basic1(e, "opacity", 1, 0.5, 1), "a");
  t_tick(e, 0.5);
  EXPECT_OK(cad_engine_sample(e, ls, 2, "opacity", out, 2, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 0.5, 1e-9);
  EXPECT_NEAR(out[1], 0.75, 1e-9);
  /* the same values as cad_layer_presentation */
  EXPECT_NEAR(out[0], t_pres1(e, ls[0], "opacity"), 0);
  EXPECT_NEAR(out[1], t_pres1(e, ls[1], "opacity"), 0);
  cad_engine_destroy(e);
}

TEST(sub_keys_and_transforms) {
  cad_engine *e = t_engine();
  cad_layer ls[2];
  double out[32];
  int32_t n = -1;
  t_mat want0 = t_rot_z(0.5), want1 = t_identity();
  ls[0] = t_layer(e);
  ls[1] = t_layer(e);
  t_set1(e, ls[0], "transform.rotation.z", 0.5);
  t_set2(e, ls[1], "position", 3, 4);
  EXPECT_OK(cad_engine_sample(e, ls, 2, "transform", out, 32, &n));
  EXPECT_INT_EQ(n, 32);
  EXPECT_VEC_NEAR(out, want0.m, 16, 1e-12);
  EXPECT_VEC_NEAR(out + 16, want1.m, 16, 0);
  EXPECT_OK(cad_engine_sample(e, ls, 2, "position.y", out, 32, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 0, 0);
  EXPECT_NEAR(out[1], 4, 0);
  EXPECT_OK(cad_engine_sample(e, ls, 2, "transform.rotation.z", out, 32, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 0.5, 1e-12);
  EXPECT_NEAR(out[1], 0, 1e-12);
  cad_engine_destroy(e);
}

TEST(same_layer_twice) {
  cad_engine *e = t_engine();
  cad_layer ls[2];
  double out[2];
  int32_t n = -1;
  ls[0] = ls[1] = t_layer(e);
  t_set1(e, ls[0], "zPosition", 9);
  EXPECT_OK(cad_engine_sample(e, ls, 2, "zPosition", out, 2, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 9, 0);
  EXPECT_NEAR(out[1], 9, 0);
  cad_engine_destroy(e);
}

TEST(buffer_too_small_writes_only_the_count) {
  cad_engine *e = t_engine();
  cad_layer ls[3];
  double out[6] = {7, 7, 7, 7, 7, 7};
  int32_t n = -1;
  int i;
  for (i = 0; i < 3; i++) ls[i] = t_layer(e);
  EXPECT_STATUS(cad_engine_sample(e, ls, 3, "position", out, 5, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 6);
  for (i = 0; i < 6; i++) EXPECT_NEAR(out[i], 7, 0);
  cad_engine_destroy(e);
}

TEST(no_layers) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double out[1] = {7};
  int32_t n = -1;
  EXPECT_OK(cad_engine_sample(e, &l, 0, "position", out, 1, &n));
  EXPECT_INT_EQ(n, 0);
  EXPECT_NEAR(out[0], 7, 0);
  cad_engine_destroy(e);
}

TEST(errors) {
  cad_engine *e = t_engine();
  cad_layer ls[2];
  double out[4];
  int32_t n;
  ls[0] = t_layer(e);
  ls[1] = t_layer(e);
  EXPECT_STATUS(cad_engine_sample(e, ls, 2, "positon", out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_STATUS(cad_engine_sample(e, ls, 2, NULL, out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_sample(e, NULL, 2, "position", out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_sample(e, ls, -1, "position", out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_sample(e, ls, 2, "position", NULL, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_sample(e, ls, 2, "position", out, -4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_sample(NULL, ls, 2, "position", out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  {
    /* misaligned buffers are refused, not a crash */
    static double arena[16];
    char *raw = (char *)arena + 4;
    cad_layer *ml = (cad_layer *)(void *)raw; /* never dereferenced here */
    double *mo = (double *)(void *)((char *)(arena + 8) + 4);
    memcpy(raw, ls, sizeof ls);
    EXPECT_STATUS(cad_engine_sample(e, ml, 2, "position", out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
    EXPECT_STATUS(cad_engine_sample(e, ls, 2, "position", mo, 4, &n), CAD_ERR_INVALID_ARGUMENT);
    EXPECT_STATUS(cad_engine_render_list(e, ls[0], (cad_render_item *)(void *)((char *)arena + 4), 2, &n),
                  CAD_ERR_INVALID_ARGUMENT);
    EXPECT_STATUS(cad_engine_render_list(e, ls[0], (cad_render_item *)(void *)((char *)arena + 4), 0, &n),
                  CAD_ERR_INVALID_ARGUMENT);
  }
  cad_engine_destroy(e);
}

TEST(many_layers) {
  cad_engine *e = t_engine();
  cad_layer ls[500];
  static double out[500];
  int32_t n = -1;
  int i;
  for (i = 0; i < 500; i++) {
    ls[i] = t_layer(e);
    t_set1(e, ls[i], "opacity", i / 500.0);
  }
  EXPECT_OK(cad_engine_sample(e, ls, 500, "opacity", out, 500, &n));
  EXPECT_INT_EQ(n, 500);
  for (i = 0; i < 500; i += 37) EXPECT_NEAR(out[i], i / 500.0, 0);
  cad_engine_destroy(e);
}

/* n_layers x components beyond INT32_MAX: no int32 count can name the buffer
   needed, so the call is an invalid argument (not BUFFER_TOO_SMALL with a
   clamped count that could never be allocated and retried). 2^27 layers x 16
   components = 2^31 doubles; 2^27 x 1 fits and is an ordinary size query. The
   count is checked before any handle is read. */
TEST(result_count_beyond_int32) {
  cad_engine *e = t_engine();
  cad_layer ls[1];
  double out[4];
  int32_t n = -7;
  ls[0] = t_layer(e);
  EXPECT_STATUS(cad_engine_sample(e, ls, 134217728, "transform", out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_INT_EQ(n, -7);
  EXPECT_STATUS(cad_engine_sample(e, ls, INT32_MAX, "position", NULL, 0, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_INT_EQ(n, -7);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(rows_in_layer_order),
    TEST_ENTRY(presentation_not_model),
    TEST_ENTRY(sub_keys_and_transforms),
    TEST_ENTRY(same_layer_twice),
    TEST_ENTRY(buffer_too_small_writes_only_the_count),
    TEST_ENTRY(no_layers),
    TEST_ENTRY(errors),
    TEST_ENTRY(many_layers),
    TEST_ENTRY(result_count_beyond_int32),
};

TEST_MAIN("sample")
