"""More of SEMANTICS.md through the package: layer time spaces, key order, matrices,
transition pictures, transaction completion and event details."""
from __future__ import annotations

import ctypes
import math

import pytest

import cadence
from cadence import Animation, EventKind, ItemFlag, Transform3D
from conftest import approx


def g(item, name):
    return getattr(item, name) if isinstance(item, ctypes.Structure) else item[name]


def test_sublayer_animations_run_in_the_layers_time(engine):
    root = engine.create_layer(speed=2)
    child = engine.create_layer()
    root.add_sublayer(child)
    engine.tick(0)
    child.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=1), "o")
    engine.tick(0.25)  # root's local time advanced 0.5
    assert child.presentation("opacity") == approx(0.5)


def test_begin_time_in_layer_local_time(engine):
    root = engine.create_layer(time_offset=10)  # local time = global + 10
    engine.tick(1.0)
    root.add_animation(Animation.basic(engine, "opacity", from_=0, to=1, duration=1, begin_time=12.0), "o")
    engine.tick(2.5)  # local 12.5
    assert root.presentation("opacity") == approx(0.5)


def test_transitions_always_use_the_transition_key(engine):
    l = engine.create_layer(contents=1)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, "fade"), "mykey")
    assert l.animation_keys() == ["transition"]


def test_replacing_a_key_moves_it_to_the_end(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0.2, to=0.2, duration=10)
    b = Animation.basic(engine, "opacity", from_=0.7, to=0.7, duration=10)
    layer.add_animation(a, "a")
    layer.add_animation(b, "b")
    assert layer.presentation("opacity") == approx(0.7)
    layer.add_animation(a, "a")
    assert layer.animation_keys() == ["b", "a"]
    assert layer.presentation("opacity") == approx(0.2)


def test_whole_matrix_rotation_slerps(engine, layer):
    to = Transform3D.rotation(math.pi / 2)
    layer.add_animation(Animation.basic(engine, "transform", from_=cadence.IDENTITY, to=to, duration=1), "t")
    engine.tick(0.5)
    assert layer.presentation("transform") == approx(Transform3D.rotation(math.pi / 4), abs=1e-9)


def test_whole_matrix_full_turn_does_not_move(engine, layer):
    to = Transform3D.rotation(2 * math.pi)
    layer.add_animation(Animation.basic(engine, "transform", from_=cadence.IDENTITY, to=to, duration=1), "t")
    engine.tick(0.5)
    assert layer.presentation("transform") == approx(cadence.IDENTITY, abs=1e-9)


def test_singular_matrix_switches_at_half(engine, layer):
    singular = Transform3D.scale(0, 1, 1)
    layer.add_animation(Animation.basic(engine, "transform", from_=cadence.IDENTITY, to=singular, duration=1), "t")
    engine.tick(0.49)
    assert layer.presentation("transform") == approx(cadence.IDENTITY)
    engine.tick(0.5)
    assert layer.presentation("transform") == approx(singular)


def test_additive_transform_concatenates(engine, layer):
    layer.actions_enabled = False
    layer.transform = Transform3D.scale(2, 2, 1)
    add = Transform3D.translation(10, 0, 0)
    layer.add_animation(Animation.basic(engine, "transform", from_=add, to=add, duration=1, additive=True), "t")
    engine.tick(0.5)
    # underlying * value (row vectors): scale first, then translate
    assert layer.presentation("transform") == approx(Transform3D.scale(2, 2, 1).concat(add))


def test_by_value_on_transform_concatenates(engine, layer):
    layer.actions_enabled = False
    layer.transform = Transform3D.translation(4, 0, 0)
    by = Transform3D.translation(0, 8, 0)
    layer.add_animation(Animation.basic(engine, "transform", by=by, duration=1, fill_mode="forwards",
                                        removed_on_completion=False), "t")
    engine.tick(1.0)
    assert layer.presentation("transform") == approx(Transform3D.translation(4, 0, 0).concat(by))


def test_stop_event_when_not_removed(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=1, removed_on_completion=False), "k")
    engine.tick(2.0)
    evs = list(engine.poll_events())
    assert [(e.kind, e.finished) for e in evs] == [(EventKind.START, False), (EventKind.STOP, True)]
    assert evs[1].time == 1.0 and layer.animation_keys() == ["k"]
    engine.tick(3.0)
    assert list(engine.poll_events()) == []  # reported once


def test_start_event_at_once_when_filled_backwards(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=1, begin_time=5, fill_mode="backwards"), "k")
    engine.tick(1.0)
    evs = list(engine.poll_events())
    assert [e.kind for e in evs] == [EventKind.START]


def test_completion_waits_for_explicit_animations(engine, layer):
    done = []
    with engine.transaction(completion=lambda: done.append(engine.now)):
        layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=2), "long")
    engine.tick(1.0)
    assert done == []
    engine.tick(2.0)
    assert done == [2.0]


def test_completion_of_nested_transactions(engine, layer):
    done = []
    with engine.transaction(duration=1, completion=lambda: done.append("outer")):
        with engine.transaction(duration=3, completion=lambda: done.append("inner")):
            layer.opacity = 0.5
        layer["position.x"] = 5
    engine.tick(1.0)
    # docs/decisions.md: an enclosing transaction waits for the animations of
    # the transactions nested in it, so neither is done while the 3 s one runs.
    assert done == []
    engine.tick(3.0)
    assert sorted(done) == ["inner", "outer"]


def test_hidden_change_keeps_layer_visible_during_implicit_animation(engine, layer):
    layer.hidden = True
    assert layer.hidden is True
    engine.tick(0.1)
    assert layer.presentation_layer.hidden is False  # 0 -> 1 switches at the end
    engine.tick(0.25)
    assert layer.presentation_layer.hidden is True


def test_transition_outgoing_picture_includes_sublayers(engine):
    l = engine.create_layer(bounds=(0, 0, 10, 10))
    kid = engine.create_layer(bounds=(0, 0, 2, 2))
    l.add_sublayer(kid)
    engine.tick(0)
    l.add_animation(Animation.transition(engine, "fade", duration=1))
    kid.remove_from_superlayer()  # the change: the incoming picture has no sublayer
    engine.tick(0.5)
    items = engine.render_list(l)
    outgoing = [i for i in items if g(i, "flags") & ItemFlag.TRANSITION_OUTGOING]
    incoming = [i for i in items if g(i, "flags") & ItemFlag.TRANSITION_INCOMING]
    assert kid.handle in [g(i, "layer") for i in outgoing]
    assert kid.handle not in [g(i, "layer") for i in incoming]


def test_group_fill_mode_keeps_children(engine, layer):
    kid = Animation.basic(engine, "opacity", from_=0, to=0.5, duration=1, fill_mode="forwards")
    grp = Animation.group(engine, [kid], duration=1, fill_mode="forwards", removed_on_completion=False)
    layer.add_animation(grp, "g")
    engine.tick(5.0)
    assert layer.presentation("opacity") == approx(0.5)


def test_children_are_clipped_to_the_group(engine, layer):
    kid = Animation.basic(engine, "opacity", from_=0, to=0.5, duration=1, fill_mode="forwards")
    grp = Animation.group(engine, [kid], duration=2, removed_on_completion=False)  # group fill: removed
    layer.add_animation(grp, "g")
    engine.tick(1.5)
    assert layer.presentation("opacity") == approx(0.5)  # the child's own forward fill, inside the group
    engine.tick(2.5)
    assert layer.presentation("opacity") == 1.0  # after the group: nothing kept


def test_group_repeat_and_autoreverse(engine, layer):
    kid = Animation.basic(engine, "position.x", from_=0, to=10)
    grp = Animation.group(engine, [kid], duration=1, repeat_count=2, autoreverses=True)
    layer.add_animation(grp, "g")
    for t, x in ((0.25, 2.5), (1.25, 7.5), (2.5, 5.0)):
        engine.tick(t)
        assert layer.presentation("position.x") == approx(x), t


@pytest.mark.parametrize("key_times,expected", [
    ([0, 0.25, 1], [(0.1, 0), (0.5, 10), (0.99, 10)]),              # n key times: the last is the end
    ([0, 0.25, 0.5, 1], [(0.1, 0), (0.3, 10), (0.75, 20), (0.99, 20)]),  # n + 1 (Core Animation's form)
])
def test_keyframe_discrete_key_times(engine, layer, key_times, expected):
    a = Animation.keyframe(engine, "position.x", values=[0, 10, 20], key_times=key_times,
                           calculation_mode="discrete", duration=1)
    layer.add_animation(a, "k")
    for t, x in expected:
        engine.tick(t)
        assert layer.presentation("position.x") == x, t


def test_keyframe_cubic_paced_moves_at_constant_speed(engine, layer):
    # collinear values: the spline stays on the line, and paced timing makes it linear in time
    a = Animation.keyframe(engine, "position", values=[(0, 0), (10, 0), (40, 0)], calculation_mode="cubicPaced",
                           duration=1)
    layer.add_animation(a, "k")
    engine.tick(0.5)
    x, y = layer.presentation("position")
    # Both spline segments are monotonic (x = 5u + 5u^3 and 10 + 20u + 35u^2 - 25u^3),
    # so arc-length pacing puts the half-time point at exactly half the length, 20
    # (pacing by the chords instead would give 19.63).
    assert y == approx(0) and x == pytest.approx(20, abs=1e-6)
