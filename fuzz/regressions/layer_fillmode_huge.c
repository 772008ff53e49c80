/*
 * Regression (found by the fuzzer): cad_layer_set(e, l, "fillMode", {1e18}, 1)
 * trapped in the Swift runtime ("Double value cannot be converted to Int32
 * because the result would be greater than Int32.max", MediaTiming.swift, the
 * layer timing setter) and killed the host. Every finite value that is not
 * 0...3 must give CAD_ERR_INVALID_ARGUMENT, the same for the other integer-like
 * timing fields, and the engine must stay usable.
 */
#include "cadence.h"
#include <float.h>
#include <math.h>
#include <stdio.h>

int main(void) {
    cad_engine *e = cad_engine_create();
    cad_layer l;
    if (cad_layer_create(e, &l) != CAD_OK) return 2;
    static const double bad[] = {1e18, -1e18, 4, -1, 0.5, 2147483648.0, -2147483649.0, DBL_MAX, -DBL_MAX, 1e300, 5e-324};
    int fails = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cad_status st = cad_layer_set(e, l, "fillMode", &bad[i], 1);
        if (st != CAD_ERR_INVALID_ARGUMENT) {
            printf("fillMode %g gave %s\n", bad[i], cad_status_name(st));
            fails++;
        }
    }
    /* the other timing fields accept any finite (or documented) value without trapping */
    static const char *fields[] = {"beginTime", "speed", "timeOffset", "duration", "repeatCount", "repeatDuration", "autoreverses"};
    static const double vals[] = {1e18, -1e18, DBL_MAX, -DBL_MAX, 5e-324, INFINITY, NAN};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) (void)cad_layer_set(e, l, fields[f], &vals[i], 1);
    double ok = 3, back = -1;
    int32_t n = 0;
    if (cad_layer_set(e, l, "fillMode", &ok, 1) != CAD_OK || cad_layer_get(e, l, "fillMode", &back, 1, &n) != CAD_OK || back != 3) {
        printf("fillMode 3 does not round-trip (%g)\n", back);
        fails++;
    }
    if (cad_engine_tick(e, 1) != CAD_OK) fails++;
    cad_engine_destroy(e);
    return fails ? 1 : 0;
}
