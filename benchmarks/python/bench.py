#!/usr/bin/env python3
"""Python-host benchmarks of libcadence through the `cadence` binding.

    python3 benchmarks/python/bench.py [--libdir DIR] [--json FILE] [--layers N] [--quick]

Scene: scene A of the C benchmarks at 10k layers (10k layers under one root,
each with one linear, infinite basic animation of `position`), built through
the binding's low-level table. Three measurements, each side by side in one
process on one engine:

1. Frame from Python vs frame from C. A Python frame is
   ``engine.tick(now); engine.render_list(root)`` (the binding's high-level
   API, which writes straight into a numpy structured array it keeps); a
   second Python variant calls the low-level table (``cadence.lib``) into a
   preallocated numpy array. The C frame is ``cad_engine_tick`` +
   ``cad_engine_render_list`` called from C and timed in C (pyhelper.c, given
   the library's own function pointers, so both hosts drive the same loaded
   library and engine). Frames alternate between the three variants (the
   order rotates every round).
2. One call per layer: ``layer.presentation("position")`` for every layer
   (the high-level API) vs the tick + render-list frame of (1). Only one value
   per layer is read, so this is a lower bound of "reading the same values".
3. A scalar getter through the low-level table,
   ``lib.cad_layer_get(e, layer, b"opacity", buf, 1, nref)``, vs a trivial C
   function with the same argument types bound with the same argtypes
   (pyhelper.c's ``noop``). Same loop, same argument objects, alternating
   repeats.

Medians everywhere. Writes a JSON object with --json.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DT = 1.0 / 60.0


def stats(v: List[float]) -> Dict[str, float]:
    s = sorted(v)
    n = len(s)
    p99 = s[max(0, -(-99 * n // 100) - 1)]
    return {"median": statistics.median(s), "p99": p99, "min": s[0], "max": s[-1], "mean": sum(s) / n, "n": n}


def build_helper(build_dir: Path, cc: str) -> Path:
    build_dir.mkdir(parents=True, exist_ok=True)
    src = HERE / "pyhelper.c"
    out = build_dir / "libpyhelper.so"
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        subprocess.run([cc, "-O2", "-std=c11", "-shared", "-fPIC", str(src), "-o", str(out)], check=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libdir", help="directory of libcadence.so (default: the binding's own lookup)")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--layers", type=int, default=10000, help="layers under the root (default 10000)")
    ap.add_argument("--target-seconds", type=float, default=3.0, help="budget per measurement")
    ap.add_argument("--build-dir", default=str(HERE / "build"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.target_seconds = 0.7

    if args.libdir:
        os.environ["CADENCE_LIBRARY"] = str(Path(args.libdir).resolve() / "libcadence.so")
    sys.path.insert(0, str(REPO / "bindings" / "python"))
    import numpy as np
    import cadence
    from cadence import lib

    helper = ctypes.CDLL(str(build_helper(Path(args.build_dir), args.cc)))
    print(f"cadence binding {cadence.__version__}, library {cadence.LIBRARY_VERSION} at {cadence.LIBRARY_PATH}",
          file=sys.stderr)

    c_u64, c_i32, c_dbl = ctypes.c_uint64, ctypes.c_int32, ctypes.c_double
    byref = ctypes.byref

    def ck(st: int, what: str) -> None:
        if st != 0:
            raise RuntimeError(f"{what}: {lib.cad_status_name(st).decode()} ({lib.cad_last_error().decode()})")

    engine = cadence.Engine()
    e = engine.pointer

    # ---- scene A at args.layers (the same recipe as benchmarks/c/bench.c) ----
    t_setup = time.perf_counter()
    n = args.layers

    def new_layer() -> int:
        h = c_u64()
        ck(lib.cad_layer_create(e, byref(h)), "cad_layer_create")
        return h.value

    def setv(h: int, key: bytes, *vals: float) -> None:
        arr = (c_dbl * len(vals))(*vals)
        ck(lib.cad_layer_set(e, h, key, arr, len(vals)), key.decode())

    root = new_layer()
    setv(root, b"bounds", 0, 0, 1920, 1080)
    setv(root, b"position", 960, 540)
    anim = c_u64()
    ck(lib.cad_anim_create(e, lib.CAD_ANIM_BASIC, b"position", byref(anim)), "cad_anim_create")
    a = anim.value
    ck(lib.cad_anim_set_duration(e, a, 4.0), "duration")
    ck(lib.cad_anim_set_autoreverses(e, a, 1), "autoreverses")
    ck(lib.cad_anim_set_repeat_count(e, a, float("inf")), "repeat")
    ck(lib.cad_anim_set_timing_function(e, a, lib.CAD_TIMING_LINEAR), "timing")
    handles = []
    for i in range(1, n + 1):
        h = new_layer()
        ck(lib.cad_layer_add_sublayer(e, root, h), "add_sublayer")
        x, y = float((i * 7) % 1900), float((i * 13) % 1060)
        setv(h, b"bounds", 0, 0, 8, 8)
        setv(h, b"position", x, y)
        setv(h, b"backgroundColor", (i % 255) / 255.0, 0.5, 1.0 - (i % 127) / 127.0, 1.0)
        ck(lib.cad_anim_set_from(e, a, (c_dbl * 2)(x, y), 2), "from")
        ck(lib.cad_anim_set_to(e, a, (c_dbl * 2)(x + 100.0, y + 60.0), 2), "to")
        ck(lib.cad_anim_set_time_offset(e, a, (i % 256) * (1.0 / 64.0)), "time_offset")
        ck(lib.cad_layer_add_animation(e, h, a, b"move"), "add_animation")
        handles.append(h)
    ck(lib.cad_anim_destroy(e, a), "anim_destroy")
    now = 0.0
    engine.tick(now)
    setup_s = time.perf_counter() - t_setup

    root_layer = engine.layer(root)
    layers = [engine.layer(h) for h in handles]

    # preallocated numpy buffer for the low-level variant and the C frames
    need = c_i32()
    lib.cad_engine_render_list(e, root, None, 0, byref(need))
    cap = need.value + 16
    buf_ll = np.zeros(cap, dtype=cadence.RENDER_ITEM_DTYPE)
    ptr_ll = ctypes.cast(buf_ll.ctypes.data, ctypes.POINTER(cadence.cad_render_item))
    buf_c = np.zeros(cap, dtype=cadence.RENDER_ITEM_DTYPE)
    ptr_c = ctypes.c_void_p(buf_c.ctypes.data)

    tick_ptr = ctypes.cast(lib.cad_engine_tick, ctypes.c_void_p)
    render_ptr = ctypes.cast(lib.cad_engine_render_list, ctypes.c_void_p)
    cref = helper.cref_frame
    cref.restype = ctypes.c_int32
    cref.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p,
                     ctypes.c_int32, ctypes.c_double, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int32)]
    c_ns = ctypes.c_int64()
    c_n = c_i32()
    ll_n = c_i32()
    pc = time.perf_counter_ns
    l_tick, l_render = lib.cad_engine_tick, lib.cad_engine_render_list

    def frame_hl() -> float:
        nonlocal now
        now += DT
        t0 = pc()
        engine.tick(now)
        arr = engine.render_list(root_layer)
        t1 = pc()
        assert arr.shape[0] == n + 1
        return t1 - t0

    def frame_ll() -> float:
        nonlocal now
        now += DT
        t0 = pc()
        st = l_tick(e, now)
        st2 = l_render(e, root, ptr_ll, cap, byref(ll_n))
        t1 = pc()
        ck(st or st2, "low-level frame")
        return t1 - t0

    def frame_c() -> float:
        nonlocal now
        now += DT
        ck(cref(tick_ptr, render_ptr, e, root, ptr_c, cap, now, byref(c_ns), byref(c_n)), "C frame")
        return float(c_ns.value)

    # warm-up
    t0 = time.perf_counter()
    for _ in range(50):
        frame_hl(); frame_ll(); frame_c()
    per_round = (time.perf_counter() - t0) / 50
    rounds = int(min(2000, max(21, args.target_seconds / per_round)))
    print(f"scene: {n + 1} layers (setup {setup_s:.2f} s); {rounds} rounds of (high-level, low-level, C) frames",
          file=sys.stderr)
    hl: List[float] = []
    ll: List[float] = []
    cc: List[float] = []
    order = [(frame_hl, hl), (frame_ll, ll), (frame_c, cc)]
    for r in range(rounds):
        # rotate the order every round so no variant always follows the same one
        for k in range(3):
            fn, dest = order[(r + k) % 3]
            dest.append(fn())
    assert c_n.value == n + 1 and ll_n.value == n + 1
    s_hl, s_ll, s_c = stats(hl), stats(ll), stats(cc)
    ratio_hl = s_hl["median"] / s_c["median"]
    ratio_ll = s_ll["median"] / s_c["median"]
    # the same ratios, paired round by round (robust to slow changes of machine load) and of the minima
    paired_hl = statistics.median(h / c for h, c in zip(hl, cc))
    paired_ll = statistics.median(x / c for x, c in zip(ll, cc))
    min_hl = s_hl["min"] / s_c["min"]
    min_ll = s_ll["min"] / s_c["min"]
    print(f"  frame from C         {s_c['median'] / 1e3:10.1f} us", file=sys.stderr)
    print(f"  frame from Python    {s_hl['median'] / 1e3:10.1f} us  ratio {ratio_hl:.3f} (paired {paired_hl:.3f}, "
          f"of minima {min_hl:.3f})  (Engine.tick + Engine.render_list)", file=sys.stderr)
    print(f"  low-level table      {s_ll['median'] / 1e3:10.1f} us  ratio {ratio_ll:.3f} (paired {paired_ll:.3f}, "
          f"of minima {min_ll:.3f})  (cadence.lib into a numpy buffer)", file=sys.stderr)

    # ---- 2. one call per layer ----
    def reads_pass() -> float:
        t0 = pc()
        for L in layers:
            L.presentation("position")
        return pc() - t0

    reads_pass()
    est = reads_pass()
    reps = int(min(50, max(5, args.target_seconds * 1e9 / max(est, 1))))
    reads, tick_reads, frames2 = [], [], []
    for _ in range(reps):
        now += DT
        t0 = pc()
        engine.tick(now)
        t1 = pc()
        r = reads_pass()
        tick_reads.append((t1 - t0) + r)
        reads.append(r)
        frames2.append(frame_hl())
    s_reads, s_tr, s_f2 = stats(reads), stats(tick_reads), stats(frames2)
    ratio_reads = s_reads["median"] / s_f2["median"]
    ratio_tick_reads = s_tr["median"] / s_f2["median"]
    print(f"  per-layer reads      {s_reads['median'] / 1e3:10.1f} us  ({s_reads['median'] / n:.0f} ns per call); "
          f"reads / (tick + render list) = {ratio_reads:.2f}x; (tick + reads) / (tick + render list) = {ratio_tick_reads:.2f}x",
          file=sys.stderr)

    # ---- 3. scalar getter vs a trivial ctypes call ----
    getter = lib.cad_layer_get
    noop = helper.noop
    noop.argtypes = getter.argtypes
    noop.restype = getter.restype
    target = handles[len(handles) // 2]
    kp = b"opacity"
    gbuf = (c_dbl * 1)()
    gn = c_i32()
    gref = byref(gn)
    ck(getter(e, target, kp, gbuf, 1, gref), "cad_layer_get")

    def loop(f: Callable[..., int], count: int) -> int:
        t0 = pc()
        for _ in range(count):
            f(e, target, kp, gbuf, 1, gref)
        return pc() - t0

    def empty(count: int) -> int:
        t0 = pc()
        for _ in range(count):
            pass
        return pc() - t0

    calls = 20000 if args.quick else 100000
    loop(getter, calls)
    loop(noop, calls)
    g, z, o = [], [], []
    for _ in range(21 if not args.quick else 9):
        g.append(loop(getter, calls) / calls)
        z.append(loop(noop, calls) / calls)
        o.append(empty(calls) / calls)
    s_g, s_z, s_o = stats(g), stats(z), stats(o)
    ratio_get = s_g["median"] / s_z["median"]
    paired_get = statistics.median(a / b for a, b in zip(g, z))
    print(f"  scalar getter        {s_g['median']:10.1f} ns per call; trivial ctypes call {s_z['median']:.1f} ns; "
          f"ratio {ratio_get:.3f} (paired {paired_get:.3f}; empty loop {s_o['median']:.1f} ns)", file=sys.stderr)

    engine.close()
    out: Dict[str, Any] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "binding_version": cadence.__version__,
        "library_path": cadence.LIBRARY_PATH,
        "layers": n + 1,
        "setup_seconds": setup_s,
        "rounds": rounds,
        "frame_ns": {"c": s_c, "python_highlevel": s_hl, "python_lowlevel": s_ll},
        "ratio_python_to_c": ratio_hl,
        "ratio_lowlevel_to_c": ratio_ll,
        "paired_ratio_python_to_c": paired_hl,
        "paired_ratio_lowlevel_to_c": paired_ll,
        "min_ratio_python_to_c": min_hl,
        "min_ratio_lowlevel_to_c": min_ll,
        "per_layer_reads": {
            "keypath": "position",
            "calls_per_pass": n,
            "reps": reps,
            "reads_ns": s_reads,
            "tick_plus_reads_ns": s_tr,
            "frame_ns": s_f2,
            "ns_per_call": s_reads["median"] / n,
            "ratio_reads_to_frame": ratio_reads,
            "ratio_tick_reads_to_frame": ratio_tick_reads,
        },
        "scalar_getter": {
            "calls_per_repeat": calls,
            "cad_layer_get_ns": s_g,
            "noop_ns": s_z,
            "empty_loop_ns": s_o,
            "ratio": ratio_get,
            "paired_ratio": paired_get,
            "min_ratio": s_g["min"] / s_z["min"],
        },
    }
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
