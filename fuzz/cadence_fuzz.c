/*
 * cadence_fuzz.c - coverage-guided fuzz target for libcadence (libFuzzer).
 *
 * The input is decoded into a sequence of C API calls over a small pool of
 * engines, layers, animation descriptions and read-only animation handles.
 * Every exported function of include/cadence.h is reachable (scripts/fuzz.sh
 * checks that against the header). Arguments are hostile on purpose: stale,
 * forged, foreign, zero and type-confused handles, NULL and forged engines,
 * NULL pointers, negative and huge counts, NaN/±inf/1e300/1e-300/-0.0 and
 * random doubles, key paths from the valid list, near misses and garbage.
 * Callbacks (animation start/stop and transaction completions) decode more
 * operations from the same input and run them reentrantly, up to a depth:
 * adding animations, setting properties, ticking, removing, destroying layers
 * or even the engine that is calling them.
 *
 * Buffers are always honest: a non-NULL pointer passed with a count has room
 * for that many elements (allocated exactly, so ASan sees any overrun), and
 * counts too large to allocate are only ever passed with NULL.
 *
 * Oracles (a violation calls abort() with a message, which libFuzzer reports
 * as a crash):
 *  - every status is CAD_OK or one of the documented errors;
 *  - after a failure cad_last_error() is a non-empty NUL-terminated string
 *    shorter than 512 bytes, and cad_status_name() knows the status;
 *  - NULL or forged engines give CAD_ERR_INVALID_ARGUMENT; a layer handle the
 *    harness knows is not live in that engine never gives CAD_OK;
 *  - the layer tree (superlayer, sublayers, layer count) matches a shadow model
 *    kept by the harness from the successful calls, and tree calls with valid
 *    arguments succeed;
 *  - a call wrapped by OP_CHECKED that fails leaves the engine's observable
 *    state (tree, model and presentation values, animation keys, contents,
 *    clock, transaction id, dropped count) bit-identical;
 *  - render lists and events are well formed (parent indices, flags, key NUL
 *    termination, kinds); callbacks get a live engine and the userdata given.
 *
 * Build: scripts/fuzz.sh (libFuzzer, ASan + UBSan), or with
 * -DCADENCE_FUZZ_STANDALONE and fuzz/replay_main.c for replaying inputs
 * without libFuzzer (valgrind, TSan, plain builds).
 *
 * Environment: CADENCE_FUZZ_IGNORE=id,... turns off the oracles with those ids
 * (known engine bugs, see ORACLE); CADENCE_FUZZ_TRACE=1 prints every call (to minimise a crash
 * into a C reproducer); CADENCE_FUZZ_STRICT_NUMERIC=1 aborts on a NaN
 * presentation value, sample, render item float or timing value, =2 on any
 * non-finite one (the numeric properties proper are tests/reliability/numeric_props.c).
 */
#include "cadence.h"
#include "../tests/reliability/keypaths.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Limits                                                                    */

enum {
    MAXE = 3,          /* engine slots */
    MAXL = 96,         /* tracked live layers per engine */
    MAXA = 24,         /* animation descriptions per engine */
    MAXRO = 16,        /* read-only handles per engine */
    MAXSTALE = 32,     /* remembered destroyed handles per engine */
    MAXKEYS = 8,       /* remembered animation keys */
    MAX_OPS = 3000,    /* operations per input */
    MAX_DEPTH = 4,     /* reentrant callback nesting */
    MAX_CALLBACK_OPS = 600,
    MAX_ENGINES_CREATED = 24,
    HONEST_LIMIT = 1 << 18 /* largest count passed with a real buffer */
};

/* ------------------------------------------------------------------------ */
/* Input                                                                     */

static const uint8_t *g_data;
static size_t g_size;
static int g_trace;
static int g_strict_numeric;

static uint8_t u8(void) {
    if (g_size == 0) return 0;
    g_size--;
    return *g_data++;
}
static uint16_t u16(void) { uint16_t a = u8(); return (uint16_t)(a | (uint16_t)u8() << 8); }
static uint32_t u32(void) { uint32_t a = u16(); return a | (uint32_t)u16() << 16; }
static uint64_t u64(void) { uint64_t a = u32(); return a | (uint64_t)u32() << 32; }

static const double special_doubles[] = {
    0.0, 1.0, 0.5, 0.25, 2.0, 10.0, 100.0, -1.0, 0.1, 0.75, 3.0, 1.5, 50.0, 0.001,
    -0.0, NAN, INFINITY, -INFINITY, 1e300, -1e300, 1e-300, -1e-300, 5e-324, 1.7976931348623157e308,
    -1.7976931348623157e308, 2.2250738585072014e-308, 1e9, -1e9, 1e-9, 1e6, 1e-6, 1e12, 1e15,
    4294967296.0, 9007199254740993.0, 0.9999999999999999, 1.0000000000000002, 3.141592653589793,
    -3.141592653589793, 6.283185307179586, 1e-12, 0.3333333333333333, 360.0, 1000.0, -100.0,
    16.0, 0.05, 1e18, 1e-18, 1e100, -1e-9
};
enum { N_SPECIAL = sizeof special_doubles / sizeof special_doubles[0] };

static double pick_double(void) {
    uint8_t b = u8();
    if (b < 232) return special_doubles[b % N_SPECIAL];
    if (b < 244) return (double)(int8_t)u8();           /* small integers */
    if (b < 250) return (double)u16() / 1024.0;          /* fractions */
    uint64_t bits = u64();
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A finite, mostly ordinary double (for values that are supposed to be valid). */
static double pick_finite(void) {
    double d = pick_double();
    return isfinite(d) ? d : 1.0;
}

static const int32_t special_ints[] = {
    0, 1, 2, 3, 4, 5, 16, 17, -1, -2, INT32_MAX, INT32_MIN, 63, 64, 65, 255, 256, 4095, 4096, 4097,
    65536, 1 << 20, (1 << 20) + 1, 1 << 24, (1 << 24) + 1, 1 << 26, (1 << 26) + 1, INT32_MAX - 1, 32, 33,
    1 << 30, -(1 << 24)
};
enum { N_SPECIAL_INTS = sizeof special_ints / sizeof special_ints[0] };

static int32_t pick_i32(void) {
    uint8_t b = u8();
    if (b < 176) return (int32_t)(b % 22) - 2;            /* -2 ... 19 */
    if (b < 248) return special_ints[b % N_SPECIAL_INTS];
    return (int32_t)u32();
}

/* A small count, mostly 0...8, sometimes hostile. */
static int32_t pick_count(void) {
    uint8_t b = u8();
    if (b < 200) return b % 9;
    if (b < 240) return special_ints[b % N_SPECIAL_INTS];
    return (int32_t)u32();
}

/* ------------------------------------------------------------------------ */
/* Reporting                                                                 */

static void trace(const char *fmt, ...) {
    if (!g_trace) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* Oracles with an id can be switched off while a known engine bug is being
 * fixed: CADENCE_FUZZ_IGNORE=id1,id2 (scripts/fuzz.sh and reliability.sh pass
 * the "fuzz-oracle:<id>" lines of tests/reliability/known_failures.txt). */
static const char *g_ignore = "";
static int ignored(const char *id) {
    size_t n = strlen(id);
    for (const char *p = strstr(g_ignore, id); p; p = strstr(p + 1, id))
        if ((p == g_ignore || p[-1] == ',') && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}
#define ORACLE(id, cond, ...)                       \
    do {                                            \
        if (!(cond) && !ignored(id)) FAIL(__VA_ARGS__); \
    } while (0)

#define FAIL(...)                                                                 \
    do {                                                                          \
        fprintf(stderr, "\n*** cadence_fuzz oracle violation (%s:%d): ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                             \
        fprintf(stderr, "\n");                                                    \
        abort();                                                                  \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Pools and the shadow layer tree                                           */

typedef struct {
    cad_layer h;
    cad_layer parent;           /* 0 for a root */
    int nk;
    cad_layer kids[MAXL];
} shadow_layer;

typedef struct {
    cad_engine *e;
    int alive;
    int nl;
    shadow_layer l[MAXL];
    int na;
    cad_anim a[MAXA];
    int nro;
    cad_anim ro[MAXRO];
    int nstale;
    cad_layer stale[MAXSTALE];   /* destroyed layers and animations */
    int tx_depth;                /* transactions the harness opened and did not commit */
} engine_slot;

static engine_slot g_eng[MAXE];
static int g_engines_created;
static int g_depth;
static int g_callback_ops;
static int g_ops;
static int g_group_calls;
static char g_keys[MAXKEYS][72];
static int g_nkeys;

/* Userdata tokens handed to callbacks; their contents must come back intact. */
typedef struct { uint64_t magic; int id; } token;
static token g_tokens[4] = {{0x70CE70CE70CE0000ull, 0}, {0x70CE70CE70CE0001ull, 1},
                            {0x70CE70CE70CE0002ull, 2}, {0x70CE70CE70CE0003ull, 3}};

/* A forged engine: zeroed memory the size of a small object, not an engine. */
static uint64_t g_forged_engine[16];

static engine_slot *slot_of(cad_engine *e) {
    for (int i = 0; i < MAXE; i++)
        if (g_eng[i].alive && g_eng[i].e == e) return &g_eng[i];
    return NULL;
}

static shadow_layer *find_layer(engine_slot *s, cad_layer h) {
    if (!s || h == 0) return NULL;
    for (int i = 0; i < s->nl; i++)
        if (s->l[i].h == h) return &s->l[i];
    return NULL;
}

static int known_anim(engine_slot *s, cad_anim a) {
    if (!s || a == 0) return 0;
    for (int i = 0; i < s->na; i++)
        if (s->a[i] == a) return 1;
    return 0;
}

static void remember_stale(engine_slot *s, uint64_t h) {
    s->stale[s->nstale % MAXSTALE] = h;
    s->nstale++;
}

static void shadow_detach(engine_slot *s, shadow_layer *c) {
    if (c->parent == 0) return;
    shadow_layer *p = find_layer(s, c->parent);
    if (!p) FAIL("shadow: parent of %llx is not tracked", (unsigned long long)c->h);
    for (int i = 0; i < p->nk; i++) {
        if (p->kids[i] == c->h) {
            memmove(&p->kids[i], &p->kids[i + 1], (size_t)(p->nk - i - 1) * sizeof(cad_layer));
            p->nk--;
            break;
        }
    }
    c->parent = 0;
}

static int shadow_is_ancestor(engine_slot *s, cad_layer anc, cad_layer of) {
    shadow_layer *x = find_layer(s, of);
    int guard = 0;
    while (x && x->parent && guard++ <= MAXL) {
        if (x->parent == anc) return 1;
        x = find_layer(s, x->parent);
    }
    return 0;
}

static void shadow_destroy(engine_slot *s, cad_layer h) {
    shadow_layer *x = find_layer(s, h);
    if (!x) return;
    shadow_detach(s, x);
    for (int i = 0; i < x->nk; i++) {
        shadow_layer *k = find_layer(s, x->kids[i]);
        if (k) k->parent = 0;
    }
    remember_stale(s, h);
    int idx = (int)(x - s->l);
    s->nl--;
    if (idx != s->nl) s->l[idx] = s->l[s->nl];
}

/* ------------------------------------------------------------------------ */
/* Status checks                                                             */

static void check_status(cad_status st, const char *fn) {
    if (st > 0 || st < -8) FAIL("%s returned undocumented status %d", fn, st);
    const char *name = cad_status_name(st);
    if (!name || strcmp(name, "CAD_ERR_UNKNOWN") == 0) FAIL("cad_status_name(%d) from %s is unknown", st, fn);
    if (st != CAD_OK) {
        const char *m = cad_last_error();
        if (!m) FAIL("cad_last_error() is NULL after %s failed", fn);
        size_t n = strnlen(m, 600);
        if (n == 0) FAIL("cad_last_error() is empty after %s failed with %s", fn, name);
        if (n >= 512) FAIL("cad_last_error() is not NUL-terminated within 512 bytes after %s", fn);
    }
}

/* OP_CHECKED: the status of the first call the wrapped operation makes. */
static int g_checked_first;
static cad_status g_checked_status;

/* API calls made through CALL (CADENCE_FUZZ_STATS=1 prints the totals at exit). */
static unsigned long long g_api_calls, g_inputs;

#define CALL(fn, ...) call_checked(#fn, fn(__VA_ARGS__))
static cad_status call_checked(const char *fn, cad_status st) {
    g_api_calls++;
    check_status(st, fn);
    if (g_checked_first) { g_checked_first = 0; g_checked_status = st; }
    trace("  -> %s\n", cad_status_name(st));
    return st;
}

/* ------------------------------------------------------------------------ */
/* Argument pickers                                                          */

typedef struct { cad_engine *e; engine_slot *s; int forged; } eng_pick;

static eng_pick pick_engine(void) {
    uint8_t b = u8();
    eng_pick p = {NULL, NULL, 0};
    if (b < 240) {
        engine_slot *s = &g_eng[b % MAXE];
        if (!s->alive) {
            /* fall back to any live engine */
            for (int i = 0; i < MAXE; i++)
                if (g_eng[i].alive) { s = &g_eng[i]; break; }
        }
        if (s->alive) { p.e = s->e; p.s = s; }
        return p;
    }
    if (b & 1) { p.e = (cad_engine *)(void *)g_forged_engine; p.forged = 1; }
    return p;
}

static engine_slot *other_engine(engine_slot *s) {
    for (int i = 0; i < MAXE; i++)
        if (g_eng[i].alive && &g_eng[i] != s && g_eng[i].nl > 0) return &g_eng[i];
    return NULL;
}

static cad_layer pick_layer(engine_slot *s) {
    uint8_t b = u8();
    uint8_t sel = b >> 3;
    switch (b & 7) {
    default:
        if (s && s->nl > 0) return s->l[sel % s->nl].h;
        return 0;
    case 5:
        if (s && s->nstale > 0) return s->stale[sel % (s->nstale < MAXSTALE ? s->nstale : MAXSTALE)];
        return 0;
    case 6: {
        engine_slot *o = other_engine(s);
        if (o) return o->l[sel % o->nl].h;
        return 0;
    }
    case 7: {
        cad_layer base = (s && s->nl > 0) ? s->l[sel % s->nl].h : 0x4000000000000001ull;
        switch (sel % 10) {
        case 0: return 0;
        case 1: return u64();
        case 2: return (s && s->na > 0) ? s->a[sel % s->na] : 0x8000000000000001ull;   /* anim as layer */
        case 3: return (s && s->nro > 0) ? s->ro[sel % s->nro] : 0xC000000000000001ull; /* read-only anim */
        case 4: return UINT64_MAX;
        case 5: return base + 1;                              /* neighbouring index */
        case 6: return base ^ (1ull << 28);                   /* other generation */
        case 7: return base ^ (1ull << 48);                   /* other salt */
        case 8: return (base & ~0x0FFFFFFFull) | 0x0FFFFFFFull; /* huge index */
        default: return base & 0x0FFFFFFFull;                 /* no type bits */
        }
    }
    }
}

static cad_anim pick_anim(engine_slot *s) {
    uint8_t b = u8();
    uint8_t sel = b >> 3;
    switch (b & 7) {
    default:
        if (s && s->na > 0) return s->a[sel % s->na];
        return 0;
    case 4:
        if (s && s->nro > 0) return s->ro[sel % s->nro];
        if (s && s->na > 0) return s->a[sel % s->na];
        return 0;
    case 5:
        if (s && s->nstale > 0) return s->stale[sel % (s->nstale < MAXSTALE ? s->nstale : MAXSTALE)];
        return 0;
    case 6: {
        for (int i = 0; i < MAXE; i++)
            if (g_eng[i].alive && &g_eng[i] != s && g_eng[i].na > 0) return g_eng[i].a[sel % g_eng[i].na];
        return 0;
    }
    case 7: {
        cad_anim base = (s && s->na > 0) ? s->a[sel % s->na] : 0x8000000000000001ull;
        switch (sel % 8) {
        case 0: return 0;
        case 1: return u64();
        case 2: return (s && s->nl > 0) ? s->l[sel % s->nl].h : 0x4000000000000001ull; /* layer as anim */
        case 3: return base + 1;
        case 4: return base ^ (1ull << 28);
        case 5: return base ^ (1ull << 48);
        case 6: return base ^ (3ull << 62);
        default: return UINT64_MAX;
        }
    }
    }
}

/* Garbage strings live here until the next pick. */
static char g_strbuf[4][320];
static int g_strslot;

static const char *pick_garbage(void) {
    char *buf = g_strbuf[g_strslot++ & 3];
    uint8_t b = u8();
    switch (b % 8) {
    case 0: return NULL;
    case 1: return "";
    case 2: {
        size_t n = u8() % 80;
        for (size_t i = 0; i < n; i++) buf[i] = (char)u8();
        buf[n] = 0;
        return buf;
    }
    case 3:
        memset(buf, 'a', 300);
        buf[300] = 0;
        return buf;
    case 4: {
        int k = cad_kp_count ? u8() % cad_kp_count : 0;
        snprintf(buf, 320, "%s.%s", cad_kps[k].name, (b & 16) ? "z" : "x.y"); /* near misses */
        return buf;
    }
    case 5: return "\xff\xfe\x80 invalid utf8";
    case 6: {
        int k = cad_kp_count ? u8() % cad_kp_count : 0;
        size_t n = strlen(cad_kps[k].name);
        memcpy(buf, cad_kps[k].name, n + 1);
        if (n > 1) buf[n - 1] ^= 0x20; /* case flip of the last byte */
        return buf;
    }
    default:
        memset(buf, 'k', 63);
        buf[63] = (char)('0' + (b >> 4));
        buf[64] = 0;
        return buf;
    }
}

/* An array of nl layer handles (the first 16 picked, then repeated), or
 * NULL (sometimes, and for counts too big to pass honestly). Caller frees. */
static cad_layer *pick_layer_array(engine_slot *s, int32_t nl) {
    if (!(nl >= 0 && nl <= HONEST_LIMIT && (u8() & 15))) return NULL;
    cad_layer *ls = malloc((size_t)(nl > 0 ? nl : 1) * sizeof(cad_layer));
    if (!ls) abort();
    for (int32_t i = 0; i < nl; i++) ls[i] = i < 16 ? pick_layer(s) : ls[i % 16];
    return ls;
}

static const char *pick_keypath(int *components) {
    uint8_t b = u8();
    if (b < 224) {
        const cad_kp *k = &cad_kps[(b | (uint32_t)u8() << 8) % cad_kp_count];
        if (components) *components = k->components;
        return k->name;
    }
    if (components) *components = 1;
    return pick_garbage();
}

static const char *pick_key(void) {
    static const char *fixed[] = {"a", "b", "k", "transition", "position", "opacity", "cadence.anim.1", "x"};
    uint8_t b = u8();
    if (b < 160) return fixed[b % 8];
    if (b < 220 && g_nkeys > 0) return g_keys[b % (g_nkeys < MAXKEYS ? g_nkeys : MAXKEYS)];
    if (b < 240) return NULL;
    return pick_garbage();
}

static void remember_key(const char *k) {
    snprintf(g_keys[g_nkeys % MAXKEYS], sizeof g_keys[0], "%s", k);
    g_nkeys++;
}

/* An input array of `n` doubles: NULL, or an exactly-sized buffer. */
static double *make_doubles(int32_t n, int allow_null) {
    if (allow_null && (u8() & 0x0F) == 0) return NULL;
    if (n < 0 || n > HONEST_LIMIT) return NULL;
    size_t cnt = n > 0 ? (size_t)n : 1;
    double *p = malloc(cnt * sizeof(double));
    if (!p) abort();
    size_t fill = cnt < 48 ? cnt : 48;
    for (size_t i = 0; i < fill; i++) p[i] = pick_double();
    for (size_t i = fill; i < cnt; i++) p[i] = p[i % fill];
    return p;
}

/* A values array for a key path: mostly the right count of finite values. */
static double *make_value(int comps, int32_t *n_out) {
    uint8_t b = u8();
    int32_t n = comps;
    if (b >= 208) n = pick_count();
    *n_out = n;
    if (n > HONEST_LIMIT) return NULL;                       /* too big to pass honestly */
    if (n < 0) return (b & 1) ? NULL : make_doubles(4, 0);   /* an invalid count: must not be read */
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!p) abort();
    int hostile = (b & 7) == 0;
    for (int32_t i = 0; i < n; i++) p[i] = hostile ? pick_double() : (i < 48 ? pick_finite() : p[i % 48]);
    if (!hostile && n == 16 && (b & 8)) { /* a proper transform: identity plus noise */
        static const double id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        for (int i = 0; i < 16; i++) p[i] = id[i] + ((b & 16) ? p[i] * 0.01 : 0);
    }
    if ((b & 0xF0) == 0x10 && n == 0) { free(p); return NULL; }
    return p;
}

/* ------------------------------------------------------------------------ */
/* Engine verification                                                       */

static void verify_engine(engine_slot *s) {
    if (!s || !s->alive) return;
    int32_t count = -1;
    cad_status st = cad_engine_layer_count(s->e, &count);
    if (st != CAD_OK) FAIL("cad_engine_layer_count failed: %s", cad_last_error());
    if (count != s->nl) FAIL("layer count %d, shadow model has %d", count, s->nl);
    cad_layer kids[MAXL + 1];
    for (int i = 0; i < s->nl; i++) {
        shadow_layer *x = &s->l[i];
        cad_layer p = 12345;
        st = cad_layer_superlayer(s->e, x->h, &p);
        if (st != CAD_OK) FAIL("cad_layer_superlayer(%llx) of a live layer: %s", (unsigned long long)x->h, cad_last_error());
        if (p != x->parent)
            FAIL("superlayer of %llx is %llx, shadow says %llx", (unsigned long long)x->h, (unsigned long long)p,
                 (unsigned long long)x->parent);
        int32_t n = -1;
        st = cad_layer_sublayers(s->e, x->h, kids, MAXL + 1, &n);
        if (st != CAD_OK) FAIL("cad_layer_sublayers of a live layer: %s", cad_last_error());
        if (n != x->nk) FAIL("layer %llx has %d sublayers, shadow says %d", (unsigned long long)x->h, n, x->nk);
        for (int k = 0; k < n; k++)
            if (kids[k] != x->kids[k]) FAIL("sublayer %d of %llx differs from the shadow model", k, (unsigned long long)x->h);
    }
}

/* A hash of the engine's observable state (no polling: that would change it). */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fingerprint(engine_slot *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    int32_t count = 0;
    double now = 0;
    uint64_t dropped = 0;
    int64_t txid = 0;
    cad_engine_layer_count(s->e, &count);
    cad_engine_now(s->e, &now);
    cad_engine_events_dropped(s->e, &dropped);
    cad_transaction_id(s->e, &txid);
    h = fnv(h, &count, sizeof count);
    h = fnv(h, &now, sizeof now);
    h = fnv(h, &dropped, sizeof dropped);
    h = fnv(h, &txid, sizeof txid);
    static const char *paths[] = {"position", "bounds", "transform", "opacity", "hidden", "backgroundColor",
                                  "speed", "beginTime", "timeOffset", "zPosition", "anchorPoint", "sublayerTransform",
                                  "contentsRect", "shadowOffset", "cornerRadius", "masksToBounds"};
    double v[16];
    char key[128];
    for (int i = 0; i < s->nl && i < 12; i++) {
        cad_layer l = s->l[i].h;
        cad_layer p = 0;
        cad_layer kids[MAXL];
        int32_t n = 0;
        cad_layer_superlayer(s->e, l, &p);
        h = fnv(h, &p, sizeof p);
        if (cad_layer_sublayers(s->e, l, kids, MAXL, &n) == CAD_OK) h = fnv(h, kids, (size_t)n * sizeof kids[0]);
        for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
            memset(v, 0, sizeof v);
            cad_layer_get(s->e, l, paths[k], v, 16, &n);
            h = fnv(h, v, sizeof v);
            memset(v, 0, sizeof v);
            cad_layer_presentation(s->e, l, paths[k], v, 16, &n);
            h = fnv(h, v, sizeof v);
        }
        uint64_t c = 0;
        cad_layer_get_contents(s->e, l, &c);
        h = fnv(h, &c, sizeof c);
        int32_t na = 0;
        cad_layer_animation_count(s->e, l, &na);
        h = fnv(h, &na, sizeof na);
        for (int32_t k = 0; k < na && k < 8; k++) {
            int32_t len = 0;
            memset(key, 0, sizeof key);
            cad_layer_animation_key_at(s->e, l, k, key, sizeof key, &len);
            h = fnv(h, key, sizeof key);
        }
    }
    return h;
}

/* Under CADENCE_FUZZ_STRICT_NUMERIC: 1 flags NaN, 2 any non-finite value. */
static int numeric_bad(double x) { return g_strict_numeric >= 2 ? !isfinite(x) : (g_strict_numeric == 1 && isnan(x)); }

static void check_finite(const double *v, int32_t n, const char *what, const char *kp) {
    for (int32_t i = 0; i < n; i++) {
        if (numeric_bad(v[i]))
            FAIL("%s of \"%s\" has a non-finite component %d: %g", what, kp ? kp : "?", i, v[i]);
    }
}

static void check_render_list(const cad_render_item *it, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (i == 0 && it[i].parent != -1) FAIL("render item 0 has parent %d", it[i].parent);
        if (i > 0 && (it[i].parent < 0 || it[i].parent >= i))
            FAIL("render item %d has parent %d (must be an earlier item)", i, it[i].parent);
        if (it[i].flags & ~31) FAIL("render item %d has unknown flags %x", i, it[i].flags);
        if (it[i].layer == 0) FAIL("render item %d has layer 0", i);
        ORACLE("render-opacity-range", it[i].opacity >= 0 && it[i].opacity <= 1,
               "render item %d opacity %g outside [0, 1]", i, it[i].opacity);
        ORACLE("render-opacity-range", it[i].world_opacity >= 0 && it[i].world_opacity <= 1,
               "render item %d world_opacity %g outside [0, 1]", i, it[i].world_opacity);
        if (g_strict_numeric) {
            const float *f = it[i].world;
            for (int k = 0; k < 16; k++)
                if (numeric_bad(f[k])) FAIL("render item %d world[%d] is %g", i, k, f[k]);
            for (int k = 0; k < 4; k++)
                if (numeric_bad(it[i].bounds[k])) FAIL("render item %d bounds[%d] is %g", i, k, it[i].bounds[k]);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Callbacks                                                                 */

static void run_ops(int n);

static void check_userdata(void *ud) {
    if (!ud) return;
    token *t = ud;
    if (t < &g_tokens[0] || t > &g_tokens[3]) FAIL("callback got foreign userdata %p", ud);
    if (t->magic != (0x70CE70CE70CE0000ull | (uint64_t)t->id)) FAIL("callback userdata was corrupted");
}

static void reenter(void) {
    if (g_depth >= MAX_DEPTH || g_callback_ops >= MAX_CALLBACK_OPS || g_size == 0) return;
    int n = u8() % 4;
    g_callback_ops += n;
    g_depth++;
    run_ops(n);
    g_depth--;
}

static void anim_cb(cad_engine *e, cad_event_kind kind, cad_layer layer, const char *key, int32_t finished,
                    int64_t tag, void *ud) {
    (void)tag;
    engine_slot *s = slot_of(e);
    if (!s) FAIL("animation callback for an engine that is not alive (%p)", (void *)e);
    if (kind != CAD_EVENT_START && kind != CAD_EVENT_STOP) FAIL("animation callback with kind %d", kind);
    if (finished != 0 && finished != 1) FAIL("animation callback with finished = %d", finished);
    if (kind == CAD_EVENT_START && finished) FAIL("start event with finished = 1");
    if (!key) FAIL("animation callback with a NULL key");
    if (strnlen(key, 4096) >= 4096) FAIL("animation callback key is not NUL-terminated");
    if (layer == 0) FAIL("animation callback with layer 0");
    check_userdata(ud);
    trace("%*s[anim callback kind=%d layer=%llx key=%s finished=%d]\n", g_depth * 2, "", kind,
          (unsigned long long)layer, key, finished);
    if (strlen(key) < 70) remember_key(key);
    reenter();
}

static void tx_cb(cad_engine *e, void *ud) {
    engine_slot *s = slot_of(e);
    if (!s) FAIL("transaction callback for an engine that is not alive (%p)", (void *)e);
    check_userdata(ud);
    trace("%*s[transaction callback]\n", g_depth * 2, "");
    reenter();
}

static void *pick_userdata(void) {
    uint8_t b = u8();
    return (b & 4) ? NULL : &g_tokens[b & 3];
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

#define OPS(X)                                                                                      \
    X(ENGINE_CREATE) X(ENGINE_DESTROY) X(TICK) X(NOW) X(LAYER_COUNT) X(POLL) X(SET_EVENT_CAPACITY)   \
    X(EVENTS_DROPPED) X(LAYER_CREATE) X(LAYER_DESTROY) X(ADD_SUBLAYER) X(INSERT_SUBLAYER)          \
    X(REMOVE_FROM_SUPERLAYER) X(SUPERLAYER) X(SUBLAYERS) X(SET) X(GET) X(PRESENTATION)             \
    X(SET_CONTENTS) X(GET_CONTENTS) X(SET_ACTIONS_ENABLED) X(SET_ACTION) X(CLEAR_ACTION)           \
    X(CONVERT_TIME) X(ANIM_CREATE) X(ANIM_DESTROY) X(BEGIN_TIME) X(DURATION) X(SPEED)             \
    X(TIME_OFFSET) X(REPEAT_COUNT) X(REPEAT_DURATION) X(AUTOREVERSES) X(FILL_MODE)                 \
    X(REMOVED_ON_COMPLETION) X(TIMING_FUNCTION) X(TIMING_BEZIER) X(TIMING_STEPS) X(FROM) X(TO)    \
    X(BY) X(ADDITIVE) X(CUMULATIVE) X(SPRING) X(SETTLING) X(SPRING_PERCEPTUAL) X(SPRING_UIKIT)     \
    X(VALUES) X(KEY_TIMES) X(SEGMENT_TIMING) X(CALC_MODE) X(TCB) X(MOVE_TO) X(LINE_TO) X(QUAD_TO)  \
    X(CUBIC_TO) X(CLOSE) X(ROTATION_MODE) X(GROUP_CHILDREN) X(TRANSITION) X(TRANSITION_PROGRESS)   \
    X(TAG) X(CALLBACK) X(ADD_ANIM) X(REMOVE_ANIM) X(REMOVE_ALL) X(ANIM_COUNT) X(KEY_AT) X(FOR_KEY)  \
    X(TX_BEGIN) X(TX_COMMIT) X(TX_DURATION) X(TX_TIMING_FUNCTION) X(TX_TIMING_BEZIER)              \
    X(TX_DISABLE_ACTIONS) X(TX_COMPLETION) X(TX_ID) X(TX_DELAY) X(TX_REPEAT_COUNT)                 \
    X(TX_AUTOREVERSES) X(TX_SPRING) X(TX_BEGIN_KEYFRAME) X(RENDER_LIST) X(SAMPLE) X(LIBRARY)       \
    X(TIMING_EVAL_BATCH) X(MACRO_ANIMATE) X(MACRO_TREE) X(MACRO_FRAME) X(VERIFY) X(CHECKED) X(POLL_MANY)    \
    X(PRES_CONTENTS) X(RESERVE) X(CONVERT_POINT) X(HIT_TEST) X(SET_MANY)

#define X_ENUM(n) OP_##n,
enum { OPS(X_ENUM) OP_COUNT };
/* An opcode byte selects op (byte % OP_SLOTS); slots past OP_COUNT do nothing.
 * The modulus is fixed so that appending an op to OPS does not change what the
 * committed inputs (corpus, regressions) mean: append new ops at the end. */
enum { OP_SLOTS = 128 };
_Static_assert(OP_COUNT <= OP_SLOTS, "too many ops for the opcode byte");
#define X_NAME(n) #n,
static const char *op_names[] = {OPS(X_NAME)};

static void do_op(int op);

/* A time step for ticks: mostly small and forward. */
static double pick_tick(engine_slot *s) {
    double now = 0;
    cad_engine_now(s->e, &now);
    uint8_t b = u8();
    if (b < 120) return now + (double)(b % 30) / 60.0;
    if (b < 200) return now + (double)(b % 10) * 0.25;
    if (b < 220) return now + pick_double();
    return pick_double();
}

static void op_anim_setter(int op, eng_pick ep) {
    cad_anim a = pick_anim(ep.s);
    cad_status st = CAD_OK;
    double d;
    switch (op) {
    case OP_BEGIN_TIME: d = pick_double(); trace("cad_anim_set_begin_time(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_begin_time, ep.e, a, d); break;
    case OP_DURATION: d = pick_double(); trace("cad_anim_set_duration(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_duration, ep.e, a, d); break;
    case OP_SPEED: d = pick_double(); trace("cad_anim_set_speed(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_speed, ep.e, a, d); break;
    case OP_TIME_OFFSET: d = pick_double(); trace("cad_anim_set_time_offset(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_time_offset, ep.e, a, d); break;
    case OP_REPEAT_COUNT: d = pick_double(); trace("cad_anim_set_repeat_count(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_repeat_count, ep.e, a, d); break;
    case OP_REPEAT_DURATION: d = pick_double(); trace("cad_anim_set_repeat_duration(%llx, %g)\n", (unsigned long long)a, d); st = CALL(cad_anim_set_repeat_duration, ep.e, a, d); break;
    case OP_AUTOREVERSES: { int32_t v = pick_i32(); trace("cad_anim_set_autoreverses(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_autoreverses, ep.e, a, v); break; }
    case OP_FILL_MODE: { int32_t v = pick_i32(); trace("cad_anim_set_fill_mode(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_fill_mode, ep.e, a, v); break; }
    case OP_REMOVED_ON_COMPLETION: { int32_t v = pick_i32(); trace("cad_anim_set_removed_on_completion(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_removed_on_completion, ep.e, a, v); break; }
    case OP_TIMING_FUNCTION: { int32_t v = pick_i32(); trace("cad_anim_set_timing_function(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_timing_function, ep.e, a, v); break; }
    case OP_TIMING_BEZIER: {
        double c1x = pick_double(), c1y = pick_double(), c2x = pick_double(), c2y = pick_double();
        trace("cad_anim_set_timing_bezier(%llx, %g, %g, %g, %g)\n", (unsigned long long)a, c1x, c1y, c2x, c2y);
        st = CALL(cad_anim_set_timing_bezier, ep.e, a, c1x, c1y, c2x, c2y);
        break;
    }
    case OP_TIMING_STEPS: { int32_t n = pick_i32(), j = pick_i32(); trace("cad_anim_set_timing_steps(%llx, %d, %d)\n", (unsigned long long)a, n, j); st = CALL(cad_anim_set_timing_steps, ep.e, a, n, j); break; }
    case OP_FROM: case OP_TO: case OP_BY: {
        int32_t n;
        uint8_t k = u8();
        int comps = (k < 200) ? cad_kps[k % cad_kp_count].components : 1 + k % 16;
        double *v = make_value(comps, &n);
        trace("cad_anim_set_%s(%llx, %p, %d)\n", op == OP_FROM ? "from" : op == OP_TO ? "to" : "by", (unsigned long long)a, (void *)v, n);
        if (op == OP_FROM) st = CALL(cad_anim_set_from, ep.e, a, v, n);
        else if (op == OP_TO) st = CALL(cad_anim_set_to, ep.e, a, v, n);
        else st = CALL(cad_anim_set_by, ep.e, a, v, n);
        free(v);
        break;
    }
    case OP_ADDITIVE: { int32_t v = pick_i32(); trace("cad_anim_set_additive(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_additive, ep.e, a, v); break; }
    case OP_CUMULATIVE: { int32_t v = pick_i32(); trace("cad_anim_set_cumulative(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_cumulative, ep.e, a, v); break; }
    case OP_SPRING: {
        double m = pick_double(), k = pick_double(), dmp = pick_double(), v = pick_double();
        trace("cad_anim_set_spring(%llx, %g, %g, %g, %g)\n", (unsigned long long)a, m, k, dmp, v);
        st = CALL(cad_anim_set_spring, ep.e, a, m, k, dmp, v);
        break;
    }
    case OP_SETTLING: {
        double out = -7;
        int null_out = (u8() & 7) == 0;
        trace("cad_anim_spring_settling_duration(%llx, %s)\n", (unsigned long long)a, null_out ? "NULL" : "&out");
        st = CALL(cad_anim_spring_settling_duration, ep.e, a, null_out ? NULL : &out);
        if (st == CAD_OK && (isnan(out) || out < 0)) FAIL("settling duration %g", out);
        if ((u8() & 1) == 0) {
            /* the parameters read back (any out pointer may be NULL) */
            double pm = -1, pk = -1;
            trace("cad_anim_get_spring(%llx)\n", (unsigned long long)a);
            cad_status s2 = CALL(cad_anim_get_spring, ep.e, a, (u8() & 1) ? NULL : &pm, &pk, NULL, NULL);
            if (s2 == CAD_OK && !(pk > 0)) FAIL("spring stiffness %g", pk);
        }
        break;
    }
    case OP_SPRING_PERCEPTUAL: {
        double du = pick_double(), bo = pick_double();
        trace("cad_anim_set_spring_perceptual(%llx, %g, %g)\n", (unsigned long long)a, du, bo);
        st = CALL(cad_anim_set_spring_perceptual, ep.e, a, du, bo);
        break;
    }
    case OP_SPRING_UIKIT: {
        double du = pick_double(), r = pick_double(), v = pick_double();
        trace("cad_anim_set_spring_uikit(%llx, %g, %g, %g)\n", (unsigned long long)a, du, r, v);
        st = CALL(cad_anim_set_spring_uikit, ep.e, a, du, r, v);
        break;
    }
    case OP_VALUES: {
        int32_t count = pick_count(), comps;
        uint8_t k = u8();
        comps = (k < 200) ? cad_kps[k % cad_kp_count].components : pick_count();
        int64_t total = (int64_t)count * comps;
        double *v = NULL;
        if (count >= 0 && comps >= 0 && total <= HONEST_LIMIT) v = make_doubles((int32_t)total, 1);
        trace("cad_anim_set_values(%llx, %p, %d, %d)\n", (unsigned long long)a, (void *)v, count, comps);
        st = CALL(cad_anim_set_values, ep.e, a, v, count, comps);
        free(v);
        break;
    }
    case OP_KEY_TIMES: {
        int32_t count = pick_count();
        double *t = NULL;
        if (count >= 0 && count <= HONEST_LIMIT && (u8() & 7)) {
            t = malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
            uint8_t mode = u8();
            for (int32_t i = 0; i < count; i++) {
                if (mode < 160) t[i] = count > 1 ? (double)i / (count - 1) : 0; /* valid, evenly spaced */
                else t[i] = i < 32 ? pick_double() : t[i % 32];
            }
        }
        trace("cad_anim_set_key_times(%llx, %p, %d)\n", (unsigned long long)a, (void *)t, count);
        st = CALL(cad_anim_set_key_times, ep.e, a, t, count);
        free(t);
        break;
    }
    case OP_SEGMENT_TIMING: {
        int32_t segs = pick_count();
        /* Known bug "segment-blowup" (fuzz/regressions/segment_timing_blowup.c): each
         * segment builds an 8 KB table; while it is open keep the count small. */
        if (ignored("segment-blowup") && segs > 256) segs = 256;
        double *b = NULL;
        if (segs >= 0 && segs <= HONEST_LIMIT / 4 && (u8() & 7)) {
            b = malloc((size_t)(segs > 0 ? segs : 1) * 4 * sizeof(double));
            uint8_t mode = u8();
            for (int32_t i = 0; i < segs * 4; i++)
                b[i] = (mode < 160) ? ((i & 1) ? 0.5 + (double)(i % 3) * 0.25 : 0.42) : (i < 32 ? pick_double() : b[i % 32]);
        }
        trace("cad_anim_set_segment_timing(%llx, %p, %d)\n", (unsigned long long)a, (void *)b, segs);
        st = CALL(cad_anim_set_segment_timing, ep.e, a, b, segs);
        free(b);
        break;
    }
    case OP_CALC_MODE: { int32_t v = pick_i32(); trace("cad_anim_set_calculation_mode(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_calculation_mode, ep.e, a, v); break; }
    case OP_TCB: {
        int32_t count = pick_count();
        uint8_t which = u8();
        double *t = (which & 1) ? make_doubles(count, 0) : NULL;
        double *c = (which & 2) ? make_doubles(count, 0) : NULL;
        double *b = (which & 4) ? make_doubles(count, 0) : NULL;
        trace("cad_anim_set_tcb(%llx, %p, %p, %p, %d)\n", (unsigned long long)a, (void *)t, (void *)c, (void *)b, count);
        st = CALL(cad_anim_set_tcb, ep.e, a, t, c, b, count);
        free(t); free(c); free(b);
        break;
    }
    case OP_MOVE_TO: { double x = pick_double(), y = pick_double(); trace("cad_anim_path_move_to(%llx, %g, %g)\n", (unsigned long long)a, x, y); st = CALL(cad_anim_path_move_to, ep.e, a, x, y); break; }
    case OP_LINE_TO: { double x = pick_double(), y = pick_double(); trace("cad_anim_path_line_to(%llx, %g, %g)\n", (unsigned long long)a, x, y); st = CALL(cad_anim_path_line_to, ep.e, a, x, y); break; }
    case OP_QUAD_TO: {
        double cx = pick_double(), cy = pick_double(), x = pick_double(), y = pick_double();
        trace("cad_anim_path_quad_to(%llx, %g, %g, %g, %g)\n", (unsigned long long)a, cx, cy, x, y);
        st = CALL(cad_anim_path_quad_to, ep.e, a, cx, cy, x, y);
        break;
    }
    case OP_CUBIC_TO: {
        double c1x = pick_double(), c1y = pick_double(), c2x = pick_double(), c2y = pick_double(), x = pick_double(), y = pick_double();
        trace("cad_anim_path_cubic_to(%llx, %g, %g, %g, %g, %g, %g)\n", (unsigned long long)a, c1x, c1y, c2x, c2y, x, y);
        st = CALL(cad_anim_path_cubic_to, ep.e, a, c1x, c1y, c2x, c2y, x, y);
        break;
    }
    case OP_CLOSE: trace("cad_anim_path_close(%llx)\n", (unsigned long long)a); st = CALL(cad_anim_path_close, ep.e, a); break;
    case OP_ROTATION_MODE: { int32_t v = pick_i32(); trace("cad_anim_set_rotation_mode(%llx, %d)\n", (unsigned long long)a, v); st = CALL(cad_anim_set_rotation_mode, ep.e, a, v); break; }
    case OP_TRANSITION: { int32_t t = pick_i32(), sub = pick_i32(); trace("cad_anim_set_transition(%llx, %d, %d)\n", (unsigned long long)a, t, sub); st = CALL(cad_anim_set_transition, ep.e, a, t, sub); break; }
    case OP_TRANSITION_PROGRESS: { double s0 = pick_double(), s1 = pick_double(); trace("cad_anim_set_transition_progress(%llx, %g, %g)\n", (unsigned long long)a, s0, s1); st = CALL(cad_anim_set_transition_progress, ep.e, a, s0, s1); break; }
    case OP_TAG: { int64_t t = (int64_t)u64(); trace("cad_anim_set_tag(%llx, %lld)\n", (unsigned long long)a, (long long)t); st = CALL(cad_anim_set_tag, ep.e, a, t); break; }
    case OP_CALLBACK: {
        uint8_t b = u8();
        void *ud = pick_userdata();
        trace("cad_anim_set_callback(%llx, %s, %p)\n", (unsigned long long)a, (b & 3) ? "anim_cb" : "NULL", ud);
        st = CALL(cad_anim_set_callback, ep.e, a, (b & 3) ? anim_cb : NULL, ud);
        break;
    }
    default: break;
    }
    if (!ep.e && st != CAD_ERR_INVALID_ARGUMENT) FAIL("%s with a NULL engine gave %d", op_names[op], st);
    if (ep.forged && st != CAD_ERR_INVALID_ARGUMENT) FAIL("%s with a forged engine gave %d", op_names[op], st);
}

static void do_op(int op) {
    g_ops++;
    trace("%*s#%d %s\n", g_depth * 2, "", g_ops, op_names[op]);
    eng_pick ep;
    cad_status st;
    switch (op) {
    case OP_ENGINE_CREATE: {
        int free_slot = -1;
        for (int i = 0; i < MAXE; i++) if (!g_eng[i].alive) { free_slot = i; break; }
        if (free_slot < 0 || g_engines_created >= MAX_ENGINES_CREATED) return;
        engine_slot *s = &g_eng[free_slot];
        memset(s, 0, sizeof *s);
        s->e = cad_engine_create();
        if (!s->e) FAIL("cad_engine_create returned NULL");
        s->alive = 1;
        g_engines_created++;
        trace("engine %d = cad_engine_create() = %p\n", free_slot, (void *)s->e);
        return;
    }
    case OP_ENGINE_DESTROY: {
        uint8_t b = u8();
        if (b >= 240) { trace("cad_engine_destroy(%s)\n", (b & 1) ? "forged" : "NULL"); cad_engine_destroy((b & 1) ? (cad_engine *)(void *)g_forged_engine : NULL); return; }
        engine_slot *s = &g_eng[b % MAXE];
        if (!s->alive) return;
        /* Only rarely: destroying loses the whole state the fuzzer built. */
        if ((u8() & 3) != 0) return;
        trace("cad_engine_destroy(engine %d)\n", (int)(s - g_eng));
        s->alive = 0;
        cad_engine_destroy(s->e);
        s->e = NULL;
        return;
    }
    case OP_TICK: {
        ep = pick_engine();
        double t = ep.s ? pick_tick(ep.s) : pick_double();
        trace("cad_engine_tick(%p, %.17g)\n", (void *)ep.e, t);
        st = CALL(cad_engine_tick, ep.e, t);
        if (!ep.e && st != CAD_ERR_INVALID_ARGUMENT) FAIL("tick with NULL engine gave %d", st);
        return;
    }
    case OP_NOW: {
        ep = pick_engine();
        double now = -1;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_engine_now, ep.e, null_out ? NULL : &now);
        if (st == CAD_OK && !isfinite(now)) FAIL("now is not finite");
        if (null_out && st == CAD_OK) FAIL("cad_engine_now(NULL out) succeeded");
        return;
    }
    case OP_LAYER_COUNT: {
        ep = pick_engine();
        int32_t n = -1;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_engine_layer_count, ep.e, null_out ? NULL : &n);
        if (st == CAD_OK && ep.s && n != ep.s->nl) FAIL("layer count %d, shadow %d", n, ep.s->nl);
        return;
    }
    case OP_POLL: {
        ep = pick_engine();
        int n = 1 + u8() % 8;
        int null_out = (u8() & 15) == 0;
        for (int i = 0; i < n; i++) {
            cad_event ev;
            memset(&ev, 0xAB, sizeof ev);
            st = CALL(cad_engine_poll_event, ep.e, null_out ? NULL : &ev);
            if (st != CAD_OK) break;
            if (ev.kind < 1 || ev.kind > 3) FAIL("polled event kind %d", ev.kind);
            if (ev.finished != 0 && ev.finished != 1) FAIL("polled event finished %d", ev.finished);
            if (memchr(ev.key, 0, sizeof ev.key) == NULL) FAIL("polled event key is not NUL-terminated");
            if (!isfinite(ev.time)) FAIL("polled event time %g", ev.time);
            if (ev.kind == 3 && (ev.layer != 0 || ev.key[0] != 0)) FAIL("transaction event with a layer or key");
            if (ev.kind != 3 && ev.layer == 0) FAIL("animation event with layer 0");
        }
        return;
    }
    case OP_POLL_MANY: {
        ep = pick_engine();
        uint8_t mode = u8();
        int32_t cap = mode < 160 ? (int32_t)(mode % 17) : pick_count();
        cad_event *out = NULL;
        if (cap > 0 && cap <= 4096 && (mode & 7)) out = malloc((size_t)cap * sizeof *out);
        int32_t n = -99;
        trace("cad_engine_poll_events(%p, %p, %d)\n", (void *)ep.e, (void *)out, cap);
        st = CALL(cad_engine_poll_events, ep.e, out, cap, (mode & 8) && mode >= 160 ? NULL : &n);
        if (st == CAD_OK && n != -99) {
            if (n < 0 || n > cap) FAIL("cad_engine_poll_events n = %d, cap = %d", n, cap);
            for (int32_t i = 0; out && i < n; i++) {
                if (out[i].kind < 1 || out[i].kind > 3) FAIL("polled event kind %d", out[i].kind);
                if (memchr(out[i].key, 0, sizeof out[i].key) == NULL) FAIL("polled event key is not NUL-terminated");
                if (out[i].finished != 0 && out[i].finished != 1) FAIL("polled event finished %d", out[i].finished);
            }
        }
        if (st == CAD_OK && cap > 0 && !out) FAIL("cad_engine_poll_events accepted NULL with cap %d", cap);
        free(out);
        return;
    }
    case OP_SET_EVENT_CAPACITY: {
        ep = pick_engine();
        int32_t c = pick_i32();
        if (c > 100000 && c <= (1 << 24) && (u8() & 1)) c = 100000;
        trace("cad_engine_set_event_capacity(%p, %d)\n", (void *)ep.e, c);
        st = CALL(cad_engine_set_event_capacity, ep.e, c);
        if (st == CAD_OK && c < 0) FAIL("negative event capacity accepted");
        return;
    }
    case OP_RESERVE: {
        ep = pick_engine();
        /* Mostly small counts; the limit (1 << 20) and past it now and then:
           large reservations are address space, committed only when used. */
        uint8_t mode = u8();
        int32_t nl = pick_i32(), na = pick_i32();
        if (mode >= 240) { nl = (mode & 1) ? (1 << 20) : (1 << 20) + 1; na = (mode & 2) ? (1 << 20) : na; }
        else if (mode >= 200) { nl = 4096; na = 4096; }
        else if ((nl > 100000 || na > 100000) && (mode & 1)) { nl = nl > 100000 ? 100000 : nl; na = na > 100000 ? 100000 : na; }
        trace("cad_engine_reserve(%p, %d, %d)\n", (void *)ep.e, nl, na);
        st = CALL(cad_engine_reserve, ep.e, nl, na);
        if (st == CAD_OK && (nl < 0 || na < 0 || nl > (1 << 20) || na > (1 << 20)))
            FAIL("cad_engine_reserve accepted %d, %d", nl, na);
        return;
    }
    case OP_EVENTS_DROPPED: {
        ep = pick_engine();
        uint64_t d = 0;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_engine_events_dropped, ep.e, null_out ? NULL : &d);
        return;
    }
    case OP_LAYER_CREATE: {
        ep = pick_engine();
        int null_out = (u8() & 15) == 0;
        if (ep.s && ep.s->nl >= MAXL) return;
        cad_layer l = 0;
        trace("cad_layer_create(%p)\n", (void *)ep.e);
        st = CALL(cad_layer_create, ep.e, null_out ? NULL : &l);
        if (null_out) { if (st == CAD_OK) FAIL("cad_layer_create(NULL) succeeded"); return; }
        if (ep.s) {
            if (st != CAD_OK) FAIL("cad_layer_create failed on a live engine: %s", cad_last_error());
            if (find_layer(ep.s, l)) FAIL("cad_layer_create returned a live handle %llx", (unsigned long long)l);
            for (int i = 0; i < MAXE; i++)
                if (g_eng[i].alive && &g_eng[i] != ep.s && find_layer(&g_eng[i], l))
                    FAIL("layer handle %llx is also live in another engine", (unsigned long long)l);
            shadow_layer *x = &ep.s->l[ep.s->nl++];
            x->h = l;
            x->parent = 0;
            x->nk = 0;
            trace("  = %llx\n", (unsigned long long)l);
        }
        return;
    }
    case OP_LAYER_DESTROY: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        trace("cad_layer_destroy(%p, %llx)\n", (void *)ep.e, (unsigned long long)l);
        st = CALL(cad_layer_destroy, ep.e, l);
        if (ep.s) {
            int known = find_layer(ep.s, l) != NULL;
            if (known != (st == CAD_OK)) FAIL("cad_layer_destroy(%s layer) gave %d", known ? "live" : "non-live", st);
            if (st == CAD_OK) shadow_destroy(ep.s, l);
        }
        return;
    }
    case OP_ADD_SUBLAYER:
    case OP_INSERT_SUBLAYER: {
        ep = pick_engine();
        cad_layer p = pick_layer(ep.s), c = pick_layer(ep.s);
        int32_t idx = 0;
        if (op == OP_INSERT_SUBLAYER) {
            uint8_t b = u8();
            idx = b < 200 ? (int32_t)(b % 6) : pick_i32();
            trace("cad_layer_insert_sublayer(%p, %llx, %llx, %d)\n", (void *)ep.e, (unsigned long long)p, (unsigned long long)c, idx);
            st = CALL(cad_layer_insert_sublayer, ep.e, p, c, idx);
        } else {
            trace("cad_layer_add_sublayer(%p, %llx, %llx)\n", (void *)ep.e, (unsigned long long)p, (unsigned long long)c);
            st = CALL(cad_layer_add_sublayer, ep.e, p, c);
        }
        if (!ep.s) return;
        shadow_layer *sp = find_layer(ep.s, p), *sc = find_layer(ep.s, c);
        int count = sp ? sp->nk - (sc && sc->parent == p ? 1 : 0) : 0;
        if (op == OP_ADD_SUBLAYER) idx = count;
        int expect_ok = sp && sc && p != c && !shadow_is_ancestor(ep.s, c, p) && idx >= 0 && idx <= count;
        if (expect_ok != (st == CAD_OK))
            FAIL("%s: expected %s, got %s (%s)", op_names[op], expect_ok ? "success" : "failure", cad_status_name(st),
                 st ? cad_last_error() : "");
        if (st == CAD_OK) {
            shadow_detach(ep.s, sc);
            memmove(&sp->kids[idx + 1], &sp->kids[idx], (size_t)(sp->nk - idx) * sizeof(cad_layer));
            sp->kids[idx] = c;
            sp->nk++;
            sc->parent = p;
        }
        return;
    }
    case OP_REMOVE_FROM_SUPERLAYER: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        trace("cad_layer_remove_from_superlayer(%p, %llx)\n", (void *)ep.e, (unsigned long long)l);
        st = CALL(cad_layer_remove_from_superlayer, ep.e, l);
        if (ep.s) {
            shadow_layer *x = find_layer(ep.s, l);
            if ((x != NULL) != (st == CAD_OK)) FAIL("remove_from_superlayer status %d for %s layer", st, x ? "live" : "non-live");
            if (x) shadow_detach(ep.s, x);
        }
        return;
    }
    case OP_SUPERLAYER: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s), out = 777;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_layer_superlayer, ep.e, l, null_out ? NULL : &out);
        if (ep.s && !null_out) {
            shadow_layer *x = find_layer(ep.s, l);
            if ((x != NULL) != (st == CAD_OK)) FAIL("superlayer status %d for %s layer", st, x ? "live" : "non-live");
            if (x && out != x->parent) FAIL("superlayer mismatch");
            if (!x && out != 777) FAIL("failing cad_layer_superlayer wrote its out-pointer");
        }
        return;
    }
    case OP_SUBLAYERS: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int32_t cap = pick_count();
        uint8_t mode = u8();
        cad_layer *buf = NULL;
        if (cap > 0 && cap <= HONEST_LIMIT && (mode & 7)) buf = malloc((size_t)cap * sizeof(cad_layer));
        int32_t n = -99;
        st = CALL(cad_layer_sublayers, ep.e, l, buf, cap, (mode & 8) ? NULL : &n);
        if (st == CAD_OK && n != -99 && (n < 0 || n > cap)) FAIL("cad_layer_sublayers n = %d cap = %d", n, cap);
        if (st == CAD_ERR_BUFFER_TOO_SMALL && n != -99 && n <= cap) FAIL("BUFFER_TOO_SMALL but needed %d <= cap %d", n, cap);
        free(buf);
        return;
    }
    case OP_SET: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int comps;
        const char *kp = pick_keypath(&comps);
        int32_t n;
        double *v = make_value(comps, &n);
        trace("cad_layer_set(%p, %llx, \"%s\", v, %d) v=", (void *)ep.e, (unsigned long long)l, kp ? kp : "(null)", n);
        if (g_trace && v) for (int32_t i = 0; i < n && i < 16; i++) trace("%.17g ", v[i]);
        trace("\n");
        st = CALL(cad_layer_set, ep.e, l, kp, v, n);
        if (ep.s && !find_layer(ep.s, l) && st == CAD_OK) FAIL("cad_layer_set on a non-live layer succeeded");
        /* A plain key path reads back exactly what was set. */
        if (st == CAD_OK && kp) {
            int k = cad_kp_find(kp);
            if (k >= 0 && cad_kps[k].plain && n <= 16) {
                double back[16];
                int32_t bn = 0;
                if (cad_layer_get(ep.e, l, kp, back, 16, &bn) != CAD_OK) FAIL("get after set failed: %s", cad_last_error());
                if (bn != n) FAIL("get after set of \"%s\": %d components, set %d", kp, bn, n);
                for (int32_t i = 0; i < n; i++) {
                    int same = memcmp(&back[i], &v[i], sizeof(double)) == 0 || (back[i] == 0 && v[i] == 0);
                    if (cad_kps[k].plain == 2) same = same || back[i] == (v[i] != 0 ? 1.0 : 0.0);
                    if (!same) FAIL("get after set of \"%s\"[%d]: %.17g, set %.17g", kp, i, back[i], v[i]);
                }
            }
        }
        free(v);
        return;
    }
    case OP_GET:
    case OP_PRESENTATION: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int comps;
        const char *kp = pick_keypath(&comps);
        uint8_t mode = u8();
        int32_t cap = (mode < 200) ? comps : pick_count();
        double *out = NULL;
        if (cap > 0 && cap <= HONEST_LIMIT && (mode & 15)) out = malloc((size_t)cap * sizeof(double));
        int32_t n = -99;
        if (op == OP_GET) st = CALL(cad_layer_get, ep.e, l, kp, out, cap, (mode & 16) ? NULL : &n);
        else st = CALL(cad_layer_presentation, ep.e, l, kp, out, cap, (mode & 16) ? NULL : &n);
        if (st == CAD_OK && n != -99) {
            if (n < 0 || n > cap) FAIL("%s wrote n = %d with cap %d", op_names[op], n, cap);
            if (out) check_finite(out, n, op_names[op], kp);
        }
        if (ep.s && !find_layer(ep.s, l) && st == CAD_OK) FAIL("%s on a non-live layer succeeded", op_names[op]);
        free(out);
        return;
    }
    case OP_SET_CONTENTS: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        uint64_t c = (u8() & 1) ? u8() : u64();
        trace("cad_layer_set_contents(%p, %llx, %llu)\n", (void *)ep.e, (unsigned long long)l, (unsigned long long)c);
        st = CALL(cad_layer_set_contents, ep.e, l, c);
        if (st == CAD_OK) {
            uint64_t back = 0;
            if (CALL(cad_layer_get_contents, ep.e, l, &back) != CAD_OK || back != c) FAIL("get_contents after set_contents");
        }
        return;
    }
    case OP_GET_CONTENTS: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        uint64_t c = 0;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_layer_get_contents, ep.e, l, null_out ? NULL : &c);
        return;
    }
    case OP_PRES_CONTENTS: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        uint64_t c = 0;
        int null_out = (u8() & 7) == 0;
        trace("cad_layer_presentation_contents(%p, %llx)\n", (void *)ep.e, (unsigned long long)l);
        st = CALL(cad_layer_presentation_contents, ep.e, l, null_out ? NULL : &c);
        if (ep.s && !find_layer(ep.s, l) && st == CAD_OK) FAIL("presentation_contents on a non-live layer succeeded");
        return;
    }
    case OP_SET_ACTIONS_ENABLED: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int32_t v = pick_i32();
        trace("cad_layer_set_actions_enabled(%p, %llx, %d)\n", (void *)ep.e, (unsigned long long)l, v);
        st = CALL(cad_layer_set_actions_enabled, ep.e, l, v);
        return;
    }
    case OP_SET_ACTION: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        const char *k = (u8() < 200) ? pick_keypath(NULL) : pick_key();
        cad_anim a = (u8() & 3) ? pick_anim(ep.s) : 0;
        trace("cad_layer_set_action(%p, %llx, \"%s\", %llx)\n", (void *)ep.e, (unsigned long long)l, k ? k : "(null)", (unsigned long long)a);
        st = CALL(cad_layer_set_action, ep.e, l, k, a);
        return;
    }
    case OP_CLEAR_ACTION: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        const char *k = (u8() < 200) ? pick_keypath(NULL) : pick_key();
        trace("cad_layer_clear_action(%p, %llx, \"%s\")\n", (void *)ep.e, (unsigned long long)l, k ? k : "(null)");
        st = CALL(cad_layer_clear_action, ep.e, l, k);
        return;
    }
    case OP_CONVERT_TIME: {
        ep = pick_engine();
        double t = pick_double();
        cad_layer from = (u8() & 3) ? pick_layer(ep.s) : 0, to = (u8() & 3) ? pick_layer(ep.s) : 0;
        double out = 0;
        int null_out = (u8() & 15) == 0;
        st = CALL(cad_layer_convert_time, ep.e, t, from, to, null_out ? NULL : &out);
        if (st == CAD_OK && numeric_bad(out)) FAIL("convert_time(%g) gave %g", t, out);
        return;
    }
    case OP_CONVERT_POINT: {
        ep = pick_engine();
        double x = pick_double(), y = pick_double();
        cad_layer from = (u8() & 3) ? pick_layer(ep.s) : 0, to = (u8() & 3) ? pick_layer(ep.s) : 0;
        uint8_t pb = u8();
        int32_t pres = pb < 128 ? (int32_t)(pb & 1) : pick_i32();
        double out[2] = {0, 0};
        int null_out = (u8() & 15) == 0;
        trace("cad_layer_convert_point(%p, %g, %g, %llx, %llx, %d)\n", (void *)ep.e, x, y, (unsigned long long)from,
              (unsigned long long)to, pres);
        st = CALL(cad_layer_convert_point, ep.e, x, y, from, to, pres, null_out ? NULL : out);
        if (st == CAD_OK && (isnan(out[0]) || isnan(out[1]))) FAIL("convert_point(%g, %g) gave NaN", x, y);
        return;
    }
    case OP_HIT_TEST: {
        ep = pick_engine();
        double x = pick_double(), y = pick_double();
        cad_layer root = pick_layer(ep.s), out = 1;
        uint8_t pb = u8();
        int32_t pres = pb < 128 ? (int32_t)(pb & 1) : pick_i32();
        int null_out = (u8() & 15) == 0;
        trace("cad_layer_hit_test(%p, %llx, %g, %g, %d)\n", (void *)ep.e, (unsigned long long)root, x, y, pres);
        st = CALL(cad_layer_hit_test, ep.e, root, x, y, pres, null_out ? NULL : &out);
        if (st == CAD_OK && out != 0 && ep.e) {
            /* the layer hit is live: its superlayer can be read */
            cad_layer sup = 0;
            if (cad_layer_superlayer(ep.e, out, &sup) != CAD_OK) FAIL("hit_test gave a layer that is not live (%llx)", (unsigned long long)out);
        }
        return;
    }
    case OP_ANIM_CREATE: {
        ep = pick_engine();
        uint8_t b = u8();
        int32_t kind = (b < 240) ? (int32_t)(b % 5) : pick_i32();
        const char *kp = (kind == CAD_ANIM_GROUP || kind == CAD_ANIM_TRANSITION) ? ((u8() & 3) ? NULL : pick_keypath(NULL))
                                                                               : pick_keypath(NULL);
        int null_out = (u8() & 31) == 0;
        cad_anim a = 0;
        trace("cad_anim_create(%p, %d, \"%s\")\n", (void *)ep.e, kind, kp ? kp : "(null)");
        st = CALL(cad_anim_create, ep.e, kind, kp, null_out ? NULL : &a);
        if (st == CAD_OK && ep.s && !null_out) {
            if (ep.s->na < MAXA) ep.s->a[ep.s->na++] = a;
            else {
                /* Pool full: destroy the oldest description to make room. */
                cad_anim old = ep.s->a[b % MAXA];
                if (CALL(cad_anim_destroy, ep.e, old) != CAD_OK) FAIL("destroying a pooled animation failed");
                remember_stale(ep.s, old);
                ep.s->a[b % MAXA] = a;
            }
            trace("  = %llx\n", (unsigned long long)a);
        }
        return;
    }
    case OP_ANIM_DESTROY: {
        ep = pick_engine();
        cad_anim a = pick_anim(ep.s);
        trace("cad_anim_destroy(%p, %llx)\n", (void *)ep.e, (unsigned long long)a);
        st = CALL(cad_anim_destroy, ep.e, a);
        if (ep.s) {
            int known = known_anim(ep.s, a);
            if (known != (st == CAD_OK)) FAIL("cad_anim_destroy of a %s description gave %d", known ? "live" : "non-live", st);
            if (known) {
                for (int i = 0; i < ep.s->na; i++)
                    if (ep.s->a[i] == a) { ep.s->a[i] = ep.s->a[--ep.s->na]; break; }
                remember_stale(ep.s, a);
            }
        }
        return;
    }
    case OP_BEGIN_TIME: case OP_DURATION: case OP_SPEED: case OP_TIME_OFFSET: case OP_REPEAT_COUNT:
    case OP_REPEAT_DURATION: case OP_AUTOREVERSES: case OP_FILL_MODE: case OP_REMOVED_ON_COMPLETION:
    case OP_TIMING_FUNCTION: case OP_TIMING_BEZIER: case OP_TIMING_STEPS: case OP_FROM: case OP_TO: case OP_BY:
    case OP_ADDITIVE: case OP_CUMULATIVE: case OP_SPRING: case OP_SETTLING: case OP_SPRING_PERCEPTUAL:
    case OP_SPRING_UIKIT: case OP_VALUES: case OP_KEY_TIMES: case OP_SEGMENT_TIMING: case OP_CALC_MODE: case OP_TCB:
    case OP_MOVE_TO: case OP_LINE_TO: case OP_QUAD_TO: case OP_CUBIC_TO: case OP_CLOSE: case OP_ROTATION_MODE:
    case OP_TRANSITION: case OP_TRANSITION_PROGRESS: case OP_TAG: case OP_CALLBACK:
        op_anim_setter(op, pick_engine());
        return;
    case OP_GROUP_CHILDREN: {
        ep = pick_engine();
        cad_anim g = pick_anim(ep.s);
        int32_t count = pick_count();
        /* Known bug "group-fanout" (fuzz/regressions/group_fanout_blowup.c): group
         * trees grow exponentially; while it is open keep them small. */
        if (ignored("group-fanout")) {
            if (g_group_calls++ >= 6) return;
            if (count > 2) count = 2;
        }
        cad_anim *kids = NULL;
        if (count >= 0 && count <= HONEST_LIMIT && (u8() & 7)) {
            kids = malloc((size_t)(count > 0 ? count : 1) * sizeof(cad_anim));
            for (int32_t i = 0; i < count; i++) kids[i] = i < 8 ? pick_anim(ep.s) : kids[i % 8];
        }
        trace("cad_anim_group_set_children(%p, %llx, %p, %d)\n", (void *)ep.e, (unsigned long long)g, (void *)kids, count);
        st = CALL(cad_anim_group_set_children, ep.e, g, kids, count);
        free(kids);
        return;
    }
    case OP_ADD_ANIM: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        cad_anim a = pick_anim(ep.s);
        const char *k = pick_key();
        trace("cad_layer_add_animation(%p, %llx, %llx, \"%s\")\n", (void *)ep.e, (unsigned long long)l, (unsigned long long)a, k ? k : "(null)");
        st = CALL(cad_layer_add_animation, ep.e, l, a, k);
        if (ep.s && !find_layer(ep.s, l) && st == CAD_OK) FAIL("add_animation to a non-live layer succeeded");
        return;
    }
    case OP_REMOVE_ANIM: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        const char *k = pick_key();
        trace("cad_layer_remove_animation(%p, %llx, \"%s\")\n", (void *)ep.e, (unsigned long long)l, k ? k : "(null)");
        st = CALL(cad_layer_remove_animation, ep.e, l, k);
        return;
    }
    case OP_REMOVE_ALL: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        trace("cad_layer_remove_all_animations(%p, %llx)\n", (void *)ep.e, (unsigned long long)l);
        st = CALL(cad_layer_remove_all_animations, ep.e, l);
        if (st == CAD_OK) {
            int32_t n = -1;
            if (CALL(cad_layer_animation_count, ep.e, l, &n) != CAD_OK || n != 0) FAIL("animations remain after remove_all: %d", n);
        }
        return;
    }
    case OP_ANIM_COUNT: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int32_t n = -1;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_layer_animation_count, ep.e, l, null_out ? NULL : &n);
        if (st == CAD_OK && n < 0) FAIL("negative animation count");
        return;
    }
    case OP_KEY_AT: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        int32_t idx = pick_i32();
        uint8_t mode = u8();
        int32_t cap = mode < 160 ? 72 : pick_count();
        char *buf = NULL;
        if (cap > 0 && cap <= HONEST_LIMIT && (mode & 7)) buf = malloc((size_t)cap);
        int32_t len = -99;
        st = CALL(cad_layer_animation_key_at, ep.e, l, idx, buf, cap, (mode & 8) ? NULL : &len);
        if (st == CAD_OK) {
            if (!buf) FAIL("key_at succeeded without a buffer");
            if (len != -99 && (len < 0 || len >= cap || buf[len] != 0 || (int32_t)strlen(buf) != len)) FAIL("key_at length %d", len);
            if (strlen(buf) < 70) remember_key(buf);
        }
        if (st == CAD_ERR_BUFFER_TOO_SMALL && len != -99 && len <= cap) FAIL("key_at BUFFER_TOO_SMALL with needed %d <= cap %d", len, cap);
        free(buf);
        return;
    }
    case OP_FOR_KEY: {
        ep = pick_engine();
        cad_layer l = pick_layer(ep.s);
        const char *k = pick_key();
        cad_anim a = 0;
        int null_out = (u8() & 15) == 0;
        st = CALL(cad_layer_animation_for_key, ep.e, l, k, null_out ? NULL : &a);
        if (st == CAD_OK && ep.s && !null_out) {
            if (a == 0) FAIL("animation_for_key returned 0");
            ep.s->ro[ep.s->nro % MAXRO] = a;
            if (ep.s->nro < MAXRO) ep.s->nro++;
            else ep.s->nro = MAXRO;
        }
        return;
    }
    case OP_TX_BEGIN: {
        ep = pick_engine();
        trace("cad_transaction_begin(%p)\n", (void *)ep.e);
        st = CALL(cad_transaction_begin, ep.e);
        if (st == CAD_OK && ep.s) ep.s->tx_depth++;
        return;
    }
    case OP_TX_COMMIT: {
        ep = pick_engine();
        engine_slot *s = ep.s;
        trace("cad_transaction_commit(%p)\n", (void *)ep.e);
        st = CALL(cad_transaction_commit, ep.e);
        if (s && s->alive && st == CAD_OK && s->tx_depth > 0) s->tx_depth--;
        return;
    }
    case OP_TX_DURATION: { ep = pick_engine(); double d = pick_double(); trace("cad_transaction_set_duration(%p, %g)\n", (void *)ep.e, d); CALL(cad_transaction_set_duration, ep.e, d); return; }
    case OP_TX_TIMING_FUNCTION: { ep = pick_engine(); int32_t v = pick_i32(); trace("cad_transaction_set_timing_function(%p, %d)\n", (void *)ep.e, v); CALL(cad_transaction_set_timing_function, ep.e, v); return; }
    case OP_TX_TIMING_BEZIER: {
        ep = pick_engine();
        double a = pick_double(), b = pick_double(), c = pick_double(), d = pick_double();
        trace("cad_transaction_set_timing_bezier(%p, %g, %g, %g, %g)\n", (void *)ep.e, a, b, c, d);
        CALL(cad_transaction_set_timing_bezier, ep.e, a, b, c, d);
        return;
    }
    case OP_TX_DISABLE_ACTIONS: { ep = pick_engine(); int32_t v = pick_i32(); trace("cad_transaction_set_disable_actions(%p, %d)\n", (void *)ep.e, v); CALL(cad_transaction_set_disable_actions, ep.e, v); return; }
    case OP_TX_COMPLETION: {
        ep = pick_engine();
        uint8_t b = u8();
        void *ud = pick_userdata();
        trace("cad_transaction_set_completion(%p, %s, %p)\n", (void *)ep.e, (b & 3) ? "tx_cb" : "NULL", ud);
        CALL(cad_transaction_set_completion, ep.e, (b & 3) ? tx_cb : NULL, ud);
        return;
    }
    case OP_TX_ID: {
        ep = pick_engine();
        int64_t id = -5;
        int null_out = (u8() & 7) == 0;
        st = CALL(cad_transaction_id, ep.e, null_out ? NULL : &id);
        if (st == CAD_OK && id < 0) FAIL("negative transaction id");
        return;
    }
    case OP_TX_DELAY: { ep = pick_engine(); double d = pick_double(); trace("cad_transaction_set_delay(%p, %g)\n", (void *)ep.e, d); CALL(cad_transaction_set_delay, ep.e, d); return; }
    case OP_TX_REPEAT_COUNT: { ep = pick_engine(); double d = pick_double(); trace("cad_transaction_set_repeat_count(%p, %g)\n", (void *)ep.e, d); CALL(cad_transaction_set_repeat_count, ep.e, d); return; }
    case OP_TX_AUTOREVERSES: { ep = pick_engine(); int32_t v = pick_i32(); trace("cad_transaction_set_autoreverses(%p, %d)\n", (void *)ep.e, v); CALL(cad_transaction_set_autoreverses, ep.e, v); return; }
    case OP_TX_SPRING: {
        ep = pick_engine();
        double r = pick_double(), v = pick_double();
        trace("cad_transaction_set_spring(%p, %g, %g)\n", (void *)ep.e, r, v);
        CALL(cad_transaction_set_spring, ep.e, r, v);
        return;
    }
    case OP_TX_BEGIN_KEYFRAME: {
        ep = pick_engine();
        double a = pick_double(), b = pick_double();
        trace("cad_transaction_begin_keyframe(%p, %g, %g)\n", (void *)ep.e, a, b);
        st = CALL(cad_transaction_begin_keyframe, ep.e, a, b);
        if (st == CAD_OK && ep.s) ep.s->tx_depth++;
        return;
    }
    case OP_RENDER_LIST: {
        ep = pick_engine();
        cad_layer root = pick_layer(ep.s);
        uint8_t mode = u8();
        int32_t cap;
        if (mode < 128) cap = ep.s ? ep.s->nl * 3 + 4 : 8;
        else if (mode < 192) cap = (int32_t)(mode % 4);
        else cap = pick_count();
        cad_render_item *out = NULL;
        if (cap > 0 && cap <= 4096 && (mode & 7)) out = malloc((size_t)cap * sizeof *out);
        int32_t n = -99;
        trace("cad_engine_render_list(%p, %llx, %p, %d)\n", (void *)ep.e, (unsigned long long)root, (void *)out, cap);
        st = CALL(cad_engine_render_list, ep.e, root, out, cap, (mode & 8) && mode >= 128 ? NULL : &n);
        if (st == CAD_OK && n != -99) {
            if (n < 0 || n > cap) FAIL("render list n = %d cap = %d", n, cap);
            if (n > 0 && out) {
                check_render_list(out, n);
                if (out[0].layer != root) FAIL("render list item 0 is not the root");
            }
        }
        if (st == CAD_ERR_BUFFER_TOO_SMALL && n != -99 && n <= cap) FAIL("render list BUFFER_TOO_SMALL with needed %d <= cap %d", n, cap);
        free(out);
        return;
    }
    case OP_SET_MANY: {
        /* Batch set: mostly an honest count (layers x components), sometimes
         * any count; values from make_value's mix (hostile ones included). A
         * failed call must leave every layer's model value as it was. */
        ep = pick_engine();
        int32_t nl = pick_count();
        if (nl > 64 && (u8() & 3)) nl = nl % 65;
        cad_layer *ls = pick_layer_array(ep.s, nl);
        int comps;
        const char *kp = pick_keypath(&comps);
        uint8_t mode = u8();
        int64_t want = (int64_t)(nl > 0 ? nl : 0) * comps;
        int32_t nv = mode < 200 ? (int32_t)(want < HONEST_LIMIT ? want : HONEST_LIMIT) : pick_count();
        double *v = NULL;
        if (nv > 0 && nv <= HONEST_LIMIT && (mode & 7)) {
            v = malloc((size_t)nv * sizeof(double));
            if (!v) abort();
            int32_t row;
            double *r = make_value(comps, &row);
            for (int32_t i = 0; i < nv; i++) v[i] = (r && row > 0) ? r[i % row] + (double)(i / (row > 0 ? row : 1)) : pick_finite();
            if ((mode & 0x30) == 0x30 && nv > 1) v[nv - 1] = pick_double();
            free(r);
        }
        /* Model values of the first layer, to check that a failure changes nothing. */
        double before[16];
        int32_t bn = -1;
        int k = kp ? cad_kp_find(kp) : -1;
        int checkable = ls && nl > 0 && k >= 0 && cad_kps[k].plain
            && cad_layer_get(ep.e, ls[0], kp, before, 16, &bn) == CAD_OK;
        trace("cad_engine_set(%p, %p, %d, \"%s\", %p, %d)\n", (void *)ep.e, (void *)ls, nl, kp ? kp : "(null)", (void *)v, nv);
        st = CALL(cad_engine_set, ep.e, ls, nl, kp, v, nv);
        /* Arguments the up-front checks must refuse, whatever the message says. */
        int refused = nl < 0 || nv != want || (nv > 0 && !v) || (nl > 0 && !ls);
        for (int32_t i = 0; !refused && i < nl; i++) refused = !ep.s || !find_layer(ep.s, ls[i]);
        for (int32_t i = 0; !refused && v && i < nv && checkable; i++) refused = !isfinite(v[i]);
        if (checkable && refused && st == CAD_OK) FAIL("cad_engine_set accepted a stale handle, a bad count or a non-finite value");
        if (checkable && st != CAD_OK && (refused || !strstr(cad_last_error(), "] were set)"))) { /* not a failure part-way */
            double after[16];
            int32_t an = -1;
            if (cad_layer_get(ep.e, ls[0], kp, after, 16, &an) == CAD_OK && (an != bn || memcmp(after, before, sizeof(double) * (size_t)bn) != 0))
                FAIL("cad_engine_set failed (%s) but changed layers[0]'s \"%s\"", cad_status_name(st), kp);
        }
        if (st == CAD_OK && checkable && cad_kps[k].plain == 1) {
            /* The last row given for layers[0] is what it reads back. */
            int32_t last = 0;
            for (int32_t i = 0; i < nl; i++) if (ls[i] == ls[0]) last = i;
            double back[16];
            int32_t an = -1;
            if (cad_layer_get(ep.e, ls[0], kp, back, 16, &an) != CAD_OK) FAIL("get after batch set failed: %s", cad_last_error());
            for (int32_t i = 0; i < an && i < comps; i++) {
                double w = v[(size_t)last * (size_t)comps + (size_t)i];
                if (!(memcmp(&back[i], &w, sizeof(double)) == 0 || (back[i] == 0 && w == 0)))
                    FAIL("batch set of \"%s\": layers[0] reads %.17g, its last row set %.17g", kp, back[i], w);
            }
        }
        free(ls);
        free(v);
        return;
    }
    case OP_SAMPLE: {
        ep = pick_engine();
        int32_t nl = pick_count();
        cad_layer *ls = pick_layer_array(ep.s, nl);
        int comps;
        const char *kp = pick_keypath(&comps);
        uint8_t mode = u8();
        int64_t want = (int64_t)(nl > 0 ? nl : 0) * comps;
        int32_t cap = mode < 160 ? (int32_t)(want < HONEST_LIMIT ? want : HONEST_LIMIT) : pick_count();
        double *out = NULL;
        if (cap > 0 && cap <= HONEST_LIMIT && (mode & 7)) out = malloc((size_t)cap * sizeof(double));
        int32_t n = -99;
        trace("cad_engine_sample(%p, %p, %d, \"%s\", %p, %d)\n", (void *)ep.e, (void *)ls, nl, kp ? kp : "(null)", (void *)out, cap);
        st = CALL(cad_engine_sample, ep.e, ls, nl, kp, out, cap, (mode & 8) ? NULL : &n);
        if (st == CAD_OK && n != -99) {
            if (n < 0 || n > cap) FAIL("sample n = %d cap = %d", n, cap);
            if (out) check_finite(out, n, "sample", kp);
        }
        free(ls);
        free(out);
        return;
    }
    case OP_LIBRARY: {
        uint8_t b = u8();
        const char *v = cad_version_string();
        if (!v || strcmp(v, CAD_VERSION_STRING) != 0) FAIL("cad_version_string");
        if (cad_abi_version() != CAD_ABI_VERSION) FAIL("cad_abi_version");
        if (!CAD_CHECK_LAYOUT()) FAIL("CAD_CHECK_LAYOUT");
        if (cad_sizeof_render_item() != sizeof(cad_render_item) || cad_sizeof_event() != sizeof(cad_event)) FAIL("sizes");
        const char *m = cad_last_error();
        if (!m || strnlen(m, 600) >= 512) FAIL("cad_last_error");
        int32_t s = (b & 1) ? pick_i32() : (int32_t)(b % 12) - 9;
        const char *nm = cad_status_name(s);
        if (!nm) FAIL("cad_status_name(%d) is NULL", s);
        if (s <= 0 && s >= -8 && strcmp(nm, "CAD_ERR_UNKNOWN") == 0) FAIL("cad_status_name(%d) unknown", s);
        double t0 = cad_media_time(), t1 = cad_media_time();
        if (!(t1 >= t0) || !isfinite(t0)) FAIL("cad_media_time is not monotonic");
        return;
    }
    case OP_TIMING_EVAL_BATCH: {
        double c1x = pick_double(), c1y = pick_double(), c2x = pick_double(), c2y = pick_double();
        int32_t n = pick_count();
        double *x = make_doubles(n, 1);
        double *y = NULL;
        if (n >= 0 && n <= HONEST_LIMIT && (u8() & 7)) y = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
        trace("cad_timing_eval_batch(%g, %g, %g, %g, x, y, %d)\n", c1x, c1y, c2x, c2y, n);
        st = CALL(cad_timing_eval_batch, c1x, c1y, c2x, c2y, x, y, n);
        /* (control y beyond 1e307: known bug, fuzz/regressions/timing_eval_huge_y.c) */
        if (st == CAD_OK && y && x && g_strict_numeric && fabs(c1y) < 1e307 && fabs(c2y) < 1e307) {
            for (int32_t i = 0; i < n; i++)
                if (isfinite(x[i]) && numeric_bad(y[i])) FAIL("timing_eval_batch(%g) = %g", x[i], y[i]);
        }
        free(x);
        free(y);
        return;
    }
    case OP_MACRO_ANIMATE: {
        /* A well-formed animation on a live layer: reaches deep engine states fast. */
        ep = pick_engine();
        if (!ep.s || ep.s->nl == 0) return;
        cad_layer l = ep.s->l[u8() % ep.s->nl].h;
        uint8_t b = u8();
        int kind = b % 5;
        int comps;
        const cad_kp *k = &cad_kps[u8() % cad_kp_count];
        comps = k->components;
        cad_anim a = 0;
        trace("macro animate kind %d \"%s\" on %llx\n", kind, k->name, (unsigned long long)l);
        if (CALL(cad_anim_create, ep.e, kind, (kind >= 3) ? NULL : k->name, &a) != CAD_OK) return;
        double v[32];
        for (int i = 0; i < 32; i++) v[i] = pick_finite();
        if (comps == 16) for (int i = 0; i < 16; i++) v[i] = (i % 5 == 0) ? 1 + v[i] * 0.01 : v[i] * 0.01;
        if (kind == CAD_ANIM_BASIC || kind == CAD_ANIM_SPRING) {
            CALL(cad_anim_set_to, ep.e, a, v, comps);
            if (b & 8) CALL(cad_anim_set_from, ep.e, a, v + 16, comps);
            if (kind == CAD_ANIM_SPRING && (b & 16)) CALL(cad_anim_set_spring, ep.e, a, 1, 100 + v[0] * v[0], 10, v[1]);
        } else if (kind == CAD_ANIM_KEYFRAME) {
            int count = 2 + u8() % 4;
            double *vals = malloc((size_t)(count * comps) * sizeof(double));
            for (int i = 0; i < count * comps; i++) vals[i] = comps == 16 ? ((i % 16) % 5 == 0 ? 1 : 0) : pick_finite();
            CALL(cad_anim_set_values, ep.e, a, vals, count, comps);
            free(vals);
            CALL(cad_anim_set_calculation_mode, ep.e, a, u8() % 5);
            if (b & 8) { CALL(cad_anim_path_move_to, ep.e, a, v[0], v[1]); CALL(cad_anim_path_cubic_to, ep.e, a, v[2], v[3], v[4], v[5], v[6], v[7]); }
        } else if (kind == CAD_ANIM_GROUP) {
            cad_anim kids[2] = {pick_anim(ep.s), pick_anim(ep.s)};
            if (!ignored("group-fanout") || g_group_calls++ < 6) CALL(cad_anim_group_set_children, ep.e, a, kids, 2);
        } else {
            CALL(cad_anim_set_transition, ep.e, a, u8() % 6, u8() % 4);
        }
        CALL(cad_anim_set_duration, ep.e, a, (double)(1 + u8() % 8) * 0.125);
        if (b & 32) CALL(cad_anim_set_callback, ep.e, a, anim_cb, &g_tokens[b & 3]);
        if (b & 64) CALL(cad_anim_set_fill_mode, ep.e, a, u8() % 4);
        if (b & 128) CALL(cad_anim_set_repeat_count, ep.e, a, (double)(u8() % 4) + 0.5);
        CALL(cad_layer_add_animation, ep.e, l, a, (b & 4) ? NULL : pick_key());
        CALL(cad_anim_destroy, ep.e, a);
        return;
    }
    case OP_MACRO_TREE: {
        ep = pick_engine();
        if (!ep.s) return;
        int n = 1 + u8() % 6;
        for (int i = 0; i < n && ep.s->nl < MAXL; i++) {
            cad_layer l = 0;
            if (CALL(cad_layer_create, ep.e, &l) != CAD_OK) FAIL("layer create in macro");
            shadow_layer *x = &ep.s->l[ep.s->nl++];
            x->h = l; x->parent = 0; x->nk = 0;
            if (ep.s->nl > 1) {
                shadow_layer *p = &ep.s->l[u8() % (ep.s->nl - 1)];
                if (CALL(cad_layer_add_sublayer, ep.e, p->h, l) != CAD_OK) FAIL("add_sublayer in macro: %s", cad_last_error());
                p = find_layer(ep.s, p->h);
                x = find_layer(ep.s, l);
                p->kids[p->nk++] = l;
                x->parent = p->h;
            }
            double bounds[4] = {0, 0, 10 + u8(), 10 + u8()}, pos[2] = {u8(), u8()};
            CALL(cad_layer_set, ep.e, l, "bounds", bounds, 4);
            CALL(cad_layer_set, ep.e, l, "position", pos, 2);
        }
        return;
    }
    case OP_MACRO_FRAME: {
        ep = pick_engine();
        if (!ep.s) return;
        engine_slot *s = ep.s;
        double t = pick_tick(s);
        trace("macro frame tick %.17g\n", t);
        CALL(cad_engine_tick, ep.e, t);
        if (!s->alive) return; /* a callback destroyed it */
        cad_render_item items[4 * MAXL + 8];
        for (int i = 0; i < s->nl && s->alive; i++) {
            if (s->l[i].parent) continue;
            int32_t n = 0;
            st = CALL(cad_engine_render_list, s->e, s->l[i].h, items, 4 * MAXL + 8, &n);
            if (st == CAD_OK) check_render_list(items, n);
        }
        cad_event ev;
        int guard = 0;
        while (s->alive && guard++ < 64 && CALL(cad_engine_poll_event, s->e, &ev) == CAD_OK) {}
        return;
    }
    case OP_VERIFY:
        for (int i = 0; i < MAXE; i++) verify_engine(&g_eng[i]);
        return;
    case OP_CHECKED: {
        /* Run one operation; if it fails, the engine's state must not change. */
        ep = pick_engine();
        if (!ep.s || g_depth > 0) return;
        engine_slot *s = ep.s;
        int inner = u8() % OP_SLOTS;
        if (inner >= OP_COUNT) return;
        if (inner == OP_CHECKED || inner == OP_ENGINE_DESTROY || inner == OP_TICK || inner == OP_MACRO_FRAME ||
            inner == OP_TX_COMMIT || inner == OP_POLL || inner == OP_MACRO_ANIMATE || inner == OP_MACRO_TREE)
            return;
        uint64_t before = fingerprint(s);
        int32_t nl = s->nl;
        /* The inner op decodes its own engine pick; the check holds for any engine. */
        g_depth++;   /* no reentrancy: callbacks only run from tick/commit, excluded above */
        g_checked_status = CAD_OK;
        g_checked_first = 1;
        do_op(inner);
        g_checked_first = 0;
        g_depth--;
        if (s->alive && g_checked_status != CAD_OK && s->nl == nl) {
            uint64_t after = fingerprint(s);
            if (after != before) FAIL("a failing %s (%s) changed the engine's state", op_names[inner], cad_status_name(g_checked_status));
        }
        return;
    }
    default:
        return;
    }
}

static void run_ops(int n) {
    for (int i = 0; i < n && g_size > 0 && g_ops < MAX_OPS; i++) {
        int op = u8() % OP_SLOTS;
        if (op < OP_COUNT) do_op(op);
    }
}

static void reset(void) {
    memset(g_eng, 0, sizeof g_eng);
    g_engines_created = 0;
    g_depth = 0;
    g_callback_ops = 0;
    g_ops = 0;
    g_group_calls = 0;
    g_nkeys = 0;
    g_checked_first = 0;
}

static void teardown(void) {
    for (int i = 0; i < MAXE; i++) verify_engine(&g_eng[i]);
    for (int i = 0; i < MAXE; i++) {
        engine_slot *s = &g_eng[i];
        if (!s->alive) continue;
        /* Drain what is queued: bounded by the capacity (at most 1 << 24). */
        cad_event ev;
        int guard = 0;
        while (guard++ < 100000 && cad_engine_poll_event(s->e, &ev) == CAD_OK) {}
        s->alive = 0;
        cad_engine_destroy(s->e);
        s->e = NULL;
    }
}

static void print_stats(void) {
    fprintf(stderr, "cadence_fuzz: %llu inputs, %llu API calls (%.1f per input)\n", g_inputs, g_api_calls,
            g_inputs ? (double)g_api_calls / (double)g_inputs : 0.0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *stats = getenv("CADENCE_FUZZ_STATS");
    if (stats && *stats == '1') atexit(print_stats);
    cad_kp_init();
    const char *t = getenv("CADENCE_FUZZ_TRACE");
    g_trace = t && *t && *t != '0';
    const char *sn = getenv("CADENCE_FUZZ_STRICT_NUMERIC");
    g_strict_numeric = (sn && *sn) ? atoi(sn) : 0;
    const char *ig = getenv("CADENCE_FUZZ_IGNORE");
    if (ig) g_ignore = ig;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    g_data = data;
    g_size = size;
    g_inputs++;
    reset();
    /* Two engines to start with, so foreign handles exist. */
    do_op(OP_ENGINE_CREATE);
    do_op(OP_ENGINE_CREATE);
    run_ops(MAX_OPS);
    teardown();
    return 0;
}
