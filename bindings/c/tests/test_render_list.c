/*
 * Render list: order, parents, flags, visual fields and world matrices
 * (API.md "Frame output", SEMANTICS.md §2.2). The expected world matrices are
 * built here by multiplying the matrices of §2.2 (row vectors, leftmost first):
 *
 *   local(L) = T(-(b.x + a.x*b.w), -(b.y + a.y*b.h), -aZ) * L.transform
 *            * T(pos.x, pos.y, zPosition + aZ)
 *            * T(-anchor(P)) * P.sublayerTransform * T(+anchor(P))
 *   world(L) = local(L) * world(P);   a root's world(P) is the identity.
 */
#include "test_util.h"

/* float32 output vs double expectation: relative and absolute slack */
static void expect_world(const float *got, t_mat want, const char *what, int line) {
  int i, bad = 0;
  for (i = 0; i < 16; i++)
    if (!(fabs((double)got[i] - want.m[i]) <= 1e-6 + 2e-6 * fabs(want.m[i]))) bad++;
  if (!bad) return;
  cad_test_fail_(__FILE__, line, "world matrix of %s: %d of 16 elements differ", what, bad);
  for (i = 0; i < 16; i++)
    fprintf(stderr, "      m%d%d expected %14.8g got %14.8g%s\n", i / 4 + 1, i % 4 + 1, want.m[i],
            (double)got[i],
            fabs((double)got[i] - want.m[i]) <= 1e-6 + 2e-6 * fabs(want.m[i]) ? "" : "   <--");
}
#define EXPECT_WORLD(got, want, what) expect_world(got, want, what, __LINE__)

/* T(-anchor) of a layer in its own bounds space (the first factor of local) */
static t_mat to_anchor(double bx, double by, double bw, double bh, double ax, double ay, double az) {
  return t_translate(-(bx + ax * bw), -(by + ay * bh), -az);
}

/* T(-anchor(P)) * S * T(+anchor(P)) */
static t_mat about_anchor(t_mat s, double bx, double by, double bw, double bh, double ax,
                          double ay, double az) {
  double x = bx + ax * bw, y = by + ay * bh;
  return t_mul(t_mul(t_translate(-x, -y, -az), s), t_translate(x, y, az));
}

static cad_render_item items[16];

static int32_t render(cad_engine *e, cad_layer root) {
  int32_t n = -1;
  memset(items, 0, sizeof items);
  ASSERT_OK(cad_engine_render_list(e, root, items, 16, &n));
  return n;
}

/*
 * R (root)  bounds 0,0,400,300  position 200,150  sublayerTransform m34 = -1/500
 * +- C      bounds 0,0,100,50   position 100,80   anchor 0.25,0.5  zPosition 10
 * |  |      transform Ry(pi/6)  sublayerTransform Rz(0.2)
 * |  +- G   bounds 10,20,40,40  position 30,10    anchorPointZ 5   transform Rz(0.3) * T(0,0,7)
 * +- H      hidden, with a child K: both left out
 * +- S      bounds 0,0,10,10    position 300,200
 */
TEST(three_level_tree_with_perspective) {
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e), g = t_layer(e), h = t_layer(e), k = t_layer(e),
            s = t_layer(e);
  t_mat persp = t_perspective(500), cx = t_rot_y(T_PI / 6), csub = t_rot_z(0.2);
  t_mat gx = t_mul(t_rot_z(0.3), t_translate(0, 0, 7));
  t_mat world_r, world_c, world_g, world_s;
  int32_t n;

  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  ASSERT_OK(cad_layer_add_sublayer(e, c, g));
  ASSERT_OK(cad_layer_add_sublayer(e, r, h));
  ASSERT_OK(cad_layer_add_sublayer(e, h, k));
  ASSERT_OK(cad_layer_add_sublayer(e, r, s));

  t_set4(e, r, "bounds", 0, 0, 400, 300);
  t_set2(e, r, "position", 200, 150);
  t_set1(e, r, "sublayerTransform.m34", -1.0 / 500);

  t_set4(e, c, "bounds", 0, 0, 100, 50);
  t_set2(e, c, "position", 100, 80);
  t_set2(e, c, "anchorPoint", 0.25, 0.5);
  t_set1(e, c, "zPosition", 10);
  t_setn(e, c, "transform", cx.m, 16);
  t_setn(e, c, "sublayerTransform", csub.m, 16);

  t_set4(e, g, "bounds", 10, 20, 40, 40);
  t_set2(e, g, "position", 30, 10);
  t_set1(e, g, "anchorPointZ", 5);
  t_setn(e, g, "transform", gx.m, 16);

  t_set1(e, h, "hidden", 1);
  t_set4(e, h, "bounds", 0, 0, 50, 50);
  t_set4(e, k, "bounds", 0, 0, 5, 5);

  t_set4(e, s, "bounds", 0, 0, 10, 10);
  t_set2(e, s, "position", 300, 200);
  t_tick(e, 1);

  /* expected, by §2.2 */
  world_r = t_mul(t_mul(to_anchor(0, 0, 400, 300, 0.5, 0.5, 0), t_identity()),
                  t_translate(200, 150, 0));
  world_c = t_mul(t_mul(t_mul(t_mul(to_anchor(0, 0, 100, 50, 0.25, 0.5, 0), cx),
                              t_translate(100, 80, 10 + 0)),
                        about_anchor(persp, 0, 0, 400, 300, 0.5, 0.5, 0)),
                  world_r);
  world_g = t_mul(t_mul(t_mul(t_mul(to_anchor(10, 20, 40, 40, 0.5, 0.5, 5), gx),
                              t_translate(30, 10, 0 + 5)),
                        about_anchor(csub, 0, 0, 100, 50, 0.25, 0.5, 0)),
                  world_c);
  world_s = t_mul(t_mul(t_mul(to_anchor(0, 0, 10, 10, 0.5, 0.5, 0), t_translate(300, 200, 0)),
                        about_anchor(persp, 0, 0, 400, 300, 0.5, 0.5, 0)),
                  world_r);
  /* self-check of the algebra: the root's anchor sits at its position */
  {
    t_mat id = t_identity();
    EXPECT_VEC_NEAR(world_r.m, id.m, 16, 0);
  }

  n = render(e, r);
  ASSERT_INT_EQ(n, 4);
  EXPECT_U64_EQ(items[0].layer, r);
  EXPECT_U64_EQ(items[1].layer, c);
  EXPECT_U64_EQ(items[2].layer, g);
  EXPECT_U64_EQ(items[3].layer, s);
  EXPECT_INT_EQ(items[0].parent, -1);
  EXPECT_INT_EQ(items[1].parent, 0);
  EXPECT_INT_EQ(items[2].parent, 1);
  EXPECT_INT_EQ(items[3].parent, 0);
  EXPECT_WORLD(items[0].world, world_r, "R");
  EXPECT_WORLD(items[1].world, world_c, "C");
  EXPECT_WORLD(items[2].world, world_g, "G");
  EXPECT_WORLD(items[3].world, world_s, "S");
  {
    double b[4] = {10, 20, 40, 40};
    EXPECT_FVEC_NEAR(items[2].bounds, b, 4, 0);
  }
  cad_engine_destroy(e);
}

/* float helper for an expected world point (row vector p * M, divided by w) */
static void project(const float *m, double x, double y, double z, double *out) {
  double w = x * m[3] + y * m[7] + z * m[11] + m[15];
  out[0] = (x * m[0] + y * m[4] + z * m[8] + m[12]) / w;
  out[1] = (x * m[1] + y * m[5] + z * m[9] + m[13]) / w;
}

TEST(perspective_foreshortens) {
  /* a child pushed back (zPosition -500) under m34 = -1/500, centred on the
     parent's anchor: w = 1 + 500/500 = 2, so its 100-wide bounds project to 50 */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e);
  double p0[2], p1[2];
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  t_set4(e, r, "bounds", 0, 0, 200, 200);
  t_set2(e, r, "position", 100, 100);
  t_set1(e, r, "sublayerTransform.m34", -1.0 / 500);
  t_set4(e, c, "bounds", 0, 0, 100, 100);
  t_set2(e, c, "position", 100, 100);
  t_set1(e, c, "zPosition", -500);
  t_tick(e, 0);
  ASSERT_INT_EQ(render(e, r), 2);
  project(items[1].world, 0, 0, 0, p0);
  project(items[1].world, 100, 100, 0, p1);
  EXPECT_NEAR(p1[0] - p0[0], 50, 1e-3);
  EXPECT_NEAR(p1[1] - p0[1], 50, 1e-3);
  EXPECT_NEAR((p0[0] + p1[0]) / 2, 100, 1e-3); /* still centred on the anchor */
  cad_engine_destroy(e);
}

TEST(visual_fields) {
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e), g = t_layer(e);
  int32_t n;
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  ASSERT_OK(cad_layer_add_sublayer(e, c, g));
  t_set1(e, r, "opacity", 0.8);
  t_set1(e, c, "opacity", 0.5);
  t_set1(e, c, "masksToBounds", 1);
  t_set1(e, g, "doubleSided", 0);
  t_set4(e, g, "backgroundColor", 0.1, 0.2, 0.3, 0.4);
  t_set4(e, g, "borderColor", 1, 0, 0, 1);
  t_set4(e, g, "shadowColor", 0, 1, 0, 0.5);
  t_set1(e, g, "borderWidth", 2);
  t_set1(e, g, "cornerRadius", 6);
  t_set1(e, g, "shadowOpacity", 0.7);
  t_set1(e, g, "shadowRadius", 9);
  t_set2(e, g, "shadowOffset", 1, 2);
  t_set4(e, g, "contentsRect", 0, 0.5, 0.5, 0.5);
  ASSERT_OK(cad_layer_set_contents(e, g, 0xfeedfacecafebeefull));
  t_tick(e, 0);
  n = render(e, r);
  ASSERT_INT_EQ(n, 3);
  EXPECT_INT_EQ(items[0].flags, CAD_ITEM_DOUBLE_SIDED); /* doubleSided defaults to 1 */
  EXPECT_INT_EQ(items[1].flags, CAD_ITEM_DOUBLE_SIDED | CAD_ITEM_MASKS_TO_BOUNDS);
  EXPECT_INT_EQ(items[2].flags, 0);
  EXPECT_NEAR(items[0].opacity, 0.8, 1e-6);
  EXPECT_NEAR(items[0].world_opacity, 0.8, 1e-6);
  EXPECT_NEAR(items[1].opacity, 0.5, 1e-6);
  EXPECT_NEAR(items[1].world_opacity, 0.4, 1e-6);
  EXPECT_NEAR(items[2].opacity, 1, 0);
  EXPECT_NEAR(items[2].world_opacity, 0.4, 1e-6);
  {
    double bg[4] = {0.1, 0.2, 0.3, 0.4}, bc[4] = {1, 0, 0, 1}, sc[4] = {0, 1, 0, 0.5};
    double cr[4] = {0, 0.5, 0.5, 0.5}, so[2] = {1, 2};
    EXPECT_FVEC_NEAR(items[2].background_color, bg, 4, 1e-6);
    EXPECT_FVEC_NEAR(items[2].border_color, bc, 4, 1e-6);
    EXPECT_FVEC_NEAR(items[2].shadow_color, sc, 4, 1e-6);
    EXPECT_FVEC_NEAR(items[2].contents_rect, cr, 4, 1e-6);
    EXPECT_FVEC_NEAR(items[2].shadow_offset, so, 2, 1e-6);
  }
  EXPECT_NEAR(items[2].border_width, 2, 0);
  EXPECT_NEAR(items[2].corner_radius, 6, 0);
  EXPECT_NEAR(items[2].shadow_opacity, 0.7, 1e-6);
  EXPECT_NEAR(items[2].shadow_radius, 9, 0);
  EXPECT_U64_EQ(items[2].contents, 0xfeedfacecafebeefull);
  EXPECT_U64_EQ(items[0].contents, 0);
  /* defaults of a plain layer */
  {
    double dbc[4] = {0, 0, 0, 1}, dcr[4] = {0, 0, 1, 1}, dso[2] = {0, -3};
    EXPECT_FVEC_NEAR(items[0].border_color, dbc, 4, 0);
    EXPECT_FVEC_NEAR(items[0].contents_rect, dcr, 4, 0);
    EXPECT_FVEC_NEAR(items[0].shadow_offset, dso, 2, 0);
    EXPECT_NEAR(items[0].shadow_radius, 3, 0);
  }
  cad_engine_destroy(e);
}

TEST(render_list_uses_presentation_values) {
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "position");
  double from[2] = {0, 0}, to[2] = {100, 40};
  ASSERT_OK(cad_anim_set_from(e, a, from, 2));
  ASSERT_OK(cad_anim_set_to(e, a, to, 2));
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  t_tick(e, 0);
  t_add(e, r, a, "move");
  t_add(e, r, t_basic1(e, "opacity", 1, 0, 1), "fade");
  t_tick(e, 0.25);
  ASSERT_INT_EQ(render(e, r), 1);
  EXPECT_NEAR(items[0].world[12], 25, 1e-4);
  EXPECT_NEAR(items[0].world[13], 10, 1e-4);
  EXPECT_NEAR(items[0].opacity, 0.75, 1e-6);
  EXPECT_NEAR(items[0].world_opacity, 0.75, 1e-6);
  cad_engine_destroy(e);
}

TEST(hidden_root_renders_nothing) {
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e);
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  t_set1(e, r, "hidden", 1);
  t_tick(e, 0);
  EXPECT_INT_EQ(render(e, r), 0);
  cad_engine_destroy(e);
}

TEST(future_begin_time_left_out_unless_filled_backwards) {
  /* a layer whose parent time is before its beginTime is not rendered yet */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), a = t_layer(e), b = t_layer(e), x = t_layer(e);
  ASSERT_OK(cad_layer_add_sublayer(e, r, a));
  ASSERT_OK(cad_layer_add_sublayer(e, a, x));
  ASSERT_OK(cad_layer_add_sublayer(e, r, b));
  t_set1(e, a, "beginTime", 5);
  t_set1(e, b, "beginTime", 5);
  t_set1(e, b, "fillMode", CAD_FILL_BACKWARDS);
  t_tick(e, 1);
  ASSERT_INT_EQ(render(e, r), 2); /* r, b */
  EXPECT_U64_EQ(items[0].layer, r);
  EXPECT_U64_EQ(items[1].layer, b);
  t_tick(e, 5);
  ASSERT_INT_EQ(render(e, r), 4); /* r, a, x, b */
  EXPECT_U64_EQ(items[1].layer, a);
  EXPECT_U64_EQ(items[2].layer, x);
  EXPECT_INT_EQ(items[2].parent, 1);
  cad_engine_destroy(e);
}

TEST(buffer_too_small_writes_nothing) {
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e);
  cad_render_item few[2];
  int32_t n = -1;
  ASSERT_OK(cad_layer_add_sublayer(e, r, t_layer(e)));
  ASSERT_OK(cad_layer_add_sublayer(e, r, t_layer(e)));
  t_tick(e, 0);
  memset(few, 0x5a, sizeof few);
  EXPECT_STATUS(cad_engine_render_list(e, r, few, 2, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 3);
  EXPECT_U64_EQ(few[0].layer, 0x5a5a5a5a5a5a5a5aull);
  EXPECT_U64_EQ(few[1].layer, 0x5a5a5a5a5a5a5a5aull);
  n = -1;
  EXPECT_STATUS(cad_engine_render_list(e, r, NULL, 0, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 3);
  EXPECT_STATUS(cad_engine_render_list(e, r, few, -1, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_engine_render_list(e, r, NULL, 5, &n), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(order_is_depth_first_in_sublayer_order) {
  /* r: [a: [a1, a2], b: [b1]] inserted out of order */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), a = t_layer(e), b = t_layer(e), a1 = t_layer(e), a2 = t_layer(e),
            b1 = t_layer(e);
  cad_layer want[6];
  int32_t parents[6] = {-1, 0, 1, 1, 0, 4};
  int i;
  ASSERT_OK(cad_layer_add_sublayer(e, r, b));
  ASSERT_OK(cad_layer_insert_sublayer(e, r, a, 0));
  ASSERT_OK(cad_layer_add_sublayer(e, a, a2));
  ASSERT_OK(cad_layer_insert_sublayer(e, a, a1, 0));
  ASSERT_OK(cad_layer_add_sublayer(e, b, b1));
  want[0] = r; want[1] = a; want[2] = a1; want[3] = a2; want[4] = b; want[5] = b1;
  t_tick(e, 0);
  ASSERT_INT_EQ(render(e, r), 6);
  for (i = 0; i < 6; i++) {
    EXPECT_U64_EQ(items[i].layer, want[i]);
    EXPECT_INT_EQ(items[i].parent, parents[i]);
  }
  cad_engine_destroy(e);
}

TEST(hidden_animation_keeps_layer_visible) {
  /* hidden 0 -> 1: the layer is drawn until the animation's end (e >= 1) */
  cad_engine *e = t_engine();
  cad_layer r = t_layer(e), c = t_layer(e);
  ASSERT_OK(cad_layer_add_sublayer(e, r, c));
  t_tick(e, 0);
  ASSERT_OK(cad_layer_set_actions_enabled(e, c, 0));
  t_set1(e, c, "hidden", 1);
  t_add(e, c, t_basic1(e, "hidden", 0, 1, 1), "hide");
  t_tick(e, 0.9);
  EXPECT_INT_EQ(render(e, r), 2);
  t_tick(e, 1.1);
  EXPECT_INT_EQ(render(e, r), 1);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(three_level_tree_with_perspective),
    TEST_ENTRY(perspective_foreshortens),
    TEST_ENTRY(visual_fields),
    TEST_ENTRY(render_list_uses_presentation_values),
    TEST_ENTRY(hidden_root_renders_nothing),
    TEST_ENTRY(future_begin_time_left_out_unless_filled_backwards),
    TEST_ENTRY(buffer_too_small_writes_nothing),
    TEST_ENTRY(order_is_depth_first_in_sublayer_order),
    TEST_ENTRY(hidden_animation_keeps_layer_visible),
};

TEST_MAIN("render_list")
