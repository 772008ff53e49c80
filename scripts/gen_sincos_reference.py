#!/usr/bin/env python3
"""Writes Tests/CadenceCoreTests/SinCosReference.swift: arguments with their sin
and cos as double-doubles (hi correctly rounded, lo the rest rounded), from
mpmath at 60 digits (the reference of
ElementaryTests). Needs mpmath (pip install mpmath). Deterministic."""
import math, os, random
import mpmath

from mpref import dd, write_table

random.seed(20261121)
PIO2 = mpmath.pi / 2
BOUND = 823549.6562719358  # 2^19·π/2: sinCos's reduction domain

xs = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 2.0 ** -27, -(2.0 ** -27),
      math.nextafter(2.0 ** -27, 0), 1e-8, 0.5, 1.0, 100.0, 1000.0, 1e5, 355.0, -355.0,
      103993.0, 104348.0, 208341.0, 312689.0, 416859.5,
      math.pi / 4, math.nextafter(math.pi / 4, 1), -math.pi / 4, 2 * math.pi, -2 * math.pi,
      BOUND, -BOUND, math.nextafter(BOUND, 0), math.nextafter(BOUND, math.inf)]
# Doubles nearest to k·π/2 and their neighbours: the reduction's hard cases.
for k in [1, 2, 3, 4, 5, 7, 8, 10, 16, 31, 100, 255, 1000, 4096, 12345, 65536, 100000, 262143, 300000, 524287]:
    c = float(k * PIO2)
    for d in (-1, 0, 1):
        x = c
        for _ in range(abs(d)):
            x = math.nextafter(x, math.inf if d > 0 else -math.inf)
        xs += [x, -x]
for mag in (1, 4, 50, 1e3, 1e5, 8e5):
    xs += [random.uniform(-mag, mag) for _ in range(12)]

write_table('SinCosReference.swift', 'gen_sincos_reference.py',
            '(x, sin x, cos x), each value as hi + lo: hi correctly rounded, lo the rest.',
            'let sinCosReference: [(x: Double, sin: (Double, Double), cos: (Double, Double))]',
            [f'({x.hex()}, {dd(mpmath.sin(mpmath.mpf(x)))}, {dd(mpmath.cos(mpmath.mpf(x)))})' for x in xs])
