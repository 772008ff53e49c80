"""A small reference rasterizer for Cadence render lists (Pillow + numpy).

Cadence computes, the host draws. This module is such a host, written from the
render-list conventions alone (SEMANTICS.md §2.2, API.md "Frame output",
docs/decisions.md "Render list"):

* every item is its ``bounds`` rectangle placed by its ``world`` matrix: a
  bounds point (x, y) is the row vector [x y 0 1] multiplied on the left,
  ``[X Y Z W] = [x y 0 1] * world`` (``world`` is m11 ... m44, translation in
  m41 m42), and lands on screen at (X / W, Y / W) (the perspective divide);
  screen pixels have y growing downward, as in Cadence;
* because the bounds lie in the plane z = 0, the map bounds -> screen is the
  2D projective map (homography) with rows (m11 m12 m14), (m21 m22 m24),
  (m41 m42 m44); the rasterizer inverts it and lets Pillow's
  ``Image.transform(..., Image.PERSPECTIVE)`` pull each screen pixel from a
  texture of the layer drawn in its own bounds space (perspective correct);
* the texture holds ``background_color`` (straight alpha), the contents image
  (``contents`` id -> a host picture, cropped by ``contents_rect``, stretched to
  the bounds like kCAGravityResize), and the border (``border_width`` inside the
  bounds, ``border_color``), with ``corner_radius`` rounding all three;
* the item is blended over the canvas with its alpha times ``world_opacity``;
* an item flagged ``CAD_ITEM_MASKS_TO_BOUNDS`` (a masking layer, or the clip
  container of a running transition) clips its descendants (items whose
  ``parent`` chain reaches it) to its projected (rounded) bounds;
* a back-facing item without ``CAD_ITEM_DOUBLE_SIDED`` is not drawn (its
  descendants are);
* ``shadow_opacity`` > 0 draws a blurred, offset copy of the item's shape in
  ``shadow_color`` below it (an approximation: offset and blur in screen space;
  none for items that mask to their bounds, as in Core Animation).

Items with a corner behind the eye (W <= 0) are skipped (no near-plane clipping).
"""
from __future__ import annotations

import math
from typing import Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

__all__ = ["Rasterizer", "project", "homography", "quad", "ITEM_MASKS_TO_BOUNDS", "ITEM_DOUBLE_SIDED",
           "ITEM_TRANSITION_OUTGOING", "ITEM_TRANSITION_INCOMING", "ITEM_TRANSITION_CLIP"]

# CAD_ITEM_* flags (include/cadence.h); kept here so the rasterizer needs no library.
ITEM_MASKS_TO_BOUNDS = 1
ITEM_DOUBLE_SIDED = 2
ITEM_TRANSITION_OUTGOING = 4
ITEM_TRANSITION_INCOMING = 8
ITEM_TRANSITION_CLIP = 16

Color = Tuple[float, float, float, float]
ContentsProvider = Union[Mapping[int, Image.Image], Callable[[int], Optional[Image.Image]]]

_PAD = 2          # transparent texels around every texture: bilinear sampling then anti-aliases the edges
_MAX_TEX = 2048   # largest texture side
_W_EPS = 1e-6


def _field(item, name):
    """Reads a field from a numpy record, a ctypes cad_render_item or a dict."""
    try:
        return item[name]
    except (TypeError, KeyError, IndexError, ValueError):
        return getattr(item, name)


def homography(world: Sequence[float]) -> np.ndarray:
    """The 3x3 row-vector homography of the plane z = 0: ``[x y 1] @ H = [X Y W]``."""
    m = np.asarray(world, dtype=np.float64).reshape(4, 4)
    return m[np.ix_([0, 1, 3], [0, 1, 3])]


def project(world: Sequence[float], pts: Sequence[Sequence[float]]) -> Tuple[np.ndarray, np.ndarray]:
    """Projects bounds-space points (n x 2) by ``world``: returns (screen points n x 2, w n)."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    h = np.hstack([p, np.ones((len(p), 1))]) @ homography(world)
    w = h[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        xy = h[:, :2] / w[:, None]
    return xy, w


def quad(bounds: Sequence[float], world: Sequence[float]) -> Tuple[np.ndarray, np.ndarray]:
    """The projected corners (x,y), (x+w,y), (x+w,y+h), (x,y+h) of ``bounds``, and their w."""
    x, y, w, h = (float(v) for v in bounds)
    return project(world, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


def _record_key(item) -> Optional[bytes]:
    """A cache key for an item: its bytes after ``layer`` and ``parent`` (numpy records only)."""
    if isinstance(item, np.void):
        return item.tobytes()[12:]  # everything after layer (8 bytes) and parent (4 bytes)
    return None


def _signed_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _to8(c: Sequence[float]) -> Tuple[int, int, int, int]:
    return tuple(int(round(max(0.0, min(1.0, float(v))) * 255)) for v in c)  # type: ignore[return-value]


class Rasterizer:
    """Draws render lists into RGB images.

    ``size``: (width, height) in pixels; ``clear``: the clear colour (RGBA floats
    0..1, alpha ignored); ``contents``: maps a contents id to a PIL image (a dict
    or a callable; unknown ids draw nothing); ``origin``: the screen point of the
    root space's (0, 0) (a translation applied after the projection).
    """

    def __init__(self, size: Tuple[int, int], clear: Color = (0, 0, 0, 1),
                 contents: Optional[ContentsProvider] = None, origin: Tuple[float, float] = (0.0, 0.0)) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.clear = clear
        self._contents = contents
        self.origin = origin
        self._tex_cache: Dict[tuple, Image.Image] = {}
        self._img_cache: Dict[int, Optional[Image.Image]] = {}
        # what an item puts on screen, per item record (minus its layer handle and parent index):
        # a layer that did not change since an earlier frame costs one blend
        self._cache: Dict[bytes, tuple] = {}
        #: statistics of the last render: items drawn, back-facing, behind the eye, empty
        self.stats: Dict[str, int] = {}

    # ---- contents -----------------------------------------------------------

    def _image(self, cid: int) -> Optional[Image.Image]:
        if cid == 0 or self._contents is None:
            return None
        if cid not in self._img_cache:
            src = self._contents
            img = src(cid) if callable(src) else src.get(cid)  # type: ignore[union-attr]
            self._img_cache[cid] = None if img is None else img.convert("RGBA")
        return self._img_cache[cid]

    # ---- textures -------------------------------------------------------------

    def _texture(self, bw: float, bh: float, sx: float, sy: float, bg: Color, border: Color, border_width: float,
                 radius: float, cid: int, crect: Tuple[float, ...], masks: bool, shape_only: bool = False) -> Image.Image:
        key = (round(bw, 3), round(bh, 3), sx, sy, _to8(bg), _to8(border), round(border_width, 3),
               round(radius, 3), cid, tuple(round(v, 4) for v in crect), masks, shape_only)
        tex = self._tex_cache.get(key)
        if tex is not None:
            return tex
        tw = max(1, int(math.ceil(bw * sx)))
        th = max(1, int(math.ceil(bh * sy)))
        r = max(0.0, min(radius, bw / 2, bh / 2)) * min(sx, sy)
        W, H = tw + 2 * _PAD, th + 2 * _PAD
        box = (_PAD, _PAD, _PAD + tw - 1, _PAD + th - 1)
        shape = Image.new("L", (W, H), 0)
        sd = ImageDraw.Draw(shape)
        if r >= 0.5:
            sd.rounded_rectangle(box, radius=r, fill=255)
        else:
            sd.rectangle(box, fill=255)
        if shape_only:
            tex = Image.merge("RGBA", (shape, shape, shape, shape))
        else:
            tex = Image.new("RGBA", (W, H), (0, 0, 0, 0))
            if bg[3] > 0:
                fill = Image.new("RGBA", (W, H), _to8(bg))
                tex = Image.composite(fill, tex, shape)
            img = self._image(cid)
            if img is not None:
                cx, cy, cw, ch = crect
                iw, ih = img.size
                crop = img.crop((int(round(cx * iw)), int(round(cy * ih)),
                                 int(round((cx + cw) * iw)), int(round((cy + ch) * ih))))
                if crop.size[0] > 0 and crop.size[1] > 0:
                    pic = crop.resize((tw, th), Image.LANCZOS)
                    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
                    layer.paste(pic, (_PAD, _PAD))
                    if masks and r >= 0.5:  # contents are clipped to the rounded corners only by masksToBounds
                        a = np.asarray(layer, dtype=np.float32)
                        a[..., 3] *= np.asarray(shape, dtype=np.float32) / 255.0
                        layer = Image.fromarray(a.astype(np.uint8), "RGBA")
                    tex = Image.alpha_composite(tex, layer)
            if border_width > 0 and border[3] > 0:
                bwpx = border_width * min(sx, sy)
                ring = Image.new("L", (W, H), 0)
                rd = ImageDraw.Draw(ring)
                if r >= 0.5:
                    rd.rounded_rectangle(box, radius=r, fill=255)
                else:
                    rd.rectangle(box, fill=255)
                inner = (box[0] + bwpx, box[1] + bwpx, box[2] - bwpx, box[3] - bwpx)
                if inner[2] > inner[0] and inner[3] > inner[1]:
                    ri = max(0.0, r - bwpx)
                    if ri >= 0.5:
                        rd.rounded_rectangle(inner, radius=ri, fill=0)
                    else:
                        rd.rectangle(inner, fill=0)
                col = Image.new("RGBA", (W, H), _to8(border))
                a = np.asarray(col, dtype=np.float32).copy()
                a[..., 3] *= np.asarray(ring, dtype=np.float32) / 255.0
                tex = Image.alpha_composite(tex, Image.fromarray(a.astype(np.uint8), "RGBA"))
        if len(self._tex_cache) > 512:
            self._tex_cache.clear()
        self._tex_cache[key] = tex
        return tex

    # ---- warping ------------------------------------------------------------------

    def _warp(self, tex: Image.Image, bounds: Sequence[float], sx: float, sy: float, world: Sequence[float],
              box: Tuple[int, int, int, int]) -> Optional[np.ndarray]:
        """Pulls ``tex`` onto the screen box (x0, y0, x1, y1): returns float32 RGBA (h x w x 4) or None."""
        x0, y0, x1, y1 = box
        bx, by = float(bounds[0]), float(bounds[1])
        Ht = homography(world).T  # column form: [X Y W]^T = Ht [x y 1]^T
        ox, oy = self.origin
        try:
            inv = np.linalg.inv(Ht)
        except np.linalg.LinAlgError:
            return None
        A = np.array([[sx, 0.0, _PAD - bx * sx], [0.0, sy, _PAD - by * sy], [0.0, 0.0, 1.0]])
        C = np.array([[1.0, 0.0, x0 - ox], [0.0, 1.0, y0 - oy], [0.0, 0.0, 1.0]])
        G = A @ inv @ C
        if abs(G[2, 2]) < 1e-12:
            return None
        G = G / G[2, 2]
        coeffs = (G[0, 0], G[0, 1], G[0, 2], G[1, 0], G[1, 1], G[1, 2], G[2, 0], G[2, 1])
        out = tex.transform((x1 - x0, y1 - y0), Image.PERSPECTIVE, coeffs, Image.BILINEAR)
        return np.asarray(out, dtype=np.float32) / 255.0

    # ---- frame ----------------------------------------------------------------------

    def render(self, items, image: Optional[Image.Image] = None) -> Image.Image:
        """Draws a render list (numpy structured array, list of ctypes items or dicts)
        over ``image`` (or a new image cleared to the clear colour); returns an RGB image."""
        Wc, Hc = self.size
        if image is None:
            canvas = np.empty((Hc, Wc, 3), dtype=np.float32)
            canvas[:] = np.asarray(self.clear[:3], dtype=np.float32)
        else:
            canvas = np.asarray(image.convert("RGB"), dtype=np.float32) / 255.0
        n = len(items)
        clips: list = [None] * n          # clip mask (Hc x Wc float32) applying to item i's descendants
        stats = {"drawn": 0, "back_facing": 0, "behind_eye": 0, "empty": 0}
        for i in range(n):
            it = items[i]
            parent = int(_field(it, "parent"))
            inherited = clips[parent] if 0 <= parent < i else None
            key = _record_key(it)
            prepared = self._cache.get(key) if key is not None else None
            if prepared is None:
                prepared = self._prepare(it)
                if key is not None:
                    if len(self._cache) > 4096:
                        self._cache.clear()
                    self._cache[key] = prepared
            pictures, mask, stat = prepared
            for box, src in pictures:
                self._blend(canvas, box, src, inherited)
            clips[i] = inherited if mask is None else (mask if inherited is None else mask * inherited)
            stats[stat] += 1
        self.stats = stats
        out = np.clip(canvas * 255.0 + 0.5, 0, 255).astype(np.uint8)
        return Image.fromarray(out, "RGB")

    @staticmethod
    def _blend(canvas: np.ndarray, box, src: np.ndarray, clip: Optional[np.ndarray]) -> None:
        """Blends a straight-alpha float RGBA picture over the canvas box, through ``clip``."""
        x0, y0, x1, y1 = box
        alpha = src[..., 3]
        if clip is not None:
            alpha = alpha * clip[y0:y1, x0:x1]
        dst = canvas[y0:y1, x0:x1]
        dst += (src[..., :3] - dst) * alpha[..., None]

    def _prepare(self, it) -> Tuple[list, Optional[np.ndarray], str]:
        """What one item puts on screen, independent of the canvas: ([(box, RGBA)] to blend in
        order (shadow, then the layer), the clip mask it imposes on its descendants, a stat name)."""
        Wc, Hc = self.size
        ox, oy = self.origin
        flags = int(_field(it, "flags"))
        world = np.asarray(_field(it, "world"), dtype=np.float64)
        bounds = [float(v) for v in _field(it, "bounds")]
        masks = bool(flags & ITEM_MASKS_TO_BOUNDS)
        bw, bh = bounds[2], bounds[3]
        if bw <= 0 or bh <= 0:
            return [], (np.zeros((Hc, Wc), np.float32) if masks else None), "empty"
        q, w = quad(bounds, world)
        if np.any(w <= _W_EPS) or not np.all(np.isfinite(q)):
            return [], (np.zeros((Hc, Wc), np.float32) if masks else None), "behind_eye"
        q = q + np.array([ox, oy])
        # texture scale: about one texel per screen pixel along each axis
        ex = max(np.hypot(*(q[1] - q[0])), np.hypot(*(q[2] - q[3]))) / bw
        ey = max(np.hypot(*(q[3] - q[0])), np.hypot(*(q[2] - q[1]))) / bh
        sx = min(max(math.ceil(ex * 4) / 4, 0.25), _MAX_TEX / bw)
        sy = min(max(math.ceil(ey * 4) / 4, 0.25), _MAX_TEX / bh)
        radius = float(_field(it, "corner_radius"))
        # screen box of the quad, clipped to the canvas
        x0 = max(0, int(math.floor(q[:, 0].min())) - 1)
        y0 = max(0, int(math.floor(q[:, 1].min())) - 1)
        x1 = min(Wc, int(math.ceil(q[:, 0].max())) + 2)
        y1 = min(Hc, int(math.ceil(q[:, 1].max())) + 2)
        box = (x0, y0, x1, y1)
        inside = x1 > x0 and y1 > y0
        mask = None
        if masks:
            mask = np.zeros((Hc, Wc), np.float32)
            if inside:
                shape = self._texture(bw, bh, sx, sy, (0, 0, 0, 0), (0, 0, 0, 0), 0.0, radius, 0,
                                      (0, 0, 1, 1), True, shape_only=True)
                warped = self._warp(shape, bounds, sx, sy, world, box)
                if warped is not None:
                    mask[y0:y1, x0:x1] = warped[..., 3]
        if _signed_area(q) * (bw * bh) < 0 and not (flags & ITEM_DOUBLE_SIDED):
            return [], mask, "back_facing"
        opacity = float(_field(it, "world_opacity"))
        bg = tuple(float(v) for v in _field(it, "background_color"))
        border = tuple(float(v) for v in _field(it, "border_color"))
        border_width = float(_field(it, "border_width"))
        cid = int(_field(it, "contents"))
        crect = tuple(float(v) for v in _field(it, "contents_rect"))
        if opacity <= 0 or (bg[3] <= 0 and (border_width <= 0 or border[3] <= 0) and self._image(cid) is None):
            return [], mask, "empty"  # nothing to draw (e.g. a transition's clip container)
        pictures = []
        sop = float(_field(it, "shadow_opacity"))
        scol = tuple(float(v) for v in _field(it, "shadow_color"))
        if sop > 0 and scol[3] > 0 and not masks:  # masksToBounds clips a layer's own shadow away
            shadow = self._shadow(it, bounds, world, q, sx, sy, radius, sop * scol[3] * opacity, scol)
            if shadow is not None:
                pictures.append(shadow)
        if inside:
            tex = self._texture(bw, bh, sx, sy, bg, border, border_width, radius, cid, crect, masks)
            src = self._warp(tex, bounds, sx, sy, world, box)
            if src is not None:
                src[..., 3] *= opacity
                pictures.append((box, src))
        return pictures, mask, ("drawn" if pictures else "empty")

    def _shadow(self, it, bounds, world, q, sx, sy, radius, alpha_scale, scol):
        """The item's shadow as (box, RGBA): its shape, offset by shadow_offset and blurred by shadow_radius."""
        Wc, Hc = self.size
        sr = max(0.0, float(_field(it, "shadow_radius")))
        off = [float(v) for v in _field(it, "shadow_offset")]
        pad = int(math.ceil(3 * sr)) + 2
        x0 = max(0, int(math.floor(q[:, 0].min() + off[0])) - pad)
        y0 = max(0, int(math.floor(q[:, 1].min() + off[1])) - pad)
        x1 = min(Wc, int(math.ceil(q[:, 0].max() + off[0])) + pad)
        y1 = min(Hc, int(math.ceil(q[:, 1].max() + off[1])) + pad)
        if not (x1 > x0 and y1 > y0):
            return None
        shape = self._texture(bounds[2], bounds[3], sx, sy, (0, 0, 0, 0), (0, 0, 0, 0), 0.0, radius, 0,
                              (0, 0, 1, 1), False, shape_only=True)
        # the shape seen from a box shifted back by the offset
        sx0, sy0 = int(round(x0 - off[0])), int(round(y0 - off[1]))
        warped = self._warp(shape, bounds, sx, sy, world, (sx0, sy0, sx0 + (x1 - x0), sy0 + (y1 - y0)))
        if warped is None:
            return None
        a = Image.fromarray((warped[..., 3] * 255).astype(np.uint8), "L")
        if sr > 0:
            a = a.filter(ImageFilter.GaussianBlur(sr / 2))
        rgba = np.empty((y1 - y0, x1 - x0, 4), np.float32)
        rgba[..., :3] = np.asarray(scol[:3], dtype=np.float32)
        rgba[..., 3] = np.asarray(a, dtype=np.float32) / 255.0 * alpha_scale
        return (x0, y0, x1, y1), rgba
