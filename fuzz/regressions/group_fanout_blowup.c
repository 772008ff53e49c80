/*
 * Regression (found by the fuzzer: a 25 s timeout): nested groups copy their
 * children, so a group of 16 copies of a group of 16 copies of ... holds 16^k
 * animations after k calls of cad_anim_group_set_children. Nesting is limited
 * to 32 levels but the total size is not: each call takes exponentially longer
 * (Engine.depth walks the whole copied tree, recursively), memory grows without
 * bound, and adding such a group to a layer instantiates every node. A host
 * call must not hang or exhaust memory: the library must bound the size of a
 * group tree (and fail with an error status beyond it).
 *
 * This test fails if any call takes more than 2 seconds.
 */
#include "cadence.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "a call took more than 2 seconds\n";
    write(1, msg, sizeof msg - 1);
    _exit(1);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGALRM, on_alarm);
    cad_engine *e = cad_engine_create();
    cad_layer l;
    cad_layer_create(e, &l);
    cad_anim leaf, g;
    double to = 0;
    cad_anim_create(e, CAD_ANIM_BASIC, "opacity", &leaf);
    cad_anim_set_to(e, leaf, &to, 1);
    cad_anim prev = leaf;
    cad_anim kids[16];
    for (int level = 1; level <= 8; level++) {
        cad_anim_create(e, CAD_ANIM_GROUP, NULL, &g);
        for (int i = 0; i < 16; i++) kids[i] = prev;
        alarm(2);
        cad_status st = cad_anim_group_set_children(e, g, kids, 16);
        alarm(0);
        printf("level %d: group_set_children %s\n", level, cad_status_name(st));
        if (st != CAD_OK) break;
        alarm(2);
        st = cad_layer_add_animation(e, l, g, "g");
        cad_engine_tick(e, level * 0.1);
        alarm(0);
        printf("level %d: add_animation %s\n", level, cad_status_name(st));
        prev = g;
    }
    cad_engine_destroy(e);
    return 0;
}
