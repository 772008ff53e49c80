/*
 * Regression (numeric_props and the fuzzer in strict-numeric mode): finite but
 * huge values overflow. The issue asks for finite results or a documented
 * error for values near 1e300; today:
 *   1. position.y = 1e300: render item world[13] = inf (float32 overflow);
 *   2. transform.m34 = 1e18 and position.y = 1e300: render item world[8] = NaN
 *      (inf * 0 in the world matrix);
 *   3. transform diag(1e300) with an additive animation by diag(1e300): the
 *      presentation of "transform" and "transform.scale" = inf (finite inputs,
 *      the product overflows in double).
 * (Render floats could saturate to +-FLT_MAX, norms use scaling / hypot; or such
 * magnitudes could be rejected with CAD_ERR_INVALID_ARGUMENT and documented.)
 */
#include "cadence.h"
#include <math.h>
#include <stdio.h>

static int check_render(cad_engine *e, cad_layer l, const char *what) {
    cad_render_item it[4];
    int32_t n = 0;
    if (cad_engine_render_list(e, l, it, 4, &n) != CAD_OK) return 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 16; k++)
            if (!isfinite(it[i].world[k])) {
                printf("%s: render item %d world[%d] = %g\n", what, i, k, it[i].world[k]);
                return 1;
            }
    return 0;
}

static int check_pres(cad_engine *e, cad_layer l, const char *kp, const char *what) {
    double v[16];
    int32_t n = 0;
    if (cad_layer_presentation(e, l, kp, v, 16, &n) != CAD_OK) return 0;
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) {
            printf("%s: presentation \"%s\"[%d] = %g\n", what, kp, i, v[i]);
            return 1;
        }
    return 0;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    int bad = 0;
    cad_engine *e = cad_engine_create();
    cad_layer a, b, c;
    cad_layer_create(e, &a);
    cad_layer_create(e, &b);
    cad_layer_create(e, &c);
    double huge = 1e300, big = 1e18;

    /* (set before the first tick: a new layer takes its values without actions) */
    cad_layer_set(e, a, "position.y", &huge, 1);
    cad_layer_set(e, b, "transform.m34", &big, 1);
    cad_layer_set(e, b, "position.y", &huge, 1);
    double m[16] = {1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    cad_layer_set(e, c, "transform", m, 16);
    cad_engine_tick(e, 0);
    bad |= check_render(e, a, "1. position.y = 1e300");
    bad |= check_render(e, b, "2. m34 = 1e18, position.y = 1e300");

    cad_anim an;
    cad_anim_create(e, CAD_ANIM_BASIC, "transform", &an);
    cad_anim_set_by(e, an, m, 16);
    cad_anim_set_additive(e, an, 1);
    cad_anim_set_fill_mode(e, an, CAD_FILL_BOTH);
    cad_anim_set_duration(e, an, 10);
    cad_layer_add_animation(e, c, an, "t");
    cad_engine_tick(e, 0.5);
    bad |= check_pres(e, c, "transform.scale", "3. transform diag(1e300), additive by diag(1e300)");
    bad |= check_pres(e, c, "transform", "3. transform diag(1e300), additive by diag(1e300)");
    cad_engine_destroy(e);
    return bad;
}
