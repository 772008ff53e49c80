/*
 * frame_allocs.c - a warm frame loop allocates nothing, callbacks included.
 *
 * The benchmarks count heap allocations in their scenes, which poll events.
 * This test covers what they do not: completion callbacks that run every
 * frame, callbacks that add animations, and callbacks that call
 * cad_engine_tick again (a nested tick, whose own callbacks run inside the
 * outer ones). After a warm-up, every frame's cad_engine_tick +
 * cad_engine_render_list + event drain (callbacks and what they call
 * included) + batch and single reads of some key paths (frame, derived from
 * several properties, included) must make no heap allocation. Counted by interposing malloc and
 * friends (benchmarks/c/alloc_count.c).
 *
 * Usage: frame_allocs (release library: ASan has its own allocator).
 */
#include "rel_common.h"

#include "../../benchmarks/c/alloc_count.h"

enum { N_LAYERS = 2000, WARMUP = 300, FRAMES = 600 };

typedef struct {
    cad_engine *e;
    cad_layer layers[N_LAYERS];
    cad_anim pulse;        /* short opacity animation with a callback */
    double now;
    uint64_t starts, stops, nested_ticks;
    int32_t next_pulse;    /* layer index the next pulse goes to */
} host;

static host H;

static void add_pulse(host *h) {
    cad_layer l = h->layers[1 + h->next_pulse % (N_LAYERS - 1)];
    h->next_pulse++;
    REL_OK(cad_layer_add_animation(h->e, l, h->pulse, "pulse"));
}

/* Start and stop events of the pulses. A stop adds the next pulse and ticks
   again at the same now (nested), which reports the new pulse's start from
   inside this callback. */
static void on_event(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished,
                     int64_t tag, void *userdata) {
    (void)layer; (void)finished; (void)tag;
    host *h = (host *)userdata;
    REL_CHECK(e == h->e, "callback for another engine");
    REL_CHECK(key && strcmp(key, "pulse") == 0, "callback key %s", key ? key : "(null)");
    if (kind == CAD_EVENT_START) {
        h->starts++;
    } else {
        h->stops++;
        add_pulse(h);
        REL_OK(cad_engine_tick(e, h->now));
        h->nested_ticks++;
    }
}

int main(void) {
    host *h = &H;
    REL_CHECK(alloc_count_self_test(), "the allocation counter does not see this binary's mallocs");
    /* ... nor only this binary's: the library's (and its Swift runtime's) allocations must reach it */
    alloc_count_arm(1);
    uint64_t probe0 = alloc_count_total();
    h->e = cad_engine_create();
    uint64_t probe = alloc_count_total() - probe0;
    alloc_count_arm(0);
    REL_CHECK(h->e, "cad_engine_create");
    REL_CHECK(probe > 0, "cad_engine_create made no allocation the counter saw: the counter does not see libcadence");
    cad_engine *e = h->e;

    REL_OK(cad_layer_create(e, &h->layers[0]));
    cad_anim move, kf;
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "position", &move));
    double from[2] = {0, 0}, to[2] = {100, 50};
    REL_OK(cad_anim_set_from(e, move, from, 2));
    REL_OK(cad_anim_set_to(e, move, to, 2));
    REL_OK(cad_anim_set_duration(e, move, 1.5));
    REL_OK(cad_anim_set_repeat_count(e, move, INFINITY));
    REL_OK(cad_anim_create(e, CAD_ANIM_KEYFRAME, "opacity", &kf));
    double vals[3] = {1, 0.25, 1};
    REL_OK(cad_anim_set_values(e, kf, vals, 3, 1));
    REL_OK(cad_anim_set_duration(e, kf, 0.7));
    REL_OK(cad_anim_set_repeat_count(e, kf, INFINITY));
    for (int i = 1; i < N_LAYERS; i++) {
        REL_OK(cad_layer_create(e, &h->layers[i]));
        REL_OK(cad_layer_add_sublayer(e, h->layers[0], h->layers[i]));
        REL_OK(cad_layer_add_animation(e, h->layers[i], move, "move"));
        if (i % 10 == 0) REL_OK(cad_layer_add_animation(e, h->layers[i], kf, "blink"));
    }
    /* a pulse lasts one frame and a half: one stops every other frame or so */
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &h->pulse));
    double o0 = 0.5, o1 = 1;
    REL_OK(cad_anim_set_from(e, h->pulse, &o0, 1));
    REL_OK(cad_anim_set_to(e, h->pulse, &o1, 1));
    REL_OK(cad_anim_set_duration(e, h->pulse, 1.5 / 60));
    REL_OK(cad_anim_set_callback(e, h->pulse, on_event, h));
    add_pulse(h);

    int32_t cap = 2 * N_LAYERS;
    cad_render_item *items = calloc((size_t)cap, sizeof *items);
    REL_CHECK(items, "out of memory");
    cad_event ev;
    double *samples = calloc((size_t)4 * N_LAYERS, sizeof *samples);
    double one[4];
    REL_CHECK(samples, "out of memory");
    uint64_t total = 0, worst = 0;
    int frames_with = 0, first_bad = -1;
    uint64_t stops_warm = 0, starts_warm = 0;
    for (int f = 0; f < WARMUP + FRAMES; f++) {
        int counted = f >= WARMUP;
        if (f == WARMUP) { stops_warm = h->stops; starts_warm = h->starts; }
        uint64_t a0 = alloc_count_total();
        if (counted) alloc_count_arm(1);
        h->now += 1.0 / 60;
        REL_OK(cad_engine_tick(e, h->now));
        int32_t n = 0;
        REL_OK(cad_engine_render_list(e, h->layers[0], items, cap, &n));
        while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
        /* reads a host makes per frame: batch and single, derived keys (frame) too */
        for (int k = 0; k < 4; k++) {
            static const char *const keys[4] = {"frame", "position", "transform.rotation.z", "opacity"};
            int32_t m = 0;
            REL_OK(cad_engine_sample(e, h->layers, N_LAYERS, keys[k], samples, 4 * N_LAYERS, &m));
            REL_OK(cad_layer_presentation(e, h->layers[1 + f % (N_LAYERS - 1)], keys[k], one, 4, &m));
            REL_OK(cad_layer_get(e, h->layers[1 + f % (N_LAYERS - 1)], keys[k], one, 4, &m));
            /* sizing a read (cap 0): the error path allocates nothing either */
            REL_CHECK(cad_layer_presentation(e, h->layers[1], keys[k], NULL, 0, &m) == CAD_ERR_BUFFER_TOO_SMALL,
                      "size query of %s", keys[k]);
        }
        if (counted) alloc_count_arm(0);
        uint64_t d = alloc_count_total() - a0;
        REL_CHECK(n == N_LAYERS, "render list has %d items, expected %d", n, N_LAYERS);
        total += d;
        if (d) {
            frames_with++;
            if (first_bad < 0) first_bad = f - WARMUP;
        }
        if (d > worst) worst = d;
    }
    /* the scenario did what it says in the counted frames: pulses ran, and nested ticks delivered starts */
    REL_CHECK(h->stops - stops_warm >= (uint64_t)FRAMES / 3, "only %llu pulses stopped in the counted frames",
              (unsigned long long)(h->stops - stops_warm));
    REL_CHECK(h->starts - starts_warm >= h->stops - stops_warm, "counted frames: starts %llu < stops %llu",
              (unsigned long long)(h->starts - starts_warm), (unsigned long long)(h->stops - stops_warm));
    REL_CHECK(h->nested_ticks == h->stops, "nested ticks %llu != stops %llu", (unsigned long long)h->nested_ticks,
              (unsigned long long)h->stops);
    REL_CHECK(h->starts >= h->stops, "starts %llu < stops %llu", (unsigned long long)h->starts,
              (unsigned long long)h->stops);
    printf("frame_allocs: %d warm frames, %llu pulses (a nested tick each), %llu allocations in %d frames "
           "(first at frame %d, at most %llu in one)\n",
           FRAMES, (unsigned long long)h->stops, (unsigned long long)total, frames_with, first_bad,
           (unsigned long long)worst);
    REL_CHECK(total == 0, "warm frames allocated");
    cad_engine_destroy(e);
    free(items);
    free(samples);
    return 0;
}
