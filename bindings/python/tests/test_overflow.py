"""Overflow on the way to a result saturates (docs/decisions.md, Interpolation and
Huge values): through the C library, as a host sees it. Expected values by hand:
M = DBL_MAX, F = FLT_MAX."""
from __future__ import annotations

import sys

import pytest

import cadence
from cadence import Animation, FillMode

M = sys.float_info.max
F = 3.4028234663852886e38


def test_from_to_whose_difference_overflows_starts_at_from(engine, layer):
    # end - start = 2e308 overflows: e = 0 (backwards fill, begin) shows from (inf*0 read
    # as 0; it showed the model value 7), -1e308 + inf saturates inside, e = 1 is to.
    layer.set("position.x", 7)
    a = Animation.basic(engine, "position.x", from_=-1e308, to=1e308, duration=1, begin_time=1,
                        fill_mode=FillMode.BOTH, removed_on_completion=False)
    layer.add_animation(a, "x")
    for t, x in ((0.5, -1e308), (1.0, -1e308), (1.5, M), (2.5, 1e308)):
        engine.tick(t)
        assert layer.presentation("position.x") == x, t


def test_to_minus_by_beyond_the_largest_double_saturates(engine, layer):
    # start = to - by = -2e308 -> -M; e = 0.5: -M + (-1e308 + M) * 0.5 = -1.398846567431158e308.
    a = Animation.basic(engine, "position.x", to=-1e308, by=1e308, duration=1)
    layer.add_animation(a, "x")
    engine.tick(0)
    assert layer.presentation("position.x") == -M
    engine.tick(0.5)
    assert layer.presentation("position.x") == -1.398846567431158e308


def test_cubic_keyframes_near_the_limit(engine, layer):
    # Catmull-Rom through -1e308, 1e308: tangents (1e308 - -1e308)/2 = 1e308 (the
    # difference overflows, the tangent does not); at u = 1/4:
    # (-0.84375 + 0.140625 + 0.15625 - 0.046875) * 1e308 = -5.9375e307.
    layer.set("position.x", 7)
    a = Animation.keyframe(engine, "position.x", values=[-1e308, 1e308], calculation_mode="cubic", duration=1)
    layer.add_animation(a, "k")
    engine.tick(0)
    assert layer.presentation("position.x") == -1e308
    engine.tick(0.25)
    assert layer.presentation("position.x") == pytest.approx(-5.9375e307, rel=1e-15)


def test_cumulative_transform_saturates(engine, layer):
    # I -> T(1e308): cycle 2 at e = 1/2 translates by 0.5e308 + 2e308 -> M (it fell back
    # to the model matrix: m41 = 0).
    identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    a = Animation.basic(engine, "transform", from_=identity, to=identity[:12] + [1e308, 0, 0, 1], duration=1,
                        repeat_count=float("inf"), cumulative=True)
    layer.add_animation(a, "k")
    engine.tick(2.5)
    assert list(layer.presentation("transform")) == identity[:12] + [M, 0, 0, 1]


def test_deep_huge_scales_render_flt_max_at_every_depth(engine):
    np = pytest.importorskip("numpy")
    engine.tick(0)
    chain = []
    for _ in range(4):
        l = engine.create_layer()
        l.set("transform.scale", 1e300)   # world scale 1e300, 1e600, 1e900, 1e1200
        if chain:
            chain[-1].add_sublayer(l)
        chain.append(l)
    engine.tick(0)
    want = [F, 0, 0, 0, 0, F, 0, 0, 0, 0, F, 0, 0, 0, 0, 1]
    items = engine.render_list(chain[0], copy=True)
    assert len(items) == 4
    for it in items:   # the fourth used to be all zero but m44 (inf*0 = NaN)
        assert np.array_equal(it["world"], np.array(want, dtype=np.float32))
