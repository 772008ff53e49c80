/*
 * Regression (found by the fuzzer, sources of 2026-11-21 00:36): the render
 * list of a three-level tree of default layers trapped with "index out of
 * bounds" in Engine.emitLayer (Engine+Render.swift), killing the host:
 *   create 4 layers; add l2 under l0; add l3 under l2; render_list(l0, cap 16).
 * Also checks the list: 3 items, parents -1, 0, 1, finite matrices.
 */
#include "cadence.h"
#include <math.h>
#include <stdio.h>

int main(void) {
    cad_engine *e = cad_engine_create();
    cad_layer l[4];
    for (int i = 0; i < 4; i++)
        if (cad_layer_create(e, &l[i]) != CAD_OK) return 2;
    if (cad_layer_add_sublayer(e, l[0], l[2]) != CAD_OK || cad_layer_add_sublayer(e, l[2], l[3]) != CAD_OK) return 2;
    cad_render_item it[16];
    int32_t n = 0;
    int bad = 0;
    for (int pass = 0; pass < 2; pass++) {
        cad_status st = cad_engine_render_list(e, l[0], it, 16, &n);
        if (st != CAD_OK || n != 3) { printf("render_list: %s, n = %d\n", cad_status_name(st), n); bad = 1; break; }
        for (int i = 0; i < n; i++) {
            if (it[i].parent != i - 1) { printf("item %d parent %d\n", i, it[i].parent); bad = 1; }
            for (int k = 0; k < 16; k++)
                if (!isfinite(it[i].world[k])) { printf("item %d world[%d] = %g\n", i, k, it[i].world[k]); bad = 1; }
        }
        cad_engine_tick(e, 1.0);
    }
    cad_engine_destroy(e);
    return bad;
}
