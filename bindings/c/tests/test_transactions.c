/* Transactions and implicit actions (SEMANTICS.md §10). */
#include <string.h>
#include "test_util.h"

/* the `default` curve, CA's curve for implicit animations */
static double ease_default(double x) { return t_bezier_y(0.25, 0.1, 0.25, 1, x); }

static cad_layer settled_layer(cad_engine *e) {
  cad_layer l = t_layer(e);
  t_tick(e, 0); /* no longer new: changes run actions */
  return l;
}

static int has_animation(cad_engine *e, cad_layer l, const char *key) {
  cad_anim a = 0;
  cad_status s = cad_layer_animation_for_key(e, l, key, &a);
  return s == CAD_OK && a != 0;
}

TEST(new_layers_take_values_without_animation) {
  cad_engine *e = t_engine();
  cad_layer l = t_layer(e);
  t_set1(e, l, "opacity", 0);
  t_set2(e, l, "position", 10, 10);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  t_tick(e, 0.1);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0, 0);
  cad_engine_destroy(e);
}

TEST(default_action) {
  /* 0.25 s, default curve, from the presentation value to the new model value,
     under the key path as key */
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  t_set1(e, l, "opacity", 0);
  EXPECT_NEAR(t_get1(e, l, "opacity"), 0, 0); /* the model changes at once */
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  EXPECT_TRUE(has_animation(e, l, "opacity"));
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 1, 1e-9);
  t_tick(e, 0.125);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 1 - ease_default(0.5), 2e-7);
  t_tick(e, 0.2);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 1 - ease_default(0.8), 2e-7);
  t_tick(e, 0.25);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0, 1e-9);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  cad_engine_destroy(e);
}

TEST(sub_key_action_uses_the_key_path) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  t_set1(e, l, "position.x", 100);
  EXPECT_TRUE(has_animation(e, l, "position.x"));
  t_tick(e, 0.125);
  EXPECT_NEAR(t_pres1(e, l, "position.x"), 100 * ease_default(0.5), 1e-5);
  EXPECT_NEAR(t_pres1(e, l, "position.y"), 0, 0);
  cad_engine_destroy(e);
}

TEST(retarget_is_continuous) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  double before, after;
  t_set1(e, l, "zPosition", 100);
  t_tick(e, 0.1);
  before = t_pres1(e, l, "zPosition");
  t_set1(e, l, "zPosition", -50);
  after = t_pres1(e, l, "zPosition");
  EXPECT_NEAR(after, before, 1e-9);
  EXPECT_INT_EQ(t_anim_count(e, l), 1); /* replaced under the same key */
  t_tick(e, 0.1 + 0.125);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), before + (-50 - before) * ease_default(0.5), 1e-5);
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), -50, 1e-9);
  cad_engine_destroy(e);
}

TEST(disable_actions) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e), m = t_layer(e);
  t_tick(e, 0);
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_disable_actions(e, 1));
  t_set1(e, l, "opacity", 0);
  ASSERT_OK(cad_transaction_commit(e));
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0, 0);
  /* per layer */
  ASSERT_OK(cad_layer_set_actions_enabled(e, m, 0));
  t_set1(e, m, "opacity", 0);
  EXPECT_INT_EQ(t_anim_count(e, m), 0);
  ASSERT_OK(cad_layer_set_actions_enabled(e, m, 1));
  t_set1(e, m, "opacity", 1);
  EXPECT_INT_EQ(t_anim_count(e, m), 1);
  cad_engine_destroy(e);
}

TEST(no_action_marker_and_clear) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  ASSERT_OK(cad_layer_set_action(e, l, "opacity", 0));
  t_set1(e, l, "opacity", 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  t_set1(e, l, "zPosition", 1); /* other keys keep their default action */
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  ASSERT_OK(cad_layer_clear_action(e, l, "opacity"));
  t_set1(e, l, "opacity", 1);
  EXPECT_INT_EQ(t_anim_count(e, l), 2);
  cad_engine_destroy(e);
}

TEST(custom_action_keeps_its_duration_and_curve) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  ASSERT_OK(cad_anim_set_duration(e, a, 1));
  ASSERT_OK(cad_anim_set_timing_function(e, a, CAD_TIMING_LINEAR));
  ASSERT_OK(cad_layer_set_action(e, l, "opacity", a));
  ASSERT_OK(cad_anim_destroy(e, a)); /* copied by set_action */
  t_set1(e, l, "opacity", 0);
  t_tick(e, 0.5);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.5, 1e-9);
  /* it runs again (copied each time) */
  t_tick(e, 2);
  t_set1(e, l, "opacity", 1);
  t_tick(e, 2.25);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.25, 1e-9);
  cad_engine_destroy(e);
}

TEST(transaction_duration_and_curve) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_duration(e, 1));
  ASSERT_OK(cad_transaction_set_timing_function(e, CAD_TIMING_LINEAR));
  t_set1(e, l, "opacity", 0);
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 0.25);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.75, 1e-9);
  cad_engine_destroy(e);
}

TEST(transaction_bezier) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_timing_bezier(e, 0.42, 0, 0.58, 1));
  t_set1(e, l, "zPosition", 1);
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 0.075); /* x = 0.3 of 0.25 s */
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), t_bezier_y(0.42, 0, 0.58, 1, 0.3), 2e-7);
  cad_engine_destroy(e);
}

TEST(nested_settings_apply_inside) {
  /* outer default (0.25 s); inner 2 s: each change uses the settings of the
     transaction it was made in */
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_timing_function(e, CAD_TIMING_LINEAR));
  t_set1(e, l, "opacity", 0);
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_duration(e, 2));
  ASSERT_OK(cad_transaction_set_timing_function(e, CAD_TIMING_LINEAR));
  t_set1(e, l, "zPosition", 10);
  ASSERT_OK(cad_transaction_commit(e));
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 0.125);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.5, 1e-9);
  EXPECT_NEAR(t_pres1(e, l, "zPosition"), 10 * 0.125 / 2, 1e-9);
  cad_engine_destroy(e);
}

TEST(unbalanced_commit) {
  cad_engine *e = t_engine();
  EXPECT_STATUS(cad_transaction_commit(e), CAD_ERR_INVALID_STATE);
  ASSERT_OK(cad_transaction_begin(e));
  EXPECT_OK(cad_transaction_commit(e));
  EXPECT_STATUS(cad_transaction_commit(e), CAD_ERR_INVALID_STATE);
  cad_engine_destroy(e);
}

TEST(invalid_settings) {
  cad_engine *e = t_engine();
  ASSERT_OK(cad_transaction_begin(e));
  EXPECT_STATUS(cad_transaction_set_duration(e, -1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_transaction_set_duration(e, NAN), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_transaction_set_timing_function(e, (cad_timing_name)9), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_STATUS(cad_transaction_set_timing_bezier(e, 2, 0, 0.5, 1), CAD_ERR_INVALID_ARGUMENT);
  EXPECT_OK(cad_transaction_commit(e));
  cad_engine_destroy(e);
}

static int completions;
static void *completion_data;
static void on_complete(cad_engine *e, void *userdata) {
  (void)e;
  completions++;
  completion_data = userdata;
}

TEST(completion_after_animations_stop) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  int token = 0;
  int64_t id = 0;
  cad_event ev[8];
  int n, i, found = 0;
  completions = 0;
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_id(e, &id));
  EXPECT_TRUE(id != 0);
  ASSERT_OK(cad_transaction_set_completion(e, on_complete, &token));
  t_set1(e, l, "opacity", 0);
  ASSERT_OK(cad_transaction_commit(e));
  EXPECT_INT_EQ(completions, 0);
  t_tick(e, 0.1);
  EXPECT_INT_EQ(completions, 0);
  t_tick(e, 0.3);
  EXPECT_INT_EQ(completions, 1);
  EXPECT_TRUE(completion_data == &token);
  t_tick(e, 1);
  EXPECT_INT_EQ(completions, 1);
  n = t_drain(e, ev, 8);
  for (i = 0; i < n && i < 8; i++) {
    if (ev[i].kind != CAD_EVENT_TRANSACTION_COMPLETE) continue;
    found++;
    EXPECT_INT_EQ(ev[i].tag, id);
    EXPECT_U64_EQ(ev[i].layer, 0);
  }
  EXPECT_INT_EQ(found, 1);
  cad_engine_destroy(e);
}

TEST(completion_at_commit_without_animations) {
  cad_engine *e = t_engine();
  completions = 0;
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_completion(e, on_complete, NULL));
  ASSERT_OK(cad_transaction_commit(e));
  EXPECT_INT_EQ(completions, 1);
  cad_engine_destroy(e);
}

TEST(contents_change_fades) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  ASSERT_OK(cad_layer_set_contents(e, l, 42));
  EXPECT_TRUE(has_animation(e, l, "transition"));
  /* not when actions are disabled */
  ASSERT_OK(cad_layer_remove_all_animations(e, l));
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_disable_actions(e, 1));
  ASSERT_OK(cad_layer_set_contents(e, l, 43));
  ASSERT_OK(cad_transaction_commit(e));
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  cad_engine_destroy(e);
}

TEST(layer_created_later_is_new_until_next_tick) {
  cad_engine *e = t_engine();
  cad_layer l;
  t_tick(e, 1);
  l = t_layer(e);
  t_set1(e, l, "opacity", 0);
  EXPECT_INT_EQ(t_anim_count(e, l), 0);
  t_tick(e, 2);
  t_set1(e, l, "opacity", 1);
  EXPECT_INT_EQ(t_anim_count(e, l), 1);
  cad_engine_destroy(e);
}

TEST(action_without_duration_uses_the_transactions) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  cad_anim a = t_anim(e, CAD_ANIM_BASIC, "opacity");
  ASSERT_OK(cad_anim_set_timing_function(e, a, CAD_TIMING_LINEAR));
  ASSERT_OK(cad_layer_set_action(e, l, "opacity", a));
  ASSERT_OK(cad_anim_destroy(e, a));
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_duration(e, 2));
  t_set1(e, l, "opacity", 0);
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 1);
  EXPECT_NEAR(t_pres1(e, l, "opacity"), 0.5, 1e-9);
  cad_engine_destroy(e);
}

TEST(completion_waits_for_explicit_animations) {
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  completions = 0;
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_completion(e, on_complete, NULL));
  t_add(e, l, t_basic1(e, "zPosition", 0, 1, 2), "long");
  t_set1(e, l, "opacity", 0.5); /* implicit, 0.25 s */
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 1);
  EXPECT_INT_EQ(completions, 0);
  t_tick(e, 2.5);
  EXPECT_INT_EQ(completions, 1);
  cad_engine_destroy(e);
}

TEST(completion_when_animation_is_removed) {
  /* "has stopped": removal counts */
  cad_engine *e = t_engine();
  cad_layer l = settled_layer(e);
  completions = 0;
  ASSERT_OK(cad_transaction_begin(e));
  ASSERT_OK(cad_transaction_set_completion(e, on_complete, NULL));
  t_add(e, l, t_basic1(e, "zPosition", 0, 1, 100), "long");
  ASSERT_OK(cad_transaction_commit(e));
  t_tick(e, 1);
  EXPECT_INT_EQ(completions, 0);
  ASSERT_OK(cad_layer_remove_animation(e, l, "long"));
  t_tick(e, 2);
  EXPECT_INT_EQ(completions, 1);
  cad_engine_destroy(e);
}

/* A setter called outside a transaction: CAD_ERR_INVALID_STATE, and the
   message names the call the host made (the two timing setters share one
   setter inside the library; the message named the other one). */
TEST(setters_need_an_open_transaction_and_say_which_call) {
  cad_engine *e = t_engine();
  EXPECT_STATUS(cad_transaction_set_timing_bezier(e, 0.25, 0.1, 0.25, 1), CAD_ERR_INVALID_STATE);
  EXPECT_TRUE(strncmp(cad_last_error(), "cad_transaction_set_timing_bezier:", 34) == 0);
  EXPECT_TRUE(strstr(cad_last_error(), "cad_transaction_set_timing_function") == NULL);
  EXPECT_STATUS(cad_transaction_set_timing_function(e, CAD_TIMING_EASE_IN), CAD_ERR_INVALID_STATE);
  EXPECT_TRUE(strncmp(cad_last_error(), "cad_transaction_set_timing_function:", 36) == 0);
  EXPECT_STATUS(cad_transaction_set_duration(e, 1), CAD_ERR_INVALID_STATE);
  EXPECT_TRUE(strstr(cad_last_error(), "open transaction") != NULL);
  cad_engine_destroy(e);
}

TEST_LIST = {
    TEST_ENTRY(setters_need_an_open_transaction_and_say_which_call),
    TEST_ENTRY(new_layers_take_values_without_animation),
    TEST_ENTRY(default_action),
    TEST_ENTRY(sub_key_action_uses_the_key_path),
    TEST_ENTRY(retarget_is_continuous),
    TEST_ENTRY(disable_actions),
    TEST_ENTRY(no_action_marker_and_clear),
    TEST_ENTRY(custom_action_keeps_its_duration_and_curve),
    TEST_ENTRY(transaction_duration_and_curve),
    TEST_ENTRY(transaction_bezier),
    TEST_ENTRY(nested_settings_apply_inside),
    TEST_ENTRY(unbalanced_commit),
    TEST_ENTRY(invalid_settings),
    TEST_ENTRY(completion_after_animations_stop),
    TEST_ENTRY(completion_at_commit_without_animations),
    TEST_ENTRY(contents_change_fades),
    TEST_ENTRY(layer_created_later_is_new_until_next_tick),
    TEST_ENTRY(action_without_duration_uses_the_transactions),
    TEST_ENTRY(completion_waits_for_explicit_animations),
    TEST_ENTRY(completion_when_animation_is_removed),
};

TEST_MAIN("transactions")
