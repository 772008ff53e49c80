"""The animation getters read back an immutable copy of what was sent to C, never the
caller's object: changing a list (or array) after passing it changes neither what the
library animates nor what the getter reports (the module doc: "the properties read
back what was set through this object"). Expected values are the ones passed."""
from __future__ import annotations

import pytest

import cadence
from cadence import Animation
from conftest import approx


def test_keyframe_values_and_key_times_are_copies(engine, layer):
    vals = [0.0, 1.0, 0.0]
    times = [0, 0.5, 1]
    kf = Animation.keyframe(engine, "opacity", values=vals, key_times=times, duration=1)
    vals[1] = 0.25
    times[1] = 0.9
    assert kf.values == (0.0, 1.0, 0.0)
    assert kf.key_times == (0.0, 0.5, 1.0)
    assert kf.keyTimes == (0.0, 0.5, 1.0)
    layer.add_animation(kf, "k")
    engine.tick(0.5)
    assert layer.presentation("opacity") == approx(1.0)  # what the getters say: values[1] at key time 0.5


def test_keyframe_values_of_points_read_back_as_tuples_of_floats(engine):
    rows = [[0, 0], [10, 20]]
    kf = Animation.keyframe(engine, "position", values=rows)
    rows[1][0] = 99
    rows.append([5, 5])
    assert kf.values == ((0.0, 0.0), (10.0, 20.0))
    assert all(type(v) is tuple for v in kf.values)
    # a generator is taken once and read back the same way
    kf.values = ((x, x) for x in (1, 2, 3))
    assert kf.values == ((1.0, 1.0), (2.0, 2.0), (3.0, 3.0))


@pytest.mark.parametrize("name", ["from_value", "to_value", "by_value"])
def test_endpoint_values_are_copies(engine, name):
    given = [10.0, 20.0]
    a = Animation.basic(engine, "position")
    setattr(a, name, given)
    given[0] = 99.0
    assert getattr(a, name) == (10.0, 20.0)
    assert type(getattr(a, name)) is tuple
    setattr(a, name, None)
    assert getattr(a, name) is None


def test_endpoint_values_through_constructors_and_configure(engine, layer):
    to = [10.0, 20.0]
    frm = [0.0, 0.0]
    b = Animation.basic(engine, "position", from_=frm, to=to, duration=1)
    s = Animation.spring(engine, "position", to=to)
    c = Animation.basic(engine, "position").configure(toValue=to)
    to[0] = 99.0
    frm[1] = 5.0
    assert b.to_value == (10.0, 20.0) and b.from_value == (0.0, 0.0)
    assert s.to_value == (10.0, 20.0) and c.to_value == (10.0, 20.0)
    layer.add_animation(b, "b")
    engine.tick(0.5)
    assert layer.presentation("position") == approx((5.0, 10.0))  # half-way from (0, 0) to (10, 20)


def test_scalar_endpoints_read_back_as_floats(engine):
    a = Animation.basic(engine, "opacity", from_=0, to=1, by=True)
    assert (a.from_value, a.to_value, a.by_value) == (0.0, 1.0, 1.0)
    assert all(type(v) is float for v in (a.from_value, a.to_value, a.by_value))


def test_a_transform_endpoint_reads_back_flat(engine):
    m = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [10, 20, 0, 1]]
    a = Animation.basic(engine, "transform", to=m)
    m[3][0] = 99
    assert a.to_value == (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 10.0, 20.0, 0.0, 1.0)


def test_timing_functions_tcb_and_timing_function_are_copies(engine):
    tfs = ["easeIn", [0.1, 0.2, 0.3, 0.4]]
    tension = [0.0, 1.0, 0.0]
    bezier = [0.42, 0.0, 0.58, 1.0]
    kf = Animation.keyframe(engine, "opacity", values=[0, 1, 0], timing_functions=tfs,
                            calculation_mode="cubic", tcb={"tension": tension}, timing_function=bezier)
    tfs[0] = "linear"
    tfs[1][0] = 0.9
    tension[1] = 5.0
    bezier[0] = 0.0
    assert kf.timing_functions == ("easeIn", (0.1, 0.2, 0.3, 0.4))
    assert kf.tcb == ((0.0, 1.0, 0.0), None, None)
    assert kf.timing_function == (0.42, 0.0, 0.58, 1.0)
    kf.timing_function = "easeOut"
    assert kf.timing_function == "easeOut"
    kf.timing_function = ["steps", 3, "start"]
    assert kf.timing_function == ("steps", 3, "start")


def test_a_refused_value_leaves_the_copy_unchanged(engine):
    a = Animation.basic(engine, "position", to=(1, 2))
    with pytest.raises(cadence.TypeMismatchError):
        a.to_value = [1, 2, 3]
    assert a.to_value == (1.0, 2.0)


def test_numpy_arrays_read_back_as_read_only_float64_copies(engine, layer):
    np = pytest.importorskip("numpy")
    values = np.array([[0, 0], [10, 20], [30, 40]], dtype=np.int32)
    times = np.array([0.0, 0.5, 1.0])
    to = np.array([10.0, 20.0])
    kf = Animation.keyframe(engine, "position", values=values, key_times=times, duration=1)
    b = Animation.basic(engine, "position", to=to, duration=1)
    values[1] = (99, 99)
    times[1] = 0.9
    to[0] = 99.0
    for got, shape, expected in ((kf.values, (3, 2), [[0, 0], [10, 20], [30, 40]]),
                                 (kf.key_times, (3,), [0.0, 0.5, 1.0]), (b.to_value, (2,), [10.0, 20.0])):
        assert isinstance(got, np.ndarray) and got.shape == shape and got.dtype == np.float64
        assert got.tolist() == expected
        assert not got.flags.writeable
        with pytest.raises(ValueError):
            got[0] = 1
    layer.add_animation(kf, "k")
    engine.tick(0.25)
    assert layer.presentation("position") == approx((5.0, 10.0))  # a quarter: half of segment 0
    assert Animation.basic(engine, "opacity", to=np.float32(0.5)).to_value == 0.5
    assert type(Animation.basic(engine, "hidden", to=np.True_).to_value) is float
