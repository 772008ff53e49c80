/* Layer properties by key path: defaults, counts, sub-keys, frame, errors (SEMANTICS.md §2). */
#include <string.h>

#include "test_util.h"

#define I4 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1

typedef struct kp_default {
  const char *keypath;
  int32_t count;
  double value[16];
} kp_default;

/* The table of SEMANTICS.md §2 (and the layer timing fields of §3). */
static const kp_default top_level[] = {
    {"position", 2, {0, 0}},
    {"zPosition", 1, {0}},
    {"anchorPoint", 2, {0.5, 0.5}},
    {"anchorPointZ", 1, {0}},
    {"bounds", 4, {0, 0, 0, 0}},
    {"frame", 4, {0, 0, 0, 0}},
    {"transform", 16, {I4}},
    {"sublayerTransform", 16, {I4}},
    {"opacity", 1, {1}},
    {"hidden", 1, {0}},
    {"backgroundColor", 4, {0, 0, 0, 0}},
    {"borderColor", 4, {0, 0, 0, 1}},
    {"borderWidth", 1, {0}},
    {"cornerRadius", 1, {0}},
    {"shadowColor", 4, {0, 0, 0, 1}},
    {"shadowOpacity", 1, {0}},
    {"shadowOffset", 2, {0, -3}},
    {"shadowRadius", 1, {3}},
    {"contentsRect", 4, {0, 0, 1, 1}},
    {"masksToBounds", 1, {0}},
    {"doubleSided", 1, {1}},
    {"contents", 1, {0}},
    /* layer timing fields */
    {"beginTime", 1, {0}},
    {"speed", 1, {1}},
    {"timeOffset", 1, {0}},
    {"duration", 1, {0}},
    {"repeatCount", 1, {0}},
    {"repeatDuration", 1, {0}},
    {"autoreverses", 1, {0}},
    {"fillMode", 1, {0}},
};

static const kp_default sub_keys[] = {
    {"position.x", 1, {0}},
    {"position.y", 1, {0}},
    {"anchorPoint.x", 1, {0.5}},
    {"anchorPoint.y", 1, {0.5}},
    {"bounds.origin", 2, {0, 0}},
    {"bounds.origin.x", 1, {0}},
    {"bounds.origin.y", 1, {0}},
    {"bounds.size", 2, {0, 0}},
    {"bounds.size.width", 1, {0}},
    {"bounds.size.height", 1, {0}},
    {"shadowOffset.width", 1, {0}},
    {"shadowOffset.height", 1, {-3}},
    {"backgroundColor.r", 1, {0}},
    {"backgroundColor.g", 1, {0}},
    {"backgroundColor.b", 1, {0}},
    {"backgroundColor.a", 1, {0}},
    {"borderColor.r", 1, {0}},
    {"borderColor.a", 1, {1}},
    {"shadowColor.b", 1, {0}},
    {"shadowColor.a", 1, {1}},
    {"contentsRect.origin", 2, {0, 0}},
    {"contentsRect.size", 2, {1, 1}},
    {"contentsRect.size.width", 1, {1}},
    {"contentsRect.size.height", 1, {1}},
    /* SEMANTICS.md §2.3 */
    {"transform.rotation.x", 1, {0}},
    {"transform.rotation.y", 1, {0}},
    {"transform.rotation.z", 1, {0}},
    {"transform.scale.x", 1, {1}},
    {"transform.scale.y", 1, {1}},
    {"transform.scale.z", 1, {1}},
    {"transform.scale", 1, {1}},
    {"transform.translation.x", 1, {0}},
    {"transform.translation.y", 1, {0}},
    {"transform.translation.z", 1, {0}},
    {"transform.translation", 2, {0, 0}},
    {"transform.m11", 1, {1}},
    {"transform.m12", 1, {0}},
    {"transform.m34", 1, {0}},
    {"transform.m41", 1, {0}},
    {"transform.m44", 1, {1}},
    {"sublayerTransform.rotation.x", 1, {0}},
    {"sublayerTransform.rotation.y", 1, {0}},
    {"sublayerTransform.rotation.z", 1, {0}},
    {"sublayerTransform.scale.x", 1, {1}},
    {"sublayerTransform.scale", 1, {1}},
    {"sublayerTransform.translation.z", 1, {0}},
    {"sublayerTransform.translation", 2, {0, 0}},
    {"sublayerTransform.m22", 1, {1}},
    {"sublayerTransform.m34", 1, {0}},
};

static void check_defaults(const kp_default *table, size_t n) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  size_t i;
  for (i = 0; i < n; i++) {
    double out[17];
    int32_t got = -1;
    cad_status s = cad_layer_get(e, l, table[i].keypath, out, 17, &got);
    if (s != CAD_OK) {
      cad_test_fail_(__FILE__, __LINE__, "get \"%s\": %s (%s)", table[i].keypath,
                     cad_status_name(s), cad_last_error());
      continue;
    }
    if (got != table[i].count) {
      cad_test_fail_(__FILE__, __LINE__, "\"%s\": expected %d components, got %d",
                     table[i].keypath, (int)table[i].count, (int)got);
      continue;
    }
    if (!cad_test_vec_near_(__FILE__, __LINE__, table[i].keypath, out, table[i].value, got, 1e-12))
      continue;
    /* without animations the presentation is the model */
    got = -1;
    s = cad_layer_presentation(e, l, table[i].keypath, out, 17, &got);
    if (s != CAD_OK || got != table[i].count) {
      cad_test_fail_(__FILE__, __LINE__, "presentation \"%s\": %s, %d components",
                     table[i].keypath, cad_status_name(s), (int)got);
      continue;
    }
    cad_test_vec_near_(__FILE__, __LINE__, table[i].keypath, out, table[i].value, got, 1e-12);
  }
  cad_engine_destroy(e);
}

TEST(defaults_and_component_counts) { check_defaults(top_level, sizeof top_level / sizeof top_level[0]); }

TEST(sub_key_defaults_and_component_counts) {
  check_defaults(sub_keys, sizeof sub_keys / sizeof sub_keys[0]);
}

TEST(set_get_round_trip) {
  static const kp_default values[] = {
      {"position", 2, {12.5, -7}},
      {"zPosition", 1, {3}},
      {"anchorPoint", 2, {0.25, 1}},
      {"anchorPointZ", 1, {-4}},
      {"bounds", 4, {1, 2, 30, 40}},
      {"transform", 16, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}},
      {"sublayerTransform", 16, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1}},
      {"opacity", 1, {0.25}},
      {"hidden", 1, {1}},
      {"backgroundColor", 4, {0.1, 0.2, 0.3, 0.4}},
      {"borderColor", 4, {1, 0.5, 0, 0.75}},
      {"borderWidth", 1, {2}},
      {"cornerRadius", 1, {8}},
      {"shadowColor", 4, {0.5, 0.5, 0.5, 1}},
      {"shadowOpacity", 1, {0.6}},
      {"shadowOffset", 2, {2, 4}},
      {"shadowRadius", 1, {10}},
      {"contentsRect", 4, {0, 0, 0.5, 0.5}},
      {"masksToBounds", 1, {1}},
      {"doubleSided", 1, {0}},
      {"beginTime", 1, {2}},
      {"speed", 1, {1.5}},
      {"timeOffset", 1, {0.5}},
      {"duration", 1, {4}},
      {"repeatCount", 1, {2.5}},
      {"repeatDuration", 1, {3}},
      {"autoreverses", 1, {1}},
      {"fillMode", 1, {3}},
  };
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  size_t i;
  for (i = 0; i < sizeof values / sizeof values[0]; i++) {
    double out[16];
    cad_status s = cad_layer_set(e, l, values[i].keypath, values[i].value, values[i].count);
    if (s != CAD_OK) {
      cad_test_fail_(__FILE__, __LINE__, "set \"%s\": %s (%s)", values[i].keypath,
                     cad_status_name(s), cad_last_error());
      continue;
    }
    t_getn(e, l, values[i].keypath, out, values[i].count);
    cad_test_vec_near_(__FILE__, __LINE__, values[i].keypath, out, values[i].value,
                       values[i].count, 1e-12);
  }
  cad_engine_destroy(e);
}

TEST(sub_keys_change_one_component) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[4];
  t_set1(e, l, "position.x", 5);
  t_getn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 5, 0);
  EXPECT_NEAR(v[1], 0, 0);
  t_set1(e, l, "position.y", -2);
  t_getn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 5, 0);
  EXPECT_NEAR(v[1], -2, 0);

  t_set4(e, l, "bounds", 1, 2, 3, 4);
  t_set1(e, l, "bounds.size.width", 70);
  t_getn(e, l, "bounds", v, 4);
  {
    double want[4] = {1, 2, 70, 4};
    EXPECT_VEC_NEAR(v, want, 4, 0);
  }
  t_set2(e, l, "bounds.origin", -1, -2);
  t_getn(e, l, "bounds", v, 4);
  {
    double want[4] = {-1, -2, 70, 4};
    EXPECT_VEC_NEAR(v, want, 4, 0);
  }
  t_set2(e, l, "bounds.size", 8, 9);
  t_set1(e, l, "bounds.origin.y", 6);
  t_getn(e, l, "bounds", v, 4);
  {
    double want[4] = {-1, 6, 8, 9};
    EXPECT_VEC_NEAR(v, want, 4, 0);
  }

  t_set1(e, l, "backgroundColor.g", 0.5);
  t_set1(e, l, "backgroundColor.a", 1);
  t_getn(e, l, "backgroundColor", v, 4);
  {
    double want[4] = {0, 0.5, 0, 1};
    EXPECT_VEC_NEAR(v, want, 4, 0);
  }
  t_set1(e, l, "shadowOffset.height", 7);
  t_getn(e, l, "shadowOffset", v, 2);
  EXPECT_NEAR(v[0], 0, 0);
  EXPECT_NEAR(v[1], 7, 0);
  t_set1(e, l, "anchorPoint.y", 0);
  t_getn(e, l, "anchorPoint", v, 2);
  EXPECT_NEAR(v[0], 0.5, 0);
  EXPECT_NEAR(v[1], 0, 0);
  cad_engine_destroy(e);
}

TEST(transform_virtual_keys) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16], v[2];
  t_mat want;

  /* rotation.z = pi/2: CATransform3DMakeRotation(pi/2, 0, 0, 1) */
  t_set1(e, l, "transform.rotation.z", T_PI / 2);
  t_getn(e, l, "transform", m, 16);
  want = t_rot_z(T_PI / 2);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.rotation.z"), T_PI / 2, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.m12"), 1, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.m21"), -1, 1e-12);

  /* scale on top of it: S * Rz * T, recomposed */
  t_set1(e, l, "transform.scale", 2);
  t_set2(e, l, "transform.translation", 3, 4);
  t_getn(e, l, "transform", m, 16);
  want = t_mul(t_mul(t_scale(2, 2, 2), t_rot_z(T_PI / 2)), t_translate(3, 4, 0));
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.scale"), 2, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.scale.z"), 2, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.rotation.z"), T_PI / 2, 1e-12);
  t_getn(e, l, "transform.translation", v, 2);
  EXPECT_NEAR(v[0], 3, 1e-12);
  EXPECT_NEAR(v[1], 4, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.m41"), 3, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "transform.m42"), 4, 1e-12);
  cad_engine_destroy(e);
}

TEST(transform_scale_reads_mean_of_x_and_y) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want;
  t_set1(e, l, "transform.scale.x", 2);
  t_set1(e, l, "transform.scale.y", 4);
  EXPECT_NEAR(t_get1(e, l, "transform.scale"), 3, 1e-12);
  t_set1(e, l, "transform.translation.z", 5);
  t_getn(e, l, "transform", m, 16);
  want = t_mul(t_scale(2, 4, 1), t_translate(0, 0, 5));
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  cad_engine_destroy(e);
}

/* SEMANTICS.md §2.3: "`rotation` (= rotation.z)" */
TEST(transform_rotation_is_rotation_z) {
  static const kp_default plain_rotation[] = {
      {"transform.rotation", 1, {0}},
      {"sublayerTransform.rotation", 1, {0}},
  };
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want = t_rot_z(0.3);
  check_defaults(plain_rotation, 2);
  t_set1(e, l, "transform.rotation", 0.3);
  EXPECT_NEAR(t_get1(e, l, "transform.rotation.z"), 0.3, 1e-12);
  t_getn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  cad_engine_destroy(e);
}

TEST(rotation_x_and_y) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want = t_rot_x(0.5);
  t_set1(e, l, "transform.rotation.x", 0.5);
  t_getn(e, l, "transform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  t_set1(e, l, "sublayerTransform.rotation.y", -0.7);
  t_getn(e, l, "sublayerTransform", m, 16);
  want = t_rot_y(-0.7);
  EXPECT_VEC_NEAR(m, want.m, 16, 1e-12);
  EXPECT_NEAR(t_get1(e, l, "sublayerTransform.rotation.y"), -0.7, 1e-12);
  cad_engine_destroy(e);
}

TEST(matrix_elements_are_plain_components) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double m[16];
  t_mat want = t_perspective(500);
  t_set1(e, l, "sublayerTransform.m34", -1.0 / 500);
  t_getn(e, l, "sublayerTransform", m, 16);
  EXPECT_VEC_NEAR(m, want.m, 16, 0);
  t_set1(e, l, "transform.m41", 9);
  t_set1(e, l, "transform.m23", 0.5);
  t_getn(e, l, "transform", m, 16);
  want = t_identity();
  want.m[12] = 9;
  want.m[6] = 0.5;
  EXPECT_VEC_NEAR(m, want.m, 16, 0);
  cad_engine_destroy(e);
}

/* frame with bounds 100x100 at position (50,50), SEMANTICS.md §2.1 */
TEST(frame_examples) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double f[4];
  t_set4(e, l, "bounds", 0, 0, 100, 100);
  t_set2(e, l, "position", 50, 50);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {0, 0, 100, 100};
    EXPECT_VEC_NEAR(f, want, 4, 1e-12);
  }
  t_set2(e, l, "anchorPoint", 0, 0);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {50, 50, 100, 100};
    EXPECT_VEC_NEAR(f, want, 4, 1e-12);
  }
  t_set2(e, l, "anchorPoint", 1, 1);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {-50, -50, 100, 100};
    EXPECT_VEC_NEAR(f, want, 4, 1e-12);
  }
  /* bounds.origin does not move the frame */
  t_set2(e, l, "bounds.origin", 20, 30);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {-50, -50, 100, 100};
    EXPECT_VEC_NEAR(f, want, 4, 1e-12);
  }
  cad_engine_destroy(e);
}

TEST(frame_with_transform_is_bounding_box) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double f[4];
  t_set4(e, l, "bounds", 0, 0, 100, 100);
  t_set2(e, l, "position", 50, 50);
  t_set1(e, l, "transform.scale", 2);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {-50, -50, 200, 200};
    EXPECT_VEC_NEAR(f, want, 4, 1e-9);
  }
  /* a 100x50 rectangle turned a quarter turn about its centre at (0,0) */
  t_set1(e, l, "transform.scale", 1);
  t_set4(e, l, "bounds", 0, 0, 100, 50);
  t_set2(e, l, "position", 0, 0);
  t_set1(e, l, "transform.rotation.z", T_PI / 2);
  t_getn(e, l, "frame", f, 4);
  {
    double want[4] = {-25, -50, 50, 100};
    EXPECT_VEC_NEAR(f, want, 4, 1e-9);
  }
  cad_engine_destroy(e);
}

TEST(setting_frame_sets_position_and_bounds_size) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[4];
  t_set2(e, l, "bounds.origin", 5, 6);
  t_set4(e, l, "frame", 10, 20, 30, 40);
  t_getn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 25, 1e-12);
  EXPECT_NEAR(v[1], 40, 1e-12);
  t_getn(e, l, "bounds", v, 4);
  {
    double want[4] = {5, 6, 30, 40}; /* bounds.origin is kept */
    EXPECT_VEC_NEAR(v, want, 4, 1e-12);
  }
  t_getn(e, l, "frame", v, 4);
  {
    double want[4] = {10, 20, 30, 40};
    EXPECT_VEC_NEAR(v, want, 4, 1e-12);
  }
  t_set2(e, l, "anchorPoint", 0, 1);
  t_set4(e, l, "frame", 1, 2, 3, 4);
  t_getn(e, l, "position", v, 2);
  EXPECT_NEAR(v[0], 1, 1e-12);
  EXPECT_NEAR(v[1], 6, 1e-12);
  cad_engine_destroy(e);
}

TEST(wrong_component_count_is_type_mismatch) {
  static const struct {
    const char *kp;
    int32_t n;
  } cases[] = {
      {"position", 1},          {"position", 3},         {"transform", 15},
      {"transform", 4},         {"opacity", 2},          {"opacity", 0},
      {"bounds", 2},            {"backgroundColor", 3},  {"frame", 2},
      {"position.x", 2},        {"bounds.origin", 1},    {"transform.translation", 1},
      {"transform.rotation.z", 2}, {"sublayerTransform.m34", 16}, {"speed", 2},
      {"hidden", 2},
  };
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[17] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  double pos[2];
  size_t i;
  t_set2(e, l, "position", 3, 4);
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cad_status s = cad_layer_set(e, l, cases[i].kp, v, cases[i].n);
    if (s != CAD_ERR_TYPE_MISMATCH)
      cad_test_fail_(__FILE__, __LINE__, "set \"%s\" with %d values: expected CAD_ERR_TYPE_MISMATCH, got %s",
                     cases[i].kp, (int)cases[i].n, cad_status_name(s));
    else {
      /* the message names the key path (made only on this error) */
      char want[64];
      snprintf(want, sizeof want, "\"%s\" takes ", cases[i].kp);
      if (!strstr(cad_last_error(), want))
        cad_test_fail_(__FILE__, __LINE__, "set \"%s\": message \"%s\" does not name it", cases[i].kp, cad_last_error());
    }
  }
  /* nothing changed */
  t_getn(e, l, "position", pos, 2);
  EXPECT_NEAR(pos[0], 3, 0);
  EXPECT_NEAR(pos[1], 4, 0);
  EXPECT_NEAR(t_get1(e, l, "opacity"), 1, 0);
  EXPECT_NEAR(t_get1(e, l, "transform.m11"), 1, 0);
  EXPECT_NEAR(t_get1(e, l, "speed"), 1, 0);
  cad_engine_destroy(e);
}

TEST(non_finite_values_are_invalid) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[16];
  double pos[2];
  int i;
  t_set2(e, l, "position", 3, 4);
  v[0] = NAN; v[1] = 0;
  EXPECT_STATUS(cad_layer_set(e, l, "position", v, 2), CAD_ERR_INVALID_ARGUMENT);
  v[0] = 0; v[1] = INFINITY;
  EXPECT_STATUS(cad_layer_set(e, l, "position", v, 2), CAD_ERR_INVALID_ARGUMENT);
  v[0] = -INFINITY;
  EXPECT_STATUS(cad_layer_set(e, l, "position.x", v, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_set(e, l, "opacity", v, 1), CAD_ERR_INVALID_ARGUMENT);
  v[0] = NAN;
  EXPECT_STATUS(cad_layer_set(e, l, "beginTime", v, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_set(e, l, "transform.rotation.z", v, 1), CAD_ERR_INVALID_ARGUMENT);
  for (i = 0; i < 16; i++) v[i] = (i % 5 == 0) ? 1 : 0;
  v[11] = NAN;
  EXPECT_STATUS(cad_layer_set(e, l, "transform", v, 16), CAD_ERR_INVALID_ARGUMENT);
  v[0] = 0; v[1] = 0; v[2] = NAN; v[3] = 10;
  EXPECT_STATUS(cad_layer_set(e, l, "frame", v, 4), CAD_ERR_INVALID_ARGUMENT);
  /* nothing changed */
  t_getn(e, l, "position", pos, 2);
  EXPECT_NEAR(pos[0], 3, 0);
  EXPECT_NEAR(pos[1], 4, 0);
  EXPECT_NEAR(t_get1(e, l, "opacity"), 1, 0);
  EXPECT_NEAR(t_get1(e, l, "transform.m34"), 0, 0);
  EXPECT_NEAR(t_get1(e, l, "bounds.size.width"), 0, 0);
  cad_engine_destroy(e);
}

TEST(infinite_repeat_fields_are_allowed) {
  /* "except where a field documents infinity, like repeatCount" */
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double inf = INFINITY;
  EXPECT_OK(cad_layer_set(e, l, "repeatCount", &inf, 1));
  EXPECT_TRUE(isinf(t_get1(e, l, "repeatCount")));
  EXPECT_OK(cad_layer_set(e, l, "repeatDuration", &inf, 1));
  EXPECT_TRUE(isinf(t_get1(e, l, "repeatDuration")));
  cad_engine_destroy(e);
}

TEST(unknown_key_paths) {
  static const char *const bad[] = {
      "",
      "positio",
      "Position",
      "position.z",
      "position.",
      ".position",
      "position..x",
      "position.x.y",
      "bounds.size.depth",
      "bounds.width",
      "opacity.x",
      "backgroundColor.x",
      "transform.rotation.w",
      "transform.m55",
      "transform.m10",
      "transform.scale.w",
      "sublayerTransform.translation.w",
      "layer.position",
      "zPosition.x",
      "position x",
      "a_very_long_key_path_that_names_nothing_at_all_and_goes_on_and_on_and_on_and_on_and_on",
  };
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[16] = {0};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int32_t n = -7;
    cad_status s1 = cad_layer_set(e, l, bad[i], v, 1);
    cad_status s2 = cad_layer_get(e, l, bad[i], v, 16, &n);
    cad_status s3 = cad_layer_presentation(e, l, bad[i], v, 16, &n);
    if (s1 != CAD_ERR_UNKNOWN_KEYPATH || s2 != CAD_ERR_UNKNOWN_KEYPATH ||
        s3 != CAD_ERR_UNKNOWN_KEYPATH)
      cad_test_fail_(__FILE__, __LINE__, "\"%s\": set %s, get %s, presentation %s (want CAD_ERR_UNKNOWN_KEYPATH)",
                     bad[i], cad_status_name(s1), cad_status_name(s2), cad_status_name(s3));
    EXPECT_INT_EQ(n, -7);
  }
  cad_engine_destroy(e);
}

TEST(null_arguments) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[2] = {1, 2};
  int32_t n;
  EXPECT_STATUS(cad_layer_set(e, l, NULL, v, 2), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_set(e, l, "position", NULL, 2), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_get(e, l, NULL, v, 2, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_get(e, l, "position", NULL, 2, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_presentation(e, l, NULL, v, 2, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_set(e, l, "position", v, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_layer_get(e, l, "position", v, -1, &n), CAD_ERR_INVALID_ARGUMENT);
  cad_engine_destroy(e);
}

TEST(buffer_too_small_writes_only_the_count) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double out[16];
  int32_t n = -1;
  int i;
  t_set2(e, l, "position", 3, 4);
  for (i = 0; i < 16; i++) out[i] = 777;
  EXPECT_STATUS(cad_layer_get(e, l, "position", out, 1, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 777, 0);
  n = -1;
  EXPECT_STATUS(cad_layer_presentation(e, l, "position", out, 1, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 777, 0);
  n = -1;
  EXPECT_STATUS(cad_layer_get(e, l, "transform", out, 15, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 16);
  for (i = 0; i < 16; i++) EXPECT_NEAR(out[i], 777, 0);
  n = -1;
  EXPECT_STATUS(cad_layer_get(e, l, "frame", out, 3, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 4);
  n = -1;
  EXPECT_STATUS(cad_layer_get(e, l, "opacity", out, 0, &n), CAD_ERR_BUFFER_TOO_SMALL);
  EXPECT_INT_EQ(n, 1);
  EXPECT_NEAR(out[0], 777, 0);
  /* a larger buffer is fine: n_out is the count written */
  n = -1;
  EXPECT_OK(cad_layer_get(e, l, "position", out, 16, &n));
  EXPECT_INT_EQ(n, 2);
  EXPECT_NEAR(out[0], 3, 0);
  EXPECT_NEAR(out[1], 4, 0);
  EXPECT_NEAR(out[2], 777, 0);
  cad_engine_destroy(e);
}

TEST(contents_id) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  uint64_t c = 1;
  EXPECT_OK(cad_layer_get_contents(e, l, &c));
  EXPECT_U64_EQ(c, 0);
  /* the full 64-bit range survives (it is not passed through a double) */
  EXPECT_OK(cad_layer_set_contents(e, l, UINT64_MAX));
  EXPECT_OK(cad_layer_get_contents(e, l, &c));
  EXPECT_U64_EQ(c, UINT64_MAX);
  EXPECT_OK(cad_layer_set_contents(e, l, 0x123456789abcdef1ull));
  EXPECT_OK(cad_layer_get_contents(e, l, &c));
  EXPECT_U64_EQ(c, 0x123456789abcdef1ull);
  cad_engine_destroy(e);
}

TEST(timing_fields_never_run_actions) {
  static const char *const timing[] = {"beginTime", "speed", "timeOffset", "duration",
                                       "repeatCount", "repeatDuration", "autoreverses",
                                       "fillMode"};
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e), m = t_layer(e);
  size_t i;
  t_tick(e, 1); /* the layers are no longer new: changes run actions */
  for (i = 0; i < sizeof timing / sizeof timing[0]; i++) t_set1(e, l, timing[i], 1);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  /* whereas an animatable property does */
  t_set1(e, m, "opacity", 0);
  EXPECT_INT_EQ(t_anim_count(e, m), 1);
  cad_engine_destroy(e);
}

TEST(non_animatable_keys_run_no_actions) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  t_tick(e, 1);
  t_set1(e, l, "masksToBounds", 1);
  t_set1(e, l, "doubleSided", 0);
  EXPECT_NEAR(t_get1(e, l, "masksToBounds"), 1, 0);
  EXPECT_NEAR(t_get1(e, l, "doubleSided"), 0, 0);
  t_tick(e, 1.1);
  EXPECT_NEAR(t_pres1(e, l, "masksToBounds"), 1, 0);
  EXPECT_NEAR(t_pres1(e, l, "doubleSided"), 0, 0);
  cad_engine_destroy(e);
}

/* cad_layer_presentation_contents: all 64 bits of the presentation contents
   id (cad_layer_presentation of "contents" is a double: 2^64 - 1 reads as
   2^64). Set with actions off, so the presentation is the model at once. */
TEST(presentation_contents_all_64_bits) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  uint64_t id = UINT64_MAX, got = 0, odd = 0x9E3779B97F4A7C15ull;
  double d[1];
  int32_t n = 0;
  EXPECT_OK(cad_layer_set_actions_enabled(e, l, 0));
  EXPECT_OK(cad_layer_set_contents(e, l, id));
  EXPECT_OK(cad_layer_presentation_contents(e, l, &got));
  EXPECT_U64_EQ(got, id);
  EXPECT_OK(cad_layer_presentation(e, l, "contents", d, 1, &n));
  EXPECT_TRUE(d[0] == 18446744073709551616.0);   /* the double rounds up */
  EXPECT_OK(cad_layer_set_contents(e, l, odd));
  EXPECT_OK(cad_layer_presentation_contents(e, l, &got));
  EXPECT_U64_EQ(got, odd);
  EXPECT_STATUS(cad_layer_presentation_contents(e, l, NULL), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_OK(cad_layer_destroy(e, l));
  got = 7;
  EXPECT_STATUS(cad_layer_presentation_contents(e, l, &got), CAD_ERR_INVALID_HANDLE);
  EXPECT_U64_EQ(got, 7);
  cad_engine_destroy(e);
}

/* Reads the key path now in `kp` (count and up to two values). */
static void expect_read_(int line, cad_engine *e, cad_layer l, const char *kp, int presentation, int32_t count,
                         double x, double y) {
  double out[4] = {-1, -1, -1, -1};
  int32_t n = -1;
  cad_status st = presentation ? cad_layer_presentation(e, l, kp, out, 4, &n) : cad_layer_get(e, l, kp, out, 4, &n);
  if (st != CAD_OK || n != count || out[0] != x || (count > 1 && out[1] != y)) {
    cad_test_true_(__FILE__, line, "expect_read", 0);
    fprintf(stderr, "    \"%s\": status %d, n %d, values %g %g (want %d: %g %g)\n", kp, (int)st, (int)n, out[0], out[1],
            (int)count, x, y);
  }
}
#define EXPECT_READ(e, l, kp, count, x, y) expect_read_(__LINE__, e, l, kp, 0, count, x, y)
#define EXPECT_PRES(e, l, kp, count, x, y) expect_read_(__LINE__, e, l, kp, 1, count, x, y)

/* The engine remembers the last key path it looked up by its bytes, not its
   address: a host that formats key paths into one buffer gets each key's own
   value, and an unknown key, a longer or shorter key or another engine never
   reuses another key's target. */
TEST(key_path_buffer_reused_for_other_keys) {
  cad_engine *e = t_engine();
  cad_engine *e2 = t_engine();
  cad_layer l = t_layer(e);
  cad_layer l2 = t_layer(e2);
  char kp[96];
  double out[4];
  int32_t n = -1;
  t_set2(e, l, "position", 3, 4);
  t_set1(e, l, "opacity", 0.25);
  t_set1(e2, l2, "opacity", 0.75);

  strcpy(kp, "opacity");
  EXPECT_READ(e, l, kp, 1, 0.25, 0);
  strcpy(kp, "position"); /* same address, another key of another length */
  EXPECT_READ(e, l, kp, 2, 3, 4);
  strcpy(kp, "position.x");
  EXPECT_READ(e, l, kp, 1, 3, 0);
  kp[9] = 'y'; /* same length, last byte differs */
  EXPECT_READ(e, l, kp, 1, 4, 0);
  /* a longer key sharing the prefix, and a shorter one */
  strcpy(kp, "position.yy");
  EXPECT_STATUS(cad_layer_get(e, l, kp, out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  kp[8] = 0; /* "position" */
  EXPECT_READ(e, l, kp, 2, 3, 4);
  kp[7] = 0; /* "positio" */
  EXPECT_STATUS(cad_layer_get(e, l, kp, out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  /* an unknown key does not displace the last known one */
  strcpy(kp, "opacity");
  EXPECT_READ(e, l, kp, 1, 0.25, 0);
  EXPECT_STATUS(cad_layer_get(e, l, "opacitx", out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_READ(e, l, kp, 1, 0.25, 0);
  /* keys of 63, 64 and 95 bytes: unknown, whatever was looked up before */
  memset(kp, 'x', sizeof kp);
  kp[63] = 0;
  EXPECT_STATUS(cad_layer_get(e, l, kp, out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  EXPECT_STATUS(cad_layer_get(e, l, kp, out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  kp[63] = 'x';
  kp[64] = 0;
  EXPECT_STATUS(cad_layer_get(e, l, kp, out, 4, &n), CAD_ERR_UNKNOWN_KEYPATH);
  kp[64] = 'x';
  kp[95] = 0;
  EXPECT_STATUS(cad_layer_set(e, l, kp, out, 1), CAD_ERR_UNKNOWN_KEYPATH);
  /* set and presentation go through the same lookup */
  strcpy(kp, "position.x");
  out[0] = 9;
  EXPECT_OK(cad_layer_set(e, l, kp, out, 1));
  strcpy(kp, "position");
  EXPECT_PRES(e, l, kp, 2, 9, 4);
  /* each engine has its own */
  strcpy(kp, "opacity");
  EXPECT_READ(e, l, kp, 1, 0.25, 0);
  EXPECT_READ(e2, l2, kp, 1, 0.75, 0);
  EXPECT_STATUS(cad_layer_get(e2, l, kp, out, 4, &n), CAD_ERR_INVALID_HANDLE);
  /* NULL key path after a cached one */
  EXPECT_STATUS(cad_layer_get(e, l, NULL, out, 4, &n), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_READ(e, l, kp, 1, 0.25, 0);
  cad_engine_destroy(e2);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(presentation_contents_all_64_bits),
    TEST_ENTRY(defaults_and_component_counts),
    TEST_ENTRY(sub_key_defaults_and_component_counts),
    TEST_ENTRY(set_get_round_trip),
    TEST_ENTRY(sub_keys_change_one_component),
    TEST_ENTRY(transform_virtual_keys),
    TEST_ENTRY(transform_scale_reads_mean_of_x_and_y),
    TEST_ENTRY(transform_rotation_is_rotation_z),
    TEST_ENTRY(rotation_x_and_y),
    TEST_ENTRY(matrix_elements_are_plain_components),
    TEST_ENTRY(frame_examples),
    TEST_ENTRY(frame_with_transform_is_bounding_box),
    TEST_ENTRY(setting_frame_sets_position_and_bounds_size),
    TEST_ENTRY(wrong_component_count_is_type_mismatch),
    TEST_ENTRY(non_finite_values_are_invalid),
    TEST_ENTRY(infinite_repeat_fields_are_allowed),
    TEST_ENTRY(unknown_key_paths),
    TEST_ENTRY(null_arguments),
    TEST_ENTRY(buffer_too_small_writes_only_the_count),
    TEST_ENTRY(contents_id),
    TEST_ENTRY(timing_fields_never_run_actions),
    TEST_ENTRY(non_animatable_keys_run_no_actions),
    TEST_ENTRY(key_path_buffer_reused_for_other_keys),
};

TEST_MAIN("properties")
