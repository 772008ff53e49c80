/*
 * known_failures.h - KNOWN_FAILURES: tests that fail because of engine bugs
 * (values that contradict SEMANTICS.md / API.md). The runner reports them as
 * XFAIL with the reason below and does not fail the run; when one starts
 * passing it is reported as XPASS: delete its line.
 *
 * { "feature (as in TEST_MAIN)", "test name", "reason: spec text vs engine" },
 */
#ifndef CAD_TEST_KNOWN_FAILURES_H
#define CAD_TEST_KNOWN_FAILURES_H

static const cad_known_failure CAD_KNOWN_FAILURES[] = {
    {"properties", "transform_rotation_is_rotation_z",
     "SEMANTICS.md 2.3 lists the virtual key paths \"rotation.x, rotation.y, rotation.z (radians), "
     "rotation (= rotation.z)\"; the engine answers CAD_ERR_UNKNOWN_KEYPATH for "
     "\"transform.rotation\" and \"sublayerTransform.rotation\"."},
    {"properties", "infinite_repeat_fields_are_allowed",
     "SEMANTICS.md 2: \"A NaN or infinite component is CAD_ERR_INVALID_ARGUMENT (except where a field "
     "documents infinity, like repeatCount)\" and 3 makes repeatCount/repeatDuration layer fields set "
     "through key paths; cad_layer_set(\"repeatCount\" or \"repeatDuration\", INFINITY) returns "
     "CAD_ERR_INVALID_ARGUMENT (\"must be finite\")."},
    /* keep this sentinel last */
    {NULL, NULL, NULL}};

#endif /* CAD_TEST_KNOWN_FAILURES_H */
