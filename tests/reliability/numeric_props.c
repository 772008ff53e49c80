/*
 * numeric_props.c - presentation values are never NaN or infinite for finite
 * inputs; extreme but valid inputs give finite results or an error status.
 *
 * Property tests over random scenes (scenario.h): ordinary scenes and extreme
 * ones (times near 1e9 s, durations near 1e-9 s, speeds 1e-6 ... 1e6, values up
 * to 1e300), checking every presentation value, batch sample, render item
 * float, event time, now and converted time a successful call returns.
 *
 * Then targeted properties, one axis at a time, each on every animation kind
 * (basic, spring, keyframe in every calculation mode, path, group, implicit)
 * and on several key paths:
 *   time_1e9         ticks near 1e9 s: finite, and a linear animation is at the
 *                    right progress to within 1e-5;
 *   duration_1e-9    durations of 1e-9 s: finite, and the animation finishes;
 *   speed_1e-6/1e6   extreme animation and layer speeds: finite;
 *   values_1e300     model and animated values near ±1e300 (and 1e-300):
 *                    presentation finite; render list floats finite;
 *   repeat_infinite  repeatCount = INFINITY far in time: finite;
 *   springs          extreme valid spring parameters: settling duration and
 *                    presentation finite (or an error status);
 *   layer_timing     extreme layer speed/timeOffset/beginTime: convert_time and
 *                    presentation finite;
 *   timing_eval      cad_timing_eval_batch over extreme valid curves: finite.
 * A failing property prints the exact calls of its first failing case.
 *
 * Usage: numeric_props [seeds [steps]]   (defaults 64 and 300)
 */
#include "checks.h"
#include "scenario.h"

#include <stdarg.h>

static char g_detail[1024];

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
    if (g_detail[0]) return; /* keep the first case */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_detail, sizeof g_detail, fmt, ap);
    va_end(ap);
}

/* Every key path's presentation on `l`: returns the number of non-finite values. */
static int presentation_nonfinite(cad_engine *e, cad_layer l, const char *ctx) {
    int bad = 0;
    for (int k = 0; k < cad_kp_count; k++) {
        double v[16];
        int32_t n = 0;
        if (cad_layer_presentation(e, l, cad_kps[k].name, v, 16, &n) != CAD_OK) continue;
        for (int i = 0; i < n; i++)
            if (!isfinite(v[i])) {
                if (!bad) note("%s: presentation \"%s\"[%d] = %g", ctx, cad_kps[k].name, i, v[i]);
                bad++;
            }
    }
    return bad;
}

static int render_nonfinite(cad_engine *e, cad_layer root, const char *ctx) {
    static cad_render_item items[256];
    int32_t n = 0;
    if (cad_engine_render_list(e, root, items, 256, &n) != CAD_OK) return 0;
    int bad = 0;
    for (int32_t i = 0; i < n; i++) {
        const float *f = &items[i].world[0];
        size_t nf = (offsetof(cad_render_item, contents) - offsetof(cad_render_item, world)) / sizeof(float);
        for (size_t j = 0; j < nf; j++)
            if (!isfinite(f[j])) {
                if (!bad) note("%s: render item %d float %zu (of world..contents_rect) = %g", ctx, i, j, f[j]);
                bad++;
            }
    }
    return bad;
}

/* ---- random scenes ---- */

static void random_scenes(int seeds, int steps) {
    long pres[2] = {0, 0}, rend[2] = {0, 0}, other[2] = {0, 0}, calls[2] = {0, 0};
    char first[2][3][400];
    memset(first, 0, sizeof first);
    for (int mode = 0; mode < 2; mode++) {
        for (int i = 0; i < seeds; i++) {
            scen_result r;
            memset(&r, 0, sizeof r);
            cad_engine *e = cad_engine_create();
            uint64_t seed = 0x4E0000ull + (uint64_t)i * 15485863u;
            scen_run(e, seed, steps, mode, mode == SCEN_EXTREME ? 1e9 : 0.0, &r);
            cad_engine_destroy(e);
            calls[mode] += r.calls;
            long *counters[3] = {&pres[mode], &rend[mode], &other[mode]};
            long got[3] = {r.nonfinite_presentation, r.nonfinite_render, r.nonfinite_other};
            const char *msg[3] = {r.first_presentation, r.first_render, r.first_other};
            for (int c = 0; c < 3; c++) {
                if (got[c] && !first[mode][c][0])
                    snprintf(first[mode][c], sizeof first[mode][c], "seed %llx (%s scene, %d steps): %s",
                             (unsigned long long)seed, mode ? "extreme" : "normal", steps, msg[c]);
                *counters[c] += got[c];
            }
        }
    }
    static const char *names[2][3] = {
        {"numeric.random_scenes.presentation", "numeric.random_scenes.render", "numeric.random_scenes.other"},
        {"numeric.extreme_scenes.presentation", "numeric.extreme_scenes.render", "numeric.extreme_scenes.other"}};
    for (int mode = 0; mode < 2; mode++) {
        long got[3] = {pres[mode], rend[mode], other[mode]};
        for (int c = 0; c < 3; c++) {
            char d[600];
            snprintf(d, sizeof d, "%ld non-finite values in %d scenes (%ld calls); first: %s", got[c], seeds, calls[mode],
                     first[mode][c]);
            check_result(names[mode][c], got[c] == 0, d);
        }
    }
}

/* ---- targeted ---- */

typedef struct {
    const char *kp;
    int comps;
} target;

static const target targets[] = {{"opacity", 1}, {"position", 2}, {"bounds", 4}, {"transform", 16},
                                 {"transform.rotation.z", 1}, {"backgroundColor", 4}, {"sublayerTransform", 16},
                                 {"transform.scale", 1}, {"shadowOffset", 2}, {"anchorPoint", 2}};
enum { NTARGETS = sizeof targets / sizeof targets[0] };

/* kinds: 0 basic from-to, 1 basic by additive, 2 spring, 3..7 keyframe in calc mode 0..4, 8 path, 9 group, 10 implicit */
enum { NKINDS = 11 };
static const char *kind_names[NKINDS] = {"basic", "basic-additive-by", "spring", "keyframe-linear", "keyframe-discrete",
                                         "keyframe-paced", "keyframe-cubic", "keyframe-cubic-paced", "path", "group",
                                         "implicit"};

typedef struct {
    double value;        /* magnitude of values */
    double duration;
    double speed;
    double t0;           /* first tick */
    double layer_speed;  /* layer's own speed */
    double repeat;       /* repeatCount */
} axis;

static void fill(double *v, int comps, double mag, int flip) {
    for (int i = 0; i < comps; i++) v[i] = (i % 2 == flip % 2) ? mag : -mag * 0.5;
    if (comps == 16) {
        static const double id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        for (int i = 0; i < 16; i++) v[i] = id[i];
        v[0] = v[5] = mag;
        v[12] = flip ? mag : -mag;
    }
}

/* Builds a scene for one kind/target/axis and probes it at several times.
 * Returns nonzero on a non-finite presentation (bit 1) or render (bit 2) value. */
static int probe(int kind, const target *t, const axis *ax, const char *axis_name) {
    char ctx[400];
    snprintf(ctx, sizeof ctx,
             "%s: kind %s on \"%s\", values %g, duration %g, speed %g, first tick %.17g, layer speed %g, repeatCount %g",
             axis_name, kind_names[kind], t->kp, ax->value, ax->duration, ax->speed, ax->t0, ax->layer_speed, ax->repeat);
    cad_engine *e = cad_engine_create();
    cad_layer root, l;
    REL_OK(cad_layer_create(e, &root));
    REL_OK(cad_layer_create(e, &l));
    REL_OK(cad_layer_add_sublayer(e, root, l));
    double b[4] = {0, 0, 100, 100};
    REL_OK(cad_layer_set(e, root, "bounds", b, 4));
    REL_OK(cad_layer_set(e, l, "bounds", b, 4));
    double v[16], w[16];
    fill(v, t->comps, ax->value, 0);
    fill(w, t->comps, ax->value, 1);
    /* the model value itself may be extreme */
    cad_layer_set(e, l, t->kp, w, t->comps);
    if (ax->layer_speed != 1) cad_layer_set(e, l, "speed", &ax->layer_speed, 1);
    REL_OK(cad_engine_tick(e, ax->t0));
    cad_anim a = 0;
    cad_status st = CAD_OK;
    switch (kind) {
    case 0: case 1: case 2:
        st = cad_anim_create(e, kind == 2 ? CAD_ANIM_SPRING : CAD_ANIM_BASIC, t->kp, &a);
        if (st != CAD_OK) break;
        if (kind == 1) {
            cad_anim_set_by(e, a, v, t->comps);
            cad_anim_set_additive(e, a, 1);
        } else {
            cad_anim_set_from(e, a, w, t->comps);
            cad_anim_set_to(e, a, v, t->comps);
        }
        break;
    case 3: case 4: case 5: case 6: case 7: {
        st = cad_anim_create(e, CAD_ANIM_KEYFRAME, t->kp, &a);
        if (st != CAD_OK) break;
        double vals[4 * 16];
        fill(vals, t->comps, ax->value, 0);
        fill(vals + t->comps, t->comps, ax->value, 1);
        fill(vals + 2 * t->comps, t->comps, -ax->value, 0);
        fill(vals + 3 * t->comps, t->comps, ax->value * 1e-3, 1);
        cad_anim_set_values(e, a, vals, 4, t->comps);
        cad_anim_set_calculation_mode(e, a, (cad_calc_mode)(kind - 3));
        break;
    }
    case 8:
        st = cad_anim_create(e, CAD_ANIM_KEYFRAME, "position", &a);
        if (st != CAD_OK) break;
        cad_anim_path_move_to(e, a, 0, 0);
        cad_anim_path_cubic_to(e, a, ax->value, 0, 0, ax->value, ax->value, ax->value);
        cad_anim_path_quad_to(e, a, -ax->value, ax->value, 0, 0);
        cad_anim_set_rotation_mode(e, a, CAD_ROTATE_AUTO);
        cad_anim_set_calculation_mode(e, a, CAD_CALC_PACED);
        break;
    case 9: {
        st = cad_anim_create(e, CAD_ANIM_GROUP, NULL, &a);
        if (st != CAD_OK) break;
        cad_anim c = 0;
        if (cad_anim_create(e, CAD_ANIM_BASIC, t->kp, &c) == CAD_OK) {
            cad_anim_set_to(e, c, v, t->comps);
            cad_anim_set_speed(e, c, ax->speed);
            cad_anim_group_set_children(e, a, &c, 1);
            cad_anim_destroy(e, c);
        }
        break;
    }
    default:
        break;
    }
    if (a) {
        cad_anim_set_duration(e, a, ax->duration);
        cad_anim_set_speed(e, a, ax->speed);
        if (ax->repeat != 0) cad_anim_set_repeat_count(e, a, ax->repeat);
        cad_anim_set_fill_mode(e, a, CAD_FILL_BOTH);
        cad_layer_add_animation(e, l, a, "probe");
        cad_anim_destroy(e, a);
    } else if (kind == 10) {
        REL_OK(cad_transaction_begin(e));
        cad_transaction_set_duration(e, ax->duration);
        cad_layer_set(e, l, t->kp, v, t->comps);
        REL_OK(cad_transaction_commit(e));
    }
    (void)st;
    int bad = 0;
    double steps[] = {0, ax->duration * 0.5, ax->duration, 1.0 / 60, 0.5, 1, 1e3, 1e6};
    double now = ax->t0;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        double next = ax->t0 + steps[i];
        if (next < now) continue;
        now = next;
        if (cad_engine_tick(e, now) != CAD_OK) continue;
        char c2[480];
        snprintf(c2, sizeof c2, "%s, at tick %.17g", ctx, now);
        if (presentation_nonfinite(e, l, c2) || presentation_nonfinite(e, root, c2)) bad |= 1;
        if (render_nonfinite(e, root, c2)) bad |= 2;
        double ct = 0;
        if (cad_layer_convert_time(e, now, 0, l, &ct) == CAD_OK && !isfinite(ct)) {
            note("%s: convert_time(%.17g, global -> layer) = %g", c2, now, ct);
            bad |= 1;
        }
        cad_event ev;
        while (cad_engine_poll_event(e, &ev) == CAD_OK)
            if (!isfinite(ev.time)) {
                note("%s: event time %g", c2, ev.time);
                bad |= 1;
            }
    }
    cad_engine_destroy(e);
    return bad;
}

/* Runs every kind x target for an axis; reports presentation and render separately. */
static void axis_check(const char *name, axis ax) {
    char pname[96], rname[96], pdetail[1100] = "", rdetail[1100] = "";
    int pbad = 0, rbad = 0, cases = 0;
    for (int kind = 0; kind < NKINDS; kind++) {
        for (int t = 0; t < NTARGETS; t++) {
            if (kind == 8 && t > 0) break; /* paths animate position only */
            g_detail[0] = 0;
            int r = probe(kind, &targets[t], &ax, name);
            cases++;
            if ((r & 1) && !pbad++) snprintf(pdetail, sizeof pdetail, "%s", g_detail);
            if ((r & 2) && !rbad++) {
                if (!(r & 1)) snprintf(rdetail, sizeof rdetail, "%s", g_detail);
                else snprintf(rdetail, sizeof rdetail, "(see presentation) %s", g_detail);
            }
        }
    }
    snprintf(pname, sizeof pname, "numeric.%s.presentation", name);
    snprintf(rname, sizeof rname, "numeric.%s.render", name);
    char d[1300];
    snprintf(d, sizeof d, "%d of %d cases; first: %s", pbad, cases, pdetail);
    check_result(pname, pbad == 0, d);
    snprintf(d, sizeof d, "%d of %d cases; first: %s", rbad, cases, rdetail);
    check_result(rname, rbad == 0, d);
}

/* A linear animation near 1e9 s is where it should be. */
static void precision_1e9(void) {
    double t0 = 1e9;
    cad_engine *e = cad_engine_create();
    cad_layer l;
    REL_OK(cad_layer_create(e, &l));
    REL_OK(cad_engine_tick(e, t0));
    cad_anim a;
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "position.x", &a));
    double from = 0, to = 1000;
    REL_OK(cad_anim_set_from(e, a, &from, 1));
    REL_OK(cad_anim_set_to(e, a, &to, 1));
    REL_OK(cad_anim_set_duration(e, a, 2));
    REL_OK(cad_layer_add_animation(e, l, a, "x"));
    double worst = 0;
    for (int i = 1; i < 120; i++) {
        double now = t0 + i / 60.0;
        REL_OK(cad_engine_tick(e, now));
        double v = 0;
        int32_t n = 0;
        REL_OK(cad_layer_presentation(e, l, "position.x", &v, 1, &n));
        double expect = (now - t0) / 2 * 1000;
        if (fabs(v - expect) > worst) worst = fabs(v - expect);
    }
    cad_engine_destroy(e);
    char d[200];
    snprintf(d, sizeof d, "a 2 s linear animation 0 -> 1000 added at t = 1e9 is off by up to %g (allowed 1e-2: 1e-5 of its range)", worst);
    check_result("numeric.time_1e9.precision", worst <= 1e-2, d);
}

/* A 1e-9 s animation finishes, with a stop(finished) event. */
static void tiny_duration_finishes(void) {
    cad_engine *e = cad_engine_create();
    cad_layer l;
    REL_OK(cad_layer_create(e, &l));
    REL_OK(cad_engine_tick(e, 1));
    cad_anim a;
    REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &a));
    double to = 0;
    REL_OK(cad_anim_set_to(e, a, &to, 1));
    REL_OK(cad_anim_set_duration(e, a, 1e-9));
    REL_OK(cad_layer_add_animation(e, l, a, "x"));
    REL_OK(cad_engine_tick(e, 1 + 1e-9));
    REL_OK(cad_engine_tick(e, 1 + 1.0 / 60));
    int stops = 0;
    cad_event ev;
    while (cad_engine_poll_event(e, &ev) == CAD_OK)
        if (ev.kind == CAD_EVENT_STOP && ev.finished) stops++;
    int32_t count = -1;
    REL_OK(cad_layer_animation_count(e, l, &count));
    cad_engine_destroy(e);
    check_result("numeric.duration_1e-9.finishes", stops == 1 && count == 0,
                 "a 1e-9 s animation did not report stop(finished) and get removed within a frame");
}

static void springs(void) {
    static const double masses[] = {1e-300, 1e-9, 1, 1e9, 1e300};
    static const double stiff[] = {1e-300, 1e-9, 1, 1e9, 1e300};
    static const double damp[] = {0, 1e-300, 1, 1e9, 1e300};
    static const double vel[] = {0, -1e300, 1e300};
    int bad = 0, cases = 0;
    g_detail[0] = 0;
    for (size_t m = 0; m < 5; m++)
        for (size_t k = 0; k < 5; k++)
            for (size_t d = 0; d < 5; d++)
                for (size_t v = 0; v < 3; v++) {
                    cad_engine *e = cad_engine_create();
                    cad_layer l;
                    REL_OK(cad_layer_create(e, &l));
                    REL_OK(cad_engine_tick(e, 0));
                    cad_anim a;
                    REL_OK(cad_anim_create(e, CAD_ANIM_SPRING, "position.x", &a));
                    double to = 100;
                    REL_OK(cad_anim_set_to(e, a, &to, 1));
                    cases++;
                    char ctx[300];
                    snprintf(ctx, sizeof ctx, "spring(mass %g, stiffness %g, damping %g, velocity %g) on position.x 0 -> 100",
                             masses[m], stiff[k], damp[d], vel[v]);
                    if (cad_anim_set_spring(e, a, masses[m], stiff[k], damp[d], vel[v]) == CAD_OK) {
                        double sd = 0;
                        if (cad_anim_spring_settling_duration(e, a, &sd) == CAD_OK && (isnan(sd) || sd < 0)) {
                            note("%s: settling duration %g", ctx, sd);
                            bad++;
                        }
                        cad_layer_add_animation(e, l, a, "s");
                        double ts[] = {1.0 / 60, 0.5, 1, 10, 1e3, 1e9};
                        int b = 0;
                        for (size_t i = 0; i < 6; i++) {
                            if (cad_engine_tick(e, ts[i]) != CAD_OK) continue;
                            char c2[400];
                            snprintf(c2, sizeof c2, "%s, at tick %g", ctx, ts[i]);
                            b |= presentation_nonfinite(e, l, c2);
                        }
                        if (b) bad++;
                    }
                    cad_engine_destroy(e);
                }
    char dd[1300];
    snprintf(dd, sizeof dd, "%d of %d cases; first: %s", bad, cases, g_detail);
    check_result("numeric.springs.presentation", bad == 0, dd);
}

/* Layer timing: speeds 1e-6 ... 1e6 and times near 1e9 (the ranges),
 * or (beyond) speeds and offsets near 1e300. */
static void layer_timing(int beyond) {
    static const double speeds_in[] = {1e-6, 1e6, -1e6, 0, 1};
    static const double offsets_in[] = {0, 1e9, -1e9, 0.5};
    static const double speeds_out[] = {1e-300, 1e300, -1e300, 0, 1};
    static const double offsets_out[] = {0, 1e300, -1e300, 0.5};
    static const double begins[] = {0, 1e9, -1e9};
    const double *speeds = beyond ? speeds_out : speeds_in, *offsets = beyond ? offsets_out : offsets_in;
    int bad = 0, cases = 0;
    g_detail[0] = 0;
    for (size_t s = 0; s < 5; s++)
        for (size_t o = 0; o < 4; o++)
            for (size_t b = 0; b < 3; b++) {
                cad_engine *e = cad_engine_create();
                cad_layer root, l;
                REL_OK(cad_layer_create(e, &root));
                REL_OK(cad_layer_create(e, &l));
                REL_OK(cad_layer_add_sublayer(e, root, l));
                cad_layer_set(e, root, "speed", &speeds[s], 1);
                cad_layer_set(e, root, "timeOffset", &offsets[o], 1);
                cad_layer_set(e, l, "beginTime", &begins[b], 1);
                cad_layer_set(e, l, "speed", &speeds[(s + 1) % 5], 1);
                REL_OK(cad_engine_tick(e, 1e9));
                cad_anim a;
                REL_OK(cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &a));
                double to = 0;
                REL_OK(cad_anim_set_to(e, a, &to, 1));
                REL_OK(cad_layer_add_animation(e, l, a, "o"));
                cases++;
                char ctx[300];
                snprintf(ctx, sizeof ctx, "root speed %g timeOffset %g, child beginTime %g speed %g", speeds[s], offsets[o],
                         begins[b], speeds[(s + 1) % 5]);
                int bb = 0;
                double ts[] = {1e9 + 1.0 / 60, 1e9 + 1, 2e9};
                for (size_t i = 0; i < 3; i++) {
                    if (cad_engine_tick(e, ts[i]) != CAD_OK) continue;
                    char c2[400];
                    snprintf(c2, sizeof c2, "%s, at tick %g", ctx, ts[i]);
                    bb |= presentation_nonfinite(e, l, c2);
                    double out = 0;
                    if (cad_layer_convert_time(e, ts[i], 0, l, &out) == CAD_OK && !isfinite(out)) {
                        note("%s: convert_time(global -> child) = %g", c2, out);
                        bb = 1;
                    }
                    if (cad_layer_convert_time(e, 5, l, 0, &out) == CAD_OK && !isfinite(out)) {
                        note("%s: convert_time(5, child -> global) = %g", c2, out);
                        bb = 1;
                    }
                }
                if (bb) bad++;
                cad_engine_destroy(e);
            }
    char dd[1300];
    snprintf(dd, sizeof dd, "%d of %d cases; first: %s", bad, cases, g_detail);
    check_result(beyond ? "numeric.layer_timing_1e300.presentation" : "numeric.layer_timing.presentation", bad == 0, dd);
}

static void timing_eval(void) {
    static const double ys[] = {0, 1, -1e300, 1e300, 1e-300, 1e9, -1.7976931348623157e308};
    static const double xs[] = {0, 1, 1e-300, 0.5, 0.999999999};
    double in[] = {0, 1e-300, 1e-9, 0.25, 0.5, 0.75, 1 - 1e-9, 1, -1, 2, 1e300, -1e300};
    double out[12];
    int bad = 0, cases = 0;
    g_detail[0] = 0;
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 7; b++)
            for (size_t c = 0; c < 5; c++)
                for (size_t d = 0; d < 7; d++) {
                    cases++;
                    if (cad_timing_eval_batch(xs[a], ys[b], xs[c], ys[d], in, out, 12) != CAD_OK) continue;
                    for (int i = 0; i < 12; i++)
                        if (!isfinite(out[i])) {
                            note("cad_timing_eval_batch(%g, %g, %g, %g) at x = %g gives %g", xs[a], ys[b], xs[c], ys[d], in[i], out[i]);
                            bad++;
                            break;
                        }
                }
    char dd[1300];
    snprintf(dd, sizeof dd, "%d of %d curves; first: %s", bad, cases, g_detail);
    check_result("numeric.timing_eval", bad == 0, dd);
}

int main(int argc, char **argv) {
    int seeds = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 300;
    cad_kp_init();
    random_scenes(seeds, steps);
    axis base = {100, 1, 1, 0, 1, 0};
    axis ax;
    ax = base; axis_check("ordinary", ax);
    ax = base; ax.t0 = 1e9; axis_check("time_1e9", ax);
    ax = base; ax.t0 = 1e9 + 0.123456789; ax.duration = 1e-9; axis_check("duration_1e-9", ax);
    ax = base; ax.speed = 1e-6; axis_check("speed_1e-6", ax);
    ax = base; ax.speed = 1e6; axis_check("speed_1e6", ax);
    ax = base; ax.layer_speed = 1e6; ax.t0 = 1e9; axis_check("layer_speed_1e6", ax);
    ax = base; ax.value = 1e300; axis_check("values_1e300", ax);
    ax = base; ax.value = 1e-300; axis_check("values_1e-300", ax);
    ax = base; ax.repeat = INFINITY; ax.t0 = 1e9; axis_check("repeat_infinite", ax);
    precision_1e9();
    tiny_duration_finishes();
    springs();
    layer_timing(0);
    layer_timing(1);
    timing_eval();
    return check_exit("numeric_props");
}
