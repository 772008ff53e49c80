"""Procedural pictures for the demo's ``contents`` ids (no image files needed).

Cadence only carries a host-chosen 64-bit ``contents`` id per layer; the host
decides what it means. Here an id maps to a Pillow image drawn in code.
"""
from __future__ import annotations

import math
import os
from functools import lru_cache
from typing import Optional

from PIL import Image, ImageDraw, ImageFont

__all__ = ["font", "ship", "petal", "card", "SHIP", "PETAL", "CARD_BASE", "contents_image"]

SHIP = 100          # contents id of the spaceship picture
PETAL = 200         # contents id of the petal picture
CARD_BASE = 300     # contents ids 301, 302, ... are numbered cards

_CARD_COLOURS = [(231, 76, 60), (46, 134, 222), (39, 174, 96), (243, 156, 18), (142, 68, 173), (22, 160, 133)]


@lru_cache(maxsize=None)
def _font_path(bold: bool) -> Optional[str]:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    candidates = []
    try:  # matplotlib ships DejaVu Sans; find it without importing matplotlib (slow)
        import importlib.util

        spec = importlib.util.find_spec("matplotlib")
        if spec is not None and spec.origin:
            candidates.append(os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf", name))
    except Exception:
        pass
    candidates.append(os.path.join("/usr/share/fonts/truetype/dejavu", name))
    for p in candidates:
        if os.path.exists(p):
            return p
    return None


@lru_cache(maxsize=None)
def font(size: int, bold: bool = False) -> ImageFont.ImageFont:
    """DejaVu Sans (shipped with matplotlib) or Pillow's default font, at ``size`` px."""
    p = _font_path(bold)
    if p is not None:
        return ImageFont.truetype(p, size)
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def ship(size: int = 128) -> Image.Image:
    """A small rocket pointing along +x (so rotationMode auto turns it along the path)."""
    s = size / 128.0
    im = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)

    def P(*pts):
        return [(x * s, y * s) for x, y in pts]

    d.polygon(P((8, 52), (28, 56), (28, 72), (8, 76), (18, 64)), fill=(255, 170, 40, 255))      # flame
    d.polygon(P((14, 58), (28, 60), (28, 68), (14, 70), (20, 64)), fill=(255, 240, 120, 255))
    d.polygon(P((36, 40), (24, 22), (52, 40)), fill=(214, 48, 49, 255))                          # fins
    d.polygon(P((36, 88), (24, 106), (52, 88)), fill=(214, 48, 49, 255))
    d.ellipse(P((26, 40), (104, 88)), fill=(236, 240, 241, 255), outline=(99, 110, 114, 255), width=max(1, int(2 * s)))
    d.polygon(P((92, 46), (122, 64), (92, 82)), fill=(214, 48, 49, 255))                          # nose
    d.ellipse(P((62, 54), (82, 74)), fill=(9, 132, 227, 255), outline=(45, 52, 54, 255), width=max(1, int(2 * s)))
    return im


def petal(w: int = 96, h: int = 56) -> Image.Image:
    """A pink petal (an almond shape with a vein)."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    pts = []
    for i in range(64):
        t = 2 * math.pi * i / 64
        x = 0.5 + 0.48 * math.cos(t)
        y = 0.5 + 0.46 * math.sin(t) * (0.55 + 0.45 * math.cos(t))  # fatter toward +x
        pts.append((x * w, y * h))
    d.polygon(pts, fill=(255, 143, 177, 255), outline=(214, 92, 132, 255))
    d.line([(0.08 * w, 0.5 * h), (0.9 * w, 0.5 * h)], fill=(214, 92, 132, 255), width=2)
    return im


def card(n: int, w: int = 240, h: int = 320) -> Image.Image:
    """A coloured card with a big number ``n`` and a few shapes."""
    base = _CARD_COLOURS[(n - 1) % len(_CARD_COLOURS)]
    im = Image.new("RGBA", (w, h), base + (255,))
    d = ImageDraw.Draw(im)
    light = tuple(min(255, c + 60) for c in base)
    dark = tuple(max(0, c - 60) for c in base)
    for k in range(6):  # diagonal stripes
        x = -h + k * (w + h) // 5
        d.polygon([(x, h), (x + 40, h), (x + 40 + h, 0), (x + h, 0)], fill=light + (255,))
    d.ellipse((w * 0.18, h * 0.22, w * 0.82, h * 0.7), fill=(255, 255, 255, 255), outline=dark + (255,), width=6)
    f = font(int(h * 0.3), bold=True)
    d.text((w / 2, h * 0.46), str(n), font=f, fill=dark + (255,), anchor="mm")
    f2 = font(int(h * 0.075), bold=True)
    d.text((w / 2, h * 0.86), f"picture {n}", font=f2, fill=(255, 255, 255, 255), anchor="mm")
    return im


def contents_image(cid: int) -> Optional[Image.Image]:
    """The picture of a contents id (None for unknown ids)."""
    if cid == SHIP:
        return ship()
    if cid == PETAL:
        return petal()
    if CARD_BASE < cid < CARD_BASE + 100:
        return card(cid - CARD_BASE)
    return None

