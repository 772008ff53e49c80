/*
 * Transitions (SEMANTICS.md §8): the render list draws the frozen outgoing
 * picture and the live incoming one inside a clip container, offset or faded
 * by p, the eased progress mapped into [startProgress, endProgress].
 *
 * Scene: root R (no bounds) > L (bounds 100x50 at position (50,25), so L's
 * normal world translation is (0,0), opacity 0.8, contents 1) > C.
 */
#include "test_util.h"

typedef struct scene {
  cad_engine *e;
  cad_layer r, l, c;
} scene;

static scene make_scene(void) {
  scene s;
  s.e = t_engine();
  s.r = t_layer(s.e);
  s.l = t_layer(s.e);
  s.c = t_layer(s.e);
  ASSERT_OK(cad_layer_add_sublayer(s.e, s.r, s.l));
  ASSERT_OK(cad_layer_add_sublayer(s.e, s.l, s.c));
  t_set4(s.e, s.l, "bounds", 0, 0, 100, 50);
  t_set2(s.e, s.l, "position", 50, 25);
  t_set1(s.e, s.l, "opacity", 0.8);
  ASSERT_OK(cad_layer_set_contents(s.e, s.l, 1));
  t_tick(s.e, 0);
  return s;
}

/* adds a linear 1 s transition, then changes the contents to 2 without an action */
static void start_transition(scene *s, cad_transition_type type, cad_transition_subtype sub) {
  cad_anim a = t_anim(s->e, CAD_ANIM_TRANSITION, NULL);
  ASSERT_OK(cad_anim_set_transition(s->e, a, type, sub));
  ASSERT_OK(cad_anim_set_duration(s->e, a, 1));
  t_add(s->e, s->l, a, "anything");
  ASSERT_OK(cad_transaction_begin(s->e));
  ASSERT_OK(cad_transaction_set_disable_actions(s->e, 1));
  ASSERT_OK(cad_layer_set_contents(s->e, s->l, 2));
  ASSERT_OK(cad_transaction_commit(s->e));
}

typedef struct pictures {
  int clip, out, in, n; /* item indices (-1 if absent) */
  cad_render_item items[16];
} pictures;

static void find_pictures(scene *s, pictures *p) {
  int32_t n = -1, i;
  ASSERT_OK(cad_engine_render_list(s->e, s->r, p->items, 16, &n));
  p->n = n;
  p->clip = p->out = p->in = -1;
  for (i = 0; i < n; i++) {
    const cad_render_item *it = &p->items[i];
    if (it->layer != s->l) continue;
    if (it->flags & CAD_ITEM_TRANSITION_CLIP) p->clip = i;
    else if (it->flags & CAD_ITEM_TRANSITION_OUTGOING) p->out = i;
    else if (it->flags & CAD_ITEM_TRANSITION_INCOMING) p->in = i;
  }
  ASSERT_TRUE(p->clip >= 0);
  ASSERT_TRUE(p->out >= 0);
  ASSERT_TRUE(p->in >= 0);
}

TEST(key_is_always_transition) {
  scene s = make_scene();
  cad_anim a = 0;
  start_transition(&s, CAD_TRANSITION_FADE, CAD_FROM_LEFT);
  EXPECT_OK(cad_layer_animation_for_key(s.e, s.l, "transition", &a));
  EXPECT_STATUS(cad_layer_animation_for_key(s.e, s.l, "anything", &a), CAD_ERR_NOT_FOUND);
  cad_engine_destroy(s.e);
}

TEST(structure) {
  scene s = make_scene();
  pictures p;
  int i;
  start_transition(&s, CAD_TRANSITION_FADE, CAD_FROM_LEFT);
  t_tick(s.e, 0.25);
  find_pictures(&s, &p);
  /* the container clips to L's bounds; both pictures are its children */
  EXPECT_TRUE((p.items[p.clip].flags & CAD_ITEM_MASKS_TO_BOUNDS) != 0);
  EXPECT_INT_EQ(p.items[p.out].parent, p.clip);
  EXPECT_INT_EQ(p.items[p.in].parent, p.clip);
  {
    double b[4] = {0, 0, 100, 50};
    EXPECT_FVEC_NEAR(p.items[p.clip].bounds, b, 4, 0);
  }
  /* the frozen picture keeps the old contents, the live one has the new */
  EXPECT_U64_EQ(p.items[p.out].contents, 1);
  EXPECT_U64_EQ(p.items[p.in].contents, 2);
  /* each picture carries L's subtree (C), flagged like its picture */
  {
    int out_c = 0, in_c = 0;
    for (i = 0; i < p.n; i++) {
      if (p.items[i].layer != s.c) continue;
      if (p.items[i].parent == p.out && (p.items[i].flags & CAD_ITEM_TRANSITION_OUTGOING)) out_c++;
      if (p.items[i].parent == p.in && (p.items[i].flags & CAD_ITEM_TRANSITION_INCOMING)) in_c++;
    }
    EXPECT_INT_EQ(out_c, 1);
    EXPECT_INT_EQ(in_c, 1);
  }
  /* after the end: a plain render list again */
  t_tick(s.e, 1.5);
  {
    cad_render_item items[8];
    int32_t n = -1;
    ASSERT_OK(cad_engine_render_list(s.e, s.r, items, 8, &n));
    EXPECT_INT_EQ(n, 3);
    if (n == 3) {
      EXPECT_U64_EQ(items[1].layer, s.l);
      EXPECT_INT_EQ(items[1].flags & ~CAD_ITEM_DOUBLE_SIDED, 0);
      EXPECT_U64_EQ(items[1].contents, 2);
    }
  }
  cad_engine_destroy(s.e);
}

TEST(fade) {
  /* outgoing opacity x (1 - p), incoming opacity x p; L's opacity 0.8 */
  scene s = make_scene();
  pictures p;
  start_transition(&s, CAD_TRANSITION_FADE, CAD_FROM_LEFT);
  t_tick(s.e, 0.25);
  find_pictures(&s, &p);
  EXPECT_NEAR(p.items[p.out].world_opacity, 0.8 * 0.75, 1e-6);
  EXPECT_NEAR(p.items[p.in].world_opacity, 0.8 * 0.25, 1e-6);
  /* no movement */
  EXPECT_NEAR(p.items[p.out].world[12], 0, 1e-4);
  EXPECT_NEAR(p.items[p.in].world[12], 0, 1e-4);
  cad_engine_destroy(s.e);
}

/* expected offsets (dx, dy) of the two pictures for `type`/`sub` at p, W = 100, H = 50 */
static void expected_offsets(cad_transition_type type, cad_transition_subtype sub, double p,
                             double *out, double *in) {
  double ux = 0, uy = 0, size;
  switch (sub) {
    case CAD_FROM_LEFT: ux = 1; break;
    case CAD_FROM_RIGHT: ux = -1; break;
    case CAD_FROM_TOP: uy = 1; break;
    case CAD_FROM_BOTTOM: uy = -1; break;
  }
  size = ux != 0 ? 100 : 50;
  out[0] = out[1] = in[0] = in[1] = 0;
  if (type == CAD_TRANSITION_PUSH || type == CAD_TRANSITION_REVEAL) {
    out[0] = ux * size * p;
    out[1] = uy * size * p;
  }
  if (type == CAD_TRANSITION_PUSH || type == CAD_TRANSITION_MOVE_IN) {
    in[0] = -ux * size * (1 - p);
    in[1] = -uy * size * (1 - p);
  }
}

static void check_motion(cad_transition_type type, const char *name) {
  static const cad_transition_subtype subs[4] = {CAD_FROM_LEFT, CAD_FROM_RIGHT, CAD_FROM_TOP,
                                                 CAD_FROM_BOTTOM};
  int i;
  for (i = 0; i < 4; i++) {
    scene s = make_scene();
    pictures p;
    double out[2], in[2];
    start_transition(&s, type, subs[i]);
    t_tick(s.e, 0.25);
    find_pictures(&s, &p);
    expected_offsets(type, subs[i], 0.25, out, in);
    if (!(fabs(p.items[p.out].world[12] - out[0]) < 1e-3 && fabs(p.items[p.out].world[13] - out[1]) < 1e-3 &&
          fabs(p.items[p.in].world[12] - in[0]) < 1e-3 && fabs(p.items[p.in].world[13] - in[1]) < 1e-3))
      cad_test_fail_(__FILE__, __LINE__,
                     "%s subtype %d at p = 0.25: outgoing expected (%g, %g) got (%g, %g); "
                     "incoming expected (%g, %g) got (%g, %g)",
                     name, (int)subs[i], out[0], out[1], p.items[p.out].world[12],
                     p.items[p.out].world[13], in[0], in[1], p.items[p.in].world[12],
                     p.items[p.in].world[13]);
    /* the whole subtree moves with its picture */
    if (p.out + 1 < p.n && p.items[p.out + 1].layer == s.c)
      EXPECT_NEAR(p.items[p.out + 1].world[12], out[0], 1e-3);
    /* no fading in these */
    EXPECT_NEAR(p.items[p.out].world_opacity, 0.8, 1e-6);
    EXPECT_NEAR(p.items[p.in].world_opacity, 0.8, 1e-6);
    cad_engine_destroy(s.e);
  }
}

TEST(push) { check_motion(CAD_TRANSITION_PUSH, "push"); }
TEST(move_in) { check_motion(CAD_TRANSITION_MOVE_IN, "moveIn"); }
TEST(reveal) { check_motion(CAD_TRANSITION_REVEAL, "reveal"); }

TEST(reveal_draws_incoming_below) {
  scene s = make_scene();
  pictures p;
  start_transition(&s, CAD_TRANSITION_REVEAL, CAD_FROM_LEFT);
  t_tick(s.e, 0.25);
  find_pictures(&s, &p);
  EXPECT_TRUE(p.in < p.out); /* drawn first = below */
  cad_engine_destroy(s.e);
}

TEST(progress_range_and_timing) {
  /* startProgress 0.2, endProgress 0.6, easeIn: p = 0.2 + 0.4 * easeIn(x) */
  scene s = make_scene();
  pictures p;
  cad_anim a = t_anim(s.e, CAD_ANIM_TRANSITION, NULL);
  double pr = 0.2 + 0.4 * t_bezier_y(0.42, 0, 1, 1, 0.5);
  ASSERT_OK(cad_anim_set_transition(s.e, a, CAD_TRANSITION_FADE, CAD_FROM_LEFT));
  ASSERT_OK(cad_anim_set_transition_progress(s.e, a, 0.2, 0.6));
  ASSERT_OK(cad_anim_set_timing_function(s.e, a, CAD_TIMING_EASE_IN));
  ASSERT_OK(cad_anim_set_duration(s.e, a, 2));
  t_add(s.e, s.l, a, NULL);
  t_tick(s.e, 1);
  find_pictures(&s, &p);
  EXPECT_NEAR(p.items[p.in].world_opacity, 0.8 * pr, 1e-6);
  EXPECT_NEAR(p.items[p.out].world_opacity, 0.8 * (1 - pr), 1e-6);
  cad_engine_destroy(s.e);
}

TEST(invalid_arguments) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_TRANSITION, NULL);
  cad_anim b = t_anim(e, CAD_ANIM_BASIC, "opacity");
  EXPECT_STATUS(cad_anim_set_transition(e, a, (cad_transition_type)99, CAD_FROM_LEFT), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_transition(e, a, CAD_TRANSITION_PUSH, (cad_transition_subtype)9), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_transition_progress(e, a, -0.1, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_transition_progress(e, a, 0, 1.5), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_transition_progress(e, a, NAN, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_anim_set_transition(e, b, CAD_TRANSITION_PUSH, CAD_FROM_LEFT), CAD_ERR_INVALID_STATE);
  cad_engine_destroy(e);
}

/* Cadence's 3D types (docs/decisions.md, Transitions): CAD_TRANSITION_FLIP = 4
 * and CAD_TRANSITION_CUBE = 5 take every subtype; 6 is refused. */
TEST(flip_and_cube_values) {
  cad_engine *e = t_engine();
  cad_anim a = t_anim(e, CAD_ANIM_TRANSITION, NULL);
  int sub;
  EXPECT_INT_EQ(CAD_TRANSITION_FLIP, 4);
  EXPECT_INT_EQ(CAD_TRANSITION_CUBE, 5);
  for (sub = CAD_FROM_LEFT; sub <= CAD_FROM_BOTTOM; sub++) {
    EXPECT_OK(cad_anim_set_transition(e, a, CAD_TRANSITION_FLIP, (cad_transition_subtype)sub));
    EXPECT_OK(cad_anim_set_transition(e, a, CAD_TRANSITION_CUBE, (cad_transition_subtype)sub));
  }
  EXPECT_STATUS(cad_anim_set_transition(e, a, (cad_transition_type)6, CAD_FROM_LEFT), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

/* flip fromLeft at p = 0.25 (linear, 1 s). L: bounds 100 x 50, world identity,
 * opacity 0.8; c = (50, 25), D = 2 max(100, 50) = 200, k = m34 = -1/200.
 * Outgoing M = T(-c) R_y(pi/4) P T(c), cos = sin = sqrt(2)/2 = 0.70710678:
 *   row 1 = (cos + 0.25 sin, 0.125 sin, -sin, 0.005 sin)
 *         = (0.88388348, 0.08838835, -0.70710678, 0.00353553)
 *   row 4 = -50 row1 - 25 (0, 1, 0, 0) + (50, 25, 0, 1)
 *         = (5.80582618, -4.41941738, 35.35533906, 0.82322330)
 * The left edge (0, 25, 0, 1) has z = 35.355 > 0: it comes toward the viewer.
 * Only the outgoing face shows (p < 0.5): world opacity 0.8 and 0. The clip
 * container does not mask to bounds; the items are those of the other types. */
TEST(flip_matrix) {
  scene s = make_scene();
  pictures p;
  start_transition(&s, CAD_TRANSITION_FLIP, CAD_FROM_LEFT);
  t_tick(s.e, 0.25);
  find_pictures(&s, &p);
  EXPECT_INT_EQ(p.n, 6); /* R, container, outgoing L and C, incoming L and C */
  EXPECT_TRUE((p.items[p.clip].flags & CAD_ITEM_MASKS_TO_BOUNDS) == 0);
  EXPECT_NEAR(p.items[p.out].world[0], 0.88388348, 1e-5);
  EXPECT_NEAR(p.items[p.out].world[3], 0.00353553, 1e-6);
  EXPECT_NEAR(p.items[p.out].world[12], 5.80582618, 1e-4);
  EXPECT_NEAR(p.items[p.out].world[14], 35.35533906, 1e-4);
  EXPECT_NEAR(p.items[p.out].world[15], 0.82322330, 1e-5);
  EXPECT_NEAR(p.items[p.out].world_opacity, 0.8, 1e-6);
  EXPECT_NEAR(p.items[p.in].world_opacity, 0, 0);
  cad_engine_destroy(s.e);
}

/* cube fromLeft on the same layer (W = 100, H = 50, D = 200, E = W, about y):
 * a face shows while (D + E/2) cos(phi) > E/2, i.e. cos(phi) > 50/250 = 0.2,
 * |phi| < 78.46 degrees. The incoming face turns by (pi/2)(p - 1): at p = 0.05
 * (85.5 degrees) it is turned away and hidden (opacity factor 0, as flip's back
 * face), at p = 0.25 (67.5 degrees) both faces show; the outgoing face, turned
 * by (pi/2) p, is hidden at p = 0.95. */
TEST(cube_hides_the_face_turned_away) {
  static const struct { double t, out, in; } cases[] = {{0.05, 0.8, 0}, {0.25, 0.8, 0.8}, {0.75, 0.8, 0.8}, {0.95, 0, 0.8}};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    scene s = make_scene();
    pictures p;
    start_transition(&s, CAD_TRANSITION_CUBE, CAD_FROM_LEFT);
    t_tick(s.e, cases[k].t);
    find_pictures(&s, &p);
    EXPECT_INT_EQ(p.n, 6); /* the hidden face is still emitted */
    EXPECT_NEAR(p.items[p.out].world_opacity, cases[k].out, 1e-6);
    EXPECT_NEAR(p.items[p.in].world_opacity, cases[k].in, 1e-6);
    cad_engine_destroy(s.e);
  }
}

TEST_LIST = {
    TEST_ENTRY(key_is_always_transition),
    TEST_ENTRY(structure),
    TEST_ENTRY(fade),
    TEST_ENTRY(push),
    TEST_ENTRY(move_in),
    TEST_ENTRY(reveal),
    TEST_ENTRY(reveal_draws_incoming_below),
    TEST_ENTRY(progress_range_and_timing),
    TEST_ENTRY(invalid_arguments),
    TEST_ENTRY(flip_and_cube_values),
    TEST_ENTRY(flip_matrix),
    TEST_ENTRY(cube_hides_the_face_turned_away),
};

TEST_MAIN("transition")
