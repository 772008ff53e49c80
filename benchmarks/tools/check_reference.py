#!/usr/bin/env python3
"""Cross-checks bezier_bench's long-double reference against mpmath (50 digits).

    build/bezier_bench --dump-reference ref.txt
    python3 benchmarks/tools/check_reference.py ref.txt

Each line of the dump is `curve_index x y_reference`. Prints the largest
difference per curve; it must be far below the 1e-7 accuracy bar (it is about
1e-16: the reference is rounded to double when dumped).
"""
import sys

import mpmath

CURVES = [(0, 0, 1, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1),
          (0.9, 0, 0.1, 1), (0.68, -0.6, 0.32, 1.6), (0.34, 1.56, 0.64, 1)]
mpmath.mp.dps = 50


def bez(p1, p2, t):
    s = 1 - t
    return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t ** 3


def solve(c, x):
    x = mpmath.mpf(x)
    if x <= 0:
        return mpmath.mpf(0)
    if x >= 1:
        return mpmath.mpf(1)
    c1x, c1y, c2x, c2y = (mpmath.mpf(v) for v in c)
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(180):  # 2^-180 << 10^-50
        mid = (lo + hi) / 2
        if bez(c1x, c2x, mid) < x:
            lo = mid
        else:
            hi = mid
    return bez(c1y, c2y, (lo + hi) / 2)


def main() -> int:
    worst = {}
    with open(sys.argv[1]) as f:
        for line in f:
            ci, x, y = line.split()
            ci = int(ci)
            d = abs(solve(CURVES[ci], float(x)) - mpmath.mpf(float(y)))
            worst[ci] = max(worst.get(ci, 0), float(d))
    for ci in sorted(worst):
        print(f"curve {CURVES[ci]}: max |long double ref - mpmath| = {worst[ci]:.3g}")
    bad = [ci for ci in worst if worst[ci] > 1e-12]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
