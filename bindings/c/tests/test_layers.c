/* Layers and the layer tree: create, add, insert, remove, destroy, cycles (API.md "Layers"). */
#include "test_util.h"

/* Expects `parent`'s sublayers to be exactly want[0..n). */
static void expect_sublayers(cad_engine *e, cad_layer parent, const cad_layer *want, int32_t n,
                             int line) {
  cad_layer got[16];
  int32_t count = -1, i;
  ASSERT_OK(cad_layer_sublayers(e, parent, got, 16, &count));
  if (count != n) {
    cad_test_fail_(__FILE__, line, "sublayer count: expected %d, got %d", (int)n, (int)count);
    return;
  }
  for (i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      cad_test_fail_(__FILE__, line, "sublayer %d: expected %llu, got %llu", (int)i,
                     (unsigned long long)want[i], (unsigned long long)got[i]);
    }
  }
}
#define EXPECT_SUBLAYERS(e, p, want, n) expect_sublayers(e, p, want, n, __LINE__)

static cad_layer superlayer(cad_engine *e, cad_layer l) {
  cad_layer s = 12345;
  ASSERT_OK(cad_layer_superlayer(e, l, &s));
  return s;
}

TEST(new_layer_is_a_root_without_sublayers) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  int32_t n = -1;
  EXPECT_U64_EQ(superlayer(e, l), 0);
  EXPECT_OK(cad_layer_sublayers(e, l, NULL, 0, &n));
  EXPECT_INT_EQ(n, 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  cad_engine_destroy(e);
}

TEST(handles_are_distinct_and_nonzero) {
  cad_engine *e = t_engine();
  cad_layer ls[32];
  int i, j;
  for (i = 0; i < 32; i++) ls[i] = t_layer(e);
  for (i = 0; i < 32; i++) {
    EXPECT_TRUE(ls[i] != 0);
    for (j = 0; j < i; j++) EXPECT_TRUE(ls[i] != ls[j]);
  }
  EXPECT_STATUS(cad_layer_create(e, NULL), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(add_sublayer_appends) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), a = t_layer(e), b = t_layer(e), c = t_layer(e);
  cad_layer want[3];
  ASSERT_OK(cad_layer_add_sublayer(e, p, a));
  ASSERT_OK(cad_layer_add_sublayer(e, p, b));
  ASSERT_OK(cad_layer_add_sublayer(e, p, c));
  want[0] = a; want[1] = b; want[2] = c;
  EXPECT_SUBLAYERS(e, p, want, 3);
  EXPECT_U64_EQ(superlayer(e, a), p);
  EXPECT_U64_EQ(superlayer(e, c), p);
  EXPECT_U64_EQ(superlayer(e, p), 0);
  cad_engine_destroy(e);
}

TEST(add_sublayer_moves_from_old_parent) {
  cad_engine *e = t_engine();
  cad_layer p1 = t_layer(e), p2 = t_layer(e), a = t_layer(e), b = t_layer(e);
  cad_layer want[2];
  ASSERT_OK(cad_layer_add_sublayer(e, p1, a));
  ASSERT_OK(cad_layer_add_sublayer(e, p1, b));
  ASSERT_OK(cad_layer_add_sublayer(e, p2, a));
  want[0] = b;
  EXPECT_SUBLAYERS(e, p1, want, 1);
  want[0] = a;
  EXPECT_SUBLAYERS(e, p2, want, 1);
  EXPECT_U64_EQ(superlayer(e, a), p2);
  /* re-adding to the same parent moves it to the end */
  ASSERT_OK(cad_layer_add_sublayer(e, p1, a));
  want[0] = b; want[1] = a;
  EXPECT_SUBLAYERS(e, p1, want, 2);
  EXPECT_SUBLAYERS(e, p2, want, 0);
  cad_engine_destroy(e);
}

TEST(insert_sublayer_indices) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), a = t_layer(e), b = t_layer(e), c = t_layer(e), d = t_layer(e);
  cad_layer want[4];
  ASSERT_OK(cad_layer_insert_sublayer(e, p, a, 0)); /* [a] */
  ASSERT_OK(cad_layer_insert_sublayer(e, p, b, 0)); /* [b a] */
  ASSERT_OK(cad_layer_insert_sublayer(e, p, c, 2)); /* [b a c]: index == count appends */
  ASSERT_OK(cad_layer_insert_sublayer(e, p, d, 1)); /* [b d a c] */
  want[0] = b; want[1] = d; want[2] = a; want[3] = c;
  EXPECT_SUBLAYERS(e, p, want, 4);
  cad_engine_destroy(e);
}

TEST(insert_sublayer_counts_without_the_child) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), a = t_layer(e), b = t_layer(e), c = t_layer(e);
  cad_layer want[3];
  ASSERT_OK(cad_layer_add_sublayer(e, p, a));
  ASSERT_OK(cad_layer_add_sublayer(e, p, b));
  ASSERT_OK(cad_layer_add_sublayer(e, p, c));
  /* [a b c] without a is [b c]; index 2 is the end */
  ASSERT_OK(cad_layer_insert_sublayer(e, p, a, 2));
  want[0] = b; want[1] = c; want[2] = a;
  EXPECT_SUBLAYERS(e, p, want, 3);
  /* [b c a] without c is [b a]; index 0 is the front */
  ASSERT_OK(cad_layer_insert_sublayer(e, p, c, 0));
  want[0] = c; want[1] = b; want[2] = a;
  EXPECT_SUBLAYERS(e, p, want, 3);
  /* index 3 is past the end of [c b] (count without a is 2) */
  EXPECT_STATUS(cad_layer_insert_sublayer(e, p, a, 3), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_SUBLAYERS(e, p, want, 3);
  cad_engine_destroy(e);
}

TEST(insert_sublayer_out_of_range) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), a = t_layer(e), b = t_layer(e);
  cad_layer want[1];
  ASSERT_OK(cad_layer_add_sublayer(e, p, a));
  EXPECT_STATUS(cad_layer_insert_sublayer(e, p, b, 2), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, p, b, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, p, b, INT32_MAX), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, p, b, INT32_MIN), CAD_ERR_INVALID_ARGUMENT);
  want[0] = a;
  EXPECT_SUBLAYERS(e, p, want, 1);
  EXPECT_U64_EQ(superlayer(e, b), 0);
  cad_engine_destroy(e);
}

TEST(cycles_are_rejected) {
  cad_engine *e = t_engine();
  cad_layer a = t_layer(e), b = t_layer(e), c = t_layer(e);
  cad_layer want[1];
  ASSERT_OK(cad_layer_add_sublayer(e, a, b));
  ASSERT_OK(cad_layer_add_sublayer(e, b, c));
  /* self */
  EXPECT_STATUS(cad_layer_add_sublayer(e, a, a), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, c, c, 0), CAD_ERR_INVALID_ARGUMENT);
  /* parent under child, grandparent under grandchild */
  EXPECT_STATUS(cad_layer_add_sublayer(e, b, a), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_add_sublayer(e, c, a), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_insert_sublayer(e, c, b, 0), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(strlen(cad_last_error()) > 0);
  /* the tree is unchanged */
  EXPECT_U64_EQ(superlayer(e, a), 0);
  EXPECT_U64_EQ(superlayer(e, b), a);
  EXPECT_U64_EQ(superlayer(e, c), b);
  want[0] = b;
  EXPECT_SUBLAYERS(e, a, want, 1);
  want[0] = c;
  EXPECT_SUBLAYERS(e, b, want, 1);
  EXPECT_SUBLAYERS(e, c, want, 0);
  cad_engine_destroy(e);
}

TEST(remove_from_superlayer) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), a = t_layer(e), b = t_layer(e);
  cad_layer want[1];
  ASSERT_OK(cad_layer_add_sublayer(e, p, a));
  ASSERT_OK(cad_layer_add_sublayer(e, p, b));
  EXPECT_OK(cad_layer_remove_from_superlayer(e, a));
  EXPECT_U64_EQ(superlayer(e, a), 0);
  want[0] = b;
  EXPECT_SUBLAYERS(e, p, want, 1);
  /* a root: no-op */
  EXPECT_OK(cad_layer_remove_from_superlayer(e, a));
  EXPECT_OK(cad_layer_remove_from_superlayer(e, p));
  EXPECT_SUBLAYERS(e, p, want, 1);
  cad_engine_destroy(e);
}

TEST(destroy_detaches_sublayers) {
  cad_engine *e = t_engine();
  cad_layer g = t_layer(e), p = t_layer(e), a = t_layer(e), b = t_layer(e), x = t_layer(e);
  cad_layer want[2], s;
  int32_t n = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, g, p));
  ASSERT_OK(cad_layer_add_sublayer(e, g, x));
  ASSERT_OK(cad_layer_add_sublayer(e, p, a));
  ASSERT_OK(cad_layer_add_sublayer(e, p, b));
  ASSERT_OK(cad_layer_add_sublayer(e, a, t_layer(e)));
  EXPECT_OK(cad_layer_destroy(e, p));
  /* p's sublayers become roots, keeping their own sublayers */
  EXPECT_U64_EQ(superlayer(e, a), 0);
  EXPECT_U64_EQ(superlayer(e, b), 0);
  EXPECT_STATUS(cad_layer_sublayers(e, a, NULL, 0, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 1);
  /* p left its superlayer */
  want[0] = x;
  EXPECT_SUBLAYERS(e, g, want, 1);
  /* p is gone */
  EXPECT_STATUS(cad_layer_superlayer(e, p, &s), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_destroy(e, p), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_add_sublayer(e, p, x), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_add_sublayer(e, x, p), CAD_ERR_INVALID_HANDLE);
  EXPECT_OK(cad_engine_layer_count(e, &n));
  EXPECT_INT_EQ(n, 5);
  cad_engine_destroy(e);
}

TEST(sublayers_buffer_too_small) {
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), out[3];
  int32_t n = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, p, t_layer(e)));
  ASSERT_OK(cad_layer_add_sublayer(e, p, t_layer(e)));
  ASSERT_OK(cad_layer_add_sublayer(e, p, t_layer(e)));
  out[0] = out[1] = out[2] = 777;
  EXPECT_STATUS(cad_layer_sublayers(e, p, out, 2, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 3);
  /* nothing else written */
  EXPECT_U64_EQ(out[0], 777);
  EXPECT_U64_EQ(out[1], 777);
  n = -1;
  EXPECT_STATUS(cad_layer_sublayers(e, p, NULL, 0, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 3);
  n = -1;
  EXPECT_OK(cad_layer_sublayers(e, p, out, 3, &n));
  EXPECT_INT_EQ(n, 3);
  EXPECT_TRUE(out[0] != 777 && out[2] != 777);
  EXPECT_STATUS(cad_layer_sublayers(e, p, out, -1, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_sublayers(e, p, NULL, 3, &n), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(null_out_pointers) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  EXPECT_STATUS(cad_layer_superlayer(e, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_get_contents(e, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_animation_count(e, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(deep_tree) {
  /* a 1000-deep chain: cycle checks and destroy work without recursion trouble */
  cad_engine *e = t_engine();
  cad_layer root = t_layer(e), prev = root, l = 0;
  int i;
  for (i = 0; i < 1000; i++) {
    l = t_layer(e);
    ASSERT_OK(cad_layer_add_sublayer(e, prev, l));
    prev = l;
  }
  EXPECT_STATUS(cad_layer_add_sublayer(e, l, root), CAD_ERR_INVALID_ARGUMENT);
  t_tick(e, 1);
  EXPECT_OK(cad_layer_destroy(e, root));
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(new_layer_is_a_root_without_sublayers),
    TEST_ENTRY(handles_are_distinct_and_nonzero),
    TEST_ENTRY(add_sublayer_appends),
    TEST_ENTRY(add_sublayer_moves_from_old_parent),
    TEST_ENTRY(insert_sublayer_indices),
    TEST_ENTRY(insert_sublayer_counts_without_the_child),
    TEST_ENTRY(insert_sublayer_out_of_range),
    TEST_ENTRY(cycles_are_rejected),
    TEST_ENTRY(remove_from_superlayer),
    TEST_ENTRY(destroy_detaches_sublayers),
    TEST_ENTRY(sublayers_buffer_too_small),
    TEST_ENTRY(null_out_pointers),
    TEST_ENTRY(deep_tree),
};

TEST_MAIN("layers")
