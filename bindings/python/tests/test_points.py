"""Points and hit testing: Layer.convert_point / convert_point_from / hit_test and
Engine.convert_point. Expected values are worked by hand from SEMANTICS.md §2.1-2.2."""
from __future__ import annotations

import math

import pytest

import cadence
from cadence import Animation, Point
from conftest import approx


def _scene(engine):
    """Root (0,0,200,200) at (100,100) (world = identity); A frame (0,0,100,100);
    B frame (50,50,100,100) in front of A; C under B, world frame (190,90,20,20)."""
    root = engine.create_layer(bounds=(0, 0, 200, 200), position=(100, 100))
    a = engine.create_layer(bounds=(0, 0, 100, 100), position=(50, 50))
    b = engine.create_layer(bounds=(0, 0, 100, 100), position=(100, 100))
    c = engine.create_layer(bounds=(0, 0, 20, 20), position=(150, 50))
    root.add_sublayer(a)
    root.add_sublayer(b)
    b.add_sublayer(c)
    return root, a, b, c


def test_convert_point_rotated_and_scaled(engine):
    # bounds (10,20,50,40), anchor (0.5,0.5) -> anchor point (35,40); transform = scale 2
    # then a quarter turn (rows (0,2), (-2,0)); position (60,70):
    # (x, y) -> (60 - 2 (y - 40), 70 + 2 (x - 35))
    root = engine.create_layer(bounds=(0, 0, 200, 200), position=(100, 100))
    l = engine.create_layer(bounds=(10, 20, 50, 40), position=(60, 70),
                            transform=(0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
    root.add_sublayer(l)
    p = l.convert_point((45, 40))
    assert isinstance(p, Point)
    assert p == approx((60, 90), abs=1e-12)
    assert l.convert_point([35, 50], to=root) == approx((40, 70), abs=1e-12)
    assert l.convert_point_from((40, 70), from_=root) == approx((35, 50), abs=1e-12)
    assert engine.convert_point((60, 90), to=l) == approx((45, 40), abs=1e-12)
    assert engine.convert_point((1.5, 2.5)) == (1.5, 2.5)


def test_convert_point_perspective_and_behind_the_eye(engine):
    # Ry(θ) with m34 = -1/d: (u, v, 0, 1) -> (u c, v, ., 1 + u s / d); anchor at the
    # bounds' centre (50, 50), position (200, 100).
    th, d = 0.5, 300.0
    c, s = math.cos(th), math.sin(th)
    m = (c, 0, -s, s / d, 0, 1, 0, 0, s, 0, c, -c / d, 0, 0, 0, 1)
    l = engine.create_layer(bounds=(0, 0, 100, 100), position=(200, 100), transform=m)
    u, v = 90 - 50, 10 - 50
    w = 1 + u * s / d
    assert l.convert_point((90, 10)) == approx((u * c / w + 200, v / w + 100), abs=1e-10)
    with pytest.raises(cadence.NotFoundError):
        l.convert_point((50 - d / s - 1, 50))


def test_hit_test(engine):
    root, a, b, c = _scene(engine)
    assert root.hit_test((75, 75)) == b
    assert root.hit_test(Point(25, 25)) == a
    assert root.hit_test((205, 95)) == c
    assert root.hit_test((190, 10)) == root
    assert root.hit_test((200, 10)) is None           # max edges are out
    assert b.hit_test((75, 75)) == b                   # in b's superlayer's (root's) space
    b.masks_to_bounds = True
    assert root.hit_test((205, 95)) is None
    b.hidden = True
    assert root.hit_test((75, 75)) == a


def test_hit_test_presentation_and_model(engine):
    root = engine.create_layer(bounds=(0, 0, 400, 200), position=(200, 100))
    a = engine.create_layer(bounds=(0, 0, 100, 100), position=(250, 50))
    root.add_sublayer(a)
    engine.tick(0)
    a.add_animation(Animation.basic(engine, "position.x", from_=50, to=250, duration=2))
    engine.tick(0.5)                                   # x = 100: frame (50, 0, 100, 100)
    assert root.hit_test((60, 10), presentation=True) == a
    assert root.hit_test((60, 10)) == root             # the model is at x = 250
    assert a.convert_point((0, 0), to=root, presentation=True) == approx((50, 0), abs=1e-9)
    assert a.convert_point((0, 0), to=root) == approx((200, 0), abs=1e-12)


@pytest.mark.parametrize("bad", ["ab", (1,), (1, 2, 3), None, 5, {"x": 1}])
def test_point_argument_must_be_two_numbers(engine, bad):
    l = engine.create_layer()
    with pytest.raises(TypeError):
        l.convert_point(bad)
    with pytest.raises(TypeError):
        l.hit_test(bad)


def test_point_argument_errors(engine):
    l = engine.create_layer()
    with pytest.raises(cadence.InvalidArgumentError):
        l.convert_point((math.nan, 0))
    with pytest.raises(cadence.InvalidArgumentError):
        l.hit_test((0, math.inf))
    with pytest.raises(TypeError):
        l.convert_point(("1", 2))
    with pytest.raises(TypeError):
        l.hit_test((1, 2), presentation="yes")
    other = cadence.Engine()
    try:
        stranger = other.create_layer()
        with pytest.raises(cadence.InvalidHandleError):
            l.convert_point((0, 0), to=stranger)
    finally:
        other.close()
