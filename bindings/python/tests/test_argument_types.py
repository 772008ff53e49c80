"""Argument types the binding checks itself, with one rule everywhere: a non-number
where a C double is taken is a TypeError (never ctypes.ArgumentError, never parsed
from a string), a number out of a double's range an InvalidArgumentError; enum
arguments take any integer operator.index accepts (numpy integers), not bools;
evaluate_timing returns a float for every real scalar."""
from __future__ import annotations

import ctypes
import math
from fractions import Fraction

import pytest

import cadence
from cadence import Animation, CalcMode, FillMode, Path, TransitionType

from conftest import bezier_solve

np = pytest.importorskip("numpy")

HUGE = 10 ** 400  # a real number no double holds


def _double_argument_calls(engine, layer):
    """name -> a call passing ``v`` where the C function takes a double."""
    tr = Animation.transition(engine)
    spring = Animation.spring(engine, "opacity", to=0.0)
    kf = Animation.keyframe(engine, "position", values=[(0, 0), (1, 1)])

    def in_animate(**kw):
        with engine.animate(**kw):
            pass

    def in_transaction(**kw):
        with engine.transaction(**kw):
            pass

    def keyframe_window(v):
        with engine.animate(duration=1.0):
            with engine.keyframe(v, 0.5):
                pass

    def set_attr(obj, name):
        return lambda v: setattr(obj, name, v)

    return {
        "engine.tick": lambda v: engine.tick(v),
        "engine.convert_time": lambda v: engine.convert_time(v, layer),
        "layer.convert_time": lambda v: layer.convert_time(v),
        "layer.convert_time_from": lambda v: layer.convert_time_from(v),
        "animate(duration)": lambda v: in_animate(duration=v),
        "animate(delay)": lambda v: in_animate(delay=v),
        "animate(repeat)": lambda v: in_animate(repeat=v),
        "animate(spring_damping)": lambda v: in_animate(spring_damping=v),
        "transaction(duration)": lambda v: in_transaction(duration=v),
        "keyframe window": keyframe_window,
        "Animation.spring(mass)": lambda v: Animation.spring(engine, "opacity", mass=v, to=1),
        "set_spring": lambda v: spring.set_spring(1.0, v, 10.0),
        "spring.stiffness =": set_attr(spring, "stiffness"),
        "set_spring_perceptual": lambda v: spring.set_spring_perceptual(v, 0.2),
        "set_spring_uikit": lambda v: spring.set_spring_uikit(1.0, v),
        "set_progress": lambda v: tr.set_progress(v, 1),
        "start_progress =": set_attr(tr, "start_progress"),
        "Path.move_to": lambda v: Path().move_to(v, 0),
        "Path.cubic_to": lambda v: Path().move_to(0, 0).cubic_to(0, 0, 1, v, 1, 1),
        "Bézier timing function": lambda v: Animation.basic(engine, "opacity", to=0, timing_function=(0.1, v, 0.2, 1)),
        "key_times": lambda v: setattr(kf, "key_times", [0.0, v]),
        "evaluate_timing x": lambda v: cadence.evaluate_timing("linear", v),
        "layer.opacity =": set_attr(layer, "opacity"),
        "layer.position =": lambda v: setattr(layer, "position", (v, 1.0)),
        "layer.set": lambda v: layer.set("position.x", v),
        "Animation to=": lambda v: Animation.basic(engine, "opacity", to=v),
    }


@pytest.mark.parametrize("bad", ["1", b"1", "inf", bytearray(b"2"), 1j], ids=["str", "bytes", "str-inf", "bytearray",
                                                                        "complex"])
def test_non_numbers_for_doubles_are_type_errors(engine, layer, bad):
    for name, call in _double_argument_calls(engine, layer).items():
        with pytest.raises(TypeError) as info:
            call(bad)
        assert not isinstance(info.value, ctypes.ArgumentError), name
        assert engine.transaction_id == 0, name  # no transaction left open
    assert layer.opacity == 1.0 and layer.position == (0.0, 0.0) and engine.now == 0.0


def test_none_for_a_double_is_a_type_error(engine, layer):
    calls = _double_argument_calls(engine, layer)
    for name in ("engine.convert_time", "layer.convert_time", "animate(duration)", "animate(delay)",
                 "Animation.spring(mass)", "set_progress", "Path.move_to", "keyframe window", "set_spring_uikit"):
        with pytest.raises(TypeError):
            calls[name](None)
        assert engine.transaction_id == 0, name


def test_numbers_out_of_double_range_are_invalid_arguments(engine, layer):
    for name, call in _double_argument_calls(engine, layer).items():
        if name in ("animate(spring_damping)",):
            continue  # checked below: HUGE passes as a damping only to fail as inf would
        with pytest.raises(cadence.InvalidArgumentError):
            call(HUGE)
        with pytest.raises(cadence.InvalidArgumentError):
            call(-HUGE)
        assert engine.transaction_id == 0, name
    with pytest.raises(cadence.InvalidArgumentError):
        with engine.animate(spring_damping=HUGE):
            pass
    assert layer.opacity == 1.0 and engine.now == 0.0


def test_real_numbers_of_any_type_are_accepted(engine, layer):
    layer.opacity = Fraction(1, 4)
    assert layer.opacity == 0.25
    layer.position = (np.float32(1.5), np.int64(2))
    assert layer.position == (1.5, 2.0)
    engine.tick(np.float64(0.5))
    assert engine.now == 0.5
    engine.tick(1)
    assert engine.now == 1.0
    assert layer.convert_time(Fraction(3, 2)) == 1.5
    a = Animation.basic(engine, "opacity", to=0.0, duration=np.float32(2.0), repeat_count=True)
    assert a.duration == 2.0 and a.repeat_count == math.inf


@pytest.mark.parametrize("field", ["begin_time", "duration", "speed", "time_offset", "repeat_count",
                                   "repeat_duration", "beginTime", "timeOffset", "repeatCount"])
def test_animation_float_fields_refuse_strings(engine, field):
    a = Animation.basic(engine, "opacity", to=0.0)
    before = getattr(a, field)
    for bad in ("2", b"1", "inf", " 3 ", None):
        with pytest.raises(TypeError):
            setattr(a, field, bad)
        assert getattr(a, field) == before
        if bad is None:
            continue  # Animation.basic(duration=None) means "not given"
        with pytest.raises(TypeError):
            Animation.basic(engine, "opacity", to=0.0, **{field: bad})
    setattr(a, field, 3)
    assert getattr(a, field) == 3.0


def test_layer_property_and_animation_field_agree_on_strings(engine, layer):
    with pytest.raises(TypeError):
        layer.duration = "2"
    with pytest.raises(TypeError):
        Animation.basic(engine, "opacity", to=0.0).duration = "2"


def test_numpy_integers_for_enum_arguments(engine, layer):
    # fill mode forwards (1) keeps the final value after the end; removed (0) would not
    a = Animation.basic(engine, "opacity", from_=1.0, to=0.0, duration=1.0, fill_mode=np.int64(1),
                        removed_on_completion=False)
    assert a.fill_mode is FillMode.FORWARDS
    layer.add_animation(a, "fade")
    engine.tick(2.0)
    assert layer.presentation("opacity") == 0.0

    other = engine.create_layer()
    other.fill_mode = np.int32(1)
    assert other.fill_mode is FillMode.FORWARDS

    # discrete (1): the first value holds over the first half of two values
    k = Animation.keyframe(engine, "position.x", values=[0.0, 10.0], duration=1.0,
                           calculation_mode=np.int64(1))
    assert k.calculation_mode is CalcMode.DISCRETE
    b = engine.create_layer()
    engine.tick(2.0)
    b.add_animation(k, "k")
    engine.tick(2.25)
    assert b.presentation("position.x") == 0.0
    engine.tick(2.75)
    assert b.presentation("position.x") == 10.0

    # ease-in (1) as a numpy integer, for an animation and for evaluate_timing
    c = Animation.basic(engine, "position.y", from_=0.0, to=1.0, duration=1.0, timing_function=np.int64(1))
    b.add_animation(c, "c")
    engine.tick(3.25)
    assert b.presentation("position.y") == pytest.approx(bezier_solve(0.42, 0.0, 1.0, 1.0, 0.5), abs=1e-6)
    assert cadence.evaluate_timing(np.int16(1), 0.5) == pytest.approx(bezier_solve(0.42, 0.0, 1.0, 1.0, 0.5),
                                                                      abs=1e-6)
    assert cadence.timing_bezier(np.uint8(0)) == (0.0, 0.0, 1.0, 1.0)

    t = Animation.transition(engine, np.int64(2), np.int8(3))
    assert t.transition_type is TransitionType.PUSH and t.transition_subtype == 3
    t.transition_type = np.int32(3)
    assert t.transition_type is TransitionType.REVEAL
    with engine.transaction(timing_function=np.int64(0)):
        pass


def test_bools_are_not_enum_values(engine, layer):
    for bad in (True, np.bool_(True)):
        with pytest.raises(TypeError):
            Animation.basic(engine, "opacity", to=0.0, fill_mode=bad)
        with pytest.raises(TypeError):
            layer.fill_mode = bad
        with pytest.raises(TypeError):
            Animation.transition(engine, bad)
    with pytest.raises(TypeError):
        Animation.keyframe(engine, "opacity", values=[0, 1], calculation_mode=np.float64(1.0))


@pytest.mark.parametrize("x, expected_x", [
    (np.float32(0.5), 0.5), (np.float64(0.25), 0.25), (np.int64(1), 1.0), (np.int8(0), 0.0),
    (True, 1.0), (False, 0.0), (Fraction(3, 4), 0.75), (0.5, 0.5), (1, 1.0),
])
def test_evaluate_timing_returns_a_float_for_real_scalars(x, expected_x):
    y = cadence.evaluate_timing("easeIn", x)
    assert type(y) is float
    assert y == pytest.approx(bezier_solve(0.42, 0.0, 1.0, 1.0, expected_x), abs=1e-6)


def test_evaluate_timing_shapes_for_arrays_and_sequences():
    assert cadence.evaluate_timing("linear", [0.25, np.float32(0.5)]) == [0.25, 0.5]
    arr = cadence.evaluate_timing("linear", np.array([[0.25], [0.75]]))
    assert arr.shape == (2, 1) and arr.tolist() == [[0.25], [0.75]]


# ---- audit 36: numpy bools in value paths (D4), evaluate_timing arrays (D5, D3) ----------

def test_numpy_bool_scalars_are_bools_in_value_paths(engine, layer):
    # An element of a bool mask is numpy's bool scalar, not a numbers.Real: taken where a
    # Python bool is (as 1.0 and 0.0), like the typed attributes and bool arrays already do.
    mask = np.array([True, False])
    layer["hidden"] = mask[0]
    assert layer.hidden is True
    layer["hidden"] = mask[1]
    assert layer.hidden is False
    layer.set("masksToBounds", np.True_)
    assert layer.masks_to_bounds is True
    layer["position"] = (np.True_, 2)
    assert layer.position == (1.0, 2.0)
    layer.configure(double_sided=np.False_, opacity=np.True_)
    assert layer.double_sided is False and layer.opacity == 1.0
    a = Animation.basic(engine, "opacity", from_=np.False_, to=np.True_, duration=2.0)
    assert a.to_value == np.True_
    k = Animation.keyframe(engine, "zPosition", values=[np.False_, np.True_, np.False_], duration=2.0)
    assert Animation.basic(engine, "hidden", to=np.True_).to_value == np.True_
    layer.add_animation(a, "a")
    layer.add_animation(k, "k")
    engine.tick(0.5)   # a quarter of the way: 0 -> 1 linearly, and of 0 -> 1 -> 0 half-way up
    assert layer.presentation("opacity") == pytest.approx(0.25)
    assert layer.presentation("zPosition") == pytest.approx(0.5)
    # Doubles take them as they take bools; timing numbers too.
    b = Animation.basic(engine, "opacity", to=0.0, duration=np.True_)
    assert b.duration == 1.0
    engine.tick(np.True_)
    assert engine.now == 1.0


def test_evaluate_timing_keeps_the_shape_of_a_0d_array():
    y = cadence.evaluate_timing("easeIn", np.array(0.5))
    assert isinstance(y, np.ndarray) and y.shape == () and y.dtype == np.float64
    assert float(y) == pytest.approx(bezier_solve(0.42, 0.0, 1.0, 1.0, 0.5), abs=1e-6)
    y = cadence.evaluate_timing("linear", np.array(1, dtype=np.int8))
    assert y.shape == () and float(y) == 1.0


def test_evaluate_timing_hands_c_aligned_contiguous_arrays(monkeypatch):
    # C reads x and writes y as aligned doubles: an unaligned or strided array is
    # copied first (numpy would pass an unaligned one through as it is).
    real = cadence.lib.cad_timing_eval_batch
    pointers = []

    def spy(c1x, c1y, c2x, c2y, x, y, n):
        if n:
            pointers.extend(ctypes.cast(p, ctypes.c_void_p).value for p in (x, y))
        return real(c1x, c1y, c2x, c2y, x, y, n)

    monkeypatch.setattr(cadence.lib, "cad_timing_eval_batch", spy)
    xs = np.array([0.1, 0.5, 0.9])
    raw = bytearray(1 + xs.nbytes)
    raw[1:] = xs.tobytes()
    unaligned = np.frombuffer(raw, dtype=np.float64, offset=1)
    assert not unaligned.flags.aligned
    expected = [bezier_solve(0.42, 0.0, 1.0, 1.0, x) for x in xs]
    assert cadence.evaluate_timing("easeIn", unaligned).tolist() == pytest.approx(expected, abs=1e-6)
    strided = np.array([[0.1, 0.5, 0.9], [0.0, 0.0, 0.0]]).T[:, 0]
    assert cadence.evaluate_timing("easeIn", strided).tolist() == pytest.approx(expected, abs=1e-6)
    assert len(pointers) == 4 and all(p % 8 == 0 for p in pointers)
