/*
 * A tiny host built against an *installed* Cadence by tests/install_test.sh:
 * once with pkg-config, once with CMake's find_package(Cadence).
 */
#include <stdio.h>

#include <cadence.h>

int main(void) {
  cad_engine *e;
  cad_layer root = 0, child = 0;
  cad_anim a = 0;
  cad_render_item items[4];
  int32_t n = 0;
  double from = 0, to = 1, opacity = -1;

  if (!CAD_CHECK_LAYOUT()) {
    fprintf(stderr, "layout mismatch: header ABI %u, library ABI %u\n", (unsigned)CAD_ABI_VERSION,
            (unsigned)cad_abi_version());
    return 1;
  }
  e = cad_engine_create();
  if (!e) return 1;
  if (cad_layer_create(e, &root) || cad_layer_create(e, &child) ||
      cad_layer_add_sublayer(e, root, child) || cad_engine_tick(e, 0) ||
      cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &a) || cad_anim_set_from(e, a, &from, 1) ||
      cad_anim_set_to(e, a, &to, 1) || cad_anim_set_duration(e, a, 1) ||
      cad_layer_add_animation(e, child, a, "fade") || cad_engine_tick(e, 0.5) ||
      cad_engine_render_list(e, root, items, 4, &n)) {
    fprintf(stderr, "cadence call failed: %s\n", cad_last_error());
    return 1;
  }
  opacity = items[1].opacity;
  cad_engine_destroy(e);
  if (n != 2 || opacity < 0.49f || opacity > 0.51f) {
    fprintf(stderr, "unexpected render list: %d items, opacity %g\n", (int)n, opacity);
    return 1;
  }
  printf("install host ok: Cadence %s, header %s, %d items, opacity %.2f\n", cad_version_string(),
         CAD_VERSION_STRING, (int)n, opacity);
  return 0;
}
