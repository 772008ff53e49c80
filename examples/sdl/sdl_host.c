/*
 * sdl_host.c - a real render loop for Cadence, drawn with SDL2.
 *
 * Cadence computes, SDL draws. Each frame the host ticks the engine with the
 * clock, reads the render list (one item per visible layer: bounds, world
 * matrix, opacity, colours, flags) and draws every item as a quad: the four
 * corners of its bounds, as row vectors [x y 0 1] times the world matrix
 * (SEMANTICS.md §2.2), divided by w, in window pixels (y grows downward in
 * both Cadence and SDL), filled with SDL_RenderGeometry.
 *
 * The scene:
 *   - a door swinging open and shut with perspective (the root layer's
 *     sublayerTransform.m34 = -1/500; the door's anchorPoint is (0, 0.5), its
 *     hinge, and a basic animation of transform.rotation.y goes 0 -> -pi/3,
 *     autoreversing, for ever); the door masks to its bounds and holds a
 *     diagonal inlay longer than itself, and a doorknob;
 *   - a spaceship flying a loop of two cubic Béziers (a keyframe animation of
 *     position with a path, rotation mode auto, so it turns along the path);
 *   - a colour swatch whose backgroundColor the host sets every second outside
 *     any transaction: the default action animates it (0.25 s, default curve);
 *   - a card (masksToBounds) whose content changes every two seconds under a
 *     push transition: the render list then holds a clip container with the
 *     outgoing and incoming pictures, clipped to the card;
 *   - a translucent "glass" bar (opacity 0.45) over the swatch.
 *
 *   ./sdl_host                       run until the window is closed (Esc quits,
 *                                    Space pauses/resumes the whole scene)
 *   ./sdl_host --frames N            exit after N frames
 *   ./sdl_host --time T [--frames K] deterministic: tick at fixed times
 *                                    0, T/K, 2T/K, ..., T (K defaults to 60)
 *   ./sdl_host --screenshot out.bmp  save the last frame (SDL_RenderReadPixels)
 *   ./sdl_host --dump out.txt        write the last frame's render list
 *
 * Clipping: an item with CAD_ITEM_MASKS_TO_BOUNDS (a masking layer, or the
 * clip container of a running transition) clips its descendants to its
 * projected quad. When that region is an axis-aligned rectangle the host uses
 * SDL_RenderSetClipRect; otherwise (a rotated or perspective mask, like the
 * door's) it clips the child polygons in software against the convex region.
 * Quads are also clipped against the eye plane (w > 0) before the divide, and
 * a back-facing layer that is not doubleSided is skipped. A border is drawn
 * inside the bounds and above the layer's sublayers, as in Core Animation.
 * Not drawn: corner radius, shadows, contents (this scene has none).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "cadence.h"

/* Fail loudly on any error, with the library's message. */
#define CHECK(call)                                                                  \
  do {                                                                               \
    cad_status s_ = (call);                                                          \
    if (s_ != CAD_OK) {                                                              \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call,       \
              cad_status_name(s_), cad_last_error());                                \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

#define PI_D 3.14159265358979323846

/* Deliberately wrong drawing, compiled only for the screenshot test's own
 * check (make test-mutants): 1 = transposed matrix, 2 = no perspective divide,
 * 3 = masks-to-bounds ignored, 4 = only axis-aligned masks honoured. The test
 * must fail on each of them. */
#ifndef CADENCE_SDL_MUTANT
#define CADENCE_SDL_MUTANT 0
#endif

enum { WIN_W = 800, WIN_H = 600 };
static const Uint8 CLEAR_RGB[3] = {24, 26, 34};

/* ------------------------------------------------------------------------ */
/* Geometry: projection, polygons, clipping                                  */
/* ------------------------------------------------------------------------ */

#define MAX_VERTS 40

typedef struct {
  int n;
  float x[MAX_VERTS], y[MAX_VERTS];
} poly2;

typedef struct {
  float x, y, w;
} hpoint;

/* [x y 0 1] * M for the row-major m11..m44 layout of the render item. */
static hpoint transform_point(const float *m, float x, float y) {
  hpoint p;
#if CADENCE_SDL_MUTANT == 1
  /* wrong on purpose: M transposed (column vectors) */
  p.x = x * m[0] + y * m[1] + m[3];
  p.y = x * m[4] + y * m[5] + m[7];
  p.w = x * m[12] + y * m[13] + m[15];
#else
  p.x = x * m[0] + y * m[4] + m[12];
  p.y = x * m[1] + y * m[5] + m[13];
  p.w = x * m[3] + y * m[7] + m[15];
#endif
  return p;
}

#define W_NEAR 1e-4f

/*
 * Projects the layer-space rectangle (x, y, w, h) through `m` into window
 * pixels: the corners in order (x,y), (x+w,y), (x+w,y+h), (x,y+h) (a polygon,
 * not the zig-zag order of a triangle strip), clipped against the eye plane
 * w = W_NEAR in homogeneous space, then divided by w.
 */
static void project_rect(const float *m, float x, float y, float w, float h, poly2 *out) {
  hpoint in[4], clipped[8];
  int i, n = 0;
  in[0] = transform_point(m, x, y);
  in[1] = transform_point(m, x + w, y);
  in[2] = transform_point(m, x + w, y + h);
  in[3] = transform_point(m, x, y + h);
  for (i = 0; i < 4; i++) {
    hpoint a = in[i], b = in[(i + 1) % 4];
    int a_in = a.w > W_NEAR, b_in = b.w > W_NEAR;
    if (a_in) clipped[n++] = a;
    if (a_in != b_in) {
      float t = (W_NEAR - a.w) / (b.w - a.w);
      hpoint c;
      c.x = a.x + (b.x - a.x) * t;
      c.y = a.y + (b.y - a.y) * t;
      c.w = W_NEAR;
      clipped[n++] = c;
    }
  }
  out->n = n;
  for (i = 0; i < n; i++) {
#if CADENCE_SDL_MUTANT == 2
    /* wrong on purpose: the perspective divide skipped */
    out->x[i] = clipped[i].x;
    out->y[i] = clipped[i].y;
#else
    out->x[i] = clipped[i].x / clipped[i].w;
    out->y[i] = clipped[i].y / clipped[i].w;
#endif
  }
}

/* Twice the signed area (> 0: the layer's front face, with y downward). */
static float poly_area2(const poly2 *p) {
  float a = 0;
  int i;
  for (i = 0; i < p->n; i++) {
    int j = (i + 1) % p->n;
    a += p->x[i] * p->y[j] - p->x[j] * p->y[i];
  }
  return a;
}

/* Sutherland-Hodgman: `subject` clipped by the convex polygon `clip`. */
static void clip_convex(const poly2 *subject, const poly2 *clip, poly2 *out) {
  poly2 a, b;
  float orient = poly_area2(clip) >= 0 ? 1.0f : -1.0f;
  int e, i;
  a = *subject;
  for (e = 0; e < clip->n && a.n > 0; e++) {
    float ex0 = clip->x[e], ey0 = clip->y[e];
    float ex1 = clip->x[(e + 1) % clip->n], ey1 = clip->y[(e + 1) % clip->n];
    b.n = 0;
    for (i = 0; i < a.n; i++) {
      int j = (i + 1) % a.n;
      float si = orient * ((ex1 - ex0) * (a.y[i] - ey0) - (ey1 - ey0) * (a.x[i] - ex0));
      float sj = orient * ((ex1 - ex0) * (a.y[j] - ey0) - (ey1 - ey0) * (a.x[j] - ex0));
      if (si >= 0 && b.n < MAX_VERTS) {
        b.x[b.n] = a.x[i];
        b.y[b.n] = a.y[i];
        b.n++;
      }
      if ((si >= 0) != (sj >= 0) && b.n < MAX_VERTS) {
        float t = si / (si - sj);
        b.x[b.n] = a.x[i] + (a.x[j] - a.x[i]) * t;
        b.y[b.n] = a.y[i] + (a.y[j] - a.y[i]) * t;
        b.n++;
      }
    }
    a = b;
  }
  *out = a;
}

/* A clip region: none (draw everything) or a convex polygon (n = 0: empty). */
typedef struct {
  int active;
  poly2 p;
} region;

/* When the region is an axis-aligned rectangle: the pixels whose centres lie in it. */
static int region_as_rect(const region *r, SDL_Rect *rect) {
  float minx, maxx, miny, maxy;
  int i, x0, x1, y0, y1;
  if (r->p.n != 4) return 0;
  for (i = 0; i < 4; i++) {
    int j = (i + 1) % 4;
    float dx = fabsf(r->p.x[j] - r->p.x[i]), dy = fabsf(r->p.y[j] - r->p.y[i]);
    if (dx > 1e-3f && dy > 1e-3f) return 0;
  }
  minx = maxx = r->p.x[0];
  miny = maxy = r->p.y[0];
  for (i = 1; i < 4; i++) {
    if (r->p.x[i] < minx) minx = r->p.x[i];
    if (r->p.x[i] > maxx) maxx = r->p.x[i];
    if (r->p.y[i] < miny) miny = r->p.y[i];
    if (r->p.y[i] > maxy) maxy = r->p.y[i];
  }
  x0 = (int)ceilf(minx - 0.5f);
  x1 = (int)ceilf(maxx - 0.5f);
  y0 = (int)ceilf(miny - 0.5f);
  y1 = (int)ceilf(maxy - 0.5f);
  rect->x = x0;
  rect->y = y0;
  rect->w = x1 > x0 ? x1 - x0 : 0;
  rect->h = y1 > y0 ? y1 - y0 : 0;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Drawing the render list                                                   */
/* ------------------------------------------------------------------------ */

static Uint8 to_byte(float v) {
  if (!(v > 0)) return 0;
  if (v >= 1) return 255;
  return (Uint8)(v * 255.0f + 0.5f);
}

/* Fills a convex polygon with one colour (a triangle fan). */
static void fill_poly(SDL_Renderer *r, const poly2 *p, SDL_Color c) {
  SDL_Vertex v[MAX_VERTS];
  int idx[3 * MAX_VERTS];
  int i, ni = 0;
  if (p->n < 3 || c.a == 0) return;
  for (i = 0; i < p->n; i++) {
    v[i].position.x = p->x[i];
    v[i].position.y = p->y[i];
    v[i].color = c;
    v[i].tex_coord.x = 0;
    v[i].tex_coord.y = 0;
  }
  for (i = 1; i + 1 < p->n; i++) {
    idx[ni++] = 0;
    idx[ni++] = i;
    idx[ni++] = i + 1;
  }
  SDL_RenderGeometry(r, NULL, v, p->n, idx, ni);
}

/* Draws one layer-space rectangle of an item, clipped by `clip` when it is not a rect. */
static void fill_layer_rect(SDL_Renderer *r, const cad_render_item *it, float x, float y,
                            float w, float h, SDL_Color c, const region *soft_clip) {
  poly2 p, q;
  if (w <= 0 || h <= 0 || c.a == 0) return;
  project_rect(it->world, x, y, w, h, &p);
  if (soft_clip) {
    clip_convex(&p, &soft_clip->p, &q);
    fill_poly(r, &q, c);
  } else {
    fill_poly(r, &p, c);
  }
}

typedef struct {
  cad_render_item *items;
  region *child_clip; /* per item: the region its sublayers are clipped to */
  int32_t *last;      /* per item: index of the last item of its subtree */
  int32_t *stack;     /* items whose border waits for their sublayers */
  int32_t cap;
  int32_t n;
} frame_list;

static SDL_Color item_colour(const float *rgba, float opacity) {
  SDL_Color c;
  c.r = to_byte(rgba[0]);
  c.g = to_byte(rgba[1]);
  c.b = to_byte(rgba[2]);
  c.a = to_byte(rgba[3] * opacity);
  return c;
}

/*
 * Sets up the clip for drawing item `it` under `clip` (the region of its
 * parent). Returns 0 when there is nothing to draw; *soft is the region to
 * clip polygons against in software when it is not an axis-aligned rectangle.
 */
static int begin_item(SDL_Renderer *r, const cad_render_item *it, const region *clip,
                      const region **soft) {
  const float *b = it->bounds;
  SDL_Rect rect;
  poly2 quad;
  *soft = NULL;
  /* the clip container of a transition draws nothing itself */
  if (it->flags & CAD_ITEM_TRANSITION_CLIP) return 0;
  if (b[2] <= 0 || b[3] <= 0) return 0;
  project_rect(it->world, b[0], b[1], b[2], b[3], &quad);
  if (quad.n < 3) return 0; /* behind the eye */
  if (!(it->flags & CAD_ITEM_DOUBLE_SIDED) && poly_area2(&quad) < 0) return 0; /* back face */
  if (clip && clip->active) {
    if (clip->p.n < 3) return 0; /* clipped away entirely */
    if (region_as_rect(clip, &rect)) {
      if (rect.w <= 0 || rect.h <= 0) return 0;
      SDL_RenderSetClipRect(r, &rect);
      return 1;
    }
#if CADENCE_SDL_MUTANT != 4
    *soft = clip;
#endif
  }
  SDL_RenderSetClipRect(r, NULL);
  return 1;
}

/* The background: the bounds filled with backgroundColor x world_opacity. */
static void draw_background(SDL_Renderer *r, const cad_render_item *it, const region *clip) {
  const float *b = it->bounds;
  const region *soft;
  SDL_Color fill = item_colour(it->background_color, it->world_opacity);
  if (fill.a == 0 || !begin_item(r, it, clip, &soft)) return;
  fill_layer_rect(r, it, b[0], b[1], b[2], b[3], fill, soft);
}

/* The border: inside the bounds, composited above the layer's sublayers
   (as Core Animation documents for borderWidth). */
static void draw_border(SDL_Renderer *r, const cad_render_item *it, const region *clip) {
  const float *b = it->bounds;
  float bw = it->border_width;
  const region *soft;
  SDL_Color c = item_colour(it->border_color, it->world_opacity);
  if (!(bw > 0) || c.a == 0 || !begin_item(r, it, clip, &soft)) return;
  if (2 * bw >= b[2] || 2 * bw >= b[3]) {
    fill_layer_rect(r, it, b[0], b[1], b[2], b[3], c, soft);
    return;
  }
  fill_layer_rect(r, it, b[0], b[1], b[2], bw, c, soft);                          /* top */
  fill_layer_rect(r, it, b[0], b[1] + b[3] - bw, b[2], bw, c, soft);              /* bottom */
  fill_layer_rect(r, it, b[0], b[1] + bw, bw, b[3] - 2 * bw, c, soft);            /* left */
  fill_layer_rect(r, it, b[0] + b[2] - bw, b[1] + bw, bw, b[3] - 2 * bw, c, soft); /* right */
}

/* The clip regions and subtree ends of the whole list (items come parents first). */
static void prepare_list(frame_list *fl) {
  int32_t i;
  for (i = 0; i < fl->n; i++) {
    const cad_render_item *it = &fl->items[i];
    region inherited, *out = &fl->child_clip[i];
    if (it->parent >= 0 && it->parent < i) inherited = fl->child_clip[it->parent];
    else inherited.active = 0;
    *out = inherited;
    fl->last[i] = i;
#if CADENCE_SDL_MUTANT != 3
    if (it->flags & CAD_ITEM_MASKS_TO_BOUNDS) {
      poly2 quad;
      project_rect(it->world, it->bounds[0], it->bounds[1], it->bounds[2], it->bounds[3], &quad);
      out->active = 1;
      if (quad.n < 3 || fabsf(poly_area2(&quad)) < 1e-6f) {
        out->p.n = 0; /* a degenerate mask shows nothing */
      } else if (inherited.active) {
        clip_convex(&inherited.p, &quad, &out->p);
      } else {
        out->p = quad;
      }
    }
#endif
  }
  /* depth-first order: a subtree is a contiguous run of the list */
  for (i = fl->n - 1; i > 0; i--) {
    int32_t p = fl->items[i].parent;
    if (p >= 0 && p < i && fl->last[i] > fl->last[p]) fl->last[p] = fl->last[i];
  }
}

static const region *parent_clip(const frame_list *fl, int32_t i) {
  int32_t p = fl->items[i].parent;
  return (p >= 0 && p < i) ? &fl->child_clip[p] : NULL;
}

static void draw_frame(SDL_Renderer *r, frame_list *fl) {
  int32_t i, top = 0;
  SDL_RenderSetClipRect(r, NULL);
  SDL_SetRenderDrawColor(r, CLEAR_RGB[0], CLEAR_RGB[1], CLEAR_RGB[2], 255);
  SDL_RenderClear(r);
  SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
  prepare_list(fl);
  for (i = 0; i < fl->n; i++) {
    draw_background(r, &fl->items[i], parent_clip(fl, i));
    fl->stack[top++] = i;
    /* borders of the subtrees that end here, innermost first */
    while (top > 0 && fl->last[fl->stack[top - 1]] <= i) {
      int32_t k = fl->stack[--top];
      draw_border(r, &fl->items[k], parent_clip(fl, k));
    }
  }
  SDL_RenderSetClipRect(r, NULL);
}

/* Reads the render list, growing the buffers when the engine asks for more. */
static void read_render_list(cad_engine *e, cad_layer root, frame_list *fl) {
  int32_t need = 0;
  cad_status s = cad_engine_render_list(e, root, fl->items, fl->cap, &need);
  if (s == CAD_ERR_BUFFER_TOO_SMALL) {
    int32_t cap = need + need / 2 + 8;
    cad_render_item *items = (cad_render_item *)realloc(fl->items, (size_t)cap * sizeof *items);
    region *clips = (region *)realloc(fl->child_clip, (size_t)cap * sizeof *clips);
    int32_t *last = (int32_t *)realloc(fl->last, (size_t)cap * sizeof *last);
    int32_t *stack = (int32_t *)realloc(fl->stack, (size_t)cap * sizeof *stack);
    if (items) fl->items = items;
    if (clips) fl->child_clip = clips;
    if (last) fl->last = last;
    if (stack) fl->stack = stack;
    if (!items || !clips || !last || !stack) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    fl->cap = cap;
    s = cad_engine_render_list(e, root, fl->items, fl->cap, &need);
  }
  CHECK(s);
  fl->n = need;
}

/* ------------------------------------------------------------------------ */
/* The scene                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
  cad_engine *e;
  cad_layer root, doorway, door, stripe, knob, ship, wings, cockpit, swatch, glass, card, badge;
  double start;           /* engine time of the first tick */
  double last_tick;       /* engine time of the latest tick */
  double next_colour;     /* engine time of the next swatch colour change */
  double next_transition; /* engine time of the next card transition */
  int colour_index, card_index;
  int paused;
  double paused_at;
} scene;

static const double PALETTE[][4] = {
    {0.90, 0.30, 0.25, 1}, {0.95, 0.75, 0.20, 1}, {0.30, 0.80, 0.40, 1},
    {0.25, 0.55, 0.95, 1}, {0.70, 0.35, 0.90, 1},
};
#define PALETTE_N ((int)(sizeof PALETTE / sizeof PALETTE[0]))

static const double CARD_COLOURS[][4] = {{0.15, 0.65, 0.60, 1}, {0.85, 0.45, 0.15, 1}};
static const double BADGE_COLOURS[][4] = {{0.98, 0.95, 0.85, 1}, {0.20, 0.20, 0.45, 1}};
static const double BADGE_POSITIONS[][2] = {{190, 20}, {35, 80}};

static void set1(cad_engine *e, cad_layer l, const char *k, double a) {
  CHECK(cad_layer_set(e, l, k, &a, 1));
}
static void set2(cad_engine *e, cad_layer l, const char *k, double a, double b) {
  double v[2];
  v[0] = a;
  v[1] = b;
  CHECK(cad_layer_set(e, l, k, v, 2));
}
static void set4(cad_engine *e, cad_layer l, const char *k, double a, double b, double c, double d) {
  double v[4];
  v[0] = a;
  v[1] = b;
  v[2] = c;
  v[3] = d;
  CHECK(cad_layer_set(e, l, k, v, 4));
}
static void setc(cad_engine *e, cad_layer l, const char *k, const double *rgba) {
  CHECK(cad_layer_set(e, l, k, rgba, 4));
}

static cad_layer new_layer(cad_engine *e, cad_layer parent, double x, double y, double w,
                           double h, const double *rgba) {
  cad_layer l;
  CHECK(cad_layer_create(e, &l));
  if (parent) CHECK(cad_layer_add_sublayer(e, parent, l));
  set4(e, l, "bounds", 0, 0, w, h);
  set2(e, l, "position", x, y);
  if (rgba) setc(e, l, "backgroundColor", rgba);
  return l;
}

static void build_scene(scene *s) {
  cad_engine *e = s->e;
  static const double doorway_c[4] = {0.06, 0.06, 0.08, 1};
  static const double frame_c[4] = {0.55, 0.55, 0.60, 1};
  static const double door_c[4] = {0.62, 0.38, 0.18, 1};
  static const double door_border_c[4] = {0.36, 0.20, 0.09, 1};
  static const double stripe_c[4] = {0.80, 0.55, 0.30, 1};
  static const double knob_c[4] = {0.98, 0.82, 0.25, 1};
  static const double ship_c[4] = {0.35, 0.85, 0.95, 1};
  static const double wings_c[4] = {0.20, 0.50, 0.78, 1};
  static const double cockpit_c[4] = {0.95, 0.30, 0.45, 1};
  static const double glass_c[4] = {0.92, 0.94, 1.00, 1};

  /* The root fills the window; it draws nothing itself (transparent) and gives
     its sublayers perspective, seen from its centre at 500 points. */
  s->root = new_layer(e, 0, WIN_W / 2.0, WIN_H / 2.0, WIN_W, WIN_H, NULL);
  CHECK(cad_layer_set_actions_enabled(e, s->root, 0));
  set1(e, s->root, "sublayerTransform.m34", -1.0 / 500.0);

  /* the doorway, then the door hinged on its left edge (anchorPoint (0, 0.5)) */
  s->doorway = new_layer(e, s->root, 340, 300, 180, 280, doorway_c);
  set1(e, s->doorway, "borderWidth", 6);
  setc(e, s->doorway, "borderColor", frame_c);
  s->door = new_layer(e, s->root, 256, 300, 166, 268, door_c);
  set2(e, s->door, "anchorPoint", 0, 0.5);
  set1(e, s->door, "borderWidth", 5);
  setc(e, s->door, "borderColor", door_border_c);
  /* a diagonal inlay longer than the door, clipped to it (the door masks to
     its bounds: under perspective, a clip region that is not a rectangle) */
  set1(e, s->door, "masksToBounds", 1);
  s->stripe = new_layer(e, s->door, 83, 134, 30, 360, stripe_c);
  set1(e, s->stripe, "transform.rotation.z", 0.55);
  s->knob = new_layer(e, s->door, 140, 134, 16, 16, knob_c);

  /* the spaceship: a hull, wings at the back and a cockpit at the nose (it
     flies towards its +x) */
  s->ship = new_layer(e, s->root, 510, 300, 64, 30, ship_c);
  s->wings = new_layer(e, s->ship, 16, 15, 20, 56, wings_c);
  s->cockpit = new_layer(e, s->ship, 50, 15, 18, 14, cockpit_c);

  /* the swatch that changes colour every second, and translucent glass over it */
  s->swatch = new_layer(e, s->root, 115, 115, 140, 140, PALETTE[0]);
  s->glass = new_layer(e, s->root, 115, 185, 210, 40, glass_c);
  set1(e, s->glass, "opacity", 0.45);

  /* the card: masks to bounds, a badge sticking out of its corner */
  s->card = new_layer(e, s->root, 125, 490, 210, 110, CARD_COLOURS[0]);
  set1(e, s->card, "masksToBounds", 1);
  s->badge = new_layer(e, s->card, BADGE_POSITIONS[0][0], BADGE_POSITIONS[0][1], 70, 70,
                       BADGE_COLOURS[0]);
}

/* The animations, added after the first tick so they begin "now". */
static void start_animations(scene *s) {
  cad_engine *e = s->e;
  cad_anim a;
  double from = 0, to = -PI_D / 3;

  /* the door swings open by 60 degrees and back, for ever */
  CHECK(cad_anim_create(e, CAD_ANIM_BASIC, "transform.rotation.y", &a));
  CHECK(cad_anim_set_from(e, a, &from, 1));
  CHECK(cad_anim_set_to(e, a, &to, 1));
  CHECK(cad_anim_set_duration(e, a, 1.5));
  CHECK(cad_anim_set_autoreverses(e, a, 1));
  CHECK(cad_anim_set_repeat_count(e, a, INFINITY));
  CHECK(cad_anim_set_timing_function(e, a, CAD_TIMING_EASE_IN_EASE_OUT));
  CHECK(cad_layer_add_animation(e, s->door, a, "swing"));
  CHECK(cad_anim_destroy(e, a));

  /* the ship flies a closed loop of two cubic Béziers at constant speed,
     turned along the path's tangent */
  CHECK(cad_anim_create(e, CAD_ANIM_KEYFRAME, "position", &a));
  CHECK(cad_anim_path_move_to(e, a, 510, 300));
  CHECK(cad_anim_path_cubic_to(e, a, 510, 20, 770, 20, 755, 300));
  CHECK(cad_anim_path_cubic_to(e, a, 740, 580, 510, 580, 510, 300));
  CHECK(cad_anim_set_calculation_mode(e, a, CAD_CALC_PACED));
  CHECK(cad_anim_set_rotation_mode(e, a, CAD_ROTATE_AUTO));
  CHECK(cad_anim_set_duration(e, a, 5));
  CHECK(cad_anim_set_repeat_count(e, a, INFINITY));
  CHECK(cad_layer_add_animation(e, s->ship, a, "flight"));
  CHECK(cad_anim_destroy(e, a));
}

/* Every second: a new swatch colour, animated by the default action. */
static void change_colour(scene *s) {
  s->colour_index = (s->colour_index + 1) % PALETTE_N;
  setc(s->e, s->swatch, "backgroundColor", PALETTE[s->colour_index]);
}

/* Every two seconds: the card pushes its new look in from the right. */
static void change_card(scene *s) {
  cad_engine *e = s->e;
  cad_anim t;
  int k;
  CHECK(cad_anim_create(e, CAD_ANIM_TRANSITION, NULL, &t));
  CHECK(cad_anim_set_transition(e, t, CAD_TRANSITION_PUSH, CAD_FROM_RIGHT));
  CHECK(cad_anim_set_duration(e, t, 1.0));
  CHECK(cad_anim_set_timing_function(e, t, CAD_TIMING_EASE_IN_EASE_OUT));
  CHECK(cad_layer_add_animation(e, s->card, t, "transition"));
  CHECK(cad_anim_destroy(e, t));
  /* the new picture: changed without implicit animations */
  s->card_index ^= 1;
  k = s->card_index;
  CHECK(cad_transaction_begin(e));
  CHECK(cad_transaction_set_disable_actions(e, 1));
  setc(e, s->card, "backgroundColor", CARD_COLOURS[k]);
  setc(e, s->badge, "backgroundColor", BADGE_COLOURS[k]);
  set2(e, s->badge, "position", BADGE_POSITIONS[k][0], BADGE_POSITIONS[k][1]);
  CHECK(cad_transaction_commit(e));
}

/*
 * Advances the engine to `now`. Scheduled changes are applied at their exact
 * times (the engine is ticked there first), so a run is the same whatever the
 * frame rate: the final frame depends only on the final time.
 */
static void tick(scene *s, double t) {
  if (t < s->last_tick) t = s->last_tick; /* the engine's time never goes back */
  CHECK(cad_engine_tick(s->e, t));
  s->last_tick = t;
}

static void advance(scene *s, double now) {
  for (;;) {
    double next = s->next_colour < s->next_transition ? s->next_colour : s->next_transition;
    if (s->paused || next > now) break;
    tick(s, next);
    if (s->next_colour <= next) {
      change_colour(s);
      s->next_colour += 1.0;
    }
    if (s->next_transition <= next) {
      change_card(s);
      s->next_transition += 2.0;
    }
  }
  tick(s, now);
}

/* Space: pause or resume everything with the idiom of SEMANTICS.md §3.5. */
static void toggle_pause(scene *s, double now) {
  cad_engine *e = s->e;
  double t;
  if (!s->paused) {
    CHECK(cad_layer_convert_time(e, now, 0, s->root, &t));
    set1(e, s->root, "speed", 0);
    set1(e, s->root, "timeOffset", t);
    s->paused = 1;
    s->paused_at = now;
  } else {
    double p;
    int32_t n;
    CHECK(cad_layer_get(e, s->root, "timeOffset", &p, 1, &n));
    set1(e, s->root, "speed", 1);
    set1(e, s->root, "timeOffset", 0);
    set1(e, s->root, "beginTime", 0);
    CHECK(cad_layer_convert_time(e, now, 0, s->root, &t));
    set1(e, s->root, "beginTime", t - p);
    /* the schedule resumes where it stopped too */
    s->next_colour += now - s->paused_at;
    s->next_transition += now - s->paused_at;
    s->paused = 0;
  }
}

/* ------------------------------------------------------------------------ */
/* Output: the render list as text, the screenshot                           */
/* ------------------------------------------------------------------------ */

static const char *layer_name(const scene *s, cad_layer l) {
  if (l == s->root) return "root";
  if (l == s->doorway) return "doorway";
  if (l == s->door) return "door";
  if (l == s->stripe) return "stripe";
  if (l == s->knob) return "knob";
  if (l == s->ship) return "ship";
  if (l == s->wings) return "wings";
  if (l == s->cockpit) return "cockpit";
  if (l == s->swatch) return "swatch";
  if (l == s->glass) return "glass";
  if (l == s->card) return "card";
  if (l == s->badge) return "badge";
  return "?";
}

static int write_dump(const char *path, const scene *s, const frame_list *fl, double now,
                      int w, int h) {
  FILE *f = fopen(path, "w");
  int32_t i;
  int k;
  if (!f) {
    perror(path);
    return 0;
  }
  fprintf(f, "# Cadence render list of the final frame (sdl_host --dump)\n");
  fprintf(f, "# item <index> parent <index> layer <handle> name <name> flags <CAD_ITEM_*>\n");
  fprintf(f, "#   bounds <x y w h> world <m11 .. m44> opacity <o> world_opacity <o>\n");
  fprintf(f, "#   background <r g b a> border_width <w> border <r g b a>\n");
  fprintf(f, "time %.9g\n", now - s->start);
  fprintf(f, "window %d %d\n", w, h);
  fprintf(f, "clear %d %d %d\n", CLEAR_RGB[0], CLEAR_RGB[1], CLEAR_RGB[2]);
  fprintf(f, "count %d\n", (int)fl->n);
  for (i = 0; i < fl->n; i++) {
    const cad_render_item *it = &fl->items[i];
    fprintf(f, "item %d parent %d layer %llu name %s flags %d bounds", (int)i, (int)it->parent,
            (unsigned long long)it->layer, layer_name(s, it->layer), (int)it->flags);
    for (k = 0; k < 4; k++) fprintf(f, " %.9g", it->bounds[k]);
    fprintf(f, " world");
    for (k = 0; k < 16; k++) fprintf(f, " %.9g", it->world[k]);
    fprintf(f, " opacity %.9g world_opacity %.9g background", it->opacity, it->world_opacity);
    for (k = 0; k < 4; k++) fprintf(f, " %.9g", it->background_color[k]);
    fprintf(f, " border_width %.9g border", it->border_width);
    for (k = 0; k < 4; k++) fprintf(f, " %.9g", it->border_color[k]);
    fprintf(f, "\n");
  }
  return fclose(f) == 0;
}

static int save_screenshot(SDL_Renderer *r, const char *path) {
  int w, h, ok;
  SDL_Surface *surf;
  if (SDL_GetRendererOutputSize(r, &w, &h) != 0) return 0;
  surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 24, SDL_PIXELFORMAT_RGB24);
  if (!surf) return 0;
  ok = SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_RGB24, surf->pixels, surf->pitch) == 0 &&
       SDL_SaveBMP(surf, path) == 0;
  if (!ok) fprintf(stderr, "screenshot %s: %s\n", path, SDL_GetError());
  SDL_FreeSurface(surf);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* Main                                                                      */
/* ------------------------------------------------------------------------ */

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--frames N] [--time T] [--screenshot out.bmp] [--dump out.txt]\n"
          "  --frames N        exit after N frames (default: run until closed; 60 with --time)\n"
          "  --time T          simulated time: frames at T/N, 2T/N, ..., T (deterministic)\n"
          "  --screenshot F    save the last frame as a BMP\n"
          "  --dump F          write the last frame's render list as text\n",
          argv0);
}

int main(int argc, char **argv) {
  long frames = -1, f;
  double fixed_time = -1;
  const char *shot_path = NULL, *dump_path = NULL;
  SDL_Window *win;
  SDL_Renderer *ren;
  SDL_RendererInfo info;
  scene s;
  frame_list fl;
  double now = 0, fps_t0, fps_frames = 0;
  int i, quit = 0, status = 0, out_w = WIN_W, out_h = WIN_H;

  for (i = 1; i < argc; i++) {
    int more = i + 1 < argc;
    if (!strcmp(argv[i], "--frames") && more) {
      frames = strtol(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--time") && more) {
      char *end;
      fixed_time = strtod(argv[++i], &end);
      if (*end || !(fixed_time >= 0 && fixed_time < 1e9)) {
        fprintf(stderr, "--time must be a number of seconds >= 0\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--screenshot") && more) {
      shot_path = argv[++i];
    } else if (!strcmp(argv[i], "--dump") && more) {
      dump_path = argv[++i];
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (fixed_time >= 0 && frames < 0) frames = 60;
  if (frames == 0) frames = 1;

  /* the header and the library must agree (ABI version and struct sizes) */
  if (!CAD_CHECK_LAYOUT()) {
    fprintf(stderr, "cadence.h (ABI %u) does not match libcadence %s (ABI %u)\n",
            (unsigned)CAD_ABI_VERSION, cad_version_string(), (unsigned)cad_abi_version());
    return 1;
  }

  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
    return 1;
  }
  win = SDL_CreateWindow("Cadence + SDL2", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, WIN_W,
                         WIN_H, 0);
  if (!win) {
    fprintf(stderr, "SDL_CreateWindow: %s\n", SDL_GetError());
    SDL_Quit();
    return 1;
  }
  /* vsync paces the live loop; a fixed-time run goes as fast as it can */
  ren = SDL_CreateRenderer(win, -1, fixed_time >= 0 ? 0 : SDL_RENDERER_PRESENTVSYNC);
  if (!ren) ren = SDL_CreateRenderer(win, -1, 0);
  if (!ren) {
    fprintf(stderr, "SDL_CreateRenderer: %s\n", SDL_GetError());
    SDL_DestroyWindow(win);
    SDL_Quit();
    return 1;
  }
  if (SDL_GetRendererInfo(ren, &info) == 0)
    printf("Cadence %s, SDL renderer %s\n", cad_version_string(), info.name);
  SDL_GetRendererOutputSize(ren, &out_w, &out_h);

  memset(&s, 0, sizeof s);
  memset(&fl, 0, sizeof fl);
  s.e = cad_engine_create();
  if (!s.e) return 1;
  build_scene(&s);
  /* the first tick: the layers appear as configured, and "now" is defined
     before any animation is added */
  s.start = fixed_time >= 0 ? 0.0 : cad_media_time();
  tick(&s, s.start);
  start_animations(&s);
  s.next_colour = s.start + 1.0;
  s.next_transition = s.start + 1.5;

  fps_t0 = cad_media_time();
  for (f = 0; !quit && (frames < 0 || f < frames); f++) {
    SDL_Event ev;
    int last = frames >= 0 && f == frames - 1;
    now = fixed_time >= 0 ? s.start + fixed_time * (double)(f + 1) / (double)frames
                          : cad_media_time();
    while (SDL_PollEvent(&ev)) {
      if (ev.type == SDL_QUIT) quit = 1;
      if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_ESCAPE) quit = 1;
      if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_SPACE && !ev.key.repeat)
        toggle_pause(&s, now);
    }
    advance(&s, now);
    read_render_list(s.e, s.root, &fl);
    draw_frame(ren, &fl);
    if (last || quit) {
      if (dump_path && !write_dump(dump_path, &s, &fl, now, out_w, out_h)) status = 1;
      if (shot_path && !save_screenshot(ren, shot_path)) status = 1;
    }
    SDL_RenderPresent(ren);

    fps_frames++;
    {
      double t = cad_media_time();
      if (t - fps_t0 >= 2.0) {
        printf("%.1f fps, %d render items, t = %.2f s\n", fps_frames / (t - fps_t0), (int)fl.n,
               now - s.start);
        fflush(stdout);
        fps_t0 = t;
        fps_frames = 0;
      }
    }
  }
  if (fixed_time >= 0)
    printf("%ld frames, final time %.3f s, %d render items\n", f, now - s.start, (int)fl.n);

  cad_engine_destroy(s.e);
  free(fl.items);
  free(fl.child_clip);
  free(fl.last);
  free(fl.stack);
  SDL_DestroyRenderer(ren);
  SDL_DestroyWindow(win);
  SDL_Quit();
  return status;
}
