#!/usr/bin/env python3
"""Generates the pictures of docs/semantics.md, timing-functions.md, springs.md,
keyframes.md (and the demo stills of the README) from the engine itself.

Every curve is sampled through the Python binding: an animation is added to a
layer, the engine is ticked at fixed times and the layer's presentation value
is read. Numbers the docs state are asserted here while the data is computed,
so the script fails if the engine stops doing what the docs say.

    python3 scripts/make_docs_pictures.py              # all pictures into docs/img/
    python3 scripts/make_docs_pictures.py --check      # only compute and assert (no files)
    python3 scripts/make_docs_pictures.py --only springs,timing --out /tmp/img
    python3 scripts/make_docs_pictures.py --demo       # also the demo GIF and stills, the pygame frame

Needs numpy and matplotlib (requirements-dev.txt) and libcadence (CADENCE_LIBRARY
or .build/release/libcadence.so).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.environ.get("CADENCE_LIBRARY"):
    _built = os.path.join(ROOT, ".build", "release", "libcadence.so")
    if os.path.exists(_built):
        os.environ["CADENCE_LIBRARY"] = _built

import numpy as np  # noqa: E402

import cadence  # noqa: E402
from cadence import Animation, Engine, Path  # noqa: E402

CHECK_ONLY = False
OUT = os.path.join(ROOT, "docs", "img")
WRITTEN: List[str] = []
CLAIMS: List[str] = []

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def claim(ok: bool, text: str) -> None:
    """Asserts a statement the docs make (and records it for the summary)."""
    if not ok:
        raise AssertionError(f"docs claim failed: {text}")
    CLAIMS.append(text)


def close(a: float, b: float, tol: float = 1e-6) -> bool:
    return abs(a - b) <= tol


class Run:
    """One engine with layers, ticked at given times; records presentation values.

    ``build(e)`` creates the layers before the first tick and returns a dict of them;
    ``start(e, layers)`` runs right after tick(0) (adds the animations);
    ``events``: (time, fn(e, layers)) host actions, each run right after a tick at its time.
    """

    def __init__(self, build: Callable[[Engine], Dict[str, cadence.Layer]],
                 start: Callable[[Engine, Dict[str, cadence.Layer]], None],
                 events: Sequence[Tuple[float, Callable]] = ()) -> None:
        self.build, self.start, self.events = build, start, list(events)

    def sample(self, ts: Sequence[float], reads: Dict[str, Tuple[str, str]]) -> Dict[str, np.ndarray]:
        """``reads``: name -> (layer name, key path); returns name -> array (len(ts) x components)."""
        out: Dict[str, list] = {k: [] for k in reads}
        with Engine() as e:
            layers = self.build(e)
            e.tick(0.0)
            self.start(e, layers)
            pending = sorted(self.events, key=lambda x: x[0])
            for t in ts:
                while pending and pending[0][0] <= t + 1e-12:
                    ta, fn = pending.pop(0)
                    e.tick(max(ta, e.now))
                    fn(e, layers)
                e.tick(max(t, e.now))
                for name, (lname, kp) in reads.items():
                    if kp == "@localtime":   # the layer's local time now (convertTime from global)
                        v = e.convert_time(e.now, None, layers[lname])
                    else:
                        v = layers[lname].presentation(kp)
                    out[name].append(v if isinstance(v, tuple) else (v,))
        return {k: np.array(v, dtype=np.float64) for k, v in out.items()}


def one_layer(**props) -> Callable[[Engine], Dict[str, cadence.Layer]]:
    def build(e: Engine) -> Dict[str, cadence.Layer]:
        return {"layer": e.create_layer(**props)}
    return build


def value_at(anim_factory: Callable[[Engine], Animation], key: str, times: Sequence[float],
             props: Optional[dict] = None) -> np.ndarray:
    """Presentation of ``key`` at ``times`` for one animation added at t = 0 to a fresh layer."""
    run = Run(one_layer(**(props or {})), lambda e, L: L["layer"].add_animation(anim_factory(e), "a"))
    return run.sample(times, {"v": ("layer", key)})["v"][:, 0]


def breaks(t: np.ndarray, y: np.ndarray, jump: float) -> Tuple[np.ndarray, np.ndarray]:
    """Inserts NaNs where y jumps by more than ``jump`` between samples (no vertical lines)."""
    t2, y2 = [t[0]], [y[0]]
    for i in range(1, len(t)):
        if abs(y[i] - y[i - 1]) > jump:
            t2.append(np.nan)
            y2.append(np.nan)
        t2.append(t[i])
        y2.append(y[i])
    return np.array(t2), np.array(y2)


_plt = None


def plt():
    global _plt
    if _plt is None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as p

        p.rcParams.update({
            "figure.dpi": 100, "savefig.dpi": 100, "font.size": 9, "axes.titlesize": 10,
            "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False, "axes.spines.right": False,
            "lines.linewidth": 1.8, "legend.fontsize": 8, "legend.frameon": False,
        })
        _plt = p
    return _plt


def save(fig, name: str) -> None:
    p = plt()
    if CHECK_ONLY:
        p.close(fig)
        return
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    fig.savefig(path, bbox_inches="tight", pad_inches=0.08)
    p.close(fig)
    try:  # smaller files: an adaptive palette is lossless enough for line plots
        from PIL import Image

        im = Image.open(path).convert("RGB")
        im.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    except Exception:
        pass
    WRITTEN.append(path)


def shade_active(ax, t0: float, t1: float, label: Optional[str] = "active", color="#74b9ff") -> None:
    ax.axvspan(t0, t1, color=color, alpha=0.15, lw=0, label=label)


C = ["#0984e3", "#d63031", "#00b894", "#e17055", "#6c5ce7", "#fdcb6e", "#2d3436"]

# ---------------------------------------------------------------------------
# semantics.md: the timing model
# ---------------------------------------------------------------------------

def sem_fill_modes() -> None:
    """Fill modes with a delayed begin: model 0, animation 100 -> 200 from t = 1 to t = 3."""
    ts = np.round(np.linspace(0, 4, 401), 6)
    fig, axes = plt().subplots(1, 4, figsize=(10, 2.6), sharey=True)
    for ax, mode in zip(axes, ["removed", "forwards", "backwards", "both"]):
        def make(e, mode=mode):
            return Animation.basic(e, "position.x", from_=100.0, to=200.0, duration=2.0, begin_time=1.0,
                                   fill_mode=mode, removed_on_completion=False)
        y = value_at(make, "position.x", ts)
        i = {t: k for k, t in enumerate(ts)}
        before, mid, after = y[i[0.5]], y[i[2.0]], y[i[3.5]]
        claim(close(mid, 150), f"fill {mode}: halfway at t = 2 shows 150")
        claim(close(before, 100 if mode in ("backwards", "both") else 0),
              f"fill {mode}: before the begin (t = 0.5) shows {'the start value 100' if mode in ('backwards', 'both') else 'the model value 0'}")
        claim(close(after, 200 if mode in ("forwards", "both") else 0),
              f"fill {mode}: after the end (t = 3.5), not removed, shows {'the end value 200' if mode in ('forwards', 'both') else 'the model value 0'}")
        shade_active(ax, 1, 3)
        tt, yy = breaks(ts, y, 20)
        ax.plot(tt, yy, color=C[0])
        ax.set_title(f"fillMode = {mode}")
        ax.set_xlabel("time (s)")
        ax.set_ylim(-15, 215)
    axes[0].set_ylabel("presentation position.x")
    axes[0].legend(loc="upper left")
    fig.suptitle("from 100 to 200, beginTime 1, duration 2, removedOnCompletion = false; model value 0", y=1.03)
    save(fig, "sem-fill-modes.png")

    # with removedOnCompletion left at true, forwards fill is moot: the animation is gone
    y = value_at(lambda e: Animation.basic(e, "position.x", from_=100.0, to=200.0, duration=2.0, begin_time=1.0,
                                           fill_mode="forwards"), "position.x", [0.5, 3.5])
    claim(close(y[1], 0), "fill forwards with removedOnCompletion = true: after the end the model value shows")


def sem_repeat() -> None:
    ts = np.round(np.linspace(0, 6, 601), 6)
    cases = [
        ("repeatCount = 2.5", dict(repeat_count=2.5), 2.5),
        ("autoreverses, repeatCount = 1.5", dict(autoreverses=True, repeat_count=1.5), 3.0),
        ("repeatDuration = 1.75", dict(repeat_duration=1.75), 1.75),
        ("cumulative, repeatCount = 3", dict(cumulative=True, repeat_count=3), 3.0),
    ]
    fig, axes = plt().subplots(1, 4, figsize=(11, 2.7), sharey=False)
    for ax, (title, kw, D) in zip(axes, cases):
        def make(e, kw=kw):
            return Animation.basic(e, "position.x", from_=0.0, to=100.0, duration=1.0, fill_mode="forwards",
                                   removed_on_completion=False, **kw)
        y = value_at(make, "position.x", ts)
        idx = {t: k for k, t in enumerate(ts)}
        shade_active(ax, 0, D)
        tt, yy = breaks(ts, y, 20)
        ax.plot(tt, yy, color=C[0])
        ax.axvline(D, color="#636e72", lw=0.8, ls="--")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("time (s)")
        ax.set_xlim(0, 4.5 if D < 4 else 6)
        end = y[idx[round(D + 0.5, 6)]]
        if title.startswith("repeatCount"):
            claim(close(end, 50), "repeatCount 2.5 (duration 1): active 2.5 s, ends (and fills) at the fractional point 50")
            claim(close(y[idx[1.25]], 25) and close(y[idx[2.25]], 25), "each repeat restarts from the start value")
        elif title.startswith("autoreverses"):
            claim(close(y[idx[1.5]], 50) and close(y[idx[2.5]], 50),
                  "autoreverses: a cycle is forward then back (2 d); repeatCount 1.5 = 3 s")
            claim(close(end, 100), "autoreverses with repeatCount 1.5: forward, back, forward: ends (and fills) at 100")
        elif title.startswith("repeatDuration"):
            claim(close(end, 75), "repeatDuration 1.75 ends at 75 (three quarters into the second cycle)")
        else:
            claim(close(y[idx[1.5]], 150) and close(end, 300), "cumulative: each completed cycle adds its change (100); 3 cycles end at 300")
    axes[0].set_ylabel("presentation position.x")
    fig.suptitle("from 0 to 100, duration 1, fillMode forwards, removedOnCompletion = false; dashed: end of the active duration", y=1.04)
    save(fig, "sem-repeat.png")


def stacked(n: int, height: float = 1.15, width: float = 8.0):
    fig, axes = plt().subplots(n, 1, figsize=(width, 0.5 + height * n), sharex=True)
    return fig, list(np.atleast_1d(axes))


def mark(ax, pts, color) -> None:
    """Dots with value labels at the points a claim is about."""
    for t, v in pts:
        ax.plot([t], [v], "o", color=color, ms=4, zorder=5)
        ax.annotate(f"{v:g}", (t, v), textcoords="offset points", xytext=(4, 4), fontsize=7, color=color)


def sem_time_offset() -> None:
    """The worked example: speed 2, timeOffset 0.5, duration 1, linear, begins at t = 1."""
    ts = np.round(np.linspace(0, 2.5, 1001), 6)
    cases = [
        ("speed 1, timeOffset 0", dict(), [(1.0, 0.0), (1.5, 0.5)]),
        ("speed 1, timeOffset 0.5", dict(time_offset=0.5), [(1.0, 0.5), (1.5, 0.0), (1.75, 0.25)]),
        ("speed 2, timeOffset 0.5", dict(speed=2.0, time_offset=0.5), [(1.0, 0.5), (1.2, 0.9), (1.25, 0.0), (1.4, 0.3)]),
    ]
    fig, axes = stacked(3)
    for k, (ax, (label, kw, marks)) in enumerate(zip(axes, cases)):
        def make(e, kw=kw):
            return Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0, begin_time=1.0, **kw)
        y = value_at(make, "position.x", ts)
        idx = {t: i for i, t in enumerate(ts)}
        if kw.get("speed") == 2.0:
            claim(close(y[idx[1.0]], 0.5), "speed 2, offset 0.5: at tp = beginTime the progress is 0.5")
            claim(close(y[idx[1.2]], 0.9), "speed 2, offset 0.5: at beginTime + 0.2 the progress is 0.9")
            claim(close(y[idx[1.25]], 0.0), "speed 2, offset 0.5: at beginTime + 0.25 it wraps to progress 0")
            claim(close(y[idx[1.4]], 0.3), "speed 2, offset 0.5: at beginTime + 0.4 the progress is 0.3")
            claim(close(y[idx[1.5]], 0.0) and close(y[idx[1.4975]], 0.495, 1e-6),
                  "speed 2, offset 0.5: finished (removed) at beginTime + 0.5; just before, it shows 0.495")
            end = 1.5
        elif kw.get("time_offset") == 0.5:
            claim(close(y[idx[1.0]], 0.5) and close(y[idx[1.5]], 0.0) and close(y[idx[1.75]], 0.25),
                  "speed 1, offset 0.5: starts halfway, wraps at beginTime + 0.5, plays its whole 1 s")
            claim(close(y[idx[2.0]], 0.0), "speed 1, offset 0.5: finished at beginTime + 1")
            end = 2.0
        else:
            end = 2.0
        shade_active(ax, 1.0, end, label="active" if k == 0 else None)
        tt, yy = breaks(ts, y, 0.3)
        ax.plot(tt, yy, color=C[k])
        mark(ax, marks, C[k])
        ax.set_title(label, loc="left", fontsize=9)
        ax.set_ylim(-0.12, 1.15)
        ax.set_ylabel("progress")
    axes[0].legend(loc="upper left")
    axes[-1].set_xlabel("global time (s); every animation: from 0 to 1, duration 1, linear, beginTime 1")
    axes[-1].set_xlim(0.5, 2.3)
    fig.suptitle("t = (tp − beginTime) × speed + timeOffset, wrapped into the active duration", y=0.995)
    fig.tight_layout()
    save(fig, "sem-time-offset.png")


def sem_pause_resume() -> None:
    """The pause/resume idiom of SEMANTICS.md 3.5 on the layer, at t = 1.5 and t = 3."""
    ts = np.round(np.linspace(0, 6, 601), 6)
    log: Dict[str, float] = {}

    def pause(e, L):
        L["layer"].pause()          # t = convertTime(now, nil -> layer); speed = 0; timeOffset = t
        log["paused_offset"] = L["layer"].timeOffset

    def resume(e, L):
        L["layer"].resume()         # p = timeOffset; speed 1; offset 0; beginTime 0; beginTime = convert(now) - p
        log["begin_after_resume"] = L["layer"].beginTime

    run = Run(one_layer(), lambda e, L: L["layer"].add_animation(
        Animation.basic(e, "position.x", from_=0.0, to=100.0, duration=4.0), "move"),
        events=[(1.5, pause), (3.0, resume)])
    data = run.sample(ts, {"x": ("layer", "position.x"), "local": ("layer", "@localtime")})
    x = data["x"][:, 0]
    local = data["local"][:, 0]
    idx = {t: i for i, t in enumerate(ts)}
    claim(close(log["paused_offset"], 1.5), "pause at t = 1.5 stores the layer's local time 1.5 in timeOffset")
    claim(close(log["begin_after_resume"], 1.5), "resume at t = 3 sets beginTime = 3 - 1.5 = 1.5")
    claim(close(x[idx[1.5]], 37.5) and close(x[idx[2.5]], 37.5) and close(x[idx[3.0]], 37.5),
          "paused: the presentation holds 37.5 from 1.5 to 3")
    claim(close(x[idx[4.0]], 62.5), "resumed: at t = 4 it shows 62.5 (local time 2.5), continuous")
    claim(close(x[idx[5.49]], 99.75) and close(x[idx[5.5]], 0.0),
          "the 4 s animation ends at t = 5.5 (4 s of local time), then the model value 0 shows")
    claim(np.abs(np.diff(x[: idx[5.4]])).max() < 1.0, "no jump at the pause or the resume")
    claim(close(local[idx[2.0]], 1.5) and close(local[idx[4.0]], 2.5) and close(local[idx[1.0]], 1.0),
          "convertTime(now -> layer): 1 at t = 1, 1.5 while paused, 2.5 at t = 4")
    fig, (a1, a2) = plt().subplots(1, 2, figsize=(10, 3))
    for a in (a1, a2):
        a.axvspan(1.5, 3.0, color="#fdcb6e", alpha=0.25, lw=0, label="paused")
    tt, xx = breaks(ts, x, 20)
    a1.plot(tt, xx, color=C[0], label="presentation position.x")
    mark(a1, [(1.5, 37.5), (4.0, 62.5)], C[0])
    a1.set_xlabel("global time (s)")
    a1.set_title("4 s animation 0 → 100; pause at 1.5 s, resume at 3 s", fontsize=9)
    a1.legend(loc="upper left")
    a2.plot(ts, local, color=C[4], label="layer local time (convertTime)")
    a2.plot(ts, ts, color="#b2bec3", ls=":", label="global time")
    a2.set_xlabel("global time (s)")
    a2.set_title("pause: speed 0, timeOffset 1.5 | resume: beginTime 1.5", fontsize=9)
    a2.legend(loc="upper left")
    save(fig, "sem-pause-resume.png")


def sem_hierarchy() -> None:
    """Hierarchical time: a child's 2 s animation under parents of speed 0.5, 1 and 2."""
    ts = np.round(np.linspace(0, 4.5, 451), 6)
    fig, ax = plt().subplots(figsize=(8, 3))
    for k, sp in enumerate([0.5, 1.0, 2.0]):
        def build(e, sp=sp):
            parent = e.create_layer(speed=sp)
            child = e.create_layer()
            parent.add_sublayer(child)
            return {"parent": parent, "child": child}
        run = Run(build, lambda e, L: L["child"].add_animation(
            Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=2.0), "a"))
        y = run.sample(ts, {"y": ("child", "position.x")})["y"][:, 0]
        idx = {t: i for i, t in enumerate(ts)}
        end = 2.0 / sp
        claim(close(y[idx[round(end * 0.5, 6)]], 0.5), f"parent speed {sp}: the child's 2 s animation is halfway at {end / 2:g} s")
        tt, yy = breaks(ts, y, 0.3)
        ax.plot(tt, yy, color=C[k], label=f"superlayer speed {sp:g}: ends at {end:g} s")
    with Engine() as e:  # a grandparent multiplies too
        g = e.create_layer(speed=2.0)
        p = e.create_layer(speed=3.0)
        c = e.create_layer()
        g.add_sublayer(p)
        p.add_sublayer(c)
        e.tick(0)
        e.tick(1.0)
        claim(close(e.convert_time(1.0, None, c), 6.0), "speeds multiply down the tree: 2 x 3 gives local time 6 at t = 1")
    ax.set_xlabel("global time (s)")
    ax.set_ylabel("child's progress")
    ax.set_title("a layer's parent time is its superlayer's local time: speeds compose down the tree")
    ax.legend(loc="lower right")
    save(fig, "sem-hierarchy.png")


def sem_begin_time() -> None:
    ts = np.round(np.linspace(0, 5, 501), 6)
    idx = {t: i for i, t in enumerate(ts)}

    # (a) beginTime 0, added at t = 0: starts now
    ya = value_at(lambda e: Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0), "position.x", ts)
    # (b) beginTime 0, added at t = 1.5: starts at 1.5 (beginTime 0 means "now")
    run = Run(one_layer(), lambda e, L: None, events=[(1.5, lambda e, L: L["layer"].add_animation(
        Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0), "a"))])
    yb = run.sample(ts, {"v": ("layer", "position.x")})["v"][:, 0]
    # (c) beginTime = convertTime(now) + 2, added at t = 0.5: a 2 s delay
    def delayed(e, L):
        layer = L["layer"]
        begin = e.convert_time(e.now, None, layer) + 2.0          # CACurrentMediaTime() + 2, in layer time
        layer.add_animation(Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0, begin_time=begin), "a")
    yc = Run(one_layer(), lambda e, L: None, events=[(0.5, delayed)]).sample(ts, {"v": ("layer", "position.x")})["v"][:, 0]
    # (d) a layer with speed 2 whose beginTime is 1 (global): beginTime 4 in its local time = global 3
    def build_d(e):
        parent = e.create_layer(speed=2.0, begin_time=1.0)
        return {"layer": parent}
    yd = Run(build_d, lambda e, L: L["layer"].add_animation(
        Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0, begin_time=4.0), "a")
    ).sample(ts, {"v": ("layer", "position.x")})["v"][:, 0]
    claim(close(ya[idx[0.5]], 0.5), "beginTime 0 added at t = 0 starts at once")
    claim(close(yb[idx[1.4]], 0.0) and close(yb[idx[2.0]], 0.5), "beginTime 0 added at t = 1.5 starts at 1.5")
    claim(close(yc[idx[2.4]], 0.0) and close(yc[idx[3.0]], 0.5), "beginTime = convertTime(now) + 2 added at 0.5 starts at 2.5")
    claim(close(yd[idx[3.25]], 0.5) and close(yd[idx[2.9]], 0.0),
          "beginTime is in the layer's local time: 4 on a layer (speed 2, beginTime 1) is global 3, and the 1 s animation lasts 0.5 s")
    fig, axes = stacked(4, height=0.9)
    rows = [(ya, "beginTime 0, added at t = 0: starts at once", (0, 1)),
            (yb, "beginTime 0, added at t = 1.5: starts at 1.5 (0 means \"now\")", (1.5, 2.5)),
            (yc, "beginTime = convertTime(now) + 2, added at t = 0.5: starts at 2.5", (2.5, 3.5)),
            (yd, "on a layer with speed 2 and beginTime 1: animation beginTime 4 (layer time) = global 3", (3.0, 3.5))]
    for k, (ax, (y, lab, (a, b))) in enumerate(zip(axes, rows)):
        shade_active(ax, a, b, label="active" if k == 0 else None)
        tt, yy = breaks(ts, y, 0.3)
        ax.plot(tt, yy, color=C[k])
        ax.set_title(lab, loc="left", fontsize=8.5)
        ax.set_ylim(-0.12, 1.15)
    axes[0].legend(loc="upper right")
    axes[-1].set_xlabel("global time (s); each animation: progress 0 → 1 over 1 s of its layer's time")
    fig.tight_layout()
    save(fig, "sem-begin-time.png")


def sem_events_and_spec_examples() -> None:
    """Worked numbers of SEMANTICS.md quoted in semantics.md."""
    # the paused scrub: layer speed 0, 1 s rotation.y 0 -> -pi/2, timeOffset 0.25 -> -pi/8
    with Engine() as e:
        L = e.create_layer()
        e.tick(0)
        L.speed = 0.0
        L.add_animation(Animation.basic(e, "transform.rotation.y", from_=0.0, to=-math.pi / 2, duration=1.0), "door")
        L.timeOffset = 0.25
        e.tick(5.0)
        v = L.presentation("transform.rotation.y")
        claim(close(v, -math.pi / 8), "paused scrub: speed 0 and timeOffset 0.25 show rotation.y = -pi/8")
    # repeatDuration wins over repeatCount
    y = value_at(lambda e: Animation.basic(e, "position.x", from_=0.0, to=100.0, duration=1.0, repeat_count=5,
                                           repeat_duration=1.75, fill_mode="forwards", removed_on_completion=False),
                 "position.x", [1.5, 3.0])
    claim(close(y[1], 75.0), "repeatCount 5 with repeatDuration 1.75: repeatDuration wins (ends at 75)")
    # active duration: duration 2, repeatCount 3.5 -> 7 s, with autoreverses 14 s
    for auto, D in ((False, 7.0), (True, 14.0)):
        with Engine() as e:
            L = e.create_layer()
            e.tick(0)
            a = Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=2.0, repeat_count=3.5, autoreverses=auto)
            stops = []
            a.on_event(lambda ev, stops=stops: stops.append((ev.kind.name, ev.time, ev.finished)))
            L.add_animation(a, "a")
            for t in np.arange(0, 16, 0.5):
                e.tick(float(t))
            stop = [s for s in stops if s[0] == "STOP"][0]
            claim(close(stop[1], D) and stop[2], f"duration 2, repeatCount 3.5{', autoreverses' if auto else ''}: stops (finished) at {D:g} s")


# ---------------------------------------------------------------------------
# timing-functions.md
# ---------------------------------------------------------------------------

def bezier_reference(c1x, c1y, c2x, c2y, x: Sequence[float]) -> np.ndarray:
    """An independent solver in 45-digit arithmetic (mpmath): bisection on x(t), then y(t).
    (Double precision is not enough for a reference: at a flat spot of x(t), as at the
    middle of (1, 0, 0, 1), an error of 1e-16 in x moves t by ~3e-6.)"""
    from mpmath import mp, mpf

    mp.dps = 45
    a, b, c, d = (mpf(float(v)) for v in (c1x, c1y, c2x, c2y))
    out = []
    for xv in x:
        xv = mpf(float(xv))
        lo, hi = mpf(0), mpf(1)
        for _ in range(110):
            mid = (lo + hi) / 2
            if 3 * (1 - mid) ** 2 * mid * a + 3 * (1 - mid) * mid ** 2 * c + mid ** 3 < xv:
                lo = mid
            else:
                hi = mid
        t = (lo + hi) / 2
        out.append(float(3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * d + t ** 3))
    return np.array(out)


def draw_curve(ax, cp, label, color, engine_y=None) -> None:
    c1x, c1y, c2x, c2y = cp
    x = np.linspace(0, 1, 401)
    y = cadence.evaluate_timing(cp, x) if engine_y is None else engine_y
    ax.plot([0, c1x], [0, c1y], color="#b2bec3", lw=1)
    ax.plot([1, c2x], [1, c2y], color="#b2bec3", lw=1)
    ax.plot([c1x, c2x], [c1y, c2y], "o", color="#636e72", ms=4)
    ax.plot(x, y, color=color, label=label)
    ax.set_aspect("equal", adjustable="box")
    ax.set_title(label, fontsize=9)


def tf_named() -> None:
    x = np.linspace(0, 1, 101)
    worst = 0.0
    curves = [("linear", (0, 0, 1, 1)), ("easeIn", (0.42, 0, 1, 1)), ("easeOut", (0, 0, 0.58, 1)),
              ("easeInEaseOut", (0.42, 0, 0.58, 1)), ("default", (0.25, 0.1, 0.25, 1)),
              ("steep (0.9, 0, 0.1, 1)", (0.9, 0, 0.1, 1))]
    for name, cp in curves:
        if not name.startswith("steep"):
            claim(tuple(cadence.timing_bezier(name)) == tuple(float(v) for v in cp), f"{name} has control points {cp}")
        err = np.abs(cadence.evaluate_timing(cp, x) - bezier_reference(*cp, x)).max()
        worst = max(worst, err)
    for cp in [(0.68, -0.6, 0.32, 1.6), (1, 0, 0, 1), (0, 1, 1, 0), (0.99, 0.01, 0.01, 0.99)]:
        worst = max(worst, np.abs(cadence.evaluate_timing(cp, x) - bezier_reference(*cp, x)).max())
    claim(worst < 1e-7, f"cad_timing_eval_batch agrees with a 45-digit solver to {worst:.1e} (< 1e-7) on 10 curves")
    # an animation's progress equals the timing function
    ts = np.round(np.linspace(0, 1, 101), 6)
    y = value_at(lambda e: Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0,
                                           timing_function="easeInEaseOut", fill_mode="forwards",
                                           removed_on_completion=False), "position.x", ts)
    claim(np.abs(y - cadence.evaluate_timing("easeInEaseOut", ts)).max() < 1e-9,
          "an easeInEaseOut animation sampled at 101 times equals the curve")
    y = value_at(lambda e: Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0,
                                           fill_mode="forwards", removed_on_completion=False), "position.x", ts)
    claim(np.abs(y - ts).max() < 1e-9, "an animation with no timing function is linear")
    # implicit animations: the default curve; engine.animate(): easeInEaseOut
    for how, curve in (("outside a transaction", "default"), ("engine.animate()", "easeInEaseOut")):
        with Engine() as e:
            L = e.create_layer()
            e.tick(0)
            if how == "engine.animate()":
                with e.animate(duration=0.25):
                    L["position.x"] = 1.0
            else:
                L["position.x"] = 1.0
            e.tick(0.1)
            claim(close(L.presentation("position.x"), cadence.evaluate_timing(curve, 0.4), 1e-9),
                  f"an implicit animation {how} uses the {curve} curve (0.25 s)")
    fig, axes = plt().subplots(2, 3, figsize=(8, 5.6))
    for ax, (name, cp), col in zip(axes.ravel(), curves, C):
        draw_curve(ax, cp, f"{name}\n{cp}" if not name.startswith("steep") else name, col)
        ax.set_xlim(-0.05, 1.05)
        ax.set_ylim(-0.05, 1.05)
    for ax in axes[1]:
        ax.set_xlabel("progress")
    for ax in axes[:, 0]:
        ax.set_ylabel("eased progress")
    fig.tight_layout()
    save(fig, "tf-named.png")


def tf_overshoot() -> None:
    cp = (0.68, -0.6, 0.32, 1.6)
    ts = np.round(np.linspace(0, 1, 401), 6)
    y = value_at(lambda e: Animation.basic(e, "position.x", from_=0.0, to=100.0, duration=1.0, timing_function=cp,
                                           fill_mode="forwards", removed_on_completion=False), "position.x", ts)
    claim(y.min() < -5 and y.max() > 105, f"(0.68, -0.6, 0.32, 1.6) overshoots both ends: {y.min():.1f} ... {y.max():.1f}")
    claim(close(y[-1], 100), "and still ends exactly at the end value")
    fig, (a1, a2) = plt().subplots(1, 2, figsize=(8, 3.4))
    draw_curve(a1, cp, "(0.68, -0.6, 0.32, 1.6)", C[1])
    a1.set_xlabel("progress")
    a1.set_ylabel("eased progress")
    a2.plot(ts, y, color=C[1])
    a2.axhline(0, color="#b2bec3", lw=0.8)
    a2.axhline(100, color="#b2bec3", lw=0.8)
    a2.set_title("position.x 0 -> 100 in 1 s with it (engine)")
    a2.set_xlabel("time (s)")
    fig.tight_layout()
    save(fig, "tf-overshoot.png")
    # c1x outside [0, 1] is rejected
    with Engine() as e:
        a = Animation.basic(e, "position.x", to=1.0)
        try:
            a.timing_function = (1.2, 0, 0.5, 1)
            ok = False
        except cadence.InvalidArgumentError:
            ok = True
        claim(ok, "a control point x outside [0, 1] is CAD_ERR_INVALID_ARGUMENT")


def tf_steps() -> None:
    ts = np.round(np.linspace(0, 1, 1001), 6)
    fig, ax = plt().subplots(figsize=(8, 3))
    idx = {t: i for i, t in enumerate(ts)}
    for k, at in enumerate(["start", "end"]):
        y = value_at(lambda e, at=at: Animation.basic(e, "position.x", from_=0.0, to=1.0, duration=1.0,
                                                      timing_function=("steps", 4, at), fill_mode="forwards",
                                                      removed_on_completion=False), "position.x", ts)
        if at == "start":
            claim(close(y[idx[0.001]], 0.25) and close(y[idx[0.3]], 0.5) and close(y[idx[0.999]], 1.0),
                  "steps(4, start) jumps at the start of each quarter: 0.25 just after t = 0, 0.5 at 0.3, 1 in the last quarter")
        else:
            claim(close(y[idx[0.0]], 0.0) and close(y[idx[0.3]], 0.25) and close(y[idx[0.999]], 0.75) and close(y[-1], 1.0),
                  "steps(4, end) jumps at the end of each quarter: 0 at t = 0, 0.75 just before the end, 1 at the end")
        tt, yy = breaks(ts, y, 0.1)
        ax.plot(tt, yy, color=C[k], label=f"steps(4, {at})", lw=2.4 - k * 0.6)
    ax.set_xlabel("time (s), duration 1")
    ax.set_ylabel("progress")
    ax.set_title("steps(n, start | end) (Cadence extension, CSS Easing) sampled through an animation")
    ax.legend(loc="upper left")
    save(fig, "tf-steps.png")


# ---------------------------------------------------------------------------
# springs.md
# ---------------------------------------------------------------------------

def spring_closed_form(m, k, c, v0, s):
    w0 = math.sqrt(k / m)
    z = c / (2 * math.sqrt(k * m))
    s = np.asarray(s, dtype=np.float64)
    if z < 1:
        wd = w0 * math.sqrt(1 - z * z)
        return np.exp(-z * w0 * s) * (np.cos(wd * s) + (z * w0 - v0) / wd * np.sin(wd * s))
    if z == 1:
        return np.exp(-w0 * s) * (1 + (w0 - v0) * s)
    r1 = -w0 * (z - math.sqrt(z * z - 1))
    r2 = -w0 * (z + math.sqrt(z * z - 1))
    # x = A e^{r1 s} + B e^{r2 s}, x(0) = 1, x'(0) = -v0
    B = (-v0 - r1) / (r2 - r1)
    A = 1 - B
    return A * np.exp(r1 * s) + B * np.exp(r2 * s)


def spring_curve(e_factory, ts) -> np.ndarray:
    """Displacement x(s) = 1 - progress, sampled through the engine (position.x from 0 to 1)."""
    y = value_at(e_factory, "position.x", ts, props={"position": (1.0, 0.0)})
    return 1.0 - y


def springs_damping() -> None:
    ts = np.round(np.linspace(0, 3, 601), 6)
    fig, ax = plt().subplots(figsize=(8, 3.6))
    ax.axhspan(-0.001, 0.001, color="#b2bec3", alpha=0.5, lw=0)
    for k, (c, label) in enumerate([(10, "underdamped: damping 10 (\u03b6 = 0.5, defaults)"),
                                    (20, "critically damped: damping 20 (\u03b6 = 1)"),
                                    (40, "overdamped: damping 40 (\u03b6 = 2)")]):
        with Engine() as e:
            settle = Animation.spring(e, "position.x", damping=c).settling_duration
        x = spring_curve(lambda e, c=c: Animation.spring(e, "position.x", from_=0.0, to=1.0, damping=c,
                                                          duration=10.0), ts)
        ref = spring_closed_form(1, 100, c, 0, ts)
        claim(np.abs(x - ref).max() < 1e-9, f"damping {c}: the engine's spring equals the closed form (max error {np.abs(x - ref).max():.1e})")
        claim(abs(settle - {10: 1.473, 20: 0.923, 40: 2.606}[c]) < 5e-4, f"damping {c}: settlingDuration {settle:.3f} s")
        after = np.abs(spring_closed_form(1, 100, c, 0, np.linspace(settle, settle + 5, 5001))).max()
        claim(after <= 0.001 + 1e-12, f"damping {c}: |x| <= 0.001 after the settling duration {settle:.3f} s")
        ax.plot(ts, x, color=C[k], label=f"{label}; settles at {settle:.3f} s")
        ax.axvline(settle, color=C[k], lw=0.8, ls="--")
    x = spring_curve(lambda e: Animation.spring(e, "position.x", from_=0.0, to=1.0, duration=10.0), ts)
    claim(close(x[50], math.exp(-5 * 0.25) * (math.cos(math.sqrt(75) * 0.25) + 5 / math.sqrt(75) * math.sin(math.sqrt(75) * 0.25)), 1e-12),
          "defaults: x(s) = e^(-5s)(cos(\u221a75 s) + 5/\u221a75 sin(\u221a75 s)), e.g. at s = 0.25")
    ax.axhline(0, color="#2d3436", lw=0.6)
    ax.set_xlabel("time since the animation began (s)")
    ax.set_ylabel("displacement x = 1 - progress")
    ax.set_title("mass 1, stiffness 100; grey band: |x| < 0.001; dashed: settlingDuration")
    ax.legend(loc="upper right")
    save(fig, "spring-damping.png")


def springs_settling() -> None:
    ts = np.round(np.linspace(0, 3.2, 801), 6)
    fig, ax = plt().subplots(figsize=(8, 3.4))
    for k, (c, expect) in enumerate([(5, 2.855), (15, 1.022)]):
        with Engine() as e:
            settle = Animation.spring(e, "position.x", damping=c).settling_duration
        claim(abs(settle - expect) < 5e-4, f"damping {c} (mass 1, stiffness 100): settlingDuration = {settle:.4f} s (about {expect})")
        x = spring_curve(lambda e, c=c: Animation.spring(e, "position.x", from_=0.0, to=1.0, damping=c,
                                                          duration=10.0), ts)
        z, w0 = c / 20.0, 10.0
        wd = w0 * math.sqrt(1 - z * z)
        B = z * w0 / wd
        env = (1 + abs(B)) * np.exp(-z * w0 * ts)
        claim(close(float(np.log((1 + abs(B)) / 0.001) / (z * w0)), settle, 1e-9),
              f"damping {c}: the settling duration is where the envelope (1 + |B|) e^(-\u03b6\u03c90 s) reaches 0.001")
        ax.plot(ts, x, color=C[k], label=f"damping {c}: settlingDuration {settle:.3f} s")
        ax.plot(ts, env, color=C[k], lw=0.8, ls=":")
        ax.plot(ts, -env, color=C[k], lw=0.8, ls=":")
        ax.axvline(settle, color=C[k], lw=0.8, ls="--")
    ax.set_ylim(-1.1, 1.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("displacement")
    ax.set_title("settlingDuration: the envelope bound (dotted) falls to 0.001 (Apple's figures: 2.855 s, ~1.02 s)")
    ax.legend(loc="upper right")
    save(fig, "spring-settling.png")


def springs_perceptual() -> None:
    ts = np.round(np.linspace(0, 1.6, 641), 6)
    fig, ax = plt().subplots(figsize=(8, 3.4))
    d = 0.5
    for k, b in enumerate([-0.3, 0.0, 0.3, 0.6]):
        x = spring_curve(lambda e, b=b: Animation.spring_perceptual(e, "position.x", d, b, from_=0.0, to=1.0,
                                                                     fill_mode="forwards", removed_on_completion=False), ts)
        k_ = (2 * math.pi / d) ** 2
        z = 1 - b if b >= 0 else 1 / (1 + b)
        c = 4 * math.pi * z / d
        ref = spring_closed_form(1, k_, c, 0, ts)
        with Engine() as e:
            a = Animation.spring_perceptual(e, "position.x", d, b)
            settle = a.settling_duration
        claim(abs(settle - {-0.3: 1.38, 0.0: 0.73, 0.3: 0.86, 0.6: 1.45}[b]) < 5e-3,
              f"perceptual (0.5, {b}): settles at {settle:.2f} s (its duration)")
        active = ts <= settle
        claim(np.abs(x[active] - ref[active]).max() < 1e-9,
              f"perceptual (0.5, {b}): mass 1, stiffness (2\u03c0/d)^2 = {k_:.1f}, damping 4\u03c0\u03b6/d = {c:.2f}")
        if b == 0.3:
            claim(abs(k_ - 157.9) < 0.05 and abs(c - 17.6) < 0.05, "d = 0.5, b = 0.3 gives k \u2248 157.9, c \u2248 17.6")
        ax.plot(ts, x, color=C[k], label=f"bounce {b:+.1f}: \u03b6 = {z:.2f}, settles {settle:.2f} s")
        ax.axvline(settle, color=C[k], lw=0.8, ls="--")
    ax.axhline(0, color="#2d3436", lw=0.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("displacement")
    ax.set_title("perceptual springs, duration 0.5: the bounce sets the damping ratio; stiffness (2\u03c0/0.5)\u00b2 (dashed: duration)")
    ax.legend(loc="upper right")
    save(fig, "spring-perceptual.png")


def springs_uikit() -> None:
    D = 1.0
    ts = np.round(np.linspace(0, 1.4, 701), 6)
    fig, ax = plt().subplots(figsize=(8, 3.4))
    ax.axhspan(-0.001, 0.001, color="#b2bec3", alpha=0.5, lw=0)
    idx = {t: i for i, t in enumerate(ts)}
    for k, zeta in enumerate([0.3, 0.5, 0.8, 1.0]):
        x = spring_curve(lambda e, z=zeta: Animation.spring_uikit(e, "position.x", D, z, from_=0.0, to=1.0), ts)
        with Engine() as e:
            a = Animation.spring_uikit(e, "position.x", D, zeta)
            settle = a.settling_duration
        claim(abs(settle - D) < 1e-6, f"UIKit-style spring (1 s, damping ratio {zeta}): settling duration = its duration")
        claim(np.abs(x[idx[0.998]]) <= 0.0011, f"damping ratio {zeta}: |x| is about 0.001 or less when the 1 s animation ends")
        claim(close(x[idx[1.2]], 0.0, 1e-12), f"damping ratio {zeta}: after 1 s the animation is over (model value)")
        ax.plot(ts, x, color=C[k], label=f"dampingRatio {zeta}")
    ax.axvline(D, color="#636e72", lw=0.8, ls="--")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("displacement")
    ax.set_title("UIKit-style springs (duration 1 s): \u03c90 chosen so each settles exactly at the duration")
    ax.legend(loc="upper right")
    save(fig, "spring-uikit.png")


# ---------------------------------------------------------------------------
# keyframes.md
# ---------------------------------------------------------------------------

PTS = [(0.0, 0.0), (100.0, 0.0), (120.0, 80.0), (260.0, 100.0), (300.0, 20.0)]


def kf_sample(make, duration=2.0, n=41, dense=401, extra_reads=None):
    """Samples a keyframe animation of position: (coarse times, coarse points, dense times, dense points)."""
    tc = np.round(np.linspace(0, duration, n), 6)
    td = np.round(np.linspace(0, duration, dense), 6)
    ts = np.unique(np.concatenate([tc, td]))
    reads = {"p": ("layer", "position")}
    if extra_reads:
        reads.update(extra_reads)
    data = Run(one_layer(), lambda e, L: L["layer"].add_animation(make(e), "kf")).sample(ts, reads)
    pos = {t: data["p"][i] for i, t in enumerate(ts)}
    out = (tc, np.array([pos[t] for t in tc]), td, np.array([pos[t] for t in td]))
    if extra_reads:
        return out, {k: {t: data[k][i] for i, t in enumerate(ts)} for k in extra_reads}
    return out


def kf_axes(title):
    fig, (a1, a2) = plt().subplots(1, 2, figsize=(10, 3.3), gridspec_kw={"width_ratios": [1.25, 1]})
    a1.set_title(title, fontsize=9)
    a1.invert_yaxis()
    a1.set_aspect("equal", adjustable="datalim")
    a2.set_xlabel("time (s)")
    return fig, a1, a2


def kf_plot(a1, a2, tc, pc, td, pd, color=C[0], label=None, keys=PTS, key_times=None, duration=2.0):
    a1.plot(pd[:, 0], pd[:, 1], color=color, lw=1.2, alpha=0.7, label=label)
    a1.plot(pc[:, 0], pc[:, 1], "o", color=color, ms=3)
    if keys is not None:
        kx, ky = zip(*keys)
        a1.plot(kx, ky, "s", mfc="none", mec="#2d3436", ms=7)
    tt, xx = breaks(td, pd[:, 0], 40)
    a2.plot(tt, xx, color=color, label=f"x{' ' + label if label else ''}")
    tt, yy = breaks(td, pd[:, 1], 40)
    a2.plot(tt, yy, color=color, ls="--", label=f"y{' ' + label if label else ''}")
    if key_times is not None:
        for kt in key_times:
            a2.axvline(kt * duration, color="#b2bec3", lw=0.8)


def kf_linear() -> None:
    fig, a1, a2 = kf_axes("linear, key times evenly spaced (0, 0.25, 0.5, 0.75, 1): dots every 0.05 s")
    tc, pc, td, pd = kf_sample(lambda e: Animation.keyframe(e, "position", values=PTS, duration=2.0,
                                                             fill_mode="forwards", removed_on_completion=False))
    kf_plot(a1, a2, tc, pc, td, pd, key_times=[0, 0.25, 0.5, 0.75, 1])
    for j, kt in enumerate([0, 0.25, 0.5, 0.75, 1.0]):
        i = int(round(kt * 40))
        claim(np.allclose(pc[i], PTS[j]), f"linear: value {j} shows at key time {kt}")
    claim(np.allclose(pc[5], (50, 0)), "linear: within a segment, linear in the segment's progress (t = 0.25 s -> (50, 0))")
    a2.set_title("x (solid) and y (dashed); grey: key times", fontsize=9)
    a2.legend(loc="upper left", fontsize=7)
    save(fig, "kf-linear.png")

    # keyTimes and per-segment timing functions
    fig, a1, a2 = kf_axes("keyTimes 0, 0.1, 0.2, 0.9, 1; segment 3 eased (easeInEaseOut)")
    kts = [0, 0.1, 0.2, 0.9, 1]
    tc, pc, td, pd = kf_sample(lambda e: Animation.keyframe(
        e, "position", values=PTS, key_times=kts, duration=2.0, fill_mode="forwards", removed_on_completion=False,
        timing_functions=["linear", "linear", "easeInEaseOut", "linear"]))
    kf_plot(a1, a2, tc, pc, td, pd, color=C[4], key_times=kts)
    claim(np.allclose(pc[int(round(0.2 * 40))], PTS[2]) and np.allclose(pc[int(round(0.9 * 40))], PTS[3]),
          "keyTimes place the values: value 2 at 0.2, value 3 at 0.9")
    mid = pc[int(round(0.55 * 40))]
    claim(np.allclose(mid, (190, 90)), "a segment's timing function eases within the segment (midpoint of an easeInEaseOut segment = midpoint)")
    q = pc[int(round(0.375 * 40))]   # a quarter into segment 3 (0.2 .. 0.9): eased progress < 0.25
    e_q = cadence.evaluate_timing("easeInEaseOut", 0.25)
    claim(np.allclose(q, (120 + 140 * e_q, 80 + 20 * e_q)), "a quarter into the eased segment the progress is easeInEaseOut(0.25)")
    a2.legend(loc="upper left", fontsize=7)
    save(fig, "kf-keytimes.png")


def kf_discrete() -> None:
    vals = [0.0, 40.0, 10.0, 70.0]
    ts = np.round(np.linspace(0, 2.4, 961), 6)
    idx = {t: i for i, t in enumerate(ts)}
    fig, ax = plt().subplots(figsize=(8, 3.2))
    cases = [("no keyTimes: j/n (each value 1/4 of the time)", None, 0.0),
             ("n key times 0, 0.2, 0.5, 1: the last value only from t = 1 (the end, held by the fill)", [0, 0.2, 0.5, 1.0], 2.0),
             ("n+1 key times 0, 0.1, 0.3, 0.6, 1 (Core Animation's form)", [0, 0.1, 0.3, 0.6, 1.0], 4.0)]
    for k, (label, kts, off) in enumerate(cases):
        def make(e, kts=kts):
            return Animation.keyframe(e, "position.x", values=vals, key_times=kts, calculation_mode="discrete",
                                      duration=2.0, fill_mode="forwards", removed_on_completion=False)
        y = value_at(make, "position.x", ts)
        if kts is None:
            claim(close(y[idx[0.49]], 0) and close(y[idx[0.5]], 40) and close(y[idx[1.5]], 70) and close(y[idx[1.99]], 70),
                  "discrete without keyTimes: value j from j/n (n = 4 values: switches at 0.5, 1, 1.5 s of 2 s)")
        elif len(kts) == 4:
            claim(close(y[idx[0.395]], 0) and close(y[idx[0.4]], 40) and close(y[idx[1.995]], 10) and close(y[idx[2.0]], 70),
                  "discrete with n key times: value j from keyTimes[j]; the last value from key time 1, the end")
        else:
            claim(close(y[idx[0.19]], 0) and close(y[idx[0.2]], 40) and close(y[idx[1.2]], 70) and close(y[idx[1.99]], 70),
                  "discrete with n+1 key times: value j shows from keyTimes[j] until keyTimes[j+1]")
        tt, yy = breaks(ts, y + off, 5)
        ax.plot(tt, yy, color=C[k], label=label, lw=2.2)
    ax.axvline(2.0, color="#636e72", lw=0.8, ls="--")
    ax.set_xlabel("time (s), duration 2 (curves offset by 2 for legibility), fill forwards")
    ax.set_ylabel("position.x")
    ax.set_title("discrete: values 0, 40, 10, 70")
    ax.legend(loc="upper left", fontsize=7.5)
    save(fig, "kf-discrete.png")


def along(pts, dist):
    """The point at arc length ``dist`` along the polyline ``pts``."""
    for a, b in zip(pts, pts[1:]):
        L = math.dist(a, b)
        if dist <= L or b == pts[-1]:
            u = min(dist / L, 1.0) if L else 0.0
            return (a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]))
        dist -= L
    return pts[-1]


def travelled(pd: np.ndarray) -> np.ndarray:
    """Cumulative distance along densely sampled positions."""
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pd, axis=0).T))])


def kf_paced() -> None:
    fig, a1, a2 = kf_axes("paced (blue) vs linear (grey): dots every 0.05 s")
    tc, pc, td, pd = kf_sample(lambda e: Animation.keyframe(e, "position", values=PTS, duration=2.0,
                                                             calculation_mode="paced", key_times=[0, 0.9, 0.95, 0.97, 1],
                                                             timing_functions=["easeIn"] * 4,
                                                             fill_mode="forwards", removed_on_completion=False))
    tc2, pc2, td2, pd2 = kf_sample(lambda e: Animation.keyframe(e, "position", values=PTS, duration=2.0,
                                                                fill_mode="forwards", removed_on_completion=False))
    a1.plot(pc2[:, 0], pc2[:, 1], "o", color="#b2bec3", ms=6, alpha=0.6)
    kf_plot(a1, a2, tc, pc, td, pd, color=C[0], label="paced")
    lengths = [math.dist(PTS[i], PTS[i + 1]) for i in range(len(PTS) - 1)]
    total = sum(lengths)
    expect = np.array([along(PTS, total * t / 2.0) for t in tc])
    claim(np.abs(pc - expect).max() < 1e-6,
          f"paced: constant speed ({total / 2:.1f} pt/s over the {total:.1f} pt polyline); keyTimes and timingFunctions are ignored")
    a2.cla()
    a2.plot(td, travelled(pd), color=C[0], label="paced: a straight line (constant speed)")
    a2.plot(td2, travelled(pd2), color="#b2bec3", label="linear: each segment gets 0.5 s")
    for kt in (0.25, 0.5, 0.75):
        a2.axvline(kt * 2, color="#dfe6e9", lw=0.8)
    a2.set_title("distance travelled along the keyframes (pt)", fontsize=9)
    a2.set_xlabel("time (s)")
    a2.legend(loc="upper left", fontsize=7)
    save(fig, "kf-paced.png")


def catmull_rom(pts, p: float):
    """Uniform Catmull-Rom through ``pts`` at overall progress ``p`` (end points duplicated)."""
    P = np.asarray(pts, dtype=np.float64)
    n = len(P) - 1
    j = min(int(p * n), n - 1)
    u = p * n - j
    p0, p1, p2, p3 = P[max(j - 1, 0)], P[j], P[j + 1], P[min(j + 2, n)]
    m1, m2 = (p2 - p0) / 2, (p3 - p1) / 2
    return ((2 * u ** 3 - 3 * u ** 2 + 1) * p1 + (u ** 3 - 2 * u ** 2 + u) * m1
            + (-2 * u ** 3 + 3 * u ** 2) * p2 + (u ** 3 - u ** 2) * m2)


def kochanek_bartels(pts, p: float, t: float = 0.0, c: float = 0.0, b: float = 0.0):
    """The Kochanek–Bartels spline of the 1984 paper (as on Wikipedia: outgoing tangent
    DD_i = (1-t)(1+b)(1+c)/2 (P_i - P_i-1) + (1-t)(1-b)(1-c)/2 (P_i+1 - P_i), incoming
    DS_i = (1-t)(1+b)(1-c)/2 (P_i - P_i-1) + (1-t)(1-b)(1+c)/2 (P_i+1 - P_i)), uniform key
    times, end points duplicated, at overall progress ``p``."""
    P = np.asarray(pts, dtype=np.float64)
    n = len(P) - 1
    j = min(int(p * n), n - 1)
    u = p * n - j

    def chords(i):
        return P[i] - P[max(i - 1, 0)], P[min(i + 1, n)] - P[i]

    a0, a1 = chords(j)
    m1 = (1 - t) * (1 + b) * (1 + c) / 2 * a0 + (1 - t) * (1 - b) * (1 - c) / 2 * a1
    b0, b1 = chords(j + 1)
    m2 = (1 - t) * (1 + b) * (1 - c) / 2 * b0 + (1 - t) * (1 - b) * (1 + c) / 2 * b1
    p1, p2 = P[j], P[j + 1]
    return ((2 * u ** 3 - 3 * u ** 2 + 1) * p1 + (u ** 3 - 2 * u ** 2 + u) * m1
            + (-2 * u ** 3 + 3 * u ** 2) * p2 + (u ** 3 - u ** 2) * m2)


def kf_cubic() -> None:
    variants = [("tension, continuity, bias 0 (Catmull-Rom)", (0, 0, 0)),
                ("tension +0.8", (0.8, 0, 0)), ("tension −0.8", (-0.8, 0, 0)),
                ("continuity −0.8", (0, -0.8, 0)), ("continuity +0.8", (0, 0.8, 0)),
                ("bias +0.8", (0, 0, 0.8))]
    fig, axes = plt().subplots(2, 3, figsize=(10, 4.6))
    base = None
    for ax, (title, (t_, c_, b_)) in zip(axes.ravel(), variants):
        def make(e, t_=t_, c_=c_, b_=b_):
            a = Animation.keyframe(e, "position", values=PTS, duration=2.0, calculation_mode="cubic",
                                   fill_mode="forwards", removed_on_completion=False)
            if (t_, c_, b_) != (0, 0, 0):
                a.tcb = dict(tension=[t_] * 5, continuity=[c_] * 5, bias=[b_] * 5)
            return a
        tc, pc, td, pd = kf_sample(make)
        for j in range(5):
            claim(np.allclose(pc[j * 10], PTS[j], atol=1e-9), f"cubic ({title}): passes through value {j} at its key time")
        ref = np.array([kochanek_bartels(PTS, t / 2.0, t_, c_, b_) for t in td])
        err = np.abs(pd - ref).max()
        if (t_, c_, b_) == (0, 0, 0):
            base = pd
            cr = np.array([catmull_rom(PTS, t / 2.0) for t in td])
            claim(np.abs(pd - cr).max() < 1e-6,
                  "cubic with tension = continuity = bias = 0 is Catmull-Rom (tangents (P[j+1] - P[j-1]) / 2, end points duplicated)")
        else:
            claim(np.abs(pd - base).max() > 1.0, f"cubic: {title} changes the curve")
        if c_ == 0:
            claim(err < 1e-6, f"cubic ({title}) equals the Kochanek–Bartels formula (max error {err:.1e} pt)")
        else:
            # Apple: "Positive values result in sharper corners while negative values create inverted
            # corners" -- the opposite sign of the paper's c (c = -1 "box corners", +1 "inverted corners")
            apple = np.array([kochanek_bartels(PTS, t / 2.0, t_, -c_, b_) for t in td])
            claim(np.abs(pd - apple).max() < 1e-6 and err > 1.0,
                  f"cubic ({title}): continuity follows Apple's sign (positive = sharper corners), i.e. the paper's "
                  f"formula with c = {-c_:+g} (the paper's own sign would differ by {err:.1f} pt)")
        ax.plot(base[:, 0], base[:, 1], color="#dfe6e9", lw=3)
        if c_ != 0 and err > 1e-6:
            ax.plot(ref[:, 0], ref[:, 1], color=C[1], lw=1, ls="--", label="the paper's sign of c")
            ax.legend(loc="lower left", fontsize=7)
        ax.plot(pd[:, 0], pd[:, 1], color=C[0], lw=1.3)
        ax.plot(pc[:, 0], pc[:, 1], "o", color=C[0], ms=2.5)
        kx, ky = zip(*PTS)
        ax.plot(kx, ky, "s", mfc="none", mec="#2d3436", ms=6)
        ax.set_title(title, fontsize=9)
        ax.invert_yaxis()
        ax.set_aspect("equal", adjustable="datalim")
    fig.suptitle("cubic through the same 5 points (engine, blue; dots every 0.05 s); pale: Catmull-Rom", y=1.0)
    fig.tight_layout()
    save(fig, "kf-cubic.png")


def kf_cubic_paced() -> None:
    fig, a1, a2 = kf_axes("cubic (grey dots) vs cubicPaced (blue dots): same curve, re-timed")
    tc, pc, td, pd = kf_sample(lambda e: Animation.keyframe(e, "position", values=PTS, duration=2.0,
                                                             calculation_mode="cubicPaced", fill_mode="forwards",
                                                             removed_on_completion=False), dense=801)
    tc2, pc2, td2, pd2 = kf_sample(lambda e: Animation.keyframe(e, "position", values=PTS, duration=2.0,
                                                                calculation_mode="cubic", fill_mode="forwards",
                                                                removed_on_completion=False), dense=801)
    a1.plot(pc2[:, 0], pc2[:, 1], "o", color="#b2bec3", ms=6, alpha=0.7)
    kf_plot(a1, a2, tc, pc, td, pd, color=C[0], label="cubicPaced")
    steps = np.hypot(*np.diff(pc, axis=0).T)
    claim(steps.std() / steps.mean() < 0.02, f"cubicPaced: constant speed along the spline (step spread {steps.std() / steps.mean():.2%})")
    # the same curve: every cubicPaced point lies on the cubic curve
    dmin = max(np.min(np.hypot(*(pd2 - p).T)) for p in pc)
    claim(dmin < 0.5, f"cubicPaced follows the cubic spline's path (within {dmin:.2f} pt of a sample of it, spaced ~0.5 pt)")
    a2.cla()
    a2.plot(td2, travelled(pd2), color="#b2bec3", label="cubic")
    a2.plot(td, travelled(pd), color=C[0], label="cubicPaced")
    a2.set_title("distance travelled along the curve (pt)", fontsize=9)
    a2.set_xlabel("time (s)")
    a2.legend(loc="upper left", fontsize=7)
    save(fig, "kf-cubic-paced.png")


def kf_path() -> None:
    path = Path().move_to(0, 100).line_to(60, 100).cubic_to(100, -40, 240, 240, 300, 60)
    fig, axes = plt().subplots(1, 2, figsize=(10, 3.6))
    reads = {"rot": ("layer", "transform.rotation.z")}
    for ax, mode in zip(axes, ["linear", "paced"]):
        (tc, pc, td, pd), extra = kf_sample(lambda e, mode=mode: Animation.keyframe(
            e, "position", path=path, calculation_mode=mode, rotation_mode="auto", duration=2.0,
            fill_mode="forwards", removed_on_completion=False), n=25, dense=401, extra_reads=reads)
        rot = extra["rot"]
        show = slice(0, None, 2)
        ax.plot(pd[:, 0], pd[:, 1], color="#b2bec3", lw=1.2)
        ang = np.array([rot[t][0] for t in tc])
        ax.plot(pc[:, 0], pc[:, 1], "o", color="#636e72", ms=2.5)
        ax.quiver(pc[show, 0], pc[show, 1], np.cos(ang[show]), np.sin(ang[show]), angles="xy", scale_units="xy",
                  scale=1 / 16, color=C[0] if mode == "linear" else C[2], width=0.005)
        ax.set_title(f"calculationMode {mode}: dots every 1/12 s, arrows (rotation.z) every 1/6 s", fontsize=9)
        ax.invert_yaxis()
        ax.set_aspect("equal", adjustable="datalim")
        if mode == "linear":
            claim(np.allclose(pc[12], (60, 100)), "path, linear: each drawable segment gets an equal share of time (the line ends at t = 1 s of 2)")
            seg1 = np.hypot(*np.diff(pc[:13], axis=0).T)
            claim(np.abs(seg1 - 5).max() < 1e-3, "path, linear: constant speed within a segment (the 60 pt line in 1 s: 5 pt per 1/12 s)")
            claim(all(abs(rot[t][0]) < 1e-9 for t in tc[:12]), "rotationMode auto: angle 0 along the horizontal line")
            # tangent of the cubic at its start: direction (100 - 60, -40 - 100)
            t_after = tc[13]
            expect = math.atan2(-140, 40)
            claim(abs(rot[tc[12]][0]) < 1e-9 or abs(rot[tc[12]][0] - expect) < 1e-6, "at the joint the angle switches to the cubic's tangent")
            claim(abs(rot[t_after][0] - expect) < 0.35, "just after the joint the ship points up along the cubic's tangent atan2(dy, dx)")
        else:
            # the path as a fine polyline: the line, then the cubic
            u = np.linspace(0, 1, 20001)[:, None]
            P0, P1, P2, P3 = (np.array(v, dtype=np.float64) for v in ((60, 100), (100, -40), (240, 240), (300, 60)))
            cub = (1 - u) ** 3 * P0 + 3 * (1 - u) ** 2 * u * P1 + 3 * (1 - u) * u ** 2 * P2 + u ** 3 * P3
            poly = np.vstack([[(0.0, 100.0)], cub])
            seg = np.hypot(*np.diff(poly, axis=0).T)
            arc = np.concatenate([[0], np.cumsum(seg)])
            expect = np.array([[np.interp(arc[-1] * t / 2.0, arc, poly[:, 0]), np.interp(arc[-1] * t / 2.0, arc, poly[:, 1])]
                               for t in tc])
            err = np.abs(pc - expect).max()
            claim(err < 0.05, f"path, paced: constant speed over the whole {arc[-1]:.1f} pt path, by arc length (within {err:.3f} pt)")
        # rotation equals the direction of motion everywhere
        vel = np.diff(pd, axis=0)
        motion = np.arctan2(vel[:, 1], vel[:, 0])
        rots = np.array([rot[t][0] for t in td[:-1]])
        err = np.abs((motion - rots + np.pi) % (2 * np.pi) - np.pi)
        claim(np.median(err) < 0.02, f"rotationMode auto ({mode}): the angle follows the direction of motion (median error {np.median(err):.3f} rad)")
    fig.tight_layout()
    save(fig, "kf-path.png")

    # autoReverse adds pi
    (tc, pc, td, pd), extra = kf_sample(lambda e: Animation.keyframe(
        e, "position", path=path, rotation_mode="autoReverse", duration=2.0), n=25, dense=25,
        extra_reads=reads)
    claim(abs(abs(extra["rot"][tc[3]][0]) - math.pi) < 1e-9, "rotationMode autoReverse adds \u03c0 (on the line: \u00b1\u03c0)")


# ---------------------------------------------------------------------------
# transitions: flip and cube (docs/decisions.md, Transitions)
# ---------------------------------------------------------------------------

def turning_pictures(kind: str, sub: str, p: float):
    """The render list of a 200 x 100 layer at (300, 200) under a 600 x 400 root,
    with a `kind` transition held at progress p (start = end progress = p):
    [(contents id, world opacity, projected corners)] of its two pictures."""
    e = Engine()
    root = e.create_layer()
    root["bounds"] = (0, 0, 600, 400)
    root["anchorPoint"] = (0, 0)
    lay = e.create_layer()
    root.add_sublayer(lay)
    lay["bounds"] = (0, 0, 200, 100)
    lay["position"] = (300, 200)
    lay["contents"] = 1
    e.tick(0.0)
    e.tick(1.0)
    lay.add_animation(Animation.transition(e, kind, sub, duration=1.0, start_progress=p, end_progress=p), "transition")
    lay["contents"] = 2
    e.tick(1.01)
    out = []
    for it in e.render_list(root, copy=True):
        if int(it["contents"]) == 0:
            continue
        w = np.array(it["world"], dtype=float).reshape(4, 4)   # row vectors
        x, y, bw, bh = (float(v) for v in it["bounds"])
        q = []
        for cx, cy in ((x, y), (x + bw, y), (x + bw, y + bh), (x, y + bh)):
            v = np.array([cx, cy, 0.0, 1.0]) @ w
            q.append((v[0] / v[3], v[1] / v[3]))
        out.append((int(it["contents"]), float(it["world_opacity"]), q))
    e.close()
    return out


def tr_turning() -> None:
    p_ = plt()
    from matplotlib.patches import Polygon

    ps = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0]
    rows = [("flip", "fromLeft"), ("flip", "fromTop"), ("cube", "fromLeft"), ("cube", "fromTop")]
    fig, axes = p_.subplots(len(rows), len(ps), figsize=(2.1 * len(ps), 1.45 * len(rows)))
    for r, (kind, sub) in enumerate(rows):
        for c, prog in enumerate(ps):
            ax = axes[r][c]
            ax.set_xlim(160, 440); ax.set_ylim(290, 110); ax.set_aspect("equal"); ax.axis("off")
            ax.add_patch(Polygon([(200, 150), (400, 150), (400, 250), (200, 250)], fill=False, ls=":", ec="#999"))
            for cid, alpha, q in turning_pictures(kind, sub, prog):
                if alpha == 0:
                    continue                      # a hidden face: drawn by no host
                col = C[0] if cid == 1 else C[3]
                ax.add_patch(Polygon(q, closed=True, fc=col, alpha=0.55, ec=col, lw=1.5))
                # the picture's left edge: a dot at its middle
                ax.plot([(q[0][0] + q[3][0]) / 2], [(q[0][1] + q[3][1]) / 2], "o", color="#2d3436", ms=3)
            ax.set_title(f"{kind} {sub}, p = {prog:g}", fontsize=7)
    fig.suptitle("flip and cube: outgoing (blue) and incoming (orange) pictures as drawn in list order", fontsize=9)
    fig.tight_layout()
    save(fig, "turning-transitions.png")

    def span(q, i):
        return min(v[i] for v in q), max(v[i] for v in q)

    flip = {cid: (a, q) for cid, a, q in turning_pictures("flip", "fromLeft", 0.25)}
    q = flip[1][1]
    left, right = abs(q[3][1] - q[0][1]), abs(q[2][1] - q[1][1])
    claim(flip[1][0] > 0 and flip[2][0] == 0 and left > right,
          "flip fromLeft at p = 0.25: only the outgoing face shows, its left edge nearer (taller) than its right")
    for prog, shows in ((0.0, (True, False)), (0.1, (True, False)), (0.25, (True, True)), (0.9, (False, True))):
        cube = {cid: (a, q) for cid, a, q in turning_pictures("cube", "fromLeft", prog)}
        claim((cube[1][0] > 0, cube[2][0] > 0) == shows,
              f"cube fromLeft at p = {prog:g}: faces shown (outgoing, incoming) = {shows} "
              "(a face turned away from the viewer is hidden: cos \u03c6 > 0.2 here)")
    cube = {cid: q for cid, a, q in turning_pictures("cube", "fromLeft", 0.25)}
    claim(span(cube[2], 0)[1] <= span(cube[1], 0)[0] + 1e-3,
          "cube fromLeft at p = 0.25: the incoming face lies left of the outgoing one (they share an edge, no overlap)")


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

GROUPS = {
    "semantics": [sem_fill_modes, sem_repeat, sem_time_offset, sem_pause_resume, sem_hierarchy, sem_begin_time,
                  sem_events_and_spec_examples],
    "timing": [tf_named, tf_overshoot, tf_steps],
    "springs": [springs_damping, springs_settling, springs_perceptual, springs_uikit],
    "keyframes": [kf_linear, kf_discrete, kf_paced, kf_cubic, kf_cubic_paced, kf_path],
    "transitions": [tr_turning],
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    global CHECK_ONLY, OUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compute and assert every claim, write no files")
    ap.add_argument("--only", default="", help="comma-separated groups: " + ",".join(GROUPS))
    ap.add_argument("--out", default=OUT, help="output directory (default docs/img)")
    ap.add_argument("--demo", action="store_true",
                    help="also regenerate docs/img/demo.gif, demo-<scene>.png and pygame-host.png")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every claim checked")
    args = ap.parse_args(argv)
    CHECK_ONLY = args.check
    OUT = args.out
    groups = [g.strip() for g in args.only.split(",") if g.strip()] or list(GROUPS)
    print(f"cadence {cadence.LIBRARY_VERSION} from {cadence.LIBRARY_PATH}")
    t0 = time.perf_counter()
    for g in groups:
        for fn in GROUPS[g]:
            ts = time.perf_counter()
            n0 = len(CLAIMS)
            fn()
            print(f"  {g:9s} {fn.__name__:28s} {len(CLAIMS) - n0:3d} claims  {time.perf_counter() - ts:5.2f} s")
    if args.verbose:
        for c in CLAIMS:
            print("   ok:", c)
    if args.demo and not CHECK_ONLY:
        sys.path.insert(0, os.path.join(ROOT, "examples", "demo"))
        import demo

        import tempfile

        with tempfile.TemporaryDirectory() as tmp:   # only the small copies are kept (in OUT)
            demo.main(["--out", tmp, "--every", "0", "--docs", OUT])
        # the pygame host's frame at t = 1 s (examples/pygame/README.md)
        import subprocess

        shot = os.path.join(OUT, "pygame-host.png")
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "pygame", "host.py"), "--time", "1.0",
                        "--frames", "30", "--screenshot", shot], check=True, env=env)
        WRITTEN.append(shot)
    print(f"{len(CLAIMS)} claims hold; {len(WRITTEN)} pictures written in {time.perf_counter() - t0:.1f} s"
          + (f" to {OUT}" if WRITTEN else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
