/*
 * Regression (found by the fuzzer): a cubic Bézier timing function with a
 * finite but huge control y (DBL_MAX) evaluates to NaN. SEMANTICS.md §4: c1y and
 * c2y may lie outside [0, 1]; the result must be finite or the call an error.
 * Affects cad_timing_eval_batch and every animation/transaction with such a curve.
 */
#include "cadence.h"
#include <float.h>
#include <math.h>
#include <stdio.h>

int main(void) {
    int bad = 0;
    double x[6] = {0, 0.001, 0.25, 0.5, 0.999, 1}, y[6];
    cad_status st = cad_timing_eval_batch(0, DBL_MAX, 0, 0.25, x, y, 6);
    for (int i = 0; st == CAD_OK && i < 6; i++)
        if (!isfinite(y[i])) { printf("eval(0, DBL_MAX, 0, 0.25) at %g = %g\n", x[i], y[i]); bad = 1; }

    /* the same curve on an animation: presentation must stay finite */
    cad_engine *e = cad_engine_create();
    cad_layer l;
    cad_anim a;
    double to = 100, v = 0;
    int32_t n = 0;
    cad_layer_create(e, &l);
    cad_anim_create(e, CAD_ANIM_BASIC, "position.x", &a);
    cad_anim_set_to(e, a, &to, 1);
    if (cad_anim_set_timing_bezier(e, a, 0, DBL_MAX, 0, 0.25) == CAD_OK) {
        cad_layer_add_animation(e, l, a, "x");
        cad_engine_tick(e, 0.1);
        if (cad_layer_presentation(e, l, "position.x", &v, 1, &n) == CAD_OK && !isfinite(v)) {
            printf("presentation with that timing function = %g\n", v);
            bad = 1;
        }
    }
    cad_engine_destroy(e);
    return bad;
}
