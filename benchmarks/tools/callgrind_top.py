#!/usr/bin/env python3
"""Top functions of a callgrind profile, by inclusive and by self cost, with
Swift names demangled (`swift demangle --simplified`).

    python3 benchmarks/tools/callgrind_top.py callgrind.out [-n 15]

Callgrind splits a function into several file:function rows when code from
other files was inlined into it; rows are merged by symbol (inclusive: the
largest row, self: the sum).
"""
import argparse
import re
import shutil
import subprocess
import sys
from typing import Dict, List, Tuple

ROW = re.compile(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)")
SKIP = re.compile(r"PROGRAM TOTALS|libc-start|below main|benchmarks/c/bench\.c:|ld-linux|\?\?\?:0x")


def rows(path: str, inclusive: bool) -> Tuple[int, List[Tuple[int, str]]]:
    out = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", "--auto=no", path],
                         capture_output=True, text=True, check=True).stdout
    total = 0
    res = []
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        rest = m.group(3)
        if "PROGRAM TOTALS" in rest:
            total = ir
            continue
        if SKIP.search(rest):
            continue
        rest = re.sub(r" \[[^\]]*\]$", "", rest)
        sym = rest.split(":", 1)[1] if ":" in rest and not rest.startswith("$") else rest
        res.append((ir, sym))
    return total, res


def demangle(names: List[str]) -> List[str]:
    if not shutil.which("swift"):
        return names
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("-n", type=int, default=15)
    args = ap.parse_args()
    for inclusive in (True, False):
        total, rs = rows(args.profile, inclusive)
        merged: Dict[str, int] = {}
        for ir, sym in rs:
            merged[sym] = max(merged.get(sym, 0), ir) if inclusive else merged.get(sym, 0) + ir
        top = sorted(merged.items(), key=lambda kv: -kv[1])[:args.n]
        names = demangle([s for s, _ in top])
        print(f"\nTop {args.n} by {'inclusive' if inclusive else 'self'} cost ({total:,} instructions in total)")
        for (sym, ir), name in zip(top, names):
            print(f"{100.0 * ir / max(total, 1):6.2f}%  {ir:>14,}  {name[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
