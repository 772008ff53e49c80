/*
 * header_strict.c - cadence.h under the strictest warning sets a host might
 * use (tests/header_strict.sh compiles it in every C standard from C89 and
 * every C++ standard from C++98, with -Wold-style-cast, -Wuseless-cast,
 * -Wsign-conversion, -Wconversion, ... and -Werror).
 *
 * Written in C89 (no // comments, declarations first) so that one file serves
 * every mode. CAD_CHECK_LAYOUT() is expanded here, as every host is told to.
 */
#include "cadence.h"

int hs_check(void);
int hs_check(void) {
  cad_engine *e;
  cad_layer l = 0;
  int32_t n = 0;
  cad_render_item items[2];
  if (!CAD_CHECK_LAYOUT()) return 1;
  if (cad_abi_version() != CAD_ABI_VERSION) return 2;
  e = cad_engine_create();
  if (!e) return 3;
  if (cad_layer_create(e, &l) != CAD_OK || cad_engine_tick(e, 0.0) != CAD_OK ||
      cad_engine_render_list(e, l, items, 2, &n) != CAD_OK || n != 1) {
    cad_engine_destroy(e);
    return 4;
  }
  cad_engine_destroy(e);
  return 0;
}

int main(void) {
  return hs_check();
}
