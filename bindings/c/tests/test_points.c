/*
 * Points and hit testing: cad_layer_convert_point and cad_layer_hit_test.
 * Expected values come from SEMANTICS.md §2.1-2.2 worked with the test's own
 * matrices (test_util.h), or by hand.
 */
#include "test_util.h"

/* The world point (x/w, y/w) of the plane point (x, y, 0) under m. */
static void t_project(t_mat m, double x, double y, double *out) {
  double X = x * m.m[0] + y * m.m[4] + m.m[12];
  double Y = x * m.m[1] + y * m.m[5] + m.m[13];
  double W = x * m.m[3] + y * m.m[7] + m.m[15];
  out[0] = X / W;
  out[1] = Y / W;
}

TEST(convert_point_through_perspective) {
  /* P: bounds (0,0,300,200) at (150,100) (world = identity), sublayerTransform
     = perspective 500 about P's anchor (150,100). L: bounds (0,0,100,60),
     anchor (0.5,0.5), position (120,80), transform = Rx(0.7).
     local(L) = T(-50,-30,0) * Rx * T(120,80,0) * T(-150,-100,0) * Persp * T(150,100,0) */
  cad_engine *e = t_engine();
  cad_layer p = t_layer(e), l = t_layer(e);
  t_mat rx = t_rot_x(0.7), persp = t_perspective(500);
  t_mat w = t_mul(t_mul(t_mul(t_translate(-50, -30, 0), rx), t_translate(120, 80, 0)),
                  t_mul(t_mul(t_translate(-150, -100, 0), persp), t_translate(150, 100, 0)));
  double pts[4][2] = {{0, 0}, {100, 60}, {50, 30}, {12.5, 47}};
  double out[2], want[2];
  int i;
  t_set4(e, p, "bounds", 0, 0, 300, 200);
  t_set2(e, p, "position", 150, 100);
  t_setn(e, p, "sublayerTransform", persp.m, 16);
  t_set4(e, l, "bounds", 0, 0, 100, 60);
  t_set2(e, l, "position", 120, 80);
  t_setn(e, l, "transform", rx.m, 16);
  ASSERT_OK(cad_layer_add_sublayer(e, p, l));
  for (i = 0; i < 4; i++) {
    t_project(w, pts[i][0], pts[i][1], want);
    EXPECT_OK(cad_layer_convert_point(e, pts[i][0], pts[i][1], l, 0, 0, out));
    EXPECT_VEC_NEAR(out, want, 2, 1e-9);
    EXPECT_OK(cad_layer_convert_point(e, pts[i][0], pts[i][1], l, p, 0, out));
    EXPECT_VEC_NEAR(out, want, 2, 1e-9); /* P's bounds space is world space here */
    EXPECT_OK(cad_layer_convert_point(e, want[0], want[1], 0, l, 0, out));
    EXPECT_VEC_NEAR(out, pts[i], 2, 1e-8);
  }
  /* the render list draws L where convert_point says (float32 matrices) */
  {
    cad_render_item items[4];
    int32_t n = 0;
    t_mat fw;
    t_tick(e, 0);
    ASSERT_OK(cad_engine_render_list(e, p, items, 4, &n));
    EXPECT_INT_EQ(n, 2);
    for (i = 0; i < 16; i++) fw.m[i] = items[1].world[i];
    t_project(fw, 100, 60, want);
    EXPECT_OK(cad_layer_convert_point(e, 100, 60, l, 0, 1, out));
    EXPECT_VEC_NEAR(out, want, 2, 1e-3);
  }
  cad_engine_destroy(e);
}

TEST(hit_test_front_to_back) {
  /* root (0,0,200,200) at (100,100); A frame (0,0,100,100); B frame
     (50,50,100,100) added after A; B's sublayer C at B-space (150,50), 20x20:
     world frame (190,90,20,20). */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), a = t_layer(e), b = t_layer(e), c = t_layer(e);
  cad_layer hit = 99;
  t_set4(e, r, "bounds", 0, 0, 200, 200);
  t_set2(e, r, "position", 100, 100);
  t_set4(e, a, "bounds", 0, 0, 100, 100);
  t_set2(e, a, "position", 50, 50);
  t_set4(e, b, "bounds", 0, 0, 100, 100);
  t_set2(e, b, "position", 100, 100);
  t_set4(e, c, "bounds", 0, 0, 20, 20);
  t_set2(e, c, "position", 150, 50);
  ASSERT_OK(cad_layer_add_sublayer(e, r, a));
  ASSERT_OK(cad_layer_add_sublayer(e, r, b));
  ASSERT_OK(cad_layer_add_sublayer(e, b, c));
  EXPECT_OK(cad_layer_hit_test(e, r, 75, 75, 0, &hit));
  EXPECT_U64_EQ(hit, b);
  EXPECT_OK(cad_layer_hit_test(e, r, 25, 25, 0, &hit));
  EXPECT_U64_EQ(hit, a);
  EXPECT_OK(cad_layer_hit_test(e, r, 205, 95, 0, &hit));
  EXPECT_U64_EQ(hit, c);
  EXPECT_OK(cad_layer_hit_test(e, r, 190, 10, 0, &hit));
  EXPECT_U64_EQ(hit, r);
  EXPECT_OK(cad_layer_hit_test(e, r, 200, 10, 0, &hit)); /* max edge: out */
  EXPECT_U64_EQ(hit, 0);
  t_set1(e, b, "masksToBounds", 1);
  EXPECT_OK(cad_layer_hit_test(e, r, 205, 95, 0, &hit));
  EXPECT_U64_EQ(hit, 0);
  t_set1(e, b, "hidden", 1);
  EXPECT_OK(cad_layer_hit_test(e, r, 75, 75, 0, &hit));
  EXPECT_U64_EQ(hit, a);
  /* presentation, after a tick: new layers take their model values */
  t_tick(e, 0);
  EXPECT_OK(cad_layer_hit_test(e, r, 75, 75, 1, &hit));
  EXPECT_U64_EQ(hit, a);
  cad_engine_destroy(e);
}

TEST(points_refuse_bad_arguments) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), hit = 7;
  double out[2] = {-1, -1};
  /* an edge-on plane (a quarter turn about y, exact zeros) has no image */
  double edge[16] = {0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_STATUS(cad_layer_convert_point(e, NAN, 0, l, 0, 0, out), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_convert_point(e, 0, INFINITY, l, 0, 0, out), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_convert_point(e, 0, 0, l, 0, 0, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_convert_point(e, 0, 0, l + 1, 0, 0, out), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_convert_point(NULL, 0, 0, l, 0, 0, out), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_hit_test(e, 0, 0, 0, 0, &hit), CAD_ERR_INVALID_HANDLE);
  EXPECT_STATUS(cad_layer_hit_test(e, l, NAN, 0, 0, &hit), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_hit_test(e, l, 0, 0, 0, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_U64_EQ(hit, 7); /* nothing written on failure */
  t_setn(e, l, "transform", edge, 16);
  EXPECT_STATUS(cad_layer_convert_point(e, 1, 2, 0, l, 0, out), CAD_ERR_NOT_FOUND);
  EXPECT_TRUE(out[0] == -1 && out[1] == -1);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(convert_point_through_perspective),
    TEST_ENTRY(hit_test_front_to_back),
    TEST_ENTRY(points_refuse_bad_arguments),
};

TEST_MAIN("points")
