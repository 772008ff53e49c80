"""CAMediaTiming (SEMANTICS.md §3), timing functions (§4) and basic animations (§5)."""
from __future__ import annotations

import math

import pytest

import cadence
from cadence import Animation, EventKind
from conftest import approx, bezier_solve


def sample_at(engine, layer, keypath, times):
    out = []
    for t in times:
        engine.tick(t)
        out.append(layer.presentation(keypath))
    return out


def test_basic_linear_0_to_100_over_one_second(engine, layer):
    a = Animation.basic(engine, "position.x", from_=0, to=100, duration=1)
    layer.add_animation(a, "x")
    assert sample_at(engine, layer, "position.x", [0, 0.25, 0.5, 0.75]) == approx([0, 25, 50, 75])
    engine.tick(1.0)  # finished and removed: the model value shows again
    assert layer.presentation("position.x") == 0
    assert layer.animation_keys() == []


def test_paused_scrub_worked_example(engine):
    # §3.3: a layer with speed 0 holds a 1 s animation of transform.rotation.y from 0 to -π/2
    # added when its local time was 0; timeOffset 0.25 shows -π/8.
    l = engine.create_layer(speed=0)
    engine.tick(3.0)
    assert l.convert_time_from(engine.now) == 0
    l.add_animation(Animation.basic(engine, "transform.rotation.y", from_=0, to=-math.pi / 2, duration=1), "r")
    l.timeOffset = 0.25
    assert l.presentation("transform.rotation.y") == approx(-math.pi / 8)
    engine.tick(10.0)  # time passing changes nothing while paused
    assert l.presentation("transform.rotation.y") == approx(-math.pi / 8)
    l.timeOffset = 0.75
    assert l.presentation("transform.rotation.y") == approx(-3 * math.pi / 8)


def test_speed_2_time_offset_half_worked_example(engine, layer):
    engine.tick(10.0)
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, speed=2, time_offset=0.5)
    layer.add_animation(a, "o")
    # at tp = beginTime: progress 0.5; at +0.25 it wraps to 0; finishes at +0.5
    assert sample_at(engine, layer, "opacity", [10.0, 10.1, 10.25, 10.4]) == approx([0.5, 0.7, 0.0, 0.3])
    engine.tick(10.5)
    evs = list(engine.poll_events())
    assert [(e.kind, e.time, e.finished) for e in evs] == [(EventKind.START, 10.0, False), (EventKind.STOP, 10.5, True)]
    assert layer.presentation("opacity") == 1.0  # model


def test_pause_resume_idiom_continuity(engine):
    root = engine.create_layer()
    child = engine.create_layer()
    root.add_sublayer(child)
    engine.tick(0.0)
    root.add_animation(Animation.basic(engine, "position.x", from_=0, to=100, duration=4), "x")
    child.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=2), "o")
    engine.tick(1.0)
    assert root.presentation("position.x") == approx(25)
    assert child.presentation("opacity") == approx(0.5)
    # pause (§3.5)
    t = engine.convert_time(engine.now, None, root)
    root.speed = 0
    root.timeOffset = t
    assert root.presentation("position.x") == approx(25)
    assert child.presentation("opacity") == approx(0.5)
    engine.tick(7.0)
    assert root.presentation("position.x") == approx(25)
    assert child.presentation("opacity") == approx(0.5)
    # resume
    p = root.timeOffset
    root.speed = 1
    root.timeOffset = 0
    root.beginTime = 0
    root.beginTime = engine.convert_time(engine.now, None, root) - p
    assert root.presentation("position.x") == approx(25)
    assert child.presentation("opacity") == approx(0.5)
    engine.tick(7.5)
    assert root.presentation("position.x") == approx(37.5)
    assert child.presentation("opacity") == approx(0.75)


def test_layer_pause_resume_helpers(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=2), "o")
    engine.tick(0.5)
    layer.pause()
    engine.tick(3.0)
    assert layer.presentation("opacity") == approx(0.25)
    layer.resume()
    assert layer.presentation("opacity") == approx(0.25)
    engine.tick(3.5)
    assert layer.presentation("opacity") == approx(0.5)


@pytest.mark.parametrize("autoreverses,expected", [(False, 7.0), (True, 14.0)])
def test_active_duration_example(engine, layer, autoreverses, expected):
    # §3.2: duration 2, repeatCount 3.5 gives 7 s; with autoreverses 14 s
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=2, repeat_count=3.5, autoreverses=autoreverses)
    layer.add_animation(a, "o")
    engine.tick(expected - 0.01)
    assert "o" in layer.animation_keys()
    engine.tick(expected)
    stops = [e for e in engine.poll_events() if e.kind == EventKind.STOP]
    assert len(stops) == 1 and stops[0].time == approx(expected) and stops[0].finished


def test_repeat_duration_wins_over_repeat_count(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, repeat_count=5, repeat_duration=1.5)
    layer.add_animation(a, "o")
    engine.tick(1.25)
    assert layer.presentation("opacity") == approx(0.25)
    engine.tick(1.5)
    stops = [e for e in engine.poll_events() if e.kind == EventKind.STOP]
    assert stops and stops[0].time == approx(1.5)


def test_autoreverse_values(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, autoreverses=True, repeat_count=2)
    layer.add_animation(a, "o")
    assert sample_at(engine, layer, "opacity", [0.25, 1.0, 1.25, 2.0, 2.5, 3.75]) == approx(
        [0.25, 1.0, 0.75, 0.0, 0.5, 0.25])


@pytest.mark.parametrize("repeat,autorev,end", [(2, False, 1.0), (2, True, 0.0), (1.5, False, 0.5), (0, False, 1.0)])
def test_end_value_with_fill_forwards(engine, layer, repeat, autorev, end):
    # §3.3: at a >= D the animation samples t = D exactly
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, repeat_count=repeat, autoreverses=autorev,
                        fill_mode="forwards", removed_on_completion=False)
    layer.add_animation(a, "o")
    engine.tick(100.0)
    assert layer.presentation("opacity") == approx(end)
    assert layer.animation_keys() == ["o"]


def test_not_removed_without_forward_fill_has_no_effect(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=0.5, duration=1, removed_on_completion=False)
    layer.add_animation(a, "o")
    engine.tick(2.0)
    assert layer.animation_keys() == ["o"]
    assert layer.presentation("opacity") == 1.0


def test_begin_time_delay_and_backwards_fill(engine, layer):
    engine.tick(1.0)
    plain = Animation.basic(engine, "position.x", from_=10, to=20, duration=1, begin_time=engine.now + 2)
    layer.add_animation(plain, "a")
    engine.tick(2.0)
    assert layer.presentation("position.x") == 0  # before: no effect
    engine.tick(3.5)
    assert layer.presentation("position.x") == approx(15)
    other = engine.create_layer()
    engine.tick(4.0)
    back = Animation.basic(engine, "position.x", from_=10, to=20, duration=1, begin_time=6.0, fill_mode="backwards")
    other.add_animation(back, "b")
    engine.tick(5.0)
    assert other.presentation("position.x") == approx(10)  # filled backwards with its start value


def test_animation_with_zero_duration_uses_quarter_second(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", from_=0, to=1), "o")
    engine.tick(0.125)
    assert layer.presentation("opacity") == approx(0.5)
    engine.tick(0.25)
    assert layer.animation_keys() == []


def test_zero_speed_animation_stays_at_offset(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, speed=0, time_offset=0.3)
    layer.add_animation(a, "o")
    assert sample_at(engine, layer, "opacity", [0.0, 5.0, 50.0]) == approx([0.3, 0.3, 0.3])


# ---- timing functions (§4) --------------------------------------------------------

CURVES = {
    "linear": (0, 0, 1, 1),
    "easeIn": (0.42, 0, 1, 1),
    "easeOut": (0, 0, 0.58, 1),
    "easeInEaseOut": (0.42, 0, 0.58, 1),
    "default": (0.25, 0.1, 0.25, 1),
}


@pytest.mark.parametrize("name", sorted(CURVES))
@pytest.mark.parametrize("p", [0.1, 0.3, 0.5, 0.9])
def test_named_timing_functions(engine, layer, name, p):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, timing_function=name)
    layer.add_animation(a, "o")
    engine.tick(p)
    assert layer.presentation("opacity") == pytest.approx(bezier_solve(*CURVES[name], p), abs=1e-7)


def test_custom_bezier_with_overshoot(engine, layer):
    curve = (0.3, -0.5, 0.7, 1.5)
    a = Animation.basic(engine, "position.x", from_=0, to=100, duration=1, timing_function=curve)
    layer.add_animation(a, "x")
    for p in (0.2, 0.5, 0.8):
        engine.tick(p)
        assert layer.presentation("position.x") == pytest.approx(100 * bezier_solve(*curve, p), abs=1e-5)


def test_timing_function_enum_and_aliases(engine):
    a = Animation.basic(engine, "opacity", to=1)
    a.timing_function = cadence.TimingName.EASE_OUT
    a.timing_function = "ease_in_ease_out"
    a.timing_function = "easeInOut"
    a.timing_function = None
    assert a.timing_function is None
    with pytest.raises(ValueError):
        a.timing_function = "wobbly"


def test_bezier_control_x_out_of_range(engine):
    a = Animation.basic(engine, "opacity", to=1)
    with pytest.raises(cadence.InvalidArgumentError):
        a.timing_function = (1.5, 0, 0.5, 1)
    with pytest.raises(cadence.InvalidArgumentError):
        a.timing_function = (0.5, 0, -0.1, 1)


@pytest.mark.parametrize("at,p,expected", [("end", 0.3, 0.25), ("start", 0.3, 0.5), ("end", 0.8, 0.75),
                                           ("start", 0.8, 1.0)])
def test_steps_extension(engine, layer, at, p, expected):
    # CSS steps(4, end|start): floor(4p)/4 or ceil(4p)/4
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1, timing_function=("steps", 4, at))
    layer.add_animation(a, "o")
    engine.tick(p)
    assert layer.presentation("opacity") == approx(expected)


@pytest.mark.skipif("cad_timing_eval_batch" in cadence.lib.missing_functions,
                    reason="library predates cad_timing_eval_batch")
def test_evaluate_timing_batch():
    try:
        import numpy as np
    except ImportError:
        pytest.skip("numpy is not installed")

    xs = np.linspace(0, 1, 11)
    ys = cadence.evaluate_timing("easeIn", xs)
    assert ys.shape == xs.shape
    for x, y in zip(xs, ys):
        assert y == pytest.approx(bezier_solve(*CURVES["easeIn"], x), abs=1e-7)
    assert cadence.evaluate_timing("linear", 0.3) == approx(0.3)
    assert cadence.evaluate_timing((0.42, 0, 0.58, 1), [0.5]) == pytest.approx([0.5], abs=1e-7)


# ---- endpoints and composition (§5) ----------------------------------------------

@pytest.mark.parametrize("kw,start,end", [
    (dict(from_=10, to=20), 10, 20),
    (dict(from_=10, by=5), 10, 15),
    (dict(by=5, to=20), 15, 20),
    (dict(from_=10), 10, 40),   # from -> underlying (the model, 40)
    (dict(to=20), 40, 20),      # underlying -> to
    (dict(by=5), 40, 45),       # underlying -> underlying + by
])
def test_endpoint_table(engine, layer, kw, start, end):
    layer.actions_enabled = False
    layer["position.x"] = 40
    layer.add_animation(Animation.basic(engine, "position.x", duration=1, **kw), "x")
    engine.tick(0.5)
    assert layer.presentation("position.x") == approx(start + (end - start) * 0.5)


def test_none_set_goes_from_previous_presentation_to_model(engine, layer):
    layer.actions_enabled = False
    layer["position.x"] = 100
    layer.add_animation(Animation.basic(engine, "position.x", from_=0, to=50, duration=1), "m")
    engine.tick(0.5)
    assert layer.presentation("position.x") == approx(25)
    # neither from, to nor by, replacing "m": from the presentation captured when added (25)
    # to the underlying value (the model, 100, once "m" is gone)
    layer.add_animation(Animation.basic(engine, "position.x", duration=1), "m")
    assert layer.presentation("position.x") == approx(25)
    engine.tick(1.0)
    assert layer.presentation("position.x") == approx(25 + (100 - 25) * 0.5)


def test_additive_adds_to_underlying(engine, layer):
    layer.actions_enabled = False
    layer["position.x"] = 10
    layer.add_animation(Animation.basic(engine, "position.x", from_=0, to=4, duration=1, additive=True), "x")
    engine.tick(0.5)
    assert layer.presentation("position.x") == approx(12)


def test_later_animation_replaces_earlier_unless_additive(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=1), "a")
    layer.add_animation(Animation.basic(engine, "opacity", from_=0.5, to=0.5, duration=1), "b")
    engine.tick(0.5)
    assert layer.presentation("opacity") == approx(0.5)
    layer.add_animation(Animation.basic(engine, "opacity", from_=0.1, to=0.1, duration=1, additive=True), "c")
    assert layer.presentation("opacity") == approx(0.6)


def test_cumulative_repeats_add_up(engine, layer):
    a = Animation.basic(engine, "position.x", from_=0, to=10, duration=1, repeat_count=3, cumulative=True,
                        fill_mode="forwards", removed_on_completion=False)
    layer.add_animation(a, "x")
    assert sample_at(engine, layer, "position.x", [0.5, 1.5, 2.5, 5.0]) == approx([5, 15, 25, 30])


def test_transform_animations_on_virtual_keys_compose(engine, layer):
    layer.add_animation(Animation.basic(engine, "transform.rotation.z", from_=0, to=1.0, duration=1), "r")
    layer.add_animation(Animation.basic(engine, "transform.scale", from_=1, to=3, duration=1), "s")
    engine.tick(0.5)
    m = layer.presentation("transform")
    expected = cadence.Transform3D.scale(2, 2, 2).concat(cadence.Transform3D.rotation(0.5))
    assert m == pytest.approx(tuple(expected), abs=1e-9)


def test_virtual_rotation_is_not_wrapped(engine, layer):
    layer.add_animation(Animation.basic(engine, "transform.rotation.z", from_=0, to=2 * math.pi, duration=1), "r")
    engine.tick(0.5)
    assert layer.presentation("transform.rotation.z") == approx(math.pi)
    m = layer.presentation("transform")
    assert m[0] == approx(-1.0)


def test_whole_matrix_interpolation_translation(engine, layer):
    to = cadence.Transform3D.translation(10, 20, 30)
    layer.add_animation(Animation.basic(engine, "transform", from_=cadence.IDENTITY, to=to, duration=1), "t")
    engine.tick(0.25)
    assert layer.presentation("transform") == pytest.approx(tuple(cadence.Transform3D.translation(2.5, 5, 7.5)),
                                                          abs=1e-9)


def test_hidden_animates_discretely(engine, layer):
    # §5.1: 0 -> 1 switches at e >= 1; 1 -> 0 as soon as e > 0
    layer.add_animation(Animation.basic(engine, "hidden", from_=0, to=1, duration=1), "h")
    engine.tick(0.99)
    assert layer.presentation_layer.hidden is False
    other = engine.create_layer()
    engine.tick(1.0)
    other.add_animation(Animation.basic(engine, "hidden", from_=1, to=0, duration=1), "h")
    engine.tick(1.01)
    assert other.presentation_layer.hidden is False
    another = engine.create_layer()
    engine.tick(2.0)
    another.add_animation(Animation.basic(engine, "hidden", from_=0, to=1, duration=1, fill_mode="forwards",
                                          removed_on_completion=False), "h")
    engine.tick(3.0)
    assert another.presentation_layer.hidden is True


def test_animation_copy_on_add(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1)
    layer.add_animation(a, "a")
    a.to_value = 0.0  # changing the description does not touch the attached copy
    a.close()         # nor does destroying it
    engine.tick(0.5)
    assert layer.presentation("opacity") == approx(0.5)


def test_animation_properties_read_back(engine):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=2, repeat_count=True, fill_mode="both",
                        tag=42, autoreverses=True, removed_on_completion=False, timing_function="easeIn")
    assert a.duration == 2 and a.repeat_count == math.inf and a.fill_mode is cadence.FillMode.BOTH
    assert a.tag == 42 and a.autoreverses is True and a.removed_on_completion is False
    assert a.timing_function == "easeIn" and a.from_value == 0 and a.to_value == 1
    assert a.fillMode is cadence.FillMode.BOTH and a.repeatCount == math.inf  # camelCase aliases
    assert a.kind is cadence.AnimKind.BASIC and a.keypath == "opacity"
    b = Animation.basic(engine, "opacity")
    assert (b.begin_time, b.speed, b.time_offset, b.repeat_duration, b.additive, b.cumulative) == (0, 1, 0, 0, False, False)
    with pytest.raises(TypeError):
        Animation.basic(engine, "opacity", no_such_option=1)


def test_animation_validation(engine):
    with pytest.raises(cadence.UnknownKeyPathError):
        Animation.basic(engine, "nope")
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.basic(engine, "frame")  # not animatable
    a = Animation.basic(engine, "position")
    with pytest.raises(cadence.TypeMismatchError):
        a.to_value = 1
    with pytest.raises(cadence.InvalidArgumentError):
        a.duration = -1
    with pytest.raises(cadence.InvalidArgumentError):
        a.speed = math.nan
    a.repeat_count = math.inf
    a.repeat_duration = math.inf


def test_read_only_view(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=5), "fade")
    view = layer.animation_for_key("fade")
    assert view.readonly and view.duration is None
    other = engine.create_layer()
    other.add_animation(view, "copy")  # a view may be added elsewhere (copied)
    engine.tick(2.5)
    assert other.presentation("opacity") == approx(0.5)
    view.close()
    assert layer.animation_keys() == ["fade"]  # closing a view does not remove anything


def test_keys_generated_and_listed(engine, layer):
    a = Animation.basic(engine, "opacity", to=0.5, duration=10)
    layer.add_animation(a)
    layer.add_animation(a, "")
    layer.add_animation(a, "named")
    keys = layer.animation_keys()
    assert len(keys) == 3 and len(set(keys)) == 3 and keys[2] == "named"
    assert layer.animation_count == 3
    long_key = "k" * 200
    layer.add_animation(a, long_key)
    assert layer.animation_keys()[-1] == long_key
    layer.remove_animation("named")
    assert "named" not in layer.animation_keys()
    layer.remove_all_animations()
    assert layer.animation_keys() == [] and layer.presentation("opacity") == 1.0
