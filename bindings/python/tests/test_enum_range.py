"""Enum arguments given as integers outside int32 (a C enum) are out-of-range numbers:
cadence.InvalidArgumentError, as for every other number out of range, at every
enum-taking entry point (README: "a number out of range ... a
cadence.InvalidArgumentError"). Integers inside int32 that are no member are the
library's (or the binding's member check's) InvalidArgumentError too."""
from __future__ import annotations

import pytest

import cadence
from cadence import Animation


def _enum_calls(engine, layer):
    """name -> a call passing ``v`` where an enum is taken."""
    basic = Animation.basic(engine, "opacity")
    kf = Animation.keyframe(engine, "position", values=[(0, 0), (1, 1)])
    tr = Animation.transition(engine)

    def in_block(**kw):
        with engine.animate(**kw):
            pass

    def in_transaction(**kw):
        with engine.transaction(**kw):
            pass

    def tx_set(v):
        with engine.transaction() as tx:
            tx.set_timing_function(v)

    return {
        "layer.fill_mode =": lambda v: setattr(layer, "fill_mode", v),
        "layer.fillMode =": lambda v: setattr(layer, "fillMode", v),
        "layer.configure(fill_mode)": lambda v: layer.configure(fill_mode=v),
        "create_layer(fill_mode)": lambda v: engine.create_layer(fill_mode=v),
        "Animation(kind)": lambda v: Animation(engine, v, "opacity"),
        "anim.fill_mode =": lambda v: setattr(basic, "fill_mode", v),
        "Animation.basic(fill_mode)": lambda v: Animation.basic(engine, "opacity", fill_mode=v),
        "anim.configure(fillMode)": lambda v: basic.configure(fillMode=v),
        "anim.timing_function =": lambda v: setattr(basic, "timing_function", v),
        "anim.calculation_mode =": lambda v: setattr(kf, "calculation_mode", v),
        "Animation.keyframe(calculation_mode)": lambda v: Animation.keyframe(engine, "opacity", values=[0, 1],
                                                                           calculation_mode=v),
        "anim.rotation_mode =": lambda v: setattr(kf, "rotation_mode", v),
        "anim.timing_functions =": lambda v: setattr(kf, "timing_functions", [v]),
        "set_transition(type)": lambda v: tr.set_transition(v, "fromLeft"),
        "set_transition(subtype)": lambda v: tr.set_transition("fade", v),
        "transition_type =": lambda v: setattr(tr, "transition_type", v),
        "transition_subtype =": lambda v: setattr(tr, "transition_subtype", v),
        "Animation.transition(type)": lambda v: Animation.transition(engine, v),
        "Animation.transition(subtype)": lambda v: Animation.transition(engine, "push", v),
        "animate(curve)": lambda v: in_block(curve=v),
        "transaction(timing_function)": lambda v: in_transaction(timing_function=v),
        "tx.set_timing_function": tx_set,
        "evaluate_timing": lambda v: cadence.evaluate_timing(v, 0.5),
        "timing_bezier": lambda v: cadence.timing_bezier(v),
    }


NAMES = [
    "layer.fill_mode =", "layer.fillMode =", "layer.configure(fill_mode)", "create_layer(fill_mode)",
    "Animation(kind)", "anim.fill_mode =", "Animation.basic(fill_mode)", "anim.configure(fillMode)",
    "anim.timing_function =", "anim.calculation_mode =", "Animation.keyframe(calculation_mode)",
    "anim.rotation_mode =", "anim.timing_functions =", "set_transition(type)", "set_transition(subtype)",
    "transition_type =", "transition_subtype =", "Animation.transition(type)", "Animation.transition(subtype)",
    "animate(curve)", "transaction(timing_function)", "tx.set_timing_function", "evaluate_timing",
    "timing_bezier",
]


def test_every_enum_entry_point_is_listed(engine, layer):
    assert sorted(_enum_calls(engine, layer)) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", [2 ** 31, 2 ** 40, -2 ** 31 - 1, -2 ** 63, 10 ** 30])
def test_enum_integers_outside_int32_are_invalid_argument_errors(engine, layer, name, value):
    call = _enum_calls(engine, layer)[name]
    with pytest.raises(cadence.InvalidArgumentError):
        call(value)
    assert engine.transaction_id == 0  # a refused block opened nothing


@pytest.mark.parametrize("name", NAMES)
def test_enum_integers_that_are_no_member_are_invalid_argument_errors(engine, layer, name):
    call = _enum_calls(engine, layer)[name]
    with pytest.raises(cadence.InvalidArgumentError):
        call(99)
    with pytest.raises(cadence.InvalidArgumentError):
        call(2 ** 31 - 1)


def test_numpy_integers_outside_int32_are_invalid_argument_errors(engine, layer):
    np = pytest.importorskip("numpy")
    with pytest.raises(cadence.InvalidArgumentError):
        layer.fill_mode = np.int64(2 ** 40)
    with pytest.raises(cadence.InvalidArgumentError):
        Animation(engine, np.uint64(2 ** 63), "opacity")
    layer.fill_mode = np.int64(3)
    assert layer.fill_mode is cadence.FillMode.BOTH
