"""Layer properties, key paths, geometry and the tree (SEMANTICS.md §2)."""
from __future__ import annotations

import math

import pytest

import cadence
from cadence import Color, FillMode, Layer, Point, Rect, Size, Transform3D
from conftest import approx

I16 = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)

# SEMANTICS.md §2 table (and §3 defaults for the timing fields)
DEFAULTS = {
    "position": (0.0, 0.0),
    "zPosition": 0.0,
    "anchorPoint": (0.5, 0.5),
    "anchorPointZ": 0.0,
    "bounds": (0.0, 0.0, 0.0, 0.0),
    "frame": (0.0, 0.0, 0.0, 0.0),
    "transform": I16,
    "sublayerTransform": I16,
    "opacity": 1.0,
    "hidden": False,
    "backgroundColor": (0.0, 0.0, 0.0, 0.0),
    "borderColor": (0.0, 0.0, 0.0, 1.0),
    "borderWidth": 0.0,
    "cornerRadius": 0.0,
    "shadowColor": (0.0, 0.0, 0.0, 1.0),
    "shadowOpacity": 0.0,
    "shadowOffset": (0.0, -3.0),
    "shadowRadius": 3.0,
    "contentsRect": (0.0, 0.0, 1.0, 1.0),
    "masksToBounds": False,
    "doubleSided": True,
    "beginTime": 0.0,
    "speed": 1.0,
    "timeOffset": 0.0,
    "duration": 0.0,
    "repeatCount": 0.0,
    "repeatDuration": 0.0,
    "autoreverses": False,
    "fillMode": FillMode.REMOVED,
}


def test_property_list_covers_the_spec():
    assert set(Layer.PROPERTIES) == set(DEFAULTS)


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_defaults(engine, name):
    l = engine.create_layer()
    assert getattr(l, name) == DEFAULTS[name]
    assert getattr(l.presentation_layer, name) == DEFAULTS[name]
    raw = l[name]
    exp = DEFAULTS[name]
    assert raw == (float(exp) if not isinstance(exp, tuple) else exp)


def test_presented_contents_keeps_all_64_bits(engine):
    # 2**64 - 1 and an odd id above 2**53: a double would round both.
    l = engine.create_layer()
    l.actions_enabled = False
    for cid in (2 ** 64 - 1, 0x9E3779B97F4A7C15):
        l.contents = cid
        assert l.presentation_layer.contents == cid
    assert l.presentation_layer["contents"] == float(0x9E3779B97F4A7C15)   # the float read rounds


def test_contents_default_and_round_trip(engine):
    l = engine.create_layer()
    assert l.contents == 0
    l.contents = 2 ** 64 - 1
    assert l.contents == 2 ** 64 - 1
    l.contents = 7
    assert l.presentation_layer.contents == 7
    # Not an id: refused, as through layer["contents"], and nothing changes.
    for bad in (-1, 2 ** 64, 1.5):
        with pytest.raises(cadence.InvalidArgumentError):
            l.contents = bad
        with pytest.raises(cadence.InvalidArgumentError):
            l["contents"] = bad
    for wrong in ("3", None):
        with pytest.raises(TypeError):
            l.contents = wrong
        with pytest.raises(TypeError):
            l["contents"] = wrong
    assert l.contents == 7


def test_typed_values(engine):
    l = engine.create_layer(bounds=(1, 2, 30, 40), background_color=(0.1, 0.2, 0.3, 0.4))
    assert isinstance(l.position, Point) and isinstance(l.bounds, Rect)
    assert l.bounds.size == Size(30, 40) and l.bounds.origin == Point(1, 2)
    assert l.backgroundColor == Color(0.1, 0.2, 0.3, 0.4) and l.background_color.a == 0.4
    assert isinstance(l.transform, Transform3D) and l.transform.m44 == 1.0
    assert isinstance(l.hidden, bool) and isinstance(l.fillMode, FillMode)
    assert isinstance(l.shadowOffset, Size)


def test_snake_and_camel_aliases(engine):
    l = engine.create_layer()
    for camel in Layer.PROPERTIES:
        snake = cadence.layer.snake_case(camel)
        assert getattr(Layer, snake) is getattr(Layer, camel)
    l.anchor_point = (0, 1)
    assert l.anchorPoint == (0, 1)
    l.zPosition = 3
    assert l.z_position == 3
    l.background_color = (1, 0, 0, 1)
    assert l.backgroundColor == (1, 0, 0, 1)
    l.anchor_point_z = 2
    assert l.anchorPointZ == 2
    l.masks_to_bounds = True
    assert l.masksToBounds is True
    l.fill_mode = "both"
    assert l.fillMode is FillMode.BOTH
    l.fillMode = FillMode.FORWARDS
    assert l.fill_mode == 1


def test_create_layer_with_properties(engine):
    l = engine.create_layer(bounds=(0, 0, 10, 20), anchorPoint=(0, 0), position=(5, 6), hidden=True, contents=9)
    assert l.bounds == (0, 0, 10, 20) and l.anchor_point == (0, 0) and l.position == (5, 6)
    assert l.hidden is True and l.contents == 9
    with pytest.raises(TypeError):
        engine.create_layer(no_such_property=1)
    l2 = Layer(engine, opacity=0.5)
    assert l2.opacity == 0.5


SUBKEYS = [
    # (sub key path, value, whole key, whole value after)
    ("position.x", 7, "position", (7, 0)),
    ("position.y", 8, "position", (0, 8)),
    ("anchorPoint.x", 0.25, "anchorPoint", (0.25, 0.5)),
    ("anchorPoint.y", 1, "anchorPoint", (0.5, 1)),
    ("bounds.origin", (1, 2), "bounds", (1, 2, 0, 0)),
    ("bounds.origin.x", 3, "bounds", (3, 0, 0, 0)),
    ("bounds.origin.y", 4, "bounds", (0, 4, 0, 0)),
    ("bounds.size", (10, 20), "bounds", (0, 0, 10, 20)),
    ("bounds.size.width", 11, "bounds", (0, 0, 11, 0)),
    ("bounds.size.height", 12, "bounds", (0, 0, 0, 12)),
    ("shadowOffset.width", 5, "shadowOffset", (5, -3)),
    ("shadowOffset.height", 6, "shadowOffset", (0, 6)),
    ("backgroundColor.r", 0.5, "backgroundColor", (0.5, 0, 0, 0)),
    ("backgroundColor.g", 0.5, "backgroundColor", (0, 0.5, 0, 0)),
    ("backgroundColor.b", 0.5, "backgroundColor", (0, 0, 0.5, 0)),
    ("backgroundColor.a", 0.5, "backgroundColor", (0, 0, 0, 0.5)),
    ("borderColor.r", 1, "borderColor", (1, 0, 0, 1)),
    ("shadowColor.a", 0.25, "shadowColor", (0, 0, 0, 0.25)),
    ("transform.translation.x", 3, "transform", I16[:12] + (3, 0, 0, 1)),
    ("transform.translation.y", 4, "transform", I16[:12] + (0, 4, 0, 1)),
    ("transform.translation.z", 5, "transform", I16[:12] + (0, 0, 5, 1)),
    ("transform.translation", (3, 4), "transform", I16[:12] + (3, 4, 0, 1)),
    ("transform.scale.x", 2, "transform", (2,) + I16[1:]),
    ("transform.scale.y", 2, "transform", I16[:5] + (2,) + I16[6:]),
    ("transform.scale.z", 2, "transform", I16[:10] + (2,) + I16[11:]),
    ("transform.scale", 3, "transform", (3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1)),
    ("transform.m34", -0.002, "transform", I16[:11] + (-0.002,) + I16[12:]),
    ("sublayerTransform.m34", -0.002, "sublayerTransform", I16[:11] + (-0.002,) + I16[12:]),
    ("sublayerTransform.translation.x", 9, "sublayerTransform", I16[:12] + (9, 0, 0, 1)),
]


@pytest.mark.parametrize("sub,value,whole,after", SUBKEYS, ids=[s[0] for s in SUBKEYS])
def test_subkey_round_trip(engine, sub, value, whole, after):
    l = engine.create_layer()
    l[sub] = value
    got = l[sub]
    assert got == approx(value if not isinstance(value, tuple) else tuple(float(v) for v in value))
    assert l[whole] == approx(tuple(float(v) for v in after))


@pytest.mark.parametrize("axis", ["x", "y", "z"])
def test_rotation_round_trip(engine, axis):
    l = engine.create_layer()
    l[f"transform.rotation.{axis}"] = 0.5
    assert l[f"transform.rotation.{axis}"] == approx(0.5)


def test_rotation_z_matrix(engine):
    l = engine.create_layer()
    t = 0.3
    l["transform.rotation.z"] = t
    m = l.transform
    # CATransform3DMakeRotation(t, 0, 0, 1), row vectors
    assert (m.m11, m.m12, m.m21, m.m22) == approx((math.cos(t), math.sin(t), -math.sin(t), math.cos(t)))
    assert m == approx(Transform3D.rotation(t))


def test_virtual_keys_compose_scale_rotation_translation(engine):
    l = engine.create_layer()
    l["transform.rotation.z"] = 0.4
    l["transform.scale"] = 2
    l["transform.translation"] = (5, 6)
    expected = Transform3D.scale(2, 2, 2).concat(Transform3D.rotation(0.4)).concat(Transform3D.translation(5, 6))
    assert l.transform == approx(expected)
    assert l["transform.scale"] == approx(2)
    assert l["transform.rotation.z"] == approx(0.4)


def test_scale_reads_mean_of_x_and_y(engine):
    l = engine.create_layer()
    l["transform.scale.x"] = 2
    l["transform.scale.y"] = 4
    assert l["transform.scale"] == approx(3)


def test_rotation_alias_of_rotation_z(engine):
    l = engine.create_layer()
    l["transform.rotation"] = 0.25
    assert l["transform.rotation.z"] == approx(0.25)
    assert l["transform.rotation"] == approx(0.25)
    l["sublayerTransform.rotation"] = 0.5
    assert l["sublayerTransform.rotation.z"] == approx(0.5)


def test_whole_transform_set(engine):
    l = engine.create_layer()
    m = Transform3D.translation(1, 2, 3)
    l.transform = m
    assert l.transform == m
    l.transform = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [4, 5, 6, 1]]  # nested rows
    assert l.transform == Transform3D.translation(4, 5, 6)


@pytest.mark.parametrize("anchor,origin", [((0.5, 0.5), (0, 0)), ((0, 0), (50, 50)), ((1, 1), (-50, -50))])
def test_frame_examples(engine, anchor, origin):
    # SEMANTICS.md §2.1: bounds 100x100, position (50, 50)
    l = engine.create_layer(bounds=(0, 0, 100, 100), position=(50, 50), anchor_point=anchor)
    assert l.frame == approx((origin[0], origin[1], 100, 100))


def test_frame_with_transform_is_bounding_box(engine):
    l = engine.create_layer(bounds=(0, 0, 100, 50), position=(0, 0))
    l["transform.rotation.z"] = math.pi / 2
    assert l.frame == approx((-25, -50, 50, 100), abs=1e-9)


def test_setting_frame_sets_position_and_size_not_origin(engine):
    l = engine.create_layer(bounds=(5, 5, 1, 1), anchor_point=(0.25, 0.5))
    l.frame = (10, 20, 40, 60)
    assert l.bounds == (5, 5, 40, 60)
    assert l.position == approx((10 + 0.25 * 40, 20 + 0.5 * 60))
    assert l.frame == approx((10, 20, 40, 60))


def test_bool_values_normalised(engine):
    l = engine.create_layer()
    l.hidden = 1
    assert l.hidden is True and l["hidden"] == 1.0
    l.double_sided = False
    assert l.doubleSided is False


def test_timing_field_validation(engine):
    l = engine.create_layer()
    with pytest.raises(cadence.InvalidArgumentError):
        l.fillMode = 7
    with pytest.raises(cadence.InvalidArgumentError):
        l.duration = -1
    with pytest.raises(ValueError):
        l.fill_mode = "sideways"


def test_configure_checks_every_value_before_setting_any(engine):
    l = engine.create_layer()
    engine.tick(0.0)  # no longer new: a set runs its implicit animation
    refused = [
        (dict(opacity=0.5, position=(1, 2, 3)), cadence.TypeMismatchError),
        (dict(opacity=0.5, transform=[1.0] * 15), cadence.TypeMismatchError),
        (dict(opacity=0.5, bounds=(0, 0, math.nan, 1)), cadence.InvalidArgumentError),
        (dict(opacity=0.5, background_color=(1, 0, 0, math.inf)), cadence.InvalidArgumentError),
        (dict(opacity=0.5, duration=-1), cadence.InvalidArgumentError),
        (dict(opacity=0.5, speed=math.nan), cadence.InvalidArgumentError),
        (dict(opacity=0.5, repeatCount=-2), cadence.InvalidArgumentError),
        (dict(opacity=0.5, fillMode=7), cadence.InvalidArgumentError),
        (dict(opacity=0.5, hidden=math.nan), cadence.InvalidArgumentError),
        (dict(opacity=0.5, contents=-1), cadence.InvalidArgumentError),
        (dict(opacity=0.5, position="far"), TypeError),
        (dict(opacity=0.5, bogus=1), TypeError),
    ]
    for props, error in refused:
        with pytest.raises(error):
            l.configure(**props)
        assert l.opacity == 1.0, props  # unchanged, and no action ran
        assert l.animation_keys() == [], props
    # the edges the library accepts are accepted
    l.configure(opacity=0.5, repeatCount=math.inf, duration=0.0, fillMode="both", contents=2 ** 64 - 1)
    assert (l.opacity, l.repeatCount, l.fill_mode, l.contents) == (0.5, math.inf, FillMode.BOTH, 2 ** 64 - 1)


def test_layer_repeat_count_accepts_infinity(engine):
    l = engine.create_layer()
    l.repeatCount = math.inf
    assert l.repeatCount == math.inf


# ---- identity -------------------------------------------------------------------

def test_equality_and_hash(engine):
    l = engine.create_layer()
    same = Layer(engine, l.handle)
    assert l == same and hash(l) == hash(same) and l is not same
    assert len({l, same}) == 1
    assert l != engine.create_layer()
    assert int(l) == l.handle and l.engine is engine
    assert (l == 5) is False


def test_destroy_and_alive(engine):
    l = engine.create_layer()
    assert l.alive
    n = engine.layer_count
    l.destroy()
    assert not l.alive and engine.layer_count == n - 1
    with pytest.raises(cadence.InvalidHandleError):
        l.destroy()


# ---- tree -----------------------------------------------------------------------

def test_tree_operations(engine):
    root, a, b, c = (engine.create_layer() for _ in range(4))
    root.add_sublayer(a)
    root.add_sublayer(b)
    root.insert_sublayer(c, 1)
    assert root.sublayers == [a, c, b]
    assert list(root) == [a, c, b]
    assert a.superlayer == root and root.superlayer is None
    c.remove_from_superlayer()
    assert root.sublayers == [a, b] and c.superlayer is None
    c.remove_from_superlayer()  # no-op for a root
    root.insert_sublayer(c, 0)
    assert root.sublayers == [c, a, b]
    a.add_sublayer(b)  # moves b
    assert root.sublayers == [c, a] and a.sublayers == [b]
    with pytest.raises(cadence.InvalidArgumentError):
        b.add_sublayer(root)  # cycle
    with pytest.raises(cadence.InvalidArgumentError):
        root.add_sublayer(root)
    with pytest.raises(cadence.InvalidArgumentError):
        root.insert_sublayer(engine.create_layer(), 99)
    assert root.sublayers == [c, a]


def test_many_sublayers_grow_the_buffer(engine):
    root = engine.create_layer()
    kids = [engine.create_layer() for _ in range(40)]
    for k in kids:
        root.add_sublayer(k)
    assert root.sublayers == kids


def test_destroy_detaches_sublayers(engine):
    root, a, b = (engine.create_layer() for _ in range(3))
    root.add_sublayer(a)
    a.add_sublayer(b)
    a.destroy()
    assert root.sublayers == [] and b.superlayer is None and b.alive


# ---- presentation proxy ---------------------------------------------------------

def test_presentation_layer_proxy(engine):
    l = engine.create_layer(position=(1, 2))
    p = l.presentation_layer
    assert p.position == (1, 2) and p.anchor_point == (0.5, 0.5) and p["position.x"] == 1
    assert p.model_layer is l
    with pytest.raises(AttributeError):
        p.position = (3, 4)
    with pytest.raises(AttributeError):
        p.not_a_property
    assert "position" in dir(p)


# ---- time conversion -------------------------------------------------------------

def test_convert_time_formula(engine):
    # t = (tp - beginTime) * speed + timeOffset, composed along the tree (§3.1)
    root = engine.create_layer(begin_time=1, speed=2, time_offset=0.5)
    child = engine.create_layer(begin_time=3, speed=0.5)
    root.add_sublayer(child)
    assert root.convert_time_from(4.0) == approx((4 - 1) * 2 + 0.5)
    assert root.convert_time((4 - 1) * 2 + 0.5) == approx(4.0)
    t_root = (4 - 1) * 2 + 0.5
    assert child.convert_time_from(4.0) == approx((t_root - 3) * 0.5)
    assert engine.convert_time(4.0, None, child) == approx((t_root - 3) * 0.5)
    assert child.convert_time(child.convert_time_from(4.0), to=root) == approx(t_root)


def test_convert_time_out_of_paused_layer_gives_begin_time(engine):
    l = engine.create_layer(begin_time=2, speed=0, time_offset=5)
    assert l.convert_time_from(10.0) == approx(5.0)  # into: (10 - 2) * 0 + 5
    assert l.convert_time(1.0) == approx(2.0)  # out of a paused layer: its beginTime (Cadence)
