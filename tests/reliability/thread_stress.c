/*
 * thread_stress.c - several host threads on one engine, and several engines on
 * several threads, for a fixed number of operations. Run under ThreadSanitizer
 * by scripts/reliability.sh (library and test both instrumented).
 *
 * Part 1, one engine shared by T threads. Thread t owns a root layer R_t with
 * K sublayers and does, at random: set (model positions, with actions), add
 * (explicit animations with callbacks, kept after they finish), remove, tick
 * (any thread, times from a shared counter), sample, render list, poll,
 * transactions, creating and destroying scratch layers, failing calls (its
 * own error message must come back, not another thread's). Callbacks run on
 * whichever thread ticks and call back into the engine. At the end the state
 * must equal the serial effect of each thread's operations:
 *   - every model position is the last value its owner set;
 *   - every layer's animation keys are exactly the keys its owner added and
 *     did not remove; R_t's sublayers are its K layers in order; the layer
 *     count is T * (K + 1);
 *   - after a final tick, each explicit animation ever added reported exactly
 *     one stop, through its callback and through the poll queue (no event is
 *     lost or duplicated: the queue's capacity is large, none dropped);
 *   - no callback ran for a layer of another thread's tag.
 *
 * Part 2, E engines on E threads, each running a scenario (scenario.h) while
 * the others run theirs; then the same scenarios run serially on the main
 * thread: every hash must match (threads do not disturb each other or the
 * results). Engines are created on the main thread, used on the workers and
 * destroyed on the main thread.
 *
 * Part 3, T threads each create and destroy engines and layers in a loop and
 * check that a layer handle of one engine is rejected by another.
 *
 * Usage: thread_stress [ops_per_thread [threads]]   (defaults 20000 and 4);
 * CADENCE_STRESS_ENGINES (default 4), CADENCE_STRESS_SCENE_STEPS (default 300).
 */
#define _GNU_SOURCE
#include "scenario.h"

#include <pthread.h>
#include <stdatomic.h>

enum { K = 4, MAXT = 16, NKEYS = 3 };

typedef struct {
    int t;
    pthread_t th;
    cad_engine *e;
    cad_layer root, kids[K];
    cad_anim anim;
    double last_pos[K][2];
    unsigned keys[K];              /* bit j: key "t<t>.k<j>" attached */
    long adds, removes, ticks_ok, ticks_late, sets, renders, samples, polls, scratch;
    long polled_stops[MAXT];       /* stop events polled by this thread, by owner tag */
    long polled_starts;
    long ops;
    uint64_t seed;
} worker;

static worker W[MAXT];
static int T = 4;
static long OPS = 20000;
static atomic_long g_clock;        /* ticks use g_clock * 1 ms */
static atomic_long g_cb_stops[MAXT], g_cb_starts[MAXT], g_cb_total;
static atomic_int g_cb_bad;

static void anim_cb(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished,
                    int64_t tag, void *ud) {
    (void)finished;
    worker *w = (worker *)ud;
    atomic_fetch_add(&g_cb_total, 1);
    if (!w || tag != 1000 + w->t || e != w->e || !key || key[0] != 't') { atomic_fetch_add(&g_cb_bad, 1); return; }
    if (kind == CAD_EVENT_STOP) atomic_fetch_add(&g_cb_stops[w->t], 1);
    else if (kind == CAD_EVENT_START) atomic_fetch_add(&g_cb_starts[w->t], 1);
    else atomic_fetch_add(&g_cb_bad, 1);
    /* reenter from the ticking thread, without any lock held */
    int32_t n = 0;
    cad_status st = cad_layer_animation_count(e, layer, &n);
    if (st != CAD_OK && st != CAD_ERR_INVALID_HANDLE) atomic_fetch_add(&g_cb_bad, 1);
    double v[2];
    st = cad_layer_presentation(e, layer, "position", v, 2, &n);
    if (st == CAD_OK && (!isfinite(v[0]) || !isfinite(v[1]))) atomic_fetch_add(&g_cb_bad, 1);
}

static void count_event(worker *w, const cad_event *ev) {
    if (ev->kind < 1 || ev->kind > 3) REL_FAIL("thread %d polled an event of kind %d", w->t, ev->kind);
    if (ev->tag >= 1000 && ev->tag < 1000 + T) {
        if (ev->kind == CAD_EVENT_STOP) w->polled_stops[ev->tag - 1000]++;
        if (ev->kind == CAD_EVENT_START) w->polled_starts++;
    }
}

static void *worker_main(void *arg) {
    worker *w = (worker *)arg;
    rel_rng rng = {w->seed};
    char key[32], badkp[48];
    cad_render_item items[16];
    for (long i = 0; i < OPS; i++) {
        uint32_t r = rel_below(&rng, 100);
        int k = (int)rel_below(&rng, K);
        w->ops++;
        if (r < 6) {
            /* a batch set of every kid's position (rows in order) */
            double p[2 * K];
            for (int q = 0; q < K; q++) {
                p[2 * q] = w->t * 1000.0 + (double)i + 0.25;
                p[2 * q + 1] = (double)q;
            }
            REL_OK(cad_engine_set(w->e, w->kids, K, "position", p, 2 * K));
            for (int q = 0; q < K; q++) {
                w->last_pos[q][0] = p[2 * q];
                w->last_pos[q][1] = p[2 * q + 1];
            }
            w->sets++;
        } else if (r < 22) {
            double p[2] = {w->t * 1000.0 + (double)i, (double)k};
            REL_OK(cad_layer_set(w->e, w->kids[k], "position", p, 2));
            w->last_pos[k][0] = p[0];
            w->last_pos[k][1] = p[1];
            w->sets++;
        } else if (r < 36) {
            int j = (int)rel_below(&rng, NKEYS);
            snprintf(key, sizeof key, "t%d.k%d", w->t, j);
            REL_OK(cad_layer_add_animation(w->e, w->kids[k], w->anim, key));
            w->keys[k] |= 1u << j;
            w->adds++;
        } else if (r < 44) {
            int j = (int)rel_below(&rng, NKEYS);
            snprintf(key, sizeof key, "t%d.k%d", w->t, j);
            cad_status st = cad_layer_remove_animation(w->e, w->kids[k], key);
            if (w->keys[k] & (1u << j)) {
                if (st != CAD_OK) REL_FAIL("thread %d: removing attached %s gave %s", w->t, key, cad_status_name(st));
                w->keys[k] &= ~(1u << j);
                w->removes++;
            } else if (st != CAD_ERR_NOT_FOUND) {
                REL_FAIL("thread %d: removing absent %s gave %s", w->t, key, cad_status_name(st));
            }
        } else if (r < 54) {
            double now = (double)atomic_fetch_add(&g_clock, 1) * 0.001;
            cad_status st = cad_engine_tick(w->e, now);
            if (st == CAD_OK) w->ticks_ok++;
            else if (st == CAD_ERR_INVALID_ARGUMENT) w->ticks_late++;   /* another thread ticked a later time first */
            else REL_FAIL("tick gave %s", cad_status_name(st));
        } else if (r < 62) {
            double out[2 * K];
            int32_t n = 0;
            REL_OK(cad_engine_sample(w->e, w->kids, K, "position", out, 2 * K, &n));
            REL_CHECK(n == 2 * K, "sample wrote %d doubles", n);
            for (int q = 0; q < n; q++) REL_CHECK(isfinite(out[q]), "sample gave a non-finite value");
            w->samples++;
        } else if (r < 72) {
            int32_t n = 0;
            REL_OK(cad_engine_render_list(w->e, w->root, items, 16, &n));
            REL_CHECK(n == K + 1, "thread %d: render list of its root has %d items, expected %d", w->t, n, K + 1);
            REL_CHECK(items[0].layer == w->root, "render list item 0 is not the root");
            for (int q = 1; q < n; q++) REL_CHECK(items[q].layer == w->kids[q - 1], "render list order");
            w->renders++;
        } else if (r < 82) {
            cad_event ev;
            for (int q = 0; q < 4 && cad_engine_poll_event(w->e, &ev) == CAD_OK; q++) count_event(w, &ev);
            w->polls++;
        } else if (r < 88) {
            /* a scratch layer with an animation, destroyed at once */
            cad_layer l;
            REL_OK(cad_layer_create(w->e, &l));
            double b[4] = {0, 0, 5, 5};
            REL_OK(cad_layer_set(w->e, l, "bounds", b, 4));
            snprintf(key, sizeof key, "t%d.scratch", w->t);
            REL_OK(cad_layer_add_animation(w->e, l, w->anim, key));
            w->adds++;
            REL_OK(cad_layer_destroy(w->e, l));
            REL_CHECK(cad_layer_destroy(w->e, l) == CAD_ERR_INVALID_HANDLE, "destroying a layer twice");
            w->scratch++;
        } else if (r < 94) {
            /* a failing call: this thread's last error must name its own key path */
            snprintf(badkp, sizeof badkp, "bad.t%d.%ld", w->t, i);
            double v = 1;
            cad_status st = cad_layer_set(w->e, w->kids[k], badkp, &v, 1);
            REL_CHECK(st == CAD_ERR_UNKNOWN_KEYPATH, "bad key path gave %s", cad_status_name(st));
            REL_CHECK(strstr(cad_last_error(), badkp) != NULL, "thread %d: last error is not its own: \"%s\"", w->t,
                      cad_last_error());
        } else if (r < 97) {
            /* a transaction around a change (transactions are per engine, not per
             * thread: they may nest with other threads' ones; the model value
             * is still the last one set) */
            REL_OK(cad_transaction_begin(w->e));
            REL_OK(cad_transaction_set_duration(w->e, 0.01));
            double p[2] = {w->t * 1000.0 + (double)i + 0.5, (double)k};
            REL_OK(cad_layer_set(w->e, w->kids[k], "position", p, 2));
            w->last_pos[k][0] = p[0];
            w->last_pos[k][1] = p[1];
            REL_OK(cad_transaction_commit(w->e));
        } else {
            double now = 0, v[16];
            int32_t n = 0;
            REL_OK(cad_engine_now(w->e, &now));
            REL_OK(cad_layer_get(w->e, w->kids[k], "transform", v, 16, &n));
            int32_t count = 0;
            REL_OK(cad_engine_layer_count(w->e, &count));
            REL_CHECK(count >= T * (K + 1), "layer count %d", count);
        }
    }
    return NULL;
}

static void part1(void) {
    cad_engine *e = cad_engine_create();
    REL_CHECK(e != NULL, "engine");
    REL_OK(cad_engine_set_event_capacity(e, 1 << 24));
    for (int t = 0; t < T; t++) {
        worker *w = &W[t];
        memset(w, 0, sizeof *w);
        w->t = t;
        w->e = e;
        w->seed = 0x7A11u + (uint64_t)t * 104729u;
        REL_OK(cad_layer_create(e, &w->root));
        double b[4] = {0, 0, 100, 100};
        REL_OK(cad_layer_set(e, w->root, "bounds", b, 4));
        for (int k = 0; k < K; k++) {
            REL_OK(cad_layer_create(e, &w->kids[k]));
            REL_OK(cad_layer_set(e, w->kids[k], "bounds", b, 4));
            REL_OK(cad_layer_add_sublayer(e, w->root, w->kids[k]));
        }
        REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &w->anim));
        double from = 0, to = 1;
        REL_OK(cad_anim_set_from(e, w->anim, &from, 1));
        REL_OK(cad_anim_set_to(e, w->anim, &to, 1));
        REL_OK(cad_anim_set_duration(e, w->anim, 0.005 + 0.005 * t));
        REL_OK(cad_anim_set_removed_on_completion(e, w->anim, 0));
        REL_OK(cad_anim_set_fill_mode(e, w->anim, CAD_FILL_FORWARDS));
        REL_OK(cad_anim_set_tag(e, w->anim, 1000 + t));
        REL_OK(cad_anim_set_callback(e, w->anim, anim_cb, w));
    }
    REL_OK(cad_engine_tick(e, 0));
    atomic_store(&g_clock, 1);
    for (int t = 0; t < T; t++)
        if (pthread_create(&W[t].th, NULL, worker_main, &W[t]) != 0) REL_FAIL("pthread_create");
    for (int t = 0; t < T; t++) pthread_join(W[t].th, NULL);

    /* the serial effects */
    double last = (double)atomic_load(&g_clock) * 0.001 + 1000;
    REL_OK(cad_engine_tick(e, last));
    REL_OK(cad_engine_tick(e, last + 1));
    int32_t count = 0;
    REL_OK(cad_engine_layer_count(e, &count));
    REL_CHECK(count == T * (K + 1), "layer count %d, expected %d", count, T * (K + 1));
    long adds = 0, removes = 0, ticks = 0, late = 0, polled_stops[MAXT] = {0}, starts = 0;
    for (int t = 0; t < T; t++) {
        worker *w = &W[t];
        cad_layer kids[K + 1];
        int32_t n = 0;
        REL_OK(cad_layer_sublayers(e, w->root, kids, K + 1, &n));
        REL_CHECK(n == K, "root of thread %d has %d sublayers", t, n);
        for (int k = 0; k < K; k++) {
            REL_CHECK(kids[k] == w->kids[k], "sublayer order of thread %d", t);
            double v[2];
            REL_OK(cad_layer_get(e, w->kids[k], "position", v, 2, &n));
            REL_CHECK(v[0] == w->last_pos[k][0] && v[1] == w->last_pos[k][1],
                      "thread %d layer %d: model position (%g, %g), last set (%g, %g)", t, k, v[0], v[1],
                      w->last_pos[k][0], w->last_pos[k][1]);
            int32_t na = 0;
            REL_OK(cad_layer_animation_count(e, w->kids[k], &na));
            unsigned seen = 0;
            for (int32_t q = 0; q < na; q++) {
                char key[32];
                int32_t len = 0;
                REL_OK(cad_layer_animation_key_at(e, w->kids[k], q, key, sizeof key, &len));
                int tt = -1, j = -1;
                if (sscanf(key, "t%d.k%d", &tt, &j) == 2 && tt == t && j >= 0 && j < NKEYS) seen |= 1u << j;
                else if (strcmp(key, "position") != 0) REL_FAIL("thread %d layer %d has unexpected animation \"%s\"", t, k, key);
            }
            REL_CHECK(seen == w->keys[k], "thread %d layer %d: keys attached %x, expected %x", t, k, seen, w->keys[k]);
        }
        adds += w->adds;
        removes += w->removes;
        ticks += w->ticks_ok;
        late += w->ticks_late;
        starts += w->polled_starts;
        for (int q = 0; q < T; q++) polled_stops[q] += w->polled_stops[q];
    }
    cad_event ev;
    worker drain;
    memset(&drain, 0, sizeof drain);
    while (cad_engine_poll_event(e, &ev) == CAD_OK) count_event(&drain, &ev);
    starts += drain.polled_starts;
    uint64_t dropped = 1;
    REL_OK(cad_engine_events_dropped(e, &dropped));
    REL_CHECK(dropped == 0, "%llu events dropped with capacity 1 << 24", (unsigned long long)dropped);
    REL_CHECK(atomic_load(&g_cb_bad) == 0, "%d callbacks had wrong arguments or failed calls", atomic_load(&g_cb_bad));
    for (int t = 0; t < T; t++) {
        long cb = atomic_load(&g_cb_stops[t]), polled = polled_stops[t] + drain.polled_stops[t];
        REL_CHECK(cb == W[t].adds, "thread %d: %ld animations added, %ld stop callbacks", t, W[t].adds, cb);
        REL_CHECK(polled == W[t].adds, "thread %d: %ld animations added, %ld stop events polled", t, W[t].adds, polled);
    }
    long cb_starts = 0;
    for (int t = 0; t < T; t++) cb_starts += atomic_load(&g_cb_starts[t]);
    REL_CHECK(cb_starts == starts, "%ld start callbacks but %ld start events polled", cb_starts, starts);
    cad_engine_destroy(e);
    printf("part 1: %d threads x %ld ops on one engine: %ld adds, %ld removes, %ld ticks (+%ld late), %ld callbacks: "
           "state matches the serial effects\n",
           T, OPS, adds, removes, ticks, late, (long)atomic_load(&g_cb_total));
}

/* ---- part 2 ---- */

typedef struct {
    pthread_t th;
    cad_engine *e;
    uint64_t seed;
    int steps;
    scen_result res;
} scene_job;

static void *scene_main(void *arg) {
    scene_job *j = (scene_job *)arg;
    scen_run(j->e, j->seed, j->steps, SCEN_NORMAL, 0.0, &j->res);
    return NULL;
}

static void part2(void) {
    int E = (int)rel_env_long("CADENCE_STRESS_ENGINES", 4);
    int steps = (int)rel_env_long("CADENCE_STRESS_SCENE_STEPS", 300);
    if (E > 32) E = 32;
    scene_job jobs[32];
    for (int i = 0; i < E; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].e = cad_engine_create();
        jobs[i].seed = 0xE46u + (uint64_t)i * 31337u;
        jobs[i].steps = steps;
    }
    for (int i = 0; i < E; i++)
        if (pthread_create(&jobs[i].th, NULL, scene_main, &jobs[i]) != 0) REL_FAIL("pthread_create");
    for (int i = 0; i < E; i++) pthread_join(jobs[i].th, NULL);
    long items = 0;
    for (int i = 0; i < E; i++) {
        cad_engine_destroy(jobs[i].e);
        cad_engine *e = cad_engine_create();
        scen_result serial;
        memset(&serial, 0, sizeof serial);
        scen_run(e, jobs[i].seed, steps, SCEN_NORMAL, 0.0, &serial);
        cad_engine_destroy(e);
        REL_CHECK(serial.hash == jobs[i].res.hash, "engine %d: threaded hash %016llx, serial %016llx", i,
                  (unsigned long long)jobs[i].res.hash, (unsigned long long)serial.hash);
        items += serial.render_items;
    }
    printf("part 2: %d engines on %d threads x %d scene steps (%ld render items): identical to serial runs\n", E, E,
           steps, items);
}

/* ---- part 3 ---- */

static void *churn_main(void *arg) {
    long n = (long)(intptr_t)arg;
    cad_layer previous = 0;
    for (long i = 0; i < n; i++) {
        cad_engine *e = cad_engine_create();
        REL_CHECK(e != NULL, "engine");
        cad_layer l;
        REL_OK(cad_layer_create(e, &l));
        if (previous) {
            cad_layer p = 1;
            REL_CHECK(cad_layer_superlayer(e, previous, &p) == CAD_ERR_INVALID_HANDLE,
                      "a layer of a destroyed engine was accepted by a new engine");
        }
        double v[2] = {1, 2};
        REL_OK(cad_layer_set(e, l, "position", v, 2));
        REL_OK(cad_engine_tick(e, 1));
        previous = l;
        cad_engine_destroy(e);
    }
    return NULL;
}

static void part3(void) {
    pthread_t th[MAXT];
    long n = OPS / 20 > 50 ? OPS / 20 : 50;
    for (int t = 0; t < T; t++)
        if (pthread_create(&th[t], NULL, churn_main, (void *)(intptr_t)n) != 0) REL_FAIL("pthread_create");
    for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
    printf("part 3: %d threads x %ld engines created and destroyed\n", T, n);
}

int main(int argc, char **argv) {
    if (argc > 1) OPS = atol(argv[1]);
    if (argc > 2) T = atoi(argv[2]);
    if (T < 1) T = 1;
    if (T > MAXT) T = MAXT;
    cad_kp_init(); /* before any thread: the table is built lazily */
    part1();
    part2();
    part3();
    printf("thread_stress: OK\n");
    return 0;
}
