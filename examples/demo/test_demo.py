"""Tests of the demo: the whole pipeline runs, and the rasterizer draws where the maths says.

The rasterizer tests build render items by hand (no engine) with known world
matrices and check pixels against positions computed here from the
convention [x y 0 1] * M, divided by w.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import raster  # noqa: E402

RED = (1.0, 0.0, 0.0, 1.0)
CLEAR = (0.0, 0.0, 0.0, 1.0)


def item(world, bounds, bg=RED, parent=-1, flags=raster.ITEM_DOUBLE_SIDED, opacity=1.0, **extra):
    d = dict(parent=parent, flags=flags, world=np.asarray(world, dtype=np.float64).ravel(), bounds=bounds,
             world_opacity=opacity, background_color=bg, border_color=(0, 0, 0, 1), border_width=0.0,
             corner_radius=0.0, contents=0, contents_rect=(0, 0, 1, 1), shadow_opacity=0.0,
             shadow_color=(0, 0, 0, 1), shadow_radius=3.0, shadow_offset=(0, -3))
    d.update(extra)
    return d


def render(items, size=(200, 160), **kw):
    return np.asarray(raster.Rasterizer(size, clear=CLEAR, **kw).render(items)).astype(int)


def is_red(img, x, y):
    """Pixel (x, y) (pixel centre x+0.5, y+0.5) is the layer's red."""
    return tuple(img[y, x]) == (255, 0, 0)


def is_clear(img, x, y):
    return tuple(img[y, x]) == (0, 0, 0)


def rows(*r):
    return np.array(r, dtype=np.float64)


# ---- rasterizer ----------------------------------------------------------------------

def test_translation():
    # bounds (0, 0, 40, 20), translation (30, 50): covers x in [30, 70), y in [50, 70)
    M = rows([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [30, 50, 0, 1])
    img = render([item(M, (0, 0, 40, 20))])
    for x, y in [(30, 50), (69, 69), (50, 60)]:
        assert is_red(img, x, y)
    for x, y in [(29, 60), (70, 60), (50, 49), (50, 70)]:
        assert is_clear(img, x, y)
    assert (img[..., 0] > 0).sum() == 40 * 20


def test_bounds_origin_and_scale():
    # bounds origin (10, 10) is the layer's top-left; scale 2 x 0.5 then translate (20, 30):
    # x' = 2 x + 20, y' = 0.5 y + 30, for x in [10, 60), y in [10, 50) -> x' in [40, 140), y' in [35, 55)
    M = rows([2, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1, 0], [20, 30, 0, 1])
    img = render([item(M, (10, 10, 50, 40))])
    assert is_red(img, 40, 35) and is_red(img, 139, 54) and is_red(img, 90, 45)
    assert is_clear(img, 39, 45) and is_clear(img, 140, 45) and is_clear(img, 90, 34) and is_clear(img, 90, 55)


def test_z_rotation():
    # rotation by +30 degrees about z (row vectors: [x y] * [[c, s], [-s, c]]), then translate (100, 40)
    a = math.radians(30)
    c, s = math.cos(a), math.sin(a)
    M = rows([c, s, 0, 0], [-s, c, 0, 0], [0, 0, 1, 0], [100, 40, 0, 1])
    img = render([item(M, (0, 0, 80, 20))])

    def to_screen(x, y):
        return 100 + x * c - y * s, 40 + x * s + y * c

    # the far end of the long edge lies down and to the right (y grows downward)
    for lx, ly in [(5, 10), (40, 10), (75, 10), (70, 3), (70, 17)]:
        X, Y = to_screen(lx, ly)
        assert is_red(img, int(X), int(Y)), (lx, ly, X, Y)
    for lx, ly in [(40, -8), (40, 28), (-8, 10), (88, 10)]:
        X, Y = to_screen(lx, ly)
        assert is_clear(img, int(X), int(Y)), (lx, ly, X, Y)
    # a transposed matrix would turn the other way: that point is clear
    X, Y = 100 + 75 * c + 10 * s, 40 - 75 * s + 10 * c
    assert is_clear(img, int(X), int(Y))


def test_perspective_divide():
    # m14 = 0.002 (w = 1 + 0.002 x): screen = (x / w, y / w) for bounds (0, 0, 200, 100), shifted by (20, 20)
    M = rows([1, 0, 0, 0.002], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1])
    img = render([item(M, (0, 0, 200, 100))], size=(200, 160), origin=(20, 20))  # origin: + (20, 20) on screen

    def to_screen(x, y):
        w = 1 + 0.002 * x
        return 20 + x / w, 20 + y / w

    # the right edge (x = 200) lands at 20 + 200/1.4 = 162.9 and is 100/1.4 = 71.4 tall
    for lx, ly in [(10, 50), (190, 10), (190, 90), (100, 95)]:
        X, Y = to_screen(lx, ly)
        assert is_red(img, int(X), int(Y)), (lx, ly, X, Y)
    assert is_clear(img, 20 + 170, 60)           # beyond the projected right edge (162.9)
    assert is_clear(img, 20 + 140, 20 + 80)      # below the projected bottom edge there (y = 100 w)
    # without the divide this point would be inside (x = 120 < 200, y = 90 < 100): it must be clear,
    # since at screen x = 120 the layer's x is 120 / (1 - 0.24) = 157.9, w = 1.316, bottom at y = 76
    assert is_clear(img, 20 + 120, 20 + 90)
    assert is_red(img, 20 + 120, 20 + 70)


def test_opacity_and_clipping():
    ident = np.eye(4)
    parent = item(ident, (40, 40, 60, 60), bg=(0, 0, 1, 1), flags=raster.ITEM_MASKS_TO_BOUNDS | raster.ITEM_DOUBLE_SIDED)
    child = item(ident, (20, 60, 120, 20), bg=(1, 1, 1, 1), parent=0, opacity=0.5)
    img = render([parent, child])
    assert tuple(img[70, 70]) == (128, 128, 255)   # half white over blue
    assert is_clear(img, 30, 70) and is_clear(img, 110, 70)  # the child is clipped to the parent


def test_back_face_culling():
    # a y rotation of 180 degrees shows the back: drawn only with DOUBLE_SIDED
    M = rows([-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, -1, 0], [120, 20, 0, 1])
    assert is_red(render([item(M, (0, 0, 80, 40))]), 80, 40)
    assert is_clear(render([item(M, (0, 0, 80, 40), flags=0)]), 80, 40)


def test_contents_image_mapped_to_the_quad():
    pic = Image.new("RGBA", (20, 20), (0, 255, 0, 255))
    pic.paste((0, 0, 255, 255), (10, 0, 20, 20))   # left half green, right half blue
    M = rows([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [20, 20, 0, 1])
    img = render([item(M, (0, 0, 100, 50), bg=(0, 0, 0, 0), contents=7)], contents={7: pic})
    assert tuple(img[45, 40]) == (0, 255, 0) and tuple(img[45, 100]) == (0, 0, 255)
    # contentsRect (0.5, 0, 0.5, 1) shows only the right half
    img = render([item(M, (0, 0, 100, 50), bg=(0, 0, 0, 0), contents=7, contents_rect=(0.5, 0, 0.5, 1))],
                 contents={7: pic})
    assert tuple(img[45, 40]) == (0, 0, 255)


# ---- the engine through the rasterizer --------------------------------------------------

def test_engine_door_pixels_match_projection():
    cadence = pytest.importorskip("cadence")
    from cadence import Animation

    with cadence.Engine() as e:
        root = e.create_layer(bounds=(0, 0, 200, 200), position=(100, 100))
        root["sublayerTransform.m34"] = -1.0 / 500
        door = e.create_layer(bounds=(0, 0, 64, 128), position=(60, 100), anchor_point=(0, 0.5),
                              background_color=RED)
        root.add_sublayer(door)
        e.tick(0)
        door.add_animation(Animation.basic(e, "transform.rotation.y", from_=-1.0, to=-1.0, duration=10), "open")
        e.tick(1)
        items = e.render_list(root, copy=True)
    img = render(items, size=(200, 200))
    q, w = raster.quad(items[1]["bounds"], items[1]["world"])
    assert w.max() - w.min() > 0.05        # a real perspective case
    centre = q.mean(axis=0)
    assert is_red(img, int(centre[0]), int(centre[1]))
    # the free edge is nearer the eye: taller on screen than the hinge
    assert abs(q[2, 1] - q[1, 1]) > abs(q[3, 1] - q[0, 1])


# ---- the demo end to end -------------------------------------------------------------------

def test_demo_runs_and_writes_gif_and_frames(tmp_path):
    pytest.importorskip("cadence")
    out = tmp_path / "demo"
    r = subprocess.run([sys.executable, os.path.join(HERE, "demo.py"), "--seconds", "0.5", "--out", str(out),
                        "--every", "5"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "demo.gif" in r.stdout
    gif = Image.open(out / "demo.gif")
    assert gif.n_frames == 5 * 15                      # 5 scenes x 0.5 s x 30 fps
    assert gif.size[0] == 480
    frames = sorted(os.listdir(out / "frames"))
    assert len(frames) == 5 * 3                        # frames 0, 5, 10 of each scene
    for name in frames:
        im = np.asarray(Image.open(out / "frames" / name).convert("RGB"))
        assert len(np.unique(im.reshape(-1, 3), axis=0)) > 20, f"{name} looks empty"
    # the animation moves: the first and last frame of a scene differ
    a = np.asarray(Image.open(out / "frames" / "spaceship_0000.png").convert("RGB")).astype(int)
    b = np.asarray(Image.open(out / "frames" / "spaceship_0010.png").convert("RGB")).astype(int)
    assert np.abs(a - b).sum() > 10000
    for key in ("spaceship", "door", "petal", "colours", "switcher"):
        assert (out / f"{key}.gif").exists() and (out / "stills" / f"{key}.png").exists()
