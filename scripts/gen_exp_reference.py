#!/usr/bin/env python3
"""Writes Tests/CadenceCoreTests/ExpReference.swift: arguments with e^x as a
double-double (hi correctly rounded, lo the rest rounded), from mpmath at 60
digits (the reference of ElementaryTests' exp checks). Needs mpmath
(pip install mpmath). Deterministic."""
import math, os, random
import mpmath

from mpref import dd, write_table

random.seed(20261122)
LN2 = math.log(2)

def around(x, n=1):
    """x and its n neighbours on each side."""
    out = [x]
    lo = hi = x
    for _ in range(n):
        lo = math.nextafter(lo, -math.inf)
        hi = math.nextafter(hi, math.inf)
        out += [lo, hi]
    return out

xs = [0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 1e-17, -1e-17, 1e-9, -1e-9, 1.0, -1.0,
      0.5, -0.5, 2.0, -2.0, 10.0, -10.0, 100.0, -100.0]
# The branch edges: 2^-28 (1 + x below), ln2/2 (k = 0 up to there), 700 (libm beyond).
for e in (2.0 ** -28, 0.34657359027997264, 700.0):
    for s in (1, -1):
        xs += around(s * e, 2)
# Where x / ln2 is a half-integer (k rounds either way) and near whole multiples of ln2.
for k in (1, 2, 3, 5, 10, 64, 100, 500, 1000, 1009, -1, -2, -3, -7, -50, -100, -600, -1000, -1009):
    xs += around((k + 0.5) * LN2) + around(k * LN2)
for lo, hi, n in ((-1, 1, 40), (-5, 5, 40), (-50, 0, 60), (-700, 700, 60)):
    xs += [random.uniform(lo, hi) for _ in range(n)]

write_table('ExpReference.swift', 'gen_exp_reference.py',
            '(x, e^x), e^x as hi + lo: hi correctly rounded, lo the rest.',
            'let expReference: [(x: Double, exp: (Double, Double))]',
            [f'({x.hex()}, {dd(mpmath.exp(mpmath.mpf(x)))})' for x in xs])
