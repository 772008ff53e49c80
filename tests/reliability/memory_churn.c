/*
 * memory_churn.c - memory comes back.
 *
 * Resident size (/proc/self/statm, after malloc_trim) and heap in use
 * (mallinfo2) are measured around:
 *   1. churn of 100k layers and 100k animations (every kind) in one engine, in
 *      rounds of 1000 created, animated, ticked, rendered and destroyed;
 *   2. 10k engines, each with a few layers and animations, created, ticked and
 *      destroyed;
 *   3. 100k layers alive at once in one engine, then the engine destroyed;
 *   4. an engine that is never polled: the event queue stays within its
 *      capacity (default 4096, and a host-set one), the overflow is counted in
 *      cad_engine_events_dropped, and memory stays flat however many events;
 *   5. removed animations free their state: a keyframe animation with a million
 *      values attached, removed (and the variants: replaced, removed with all,
 *      finished and removed on completion, its layer destroyed) returns the heap;
 *      and add/remove cycles on one layer do not grow it.
 * Each phase is measured after a warm-up of the same shape (so one-time
 * allocations: the Swift runtime's metadata, the engine's free lists at their
 * working size, are in the baseline) and must end within 10% of its baseline.
 *
 * Usage: memory_churn [scale]   (1 = the sizes above; CI may use less).
 * Use the release library (ASan changes the allocator).
 */
#define _GNU_SOURCE
#include "rel_common.h"

#include <malloc.h>
#include <unistd.h>

static double g_scale = 1.0;
static int g_failures;

static long rss_kb(void) {
    malloc_trim(0);
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (!f || fscanf(f, "%ld %ld", &pages, &res) != 2) REL_FAIL("cannot read /proc/self/statm");
    fclose(f);
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static long heap_kb(void) {
    struct mallinfo2 mi = mallinfo2();
    return (long)((mi.uordblks + mi.hblkhd) / 1024);
}

typedef struct { long rss, heap; } mem;

static mem measure(void) {
    mem m;
    m.rss = rss_kb();
    m.heap = heap_kb();
    return m;
}

/* Within 10% of the baseline (with a 256 KiB floor for tiny baselines). */
static void compare(const char *phase, mem before, mem after) {
    long rss_slack = before.rss / 10 > 256 ? before.rss / 10 : 256;
    long heap_slack = before.heap / 10 > 256 ? before.heap / 10 : 256;
    int ok = after.rss <= before.rss + rss_slack && after.heap <= before.heap + heap_slack;
    printf("%-44s rss %7ld -> %7ld KiB (%+.1f%%)  heap %7ld -> %7ld KiB (%+.1f%%)  %s\n", phase, before.rss, after.rss,
           100.0 * (double)(after.rss - before.rss) / (double)before.rss, before.heap, after.heap,
           before.heap ? 100.0 * (double)(after.heap - before.heap) / (double)before.heap : 0.0, ok ? "ok" : "FAIL");
    if (!ok) g_failures++;
}

static long scaled(long n) {
    long v = (long)((double)n * g_scale);
    return v < 1 ? 1 : v;
}

/* One animation of kind `kind` on layer l (descriptions destroyed after adding). */
static void animate(cad_engine *e, cad_layer l, int kind, int i) {
    cad_anim a = 0;
    static const char *paths[] = {"position", "opacity", "transform", "bounds", "backgroundColor"};
    const char *kp = paths[i % 5];
    int comps = kp[0] == 'p' ? 2 : kp[0] == 'o' ? 1 : kp[0] == 't' ? 16 : 4;
    REL_OK(cad_anim_create(e, kind, kind >= CAD_ANIM_GROUP ? NULL : kp, &a));
    double v[64];
    for (int k = 0; k < 64; k++) v[k] = (k % 5 == 0) ? 1.0 : 0.1 * (double)(k % 7);
    switch (kind) {
    case CAD_ANIM_BASIC:
    case CAD_ANIM_SPRING:
        REL_OK(cad_anim_set_to(e, a, v, comps));
        break;
    case CAD_ANIM_KEYFRAME:
        REL_OK(cad_anim_set_values(e, a, v, 3, comps));
        break;
    case CAD_ANIM_GROUP: {
        cad_anim c = 0;
        REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &c));
        REL_OK(cad_anim_set_to(e, c, v, 1));
        REL_OK(cad_anim_group_set_children(e, a, &c, 1));
        REL_OK(cad_anim_destroy(e, c));
        break;
    }
    default:
        REL_OK(cad_anim_set_transition(e, a, CAD_TRANSITION_PUSH, CAD_FROM_LEFT));
        break;
    }
    REL_OK(cad_anim_set_duration(e, a, 0.5));
    REL_OK(cad_layer_add_animation(e, l, a, NULL));
    REL_OK(cad_anim_destroy(e, a));
}

static void churn_round(cad_engine *e, int n, double *now, int round) {
    static cad_layer ls[1000];
    static cad_render_item items[4000];
    if (n > 1000) n = 1000;
    for (int i = 0; i < n; i++) {
        REL_OK(cad_layer_create(e, &ls[i]));
        double b[4] = {0, 0, 10, 10};
        REL_OK(cad_layer_set(e, ls[i], "bounds", b, 4));
        if (i > 0) REL_OK(cad_layer_add_sublayer(e, ls[(i - 1) / 4], ls[i]));
        animate(e, ls[i], (i + round) % 5, i);
    }
    *now += 0.1;
    REL_OK(cad_engine_tick(e, *now));
    int32_t m = 0;
    REL_OK(cad_engine_render_list(e, ls[0], items, 4000, &m));
    double p[2] = {1, 2};
    for (int i = 0; i < n; i += 7) REL_OK(cad_layer_set(e, ls[i], "position", p, 2));
    *now += 0.1;
    REL_OK(cad_engine_tick(e, *now));
    for (int i = n - 1; i >= 0; i--) REL_OK(cad_layer_destroy(e, ls[i]));
    *now += 0.1;
    REL_OK(cad_engine_tick(e, *now));
    cad_event ev;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
}

static void phase_layers(void) {
    cad_engine *e = cad_engine_create();
    double now = 0;
    long rounds = scaled(100);
    churn_round(e, 1000, &now, 0);
    churn_round(e, 1000, &now, 1);
    mem before = measure();
    for (long r = 0; r < rounds; r++) churn_round(e, 1000, &now, (int)r);
    mem after = measure();
    char name[96];
    snprintf(name, sizeof name, "%ldk layers + %ldk animations churned", rounds, rounds);
    compare(name, before, after);
    cad_engine_destroy(e);
}

static void one_engine(int i) {
    cad_engine *e = cad_engine_create();
    REL_CHECK(e != NULL, "engine");
    cad_layer a, b;
    REL_OK(cad_layer_create(e, &a));
    REL_OK(cad_layer_create(e, &b));
    REL_OK(cad_layer_add_sublayer(e, a, b));
    REL_OK(cad_engine_tick(e, 0));
    animate(e, b, i % 5, i);
    double o = 0.5;
    REL_OK(cad_layer_set(e, a, "opacity", &o, 1));
    REL_OK(cad_engine_tick(e, 0.1));
    cad_render_item items[8];
    int32_t n = 0;
    REL_OK(cad_engine_render_list(e, a, items, 8, &n));
    cad_engine_destroy(e);
}

static void phase_engines(void) {
    long n = scaled(10000);
    for (int i = 0; i < 200; i++) one_engine(i);
    mem before = measure();
    for (long i = 0; i < n; i++) one_engine((int)i);
    mem after = measure();
    char name[96];
    snprintf(name, sizeof name, "%ld engines created and destroyed", n);
    compare(name, before, after);
}

static void phase_big_engine(void) {
    long n = scaled(100000);
    cad_layer *ls = calloc((size_t)n, sizeof *ls);
    memset(ls, 1, (size_t)n * sizeof *ls); /* resident in both measurements */
    mem before = {0, 0}, peak = {0, 0};
    /* warm-up of the same shape, a tenth of the size */
    for (int round = 0; round < 2; round++) {
        long m = round == 0 ? n / 10 : n;
        cad_engine *e = cad_engine_create();
        double now = 0;
        for (long i = 0; i < m; i++) {
            REL_OK(cad_layer_create(e, &ls[i]));
            if (i % 10 == 0) animate(e, ls[i], (int)(i / 10) % 5, (int)i);
        }
        REL_OK(cad_engine_tick(e, now += 0.1));
        if (round == 1) peak = measure();
        cad_engine_destroy(e);
        if (round == 0) before = measure();
    }
    mem after = measure();
    free(ls);
    char name[96];
    snprintf(name, sizeof name, "%ld live layers, engine destroyed", n);
    printf("  (peak with %ld live layers: rss %ld KiB, heap %ld KiB)\n", n, peak.rss, peak.heap);
    compare(name, before, after);
}

static void phase_events(void) {
    /* an engine nobody polls */
    cad_engine *e = cad_engine_create();
    cad_layer l[64];
    for (int i = 0; i < 64; i++) REL_OK(cad_layer_create(e, &l[i]));
    cad_anim a = 0;
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &a));
    double to = 0;
    REL_OK(cad_anim_set_to(e, a, &to, 1));
    REL_OK(cad_anim_set_duration(e, a, 0.01));
    double now = 0;
    long generated = 0;
    /* every tick: 64 animations start and stop = 128 events */
    for (int i = 0; i < 40; i++) {
        for (int k = 0; k < 64; k++) REL_OK(cad_layer_add_animation(e, l[k], a, "x"));
        REL_OK(cad_engine_tick(e, now += 0.05));
        generated += 128;
    }
    mem before = measure();
    long rounds = scaled(2000);
    for (long i = 0; i < rounds; i++) {
        for (int k = 0; k < 64; k++) REL_OK(cad_layer_add_animation(e, l[k], a, "x"));
        REL_OK(cad_engine_tick(e, now += 0.05));
        generated += 128;
    }
    mem after = measure();
    uint64_t dropped = 0;
    REL_OK(cad_engine_events_dropped(e, &dropped));
    long queued = 0;
    cad_event ev;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) queued++;
    char name[96];
    snprintf(name, sizeof name, "%ld events never polled (capacity 4096)", generated);
    compare(name, before, after);
    if (queued != 4096 || (long)dropped != generated - 4096) {
        printf("FAIL event queue: %ld queued (expected 4096), %llu dropped (expected %ld)\n", queued,
               (unsigned long long)dropped, generated - 4096);
        g_failures++;
    } else {
        printf("  event queue bounded: 4096 kept, %llu dropped and counted\n", (unsigned long long)dropped);
    }
    /* a host-set capacity, and 0 */
    REL_OK(cad_engine_set_event_capacity(e, 16));
    for (int k = 0; k < 64; k++) REL_OK(cad_layer_add_animation(e, l[k], a, "x"));
    REL_OK(cad_engine_tick(e, now += 0.05));
    queued = 0;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) queued++;
    if (queued != 16) { printf("FAIL capacity 16: %ld events queued\n", queued); g_failures++; }
    REL_OK(cad_engine_set_event_capacity(e, 0));
    for (int k = 0; k < 64; k++) REL_OK(cad_layer_add_animation(e, l[k], a, "x"));
    REL_OK(cad_engine_tick(e, now += 0.05));
    if (cad_engine_poll_event(e, &ev) != CAD_ERR_NOT_FOUND) { printf("FAIL capacity 0 kept an event\n"); g_failures++; }
    REL_CHECK(cad_engine_set_event_capacity(e, -1) == CAD_ERR_INVALID_ARGUMENT, "negative capacity accepted");
    cad_engine_destroy(e);
}

static void burst_cb(cad_engine *e, cad_event_kind k, cad_layer l, const char *key, int32_t f, int64_t tag, void *ud) {
    (void)e; (void)k; (void)l; (void)key; (void)f; (void)tag; (void)ud;
}

/* Memory a burst leaves behind, given back by cad_engine_set_event_capacity:
   removals between two ticks (each owes a stop event, some with callbacks),
   and a large poll queue lowered to a small capacity. The tick keeps what its
   lists grew to (so frames do not allocate); the capacity call returns it. */
static void phase_bursts(void) {
    cad_engine *e = cad_engine_create();
    cad_layer l = 0;
    REL_OK(cad_layer_create(e, &l));
    cad_anim a = 0, b = 0;
    double to = 1;
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &a));
    REL_OK(cad_anim_set_to(e, a, &to, 1));
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &b));
    REL_OK(cad_anim_set_to(e, b, &to, 1));
    REL_OK(cad_anim_set_callback(e, b, burst_cb, NULL));
    double now = 1;
    REL_OK(cad_engine_tick(e, now));
    mem before = measure();
    long n = scaled(100000);
    for (long i = 0; i < n; i++) {
        REL_OK(cad_layer_add_animation(e, l, (i & 1) ? b : a, "k"));
        REL_OK(cad_layer_remove_animation(e, l, "k"));
    }
    for (int k = 0; k < 3; k++) REL_OK(cad_engine_tick(e, now += 1));
    mem peak = measure();
    REL_OK(cad_engine_set_event_capacity(e, 4096));
    mem after = measure();
    cad_event ev;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
    printf("  (after %ld removals between two ticks: heap %ld KiB kept by the tick)\n", n, peak.heap);
    char name[96];
    snprintf(name, sizeof name, "%ld removals, then set_event_capacity", n);
    compare(name, before, after);

    /* a 1M-event queue filled, then lowered to 16 (and back to the default) */
    before = measure();
    REL_OK(cad_engine_set_event_capacity(e, 1000000));
    for (long i = 0; i < n; i++) {
        REL_OK(cad_layer_add_animation(e, l, a, "k"));
        REL_OK(cad_layer_remove_animation(e, l, "k"));
        if (i % 1000 == 999) REL_OK(cad_engine_tick(e, now += 1));
    }
    REL_OK(cad_engine_tick(e, now += 1));
    REL_OK(cad_engine_set_event_capacity(e, 16));
    long queued = 0;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) queued++;
    REL_CHECK(queued == 16, "capacity lowered to 16 keeps the newest 16 events");
    REL_OK(cad_engine_set_event_capacity(e, 4096));
    after = measure();
    snprintf(name, sizeof name, "%ld queued events, capacity lowered to 16", n);
    compare(name, before, after);
    cad_engine_destroy(e);
}

static cad_anim big_keyframe(cad_engine *e, int n) {
    cad_anim a = 0;
    REL_OK(cad_anim_create(e, CAD_ANIM_KEYFRAME, "opacity", &a));
    double *v = malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++) v[i] = (double)(i % 100) / 100.0;
    REL_OK(cad_anim_set_values(e, a, v, n, 1));
    free(v);
    REL_OK(cad_anim_set_duration(e, a, 1));
    return a;
}

static void phase_animation_state(void) {
    int n = (int)scaled(1000000);
    cad_engine *e = cad_engine_create();
    cad_layer l, m;
    REL_OK(cad_layer_create(e, &l));
    REL_OK(cad_layer_create(e, &m));
    double now = 0;
    REL_OK(cad_engine_tick(e, now));
    /* warm-up: one of each path */
    for (int i = 0; i < 2; i++) {
        cad_anim a = big_keyframe(e, 1000);
        REL_OK(cad_layer_add_animation(e, l, a, "big"));
        REL_OK(cad_engine_tick(e, now += 0.1));
        REL_OK(cad_layer_remove_animation(e, l, "big"));
        REL_OK(cad_engine_tick(e, now += 0.1));
        REL_OK(cad_anim_destroy(e, a));
    }
    cad_event ev;
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
    mem before = measure();
    long grown = 0;
    for (int variant = 0; variant < 5; variant++) {
        cad_anim a = big_keyframe(e, n);
        cad_layer target = l;
        if (variant == 4) REL_OK(cad_layer_create(e, &target));
        REL_OK(cad_layer_add_animation(e, target, a, "big"));
        REL_OK(cad_anim_destroy(e, a));
        REL_OK(cad_engine_tick(e, now += 0.1));
        mem with = measure();
        if (with.heap - before.heap > grown) grown = with.heap - before.heap;
        switch (variant) {
        case 0: REL_OK(cad_layer_remove_animation(e, target, "big")); break;
        case 1: {
            cad_anim small = 0;
            REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &small));
            REL_OK(cad_layer_add_animation(e, target, small, "big")); /* replaces it */
            REL_OK(cad_anim_destroy(e, small));
            REL_OK(cad_engine_tick(e, now += 0.1));
            REL_OK(cad_layer_remove_animation(e, target, "big"));
            break;
        }
        case 2: REL_OK(cad_layer_remove_all_animations(e, target)); break;
        case 3: REL_OK(cad_engine_tick(e, now += 5)); break; /* finishes; removed on completion */
        default: REL_OK(cad_layer_destroy(e, target)); break;
        }
        REL_OK(cad_engine_tick(e, now += 0.1));
        while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
        int32_t count = -1;
        REL_OK(cad_layer_animation_count(e, l, &count));
        REL_CHECK(count == 0, "variant %d: %d animations still attached", variant, count);
    }
    mem after = measure();
    printf("  (a %d-value keyframe animation attached grew the heap by %ld KiB)\n", n, grown);
    char name[96];
    snprintf(name, sizeof name, "removed animations free their state");
    compare(name, before, after);
    /* add/remove cycles on one layer */
    cad_anim a = 0;
    REL_OK(cad_anim_create(e, CAD_ANIM_SPRING, "position", &a));
    double to[2] = {5, 5};
    REL_OK(cad_anim_set_to(e, a, to, 2));
    for (int i = 0; i < 1000; i++) {
        REL_OK(cad_layer_add_animation(e, m, a, NULL));
        REL_OK(cad_layer_remove_all_animations(e, m));
    }
    REL_OK(cad_engine_tick(e, now += 0.1));
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
    before = measure();
    long cycles = scaled(200000);
    for (long i = 0; i < cycles; i++) {
        REL_OK(cad_layer_add_animation(e, m, a, NULL));
        REL_OK(cad_layer_remove_all_animations(e, m));
        if (i % 1000 == 999) {
            REL_OK(cad_engine_tick(e, now += 0.01));
            while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
        }
    }
    REL_OK(cad_engine_tick(e, now += 0.1));
    while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
    after = measure();
    snprintf(name, sizeof name, "%ld add/remove cycles on one layer", cycles);
    compare(name, before, after);
    cad_engine_destroy(e);
}

int main(int argc, char **argv) {
    if (argc > 1) g_scale = atof(argv[1]);
    if (g_scale <= 0) g_scale = 1;
    /* library and runtime warm-up */
    for (int i = 0; i < 10; i++) one_engine(i);
    mem start = measure();
    phase_layers();
    phase_engines();
    phase_big_engine();
    phase_events();
    phase_bursts();
    phase_animation_state();
    mem end = measure();
    /* informational: each phase above has its own warmed-up baseline */
    printf("%-44s rss %7ld -> %7ld KiB  heap %7ld -> %7ld KiB  (info)\n", "whole run", start.rss, end.rss, start.heap,
           end.heap);
    printf("memory_churn: %s\n", g_failures ? "FAILED" : "OK");
    return g_failures ? 1 : 0;
}
