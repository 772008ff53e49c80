#!/usr/bin/env python3
"""A pygame render loop driving Cadence from Python.

Cadence computes, pygame draws. Every frame the host calls ``engine.tick(now)``,
reads ``engine.render_list(root)`` (a numpy structured array, one C call) and
draws every item as a polygon: the four corners of its bounds, as row vectors
[x y 0 1] times its world matrix, divided by w (the perspective divide).

The scene: a door swinging open under perspective (``sublayerTransform.m34``
on its superlayer, ``anchorPoint`` (0, 0.5), ``transform.rotation.y``), an
image switcher (a card whose contents change under push transitions: the
render list then holds a clip container with the outgoing and incoming
pictures) and a spaceship following a Bézier path with rotationMode auto.

    python3 examples/pygame/host.py                       # a window, real time (Esc quits, Space pauses)
    SDL_VIDEODRIVER=dummy python3 examples/pygame/host.py --time 1.0 --frames 30 \\
        --screenshot shot.png --dump shot.json            # headless, deterministic last frame

Options: ``--frames N`` stop after N frames; ``--time T`` tick at the fixed
simulated times T*k/N (k = 0..N, N = --frames, default 30) instead of the clock,
so the last frame depends only on T; ``--screenshot out.png`` saves the last
frame; ``--dump out.json`` writes that frame's render list.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
if not os.environ.get("CADENCE_LIBRARY"):
    _built = os.path.join(REPO, ".build", "release", "libcadence.so")
    if os.path.exists(_built):
        os.environ["CADENCE_LIBRARY"] = _built

import numpy as np  # noqa: E402
import pygame  # noqa: E402

import cadence  # noqa: E402
from cadence import Animation, Engine, Path  # noqa: E402

SIZE = (640, 480)
CLEAR = (24, 28, 38)
MASKS_TO_BOUNDS = int(cadence.ItemFlag.MASKS_TO_BOUNDS)
DOUBLE_SIDED = int(cadence.ItemFlag.DOUBLE_SIDED)

# contents ids -> what the host draws for them
SHIP = 1
CARD_BASE = 10
#: a card's picture is a flat colour with its number in the middle
CARD_COLOURS: Dict[int, Tuple[int, int, int]] = {
    CARD_BASE + 1: (231, 76, 60), CARD_BASE + 2: (46, 134, 222),
    CARD_BASE + 3: (39, 174, 96), CARD_BASE + 4: (243, 156, 18),
}
SHIP_COLOUR = (236, 240, 241)
#: the ship picture: a dart pointing along +x, in unit coordinates of the layer's bounds
SHIP_POLYGON = [(0.0, 0.1), (1.0, 0.5), (0.0, 0.9), (0.25, 0.5)]
#: the central part of a card that its number label may cover (unit coordinates)
LABEL_BOX = (0.3, 0.3, 0.7, 0.7)


def rgba(hexstr: str, a: float = 1.0) -> Tuple[float, float, float, float]:
    h = hexstr.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, a)


# ---------------------------------------------------------------------------
# The scene
# ---------------------------------------------------------------------------

class Scene:
    """Layers plus the host actions a timer would perform, at exact times."""

    def __init__(self, engine: Engine) -> None:
        e = self.engine = engine
        w, h = SIZE
        # the root has no background: the clear colour shows around the layers
        self.root = e.create_layer(bounds=(0, 0, w, h), position=(w / 2, h / 2))
        self.root.actions_enabled = False

        # the door, in a superlayer with perspective
        stage = e.create_layer(bounds=(0, 0, 300, 300), position=(170, 180))
        stage["sublayerTransform.m34"] = -1.0 / 500.0
        self.root.add_sublayer(stage)
        stage.add_sublayer(e.create_layer(bounds=(0, 0, 140, 266), position=(156, 150),
                                          background_color=rgba("#0c0d10")))
        self.door = e.create_layer(bounds=(0, 0, 128, 256), position=(86, 150), anchor_point=(0, 0.5),
                                   background_color=rgba("#a0522d"))
        stage.add_sublayer(self.door)
        for y in (68, 188):
            self.door.add_sublayer(e.create_layer(bounds=(0, 0, 88, 96), position=(64, y),
                                                  background_color=rgba("#c0703d")))
        self.door.add_sublayer(e.create_layer(bounds=(0, 0, 14, 14), position=(112, 128),
                                              background_color=rgba("#f6c945")))

        # the image switcher: a card that masks to its bounds, with a badge sublayer
        self.card = e.create_layer(bounds=(0, 0, 160, 200), position=(470, 170), masks_to_bounds=True,
                                   border_width=4, border_color=rgba("#ffffff"))
        self.card.contents = CARD_BASE + 1
        self.card.add_sublayer(e.create_layer(bounds=(0, 0, 60, 30), position=(150, 25),
                                              background_color=rgba("#2d3436")))
        self.root.add_sublayer(self.card)
        self.index = 1

        # the spaceship on a path
        self.path = Path().move_to(60, 400).cubic_to(200, 300, 440, 500, 580, 400)
        self.ship = e.create_layer(bounds=(0, 0, 48, 30), position=(60, 400))
        self.ship.contents = SHIP
        self.root.add_sublayer(self.ship)

        # a translucent strip over the path
        self.root.add_sublayer(e.create_layer(bounds=(0, 0, 600, 24), position=(320, 460),
                                              background_color=rgba("#74b9ff"), opacity=0.5))

    def start(self, e: Engine) -> None:
        swing = Animation.basic(e, "transform.rotation.y", from_=0.0, to=-math.pi / 3, duration=2.0,
                                autoreverses=True, repeat_count=math.inf, timing_function="easeInEaseOut")
        self.door.add_animation(swing, "swing")
        fly = Animation.keyframe(e, "position", path=self.path, rotation_mode="auto", duration=4.0,
                                 calculation_mode="paced", repeat_count=math.inf)
        self.ship.add_animation(fly, "fly")

    def switch(self, e: Engine) -> None:
        push = Animation.transition(e, "push", "fromRight", duration=1.0, timing_function="linear")
        self.card.add_animation(push)                 # freezes the outgoing picture
        self.index = self.index % 4 + 1
        self.card.contents = CARD_BASE + self.index   # the incoming picture (the transition skips the fade)

    def actions(self):
        acts = [(0.0, self.start)]
        acts += [(0.5 + 2.0 * k, self.switch) for k in range(100)]
        return acts


# ---------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------

def project(world: np.ndarray, pts: Sequence[Tuple[float, float]], mutate: str = "") -> Tuple[np.ndarray, np.ndarray]:
    """Bounds-space points -> window points: [x y 0 1] * world, then divide by w."""
    m = np.asarray(world, dtype=np.float64).reshape(4, 4)
    if mutate == "transpose":        # a deliberately wrong host (for the test of the test)
        m = m.T
    p = np.asarray(pts, dtype=np.float64)
    h = np.hstack([p, np.zeros((len(p), 1)), np.ones((len(p), 1))]) @ m
    w = h[:, 3] if mutate != "nodivide" else np.ones(len(p))
    with np.errstate(divide="ignore", invalid="ignore"):
        return h[:, :2] / w[:, None], w


def clip_polygon(poly: List[Tuple[float, float]], clip: List[Tuple[float, float]]) -> List[Tuple[float, float]]:
    """Sutherland–Hodgman: ``poly`` clipped to the convex polygon ``clip`` (either winding)."""
    if len(clip) < 3 or len(poly) < 3:
        return []
    area = sum(clip[i][0] * clip[(i + 1) % len(clip)][1] - clip[(i + 1) % len(clip)][0] * clip[i][1]
               for i in range(len(clip)))
    sign = 1.0 if area >= 0 else -1.0
    out = poly
    for i in range(len(clip)):
        ax, ay = clip[i]
        bx, by = clip[(i + 1) % len(clip)]

        def inside(p):
            return sign * ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)) >= 0

        def cross(p, q):
            dx, dy = q[0] - p[0], q[1] - p[1]
            den = (bx - ax) * dy - (by - ay) * dx
            if den == 0:
                return q
            t = ((bx - ax) * (ay - p[1]) - (by - ay) * (ax - p[0])) / den
            return (p[0] + t * dx, p[1] + t * dy)

        src, out = out, []
        if not src:
            break
        prev = src[-1]
        for cur in src:
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
            prev = cur
    return out


class Painter:
    """Draws render lists onto a pygame surface."""

    def __init__(self, surface: pygame.Surface, mutate: str = "") -> None:
        self.surface = surface
        self.mutate = mutate
        pygame.font.init()
        self.font = pygame.font.Font(None, 48)

    def fill(self, poly, rgb, alpha: float) -> None:
        """A polygon in ``rgb`` with coverage ``alpha`` (0..1) blended over the surface."""
        if len(poly) < 3 or alpha <= 0:
            return
        if alpha >= 1.0:
            pygame.draw.polygon(self.surface, rgb, poly)
            return
        xs = [p[0] for p in poly]
        ys = [p[1] for p in poly]
        x0, y0 = int(math.floor(min(xs))), int(math.floor(min(ys)))
        x1, y1 = int(math.ceil(max(xs))) + 1, int(math.ceil(max(ys))) + 1
        if x1 <= x0 or y1 <= y0:
            return
        tmp = pygame.Surface((x1 - x0, y1 - y0), pygame.SRCALPHA)
        pygame.draw.polygon(tmp, (*rgb, int(round(alpha * 255))), [(x - x0, y - y0) for x, y in poly])
        self.surface.blit(tmp, (x0, y0))

    def local_polygon(self, world, pts, clip) -> Optional[List[Tuple[float, float]]]:
        xy, w = project(world, pts, self.mutate)
        if np.any(w <= 1e-6) or not np.all(np.isfinite(xy)):
            return None   # behind the eye (no near-plane clipping in this host)
        poly = [tuple(p) for p in xy]
        return clip_polygon(poly, clip) if clip is not None else poly

    def draw(self, items) -> None:
        n = len(items)
        children: List[List[int]] = [[] for _ in range(n)]
        roots = []
        for i in range(n):
            p = int(items[i]["parent"])
            (children[p] if 0 <= p < i else roots).append(i)
        for r in roots:
            self._draw(items, r, children, None)

    def _draw(self, items, i: int, children, clip) -> None:
        it = items[i]
        world = it["world"]
        x, y, w, h = (float(v) for v in it["bounds"])
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        quad = self.local_polygon(world, corners, None)
        op = float(it["world_opacity"])
        visible = quad is not None and w > 0 and h > 0
        if visible and not (int(it["flags"]) & DOUBLE_SIDED):
            area = sum(quad[k][0] * quad[(k + 1) % 4][1] - quad[(k + 1) % 4][0] * quad[k][1] for k in range(4))
            visible = area > 0          # counter-clockwise on screen = the back face
        if visible:
            bg = it["background_color"]
            poly = clip_polygon(quad, clip) if clip is not None else quad
            self.fill(poly, tuple(int(round(c * 255)) for c in bg[:3]), float(bg[3]) * op)
            self._contents(it, world, (x, y, w, h), clip, op)
        child_clip = clip
        if int(it["flags"]) & MASKS_TO_BOUNDS:
            child_clip = [] if quad is None else (clip_polygon(quad, clip) if clip is not None else quad)
        for c in children[i]:
            self._draw(items, c, children, child_clip)
        bw = float(it["border_width"])
        if visible and bw > 0:     # the border is drawn above the sublayers
            bc = it["border_color"]
            rgb = tuple(int(round(c * 255)) for c in bc[:3])
            a = float(bc[3]) * op
            bw = min(bw, w / 2, h / 2)
            for band in ([(x, y), (x + w, y), (x + w, y + bw), (x, y + bw)],
                         [(x, y + h - bw), (x + w, y + h - bw), (x + w, y + h), (x, y + h)],
                         [(x, y + bw), (x + bw, y + bw), (x + bw, y + h - bw), (x, y + h - bw)],
                         [(x + w - bw, y + bw), (x + w, y + bw), (x + w, y + h - bw), (x + w - bw, y + h - bw)]):
                poly = self.local_polygon(world, band, clip)
                if poly:
                    self.fill(poly, rgb, a)

    def _contents(self, it, world, bounds, clip, op) -> None:
        cid = int(it["contents"])
        x, y, w, h = bounds
        if cid == SHIP:
            poly = self.local_polygon(world, [(x + u * w, y + v * h) for u, v in SHIP_POLYGON], clip)
            if poly:
                self.fill(poly, SHIP_COLOUR, op)
        elif cid in CARD_COLOURS:
            poly = self.local_polygon(world, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], clip)
            if poly:
                self.fill(poly, CARD_COLOURS[cid], op)
            # the number, upright at the projected centre of the label box (clipped to the mask's box)
            c, _ = project(world, [(x + w / 2, y + h / 2)], self.mutate)
            text = self.font.render(str(cid - CARD_BASE), True, (255, 255, 255))
            r = text.get_rect(center=(float(c[0][0]), float(c[0][1])))
            if clip:
                xs = [p[0] for p in clip]
                ys = [p[1] for p in clip]
                box = pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)), int(max(ys) - min(ys)))
                old = self.surface.get_clip()
                self.surface.set_clip(box)
                self.surface.blit(text, r)
                self.surface.set_clip(old)
            else:
                self.surface.blit(text, r)


# ---------------------------------------------------------------------------
# Dump
# ---------------------------------------------------------------------------

FIELDS = ("layer", "parent", "flags", "world", "bounds", "opacity", "world_opacity", "background_color",
          "border_color", "border_width", "corner_radius", "contents")


def dump(path: str, items, t: float) -> None:
    out = {"time": t, "size": list(SIZE), "clear": list(CLEAR), "items": []}
    for it in items:
        d = {}
        for f in FIELDS:
            v = it[f]
            d[f] = v.tolist() if hasattr(v, "tolist") else v
        d["layer"] = int(it["layer"])
        out["items"].append(d)
    with open(path, "w") as fh:
        json.dump(out, fh)


# ---------------------------------------------------------------------------
# Main loop
# ---------------------------------------------------------------------------

def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Cadence in a pygame render loop.")
    ap.add_argument("--frames", type=int, default=None, help="stop after N frames")
    ap.add_argument("--time", type=float, default=None,
                    help="deterministic: tick at T*k/N, k = 0..N (N = --frames, default 30)")
    ap.add_argument("--screenshot", default=None, help="save the last frame (PNG)")
    ap.add_argument("--dump", default=None, help="write the last frame's render list (JSON)")
    ap.add_argument("--fps", type=float, default=60.0, help="frame-rate cap in real time")
    ap.add_argument("--mutate", default="", choices=["", "transpose", "nodivide"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    pygame.display.init()
    screen = pygame.display.set_mode(SIZE)
    pygame.display.set_caption("Cadence + pygame")
    painter = Painter(screen, args.mutate)
    clock = pygame.time.Clock()

    engine = Engine()
    scene = Scene(engine)
    engine.tick(0.0)                      # the layers are no longer new
    pending = sorted(scene.actions(), key=lambda a: a[0])

    if args.time is not None:
        n = args.frames if args.frames is not None else 30
        times = [args.time * k / max(n, 1) for k in range(n + 1)]
    else:
        times = None
    start = cadence.media_time()
    paused_at: Optional[float] = None
    frame = 0
    items = None
    t = 0.0
    running = True
    while running:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                running = False
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
                if paused_at is None:     # the pause idiom of SEMANTICS.md 3.5, on the root layer
                    scene.root.pause()
                    paused_at = t
                else:
                    scene.root.resume()
                    paused_at = None
        if not running:
            break
        if times is not None:
            if frame >= len(times):
                break
            t = times[frame]
        else:
            t = cadence.media_time() - start
        while pending and pending[0][0] <= t + 1e-9:
            ta, fn = pending.pop(0)
            engine.tick(max(ta, engine.now))  # the action happens at its own time, not the frame's
            fn(engine)
        engine.tick(t)
        items = engine.render_list(scene.root)
        screen.fill(CLEAR)
        painter.draw(items)
        pygame.display.flip()
        frame += 1
        if times is None:
            if args.frames is not None and frame >= args.frames:
                break
            clock.tick(args.fps)
    if items is not None:
        if args.screenshot:
            pygame.image.save(screen, args.screenshot)
            print(f"screenshot: {args.screenshot} (t = {t:.3f} s, {len(items)} items)")
        if args.dump:
            dump(args.dump, items, t)
    engine.close()
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
