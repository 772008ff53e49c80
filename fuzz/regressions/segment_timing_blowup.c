/*
 * Regression (found by the fuzzer: a 48 s "slow unit"): every per-segment
 * timing function of cad_anim_set_segment_timing builds its own 8 KB Bézier
 * lookup table (769 certified root solves, TimingCurve.swift BezierSolver), and
 * up to 2^24 segments are accepted. 100 000 segments take seconds and ~800 MB;
 * 2^24 would take minutes and ~128 GB. The count is not checked against the
 * keyframes (only when the animation is added) and identical curves are not
 * shared. A host call must not take seconds or exhaust memory: bound the count
 * (e.g. by the 2^24 values limit divided sensibly, or lazily build tables), or
 * share tables of identical curves.
 *
 * Fails if the call takes more than 2 seconds (the default limit of this file).
 */
#include "cadence.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "cad_anim_set_segment_timing took more than 2 seconds\n";
    write(1, msg, sizeof msg - 1);
    _exit(1);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGALRM, on_alarm);
    cad_engine *e = cad_engine_create();
    cad_anim a;
    cad_anim_create(e, CAD_ANIM_KEYFRAME, "opacity", &a);
    int n = 100000;
    double *b = malloc((size_t)n * 4 * sizeof *b);
    for (int i = 0; i < n; i++) {
        b[4 * i] = 0.42;
        b[4 * i + 1] = 0;
        b[4 * i + 2] = 0.58;
        b[4 * i + 3] = 1;
    }
    alarm(2);
    cad_status st = cad_anim_set_segment_timing(e, a, b, n);
    alarm(0);
    printf("cad_anim_set_segment_timing(%d segments): %s\n", n, cad_status_name(st));
    free(b);
    cad_engine_destroy(e);
    return 0;
}
