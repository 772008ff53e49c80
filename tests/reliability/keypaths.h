/*
 * keypaths.h - every key path of SEMANTICS.md §2 with its component count, for
 * the reliability tests and the fuzz harness (header-only, C99).
 *
 * Built at first use by cad_kp_init(), mirroring the rules of SEMANTICS.md §2
 * and §2.3: each property, its sub-keys (.x/.y, .width/.height,
 * .origin[.x|.y], .size[.width|.height], .r/.g/.b/.a), the transform key paths
 * (rotation.x ... translation, rotation, m11 ... m44) of `transform` and
 * `sublayerTransform`, `frame`, `contents` and the layer timing fields.
 */
#ifndef CADENCE_RELIABILITY_KEYPATHS_H
#define CADENCE_RELIABILITY_KEYPATHS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdio.h>
#include <string.h>

typedef struct cad_kp {
    char name[64];
    int components;
    /* 1 when setting it may run an action (a layer property, not frame/timing/contents). */
    int animatable;
    /* 1 for plain block values: get after set returns exactly what was set;
     * 2 for bools: get after set returns the value or its truth (0 or 1). */
    int plain;
} cad_kp;

enum { CAD_KP_MAX = 256 };
static cad_kp cad_kps[CAD_KP_MAX];
static int cad_kp_count = 0;

static inline void cad_kp_add(const char *name, int components, int animatable, int plain) {
    if (cad_kp_count >= CAD_KP_MAX) return;
    cad_kp *k = &cad_kps[cad_kp_count++];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->components = components;
    k->animatable = animatable;
    k->plain = plain;
}

static inline void cad_kp_init(void) {
    if (cad_kp_count) return;
    /* name, kind: 0 scalar 1 point 2 size 3 rect 4 color 5 transform 6 bool */
    static const struct { const char *n; int kind; int animatable; } props[] = {
        {"position", 1, 1}, {"zPosition", 0, 1}, {"anchorPoint", 1, 1}, {"anchorPointZ", 0, 1},
        {"bounds", 3, 1}, {"transform", 5, 1}, {"sublayerTransform", 5, 1}, {"opacity", 0, 1},
        {"hidden", 6, 1}, {"backgroundColor", 4, 1}, {"borderColor", 4, 1}, {"borderWidth", 0, 1},
        {"cornerRadius", 0, 1}, {"shadowColor", 4, 1}, {"shadowOpacity", 0, 1}, {"shadowOffset", 2, 1},
        {"shadowRadius", 0, 1}, {"contentsRect", 3, 1}, {"masksToBounds", 6, 0}, {"doubleSided", 6, 0},
    };
    static const int comps[] = {1, 2, 2, 4, 4, 16, 1};
    char buf[64];
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        const char *n = props[i].n;
        int kind = props[i].kind, an = props[i].animatable;
        cad_kp_add(n, comps[kind], an, kind == 6 ? 2 : 1);
        switch (kind) {
        case 1:
            snprintf(buf, sizeof buf, "%s.x", n); cad_kp_add(buf, 1, 1, 1);
            snprintf(buf, sizeof buf, "%s.y", n); cad_kp_add(buf, 1, 1, 1);
            break;
        case 2:
            snprintf(buf, sizeof buf, "%s.width", n); cad_kp_add(buf, 1, 1, 1);
            snprintf(buf, sizeof buf, "%s.height", n); cad_kp_add(buf, 1, 1, 1);
            break;
        case 3: {
            static const char *sub[] = {"origin", "origin.x", "origin.y", "size", "size.width", "size.height"};
            static const int sc[] = {2, 1, 1, 2, 1, 1};
            for (int s = 0; s < 6; s++) { snprintf(buf, sizeof buf, "%s.%s", n, sub[s]); cad_kp_add(buf, sc[s], 1, 1); }
            break;
        }
        case 4: {
            static const char *ch[] = {"r", "g", "b", "a"};
            for (int s = 0; s < 4; s++) { snprintf(buf, sizeof buf, "%s.%s", n, ch[s]); cad_kp_add(buf, 1, 1, 1); }
            break;
        }
        case 5: {
            static const char *v[] = {"rotation.x", "rotation.y", "rotation.z", "scale.x", "scale.y", "scale.z",
                                      "scale", "translation.x", "translation.y", "translation.z", "translation",
                                      "rotation"};
            for (int s = 0; s < 12; s++) {
                snprintf(buf, sizeof buf, "%s.%s", n, v[s]);
                cad_kp_add(buf, strcmp(v[s], "translation") == 0 ? 2 : 1, 1, 0);
            }
            for (int r = 1; r <= 4; r++)
                for (int c = 1; c <= 4; c++) { snprintf(buf, sizeof buf, "%s.m%d%d", n, r, c); cad_kp_add(buf, 1, 1, 1); }
            break;
        }
        default:
            break;
        }
    }
    cad_kp_add("contents", 1, 1, 0);
    cad_kp_add("frame", 4, 0, 0);
    static const char *timing[] = {"beginTime", "speed", "timeOffset", "duration", "repeatCount",
                                   "repeatDuration", "autoreverses", "fillMode"};
    for (int i = 0; i < 8; i++) cad_kp_add(timing[i], 1, 0, 0);
}

/* The index of a key path by name, -1 if it is not one. */
static inline int cad_kp_find(const char *name) {
    cad_kp_init();
    for (int i = 0; i < cad_kp_count; i++)
        if (strcmp(cad_kps[i].name, name) == 0) return i;
    return -1;
}

#endif
