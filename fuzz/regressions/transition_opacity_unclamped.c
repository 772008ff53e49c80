/*
 * Regression (found by the fuzzer): a contents change inside a transaction
 * whose timing function overshoots gets a fade transition whose render items
 * have an opacity outside [0, 1] (-inf with a control y of 1e300), although
 * cad_render_item.opacity is documented as "clamped to [0, 1]" and
 * world_opacity is a product of such values:
 *   tick(0.1); begin; set_duration(0.5); set_timing_bezier(0, 1, 0, c2y);
 *   set_contents(l, 0); commit; tick(0.4667); render_list(l) -> item 1 opacity
 * (Engine+Render.swift: the transition's picture alpha is not clamped, and the
 * eased progress of an extreme but valid curve is not finite.)
 */
#include "cadence.h"
#include <math.h>
#include <stdio.h>

static int run(double c2y) {
    cad_engine *e = cad_engine_create();
    cad_layer l;
    int bad = 0;
    cad_layer_create(e, &l);
    double b[4] = {0, 0, 10, 10};
    cad_layer_set(e, l, "bounds", b, 4);
    cad_engine_tick(e, 0.1);
    cad_transaction_begin(e);
    cad_transaction_set_duration(e, 0.5);
    if (cad_transaction_set_timing_bezier(e, 0, 1, 0, c2y) != CAD_OK) { cad_engine_destroy(e); return 0; }
    cad_layer_set_contents(e, l, 0);
    cad_transaction_commit(e);
    for (double t = 0.1 + 1.0 / 60; t < 0.7; t += 1.0 / 60) {
        cad_engine_tick(e, t);
        cad_render_item it[8];
        int32_t n = 0;
        if (cad_engine_render_list(e, l, it, 8, &n) != CAD_OK) continue;
        for (int i = 0; i < n; i++) {
            if (!(it[i].opacity >= 0 && it[i].opacity <= 1) || !(it[i].world_opacity >= 0 && it[i].world_opacity <= 1)) {
                if (!bad) printf("c2y %g, t %.4f: item %d (flags %d) opacity %g, world_opacity %g\n", c2y, t, i, it[i].flags,
                                 it[i].opacity, it[i].world_opacity);
                bad = 1;
            }
        }
    }
    cad_engine_destroy(e);
    return bad;
}

int main(void) {
    int bad = 0;
    static const double ys[] = {1e300, 3, -2, 10};
    for (int i = 0; i < 4; i++) bad |= run(ys[i]);
    return bad;
}
