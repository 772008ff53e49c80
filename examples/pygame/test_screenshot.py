"""The pygame host draws what the render list says.

Runs examples/pygame/host.py headless (SDL_VIDEODRIVER=dummy) at a fixed
simulated time with --screenshot and --dump, then checks the picture against
the dumped render list of that same frame with an independent reference
written from the conventions (SEMANTICS.md §2.2: [x y 0 1] * world, divide by
w; API.md: items depth-first, world_opacity, masks-to-bounds clipping):

* points well inside each layer's projected quad (a 9 x 9 grid of its bounds,
  projected here) show the colour the reference composes there: the layer's
  background (or card picture) unless a later item covers it, blended by
  world_opacity, clipped by masking ancestors;
* a 16-pixel grid over the window matches the reference too; points outside
  every quad show the clear colour;
* points within 3 px of any edge are skipped (rasterisation rules differ).

The checker must see a wrong host: the host run with a transposed matrix or
without the perspective divide (hidden --mutate option) must fail it, on the
door, which is open at an angle under perspective.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HOST = os.path.join(HERE, "host.py")
sys.path.insert(0, HERE)

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")
from PIL import Image  # noqa: E402

MARGIN = 3.0     # px: skip points this close to an edge
TOL = 4          # per channel, 0..255


def run_host(tmp, t: float, frames: int = 30, mutate: str = "", tag: str = "") -> Tuple[str, str]:
    shot = os.path.join(str(tmp), f"shot{tag}.png")
    dump = os.path.join(str(tmp), f"shot{tag}.json")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    cmd = [sys.executable, HOST, "--time", str(t), "--frames", str(frames), "--screenshot", shot, "--dump", dump]
    if mutate:
        cmd += ["--mutate", mutate]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return shot, dump


# ---- the reference ---------------------------------------------------------------

def project(world, pts) -> Tuple[np.ndarray, np.ndarray]:
    """[x y 0 1] * world (row vectors, m41/m42 translation), divided by w."""
    m = np.asarray(world, dtype=np.float64).reshape(4, 4)
    out, ws = [], []
    for x, y in pts:
        X = x * m[0, 0] + y * m[1, 0] + m[3, 0]
        Y = x * m[0, 1] + y * m[1, 1] + m[3, 1]
        W = x * m[0, 3] + y * m[1, 3] + m[3, 3]
        out.append((X / W, Y / W))
        ws.append(W)
    return np.array(out), np.array(ws)


def corners(b) -> List[Tuple[float, float]]:
    x, y, w, h = b
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def edge_distance(poly: np.ndarray, p) -> Tuple[bool, float]:
    """(inside, distance to the nearest edge) for a convex or simple polygon."""
    inside = False
    n = len(poly)
    dmin = math.inf
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        if (a[1] > p[1]) != (b[1] > p[1]):
            xs = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < xs:
                inside = not inside
        ab = b - a
        L = float(ab @ ab)
        u = 0.0 if L == 0 else max(0.0, min(1.0, float((np.asarray(p) - a) @ ab) / L))
        dmin = min(dmin, float(np.hypot(*(np.asarray(p) - (a + u * ab)))))
    return inside, dmin


class Reference:
    """The colour a correct host shows at a point, from the dump alone (None = too close to an edge)."""

    def __init__(self, dump: Dict, host) -> None:
        self.items = dump["items"]
        self.clear = tuple(dump["clear"])
        self.host = host
        self.ops: List[Tuple[str, int, np.ndarray, Tuple[int, int, int], float]] = []
        self.quads: Dict[int, Optional[np.ndarray]] = {}
        n = len(self.items)
        self.children: List[List[int]] = [[] for _ in range(n)]
        roots = []
        for i, it in enumerate(self.items):
            q, w = project(it["world"], corners(it["bounds"]))
            self.quads[i] = q if np.all(w > 1e-6) else None
            p = it["parent"]
            (self.children[p] if 0 <= p < i else roots).append(i)
        self.clips: Dict[int, List[np.ndarray]] = {}
        for r in roots:
            self._ops(r, [])

    def _ops(self, i: int, clip: List[np.ndarray]) -> None:
        it = self.items[i]
        q = self.quads[i]
        self.clips[i] = clip
        op = it["world_opacity"]
        x, y, w, h = it["bounds"]
        visible = q is not None and w > 0 and h > 0
        if visible and not it["flags"] & self.host.DOUBLE_SIDED:
            area = sum(q[k][0] * q[(k + 1) % 4][1] - q[(k + 1) % 4][0] * q[k][1] for k in range(4))
            visible = area > 0
        if visible:
            bg = it["background_color"]
            if bg[3] > 0:
                self.ops.append(("fill", i, q, tuple(int(round(c * 255)) for c in bg[:3]), bg[3] * op, clip))
            cid = it["contents"]
            if cid == self.host.SHIP:
                poly, _ = project(it["world"], [(x + u * w, y + v * h) for u, v in self.host.SHIP_POLYGON])
                self.ops.append(("ship", i, poly, self.host.SHIP_COLOUR, op, clip))
            elif cid in self.host.CARD_COLOURS:
                self.ops.append(("card", i, q, self.host.CARD_COLOURS[cid], op, clip))
                lx0, ly0, lx1, ly1 = self.host.LABEL_BOX
                lab, _ = project(it["world"], corners((x + lx0 * w, y + ly0 * h, (lx1 - lx0) * w, (ly1 - ly0) * h)))
                self.ops.append(("label", i, lab, (0, 0, 0), 0.0, clip))
        child_clip = clip + [q] if (it["flags"] & self.host.MASKS_TO_BOUNDS and q is not None) else clip
        for c in self.children[i]:
            self._ops(c, child_clip)
        bw = it["border_width"]
        if visible and bw > 0:
            bc = it["border_color"]
            bw = min(bw, w / 2, h / 2)
            inner, _ = project(it["world"], corners((x + bw, y + bw, w - 2 * bw, h - 2 * bw)))
            self.ops.append(("border", i, q, tuple(int(round(c * 255)) for c in bc[:3]), bc[3] * op, clip,
                             inner))

    def colour(self, p) -> Optional[Tuple[Tuple[float, float, float], int]]:
        """(expected rgb, index of the topmost item painting there or -1), or None if undecidable."""
        col = np.array(self.clear, dtype=np.float64)
        top = -1
        for op in self.ops:
            kind, i, poly, rgb, alpha, clip = op[:6]
            inside, d = edge_distance(poly, p)
            if d < MARGIN:
                return None
            if not inside:
                continue
            if kind == "border":
                inside_inner, d2 = edge_distance(op[6], p)
                if d2 < MARGIN:
                    return None
                if inside_inner:
                    continue
            clipped = False
            for c in clip:
                ins, dc = edge_distance(c, p)
                if dc < MARGIN:
                    return None
                clipped = clipped or not ins
            if clipped:
                continue
            if kind == "label":
                return None       # the card's number is drawn here
            col = col + (np.array(rgb, dtype=np.float64) - col) * alpha
            top = i
        return tuple(col), top


def check(shot: str, dump_path: str):
    import host

    with open(dump_path) as fh:
        dump = json.load(fh)
    img = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    H, W = img.shape[:2]
    ref = Reference(dump, host)
    samples = []
    # per layer: a 9 x 9 grid of its bounds, projected
    for i, it in enumerate(dump["items"]):
        x, y, w, h = it["bounds"]
        if w <= 0 or h <= 0 or ref.quads[i] is None:
            continue
        grid = [(x + w * u, y + h * v) for u in np.linspace(0.1, 0.9, 9) for v in np.linspace(0.1, 0.9, 9)]
        pts, _ = project(it["world"], grid)
        samples += [(i, tuple(p)) for p in pts]
    # the whole window
    samples += [(-1, (float(px), float(py))) for px in range(8, W, 16) for py in range(8, H, 16)]
    results = []
    for owner, p in samples:
        if not (0 <= p[0] < W and 0 <= p[1] < H):
            continue
        exp = ref.colour(p)
        if exp is None:
            continue
        rgb, top = exp
        got = img[int(p[1]), int(p[0])]
        ok = all(abs(int(g) - int(round(e))) <= TOL for g, e in zip(got, rgb))
        results.append({"owner": owner, "top": top, "p": p, "expected": [round(v) for v in rgb],
                        "got": got.tolist(), "ok": ok})
    return dump, results


def layer_index(dump, predicate) -> List[int]:
    return [i for i, it in enumerate(dump["items"]) if predicate(it)]


def door_indices(dump) -> List[int]:
    """The door: the 128 x 256 layer whose world matrix has perspective terms."""
    return layer_index(dump, lambda it: list(it["bounds"][2:]) == [128, 256] and
                       abs(it["world"][3]) + abs(it["world"][7]) > 1e-5)


# ---- tests -------------------------------------------------------------------------

@pytest.mark.parametrize("t", [1.0, 2.9])
def test_screenshot_matches_render_list(tmp_path, t):
    shot, dump_path = run_host(tmp_path, t)
    dump, results = check(shot, dump_path)
    bad = [r for r in results if not r["ok"]]
    assert not bad, f"{len(bad)} of {len(results)} points differ, e.g. {bad[:5]}"
    assert len(results) > 500
    # the door is open at an angle under perspective and is checked on many points
    doors = door_indices(dump)
    assert len(doors) == 1, "the door should be one item with perspective in its world matrix"
    d = doors[0]
    _, w = project(dump["items"][d]["world"], corners(dump["items"][d]["bounds"]))
    assert w.max() - w.min() > 0.1, f"the door's corners should have different w, got {w}"
    assert sum(1 for r in results if r["top"] == d) >= 20
    # points outside every quad show the clear colour
    clear = [r for r in results if r["top"] == -1]
    assert len(clear) > 100 and all(r["got"] == list(dump["clear"]) for r in clear)
    # the push transition is running: a clip container with two pictures
    flags = [it["flags"] for it in dump["items"]]
    assert any(f & 16 for f in flags) and any(f & 4 for f in flags) and any(f & 8 for f in flags)


@pytest.mark.parametrize("mutate", ["transpose", "nodivide"])
def test_checker_catches_a_wrong_host(tmp_path, mutate):
    shot, dump_path = run_host(tmp_path, 1.0, mutate=mutate, tag=mutate)
    dump, results = check(shot, dump_path)
    d = door_indices(dump)[0]
    door_bad = [r for r in results if not r["ok"] and r["top"] == d]
    assert len(door_bad) >= 5, f"a host drawing with mutation {mutate!r} should fail on the door"


def test_fixed_time_is_deterministic(tmp_path):
    _, d1 = run_host(tmp_path, 2.9, frames=7, tag="a")
    _, d2 = run_host(tmp_path, 2.9, frames=30, tag="b")
    with open(d1) as f1, open(d2) as f2:
        a, b = json.load(f1), json.load(f2)
    assert len(a["items"]) == len(b["items"])
    for x, y in zip(a["items"], b["items"]):
        assert x["flags"] == y["flags"] and x["contents"] == y["contents"]
        assert np.allclose(x["world"], y["world"], atol=1e-3)
