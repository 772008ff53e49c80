"""Test setup: import the package from this source tree (set CADENCE_TEST_INSTALLED=1
to test the installed copy instead), and shared fixtures."""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # bindings/python
if not os.environ.get("CADENCE_TEST_INSTALLED"):
    sys.path.insert(0, str(PACKAGE_ROOT))

import cadence  # noqa: E402


@pytest.fixture
def engine():
    """A fresh engine, closed after the test."""
    e = cadence.Engine()
    yield e
    e.close()


@pytest.fixture
def layer(engine):
    """A root layer that is no longer new (one tick at t = 0 happened)."""
    l = engine.create_layer()
    engine.tick(0.0)
    return l


def _flat(x):
    if isinstance(x, (int, float)):
        return [float(x)]
    try:
        items = list(x)
    except TypeError:
        return [x]
    return [v for item in items for v in _flat(item)]


class _Approx:
    """pytest.approx that also handles nested sequences (lists of points, matrices)."""

    def __init__(self, expected, rel, abs):
        self.expected, self.rel, self.abs = expected, rel, abs

    def __eq__(self, actual):
        a, e = _flat(actual), _flat(self.expected)
        return len(a) == len(e) and a == pytest.approx(e, rel=self.rel, abs=self.abs)

    def __repr__(self):
        return f"approx({self.expected!r} ± {self.abs})"


def approx(x, rel=1e-9, abs=1e-9):
    """Tolerant comparison of numbers or (nested) sequences of numbers."""
    return _Approx(x, rel, abs)


# ---- independent reference math (not the engine's) ------------------------------

def bezier_solve(c1x: float, c1y: float, c2x: float, c2y: float, x: float) -> float:
    """y of the cubic Bézier (0,0),(c1x,c1y),(c2x,c2y),(1,1) at x, by bisection on t."""
    def bx(t):
        return 3 * (1 - t) ** 2 * t * c1x + 3 * (1 - t) * t ** 2 * c2x + t ** 3

    def by(t):
        return 3 * (1 - t) ** 2 * t * c1y + 3 * (1 - t) * t ** 2 * c2y + t ** 3

    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if bx(mid) < x:
            lo = mid
        else:
            hi = mid
    return by((lo + hi) / 2)


def spring_x(s: float, m: float = 1.0, k: float = 100.0, c: float = 10.0, v0: float = 0.0) -> float:
    """Displacement of the damped oscillator m x'' + c x' + k x = 0, x(0) = 1, x'(0) = -v0."""
    w0 = math.sqrt(k / m)
    zeta = c / (2 * math.sqrt(k * m))
    if zeta < 1:
        wd = w0 * math.sqrt(1 - zeta * zeta)
        a = 1.0
        b = (zeta * w0 - v0) / wd
        return math.exp(-zeta * w0 * s) * (a * math.cos(wd * s) + b * math.sin(wd * s))
    if zeta == 1:
        return math.exp(-w0 * s) * (1 + (w0 - v0) * s)
    r1 = -w0 * (zeta - math.sqrt(zeta * zeta - 1))
    r2 = -w0 * (zeta + math.sqrt(zeta * zeta - 1))
    # x = A e^{r1 s} + B e^{r2 s}, A + B = 1, r1 A + r2 B = -v0
    b_ = (-v0 - r1) / (r2 - r1)
    a_ = 1 - b_
    return a_ * math.exp(r1 * s) + b_ * math.exp(r2 * s)
