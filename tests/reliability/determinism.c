/*
 * determinism.c - the same sequence of calls gives bit-identical render lists
 * and events, engine to engine and run to run.
 *
 * For each of N seeds (scenario.h) the scenario runs on:
 *   1. a fresh engine;
 *   2. a second fresh engine, after the first was destroyed;
 *   3. two engines at once (A and B), their steps interleaved in small chunks
 *      with a third engine running a different scene in between (engines share
 *      no state);
 *   4. a new engine created after 100 others were created and destroyed;
 * and every run must give the same hash of statuses, render items (bit for
 * bit), presentation values and events. The program prints one line per seed
 * with its hash; scripts/reliability.sh runs it twice (two processes, different
 * address-space layouts) and compares the outputs: run to run.
 *
 * Usage: determinism [seeds [steps]]   (defaults 24 and 400)
 */
#include "scenario.h"

static uint64_t run_fresh(uint64_t seed, int steps, int mode, scen_result *r) {
    memset(r, 0, sizeof *r);
    cad_engine *e = cad_engine_create();
    REL_CHECK(e != NULL, "cad_engine_create returned NULL");
    scen_run(e, seed, steps, mode, 0.0, r);
    cad_engine_destroy(e);
    return r->hash;
}

/* Interleaved: the scene runs on engine A while the same scene runs on
 * engine B and a different scene on engine C, all three advancing in small
 * alternating chunks from one thread: engines share nothing. */
static uint64_t run_interleaved(uint64_t seed, int steps, int mode, scen_result *r, uint64_t *hb) {
    cad_engine *a = cad_engine_create(), *b = cad_engine_create(), *c = cad_engine_create();
    REL_CHECK(a && b && c, "cad_engine_create returned NULL");
    scen_result rb, rc;
    memset(r, 0, sizeof *r);
    memset(&rb, 0, sizeof rb);
    memset(&rc, 0, sizeof rc);
    scen_state *sa = scen_open(a, seed, mode, 0.0, r);
    scen_state *sc = scen_open(c, seed ^ 0xABCDEFull, mode, 5.0, &rc);
    scen_state *sb = scen_open(b, seed, mode, 0.0, &rb);
    for (int done = 0; done < steps; done += 7) {
        int n = steps - done < 7 ? steps - done : 7;
        scen_steps(sc, 3);
        scen_steps(sa, n);
        scen_steps(sc, 2);
        scen_steps(sb, n);
    }
    scen_close(sb);
    scen_close(sc);
    scen_close(sa);
    cad_engine_destroy(c);
    cad_engine_destroy(b);
    cad_engine_destroy(a);
    *hb = rb.hash;
    return r->hash;
}

static uint64_t run_after_churn(uint64_t seed, int steps, int mode, scen_result *r) {
    for (int i = 0; i < 100; i++) {
        cad_engine *x = cad_engine_create();
        cad_layer l;
        REL_OK(cad_layer_create(x, &l));
        cad_engine_destroy(x);
    }
    return run_fresh(seed, steps, mode, r);
}

int main(int argc, char **argv) {
    int seeds = argc > 1 ? atoi(argv[1]) : 24;
    int steps = argc > 2 ? atoi(argv[2]) : 400;
    int failures = 0;
    uint64_t all = REL_HASH_INIT;
    long events = 0, items = 0, callbacks = 0;
    for (int i = 0; i < seeds; i++) {
        uint64_t seed = 0x5EED0000ull + (uint64_t)i * 7919u;
        int mode = (i % 4 == 3) ? SCEN_EXTREME : SCEN_NORMAL;
        scen_result r1, r2, r3, r4;
        uint64_t h3b = 0;
        uint64_t h1 = run_fresh(seed, steps, mode, &r1);
        uint64_t h2 = run_fresh(seed, steps, mode, &r2);
        uint64_t h3 = run_interleaved(seed, steps, mode, &r3, &h3b);
        uint64_t h4 = run_after_churn(seed, steps, mode, &r4);
        if (h1 != h2 || h1 != h3 || h1 != h3b || h1 != h4) {
            fprintf(stderr, "FAIL determinism seed %llx: hashes %016llx %016llx %016llx %016llx %016llx\n",
                    (unsigned long long)seed, (unsigned long long)h1, (unsigned long long)h2,
                    (unsigned long long)h3, (unsigned long long)h3b, (unsigned long long)h4);
            failures++;
        }
        if (r1.ticks < 10 || r1.render_items == 0) {
            fprintf(stderr, "FAIL determinism seed %llx: the scene did too little (%ld ticks, %ld items)\n",
                    (unsigned long long)seed, r1.ticks, r1.render_items);
            failures++;
        }
        events += r1.events;
        items += r1.render_items;
        callbacks += r1.callbacks;
        all = rel_hash(all, &h1, sizeof h1);
        printf("seed %016llx mode %d hash %016llx ticks %ld items %ld events %ld callbacks %ld calls %ld failed %ld\n",
               (unsigned long long)seed, mode, (unsigned long long)h1, r1.ticks, r1.render_items, r1.events,
               r1.callbacks, r1.calls, r1.failures);
    }
    printf("all %016llx\n", (unsigned long long)all);
    fprintf(stderr, "determinism: %d seeds x 5 runs, %ld render items, %ld events, %ld callbacks per run set: %s\n",
            seeds, items, events, callbacks, failures ? "FAILED" : "identical");
    return failures ? 1 : 0;
}
