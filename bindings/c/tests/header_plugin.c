/*
 * header_plugin.c - a plugin (shared object) that includes cadence.h under
 * `#pragma GCC visibility push(hidden)` and is built with -fvisibility=hidden,
 * as engines do to keep their own symbols private. The header marks its
 * declarations CAD_API (default visibility), so the references to libcadence
 * still bind to the library. Built and run by tests/header_strict.sh.
 */
#pragma GCC visibility push(hidden)
#include "cadence.h"
#pragma GCC visibility pop

#ifdef __cplusplus
extern "C" {
#endif
__attribute__((visibility("default"))) int plugin_run(void);
#ifdef __cplusplus
}
#endif

int plugin_run(void) {
  cad_engine *e = cad_engine_create();
  cad_layer l = 0;
  cad_status s;
  if (!CAD_CHECK_LAYOUT()) return 1;
  if (!e) return 2;
  s = cad_layer_create(e, &l);
  cad_engine_destroy(e);
  return s == CAD_OK && l != 0 ? 0 : 3;
}
