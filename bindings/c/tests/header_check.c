/*
 * header_check.c - cadence.h on its own (nothing included before it), compiled
 * as C99 by gcc and clang and as C++17 by g++ and clang++ (`make header-check`).
 *
 * - The header is self-contained and idempotent (included twice).
 * - Every function it declares is referenced (the list, header_functions.h,
 *   is generated from cadence.h by the Makefile), so linking proves each one
 *   is exported by libcadence.so with C linkage.
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
#include "header_functions.h" /* generated from cadence.h by the Makefile */
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
