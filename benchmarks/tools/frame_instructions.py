#!/usr/bin/env python3
"""Instructions per frame (tick + render list) under callgrind: a load-independent
check of frame-to-frame variation (jitter) and drift.

    python3 benchmarks/tools/frame_instructions.py [--scene B] [--layers 2000] [--warmup 65] [--frames 60]
                                                   [--bench benchmarks/build/c/bench]

Runs the benchmark binary under valgrind --tool=callgrind, collecting only
inside cad_engine_tick and cad_engine_render_list and dumping after every
render list, then prints the median, p99 / median and max / median of the
instruction counts of the measured frames and the first-to-last trend. Build
the binary first (benchmarks/run.sh or make -C benchmarks/c).
"""
import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="B", choices=["A", "B", "C"])
    ap.add_argument("--layers", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=65)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--bench", default=os.path.join(HERE, "..", "build", "c", "bench"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
               "--toggle-collect=cad_engine_tick", "--toggle-collect=cad_engine_render_list",
               "--dump-after=cad_engine_render_list", args.bench, "--scene", args.scene,
               f"--layers-{args.scene.lower()}", str(args.layers), "--warmup", str(args.warmup),
               "--frames", str(args.frames), "--quiet"]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        vals = []
        for f in sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1])):
            m = re.search(r"^(?:summary|totals):\s+(\d+)", open(f).read(), re.M)
            if m:
                vals.append(int(m.group(1)))
    v = vals[-args.frames:]
    if len(v) < 2:
        print("frame_instructions: no dumps (is valgrind installed and the binary built?)", file=sys.stderr)
        return 1
    s = sorted(v)
    med = statistics.median(s)
    p99 = s[max(0, -(-99 * len(s) // 100) - 1)]
    print(f"scene {args.scene}, {args.layers} layers, {len(v)} measured frames after {args.warmup} warm-up frames")
    print(f"instructions per frame: median {med:,.0f} ({med / args.layers:,.0f} per layer), "
          f"p99/median {p99 / med:.4f}, max/median {s[-1] / med:.4f}, min/median {s[0] / med:.4f}")
    print(f"trend: first frame {v[0]:,}, last frame {v[-1]:,} ({100.0 * (v[-1] - v[0]) / v[0]:+.2f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
