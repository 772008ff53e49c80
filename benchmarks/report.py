#!/usr/bin/env python3
"""Merges the benchmark outputs into benchmarks/results.json and writes
docs/performance.md and the scaling plot (docs/img/scaling.png).

    python3 benchmarks/report.py --c c.json --bezier bezier.json [--python python.json]
                                 [--results benchmarks/results.json] [--doc docs/performance.md]
                                 [--plot docs/img/scaling.png] [--libdir DIR] [--loadavg "..."]
    python3 benchmarks/report.py --from-results benchmarks/results.json   # re-render the doc only

Every goal of the performance issue is evaluated here (see GOALS); a goal that
is not met is reported as FAIL in the document, the script still writes it.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


# --------------------------------------------------------------------------------------------
# machine


def _first_line(cmd: List[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (out.stdout or out.stderr).strip()
        return text.splitlines()[0] if text else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_info(loadavg: Optional[str], pinned: Optional[str]) -> Dict[str, Any]:
    cpu = ""
    flags = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and not cpu:
                cpu = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = line.split(":", 1)[1]
    except OSError:
        cpu = platform.processor()
    mem_kb = 0
    try:
        m = re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text())
        mem_kb = int(m.group(1)) if m else 0
    except OSError:
        pass
    return {
        "cpu": cpu or platform.processor() or "unknown",
        "cores": os.cpu_count(),
        "memory_gib": round(mem_kb / 1024 / 1024, 1),
        "avx2": " avx2" in flags,
        "kernel": platform.release(),
        "os": platform.platform(),
        "swift": _first_line(["swift", "--version"]),
        "cc": _first_line([os.environ.get("CC", "cc"), "--version"]),
        "python": platform.python_version(),
        "loadavg_at_start": loadavg,
        "pinned_cpu": pinned,
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


# --------------------------------------------------------------------------------------------
# goals


def _get(d: Any, *path: Any) -> Any:
    for p in path:
        if d is None:
            return None
        try:
            d = d[p]
        except (KeyError, IndexError, TypeError):
            return None
    return d


def evaluate(res: Dict[str, Any]) -> List[Dict[str, Any]]:
    """One row per goal: name, measured value, goal text, pass (True/False/None = not measured)."""
    c = res.get("c") or {}
    sc = c.get("scenes", {})
    bz = res.get("bezier") or {}
    py = res.get("python") or {}
    goals: List[Dict[str, Any]] = []

    def add(gid: str, name: str, value: Optional[float], op: str, limit: float, fmt: str, detail: str = "") -> None:
        if value is None:
            ok = None
        else:
            ok = value <= limit if op == "<=" else value >= limit
        goals.append({"id": gid, "goal": name, "value": value, "op": op, "limit": limit,
                      "text": f"{op} {format(limit, fmt)}", "display": "n/a" if value is None else format(value, fmt),
                      "pass": ok, "detail": detail})

    def other(key: str) -> str:
        s = sc.get(key)
        if not s:
            return ""
        return (f"paired {s['paired_ratio']:.2f}, of minima {s['min_ns']['frame'] / s['min_ns']['copy']:.2f}")

    add("A", "Scene A: tick + render list / memcpy of its output (100k layers)",
        _get(sc, "A", "ratio_frame_to_copy"), "<=", 2.0, ".2f", other("A"))
    add("B", "Scene B: tick + render list / memcpy of its output (10k layers, mixed)",
        _get(sc, "B", "ratio_frame_to_copy"), "<=", 4.0, ".2f", other("B"))
    pa, pb = _get(sc, "C", "per_layer_ns"), _get(sc, "B", "per_layer_ns")
    ma, mb = _get(sc, "C", "min_ns", "frame"), _get(sc, "B", "min_ns", "frame")
    add("C", "Scene C: per-layer cost of implicit-animation churn / scene B's per-layer cost",
        pa / pb if pa and pb else None, "<=", 2.0, ".2f",
        (f"of minima {(ma / sc['C']['layers']) / (mb / sc['B']['layers']):.2f}" if ma and mb else ""))
    add("bezier-speed", "Timing function: Cadence solve / WebKit-style solve (shuffled inputs, all curves)",
        _get(bz, "overall", "ratio"), "<=", 0.5, ".3f")
    add("bezier-accuracy", "Timing function: Cadence max error vs high-precision reference",
        _get(bz, "overall", "cadence_max_error"), "<=", 1e-7, ".2g")
    we, ce = _get(bz, "overall", "webkit_max_error"), _get(bz, "overall", "cadence_max_error")
    goals.append({"id": "bezier-more-accurate", "goal": "Timing function: Cadence more accurate than WebKit-style",
                  "value": ce, "op": "<", "limit": we, "text": f"< {we:.2g}" if we is not None else "n/a",
                  "display": "n/a" if ce is None else f"{ce:.2g}",
                  "pass": None if ce is None or we is None else ce < we, "detail": ""})
    add("py-frame", "Python: tick + render list into numpy / same frame from C (10k layers)",
        _get(py, "ratio_python_to_c"), "<=", 1.2, ".3f",
        f"paired {py['paired_ratio_python_to_c']:.3f}, of minima {py['min_ratio_python_to_c']:.3f}"
        if "paired_ratio_python_to_c" in py else "")
    add("py-per-layer", "Python: one call per layer / tick + render list (x less)",
        _get(py, "per_layer_reads", "ratio_reads_to_frame"), ">=", 50.0, ".1f")
    add("py-getter", "Python: scalar getter through cadence.lib / trivial ctypes call",
        _get(py, "scalar_getter", "ratio"), "<=", 1.1, ".3f",
        f"paired {py['scalar_getter']['paired_ratio']:.3f}, of minima {py['scalar_getter']['min_ratio']:.3f}"
        if "paired_ratio" in (py.get("scalar_getter") or {}) else "")
    j = sc.get("jitter")
    add("jitter", f"Jitter: p99 / median frame cost over {_get(j, 'frames') or '?'} frames of scene B",
        (j["p99_ns"]["frame"] / j["median_ns"]["frame"]) if j else None, "<=", 1.5, ".3f",
        "; ".join(x for x in [
            (f"thread CPU time p99 / median {j['p99_ns']['cpu'] / j['median_ns']['cpu']:.3f}"
             if j and "cpu" in j["p99_ns"] else ""),
            (f"median of the first quarter {_us(j['first_quarter_median_ns'])}, of the last "
             f"{_us(j['last_quarter_median_ns'])}" if j and "first_quarter_median_ns" in j else "")] if x))
    for k in ("A", "B", "C"):
        add(f"alloc-{k}", f"Zero heap allocations per frame once warm: scene {k}",
            _get(sc, k, "allocs", "per_frame"), "<=", 0.0, ".2f")
    scal = c.get("scaling") or []
    per = {s["layers"]: s["per_layer_ns"] for s in scal}
    big = [v for n, v in per.items() if n > 5000]
    # The floor's own per-item cost over the same sizes: how much of the
    # growth is the machine's caches (the output and the scene leave the last
    # level cache somewhere between 10k and 1M layers) rather than the engine.
    floor = {s["layers"]: s["median_ns"]["copy"] / s["layers"] for s in scal
             if s["layers"] > 5000 and s.get("median_ns", {}).get("copy")}
    floor_note = ""
    if len(floor) >= 2:
        floor_note = ("; memcpy floor per item " + ", ".join(f"{n}: {v:.1f} ns" for n, v in sorted(floor.items()))
                      + f" (max / min {max(floor.values()) / min(floor.values()):.2f})")
    add("scaling", "Scaling: max / min per-layer cost from 10k to 1M layers",
        (max(big) / min(big)) if len(big) >= 2 else None, "<=", 1.5, ".2f",
        ", ".join(f"{n}: {v:.0f} ns" for n, v in sorted(per.items())) + floor_note)
    return goals


# --------------------------------------------------------------------------------------------
# plot


def plot_scaling(res: Dict[str, Any], path: Path) -> Optional[str]:
    scal = _get(res, "c", "scaling") or []
    if not scal:
        return None
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: matplotlib missing; pip install matplotlib for the scaling plot", file=sys.stderr)
        return None
    n = [s["layers"] for s in scal]
    frame = [s["median_ns"]["frame"] / 1e6 for s in scal]
    copy = [s["median_ns"]["copy"] / 1e6 for s in scal]
    per = [s["per_layer_ns"] for s in scal]
    per_copy = [s["median_ns"]["copy"] / s["layers"] for s in scal]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    a1.loglog(n, frame, "o-", label="tick + render list")
    a1.loglog(n, copy, "s--", label="memcpy of the output (floor)")
    a1.set_xlabel("layers")
    a1.set_ylabel("median frame cost (ms)")
    a1.set_title("Scene A: frame cost")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend()
    a2.semilogx(n, per, "o-", label="tick + render list")
    a2.semilogx(n, per_copy, "s--", label="memcpy floor")
    ref = [v for k, v in zip(n, per) if k > 5000]
    if ref:
        lo = min(ref)
        a2.axhspan(lo, lo * 1.5, color="green", alpha=0.08, label="goal band (1.5x of best, 10k-1M)")
    a2.set_xlabel("layers")
    a2.set_ylabel("ns per layer")
    a2.set_ylim(bottom=0)
    a2.set_title("Scene A: per-layer cost")
    a2.grid(True, which="both", alpha=0.3)
    a2.legend()
    m = res.get("machine", {})
    fig.suptitle(f"Cadence {_get(res, 'c', 'library_version')} - {m.get('cpu', '')}, one core - {m.get('date', '')}",
                 fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


# --------------------------------------------------------------------------------------------
# document


def _us(ns: Optional[float]) -> str:
    if ns is None:
        return "n/a"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e3:.1f} µs"


def _cpu(s: Dict[str, Any]) -> str:
    if "cpu" not in s["median_ns"]:
        return "n/a"
    return f"{_us(s['median_ns']['cpu'])} / {_us(s['p99_ns']['cpu'])}"


def _mark(ok: Optional[bool]) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "**FAIL**")


def write_doc(res: Dict[str, Any], goals: List[Dict[str, Any]], path: Path, plot: Optional[str]) -> None:
    m = res.get("machine", {})
    c = res.get("c") or {}
    sc = c.get("scenes", {})
    bz = res.get("bezier") or {}
    py = res.get("python") or {}
    L: List[str] = []
    w = L.append
    w("# Performance")
    w("")
    w("Measured by `benchmarks/run.sh` (this file is generated by `benchmarks/report.py`: do not edit; "
      "raw numbers in `benchmarks/results.json`). Release build, one core (`taskset`), medians; every ratio is "
      "measured side by side in one process and one run. See `benchmarks/README.md` for what each scene does.")
    w("")
    w("## Machine")
    w("")
    w("| | |")
    w("|---|---|")
    w(f"| Date | {m.get('date', '')} |")
    w(f"| CPU | {m.get('cpu', '')} ({m.get('cores', '?')} cores{', AVX2' if m.get('avx2') else ''}) |")
    w(f"| Memory | {m.get('memory_gib', '?')} GiB |")
    w(f"| Pinned to CPU | {m.get('pinned_cpu') or 'not pinned'} |")
    w(f"| Load average at start | {m.get('loadavg_at_start') or 'n/a'} |")
    w(f"| OS | {m.get('os', '')} |")
    w(f"| Swift | {m.get('swift', '')} |")
    w(f"| C compiler | {m.get('cc', '')} (`-O2`) |")
    w(f"| Python | {m.get('python', '')}, numpy {py.get('numpy', 'n/a')} |")
    w(f"| libcadence | {c.get('library_version', '?')} ({res.get('libdir', '')}), sizeof(cad_render_item) = "
      f"{c.get('sizeof_render_item', '?')} bytes |")
    w("")
    w("## Goals")
    w("")
    w("| Goal | Measured | Target | Result | Other estimates |")
    w("|---|---|---|---|---|")
    for g in goals:
        w(f"| {g['goal']} | {g['display']} | {g['text']} | {_mark(g['pass'])} | {g['detail']} |")
    n_fail = sum(1 for g in goals if g["pass"] is False)
    n_na = sum(1 for g in goals if g["pass"] is None)
    w("")
    w(f"{len(goals) - n_fail - n_na} of {len(goals)} goals met"
      + (f", {n_fail} failed" if n_fail else "") + (f", {n_na} not measured" if n_na else "") + ".")
    w("")
    w("Measured = ratio of medians (the goals' definition). Other estimates, for judging noise: *paired* = median "
      "over frames (or rounds) of the per-frame ratio, *of minima* = ratio of the fastest samples. On a loaded machine "
      "(see the load average above) medians and p99 include time slices lost to other processes; the thread CPU "
      "time of a frame (CLOCK_THREAD_CPUTIME_ID) does not.")
    w("")
    w("## Scenes (C host)")
    w("")
    w("Frame = `cad_engine_tick` (now += 1/60 s) + `cad_engine_render_list` into a caller buffer; scene C's frame "
      "also includes the host's `cad_layer_set` calls (the churn). Memcpy floor = `memcpy` of the frame's output "
      "(items × sizeof(cad_render_item)) into a second buffer of the same size, timed right after each frame. "
      "In scene A the tick column is near zero: its animations are steady, so the tick defers the simple-track pass "
      "and the render list evaluates each layer's animation as it reaches it (see docs/internals.md); only the sum "
      "is comparable across versions.")
    w("")
    w("| Scene | Layers | Items | Frames | Frame median | Frame p99 | Frame min | CPU time median / p99 | tick | render | host | memcpy floor | Ratio | ns / layer |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in ("A", "B", "C", "jitter"):
        s = sc.get(key)
        if not s:
            continue
        md, p99 = s["median_ns"], s["p99_ns"]
        w(f"| {key} | {s['layers']} | {s['items_median']:.0f} | {s['frames']} | {_us(md['frame'])} | {_us(p99['frame'])} "
          f"| {_us(s['min_ns']['frame'])} | {_cpu(s)} "
          f"| {_us(md['tick'])} | {_us(md['render'])} | {_us(md['host'])} | {_us(md['copy'])} "
          f"({s['bytes_median'] / 1e6:.1f} MB) | {s['ratio_frame_to_copy']:.1f}x | {s['per_layer_ns']:.0f} |")
    w("")
    w("CPU time = the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over host work + tick + render list: unlike the "
      "wall-clock columns it leaves out time slices taken by other processes.")
    w("")
    w("Host work per frame (not in the frame cost of A and B): scene B re-adds 1-2 transitions (with new "
      "contents); scene C sets 999 positions; every scene drains the event queue with `cad_engine_poll_event`.")
    w("")
    w("### Heap allocations in measured frames")
    w("")
    w("Counted by interposing malloc/calloc/realloc/posix_memalign/aligned_alloc/memalign/valloc in the benchmark "
      "binary (libcadence's Swift runtime allocates through them), during the measured frames only.")
    w("")
    w("| Scene | Frames | Allocations / frame | host calls | tick | render list | event drain | Frames that allocated | Bytes |")
    w("|---|---|---|---|---|---|---|---|---|")
    for key in ("A", "B", "C", "jitter"):
        s = sc.get(key)
        if not s:
            continue
        a = s["allocs"]
        w(f"| {key} | {s['frames']} | {a['per_frame']:.2f} | {a['host']} | {a['tick']} | {a['render']} | {a['drain']} "
          f"| {a['frames_with_allocs']} | {a['bytes']} |")
    for s in c.get("scaling") or []:
        a = s["allocs"]
        w(f"| A, {s['layers']} layers | {s['frames']} | {a['per_frame']:.2f} | {a['host']} | {a['tick']} | {a['render']} "
          f"| {a['drain']} | {a['frames_with_allocs']} | {a['bytes']} |")
    w("")
    if c.get("alloc_failures"):
        w(f"The run failed its allocation check: {c.get('alloc_failed')}.")
        w("")
    w("## Scaling (scene A)")
    w("")
    w("| Layers | Frame median | CPU time median / p99 | tick | render | memcpy floor | Ratio | ns / layer | Setup |")
    w("|---|---|---|---|---|---|---|---|---|")
    for s in c.get("scaling") or []:
        md = s["median_ns"]
        w(f"| {s['layers']} | {_us(md['frame'])} | {_cpu(s)} | {_us(md['tick'])} | {_us(md['render'])} | {_us(md['copy'])} "
          f"| {s['ratio_frame_to_copy']:.1f}x | {s['per_layer_ns']:.0f} | {s['setup_seconds']:.1f} s |")
    w("")
    if plot:
        rel = os.path.relpath(plot, path.parent)
        w(f"![Scene A scaling]({rel})")
        w("")
    w("## Timing functions")
    w("")
    if bz:
        w(f"{bz.get('n_inputs')} shuffled inputs per curve, {bz.get('reps')} alternating repetitions, median ns per "
          f"solve. Cadence through `{bz.get('function') or 'cad_timing_eval_batch'}`; WebKit-style = 11-sample "
          f"first guess, up to 4 Newton steps, bisection fallback, epsilon {bz.get('webkit_epsilon')} "
          f"(`benchmarks/c/bezier_bench.c`). Max error against a long-double reference over "
          f"{bz.get('accuracy_points')} points per curve.")
        w("")
        w("| Curve | WebKit-style ns | Cadence ns | Ratio | WebKit-style max error | Cadence max error |")
        w("|---|---|---|---|---|---|")
        for cv in bz.get("curves", []):
            pts = ", ".join(f"{v:g}" for v in cv["curve"])
            if "cadence_ns_per_solve" in cv:
                w(f"| {cv['name']} ({pts}) | {cv['webkit_ns_per_solve']:.1f} | {cv['cadence_ns_per_solve']:.1f} "
                  f"| {cv['ratio']:.3f} | {cv['webkit_max_error']:.2g} | {cv['cadence_max_error']:.2g} |")
            else:
                w(f"| {cv['name']} ({pts}) | {cv['webkit_ns_per_solve']:.1f} | n/a | n/a | {cv['webkit_max_error']:.2g} | n/a |")
        o = bz.get("overall", {})
        if "cadence_ns_per_solve" in o:
            w(f"| **all curves** | {o['webkit_ns_per_solve']:.1f} | {o['cadence_ns_per_solve']:.1f} | {o['ratio']:.3f} "
              f"| {o['webkit_max_error']:.2g} | {o['cadence_max_error']:.2g} |")
        else:
            w("")
            w("Cadence's batch solver (`cad_timing_eval_batch`) is not exported by this library: not measured.")
    else:
        w("Not run.")
    w("")
    w("## Python host")
    w("")
    if py:
        f = py["frame_ns"]
        w(f"{py['layers']} layers (scene A recipe), {py['rounds']} rounds; Python {py.get('python')}, numpy "
          f"{py.get('numpy')}. All three frame variants run on the same engine in one process, alternating.")
        w("")
        w("| Measurement | Median | Ratio |")
        w("|---|---|---|")
        w(f"| Frame from C (tick + render list, timed in C) | {_us(f['c']['median'])} | 1 |")
        w(f"| Frame from Python: `Engine.tick` + `Engine.render_list` (numpy structured array) | "
          f"{_us(f['python_highlevel']['median'])} | {py['ratio_python_to_c']:.3f} |")
        w(f"| Frame from Python: `cadence.lib` into a preallocated numpy array | {_us(f['python_lowlevel']['median'])} "
          f"| {py['ratio_lowlevel_to_c']:.3f} |")
        r = py["per_layer_reads"]
        w(f"| One call per layer: `layer.presentation(\"{r['keypath']}\")` × {r['calls_per_pass']} "
          f"({r['ns_per_call']:.0f} ns per call) | {_us(r['reads_ns']['median'])} | {r['ratio_reads_to_frame']:.1f}x the "
          f"Python frame ({r['ratio_tick_reads_to_frame']:.1f}x with its own tick) |")
        g = py["scalar_getter"]
        w(f"| Scalar getter `lib.cad_layer_get(e, l, b\"opacity\", buf, 1, n)` | {g['cad_layer_get_ns']['median']:.0f} ns "
          f"| {g['ratio']:.3f} |")
        w(f"| Trivial C function, same argtypes, same loop | {g['noop_ns']['median']:.0f} ns | 1 |")
    else:
        w("Not run (the `cadence` binding or numpy was not available).")
    w("")
    w("## Reproduce")
    w("")
    w("```sh")
    w("benchmarks/run.sh                       # builds the release library, runs everything, writes this file")
    w("LIBDIR=/dir/with/libcadence.so benchmarks/run.sh   # use an existing build")
    w("benchmarks/run.sh --quick               # shorter runs (fewer frames; jitter over 1000 frames)")
    w("```")
    w("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(L))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--c")
    ap.add_argument("--bezier")
    ap.add_argument("--python")
    ap.add_argument("--results", default=str(HERE / "results.json"))
    ap.add_argument("--doc", default=str(REPO / "docs" / "performance.md"))
    ap.add_argument("--plot", default=str(REPO / "docs" / "img" / "scaling.png"))
    ap.add_argument("--libdir", default="")
    ap.add_argument("--loadavg")
    ap.add_argument("--pinned")
    ap.add_argument("--from-results", help="re-render the document from an existing results.json")
    args = ap.parse_args()

    if args.from_results:
        res = json.loads(Path(args.from_results).read_text())
    else:
        def load(p: Optional[str]) -> Optional[Dict[str, Any]]:
            if not p or not Path(p).exists():
                return None
            try:
                return json.loads(Path(p).read_text())
            except json.JSONDecodeError as exc:
                print(f"report: {p} is not valid JSON ({exc}); ignored", file=sys.stderr)
                return None
        res = {"machine": machine_info(args.loadavg, args.pinned), "libdir": args.libdir,
               "c": load(args.c), "bezier": load(args.bezier), "python": load(args.python)}
    goals = evaluate(res)
    res["goals"] = goals
    plot = plot_scaling(res, Path(args.plot))
    Path(args.results).write_text(json.dumps(res, indent=2) + "\n")
    write_doc(res, goals, Path(args.doc), plot)
    for g in goals:
        print(f"  {_mark(g['pass']).strip('*'):5s} {g['goal']}: {g['display']} (goal {g['text']})", file=sys.stderr)
    print(f"report: wrote {args.results}, {args.doc}" + (f", {plot}" if plot else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
