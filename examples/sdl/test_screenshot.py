#!/usr/bin/env python3
"""Screenshot test of the SDL2 host (examples/sdl/sdl_host.c).

Runs the host under Xvfb at fixed simulated times (`--time T --frames K
--screenshot out.bmp --dump out.txt`) and checks the picture against the
render list the engine produced for that frame (the dump):

* A reference rasteriser, written from the render-list conventions alone
  (SEMANTICS.md §2.2: the corners of `bounds` as row vectors [x y 0 1] times
  the world matrix, divided by w; docs/decisions.md: masks-to-bounds and
  transition clip containers clip their descendants), gives the colour every
  point of the window should have: the clear colour, then each item's
  background x world_opacity blended over it in list order, and each item's
  border (inside its bounds) once its sublayers are drawn, as Core Animation
  composites borders above sublayers.
* Per layer: sample points well inside each projected quad (its centre and the
  points 30% and 70% of the way to each corner, taken in the layer's own space
  and projected) must show the layer's colour, unless a later item covers them;
  samples that a mask clips away must show what lies beneath instead.
* A 20-pixel grid over the whole window must match the reference too, and at
  least one point outside every quad must show the clear colour.
* Points within 2 px of any edge are skipped (rasterisation rules differ).

The test proves its own power: it recomputes the reference as a host that
transposed the matrix, skipped the perspective divide, or ignored masks would
draw it, and requires that some checked sample tells each of those apart from
the right picture (for the first two, a sample on the door, which is at a
non-zero angle under perspective; for masks, also a sample of the stripe that
the door's perspective quad clips). `make test-mutants` builds such hosts and
requires this test to fail on each.

It also checks that the last frame depends only on T (two frame counts give
the same render list), checks one run on the wall clock (cad_media_time) the
same way against its own dump, and checks a few engine numbers the drawing
relies on (the door's world matrix from §2.2, the push transition's
offsets); a mismatch there is reported as an engine problem.

Usage: test_screenshot.py [--host ./sdl_host] [--out build/test] [--times 1.1,2.0]
Exit status: 0 pass, 1 the picture is wrong, 3 the host could not be run,
4 the picture matches the render list but the engine's numbers look wrong.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

TOL = 8  # per channel, 0..255: 8-bit blending and rounding
EDGE_MARGIN = 2.0  # pixels
CLEAR_MIN_POINTS = 1
LIVE_FRAMES = 120

ITEM_MASKS_TO_BOUNDS = 1
ITEM_DOUBLE_SIDED = 2
ITEM_TRANSITION_OUTGOING = 4
ITEM_TRANSITION_INCOMING = 8
ITEM_TRANSITION_CLIP = 16

VARIANTS = ("transposed", "no-divide", "no-clip")


def load_pillow():
    try:
        from PIL import Image  # noqa: F401
    except ImportError:
        print("test_screenshot: Pillow is missing, installing it with pip")
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "Pillow"])
    from PIL import Image, ImageDraw

    return Image, ImageDraw


# ---------------------------------------------------------------------------
# The dump
# ---------------------------------------------------------------------------

class Item:
    FIELDS = (("parent", 1, int), ("layer", 1, int), ("name", 1, str), ("flags", 1, int),
              ("bounds", 4, float), ("world", 16, float), ("opacity", 1, float),
              ("world_opacity", 1, float), ("background", 4, float),
              ("border_width", 1, float), ("border", 4, float))

    def __init__(self, tokens):
        assert tokens[0] == "item", tokens[:2]
        self.index = int(tokens[1])
        pos = 2
        for key, count, kind in self.FIELDS:
            if tokens[pos] != key:
                raise ValueError("dump: expected %r, got %r" % (key, tokens[pos]))
            values = [kind(t) for t in tokens[pos + 1:pos + 1 + count]]
            setattr(self, key, values[0] if count == 1 else values)
            pos += 1 + count
        self.label = self.name
        if self.flags & ITEM_TRANSITION_CLIP:
            self.label += "[clip]"
        elif self.flags & ITEM_TRANSITION_OUTGOING:
            self.label += "[out]"
        elif self.flags & ITEM_TRANSITION_INCOMING:
            self.label += "[in]"


def read_dump(path):
    info, items = {}, []
    with open(path) as f:
        for line in f:
            tokens = line.split()
            if not tokens or tokens[0].startswith("#"):
                continue
            if tokens[0] == "item":
                items.append(Item(tokens))
            else:
                info[tokens[0]] = tokens[1:]
    if int(info["count"][0]) != len(items):
        raise ValueError("dump: count %s but %d items" % (info["count"][0], len(items)))
    for i, it in enumerate(items):
        if it.index != i or not (-1 <= it.parent < i) or (it.parent == -1) != (i == 0):
            raise ValueError("dump: bad item order or parent at item %d" % i)
    return info, items


# ---------------------------------------------------------------------------
# Geometry
# ---------------------------------------------------------------------------

def project(m, x, y, variant="right"):
    """[x y 0 1] * M (row vector, m11..m44 row-major), then divided by w."""
    if variant == "transposed":
        X, Y, W = x * m[0] + y * m[1] + m[3], x * m[4] + y * m[5] + m[7], x * m[12] + y * m[13] + m[15]
    else:
        X, Y, W = x * m[0] + y * m[4] + m[12], x * m[1] + y * m[5] + m[13], x * m[3] + y * m[7] + m[15]
    if variant == "no-divide":
        return (X, Y)
    if W <= 1e-4:
        return None
    return (X / W, Y / W)


def rect_quad(m, x, y, w, h, variant="right"):
    pts = [project(m, px, py, variant) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
    return None if any(p is None for p in pts) else pts


def area2(poly):
    return sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
               for i in range(len(poly)))


def inside(poly, p):
    """p inside the convex polygon (either orientation)."""
    s = 1.0 if area2(poly) >= 0 else -1.0
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
        if s * ((x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)) < 0:
            return False
    return True


def seg_dist(p, a, b):
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def edges(poly):
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


# ---------------------------------------------------------------------------
# Reference rasteriser
# ---------------------------------------------------------------------------

class Drawn:
    """What one render item puts on screen, as a given host variant draws it."""

    def __init__(self, it, items, variant):
        self.item = it
        b = it.bounds
        self.quad = None
        self.fill = (it.background[:3], it.background[3] * it.world_opacity)
        self.border = (it.border[:3], it.border[3] * it.world_opacity if it.border_width > 0 else 0.0)
        if it.flags & ITEM_TRANSITION_CLIP or b[2] <= 0 or b[3] <= 0:
            return
        if self.fill[1] <= 0 and self.border[1] <= 0:
            return
        q = rect_quad(it.world, b[0], b[1], b[2], b[3], variant)
        if q is None or abs(area2(q)) < 1e-9:
            return
        if not (it.flags & ITEM_DOUBLE_SIDED) and area2(q) < 0:
            return
        self.quad = q
        bw = it.border_width
        self.inner = None
        if self.border[1] > 0 and 2 * bw < b[2] and 2 * bw < b[3]:
            self.inner = rect_quad(it.world, b[0] + bw, b[1] + bw, b[2] - 2 * bw, b[3] - 2 * bw, variant)
        # the masks of the ancestors
        self.clips = []
        p = it.parent
        while p >= 0:
            anc = items[p]
            if anc.flags & ITEM_MASKS_TO_BOUNDS and variant != "no-clip":
                cq = rect_quad(anc.world, *anc.bounds, variant=variant)
                self.clips.append(cq if cq is not None and abs(area2(cq)) > 1e-9 else [])
            p = anc.parent
        self.edges = list(edges(q))
        if self.inner:
            self.edges += edges(self.inner)
        for c in self.clips:
            self.edges += edges(c) if c else []

    def visible_at(self, p):
        return self.quad is not None and all(c and inside(c, p) for c in self.clips)


class Reference:
    def __init__(self, items, clear, variant="right"):
        self.items = items
        self.clear = clear
        self.variant = variant
        self.drawn = [Drawn(it, items, variant) for it in items]
        # drawing order: each background in list order; each border once its
        # subtree is done (Core Animation composites borders above sublayers)
        last = list(range(len(items)))
        for it in reversed(items):
            if it.parent >= 0:
                last[it.parent] = max(last[it.parent], last[it.index])
        self.ops, open_items = [], []
        for it in items:
            self.ops.append(("background", self.drawn[it.index]))
            open_items.append(it.index)
            while open_items and last[open_items[-1]] <= it.index:
                self.ops.append(("border", self.drawn[open_items.pop()]))

    def colour(self, p):
        """(rgb 0..255, ambiguous, indices of the items that paint p)."""
        rgb = [c / 255.0 for c in self.clear]
        painters = []
        ambiguous = False
        for op, d in self.ops:
            if d.quad is None:
                continue
            if op == "background" and any(seg_dist(p, a, b) < EDGE_MARGIN for a, b in d.edges):
                ambiguous = True
            if not d.visible_at(p) or not inside(d.quad, p):
                continue
            if op == "background":
                colour, alpha = d.fill
            elif d.inner is None or not inside(d.inner, p):
                colour, alpha = d.border
            else:
                continue
            if alpha > 0:
                rgb = [s * alpha + t * (1 - alpha) for s, t in zip(colour, rgb)]
                painters.append(d.item.index)
        return tuple(round(255 * c) for c in rgb), ambiguous, painters


def differs(a, b, tol=TOL):
    return max(abs(x - y) for x, y in zip(a, b)) > tol


# ---------------------------------------------------------------------------
# Engine sanity (numbers the drawing relies on)
# ---------------------------------------------------------------------------

def bezier_ease(p, c1x, c1y, c2x, c2y):
    def bx(t):
        return 3 * c1x * t * (1 - t) ** 2 + 3 * c2x * t * t * (1 - t) + t ** 3

    def by(t):
        return 3 * c1y * t * (1 - t) ** 2 + 3 * c2y * t * t * (1 - t) + t ** 3

    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if bx(mid) < p:
            lo = mid
        else:
            hi = mid
    return by((lo + hi) / 2)


def matmul(a, b):
    return [sum(a[r * 4 + k] * b[k * 4 + c] for k in range(4)) for r in range(4) for c in range(4)]


def translate(x, y, z=0.0):
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]


def engine_checks(T, items):
    """Independent §2.2 composition of the door's world matrix, and the push offsets."""
    problems = []
    by_label = {it.label: it for it in items}
    door = by_label.get("door")
    if door is None:
        return ["no door item in the render list"]
    # door (bounds 166x268, anchor (0, 0.5), position (256, 300)): a 1.5 s
    # ease-in-ease-out swing of rotation.y 0 -> -pi/3, autoreversing, begun at 0
    u = T % 3.0
    if u > 1.5:
        u = 3.0 - u
    theta = -math.pi / 3 * bezier_ease(u / 1.5, 0.42, 0, 0.58, 1)
    c, s = math.cos(theta), math.sin(theta)
    ry = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]  # CATransform3DMakeRotation(theta, 0, 1, 0)
    persp = translate(0, 0)
    persp[11] = -1.0 / 500
    want = matmul(matmul(matmul(matmul(translate(0, -0.5 * 268), ry), translate(256, 300)),
                         translate(-400, -300)), matmul(persp, translate(400, 300)))
    bad = [k for k in range(16) if abs(want[k] - door.world[k]) > 1e-3 * max(1.0, abs(want[k]))]
    if bad:
        problems.append("door world matrix at t=%g (rotation.y %.6f) differs from SEMANTICS.md §2.2 in "
                        "elements %s: engine %s, expected %s" % (
                            T, theta, [("m%d%d" % (k // 4 + 1, k % 4 + 1)) for k in bad],
                            [round(door.world[k], 6) for k in bad], [round(want[k], 6) for k in bad]))
    # push fromRight, 1 s ease-in-ease-out, begun at 1.5 + 2k: outgoing at -W*p, incoming at +W*(1-p)
    clip = by_label.get("card[clip]")
    k = math.floor((T - 1.5) / 2.0 + 1e-9) if T >= 1.5 - 1e-9 else None
    since = T - (1.5 + 2 * k) if k is not None else None
    running = since is not None and since < 1.0
    if since is not None and (abs(since) < 1e-6 or abs(since - 1.0) < 1e-6):
        pass  # at an end of the transition's time: either answer may be rounding
    elif running:
        p = bezier_ease(since, 0.42, 0, 0.58, 1)
        out, inc = by_label.get("card[out]"), by_label.get("card[in]")
        if clip is None or out is None or inc is None:
            problems.append("t=%g: a push transition runs but the render list has no clip container "
                            "with two pictures" % T)
        else:
            W = clip.bounds[2]
            for it, dx in ((out, -W * p), (inc, W * (1 - p))):
                got = it.world[12] - clip.world[12]
                if abs(got - dx) > 1e-2:
                    problems.append("t=%g: %s offset x %.4f, expected %.4f (p = %.6f)" % (T, it.label, got, dx, p))
    elif clip is not None:
        problems.append("t=%g: a transition clip container but no transition should be running" % T)
    return problems


# ---------------------------------------------------------------------------
# Running the host
# ---------------------------------------------------------------------------

def run_host(host, T, frames, shot, dump, quiet):
    env = dict(os.environ)
    env["SDL_VIDEODRIVER"] = "x11"
    env.setdefault("SDL_RENDER_DRIVER", "software")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    for path in (shot, dump):
        if os.path.exists(path):
            os.remove(path)
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 800x600x24", host]
    if T is not None:
        cmd += ["--time", repr(T)]
    cmd += ["--frames", str(frames), "--screenshot", shot, "--dump", dump]
    res = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=120)
    if not quiet:
        print("  $ SDL_VIDEODRIVER=x11 SDL_RENDER_DRIVER=%s %s" % (env["SDL_RENDER_DRIVER"], " ".join(
            "'%s'" % c if " " in c else c for c in cmd)))
        for line in res.stdout.strip().splitlines():
            print("    | " + line)
    if res.returncode != 0:
        raise RuntimeError("host exited with %d:\n%s" % (res.returncode, res.stdout))
    for path in (shot, dump):
        if not os.path.exists(path):
            raise RuntimeError("host wrote no %s" % path)


def layer_samples(it):
    """Layer-space points: the centre, 30%, 70% and 90% of the way to each corner,
    and 90% of the way to the middle of each edge."""
    x, y, w, h = it.bounds
    cx, cy = x + w / 2, y + h / 2
    pts = [("centre", cx, cy)]
    for f in (0.3, 0.7, 0.9):
        for qx, qy in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
            pts.append(("%d%% to a corner" % (f * 100), cx + f * (qx - cx), cy + f * (qy - cy)))
    # and near the middle of each edge (thin layers have no room towards their corners)
    for qx, qy in ((cx, y), (x + w, cy), (cx, y + h), (x, cy)):
        pts.append(("90% to an edge", cx + 0.9 * (qx - cx), cy + 0.9 * (qy - cy)))
    return pts


def check_frame(T, info, items, img, ImageDraw, annotated_path, log):
    W, H = int(info["window"][0]), int(info["window"][1])
    clear = tuple(int(v) for v in info["clear"])
    if img.size != (W, H):
        return ["screenshot is %dx%d, the window %dx%d" % (img.size + (W, H))], {}
    px = img.load()
    ref = Reference(items, clear)
    variants = {v: Reference(items, clear, v) for v in VARIANTS}
    failures = []
    checked = []  # (x, y, expected, got, owner label)
    draw_pts = []

    def check(sx, sy, owner, what):
        ix, iy = int(math.floor(sx)), int(math.floor(sy))
        if not (0 <= ix < W and 0 <= iy < H):
            return "offscreen"
        p = (ix + 0.5, iy + 0.5)
        want, ambiguous, painters = ref.colour(p)
        if ambiguous:
            return "edge"
        got = px[ix, iy][:3]
        ok = not differs(want, got)
        checked.append((p, want, owner))
        draw_pts.append((ix, iy, ok))
        if not ok:
            names = [items[i].label for i in painters] or ["clear colour"]
            failures.append("t=%g %s %s at pixel (%d, %d): expected %s (%s), screenshot has %s" % (
                T, owner, what, ix, iy, want, " over ".join(reversed(names)), got))
        return painters

    # 1. per layer
    for it in items:
        d = ref.drawn[it.index]
        if d.quad is None:
            continue
        stats = {"own": 0, "covered": 0, "clipped": 0, "edge": 0, "offscreen": 0}
        for what, lx, ly in layer_samples(it):
            sp = project(it.world, lx, ly)
            if sp is None:
                continue
            visible = d.visible_at(sp)
            r = check(sp[0], sp[1], it.label, what)
            if isinstance(r, str):
                stats[r] += 1
            elif not visible:
                stats["clipped"] += 1  # must show what lies beneath: checked against the reference
            elif r and r[-1] == it.index:
                stats["own"] += 1
            else:
                stats["covered"] += 1
        log("    %-12s %d own-colour, %d covered by later items, %d clipped away (checked: beneath "
            "shows), %d on edges (skipped)" % (it.label, stats["own"], stats["covered"], stats["clipped"],
                                               stats["edge"]))

    # 2. a grid over the window, and the clear colour outside every quad
    clear_points = 0
    for gy in range(10, H, 20):
        for gx in range(10, W, 20):
            r = check(gx + 0.5, gy + 0.5, "grid", "point")
            if isinstance(r, list) and not r:
                clear_points += 1
    if clear_points < CLEAR_MIN_POINTS:
        failures.append("t=%g: no grid point outside every quad to check the clear colour" % T)
    log("    grid: %d points checked, %d of them outside every quad (clear colour %s)" % (
        sum(1 for c in checked if c[2] == "grid"), clear_points, clear))

    # 3. the test's power: samples that a wrong host would get wrong
    power = {}
    for v, vref in variants.items():
        hits = []
        for p, want, owner in checked:
            vwant, vamb, _ = vref.colour(p)
            if not vamb and differs(want, vwant, 3 * TOL):
                hits.append(owner)
        power[v] = hits
        by_owner = {}
        for o in hits:
            by_owner[o] = by_owner.get(o, 0) + 1
        log("    a %-10s host would fail %d checked samples (%s)" % (
            v, len(hits), ", ".join("%s %d" % kv for kv in sorted(by_owner.items(), key=lambda kv: -kv[1]))))

    # annotated picture: green = matched, red = mismatch
    if annotated_path:
        ann = img.convert("RGB")
        dr = ImageDraw.Draw(ann)
        for ix, iy, ok in draw_pts:
            dr.rectangle([ix - 1, iy - 1, ix + 1, iy + 1], outline=(0, 255, 0) if ok else (255, 0, 0))
        ann.save(annotated_path)
    return failures, power


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", default=os.path.join(here, "sdl_host"))
    ap.add_argument("--out", default=os.path.join(here, "build", "test"))
    ap.add_argument("--times", default="1.1,2.0", help="comma-separated simulated times")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--quiet", action="store_true", help="print only the verdict")
    ap.add_argument("--fast", action="store_true",
                    help="only the fixed times: skip the determinism and wall-clock runs")
    args = ap.parse_args()

    def log(msg):
        if not args.quiet:
            print(msg)

    Image, ImageDraw = load_pillow()
    if shutil.which("xvfb-run") is None:
        print("test_screenshot: xvfb-run not found (apt-get install xvfb xauth)")
        return 2
    host = os.path.abspath(args.host)
    os.makedirs(args.out, exist_ok=True)
    failures, engine_problems, run_errors = [], [], []
    power_total = {v: 0 for v in VARIANTS}
    door_power = {v: [] for v in ("transposed", "no-divide")}
    stripe_clip_power = 0

    times = [float(t) for t in args.times.split(",") if t.strip()]
    # the fixed times, then (unless --fast) one run on the wall clock: its last
    # frame is checked against its own dump in the same way
    runs = times + ([] if args.fast else [None])
    for T in runs:
        live = T is None
        tag = "live" if live else "t" + ("%g" % T).replace(".", "_")
        shot = os.path.join(args.out, "%s.bmp" % tag)
        dump = os.path.join(args.out, "%s.txt" % tag)
        log("wall clock, %d frames" % LIVE_FRAMES if live else "t = %g s" % T)
        try:
            run_host(host, T, LIVE_FRAMES if live else args.frames, shot, dump, args.quiet)
            info, items = read_dump(dump)
            img = Image.open(shot).convert("RGB")
        except (RuntimeError, ValueError, OSError, subprocess.SubprocessError) as exc:
            run_errors.append("%s: %s" % (tag, exc))
            continue
        if live:
            T = float(info["time"][0])
            log("  the last frame is at t = %.4f s" % T)
        log("  %d render items: %s" % (len(items), ", ".join(it.label for it in items)))
        f, power = check_frame(T, info, items, img, ImageDraw, os.path.join(args.out, "%s_checked.png" % tag), log)
        failures += f
        engine_problems += engine_checks(T, items)
        if live:
            continue
        for v, hits in power.items():
            power_total[v] += len(hits)
        door = [it for it in items if it.label == "door"]
        if door and abs(door[0].world[2]) > 0.1:  # m13: the door is out of the screen's plane
            for v in door_power:
                door_power[v].append(sum(1 for o in power.get(v, []) if o in ("door", "stripe", "knob")))
        stripe_clip_power += sum(1 for o in power.get("no-clip", []) if o == "stripe")

        # the final frame depends only on T: another frame count, the same render list
        if T == times[-1] and not args.fast:
            dump2 = os.path.join(args.out, "%s_k7.txt" % tag)
            try:
                run_host(host, T, 7, os.path.join(args.out, "%s_k7.bmp" % tag), dump2, True)
                _, items2 = read_dump(dump2)
                worst = 0.0
                if len(items2) != len(items):
                    failures.append("t=%g: %d items with 7 frames, %d with %d" % (T, len(items2), len(items), args.frames))
                else:
                    for a, b in zip(items, items2):
                        for fa, fb in zip(a.world + a.background + [a.world_opacity],
                                          b.world + b.background + [b.world_opacity]):
                            worst = max(worst, abs(fa - fb))
                    if worst > 1e-3:
                        failures.append("t=%g: the render list depends on the frame count (max diff %g)" % (T, worst))
                log("  deterministic: 7 frames and %d frames give the same render list (max diff %.3g)" % (args.frames, worst))
            except (RuntimeError, ValueError, OSError, subprocess.SubprocessError) as exc:
                run_errors.append("t=%g (7 frames): %s" % (T, exc))

    # the test must be able to see a wrong host
    for v in ("transposed", "no-divide"):
        if not door_power[v]:
            failures.append("test too weak: the door is flat at every time tested; test a time when it "
                            "is open (e.g. 1.1 or 2.0)")
            break
        if min(door_power[v]) < 1:
            failures.append("test too weak: at some time with the door open, no checked door sample "
                            "would catch a %s host (%s)" % (v, door_power[v]))
    if power_total["no-clip"] < 1:
        failures.append("test too weak: no checked sample would catch a host that ignores masks")
    if stripe_clip_power < 1:
        failures.append("test too weak: no checked sample of the door's stripe would catch a host that "
                        "ignores a mask that is not an axis-aligned rectangle")

    if args.quiet:
        if run_errors:
            print("test_screenshot: could not run the host: %s" % run_errors[0])
        elif failures:
            print("test_screenshot: FAILED (%d problems, e.g. %s)" % (len(failures), failures[0]))
        return 3 if run_errors else 1 if failures else 4 if engine_problems else 0
    for p in engine_problems:
        print("ENGINE: " + p)
    if failures or run_errors:
        for f in (run_errors + failures)[:40]:
            print("FAIL: " + f)
        if len(failures) + len(run_errors) > 40:
            print("FAIL: ... and %d more" % (len(failures) + len(run_errors) - 40))
        print("test_screenshot: FAILED (%d problems; pictures in %s)" % (len(failures) + len(run_errors), args.out))
        return 3 if run_errors else 1
    if engine_problems:
        print("test_screenshot: the drawing matches, but the engine output looks wrong (above)")
        return 4
    print("test_screenshot: ok (%d fixed times%s; pictures and dumps in %s)" % (
        len(times), "" if args.fast else " and the wall clock", args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
