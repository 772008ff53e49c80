/*
 * header_check.c - cadence.h on its own (nothing included before it), compiled
 * as C99 by gcc and clang and as C++17 by g++ and clang++ (`make header-check`).
 *
 * - The header is self-contained and idempotent (included twice).
 * - Every function it declares is referenced, so linking proves each one is
 *   exported by libcadence.so with C linkage.
 * - The struct layouts are the same in every mode (sizes and offsets), and the
 *   library agrees (CAD_CHECK_LAYOUT at run time).
 */
#include "cadence.h"
#include "cadence.h"

#include <stddef.h>
#include <stdio.h>

/* compile-time checks that work in C99 and C++ */
#define HC_ASSERT(name, cond) typedef char hc_assert_##name[(cond) ? 1 : -1]

HC_ASSERT(status_is_32_bit, sizeof(cad_status) == 4);
HC_ASSERT(handles_are_64_bit, sizeof(cad_layer) == 8 && sizeof(cad_anim) == 8);
HC_ASSERT(event_key_is_64, sizeof(((cad_event *)0)->key) == 64);
HC_ASSERT(event_kind_at_0, offsetof(cad_event, kind) == 0);
HC_ASSERT(event_layer_at_8, offsetof(cad_event, layer) == 8);
HC_ASSERT(event_tag_at_16, offsetof(cad_event, tag) == 16);
HC_ASSERT(event_time_at_24, offsetof(cad_event, time) == 24);
HC_ASSERT(event_key_at_32, offsetof(cad_event, key) == 32);
HC_ASSERT(event_size, sizeof(cad_event) == 96);
HC_ASSERT(item_parent_at_8, offsetof(cad_render_item, parent) == 8);
HC_ASSERT(item_world_at_16, offsetof(cad_render_item, world) == 16);
HC_ASSERT(item_bounds_at_80, offsetof(cad_render_item, bounds) == 80);
HC_ASSERT(item_opacity_at_96, offsetof(cad_render_item, opacity) == 96);
HC_ASSERT(item_contents_rect_at_176, offsetof(cad_render_item, contents_rect) == 176);
HC_ASSERT(item_contents_at_192, offsetof(cad_render_item, contents) == 192);
HC_ASSERT(item_size, sizeof(cad_render_item) == 200);
HC_ASSERT(enum_values, CAD_OK == 0 && CAD_ERR_OUT_OF_MEMORY == -8 && CAD_ANIM_TRANSITION == 4 &&
                           CAD_FILL_BOTH == 3 && CAD_TIMING_DEFAULT == 4 && CAD_EVENT_STOP == 2 &&
                           CAD_ITEM_TRANSITION_INCOMING == 8);

typedef void (*hc_fn)(void);

static const hc_fn hc_functions[] = {
    (hc_fn)cad_abi_version,
    (hc_fn)cad_anim_create,
    (hc_fn)cad_anim_destroy,
    (hc_fn)cad_anim_group_set_children,
    (hc_fn)cad_anim_path_close,
    (hc_fn)cad_anim_path_cubic_to,
    (hc_fn)cad_anim_path_line_to,
    (hc_fn)cad_anim_path_move_to,
    (hc_fn)cad_anim_path_quad_to,
    (hc_fn)cad_anim_set_additive,
    (hc_fn)cad_anim_set_autoreverses,
    (hc_fn)cad_anim_set_begin_time,
    (hc_fn)cad_anim_set_by,
    (hc_fn)cad_anim_set_calculation_mode,
    (hc_fn)cad_anim_set_callback,
    (hc_fn)cad_anim_set_cumulative,
    (hc_fn)cad_anim_set_duration,
    (hc_fn)cad_anim_set_fill_mode,
    (hc_fn)cad_anim_set_from,
    (hc_fn)cad_anim_set_key_times,
    (hc_fn)cad_anim_set_removed_on_completion,
    (hc_fn)cad_anim_set_repeat_count,
    (hc_fn)cad_anim_set_repeat_duration,
    (hc_fn)cad_anim_set_rotation_mode,
    (hc_fn)cad_anim_set_segment_timing,
    (hc_fn)cad_anim_set_speed,
    (hc_fn)cad_anim_set_spring,
    (hc_fn)cad_anim_set_spring_perceptual,
    (hc_fn)cad_anim_set_spring_uikit,
    (hc_fn)cad_anim_set_tag,
    (hc_fn)cad_anim_set_tcb,
    (hc_fn)cad_anim_set_time_offset,
    (hc_fn)cad_anim_set_timing_bezier,
    (hc_fn)cad_anim_set_timing_function,
    (hc_fn)cad_anim_set_timing_steps,
    (hc_fn)cad_anim_set_to,
    (hc_fn)cad_anim_set_transition,
    (hc_fn)cad_anim_set_transition_progress,
    (hc_fn)cad_anim_set_values,
    (hc_fn)cad_anim_spring_settling_duration,
    (hc_fn)cad_engine_create,
    (hc_fn)cad_engine_destroy,
    (hc_fn)cad_engine_events_dropped,
    (hc_fn)cad_engine_layer_count,
    (hc_fn)cad_engine_now,
    (hc_fn)cad_engine_poll_event,
    (hc_fn)cad_engine_render_list,
    (hc_fn)cad_engine_sample,
    (hc_fn)cad_engine_set_event_capacity,
    (hc_fn)cad_engine_tick,
    (hc_fn)cad_last_error,
    (hc_fn)cad_layer_add_animation,
    (hc_fn)cad_layer_add_sublayer,
    (hc_fn)cad_layer_animation_count,
    (hc_fn)cad_layer_animation_for_key,
    (hc_fn)cad_layer_animation_key_at,
    (hc_fn)cad_layer_clear_action,
    (hc_fn)cad_layer_convert_time,
    (hc_fn)cad_layer_create,
    (hc_fn)cad_layer_destroy,
    (hc_fn)cad_layer_get,
    (hc_fn)cad_layer_get_contents,
    (hc_fn)cad_layer_insert_sublayer,
    (hc_fn)cad_layer_presentation,
    (hc_fn)cad_layer_remove_all_animations,
    (hc_fn)cad_layer_remove_animation,
    (hc_fn)cad_layer_remove_from_superlayer,
    (hc_fn)cad_layer_set,
    (hc_fn)cad_layer_set_action,
    (hc_fn)cad_layer_set_actions_enabled,
    (hc_fn)cad_layer_set_contents,
    (hc_fn)cad_layer_sublayers,
    (hc_fn)cad_layer_superlayer,
    (hc_fn)cad_media_time,
    (hc_fn)cad_sizeof_event,
    (hc_fn)cad_sizeof_render_item,
    (hc_fn)cad_status_name,
    (hc_fn)cad_transaction_begin,
    (hc_fn)cad_transaction_begin_keyframe,
    (hc_fn)cad_transaction_commit,
    (hc_fn)cad_transaction_id,
    (hc_fn)cad_transaction_set_autoreverses,
    (hc_fn)cad_transaction_set_completion,
    (hc_fn)cad_transaction_set_delay,
    (hc_fn)cad_transaction_set_disable_actions,
    (hc_fn)cad_transaction_set_duration,
    (hc_fn)cad_transaction_set_repeat_count,
    (hc_fn)cad_transaction_set_spring,
    (hc_fn)cad_transaction_set_timing_bezier,
    (hc_fn)cad_transaction_set_timing_function,
    (hc_fn)cad_version_string,
};

int main(void) {
  size_t i, n = sizeof hc_functions / sizeof hc_functions[0];
  for (i = 0; i < n; i++)
    if (hc_functions[i] == 0) return 1;
  if (!CAD_CHECK_LAYOUT()) {
    fprintf(stderr, "header_check: cadence.h does not match libcadence %s (ABI %u vs %u)\n",
            cad_version_string(), (unsigned)cad_abi_version(), (unsigned)CAD_ABI_VERSION);
    return 1;
  }
  printf("header_check (%s): %u functions, ABI %u, library %s\n",
#ifdef __cplusplus
         "C++",
#else
         "C",
#endif
         (unsigned)n, (unsigned)cad_abi_version(), cad_version_string());
  return 0;
}
