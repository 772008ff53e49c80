"""Springs (§6), keyframes and paths (§7), transitions (§8) and groups (§9)."""
from __future__ import annotations

import ctypes
import math

import pytest

import cadence
from cadence import Animation, EventKind, ItemFlag, Path
from conftest import approx, spring_x


# ---- springs ---------------------------------------------------------------------

@pytest.mark.parametrize("s", [0.05, 0.1, 0.3, 0.7])
def test_default_spring_closed_form(engine, layer, s):
    a = Animation.spring(engine, "position.x", from_=0, to=100)
    layer.add_animation(a, "s")
    engine.tick(s)
    wd = math.sqrt(75)
    x = math.exp(-5 * s) * (math.cos(wd * s) + (5 / wd) * math.sin(wd * s))  # §6 example
    assert layer.presentation("position.x") == pytest.approx(100 * (1 - x), abs=1e-6)


@pytest.mark.parametrize("params", [
    dict(mass=1, stiffness=100, damping=20, initial_velocity=0),   # critically damped
    dict(mass=1, stiffness=100, damping=30, initial_velocity=0),   # overdamped
    dict(mass=2, stiffness=50, damping=3, initial_velocity=4),     # underdamped with velocity
    dict(mass=1, stiffness=100, damping=20, initial_velocity=-3),
])
def test_spring_closed_forms(engine, layer, params):
    a = Animation.spring(engine, "position.x", from_=0, to=1, duration=10, **params)
    layer.add_animation(a, "s")
    for s in (0.05, 0.2, 0.6):
        engine.tick(s)
        exp = 1 - spring_x(s, params["mass"], params["stiffness"], params["damping"], params["initial_velocity"])
        assert layer.presentation("position.x") == pytest.approx(exp, abs=1e-6), s


def _settling_envelope(m, k, c, v0):
    w0 = math.sqrt(k / m)
    zeta = c / (2 * math.sqrt(k * m))
    wd = w0 * math.sqrt(1 - zeta * zeta)
    b = (zeta * w0 - v0) / wd
    return math.log((1 + abs(b)) / 0.001) / (zeta * w0)


def test_settling_duration(engine):
    assert Animation.spring(engine, "opacity", damping=5).settling_duration == pytest.approx(2.855, abs=5e-4)
    d15 = Animation.spring(engine, "opacity", damping=15).settling_duration
    assert 1.0 < d15 < 1.2  # "just over 1 s"
    assert d15 == pytest.approx(_settling_envelope(1, 100, 15, 0), rel=1e-9)
    d = Animation.spring(engine, "opacity").settling_duration
    assert d == pytest.approx(_settling_envelope(1, 100, 10, 0), rel=1e-9)
    d = Animation.spring(engine, "opacity", mass=2, stiffness=80, damping=4, initial_velocity=3).settling_duration
    assert d == pytest.approx(_settling_envelope(2, 80, 4, 3), rel=1e-9)


def test_settling_duration_of_critically_damped_spring_is_threshold_time(engine):
    d = Animation.spring(engine, "opacity", damping=20).settling_duration
    assert abs(spring_x(d, c=20)) == pytest.approx(0.001, rel=1e-3)
    assert all(abs(spring_x(d + dt, c=20)) < 0.001 for dt in (0.01, 0.1, 1.0))


def test_spring_duration_defaults_to_settling(engine, layer):
    a = Animation.spring(engine, "position.x", from_=0, to=1)
    assert a.duration == pytest.approx(a.settling_duration)
    assert a.mass == 1 and a.stiffness == 100 and a.damping == 10 and a.initial_velocity == 0
    a.damping = 5
    assert a.settling_duration == pytest.approx(2.855, abs=5e-4)
    layer.add_animation(a, "s")
    engine.tick(a.duration)
    assert [e.kind for e in engine.poll_events()] == [EventKind.START, EventKind.STOP]


def test_perceptual_spring(engine, layer):
    # §6: d = 0.5, b = 0.3 -> m = 1, k = (2π/d)² ≈ 157.9, ζ = 0.7, c = 4πζ/d ≈ 17.6
    k = (2 * math.pi / 0.5) ** 2
    c = 4 * math.pi * 0.7 / 0.5
    assert k == pytest.approx(157.9, abs=0.05) and c == pytest.approx(17.6, abs=0.05)
    a = Animation.spring_perceptual(engine, "position.x", 0.5, 0.3, from_=0, to=1)
    assert a.settling_duration == pytest.approx(_settling_envelope(1, k, c, 0), rel=1e-6)
    layer.add_animation(a, "s")
    for s in (0.05, 0.15, 0.3):
        engine.tick(s)
        assert layer.presentation("position.x") == pytest.approx(1 - spring_x(s, 1, k, c, 0), abs=1e-6)
    engine.tick(_settling_envelope(1, k, c, 0))  # its duration is the settling duration
    assert any(e.kind == EventKind.STOP and e.finished for e in engine.poll_events())


def test_perceptual_negative_bounce(engine):
    b = -0.5
    zeta = 1 / (1 + b)  # overdamped
    a = Animation.spring_perceptual(engine, "opacity", 1.0, b)
    k = (2 * math.pi) ** 2
    c = 4 * math.pi * zeta
    d = a.settling_duration
    assert abs(spring_x(d, 1, k, c)) == pytest.approx(0.001, rel=1e-3)


def test_uikit_spring_settles_at_duration(engine):
    a = Animation.spring_uikit(engine, "opacity", 0.8, 0.6, 0.0)
    assert a.settling_duration == pytest.approx(0.8, rel=1e-6)
    # Without initial velocity the envelope bound inverts by hand:
    # w0 = ln((1 + B) / 0.001) / (zeta D), B = zeta / sqrt(1 - zeta^2) = 0.75.
    w0 = math.log(1.75 / 0.001) / (0.6 * 0.8)
    assert a.stiffness == pytest.approx(w0 * w0, rel=1e-12)
    assert a.damping == pytest.approx(2 * 0.6 * w0, rel=1e-12)
    assert a.mass == 1
    # Changing one parameter keeps the derived others.
    a.mass = 2
    assert (a.mass, a.stiffness, a.damping) == (2, pytest.approx(w0 * w0, rel=1e-12), pytest.approx(1.2 * w0, rel=1e-12))


def test_perceptual_spring_parameters(engine):
    # SEMANTICS.md §6: mass 1, stiffness (2 pi / duration)^2; bounce 0 is critically damped, c = 2 sqrt(k m).
    a = Animation.spring_perceptual(engine, "opacity", 0.5, 0.0)
    k = (2 * math.pi / 0.5) ** 2
    assert a.mass == 1 and a.stiffness == pytest.approx(k, rel=1e-12)
    assert a.damping == pytest.approx(2 * math.sqrt(k), rel=1e-12)
    assert Animation.basic(engine, "opacity").stiffness is None


def test_spring_validation(engine):
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.spring(engine, "opacity", mass=0)
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.spring_perceptual(engine, "opacity", 0.5, 1.0)
    with pytest.raises(cadence.InvalidStateError):
        Animation.basic(engine, "opacity").settling_duration


# ---- keyframes -------------------------------------------------------------------

def _run(engine, layer, anim, keypath, times, key="k"):
    start = engine.now
    layer.add_animation(anim, key)
    out = []
    for t in times:
        engine.tick(start + t)
        out.append(layer.presentation(keypath))
    return out


def test_keyframe_linear_even_spacing(engine, layer):
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 30], duration=1)
    assert _run(engine, layer, a, "position.x", [0.25, 0.5, 0.75]) == approx([5, 10, 20])


def test_keyframe_key_times(engine, layer):
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 30], key_times=[0, 0.8, 1], duration=1)
    assert _run(engine, layer, a, "position.x", [0.4, 0.9]) == approx([5, 20])


def test_keyframe_points(engine, layer):
    a = Animation.keyframe(engine, "position", values=[(0, 0), (10, 20), (30, 0)], duration=2)
    assert _run(engine, layer, a, "position", [0.5, 1.5]) == approx([(5, 10), (20, 10)])


def test_keyframe_invalid_key_times(engine):
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.keyframe(engine, "opacity", values=[0, 1, 0], key_times=[0, 0.7, 0.5])
    with pytest.raises(ValueError):
        Animation.keyframe(engine, "position", values=[(0, 0), (1,)])


def test_keyframe_discrete(engine, layer):
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 30], calculation_mode="discrete", duration=1)
    assert _run(engine, layer, a, "position.x", [0.2, 0.4, 0.7]) == approx([0, 10, 30])


def test_keyframe_discrete_n_plus_one_key_times(engine, layer):
    a = Animation.keyframe(engine, "position.x", values=[0, 10], key_times=[0, 0.25, 1],
                           calculation_mode="discrete", duration=1)
    assert _run(engine, layer, a, "position.x", [0.1, 0.3, 0.9]) == approx([0, 10, 10])


def test_keyframe_paced(engine, layer):
    # distances 10 and 20: constant speed over 30 units
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 30], calculation_mode="paced",
                           key_times=[0, 0.9, 1], duration=1)  # key times are ignored
    assert _run(engine, layer, a, "position.x", [0.25, 0.5]) == approx([7.5, 15])


def _catmull_rom(values, t):
    """Uniform Catmull-Rom through values, end tangents from duplicated end points."""
    n = len(values) - 1
    seg = min(int(t * n), n - 1)
    u = t * n - seg
    p = [values[0]] + list(values) + [values[-1]]
    p0, p1, p2, p3 = p[seg], p[seg + 1], p[seg + 2], p[seg + 3]
    m1 = (p2 - p0) / 2
    m2 = (p3 - p1) / 2
    h00 = 2 * u ** 3 - 3 * u ** 2 + 1
    h10 = u ** 3 - 2 * u ** 2 + u
    h01 = -2 * u ** 3 + 3 * u ** 2
    h11 = u ** 3 - u ** 2
    return h00 * p1 + h10 * m1 + h01 * p2 + h11 * m2


def test_keyframe_cubic_is_catmull_rom(engine, layer):
    vals = [0.0, 10.0, 30.0, 20.0]
    a = Animation.keyframe(engine, "position.x", values=vals, calculation_mode="cubic", duration=1)
    times = [1 / 6, 0.4, 0.5, 0.9]
    got = _run(engine, layer, a, "position.x", times)
    assert got == pytest.approx([_catmull_rom(vals, t) for t in times], abs=1e-9)


def test_keyframe_cubic_passes_through_values(engine, layer):
    vals = [0.0, 10.0, 30.0, 20.0]
    a = Animation.keyframe(engine, "position.x", values=vals, calculation_mode="cubic", duration=3,
                           tcb=dict(tension=[0.5, -0.5, 0.2, 0], bias=[0, 0.3, 0, 0]))
    got = _run(engine, layer, a, "position.x", [1.0, 2.0])
    assert got == pytest.approx([10.0, 30.0], abs=1e-9)


def test_keyframe_segment_timing(engine, layer):
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 20], duration=2,
                           timing_functions=["easeIn", "linear"])
    got = _run(engine, layer, a, "position.x", [0.5, 1.5])
    from conftest import bezier_solve
    assert got == pytest.approx([10 * bezier_solve(0.42, 0, 1, 1, 0.5), 15], abs=1e-6)


def test_path_linear_and_paced(engine, layer):
    path = Path().move_to(0, 0).line_to(100, 0).line_to(100, 300)
    lin = Animation.keyframe(engine, "position", path=path, duration=1)
    assert _run(engine, layer, lin, "position", [0.25, 0.75]) == approx([(50, 0), (100, 150)])
    other = engine.create_layer()
    engine.tick(engine.now + 1)
    paced = Animation.keyframe(engine, "position", path=[(0, 0), (100, 0), (100, 300)], calculation_mode="paced",
                               duration=1)
    assert _run(engine, other, paced, "position", [0.125, 0.5]) == approx([(50, 0), (100, 100)])


def test_path_cubic_constant_speed(engine, layer):
    # a single cubic moves at constant speed along it: a straight cubic with uneven controls
    path = Path().move_to(0, 0).cubic_to(90, 0, 99, 0, 100, 0)
    a = Animation.keyframe(engine, "position", path=path, duration=1)
    got = _run(engine, layer, a, "position", [0.25, 0.5])
    assert got[0] == pytest.approx((25, 0), abs=1e-3) and got[1] == pytest.approx((50, 0), abs=1e-3)


def test_path_quad_and_close_elements(engine, layer):
    path = Path([("move_to", 0, 0), ("quad_to", 50, 0, 100, 0), ("line_to", 100, 100), ("close",)])
    assert len(path) == 4 and path.elements[1] == ("quad_to", 50.0, 0.0, 100.0, 0.0)
    a = Animation.keyframe(engine, "position", path=path, duration=3)
    got = _run(engine, layer, a, "position", [1.0, 2.0, 2.5])
    assert got[0] == pytest.approx((100, 0), abs=1e-6)
    assert got[1] == pytest.approx((100, 100), abs=1e-6)
    assert got[2] == pytest.approx((50, 50), abs=1e-6)  # the closing diagonal back to (0, 0)
    with pytest.raises(ValueError):
        Path([("spiral_to", 1, 2)])


@pytest.mark.parametrize("mode,offset", [("auto", 0.0), ("autoReverse", math.pi)])
def test_path_rotation_mode(engine, layer, mode, offset):
    path = Path().move_to(0, 0).line_to(100, 0).line_to(100, 100)
    a = Animation.keyframe(engine, "position", path=path, duration=1, rotation_mode=mode)
    got = _run(engine, layer, a, "transform.rotation.z", [0.25, 0.75])
    expected = [0.0 + offset, math.pi / 2 + offset]
    # compare angles, not their representatives (the matrix decomposes to one in (-π, π])
    assert [f(g) for g in got for f in (math.cos, math.sin)] == pytest.approx(
        [f(e) for e in expected for f in (math.cos, math.sin)], abs=1e-9)


# ---- groups ----------------------------------------------------------------------

def test_group_children_and_durations(engine, layer):
    g = Animation.group(engine, [Animation.basic(engine, "position.x", from_=0, to=10),
                                 Animation.basic(engine, "position.y", from_=0, to=20, duration=0.5),
                                 Animation.basic(engine, "opacity", from_=0, to=1, duration=1, begin_time=0.5)],
                        duration=1)
    assert _run(engine, layer, g, "position", [0.25]) == approx([(2.5, 10)])
    assert layer.presentation("opacity") == 1.0  # third child not begun (relative beginTime 0.5)
    engine.tick(0.75)
    assert layer.presentation("position.y") == 0  # second child ended (no fill)
    assert layer.presentation("opacity") == approx(0.25)


def test_group_clips_children_and_timing_applies(engine, layer):
    g = Animation.group(engine, [Animation.basic(engine, "position.x", from_=0, to=100, duration=4)], duration=1)
    assert _run(engine, layer, g, "position.x", [0.5]) == approx([12.5])
    engine.tick(1.0)
    assert layer.presentation("position.x") == 0 and layer.animation_keys() == []
    eased = Animation.group(engine, [Animation.basic(engine, "position.x", from_=0, to=100)], duration=1,
                            timing_function="easeIn")
    from conftest import bezier_solve
    got = _run(engine, layer, eased, "position.x", [0.5])
    assert got[0] == pytest.approx(100 * bezier_solve(0.42, 0, 1, 1, 0.5), abs=1e-6)


def test_group_events_are_for_the_group(engine, layer):
    kid = Animation.basic(engine, "opacity", from_=0, to=1, tag=1)
    g = Animation.group(engine, [kid], duration=1, tag=2)
    layer.add_animation(g, "g")
    engine.tick(2)
    evs = list(engine.poll_events())
    assert [(e.kind, e.tag, e.key) for e in evs] == [(EventKind.START, 2, "g"), (EventKind.STOP, 2, "g")]


def test_group_rejects_foreign_children(engine):
    other = cadence.Engine()
    try:
        with pytest.raises(ValueError):
            Animation.group(engine, [Animation.basic(other, "opacity")])
        with pytest.raises(TypeError):
            Animation.group(engine, ["opacity"])
    finally:
        other.close()


# ---- transitions -------------------------------------------------------------------

def g(item, name):
    """A render item field, for numpy records and ctypes structures alike."""
    return getattr(item, name) if isinstance(item, ctypes.Structure) else item[name]


def _pictures(items):
    out = [i for i in items if g(i, "flags") & ItemFlag.TRANSITION_OUTGOING]
    inc = [i for i in items if g(i, "flags") & ItemFlag.TRANSITION_INCOMING]
    return out, inc


def test_fade_transition(engine):
    l = engine.create_layer(bounds=(0, 0, 10, 10), contents=1)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, "fade", duration=1))
    l.contents = 2
    engine.tick(0.25)
    items = engine.render_list(l)
    assert g(items[0], "flags") & ItemFlag.TRANSITION_CLIP and g(items[0], "flags") & ItemFlag.MASKS_TO_BOUNDS
    out, inc = _pictures(items)
    assert g(out[0], "contents") == 1 and g(inc[0], "contents") == 2
    assert g(out[0], "world_opacity") == pytest.approx(0.75) and g(inc[0], "world_opacity") == pytest.approx(0.25)
    assert l.animation_keys() == ["transition"]


@pytest.mark.parametrize("ttype,subtype,out_off,in_off", [
    ("push", "fromLeft", (2.5, 0), (-7.5, 0)),
    ("push", "fromRight", (-2.5, 0), (7.5, 0)),
    ("push", "fromTop", (0, 2.5), (0, -7.5)),
    ("push", "fromBottom", (0, -2.5), (0, 7.5)),
    ("moveIn", "fromLeft", (0, 0), (-7.5, 0)),
    ("reveal", "fromLeft", (2.5, 0), (0, 0)),
])
def test_moving_transitions(engine, ttype, subtype, out_off, in_off):
    # W = H = 10, p = 0.25 (linear); the layer's own world translation is (-5, -5)
    l = engine.create_layer(bounds=(0, 0, 10, 10), contents=1)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, ttype, subtype, duration=1))
    l.contents = 2
    engine.tick(0.25)
    out, inc = _pictures(engine.render_list(l))
    assert tuple(g(out[0], "world")[12:14]) == pytest.approx((-5 + out_off[0], -5 + out_off[1]))
    assert tuple(g(inc[0], "world")[12:14]) == pytest.approx((-5 + in_off[0], -5 + in_off[1]))


def test_transition_progress_range(engine):
    l = engine.create_layer(bounds=(0, 0, 10, 10), contents=1)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, "fade", start_progress=0.5, end_progress=1.0, duration=1))
    l.contents = 2
    engine.tick(0.5)  # eased progress 0.5 mapped into [0.5, 1] -> 0.75
    out, inc = _pictures(engine.render_list(l))
    assert g(inc[0], "world_opacity") == pytest.approx(0.75) and g(out[0], "world_opacity") == pytest.approx(0.25)


def test_contents_change_runs_default_fade(engine):
    l = engine.create_layer(bounds=(0, 0, 10, 10), contents=1)
    engine.tick(0)
    l.contents = 2
    assert l.animation_keys() == ["transition"]
    engine.tick(0.125)
    out, inc = _pictures(engine.render_list(l))
    from conftest import bezier_solve  # implicit actions use the `default` curve (§10)
    assert g(inc[0], "world_opacity") == pytest.approx(bezier_solve(0.25, 0.1, 0.25, 1, 0.5), abs=1e-6)
    engine.tick(0.25)
    assert l.animation_keys() == []
    with engine.transaction(disable_actions=True):
        l.contents = 3
    assert l.animation_keys() == []


def test_transition_validation(engine):
    with pytest.raises(ValueError):
        Animation.transition(engine, "wipe")
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.transition(engine, "fade", start_progress=0.5, end_progress=1.5)
    t = Animation.transition(engine, cadence.TransitionType.PUSH, cadence.TransitionSubtype.FROM_TOP)
    assert t.transition_type is cadence.TransitionType.PUSH
    assert t.transition_subtype is cadence.TransitionSubtype.FROM_TOP


def test_undamped_spring_keeps_a_finite_duration(engine, layer):
    # damping 0 is valid (C accepts damping >= 0); it never settles, so the duration
    # cannot follow the settling duration (found by a springs audit: the constructor
    # raised "duration must be finite" for a duration the caller never gave).
    a = Animation.spring(engine, "opacity", from_=0, to=1, damping=0)
    assert a.settling_duration == float("inf")
    assert a.duration == 0          # the default: the animation lasts 0.25 s
    layer.add_animation(a, "s")
    engine.tick(0.25)
    assert [e.kind for e in engine.poll_events()] == [EventKind.START, EventKind.STOP]


@pytest.mark.parametrize("name,member,value", [("flip", "FLIP", 4), ("cube", "CUBE", 5)])
def test_flip_and_cube_types_are_exposed(engine, name, member, value):
    # Cadence's 3D transitions (SEMANTICS.md §8): enum members, C constants and names.
    from cadence import _abi
    assert cadence.TransitionType[member] == value == _abi.CONSTANTS["CAD_TRANSITION_" + member]
    for sub in ("fromLeft", "fromRight", "fromTop", "fromBottom"):
        t = Animation.transition(engine, name, sub, duration=1)
        assert t.transition_type is cadence.TransitionType[member]
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.transition(engine, 6)


def test_flip_render_list(engine):
    # flip fromLeft, W = 100, H = 50, p = 0.25 (linear): the layer's world is T(-50, -25, 0)
    # (bounds at the origin, position 0), c = (50, 25), m34 = -1/200. The outgoing
    # picture's world is T(-c) R_y(pi/4) P T(c) T(-50, -25, 0) (the last translation
    # leaves columns 3 and 4): m14 = -sin(pi/4) k = 0.005 sin(pi/4) = 0.00353553 and
    # m43 = -50 m13 = -50 (-sin(pi/4)) = 35.3553; only it shows (p < 0.5).
    l = engine.create_layer(bounds=(0, 0, 100, 50), contents=1)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, "flip", "fromLeft", duration=1, timing_function="linear"))
    l.contents = 2
    engine.tick(0.25)
    items = engine.render_list(l)
    assert g(items[0], "flags") & ItemFlag.TRANSITION_CLIP and not g(items[0], "flags") & ItemFlag.MASKS_TO_BOUNDS
    out, inc = _pictures(items)
    w = g(out[0], "world")
    assert w[3] == pytest.approx(0.00353553, abs=1e-6) and w[14] == pytest.approx(35.3553391, abs=1e-4)
    assert g(out[0], "world_opacity") == pytest.approx(1) and g(inc[0], "world_opacity") == 0
