/*
 * Regression (found by the C unit tests run under ASan): a call with a wrong
 * component count reads the host's array past its end before it reports the
 * mismatch. bindings/c/tests/test_library.c does
 *     double v[2] = {1, 2};
 *     cad_layer_set(e, l, "position", v, 3);   // expects CAD_ERR_TYPE_MISMATCH
 * and the library reads v[2] first (CadenceABI/Runtime.swift values(): it
 * copies min(n, 16) doubles, then the engine compares n with the key path's
 * count): a stack-buffer-overflow under ASan, a possible segfault for an array
 * at the end of a page. The count must be checked against the key path before
 * any value is read; the same holds for cad_anim_set_from/to/by.
 *
 * The arrays here are allocated with exactly the right size, so ASan reports
 * the overrun; without ASan the test still checks the statuses.
 */
#include "cadence.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    cad_engine *e = cad_engine_create();
    cad_layer l;
    cad_anim a;
    int bad = 0;
    if (cad_layer_create(e, &l) != CAD_OK || cad_anim_create(e, CAD_ANIM_BASIC, "position", &a) != CAD_OK) return 2;
    double *two = malloc(2 * sizeof *two);
    two[0] = 1;
    two[1] = 2;
    for (int32_t n = 3; n <= 17; n += 14) {
        if (cad_layer_set(e, l, "position", two, n) != CAD_ERR_TYPE_MISMATCH) { printf("set n=%d\n", n); bad = 1; }
        if (cad_anim_set_from(e, a, two, n) != CAD_ERR_TYPE_MISMATCH) { printf("from n=%d\n", n); bad = 1; }
        if (cad_anim_set_to(e, a, two, n) != CAD_ERR_TYPE_MISMATCH) { printf("to n=%d\n", n); bad = 1; }
        if (cad_anim_set_by(e, a, two, n) != CAD_ERR_TYPE_MISMATCH) { printf("by n=%d\n", n); bad = 1; }
    }
    double *one = malloc(sizeof *one);
    one[0] = 0.5;
    /* a 16-component key path given 1 value (and n = 1): nothing past one[0] is read */
    if (cad_layer_set(e, l, "transform", one, 1) != CAD_ERR_TYPE_MISMATCH) { printf("transform n=1\n"); bad = 1; }
    if (cad_anim_set_to(e, a, one, 1) != CAD_ERR_TYPE_MISMATCH) { printf("to n=1 for position\n"); bad = 1; }
    free(one);
    free(two);
    cad_engine_destroy(e);
    return bad;
}
