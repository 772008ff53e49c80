"""Transactions, implicit actions and UIKit-style blocks (SEMANTICS.md §10)."""
from __future__ import annotations

import math

import pytest

import cadence
from cadence import Animation, EventKind
from conftest import approx, bezier_solve

DEFAULT = (0.25, 0.1, 0.25, 1)
EASE_IN_OUT = (0.42, 0, 0.58, 1)


def test_implicit_animation_defaults(engine, layer):
    layer.position = (100, 0)
    assert layer.position == (100, 0)  # model at once
    assert layer.animation_keys() == ["position"]  # the action, under the key path
    assert layer.presentation_layer.position == (0, 0)
    engine.tick(0.1)
    assert layer.presentation("position.x") == pytest.approx(100 * bezier_solve(*DEFAULT, 0.4), abs=1e-6)
    engine.tick(0.25)
    assert layer.presentation_layer.position == (100, 0) and layer.animation_keys() == []


def test_new_layer_takes_first_values_without_animation(engine):
    engine.tick(1.0)
    l = engine.create_layer()
    l.position = (5, 5)
    l.opacity = 0.5
    assert l.animation_keys() == []
    engine.tick(1.1)
    l.opacity = 0.25
    assert l.animation_keys() == ["opacity"]


def test_timing_fields_never_animate(engine, layer):
    layer.speed = 2
    layer.beginTime = 1
    layer.fill_mode = "both"
    assert layer.animation_keys() == []


def test_disable_actions_and_layer_actions_enabled(engine, layer):
    with engine.transaction(disable_actions=True):
        layer.opacity = 0.5
    assert layer.animation_keys() == [] and layer.presentation("opacity") == 0.5
    layer.actions_enabled = False
    layer.opacity = 0.25
    assert layer.animation_keys() == []
    layer.actions_enabled = True
    layer.opacity = 0.75
    assert layer.animation_keys() == ["opacity"]
    with pytest.raises(AttributeError):
        layer.actions_enabled


def test_transaction_duration_and_timing(engine, layer):
    with engine.transaction(duration=2, timing_function="linear") as tx:
        assert tx.id != 0 and engine.transaction_id == tx.id
        layer.opacity = 0
    assert engine.transaction_id == 0
    engine.tick(0.5)
    assert layer.presentation("opacity") == approx(0.75)
    with engine.transaction(duration=1, timing_function=(0.42, 0, 1, 1)):
        layer["position.x"] = 10
    engine.tick(1.0)
    assert layer.presentation("position.x") == pytest.approx(10 * bezier_solve(0.42, 0, 1, 1, 0.5), abs=1e-6)


def test_changes_commit_together_at_outermost_commit(engine, layer):
    with engine.transaction(duration=1, timing_function="linear"):
        layer.opacity = 0
        with engine.transaction(duration=3):  # inner settings apply to changes inside it
            layer["position.x"] = 30
        engine.tick(1.0)  # time passes before the outermost commit
        assert layer.presentation("opacity") == 1.0
    # both begin at the commit's time (1.0), not at the time of the change
    engine.tick(1.5)
    assert layer.presentation("opacity") == approx(0.5)
    assert layer.presentation("position.x") == approx(5)
    starts = [e for e in engine.poll_events() if e.kind == EventKind.START]
    assert sorted(e.key for e in starts) == ["opacity", "position.x"]
    assert all(e.time == 1.0 for e in starts)


def test_retarget_from_presentation(engine, layer):
    with engine.transaction(duration=1, timing_function="linear"):
        layer["position.x"] = 100
    engine.tick(0.5)
    assert layer.presentation("position.x") == approx(50)
    with engine.transaction(duration=1, timing_function="linear"):
        layer["position.x"] = 0
    assert layer.presentation("position.x") == approx(50)  # no jump
    engine.tick(1.0)
    assert layer.presentation("position.x") == approx(25)


def test_set_action_custom_none_and_clear(engine, layer):
    custom = Animation.basic(engine, "opacity", duration=2, timing_function="linear")
    layer.set_action("opacity", custom)
    layer.opacity = 0
    engine.tick(1.0)
    assert layer.presentation("opacity") == approx(0.5)  # its own duration (2 s) and curve
    engine.tick(2.0)
    assert layer.animation_keys() == []
    layer.set_action("opacity", None)  # "no action"
    layer.opacity = 1
    assert layer.presentation("opacity") == 1 and layer.animation_keys() == []
    layer.clear_action("opacity")
    layer.opacity = 0.5
    assert layer.animation_keys() == ["opacity"]


def test_completion_after_animations_stop(engine, layer):
    done = []
    with engine.transaction(duration=1, completion=lambda: done.append(engine.now)):
        layer.opacity = 0
    assert done == []
    engine.tick(0.5)
    assert done == []
    engine.tick(1.0)
    assert done == [1.0]
    evs = [e for e in engine.poll_events() if e.kind == EventKind.TRANSACTION_COMPLETE]
    assert len(evs) == 1 and evs[0].layer is None and evs[0].tag != 0


def test_completion_without_animations_runs_at_commit(engine):
    done = []
    with engine.transaction(completion=lambda: done.append("now")) as tx:
        pass
    assert done == ["now"]
    evs = list(engine.poll_events())
    assert [(e.kind, e.tag) for e in evs] == [(EventKind.TRANSACTION_COMPLETE, tx.id)]


def test_completion_exception_reraised_from_commit(engine):
    def bad():
        raise KeyError("from completion")

    with pytest.raises(KeyError, match="from completion"):
        with engine.transaction(completion=bad):
            pass
    assert engine.transaction_id == 0
    engine.tick(1.0)  # the engine is fine afterwards


def test_body_exception_still_commits(engine, layer):
    with pytest.raises(RuntimeError):
        with engine.transaction(duration=1):
            layer.opacity = 0.5
            raise RuntimeError("body")
    assert engine.transaction_id == 0
    assert layer.opacity == 0.5 and layer.animation_keys() == ["opacity"]


def test_explicit_begin_commit(engine, layer):
    engine.begin_transaction()
    layer.opacity = 0.3
    engine.commit_transaction()
    with pytest.raises(cadence.InvalidStateError):
        engine.commit_transaction()


def test_animate_example_from_the_issue(engine):
    layer = engine.create_layer(position=(0, 0))
    engine.tick(10.0)
    with engine.animate(duration=1, delay=2, curve="easeInOut", autoreverse=True, repeat=3):
        layer.position = (80, 100)
    assert layer.position == (80, 100)

    def expected(t):  # t: seconds after the delay
        cycle = t % 2.0
        u = cycle if cycle <= 1 else 2 - cycle
        e = bezier_solve(*EASE_IN_OUT, u)
        return (80 * e, 100 * e)

    for t in (0.25, 0.5, 1.25, 2.75, 5.5):
        engine.tick(12.0 + t)
        assert layer.presentation_layer.position == pytest.approx(expected(t), abs=1e-6)
    engine.tick(12.0 + 6.0)  # 3 cycles of 2 s: ends at the start value, then removed
    assert layer.animation_keys() == []
    assert layer.presentation_layer.position == (80, 100)


def test_animate_delay_holds_the_old_value(engine, layer):
    # UIKit: during the delay the layer stays where it was (no jump to the new value)
    with engine.animate(duration=1, delay=2, curve="linear"):
        layer.position = (80, 100)
    for t in (0.0, 1.0, 1.99, 2.0):
        engine.tick(t)
        assert layer.presentation_layer.position == (0, 0), t
    engine.tick(2.5)
    assert layer.presentation_layer.position == approx((40, 50))


def test_animate_curves_and_completion(engine, layer):
    done = []
    with engine.animate(duration=2, curve="linear", completion=lambda: done.append(True)):
        layer.opacity = 0
    engine.tick(1.0)
    assert layer.presentation("opacity") == approx(0.5)
    engine.tick(2.0)
    assert done == [True]
    with pytest.raises(ValueError):
        engine.animate(curve="bouncy").__enter__()
    assert engine.transaction_id == 0  # the failed setup did not leave a transaction open


def test_animate_repeat_forever(engine, layer):
    with engine.animate(duration=1, curve="linear", repeat=True):
        layer.opacity = 0
    engine.tick(1000.25)
    assert layer.presentation("opacity") == approx(0.75)


def test_animate_spring_settles_at_duration(engine, layer):
    with engine.animate(duration=0.8, spring_damping=0.5, initial_velocity=0):
        layer["position.x"] = 100
    engine.tick(0.2)
    assert layer.presentation("position.x") != 0
    engine.tick(0.8)
    assert layer.animation_keys() == []
    stops = [e for e in engine.poll_events() if e.kind == EventKind.STOP]
    assert stops and stops[0].time == approx(0.8) and stops[0].finished


def test_keyframe_blocks(engine, layer):
    with engine.animate(duration=2, curve="linear"):
        with engine.keyframe(0, 0.5):
            layer["position.x"] = 100
        with engine.keyframe(0.5, 0.5):
            layer["position.x"] = 200
    for t, x in ((0.5, 50), (1.0, 100), (1.5, 150)):
        engine.tick(t)
        assert layer.presentation("position.x") == pytest.approx(x, abs=1e-6), t
    engine.tick(2.0)
    assert layer.presentation("position.x") == 200


def test_keyframe_windows_hold_between(engine, layer):
    with engine.animate(duration=4, curve="linear") as tx:
        with tx.keyframe(0, 0.25):
            layer.opacity = 0
        with tx.keyframe(0.75, 0.25):
            layer.opacity = 1
    engine.tick(2.0)
    assert layer.presentation("opacity") == approx(0)  # holds between the windows
    engine.tick(3.5)
    assert layer.presentation("opacity") == approx(0.5)


def test_keyframe_outside_a_transaction_fails(engine):
    with pytest.raises(cadence.InvalidStateError):
        with engine.keyframe(0, 1):
            pass


def test_transaction_object_stops_working_when_its_block_ends(engine, layer):
    # The audit's case: `inner` used after its block set the enclosing block's duration.
    with engine.transaction(duration=3.0, timing_function="linear") as outer:
        with engine.transaction() as inner:
            pass
        with pytest.raises(cadence.InvalidStateError):
            inner.set_duration(0.5)
        layer.opacity = 0.0
    engine.tick(0.75)
    # outer's 3 s linear fade, untouched: 1 - 0.75 / 3
    assert layer.presentation("opacity") == approx(0.75)
    for tx in (inner, outer):
        with pytest.raises(cadence.InvalidStateError):
            tx.set_duration(1.0)
        with pytest.raises(cadence.InvalidStateError):
            tx.set_timing_function("easeIn")
        with pytest.raises(cadence.InvalidStateError):
            tx.set_disable_actions(True)
        with pytest.raises(cadence.InvalidStateError):
            tx.set_completion(lambda: None)
        with pytest.raises(cadence.InvalidStateError):
            with tx.keyframe(0, 1):
                pass
    assert engine.transaction_id == 0
    # also after a block that ended with an exception, and for animate() blocks
    with pytest.raises(LookupError):
        with engine.animate(duration=1.0) as failed:
            raise LookupError
    with engine.transaction():
        with pytest.raises(cadence.InvalidStateError):
            failed.set_duration(2.0)


def test_transaction_object_configures_only_its_own_transaction(engine, layer):
    # While a nested block is open, the outer object would configure the nested one.
    with engine.transaction(duration=2.0, timing_function="linear") as outer:
        with engine.transaction(timing_function="linear") as inner:
            with pytest.raises(cadence.InvalidStateError):
                outer.set_duration(0.5)
            inner.set_duration(1.0)
            layer["position.x"] = 10.0
        outer.set_duration(4.0)  # its own again
        layer.opacity = 0.0
    engine.tick(0.5)
    assert layer.presentation("position.x") == approx(5.0)  # inner: 1 s
    assert layer.presentation("opacity") == approx(0.875)   # outer: 4 s


# A block whose settings the library refuses must open nothing (SEMANTICS.md §12): no
# transaction begun and committed, so no TRANSACTION_COMPLETE event and no id used.
REFUSED_BLOCKS = {
    "transaction(duration=-1)": lambda e: e.transaction(duration=-1.0),
    "transaction(duration=nan)": lambda e: e.transaction(duration=math.nan),
    "transaction(duration=inf)": lambda e: e.transaction(duration=math.inf),
    "transaction(Bézier c1x > 1)": lambda e: e.transaction(timing_function=(1.5, 0, 1, 1)),
    "transaction(Bézier c2x < 0)": lambda e: e.transaction(timing_function=(0.5, 0, -0.1, 1)),
    "transaction(Bézier c1y nan)": lambda e: e.transaction(timing_function=(0.5, math.nan, 0.5, 1)),
    "transaction(timing name 9)": lambda e: e.transaction(timing_function=9),
    "transaction(steps)": lambda e: e.transaction(timing_function=("steps", 3)),
    "animate(duration=-1)": lambda e: e.animate(duration=-1.0),
    "animate(delay=-1)": lambda e: e.animate(delay=-1.0),
    "animate(delay=inf)": lambda e: e.animate(delay=math.inf),
    "animate(delay=nan)": lambda e: e.animate(delay=math.nan),
    "animate(repeat=-1)": lambda e: e.animate(repeat=-1),
    "animate(repeat=nan)": lambda e: e.animate(repeat=math.nan),
    "animate(spring_damping=2)": lambda e: e.animate(duration=0.5, spring_damping=2.0),
    "animate(spring_damping=0)": lambda e: e.animate(duration=0.5, spring_damping=0.0),
    "animate(spring_damping=nan)": lambda e: e.animate(duration=0.5, spring_damping=math.nan),
    "animate(initial_velocity=inf)": lambda e: e.animate(spring_damping=0.5, initial_velocity=math.inf),
    "animate(curve Bézier c2x = 2)": lambda e: e.animate(curve=(0, 0, 2, 1)),
    "animate(curve name 7)": lambda e: e.animate(curve=7),
    "animate(curve steps)": lambda e: e.animate(curve=("steps", 2, "start")),
}


@pytest.mark.parametrize("name", list(REFUSED_BLOCKS))
def test_a_refused_block_opens_no_transaction(engine, layer, name):
    with pytest.raises((ValueError, cadence.InvalidArgumentError)):
        with REFUSED_BLOCKS[name](engine):
            layer.opacity = 0.0
    assert engine.transaction_id == 0
    assert layer.opacity == 1.0 and layer.animation_keys() == []  # the body never ran
    engine.tick(1.0)
    assert list(engine.poll_events()) == []  # no TRANSACTION_COMPLETE of a committed block
    with engine.transaction() as tx:
        pass
    assert tx.id == 1  # the first transaction of the engine: no id was used up
    assert [(e.kind, e.tag) for e in engine.poll_events()] == [(EventKind.TRANSACTION_COMPLETE, 1)]


def test_block_settings_at_the_edges_of_their_ranges_are_accepted(engine, layer):
    # The checks made before the block opens must not refuse what the library accepts.
    with engine.animate(duration=0.0, delay=0.0, repeat=math.inf, curve=(0, -5, 1, 5)):
        pass
    with engine.animate(duration=1.0, spring_damping=1.0, initial_velocity=-3.0, curve=None):
        pass
    with engine.transaction(duration=0.0, timing_function=(1, 0, 0, 1)):
        pass
    with engine.animate(duration=1.0, curve="linear", repeat=0.5):
        layer.opacity = 0.0
    engine.tick(0.25)
    assert layer.presentation("opacity") == approx(0.75)  # linear, 1 s
    engine.tick(0.75)
    assert layer.animation_keys() == []  # half a cycle: ends at 0.5 s


@pytest.mark.parametrize("open_block", [
    lambda e: e.transaction(timing_function=("steps", 2, "end")),
    lambda e: e.animate(curve=("steps", 4, "start")),
    lambda e: e.animate(curve=("steps", 3)),
    lambda e: e.transaction(timing_function=["STEPS", 1, "end"]),
], ids=["transaction", "animate", "animate-2-tuple", "list"])
def test_steps_for_a_block_say_blocks_take_a_name_or_bezier_values(engine, open_block):
    # The C API has no steps setter for transactions: the message must not recommend
    # the ('steps', n, ...) form that was just given.
    with pytest.raises(ValueError) as info:
        open_block(engine)
    message = str(info.value)
    assert "name or 4 Bézier values" in message and "not steps" in message
    assert "('steps', n" not in message
    assert engine.transaction_id == 0
    with engine.transaction() as tx:
        with pytest.raises(ValueError, match="not steps"):
            tx.set_timing_function(("steps", 2))


def test_an_unknown_tagged_timing_function_message_lists_what_each_place_takes(engine):
    with pytest.raises(ValueError) as block:
        engine.animate(curve=("bogus", 4))
    assert "('steps', n" not in str(block.value) and "4 Bézier values" in str(block.value)
    with pytest.raises(ValueError) as anim:
        Animation.basic(engine, "opacity", timing_function=("bogus", 4))
    assert "('steps', n, 'start'|'end')" in str(anim.value)
