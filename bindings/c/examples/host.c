/*
 * host.c - a minimal Cadence host in C.
 *
 * Builds a small scene (a root layer with two children, one of them animated),
 * ticks a few frames at fixed times, and prints each frame's render list:
 * layer, parent, world translation and opacity -- what a renderer would read
 * to draw the frame -- plus the animation events of each frame.
 *
 *   cc -std=c99 host.c $(pkg-config --cflags --libs cadence) -o host && ./host
 *
 * A real host would pass cad_media_time() to cad_engine_tick once per display
 * refresh; fixed times keep this example's output reproducible.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cadence.h"

/* Fail loudly on any error, with the library's message. */
#define CHECK(call)                                                                  \
  do {                                                                               \
    cad_status s_ = (call);                                                          \
    if (s_ != CAD_OK) {                                                              \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call,       \
              cad_status_name(s_), cad_last_error());                                \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

static void set2(cad_engine *e, cad_layer l, const char *keypath, double x, double y) {
  double v[2];
  v[0] = x;
  v[1] = y;
  CHECK(cad_layer_set(e, l, keypath, v, 2));
}

static void set4(cad_engine *e, cad_layer l, const char *keypath, double a, double b, double c,
                 double d) {
  double v[4];
  v[0] = a;
  v[1] = b;
  v[2] = c;
  v[3] = d;
  CHECK(cad_layer_set(e, l, keypath, v, 4));
}

/* Names for the printout (handles are opaque numbers). */
static cad_layer layers[3];
static const char *const names[3] = {"root", "left", "right"};

static const char *name_of(cad_layer l) {
  int i;
  for (i = 0; i < 3; i++)
    if (layers[i] == l) return names[i];
  return "?";
}

static void print_frame(cad_engine *e, cad_layer root, double now) {
  cad_render_item items[8];
  cad_event ev;
  int32_t n = 0, i;
  CHECK(cad_engine_render_list(e, root, items, 8, &n));
  printf("frame t=%.2f  %d items\n", now, (int)n);
  printf("  %-2s %-6s %-6s %9s %9s %9s %8s %8s\n", "#", "layer", "parent", "world.x", "world.y",
         "world.z", "opacity", "world_op");
  for (i = 0; i < n; i++) {
    const cad_render_item *it = &items[i];
    printf("  %-2d %-6s %-6s %9.3f %9.3f %9.3f %8.3f %8.3f\n", (int)i, name_of(it->layer),
           it->parent < 0 ? "-" : name_of(items[it->parent].layer), it->world[12], it->world[13],
           it->world[14], it->opacity, it->world_opacity);
  }
  while (cad_engine_poll_event(e, &ev) == CAD_OK) {
    if (ev.kind == CAD_EVENT_TRANSACTION_COMPLETE) {
      printf("  event: transaction %lld complete at t=%.3f\n", (long long)ev.tag, ev.time);
      continue;
    }
    printf("  event: %s %s \"%s\" at t=%.3f%s\n", ev.kind == CAD_EVENT_START ? "start" : "stop",
           name_of(ev.layer), ev.key, ev.time,
           ev.kind == CAD_EVENT_STOP ? (ev.finished ? " (finished)" : " (removed)") : "");
  }
}

int main(int argc, char **argv) {
  cad_engine *e;
  cad_layer root, left, right;
  cad_anim rise;
  double from[2] = {240, 120}, to[2] = {240, 40};
  int frames = argc > 1 ? atoi(argv[1]) : 6, f;

  /* The header and the library must agree (ABI version and struct sizes). */
  if (!CAD_CHECK_LAYOUT()) {
    fprintf(stderr, "cadence.h (ABI %u) does not match libcadence %s (ABI %u)\n",
            (unsigned)CAD_ABI_VERSION, cad_version_string(), (unsigned)cad_abi_version());
    return 1;
  }
  printf("Cadence %s (ABI %u)\n", cad_version_string(), (unsigned)cad_abi_version());

  e = cad_engine_create();
  if (!e) return 1;

  /* root 320x240, two 80x80 children side by side */
  CHECK(cad_layer_create(e, &root));
  CHECK(cad_layer_create(e, &left));
  CHECK(cad_layer_create(e, &right));
  layers[0] = root;
  layers[1] = left;
  layers[2] = right;
  CHECK(cad_layer_add_sublayer(e, root, left));
  CHECK(cad_layer_add_sublayer(e, root, right));
  set4(e, root, "bounds", 0, 0, 320, 240);
  set2(e, root, "position", 160, 120);
  set4(e, left, "bounds", 0, 0, 80, 80);
  set2(e, left, "position", 80, 120);
  set4(e, left, "backgroundColor", 0.2, 0.4, 0.9, 1);
  set4(e, right, "bounds", 0, 0, 80, 80);
  set2(e, right, "position", 240, 120);
  set4(e, right, "backgroundColor", 0.9, 0.3, 0.2, 1);
  CHECK(cad_engine_tick(e, 0)); /* the first frame: layers appear as configured */

  /* right rises by 80 points over 1 s, easing in and out. The Core Animation
     idiom: change the model to the final value without an implicit animation,
     then add the explicit animation that shows the way there. */
  CHECK(cad_transaction_begin(e));
  CHECK(cad_transaction_set_disable_actions(e, 1));
  set2(e, right, "position", 240, 40);
  CHECK(cad_transaction_commit(e));
  CHECK(cad_anim_create(e, CAD_ANIM_BASIC, "position", &rise));
  CHECK(cad_anim_set_from(e, rise, from, 2));
  CHECK(cad_anim_set_to(e, rise, to, 2));
  CHECK(cad_anim_set_duration(e, rise, 1));
  CHECK(cad_anim_set_timing_function(e, rise, CAD_TIMING_EASE_IN_EASE_OUT));
  CHECK(cad_layer_add_animation(e, right, rise, "rise"));
  CHECK(cad_anim_destroy(e, rise)); /* the layer holds its own copy */

  /* left fades to half opacity: an implicit animation, here 1 s long */
  {
    double half = 0.5;
    CHECK(cad_transaction_begin(e));
    CHECK(cad_transaction_set_duration(e, 1));
    CHECK(cad_layer_set(e, left, "opacity", &half, 1));
    CHECK(cad_transaction_commit(e));
  }

  for (f = 0; f < frames; f++) {
    double now = f * 0.25;
    CHECK(cad_engine_tick(e, now));
    print_frame(e, root, now);
  }

  cad_engine_destroy(e);
  return 0;
}
