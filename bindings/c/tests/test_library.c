/* Library: version, ABI, status names, last error, layout check (API.md "Library"). */
#include "test_util.h"

TEST(version_string_matches_header) {
  const char *v = cad_version_string();
  char expect[64];
  ASSERT_TRUE(v != NULL);
  EXPECT_STR_EQ(v, CAD_VERSION_STRING);
  sprintf(expect, "%d.%d.%d", CAD_VERSION_MAJOR, CAD_VERSION_MINOR, CAD_VERSION_PATCH);
  EXPECT_STR_EQ(v, expect);
}

TEST(version_string_is_major_minor_patch) {
  const char *v = cad_version_string();
  unsigned a = 0, b = 0, c = 0;
  char tail = 0;
  ASSERT_TRUE(v != NULL);
  EXPECT_INT_EQ(sscanf(v, "%u.%u.%u%c", &a, &b, &c, &tail), 3);
  /* static storage: the same pointer each time */
  EXPECT_TRUE(cad_version_string() == v);
}

TEST(abi_version_matches_header) {
  EXPECT_U64_EQ(cad_abi_version(), CAD_ABI_VERSION);
}

TEST(layout_check) {
  EXPECT_TRUE(CAD_CHECK_LAYOUT());
  EXPECT_U64_EQ(cad_sizeof_render_item(), sizeof(cad_render_item));
  EXPECT_U64_EQ(cad_sizeof_event(), sizeof(cad_event));
}

TEST(status_values_are_stable) {
  EXPECT_INT_EQ(CAD_OK, 0);
  EXPECT_INT_EQ(CAD_ERR_INVALID_HANDLE, -1);
  EXPECT_INT_EQ(CAD_ERR_INVALID_ARGUMENT, -2);
  EXPECT_INT_EQ(CAD_ERR_UNKNOWN_KEYPATH, -3);
  EXPECT_INT_EQ(CAD_ERR_TYPE_MISMATCH, -4);
  EXPECT_INT_EQ(CAD_ERR_BUFFER_TOO_SMALL, -5);
  EXPECT_INT_EQ(CAD_ERR_NOT_FOUND, -6);
  EXPECT_INT_EQ(CAD_ERR_INVALID_STATE, -7);
  EXPECT_INT_EQ(CAD_ERR_OUT_OF_MEMORY, -8);
}

TEST(status_names) {
  EXPECT_STR_EQ(cad_status_name(CAD_OK), "CAD_OK");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_INVALID_HANDLE), "CAD_ERR_INVALID_HANDLE");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_INVALID_ARGUMENT), "CAD_ERR_INVALID_ARGUMENT");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_UNKNOWN_KEYPATH), "CAD_ERR_UNKNOWN_KEYPATH");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_TYPE_MISMATCH), "CAD_ERR_TYPE_MISMATCH");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_BUFFER_TOO_SMALL), "CAD_ERR_BUFFER_TOO_SMALL");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_NOT_FOUND), "CAD_ERR_NOT_FOUND");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_INVALID_STATE), "CAD_ERR_INVALID_STATE");
  EXPECT_STR_EQ(cad_status_name(CAD_ERR_OUT_OF_MEMORY), "CAD_ERR_OUT_OF_MEMORY");
}

TEST(status_name_of_unknown_values) {
  EXPECT_STR_EQ(cad_status_name(1), "CAD_ERR_UNKNOWN");
  EXPECT_STR_EQ(cad_status_name(-9), "CAD_ERR_UNKNOWN");
  EXPECT_STR_EQ(cad_status_name(-1000), "CAD_ERR_UNKNOWN");
  EXPECT_STR_EQ(cad_status_name(INT32_MIN), "CAD_ERR_UNKNOWN");
  EXPECT_STR_EQ(cad_status_name(INT32_MAX), "CAD_ERR_UNKNOWN");
}

TEST(last_error_is_empty_before_any_failure) {
  /* each test runs in a fresh process (or thread state): nothing failed yet */
  const char *m = cad_last_error();
  ASSERT_TRUE(m != NULL);
  EXPECT_STR_EQ(m, "");
}

TEST(last_error_describes_the_failure) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  double v[2] = {1, 2};
  const char *m;
  EXPECT_STATUS(cad_layer_set(e, l, "positionn", v, 2), CAD_ERR_UNKNOWN_KEYPATH);
  m = cad_last_error();
  ASSERT_TRUE(m != NULL);
  EXPECT_TRUE(strlen(m) > 0);
  /* words a host developer can act on: it names the offending key path */
  EXPECT_TRUE(strstr(m, "positionn") != NULL);

  EXPECT_STATUS(cad_layer_set(e, l, "position", v, 3), CAD_ERR_TYPE_MISMATCH);
  m = cad_last_error();
  EXPECT_TRUE(m != NULL && strlen(m) > 0);

  EXPECT_STATUS(cad_layer_set(e, 0, "position", v, 2), CAD_ERR_INVALID_HANDLE);
  m = cad_last_error();
  EXPECT_TRUE(m != NULL && strlen(m) > 0);
  cad_engine_destroy(e);
}

TEST(media_time_is_monotonic) {
  double a = cad_media_time();
  double b = cad_media_time();
  double c = cad_media_time();
  EXPECT_TRUE(isfinite(a));
  EXPECT_TRUE(a >= 0);
  EXPECT_TRUE(b >= a);
  EXPECT_TRUE(c >= b);
}

TEST(engine_destroy_null_is_noop) {
  cad_engine_destroy(NULL);
  EXPECT_TRUE(1);
}

TEST_LIST = {
    TEST_ENTRY(version_string_matches_header),
    TEST_ENTRY(version_string_is_major_minor_patch),
    TEST_ENTRY(abi_version_matches_header),
    TEST_ENTRY(layout_check),
    TEST_ENTRY(status_values_are_stable),
    TEST_ENTRY(status_names),
    TEST_ENTRY(status_name_of_unknown_values),
    TEST_ENTRY(last_error_is_empty_before_any_failure),
    TEST_ENTRY(last_error_describes_the_failure),
    TEST_ENTRY(media_time_is_monotonic),
    TEST_ENTRY(engine_destroy_null_is_noop),
};

TEST_MAIN("library")
