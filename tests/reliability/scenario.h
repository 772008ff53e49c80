/*
 * scenario.h - deterministic random scenes for the reliability tests.
 *
 * scen_run(e, seed, steps, mode, &result) drives one engine through a random
 * but reproducible sequence of valid (and some invalid) calls: trees of layers,
 * property changes with and without actions, explicit animations of every kind
 * with random timing, transactions (nested, with completions, springs, keyframe
 * blocks), contents changes (fade transitions), removals, layer destruction,
 * callbacks that reenter the engine, and ticks. After every tick it reads
 * the render list of every root, the presentation of several key paths, and
 * polls every event.
 *
 * The result is a hash of everything observable (statuses, render items bit for
 * bit, presentation values, events) plus counters. The same seed and mode give
 * the same hash on any engine, in any process, on any thread: that is the
 * determinism property. With SCEN_EXTREME the values, times, durations and
 * speeds are extreme but valid (times near 1e9 s, durations near 1e-9 s, speeds
 * 1e-6 ... 1e6, values up to 1e300) and the result counts every non-finite
 * number the engine returned from a successful call (the numeric property).
 *
 * A scenario keeps all its state in a scen_state, so several can run at once
 * on several threads.
 */
#ifndef CADENCE_RELIABILITY_SCENARIO_H
#define CADENCE_RELIABILITY_SCENARIO_H

#include "keypaths.h"
#include "rel_common.h"

enum { SCEN_NORMAL = 0, SCEN_EXTREME = 1 };
enum { SCEN_MAXL = 48, SCEN_MAXITEMS = 4 * SCEN_MAXL + 16 };

typedef struct scen_result {
    uint64_t hash;
    long ticks, calls, failures, events, callbacks, render_items;
    /* Non-finite numbers returned by successful calls (presentation, samples,
     * render items, event times, now, convert_time), by kind. */
    long nonfinite_presentation, nonfinite_render, nonfinite_other;
    /* The first non-finite value of each kind, with its context. */
    char first_presentation[256], first_render[256], first_other[256];
} scen_result;

typedef struct scen_state {
    cad_engine *e;
    rel_rng rng;
    int mode;
    double now;
    cad_layer layers[SCEN_MAXL];
    int nl;
    /* Every layer ever created, in order: handles differ between engines (each
     * stamps its own salt), so hashes use these ordinals instead. */
    cad_layer all[4096];
    int nall;
    scen_result *res;
    int in_callback;
    cad_render_item items[SCEN_MAXITEMS];
} scen_state;

static inline void scen_mix(scen_state *s, const void *p, size_t n) { s->res->hash = rel_hash(s->res->hash, p, n); }

static inline int64_t scen_ord(scen_state *s, cad_layer h) {
    if (h == 0) return -1;
    for (int i = s->nall - 1; i >= 0; i--)
        if (s->all[i] == h) return i;
    return -2;
}

static inline void scen_status(scen_state *s, cad_status st) {
    s->res->calls++;
    if (st != CAD_OK) s->res->failures++;
    scen_mix(s, &st, sizeof st);
}

static inline void scen_nonfinite(scen_state *s, long *counter, const char *what, double v) {
    (*counter)++;
    char *first = counter == &s->res->nonfinite_presentation ? s->res->first_presentation
                  : counter == &s->res->nonfinite_render     ? s->res->first_render
                                                             : s->res->first_other;
    if (!first[0]) snprintf(first, 256, "%s = %g at tick %.17g (tick %ld)", what, v, s->now, s->res->ticks);
}

/* ---- value pickers ---------------------------------------------------- */

static inline double scen_value(scen_state *s) {
    if (s->mode == SCEN_EXTREME) {
        static const double ext[] = {1e300, -1e300, 1e-300, -1e-300, 5e-324, 1e150, -1e150, 1e15, 0, -0.0, 1, 1e308, -1e308};
        if (rel_below(&s->rng, 3) == 0) return rel_uniform(&s->rng, -100, 100);
        return ext[rel_below(&s->rng, sizeof ext / sizeof ext[0])];
    }
    switch (rel_below(&s->rng, 4)) {
    case 0: return rel_uniform(&s->rng, 0, 1);
    case 1: return rel_uniform(&s->rng, -200, 200);
    case 2: return (double)rel_below(&s->rng, 5);
    default: return rel_uniform(&s->rng, -5, 5);
    }
}

static inline double scen_duration(scen_state *s) {
    if (s->mode == SCEN_EXTREME) {
        static const double d[] = {1e-9, 2e-9, 1e-12, 1e9, 1e6, 0.25, 1e-6, 3e-9};
        return d[rel_below(&s->rng, sizeof d / sizeof d[0])];
    }
    return 0.05 + rel_uniform(&s->rng, 0, 1.5);
}

static inline double scen_speed(scen_state *s) {
    if (s->mode == SCEN_EXTREME) {
        static const double v[] = {1e-6, 1e6, -1e6, -1e-6, 1, 0, 2e-6, 9.99e5};
        return v[rel_below(&s->rng, sizeof v / sizeof v[0])];
    }
    static const double v[] = {1, 1, 1, 2, 0.5, 0, -1, 3};
    return v[rel_below(&s->rng, sizeof v / sizeof v[0])];
}

static inline double scen_dt(scen_state *s) {
    if (s->mode == SCEN_EXTREME) {
        static const double v[] = {1.0 / 60, 1e-9, 0, 1e-6, 1000, 1e6, 1.0 / 60, 0.5};
        return v[rel_below(&s->rng, sizeof v / sizeof v[0])];
    }
    return rel_below(&s->rng, 5) == 0 ? 0.25 : 1.0 / 60;
}

static inline const cad_kp *scen_keypath(scen_state *s, int animatable_only) {
    for (;;) {
        const cad_kp *k = &cad_kps[rel_below(&s->rng, (uint32_t)cad_kp_count)];
        if (animatable_only && !k->animatable) continue;
        if (strcmp(k->name, "contents") == 0) continue;
        return k;
    }
}

static inline void scen_fill(scen_state *s, const cad_kp *k, double *v) {
    for (int i = 0; i < k->components; i++) v[i] = scen_value(s);
    if (k->components == 16 && rel_below(&s->rng, 3) != 0) {
        /* a plausible transform: scale/rotate/translate */
        double a = rel_uniform(&s->rng, -3.2, 3.2), sc = s->mode == SCEN_EXTREME ? scen_value(s) : rel_uniform(&s->rng, 0.2, 3);
        double c = cos(a) * sc, sn = sin(a) * sc;
        double m[16] = {c, sn, 0, 0, -sn, c, 0, 0, 0, 0, 1, 0, scen_value(s), scen_value(s), 0, 1};
        memcpy(v, m, sizeof m);
    }
    if (strcmp(k->name, "fillMode") == 0) v[0] = rel_below(&s->rng, 4);
    if (strcmp(k->name, "hidden") == 0 || strcmp(k->name, "autoreverses") == 0 || strcmp(k->name, "masksToBounds") == 0 ||
        strcmp(k->name, "doubleSided") == 0)
        v[0] = rel_below(&s->rng, 5) == 0;
    if (strcmp(k->name, "speed") == 0) v[0] = scen_speed(s);
    if (strcmp(k->name, "repeatCount") == 0 || strcmp(k->name, "repeatDuration") == 0 || strcmp(k->name, "duration") == 0)
        v[0] = fabs(v[0]);
}

/* ---- reads after a tick ----------------------------------------------- */

static inline void scen_check_doubles(scen_state *s, const double *v, int n, long *counter, const char *what) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) scen_nonfinite(s, counter, what, v[i]);
}

static inline void scen_observe(scen_state *s) {
    scen_result *r = s->res;
    /* render lists of every root */
    for (int i = 0; i < s->nl; i++) {
        cad_layer sup = 1;
        cad_status st = cad_layer_superlayer(s->e, s->layers[i], &sup);
        if (st != CAD_OK || sup != 0) continue;
        int32_t n = 0;
        st = cad_engine_render_list(s->e, s->layers[i], s->items, SCEN_MAXITEMS, &n);
        scen_status(s, st);
        if (st != CAD_OK) continue;
        r->render_items += n;
        for (int k = 0; k < n; k++) s->items[k].layer = (cad_layer)scen_ord(s, s->items[k].layer);
        scen_mix(s, s->items, (size_t)n * sizeof s->items[0]);
        for (int k = 0; k < n; k++) {
            const float *f = (const float *)(const void *)&s->items[k].world[0];
            /* world..contents_rect: every float of the item */
            size_t nf = (offsetof(cad_render_item, contents) - offsetof(cad_render_item, world)) / sizeof(float);
            for (size_t j = 0; j < nf; j++)
                if (!isfinite(f[j])) {
                    char what[96];
                    snprintf(what, sizeof what, "render item float %zu", j);
                    scen_nonfinite(s, &r->nonfinite_render, what, f[j]);
                }
        }
    }
    /* presentation of a few key paths on a few layers */
    static const char *paths[] = {"position", "opacity", "transform", "bounds", "backgroundColor", "transform.rotation.z",
                                  "frame", "sublayerTransform", "shadowOffset", "contentsRect"};
    for (int i = 0; i < s->nl && i < 8; i++) {
        for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
            double v[16];
            int32_t n = 0;
            cad_status st = cad_layer_presentation(s->e, s->layers[i], paths[p], v, 16, &n);
            scen_status(s, st);
            if (st != CAD_OK) continue;
            scen_mix(s, v, (size_t)n * sizeof v[0]);
            char what[96];
            snprintf(what, sizeof what, "presentation %s", paths[p]);
            scen_check_doubles(s, v, n, &r->nonfinite_presentation, what);
        }
    }
    /* a batch sample */
    if (s->nl > 0) {
        double out[SCEN_MAXL * 2];
        int32_t n = 0;
        cad_status st = cad_engine_sample(s->e, s->layers, s->nl, "position", out, SCEN_MAXL * 2, &n);
        scen_status(s, st);
        if (st == CAD_OK) {
            scen_mix(s, out, (size_t)n * sizeof out[0]);
            scen_check_doubles(s, out, n, &r->nonfinite_presentation, "sample position");
        }
    }
    /* events */
    cad_event ev;
    while (cad_engine_poll_event(s->e, &ev) == CAD_OK) {
        r->events++;
        scen_mix(s, &ev.kind, sizeof ev.kind);
        scen_mix(s, &ev.finished, sizeof ev.finished);
        int64_t ord = scen_ord(s, ev.layer);
        scen_mix(s, &ord, sizeof ord);
        scen_mix(s, &ev.tag, sizeof ev.tag);
        scen_mix(s, &ev.time, sizeof ev.time);
        scen_mix(s, ev.key, strnlen(ev.key, sizeof ev.key));
        if (!isfinite(ev.time)) scen_nonfinite(s, &r->nonfinite_other, "event time", ev.time);
    }
    uint64_t dropped = 0;
    cad_engine_events_dropped(s->e, &dropped);
    scen_mix(s, &dropped, sizeof dropped);
}

/* ---- callbacks ---------------------------------------------------------- */

static inline void scen_anim_cb(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished,
                         int64_t tag, void *ud) {
    scen_state *s = (scen_state *)ud;
    if (!s || s->e != e) REL_FAIL("scenario callback: wrong engine or userdata");
    s->res->callbacks++;
    int64_t ord = scen_ord(s, layer);
    scen_mix(s, &kind, sizeof kind);
    scen_mix(s, &ord, sizeof ord);
    scen_mix(s, key, strlen(key));
    scen_mix(s, &finished, sizeof finished);
    scen_mix(s, &tag, sizeof tag);
    if (s->in_callback) return;
    s->in_callback = 1;
    /* reenter: read and write the engine from the callback */
    double v[2] = {0, 0};
    int32_t n = 0;
    scen_status(s, cad_layer_presentation(e, layer, "position", v, 2, &n));
    if (kind == CAD_EVENT_STOP && (tag & 3) == 1) {
        double o = 0.5;
        scen_status(s, cad_layer_set(e, layer, "opacity", &o, 1));
    }
    s->in_callback = 0;
}

static inline void scen_tx_cb(cad_engine *e, void *ud) {
    scen_state *s = (scen_state *)ud;
    if (!s || s->e != e) REL_FAIL("scenario transaction callback: wrong engine or userdata");
    s->res->callbacks++;
    int64_t marker = 0x7c;
    scen_mix(s, &marker, sizeof marker);
}

/* ---- operations --------------------------------------------------------- */

static inline cad_layer scen_pick(scen_state *s) { return s->nl ? s->layers[rel_below(&s->rng, (uint32_t)s->nl)] : 0; }

static inline void scen_timing(scen_state *s, cad_anim a) {
    scen_status(s, cad_anim_set_duration(s->e, a, scen_duration(s)));
    if (rel_below(&s->rng, 3) == 0) scen_status(s, cad_anim_set_speed(s->e, a, scen_speed(s)));
    if (rel_below(&s->rng, 4) == 0) scen_status(s, cad_anim_set_time_offset(s->e, a, s->mode == SCEN_EXTREME ? 1e9 : rel_uniform(&s->rng, 0, 1)));
    if (rel_below(&s->rng, 4) == 0) scen_status(s, cad_anim_set_repeat_count(s->e, a, rel_below(&s->rng, 6) == 0 ? INFINITY : rel_uniform(&s->rng, 0, 4)));
    if (rel_below(&s->rng, 6) == 0) scen_status(s, cad_anim_set_repeat_duration(s->e, a, rel_uniform(&s->rng, 0, 3)));
    if (rel_below(&s->rng, 4) == 0) scen_status(s, cad_anim_set_autoreverses(s->e, a, 1));
    if (rel_below(&s->rng, 3) == 0) scen_status(s, cad_anim_set_fill_mode(s->e, a, (cad_fill_mode)rel_below(&s->rng, 4)));
    if (rel_below(&s->rng, 4) == 0) scen_status(s, cad_anim_set_removed_on_completion(s->e, a, 0));
    if (rel_below(&s->rng, 5) == 0) {
        double b = s->mode == SCEN_EXTREME ? s->now + 1e9 : s->now + rel_uniform(&s->rng, -0.5, 1);
        scen_status(s, cad_anim_set_begin_time(s->e, a, b));
    }
    switch (rel_below(&s->rng, 4)) {
    case 0: scen_status(s, cad_anim_set_timing_function(s->e, a, (cad_timing_name)rel_below(&s->rng, 5))); break;
    case 1: scen_status(s, cad_anim_set_timing_bezier(s->e, a, rel_uniform(&s->rng, 0, 1), rel_uniform(&s->rng, -1, 2),
                                                         rel_uniform(&s->rng, 0, 1), rel_uniform(&s->rng, -1, 2))); break;
    case 2: scen_status(s, cad_anim_set_timing_steps(s->e, a, 1 + (int32_t)rel_below(&s->rng, 8), (int32_t)rel_below(&s->rng, 2))); break;
    default: break;
    }
    if (rel_below(&s->rng, 3) == 0) {
        scen_status(s, cad_anim_set_tag(s->e, a, (int64_t)rel_below(&s->rng, 1000)));
        scen_status(s, cad_anim_set_callback(s->e, a, scen_anim_cb, s));
    }
}

static inline cad_anim scen_make_anim(scen_state *s, int depth) {
    cad_anim a = 0;
    int kind = (int)rel_below(&s->rng, depth > 1 ? 3 : 5);
    const cad_kp *k = scen_keypath(s, 1);
    double v[16], w[16];
    cad_status st = cad_anim_create(s->e, kind, kind >= 3 ? NULL : k->name, &a);
    scen_status(s, st);
    if (st != CAD_OK) return 0;
    switch (kind) {
    case CAD_ANIM_BASIC:
    case CAD_ANIM_SPRING: {
        int which = (int)rel_below(&s->rng, 6);
        scen_fill(s, k, v);
        scen_fill(s, k, w);
        if (which != 1) scen_status(s, cad_anim_set_to(s->e, a, v, k->components));
        if (which == 1 || which == 2) scen_status(s, cad_anim_set_from(s->e, a, w, k->components));
        if (which == 1 || which == 3) scen_status(s, cad_anim_set_by(s->e, a, w, k->components));
        if (rel_below(&s->rng, 4) == 0) scen_status(s, cad_anim_set_additive(s->e, a, 1));
        if (rel_below(&s->rng, 5) == 0) scen_status(s, cad_anim_set_cumulative(s->e, a, 1));
        if (kind == CAD_ANIM_SPRING) {
            switch (rel_below(&s->rng, 3)) {
            case 0: scen_status(s, cad_anim_set_spring(s->e, a, rel_uniform(&s->rng, 0.1, 3), rel_uniform(&s->rng, 10, 500),
                                                       rel_uniform(&s->rng, 0, 40), rel_uniform(&s->rng, -5, 5))); break;
            case 1: scen_status(s, cad_anim_set_spring_perceptual(s->e, a, s->mode == SCEN_EXTREME ? scen_duration(s) : rel_uniform(&s->rng, 0.1, 1.5),
                                                                  rel_uniform(&s->rng, -0.9, 0.9))); break;
            default: scen_status(s, cad_anim_set_spring_uikit(s->e, a, s->mode == SCEN_EXTREME ? scen_duration(s) : rel_uniform(&s->rng, 0.1, 1.5),
                                                              rel_uniform(&s->rng, 0.05, 1), rel_uniform(&s->rng, -3, 3))); break;
            }
            double sd = 0;
            st = cad_anim_spring_settling_duration(s->e, a, &sd);
            scen_status(s, st);
            if (st == CAD_OK) scen_mix(s, &sd, sizeof sd);
            return a;
        }
        break;
    }
    case CAD_ANIM_KEYFRAME: {
        if (rel_below(&s->rng, 4) == 0 && (strcmp(k->name, "position") == 0 || rel_below(&s->rng, 2))) {
            /* a path animation on position */
            scen_status(s, cad_anim_destroy(s->e, a));
            st = cad_anim_create(s->e, CAD_ANIM_KEYFRAME, "position", &a);
            scen_status(s, st);
            if (st != CAD_OK) return 0;
            scen_status(s, cad_anim_path_move_to(s->e, a, scen_value(s), scen_value(s)));
            int segs = 1 + (int)rel_below(&s->rng, 4);
            for (int i = 0; i < segs; i++) {
                switch (rel_below(&s->rng, 4)) {
                case 0: scen_status(s, cad_anim_path_line_to(s->e, a, scen_value(s), scen_value(s))); break;
                case 1: scen_status(s, cad_anim_path_quad_to(s->e, a, scen_value(s), scen_value(s), scen_value(s), scen_value(s))); break;
                case 2: scen_status(s, cad_anim_path_cubic_to(s->e, a, scen_value(s), scen_value(s), scen_value(s), scen_value(s), scen_value(s), scen_value(s))); break;
                default: scen_status(s, cad_anim_path_close(s->e, a)); break;
                }
            }
            scen_status(s, cad_anim_set_rotation_mode(s->e, a, (cad_rotation_mode)rel_below(&s->rng, 3)));
            scen_status(s, cad_anim_set_calculation_mode(s->e, a, (cad_calc_mode)rel_below(&s->rng, 5)));
            break;
        }
        int count = 1 + (int)rel_below(&s->rng, 5), c = k->components;
        double vals[5 * 16], times[5], tcb[5];
        for (int i = 0; i < count; i++) scen_fill(s, k, &vals[i * c]);
        scen_status(s, cad_anim_set_values(s->e, a, vals, count, c));
        cad_calc_mode m = (cad_calc_mode)rel_below(&s->rng, 5);
        scen_status(s, cad_anim_set_calculation_mode(s->e, a, m));
        if (rel_below(&s->rng, 2) && count > 1) {
            for (int i = 0; i < count; i++) times[i] = (double)i / (count - 1);
            for (int i = 1; i < count - 1; i++) times[i] = times[i - 1] + (times[i + 1] - times[i - 1]) * rel_uniform(&s->rng, 0, 1);
            scen_status(s, cad_anim_set_key_times(s->e, a, times, count));
        }
        if (rel_below(&s->rng, 3) == 0 && count > 1) {
            double bz[4 * 4];
            for (int i = 0; i < (count - 1) * 4; i++) bz[i] = (i % 2 == 0) ? rel_uniform(&s->rng, 0, 1) : rel_uniform(&s->rng, -0.5, 1.5);
            scen_status(s, cad_anim_set_segment_timing(s->e, a, bz, count - 1));
        }
        if (rel_below(&s->rng, 3) == 0) {
            for (int i = 0; i < count; i++) tcb[i] = rel_uniform(&s->rng, -1, 1);
            scen_status(s, cad_anim_set_tcb(s->e, a, tcb, rel_below(&s->rng, 2) ? tcb : NULL, NULL, count));
        }
        break;
    }
    case CAD_ANIM_GROUP: {
        cad_anim kids[3];
        int n = 1 + (int)rel_below(&s->rng, 3);
        for (int i = 0; i < n; i++) kids[i] = scen_make_anim(s, depth + 1);
        scen_status(s, cad_anim_group_set_children(s->e, a, kids, n));
        for (int i = 0; i < n; i++)
            if (kids[i]) scen_status(s, cad_anim_destroy(s->e, kids[i]));
        break;
    }
    default: /* transition */
        scen_status(s, cad_anim_set_transition(s->e, a, (cad_transition_type)rel_below(&s->rng, 6),
                                               (cad_transition_subtype)rel_below(&s->rng, 4)));
        if (rel_below(&s->rng, 3) == 0) {
            double p0 = rel_uniform(&s->rng, 0, 0.5), p1 = rel_uniform(&s->rng, 0.5, 1);
            scen_status(s, cad_anim_set_transition_progress(s->e, a, p0, p1));
        }
        break;
    }
    scen_timing(s, a);
    return a;
}

static inline void scen_step(scen_state *s) {
    uint32_t r = rel_below(&s->rng, 100);
    cad_status st;
    if (r < 8 || s->nl == 0) {
        if (s->nl >= SCEN_MAXL) return;
        cad_layer l = 0;
        st = cad_layer_create(s->e, &l);
        scen_status(s, st);
        if (st != CAD_OK) return;
        double b[4] = {0, 0, 10 + rel_uniform(&s->rng, 0, 200), 10 + rel_uniform(&s->rng, 0, 200)};
        scen_status(s, cad_layer_set(s->e, l, "bounds", b, 4));
        if (s->nall < 4096) s->all[s->nall++] = l;
        if (s->nl > 0 && rel_below(&s->rng, 4) != 0) {
            cad_layer p = scen_pick(s);
            if (rel_below(&s->rng, 3) == 0) {
                int32_t idx = (int32_t)rel_below(&s->rng, 3);
                scen_status(s, cad_layer_insert_sublayer(s->e, p, l, idx));
            } else {
                scen_status(s, cad_layer_add_sublayer(s->e, p, l));
            }
        }
        s->layers[s->nl++] = l;
    } else if (r < 30) {
        const cad_kp *k = scen_keypath(s, 0);
        double v[16];
        scen_fill(s, k, v);
        scen_status(s, cad_layer_set(s->e, scen_pick(s), k->name, v, k->components));
    } else if (r < 48) {
        cad_anim a = scen_make_anim(s, 0);
        if (!a) return;
        static const char *keys[] = {"a", "b", "c", NULL, "", "transition"};
        scen_status(s, cad_layer_add_animation(s->e, scen_pick(s), a, keys[rel_below(&s->rng, 6)]));
        scen_status(s, cad_anim_destroy(s->e, a));
    } else if (r < 52) {
        static const char *keys[] = {"a", "b", "c", "transition", "opacity", "position"};
        scen_status(s, cad_layer_remove_animation(s->e, scen_pick(s), keys[rel_below(&s->rng, 6)]));
    } else if (r < 53) {
        scen_status(s, cad_layer_remove_all_animations(s->e, scen_pick(s)));
    } else if (r < 60) {
        /* a transaction of implicit animations */
        scen_status(s, cad_transaction_begin(s->e));
        scen_status(s, cad_transaction_set_duration(s->e, s->mode == SCEN_EXTREME ? scen_duration(s) : rel_uniform(&s->rng, 0.1, 1)));
        switch (rel_below(&s->rng, 6)) {
        case 0: scen_status(s, cad_transaction_set_timing_function(s->e, (cad_timing_name)rel_below(&s->rng, 5))); break;
        case 1: scen_status(s, cad_transaction_set_spring(s->e, rel_uniform(&s->rng, 0.1, 1), rel_uniform(&s->rng, -2, 2))); break;
        case 2: scen_status(s, cad_transaction_set_delay(s->e, rel_uniform(&s->rng, 0, 0.5))); break;
        case 3: scen_status(s, cad_transaction_set_repeat_count(s->e, rel_uniform(&s->rng, 0, 3))); break;
        case 4: scen_status(s, cad_transaction_set_autoreverses(s->e, 1)); break;
        default: scen_status(s, cad_transaction_set_timing_bezier(s->e, 0.3, rel_uniform(&s->rng, -1, 2), 0.6, 1)); break;
        }
        if (rel_below(&s->rng, 2)) scen_status(s, cad_transaction_set_completion(s->e, scen_tx_cb, s));
        if (rel_below(&s->rng, 5) == 0) scen_status(s, cad_transaction_set_disable_actions(s->e, 1));
        int kf = rel_below(&s->rng, 4) == 0;
        if (kf) scen_status(s, cad_transaction_begin_keyframe(s->e, rel_uniform(&s->rng, 0, 0.5), rel_uniform(&s->rng, 0, 0.5)));
        int n = 1 + (int)rel_below(&s->rng, 3);
        for (int i = 0; i < n; i++) {
            const cad_kp *k = scen_keypath(s, 1);
            double v[16];
            scen_fill(s, k, v);
            scen_status(s, cad_layer_set(s->e, scen_pick(s), k->name, v, k->components));
        }
        if (kf) scen_status(s, cad_transaction_commit(s->e));
        int64_t id = 0;
        scen_status(s, cad_transaction_id(s->e, &id));
        scen_mix(s, &id, sizeof id);
        scen_status(s, cad_transaction_commit(s->e));
    } else if (r < 63) {
        scen_status(s, cad_layer_set_contents(s->e, scen_pick(s), rel_below(&s->rng, 4)));
    } else if (r < 64) {
        scen_status(s, cad_layer_set_actions_enabled(s->e, scen_pick(s), (int32_t)rel_below(&s->rng, 2)));
    } else if (r < 65 && s->nl > 2) {
        int i = (int)rel_below(&s->rng, (uint32_t)s->nl);
        scen_status(s, cad_layer_destroy(s->e, s->layers[i]));
        s->layers[i] = s->layers[--s->nl];
    } else if (r < 67) {
        scen_status(s, cad_layer_remove_from_superlayer(s->e, scen_pick(s)));
    } else if (r < 69) {
        double t = 0;
        st = cad_layer_convert_time(s->e, s->now, 0, scen_pick(s), &t);
        scen_status(s, st);
        if (st == CAD_OK) {
            scen_mix(s, &t, sizeof t);
            if (!isfinite(t)) scen_nonfinite(s, &s->res->nonfinite_other, "convert_time", t);
        }
    } else if (r < 70) {
        /* an invalid call: it must fail and change nothing */
        double v = NAN;
        scen_status(s, cad_layer_set(s->e, scen_pick(s), "opacity", &v, 1));
    } else {
        double dt = scen_dt(s);
        s->now += dt;
        st = cad_engine_tick(s->e, s->now);
        scen_status(s, st);
        s->res->ticks++;
        double now = 0;
        scen_status(s, cad_engine_now(s->e, &now));
        scen_mix(s, &now, sizeof now);
        scen_observe(s);
    }
}

/* Opens scenario `seed` on engine `e` (which should be new); the first tick
 * is at `t0`; results add to `res` (zero it first). Advance with scen_steps and
 * finish with scen_close, so several scenes can be interleaved. */
static inline scen_state *scen_open(cad_engine *e, uint64_t seed, int mode, double t0, scen_result *res) {
    cad_kp_init();
    scen_state *s = (scen_state *)calloc(1, sizeof *s);
    if (!s) REL_FAIL("out of memory");
    s->e = e;
    s->rng.s = seed;
    s->mode = mode;
    s->now = t0;
    s->res = res;
    if (!res->hash) res->hash = REL_HASH_INIT;
    scen_status(s, cad_engine_tick(e, t0));
    return s;
}

static inline void scen_steps(scen_state *s, int n) {
    for (int i = 0; i < n; i++) scen_step(s);
}

static inline void scen_close(scen_state *s) {
    /* finish: a late tick so everything finite ends, then one last look */
    s->now += s->mode == SCEN_EXTREME ? 1e9 : 100;
    scen_status(s, cad_engine_tick(s->e, s->now));
    scen_observe(s);
    free(s);
}

/* Runs `steps` steps of scenario `seed` on engine `e` in one go. */
static inline void scen_run(cad_engine *e, uint64_t seed, int steps, int mode, double t0, scen_result *res) {
    scen_state *s = scen_open(e, seed, mode, t0, res);
    scen_steps(s, steps);
    scen_close(s);
}

#endif
