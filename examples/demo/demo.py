#!/usr/bin/env python3
"""Cadence demo: classic Core Animation examples played through the engine, headless.

Every frame the engine is ticked at a fixed time (frame / fps), its render list
is read through the Python binding and drawn by a small reference rasterizer
(examples/demo/raster.py, Pillow + numpy). Cadence itself never draws.

    python3 examples/demo/demo.py --out out/demo            # all scenes
    python3 examples/demo/demo.py --seconds 0.5 --scenes door,switcher --out /tmp/d

Writes <out>/demo.gif (all scenes, one caption strip each), <out>/<scene>.gif,
<out>/frames/<scene>_NNNN.png (every --every-th frame) and <out>/stills/<scene>.png.
With --docs DIR it also writes the small copies for the README: DIR/demo.gif
(half the frame rate, fewer colours) and DIR/demo-<scene>.png.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
if not os.environ.get("CADENCE_LIBRARY"):
    # an installed binding does not look in this checkout: point it at the release build
    _built = os.path.join(REPO, ".build", "release", "libcadence.so")
    if os.path.exists(_built):
        os.environ["CADENCE_LIBRARY"] = _built

from PIL import Image, ImageDraw  # noqa: E402

import pictures  # noqa: E402
import raster  # noqa: E402
import scenes  # noqa: E402

CAPTION_H = 46


def caption(scene: scenes.Scene, index: int, count: int, t: float, width: int) -> Image.Image:
    """The caption strip of a frame: scene number and title, its detail line, the time."""
    strip = Image.new("RGB", (width, CAPTION_H), (24, 26, 33))
    d = ImageDraw.Draw(strip)
    d.text((10, 6), f"{index}/{count}  {scene.title}", font=pictures.font(15, bold=True), fill=(240, 242, 245))
    d.text((width - 10, 6), f"t = {t:5.2f} s", font=pictures.font(13), fill=(160, 200, 255), anchor="ra")
    d.text((10, 27), scene.detail, font=pictures.font(11), fill=(170, 175, 185))
    return strip


def draw_labels(img: Image.Image, scene: scenes.Scene) -> None:
    d = ImageDraw.Draw(img)
    f = pictures.font(11)
    for x, y, text, rgb, anchor in scene.labels:
        d.text((x, y), text, font=f, fill=tuple(rgb), anchor=anchor)


def compose(scene: scenes.Scene, index: int, count: int, t: float, body: Image.Image) -> Image.Image:
    w, h = body.size
    frame = Image.new("RGB", (w, h + CAPTION_H))
    frame.paste(caption(scene, index, count, t, w), (0, 0))
    draw_labels(body, scene)
    frame.paste(body, (0, CAPTION_H))
    return frame


def render_scene(scene_cls, index: int, count: int, seconds: Optional[float], fps: float,
                 times: Optional[Sequence[float]] = None) -> List[Tuple[float, Image.Image]]:
    """Plays one scene and returns its frames as (t, RGB image)."""
    scene = scene_cls()
    rast = raster.Rasterizer(scene.size, clear=scene.clear, contents=pictures.contents_image)
    frames = []
    secs = scene.seconds if seconds is None else seconds
    for _f, t, _engine, items in scenes.run(scene, secs, fps, times=times):
        body = rast.render(items)
        frames.append((t, compose(scene, index, count, t, body)))
    return frames


def _durations(n: int, fps: float) -> List[int]:
    """GIF frame delays in ms (GIF stores 10 ms units): spread the rounding so the average is 1000/fps."""
    out, acc = [], 0.0
    for _ in range(n):
        acc += 1000.0 / fps
        d = int(round(acc / 10.0)) * 10 - sum(out)
        out.append(max(10, d))
    return out


def save_gif(path: str, frames: Sequence[Image.Image], fps: float, colors: int = 128) -> None:
    """An animated GIF with one palette per file (stable colours, small frame deltas)."""
    if not frames:
        return
    step = max(1, len(frames) // 12)
    sample = frames[::step][:12]
    w, h = frames[0].size
    sheet = Image.new("RGB", (w, h * len(sample)))
    for i, f in enumerate(sample):
        sheet.paste(f, (0, i * h))
    pal = sheet.quantize(colors=colors, method=Image.Quantize.MEDIANCUT)
    quant = [f.quantize(palette=pal, dither=Image.Dither.NONE) for f in frames]
    quant[0].save(path, save_all=True, append_images=quant[1:], duration=_durations(len(quant), fps),
                  loop=0, optimize=False, disposal=1)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="out/demo", help="output directory (default out/demo)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="seconds per scene (default: each scene's own length, 4.5-8.5 s)")
    ap.add_argument("--fps", type=float, default=30.0, help="simulation and GIF frame rate (default 30)")
    ap.add_argument("--every", type=int, default=10, help="write every N-th frame as PNG (default 10, 0 = none)")
    ap.add_argument("--scenes", default="", help="comma-separated scene keys (default all: "
                    + ",".join(s.key for s in scenes.SCENES) + ")")
    ap.add_argument("--docs", default=None, metavar="DIR",
                    help="also write DIR/demo.gif (15 fps, small) and DIR/demo-<scene>.png")
    ap.add_argument("--no-gif", action="store_true", help="skip the GIFs (frames and stills only)")
    args = ap.parse_args(argv)

    import cadence

    chosen = [scenes.scene_by_key(k.strip()) for k in args.scenes.split(",") if k.strip()] or list(scenes.SCENES)
    os.makedirs(os.path.join(args.out, "frames"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "stills"), exist_ok=True)
    print(f"cadence {cadence.LIBRARY_VERSION} from {cadence.LIBRARY_PATH}")
    t0 = time.perf_counter()
    everything: List[Image.Image] = []
    stills = {}
    for i, cls in enumerate(chosen, 1):
        ts = time.perf_counter()
        frames = render_scene(cls, i, len(chosen), args.seconds, args.fps)
        imgs = [im for _, im in frames]
        everything.extend(imgs)
        if args.every > 0:
            for f in range(0, len(imgs), args.every):
                imgs[f].save(os.path.join(args.out, "frames", f"{cls.key}_{f:04d}.png"), optimize=True)
        # the still for the docs: the scene's own chosen moment (rendered on its own)
        still_t = cls.still_time if args.seconds is None else min(cls.still_time, args.seconds)
        still = render_scene(cls, i, len(chosen), None, args.fps, times=[k / args.fps for k in
                             range(int(round(still_t * args.fps)) + 1)])[-1][1]
        still.save(os.path.join(args.out, "stills", f"{cls.key}.png"), optimize=True)
        stills[cls.key] = still
        if not args.no_gif:
            save_gif(os.path.join(args.out, f"{cls.key}.gif"), imgs, args.fps)
        print(f"  {i}. {cls.key:10s} {len(imgs):4d} frames in {time.perf_counter() - ts:5.1f} s")
    if not args.no_gif:
        save_gif(os.path.join(args.out, "demo.gif"), everything, args.fps)
    print(f"wrote {len(everything)} frames in {time.perf_counter() - t0:.1f} s:")
    if not args.no_gif:
        print(f"  {os.path.join(args.out, 'demo.gif')}   (all scenes, {args.fps:g} fps)")
        print(f"  {os.path.join(args.out, '<scene>.gif')}  (one per scene)")
    if args.every > 0:
        print(f"  {os.path.join(args.out, 'frames')}/<scene>_NNNN.png  (every {args.every}th frame)")
    print(f"  {os.path.join(args.out, 'stills')}/<scene>.png")
    if args.docs:
        os.makedirs(args.docs, exist_ok=True)
        half = everything[::2]
        small = [im.resize((im.width * 3 // 4, im.height * 3 // 4), Image.LANCZOS) for im in half]
        path = os.path.join(args.docs, "demo.gif")
        save_gif(path, small, args.fps / 2, colors=64)
        for key, im in stills.items():
            im.save(os.path.join(args.docs, f"demo-{key}.png"), optimize=True)
        print(f"  {path} ({os.path.getsize(path) / 1e6:.2f} MB) and {args.docs}/demo-<scene>.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
