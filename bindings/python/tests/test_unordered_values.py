"""Unordered and mapping containers are no vectors: a set gives its elements in hash
order and a dict its keys, so both are refused (TypeError naming the type) wherever
an ordered sequence of numbers (or of values, path elements, timing functions) is
taken, at any nesting level. Ordered sequences and iterables still work."""
from __future__ import annotations

from collections import OrderedDict

import pytest

import cadence
from cadence import Animation, Path

UNORDERED = [
    pytest.param({0.1: "x", 0.7: "y"}, "dict", id="dict"),
    pytest.param({"x": 1, "y": 2}, "dict", id="dict-str-keys"),
    pytest.param({1.0, 0.5}, "set", id="set"),
    pytest.param(frozenset({1.0, 0.5}), "frozenset", id="frozenset"),
    pytest.param({1.0: 0, 0.5: 0}.keys(), "dict_keys", id="dict-keys"),
    pytest.param(OrderedDict([(1.0, 0), (0.5, 0)]), "OrderedDict", id="ordered-dict"),
]


@pytest.mark.parametrize("value,name", UNORDERED)
def test_layer_vector_properties_refuse_unordered_containers(engine, layer, value, name):
    layer.position = (3, 4)
    with pytest.raises(TypeError, match=rf"^position must be a sequence of numbers, not {name}$"):
        layer.position = value
    with pytest.raises(TypeError, match=rf"position must be a sequence of numbers, not {name}"):
        layer["position"] = value
    with pytest.raises(TypeError, match=name):
        layer.configure(position=value)
    with pytest.raises(TypeError, match=name):
        engine.create_layer(position=value)
    assert layer.position == (3.0, 4.0)  # unchanged


def test_nested_unordered_containers_are_refused(layer):
    with pytest.raises(TypeError, match="not set"):
        layer.position = [{1.0}, 2.0]
    with pytest.raises(TypeError, match="not dict"):
        layer.transform = [[1, 0, 0, 0], {0: 1, 1: 0, 2: 0, 3: 0}, [0, 0, 1, 0], [0, 0, 0, 1]]
    with pytest.raises(TypeError, match="backgroundColor must be a sequence of numbers, not set"):
        layer.background_color = {1.0, 0.5, 0.25, 0.0}


@pytest.mark.parametrize("value,name", UNORDERED)
def test_animation_values_refuse_unordered_containers(engine, value, name):
    for option in ("from_", "to", "by"):
        with pytest.raises(TypeError, match=name):
            Animation.basic(engine, "position", **{option: value})
    a = Animation.basic(engine, "position", to=(1, 2))
    with pytest.raises(TypeError, match=rf"to_value must be a sequence of numbers, not {name}"):
        a.to_value = value
    assert a.to_value == (1.0, 2.0)
    with pytest.raises(TypeError, match=name):
        Animation.keyframe(engine, "opacity", values=value)
    with pytest.raises(TypeError, match=name):
        Animation.keyframe(engine, "position", values=[(0, 0), value])
    with pytest.raises(TypeError, match=name):
        Animation.keyframe(engine, "opacity", values=[0, 1], key_times=value)
    k = Animation.keyframe(engine, "opacity", values=[0, 1])
    with pytest.raises(TypeError, match=name):
        k.configure(key_times=value)
    with pytest.raises(TypeError, match=name):
        k.timing_functions = value
    with pytest.raises(TypeError, match=name):
        k.configure(timing_functions=value)
    with pytest.raises(TypeError, match=name):
        k.set_tcb(tension=value)


def test_timing_functions_refuse_unordered_control_points(engine):
    pts = {0.42: 0, 0.0: 0, 0.58: 0, 1.0: 0}
    with pytest.raises(TypeError, match="not dict"):
        Animation.basic(engine, "opacity", timing_function=pts)
    with pytest.raises(TypeError, match="not set"):
        Animation.basic(engine, "opacity", timing_function={0.1, 0.2, 0.3, 0.4})
    with pytest.raises(TypeError, match="not frozenset"):
        cadence.evaluate_timing(frozenset({0.1, 0.2, 0.3, 0.4}), 0.5)
    with pytest.raises(TypeError, match="not dict"):
        cadence.timing_bezier(pts)
    with pytest.raises(TypeError, match="not set"):
        engine.transaction(timing_function={0.1, 0.2, 0.3, 0.4})
    with pytest.raises(TypeError, match="not dict"):
        engine.animate(curve=pts)
    assert engine.transaction_id == 0  # nothing opened


def test_evaluate_timing_points_and_paths_refuse_unordered_containers(layer):
    with pytest.raises(TypeError, match="x must be a sequence of numbers, not set"):
        cadence.evaluate_timing("linear", {0.5, 0.25})
    with pytest.raises(TypeError, match="not dict"):
        cadence.evaluate_timing("linear", {0.5: 0})
    # a dict would otherwise be indexed by its keys 0 and 1
    with pytest.raises(TypeError, match="point must be a sequence of two numbers .*not dict"):
        layer.convert_point({0: 1.0, 1: 2.0})
    with pytest.raises(TypeError, match="not dict"):
        layer.convert_point_from({0: 1.0, 1: 2.0})
    with pytest.raises(TypeError, match="not set"):
        layer.hit_test({1.0, 2.0})
    with pytest.raises(TypeError, match="not dict"):
        layer.engine.convert_point({0: 1.0, 1: 2.0})
    with pytest.raises(TypeError, match="not set"):
        Path({(0, 0), (1, 1)})
    with pytest.raises(TypeError, match="not dict"):
        Path([(0, 0), {0: 1, 1: 1}])
    with pytest.raises(TypeError, match="not set"):
        Animation.keyframe(layer.engine, "position", path={(0, 0), (1, 1)})


def test_a_tcb_set_is_refused_and_a_tcb_dict_still_works(engine):
    with pytest.raises(TypeError, match="not set"):
        Animation.keyframe(engine, "opacity", values=[0, 1, 0], calculation_mode="cubic",
                           tcb={(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (2.0, 2.0, 2.0)})
    a = Animation.keyframe(engine, "opacity", values=[0, 1, 0], calculation_mode="cubic",
                           tcb={"tension": [0, 1, 0]})
    assert a.tcb is not None


def test_ordered_sequences_and_iterables_still_work(engine, layer):
    with engine.transaction(disable_actions=True):
        layer.position = [1, 2]
        assert layer.position == (1.0, 2.0)
        layer.position = range(3, 5)
        assert layer.position == (3.0, 4.0)
        layer.position = (x for x in (5, 6))
        assert layer.position == (5.0, 6.0)
        layer.position = {"x": 7, "y": 8}.values()  # a dict's values, in insertion order: no Set
        assert layer.position == (7.0, 8.0)
        layer.position = cadence.Point(9, 10)
        assert layer.position == (9.0, 10.0)
    assert cadence.evaluate_timing("linear", [0.25, 0.5]) == [0.25, 0.5]
