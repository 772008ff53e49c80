/*
 * host_smoke.c - a small C host for valgrind memcheck (scripts/reliability.sh
 * runs it, and bindings/c/examples/host.c when present, under
 * `valgrind --error-exitcode=1 --leak-check=full`).
 *
 * It does what a game's render loop does with Cadence, plus the hostile parts:
 * a scene tree, explicit and implicit animations of every kind, transactions
 * with completions, a transition, callbacks that reenter the engine (and one
 * that destroys its own engine), failing calls of every kind (stale, foreign,
 * forged handles, NULL pointers, NaN), polling, render lists and samples over
 * a few hundred frames, several engines, and every engine destroyed at the end
 * so that nothing stays allocated. It checks its own results so that it also
 * fails if the library misbehaves; memcheck adds uninitialised reads, invalid
 * accesses and leaks.
 */
#include "scenario.h"

static int g_stops, g_completions;

static void on_anim(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished, int64_t tag,
                    void *ud) {
    (void)finished;
    (void)tag;
    (void)ud;
    if (kind == CAD_EVENT_STOP) g_stops++;
    /* reenter: read, set, add */
    double v[2];
    int32_t n = 0;
    if (cad_layer_presentation(e, layer, "position", v, 2, &n) == CAD_OK && (!isfinite(v[0]) || !isfinite(v[1])))
        REL_FAIL("non-finite presentation in a callback");
    if (kind == CAD_EVENT_STOP && strcmp(key, "spin") == 0) {
        double o = 0.75;
        REL_OK(cad_layer_set(e, layer, "opacity", &o, 1));
    }
}

static void on_done(cad_engine *e, void *ud) {
    (void)e;
    (void)ud;
    g_completions++;
}

static void destroy_self(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished,
                         int64_t tag, void *ud) {
    (void)kind; (void)layer; (void)key; (void)finished; (void)tag;
    int *destroyed = (int *)ud;
    if (!*destroyed) {
        *destroyed = 1;
        cad_engine_destroy(e);
    }
}

static void hostile(cad_engine *e, cad_engine *other, cad_layer l) {
    cad_layer stale, foreign;
    REL_OK(cad_layer_create(e, &stale));
    REL_OK(cad_layer_destroy(e, stale));
    REL_OK(cad_layer_create(other, &foreign));
    double v[16] = {0}, nan = NAN;
    int32_t n = 0;
    cad_layer out = 0;
    REL_CHECK(cad_layer_set(e, stale, "opacity", v, 1) == CAD_ERR_INVALID_HANDLE, "stale handle");
    REL_CHECK(cad_layer_set(e, foreign, "opacity", v, 1) == CAD_ERR_INVALID_HANDLE, "foreign handle");
    REL_CHECK(cad_layer_set(e, 0x123456789abcdefull, "opacity", v, 1) == CAD_ERR_INVALID_HANDLE, "forged handle");
    REL_CHECK(cad_layer_set(e, l, "opacity", &nan, 1) == CAD_ERR_INVALID_ARGUMENT, "NaN");
    REL_CHECK(cad_layer_set(e, l, "opacity", NULL, 1) == CAD_ERR_INVALID_ARGUMENT, "NULL values");
    REL_CHECK(cad_layer_set(e, l, "no.such.key", v, 1) == CAD_ERR_UNKNOWN_KEYPATH, "unknown key path");
    REL_CHECK(cad_layer_set(e, l, NULL, v, 1) != CAD_OK, "NULL key path");
    REL_CHECK(cad_layer_set(e, l, "position", v, 3) == CAD_ERR_TYPE_MISMATCH, "wrong count");
    REL_CHECK(cad_layer_set(e, l, "position", v, -1) != CAD_OK, "negative count");
    REL_CHECK(cad_layer_get(e, l, "transform", v, 4, &n) == CAD_ERR_BUFFER_TOO_SMALL && n == 16, "small buffer");
    REL_CHECK(cad_layer_superlayer(e, l, NULL) == CAD_ERR_INVALID_ARGUMENT, "NULL out");
    REL_CHECK(cad_layer_superlayer(NULL, l, &out) == CAD_ERR_INVALID_ARGUMENT, "NULL engine");
    REL_CHECK(cad_layer_add_sublayer(e, l, l) == CAD_ERR_INVALID_ARGUMENT, "self as sublayer");
    REL_CHECK(cad_engine_tick(e, NAN) == CAD_ERR_INVALID_ARGUMENT, "NaN tick");
    REL_CHECK(cad_engine_tick(e, -1) == CAD_ERR_INVALID_ARGUMENT, "tick back in time");
    REL_CHECK(cad_transaction_commit(e) == CAD_ERR_INVALID_STATE, "commit without begin");
    REL_CHECK(cad_engine_render_list(e, l, NULL, 5, &n) == CAD_ERR_INVALID_ARGUMENT, "NULL render buffer");
    REL_CHECK(cad_layer_remove_animation(e, l, "none") == CAD_ERR_NOT_FOUND, "no such animation");
    cad_anim a = 0;
    REL_CHECK(cad_anim_create(e, 99, "opacity", &a) == CAD_ERR_INVALID_ARGUMENT, "bad kind");
    REL_CHECK(cad_anim_create(e, CAD_ANIM_BASIC, "garbage", &a) == CAD_ERR_UNKNOWN_KEYPATH, "bad animation key path");
    REL_CHECK(strlen(cad_last_error()) > 0, "empty error message");
    cad_engine_destroy(NULL);
    REL_OK(cad_layer_destroy(other, foreign));
}

static void frame_loop(cad_engine *e, cad_layer root, double *now, int frames) {
    static cad_render_item items[512];
    cad_event ev;
    for (int f = 0; f < frames; f++) {
        *now += 1.0 / 60;
        REL_OK(cad_engine_tick(e, *now));
        int32_t n = 0;
        REL_OK(cad_engine_render_list(e, root, items, 512, &n));
        for (int32_t i = 0; i < n; i++)
            REL_CHECK(isfinite(items[i].world[12]) && isfinite(items[i].opacity), "non-finite render item");
        while (cad_engine_poll_event(e, &ev) == CAD_OK) {}
    }
}

int main(void) {
    REL_CHECK(CAD_CHECK_LAYOUT(), "header and library do not match");
    cad_engine *e = cad_engine_create(), *other = cad_engine_create();
    REL_CHECK(e && other, "engine");
    cad_layer root, kids[8];
    REL_OK(cad_layer_create(e, &root));
    double b[4] = {0, 0, 800, 600};
    REL_OK(cad_layer_set(e, root, "bounds", b, 4));
    for (int i = 0; i < 8; i++) {
        REL_OK(cad_layer_create(e, &kids[i]));
        double kb[4] = {0, 0, 50, 50}, p[2] = {60.0 * i, 100};
        REL_OK(cad_layer_set(e, kids[i], "bounds", kb, 4));
        REL_OK(cad_layer_set(e, kids[i], "position", p, 2));
        REL_OK(i < 4 ? cad_layer_add_sublayer(e, root, kids[i]) : cad_layer_add_sublayer(e, kids[i - 4], kids[i]));
    }
    double now = 0;
    REL_OK(cad_engine_tick(e, now));

    /* explicit animations of every kind */
    cad_anim a;
    double to[2] = {400, 300};
    REL_OK(cad_anim_create(e, CAD_ANIM_SPRING, "position", &a));
    REL_OK(cad_anim_set_to(e, a, to, 2));
    REL_OK(cad_anim_set_spring_perceptual(e, a, 0.6, 0.3));
    REL_OK(cad_anim_set_callback(e, a, on_anim, NULL));
    REL_OK(cad_layer_add_animation(e, kids[0], a, "move"));
    REL_OK(cad_anim_destroy(e, a));
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "transform.rotation.z", &a));
    double turn = 6.283185307179586;
    REL_OK(cad_anim_set_by(e, a, &turn, 1));
    REL_OK(cad_anim_set_duration(e, a, 1));
    REL_OK(cad_anim_set_repeat_count(e, a, 2));
    REL_OK(cad_anim_set_callback(e, a, on_anim, NULL));
    REL_OK(cad_layer_add_animation(e, kids[1], a, "spin"));
    REL_OK(cad_anim_destroy(e, a));
    REL_OK(cad_anim_create(e, CAD_ANIM_KEYFRAME, "backgroundColor", &a));
    double colors[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    REL_OK(cad_anim_set_values(e, a, colors, 3, 4));
    REL_OK(cad_anim_set_calculation_mode(e, a, CAD_CALC_CUBIC));
    REL_OK(cad_layer_add_animation(e, kids[2], a, "colors"));
    REL_OK(cad_anim_destroy(e, a));
    REL_OK(cad_anim_create(e, CAD_ANIM_KEYFRAME, "position", &a));
    REL_OK(cad_anim_path_move_to(e, a, 0, 0));
    REL_OK(cad_anim_path_cubic_to(e, a, 100, 0, 100, 100, 200, 100));
    REL_OK(cad_anim_set_rotation_mode(e, a, CAD_ROTATE_AUTO));
    REL_OK(cad_layer_add_animation(e, kids[5], a, "path"));
    REL_OK(cad_anim_destroy(e, a));
    cad_anim g, c1, c2;
    REL_OK(cad_anim_create(e, CAD_ANIM_GROUP, NULL, &g));
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &c1));
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "cornerRadius", &c2));
    double zero = 0, ten = 10;
    REL_OK(cad_anim_set_to(e, c1, &zero, 1));
    REL_OK(cad_anim_set_to(e, c2, &ten, 1));
    cad_anim kids2[2] = {c1, c2};
    REL_OK(cad_anim_group_set_children(e, g, kids2, 2));
    REL_OK(cad_anim_set_duration(e, g, 0.8));
    REL_OK(cad_anim_set_autoreverses(e, g, 1));
    REL_OK(cad_layer_add_animation(e, kids[3], g, NULL));
    REL_OK(cad_anim_destroy(e, g));
    REL_OK(cad_anim_destroy(e, c1));
    REL_OK(cad_anim_destroy(e, c2));
    frame_loop(e, root, &now, 30);

    /* implicit animations in a transaction, a transition, a keyframe block */
    REL_OK(cad_transaction_begin(e));
    REL_OK(cad_transaction_set_duration(e, 0.4));
    REL_OK(cad_transaction_set_completion(e, on_done, NULL));
    double p[2] = {10, 10}, half = 0.5;
    REL_OK(cad_layer_set(e, kids[4], "position", p, 2));
    REL_OK(cad_layer_set(e, kids[6], "opacity", &half, 1));
    REL_OK(cad_layer_set_contents(e, kids[7], 42));
    REL_OK(cad_transaction_begin_keyframe(e, 0.5, 0.5));
    REL_OK(cad_layer_set(e, kids[6], "cornerRadius", &ten, 1));
    REL_OK(cad_transaction_commit(e));
    REL_OK(cad_transaction_commit(e));
    frame_loop(e, root, &now, 60);
    double sample[16];
    int32_t n = 0;
    REL_OK(cad_engine_sample(e, kids, 8, "position", sample, 16, &n));

    hostile(e, other, kids[0]);

    /* a scenario per engine, then a long run */
    scen_result r;
    memset(&r, 0, sizeof r);
    scen_run(other, 42, 300, SCEN_NORMAL, 0, &r);
    frame_loop(e, root, &now, 120);
    REL_CHECK(g_completions == 1, "transaction completion ran %d times", g_completions);
    REL_CHECK(g_stops >= 2, "only %d stop callbacks", g_stops);

    /* an engine destroyed from its own callback */
    cad_engine *doomed = cad_engine_create();
    cad_layer dl;
    REL_OK(cad_layer_create(doomed, &dl));
    REL_OK(cad_anim_create(doomed, CAD_ANIM_BASIC, "opacity", &a));
    REL_OK(cad_anim_set_to(doomed, a, &zero, 1));
    int destroyed = 0;
    REL_OK(cad_anim_set_callback(doomed, a, destroy_self, &destroyed));
    for (int i = 0; i < 3; i++) {
        cad_layer x;
        REL_OK(cad_layer_create(doomed, &x));
        REL_OK(cad_layer_add_animation(doomed, x, a, NULL));
    }
    REL_OK(cad_layer_add_animation(doomed, dl, a, NULL));
    REL_OK(cad_engine_tick(doomed, 1)); /* destroys it */
    REL_CHECK(destroyed == 1, "the destroying callback did not run");

    cad_engine_destroy(other);
    cad_engine_destroy(e);
    printf("host_smoke: OK (%d stop callbacks, %ld scenario render items)\n", g_stops, r.render_items);
    return 0;
}
