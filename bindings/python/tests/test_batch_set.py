"""Engine.set(layers, keypath, values): one key path's model value on many layers in one
C call (cad_engine_set), row by row, as one Layer.set per layer; every handle, the count
and every value checked before anything changes. Expected values are written out here
(or computed from the rows given), never read back from the engine to compare with."""
from __future__ import annotations

import ctypes
import math
from fractions import Fraction

import pytest

import cadence
from cadence import Point

from conftest import approx

try:
    import numpy as np
except ImportError:  # pragma: no cover - the numpy tests are skipped
    np = None

needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")


def make_layers(engine, n, **props):
    """n layers, no longer new (one tick at t = 0)."""
    layers = [engine.create_layer(**props) for _ in range(n)]
    engine.tick(0.0)
    return layers


def positions(layers):
    return [tuple(l.position) for l in layers]


# ---- rows go to their layers -----------------------------------------------------------------

def test_rows_go_to_their_layers_in_order(engine):
    layers = make_layers(engine, 4)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", [(10.0 * i, 1 - 3.0 * i) for i in range(4)])
    assert positions(layers) == [(0.0, 1.0), (10.0, -2.0), (20.0, -5.0), (30.0, -8.0)]
    assert [l.get("position.y") for l in layers] == [1.0, -2.0, -5.0, -8.0]
    engine.set(layers[::-1], "opacity", [0.125, 0.25, 0.5, 0.75])  # actions run, the model changes at once
    assert [l.opacity for l in layers] == [0.75, 0.5, 0.25, 0.125]


def test_a_layer_listed_twice_takes_its_last_row(engine):
    a, b = make_layers(engine, 2)
    with engine.transaction(disable_actions=True):
        engine.set([a, b, a], "position", [(1, 2), (3, 4), (5, 6)])
        assert positions([a, b]) == [(5.0, 6.0), (3.0, 4.0)]
        engine.set([b, b, b], "opacity", [0.1, 0.2, 0.3])
    assert b.opacity == 0.3 and a.opacity == 1.0


def test_an_empty_batch_changes_nothing(engine):
    (a,) = make_layers(engine, 1)
    assert engine.set([], "position", []) is None
    engine.set([], "transform", ())
    if np is not None:
        engine.set(np.array([], dtype=np.uint64), "position", np.zeros((0, 2)))
        engine.set([], "opacity", np.array([]))
    assert a.position == (0.0, 0.0) and a.animation_keys() == [] and engine.layer_count == 1
    with pytest.raises(cadence.UnknownKeyPathError):  # C checks the key path also for no layers
        engine.set([], "bogus", [])


def test_sub_key_paths_and_every_shape_of_value(engine):
    a, b = make_layers(engine, 2, bounds=(0, 0, 10, 20))
    with engine.transaction(disable_actions=True):
        engine.set([a, b], "position.x", [7, Fraction(1, 2)])
        engine.set([a, b], "bounds.size", [(30, 40), (50, 60)])
        engine.set([a, b], "backgroundColor", [1, 0, 0, 1, 0, 0.5, 0.25, 0.75])  # flat: n * 4 numbers
        engine.set([a, b], "transform.scale.x", [2, 3])
        engine.set([a, b], "hidden", [True, False])
    assert a.position == (7.0, 0.0) and b.position == (0.5, 0.0)
    assert a.bounds == (0.0, 0.0, 30.0, 40.0) and b.bounds == (0.0, 0.0, 50.0, 60.0)
    assert a.background_color == (1.0, 0.0, 0.0, 1.0) and b.background_color == (0.0, 0.5, 0.25, 0.75)
    assert a.get("transform.scale.x") == 2.0 and b.get("transform.scale.x") == 3.0
    assert a.hidden is True and b.hidden is False


def test_transforms_as_nested_rows(engine):
    a, b = make_layers(engine, 2)
    translate = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [5, 6, 7, 1]]  # row vectors: m41..m43
    scale = [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1]
    with engine.transaction(disable_actions=True):
        engine.set([a, b], "transform", [translate, scale])
    assert a.transform == (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1)
    assert b.transform == tuple(scale)


# ---- handles ---------------------------------------------------------------------------------

@needs_numpy
@pytest.mark.parametrize("form", ["layers", "ints", "mixed", "uint64", "int64", "column", "object array"])
def test_handles_in_every_form(engine, form):
    layers = make_layers(engine, 3)
    hs = [l.handle for l in layers]
    forms = {"layers": lambda: layers, "ints": lambda: hs, "mixed": lambda: [layers[0], hs[1], np.uint64(hs[2])],
             "uint64": lambda: np.array(hs, dtype=np.uint64), "int64": lambda: np.array(hs, dtype=np.int64),
             "column": lambda: np.array(hs, dtype=np.uint64).reshape(3, 1),
             "object array": lambda: np.array(layers, dtype=object)}
    given = forms[form]()
    engine.set(given, "opacity", [0.25, 0.5, 0.75])
    assert [l.opacity for l in layers] == [0.25, 0.5, 0.75]


@needs_numpy
def test_unaligned_and_strided_handle_arrays(engine):
    layers = make_layers(engine, 3)
    h = np.array([l.handle for l in layers], dtype=np.uint64)
    raw = bytearray(1 + h.nbytes)
    raw[1:] = h.tobytes()
    unaligned = np.frombuffer(raw, dtype=np.uint64, offset=1)
    assert not unaligned.flags.aligned
    engine.set(unaligned, "zPosition", [1, 2, 3])
    assert [l.z_position for l in layers] == [1.0, 2.0, 3.0]
    strided = np.stack([h, h[::-1]], axis=1)[:, 1]  # the reversed column
    assert not strided.flags.c_contiguous
    engine.set(strided, "zPosition", [1, 2, 3])
    assert [l.z_position for l in layers] == [3.0, 2.0, 1.0]


@needs_numpy
def test_float_and_bool_handle_arrays_are_refused(engine):
    layers = make_layers(engine, 2)
    hs = [l.handle for l in layers]
    for bad in (np.array(hs, dtype=np.float64), np.array([True, True])):
        with pytest.raises(TypeError, match="integer array") as info:
            engine.set(bad, "opacity", [0.5, 0.5])
        assert not isinstance(info.value, cadence.TypeMismatchError)
    assert [l.opacity for l in layers] == [1.0, 1.0]


def test_negative_and_out_of_range_handles_are_refused(engine):
    layers = make_layers(engine, 2)
    for bad in (-1, 2 ** 64, -(2 ** 63)):
        with pytest.raises(cadence.InvalidArgumentError):
            engine.set([layers[0], bad], "opacity", [0.5, 0.5])
    with pytest.raises(TypeError, match="not bool"):
        engine.set([layers[0], True], "opacity", [0.5, 0.5])
    if np is not None:
        with pytest.raises(cadence.InvalidArgumentError, match="negative"):
            engine.set(np.array([layers[0].handle, -1], dtype=np.int64), "opacity", [0.5, 0.5])
    assert [l.opacity for l in layers] == [1.0, 1.0]


# ---- values ----------------------------------------------------------------------------------

EXPECTED_POSITIONS = [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]


def _position_forms():
    forms = {
        "list of tuples": [(1, 2), (3, 4), (5, 6)],
        "list of lists": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
        "tuple of Points": (Point(1, 2), Point(3, 4), Point(5, 6)),
        "flat list": [1, 2, 3, 4, 5, 6],
        "flat range": range(1, 7),
        "generator of rows": ((2 * i + 1, 2 * i + 2) for i in range(3)),
        "mixed row types": [(1, 2.0), [Fraction(3), 4], range(5, 7)],
    }
    if np is not None:
        forms.update({
            "(n, k) float64": np.array([[1, 2], [3, 4], [5, 6]], dtype=np.float64),
            "flat float64": np.arange(1, 7, dtype=np.float64),
            "(n, k) int64": np.array([[1, 2], [3, 4], [5, 6]]),
            "(n, k) float32": np.array([[1, 2], [3, 4], [5, 6]], dtype=np.float32),
            "Fortran order": np.asfortranarray(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])),
            "strided": np.array([[1.0, 9.0, 2.0], [3.0, 9.0, 4.0], [5.0, 9.0, 6.0]])[:, ::2],
            "list of arrays": [np.array([1.0, 2.0]), np.array([3, 4]), np.array([5.0, 6.0])],
            "object array": np.array([Fraction(1), 2, 3, 4, 5, 6.0], dtype=object),
        })
    return forms


@pytest.mark.parametrize("name", list(_position_forms()))
def test_values_in_every_form(engine, name):
    values = _position_forms()[name]
    layers = make_layers(engine, 3)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", values)
    assert positions(layers) == EXPECTED_POSITIONS


@needs_numpy
def test_unaligned_values_are_copied_to_aligned_doubles(engine, monkeypatch):
    layers = make_layers(engine, 3)
    xs = np.array([0.25, 0.5, 0.75])
    raw = bytearray(1 + xs.nbytes)
    raw[1:] = xs.tobytes()
    unaligned = np.frombuffer(raw, dtype=np.float64, offset=1)
    assert not unaligned.flags.aligned
    pointers = []
    real = cadence.lib.cad_engine_set

    def spy(e, layers_, n_layers, keypath, values, n_values):
        pointers.append(ctypes.cast(values, ctypes.c_void_p).value)
        return real(e, layers_, n_layers, keypath, values, n_values)

    monkeypatch.setattr(cadence.lib, "cad_engine_set", spy)
    engine.set(layers, "opacity", unaligned)
    assert [l.opacity for l in layers] == [0.25, 0.5, 0.75]
    assert pointers[0] % 8 == 0
    # A C-contiguous aligned float64 array goes to C as it is (no copy, no per-item work).
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", rows)
    assert pointers[1] == rows.ctypes.data
    assert positions(layers) == EXPECTED_POSITIONS


@needs_numpy
def test_one_component_keys_take_n_or_n_by_1(engine):
    layers = make_layers(engine, 3)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "cornerRadius", np.array([1.0, 2.0, 3.0]))
        assert [l.corner_radius for l in layers] == [1.0, 2.0, 3.0]
        engine.set(layers, "cornerRadius", np.array([[4.0], [5.0], [6.0]]))
        assert [l.corner_radius for l in layers] == [4.0, 5.0, 6.0]
        engine.set(layers, "cornerRadius", [(7,), (8,), (9,)])
        assert [l.corner_radius for l in layers] == [7.0, 8.0, 9.0]
        engine.set(layers[:1], "cornerRadius", np.array(10.0))  # 0-d: one layer's one number
        assert layers[0].corner_radius == 10.0
        engine.set(layers, "masksToBounds", np.array([True, False, True]))
        assert [l.masks_to_bounds for l in layers] == [True, False, True]


@needs_numpy
def test_transforms_as_an_n_by_4_by_4_array(engine):
    layers = make_layers(engine, 3)
    mats = np.stack([np.diag([i + 1.0, i + 2.0, 1.0, 1.0]) for i in range(3)])
    with engine.transaction(disable_actions=True):
        engine.set(layers, "transform", mats)
    for i, l in enumerate(layers):
        expected = [0.0] * 16
        expected[0], expected[5], expected[10], expected[15] = i + 1.0, i + 2.0, 1.0, 1.0
        assert list(l.transform) == expected


def test_one_component_keys_take_a_flat_list(engine):
    layers = make_layers(engine, 3)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "opacity", [0, 0.5, 1])
    assert [l.opacity for l in layers] == [0.0, 0.5, 1.0]


def test_true_means_forever_for_repeat_fields(engine):
    layers = make_layers(engine, 3)
    engine.set(layers, "repeatCount", [True, 2, False])
    assert [l.repeat_count for l in layers] == [math.inf, 2.0, 0.0]
    engine.set(layers, "repeatDuration", [(False,), 1.5, (True,)])
    assert [l.repeat_duration for l in layers] == [0.0, 1.5, math.inf]
    if np is not None:
        engine.set(layers, "repeatCount", np.array([False, True, True]))
        assert [l.repeat_count for l in layers] == [0.0, math.inf, math.inf]
        engine.set(layers, "repeatDuration", [np.True_, np.float32(3), np.False_])
        assert [l.repeat_duration for l in layers] == [math.inf, 3.0, 0.0]
    engine.set(layers, "duration", [True, False, 2])  # elsewhere a bool is a number
    assert [l.duration for l in layers] == [1.0, 0.0, 2.0]


def test_contents_ids(engine):
    layers = make_layers(engine, 3)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "contents", [7, 2 ** 53, 2 ** 60])  # 2**60 is a double exactly
    assert [l.contents for l in layers] == [7, 9007199254740992, 1152921504606846976]
    for bad in ([1, True, 2], [1, 2, (False,)]):
        with pytest.raises(TypeError, match="not bool"):
            engine.set(layers, "contents", bad)
    with pytest.raises(cadence.InvalidArgumentError, match=r"values\[1\].*9007199254740993"):
        engine.set(layers, "contents", [1, 2 ** 53 + 1, 2])  # would round to 2**53
    if np is not None:
        with pytest.raises(cadence.InvalidArgumentError, match=r"values\[2\]"):
            engine.set(layers, "contents", np.array([1, 2, 2 ** 64 - 1], dtype=np.uint64))
        with pytest.raises(TypeError, match="bool"):
            engine.set(layers, "contents", np.array([True, False, True]))
        with pytest.raises(cadence.InvalidArgumentError):  # C: ids are whole numbers
            engine.set(layers, "contents", np.array([1.0, 2.5, 3.0]))
    assert [l.contents for l in layers] == [7, 9007199254740992, 1152921504606846976]
    if np is not None:
        with engine.transaction(disable_actions=True):
            engine.set(layers, "contents", np.array([3, 2, 2 ** 62], dtype=np.uint64))
        assert [l.contents for l in layers] == [3, 2, 4611686018427387904]


# ---- implicit actions ------------------------------------------------------------------------

def test_each_set_runs_its_action_with_the_transactions_timing(engine):
    a, b = make_layers(engine, 2)  # the tick at 0: no longer new, so changes animate
    with engine.transaction(timing_function="linear"):
        engine.set([a, b], "opacity", [0.0, 0.5])
    assert (a.opacity, b.opacity) == (0.0, 0.5)  # the model at once
    assert a.animation_keys() == ["opacity"] and b.animation_keys() == ["opacity"]
    assert (a.presentation("opacity"), b.presentation("opacity")) == (1.0, 1.0)
    engine.tick(0.125)  # half of the default 0.25 s, linearly from 1
    assert a.presentation("opacity") == pytest.approx(1 + (0.0 - 1) * 0.5)   # 0.5
    assert b.presentation("opacity") == pytest.approx(1 + (0.5 - 1) * 0.5)   # 0.75
    engine.tick(0.25)
    assert (a.presentation("opacity"), b.presentation("opacity")) == (0.0, 0.5)


def test_disabled_actions_take_effect_at_once(engine):
    a, b = make_layers(engine, 2)
    with engine.transaction(disable_actions=True):
        engine.set([a, b], "position.x", [10, 20])
    assert a.animation_keys() == [] and b.animation_keys() == []
    assert (a.presentation("position.x"), b.presentation("position.x")) == (10.0, 20.0)
    a.actions_enabled = False  # a layer's own switch too: only b animates
    with engine.transaction(duration=1.0, timing_function="linear"):
        engine.set([a, b], "position.x", [110, 220])
    engine.tick(0.5)
    assert a.animation_keys() == [] and b.animation_keys() == ["position.x"]
    assert a.presentation("position.x") == 110.0
    assert b.presentation("position.x") == pytest.approx(20 + (220 - 20) * 0.5)


def test_new_layers_take_their_values_without_animation(engine):
    engine.tick(0.0)
    layers = [engine.create_layer() for _ in range(2)]  # new until the next tick
    engine.set(layers, "opacity", [0.25, 0.75])
    assert [l.animation_keys() for l in layers] == [[], []]
    engine.tick(0.0)
    assert [l.presentation("opacity") for l in layers] == [0.25, 0.75]


# ---- refused batches change nothing ---------------------------------------------------------------

OPACITIES = [0.1, 0.2, 0.3, 0.4]


def _refusal_setup(engine):
    layers = [engine.create_layer(opacity=o, position=(i, -i), duration=2.0) for i, o in enumerate(OPACITIES)]
    engine.tick(0.0)
    return layers


def _assert_unchanged(layers):
    assert [l.opacity for l in layers] == OPACITIES
    assert positions(layers) == [(float(i), float(-i)) for i in range(len(layers))]
    assert [l.duration for l in layers] == [2.0] * len(layers)
    assert [l.animation_keys() for l in layers] == [[]] * len(layers)  # no action ran either


def test_a_stale_handle_refuses_the_whole_batch(engine):
    layers = _refusal_setup(engine)
    dead = engine.create_layer()
    dead.destroy()
    batch = [layers[0], layers[1], dead, layers[3]]
    with pytest.raises(cadence.InvalidHandleError, match=r"layers\[2\]"):
        engine.set(batch, "opacity", [0.9, 0.9, 0.9, 0.9])
    with pytest.raises(cadence.InvalidHandleError, match=r"layers\[2\]"):
        engine.set([l.handle for l in batch], "position", [(9, 9)] * 4)
    _assert_unchanged(layers)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_value_in_the_last_row_refuses_the_whole_batch(engine, bad):
    layers = _refusal_setup(engine)
    with pytest.raises(cadence.InvalidArgumentError, match=r"layers\[3\]"):
        engine.set(layers, "opacity", [0.9, 0.9, 0.9, bad])
    with pytest.raises(cadence.InvalidArgumentError, match=r"layers\[3\]"):
        engine.set(layers, "position", [(9, 9), (9, 9), (9, 9), (9, bad)])
    if np is not None:
        rows = np.full((4, 2), 9.0)
        rows[3, 0] = bad
        with pytest.raises(cadence.InvalidArgumentError, match=r"layers\[3\]"):
            engine.set(layers, "position", rows)
    _assert_unchanged(layers)


def test_a_timing_fields_rule_refuses_the_whole_batch(engine):
    layers = _refusal_setup(engine)
    with pytest.raises(cadence.InvalidArgumentError, match=r"layers\[1\]"):
        engine.set(layers, "duration", [1.0, -1.0, 1.0, 1.0])
    with pytest.raises(cadence.InvalidArgumentError):
        engine.set(layers, "fillMode", [0, 1, 2, 99])  # no such fill mode
    _assert_unchanged(layers)
    engine.set(layers, "repeatCount", [math.inf] * 4)  # infinity is a repeat count
    assert [l.repeat_count for l in layers] == [math.inf] * 4


def test_a_wrong_count_or_shape_refuses_the_whole_batch(engine):
    layers = _refusal_setup(engine)
    wrong = [
        ("opacity", [0.9, 0.9, 0.9]),                       # one row short
        ("opacity", [0.9] * 5),                             # one row too many
        ("position", [(9, 9)] * 3),                         # rows for 3 layers
        ("position", [9] * 7),                              # not n * k numbers
        ("position", [(9, 9), (9, 9), (9, 9), (9, 9, 9)]),  # a row of 3
        ("position", [(9, 9), (9, 9), (9, 9), 9]),          # a number as a row of 2
        ("position", [[9, 9, 9, 9], [9, 9, 9, 9]]),         # k rows of n: transposed
        ("transform", [[9] * 16] * 3),
        ("opacity", []),
    ]
    if np is not None:
        wrong += [
            ("position", np.full((2, 4), 9.0)),                # transposed
            ("position", np.full((4, 3), 9.0)),
            ("position", np.full(7, 9.0)),
            ("opacity", np.full((1, 4), 9.0)),                 # a row, not one per layer
            ("transform", np.full((4, 4), 9.0)),               # one matrix for 4 layers
            ("position", np.full((4, 2, 1, 3), 9.0)),
        ]
    for keypath, values in wrong:
        with pytest.raises(cadence.TypeMismatchError):
            engine.set(layers, keypath, values)
    _assert_unchanged(layers)


def test_values_of_the_wrong_type_refuse_the_whole_batch(engine):
    layers = _refusal_setup(engine)
    refused = [
        0.9,                       # one value is not repeated for every layer
        "0.9",
        b"\x00" * 4,
        None,
        {0.9, 0.8, 0.7, 0.6},
        {0: 0.9, 1: 0.9, 2: 0.9, 3: 0.9},
        [0.9, 0.9, 0.9, "0.9"],
        [0.9, 0.9, None, 0.9],
        [0.9, 0.9, 0.9, 1j],
        [0.9, 0.9, 0.9, {0.9}],
        [(0.9,), (0.9,), (0.9,), {0: 0.9}],
    ]
    if np is not None:
        refused += [np.float64(0.9), np.array(["0.9"] * 4), np.array([0.9j] * 4)]
    for values in refused:
        with pytest.raises(TypeError) as info:
            engine.set(layers, "opacity", values)
        assert not isinstance(info.value, ctypes.ArgumentError), values
    with pytest.raises(cadence.InvalidArgumentError):  # out of a double's range
        engine.set(layers, "opacity", [0.9, 0.9, 0.9, 10 ** 400])
    _assert_unchanged(layers)


def test_an_unknown_key_path_refuses_the_whole_batch(engine):
    layers = _refusal_setup(engine)
    with pytest.raises(cadence.UnknownKeyPathError):
        engine.set(layers, "opacityy", [0.9] * 4)
    with pytest.raises(cadence.UnknownKeyPathError):
        engine.set(layers, "frame.origin", [(9, 9)] * 4)
    with pytest.raises(cadence.InvalidArgumentError, match="NUL"):
        engine.set(layers, "opacity\0x", [0.9] * 4)
    with pytest.raises(TypeError):
        engine.set(layers, 5, [0.9] * 4)
    _assert_unchanged(layers)


@needs_numpy
def test_counts_above_int32_are_refused_before_any_copy(engine):
    (layer,) = make_layers(engine, 1)
    n = 2 ** 27  # n fits an int32, n x 16 does not
    handles = np.broadcast_to(np.uint64(layer.handle), (n,))
    values = np.broadcast_to(np.float64(1.0), (n, 16))  # no memory of its size
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        engine.set(handles, "transform", values)
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        engine.set(np.broadcast_to(np.uint64(layer.handle), (2 ** 32 + 1,)), "opacity", [])
    assert layer.transform == (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)


def test_a_closed_engine_refuses(engine):
    layers = make_layers(engine, 2)
    engine.close()
    with pytest.raises(cadence.ClosedError):
        engine.set(layers, "opacity", [0.5, 0.5])


# ---- key paths this binding's table lacks, and numpy's absence ---------------------------------------

def test_a_key_path_the_table_lacks_goes_to_c_as_given(engine, monkeypatch):
    # A key path of a newer library: the binding cannot check the shape, C checks the count.
    import cadence.engine as engine_module
    table = {k: n for k, n in engine_module.KEY_PATH_COMPONENTS.items() if k != b"position"}
    monkeypatch.setattr(engine_module, "KEY_PATH_COMPONENTS", table)
    layers = make_layers(engine, 2)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", [(1, 2), (3, 4)])
        assert positions(layers) == [(1.0, 2.0), (3.0, 4.0)]
        engine.set(layers, "position", [5, 6, 7, 8])
        assert positions(layers) == [(5.0, 6.0), (7.0, 8.0)]
        with pytest.raises(cadence.TypeMismatchError):
            engine.set(layers, "position", [(1, 2, 3), (4, 5, 6)])
    assert positions(layers) == [(5.0, 6.0), (7.0, 8.0)]


def test_without_numpy(engine, monkeypatch):
    monkeypatch.setattr(cadence.engine, "_np", None)
    layers = make_layers(engine, 3)
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", [(1, 2), (3, 4), (5, 6)])
        assert positions(layers) == EXPECTED_POSITIONS
        engine.set([l.handle for l in layers], "position", [6, 5, 4, 3, 2, 1])
        assert positions(layers) == [(6.0, 5.0), (4.0, 3.0), (2.0, 1.0)]
        engine.set(layers, "opacity", [0.25, 0.5, 0.75])
        assert [l.opacity for l in layers] == [0.25, 0.5, 0.75]
        engine.set(layers, "repeatCount", [True, 1, False])
        assert [l.repeat_count for l in layers] == [math.inf, 1.0, 0.0]
    with pytest.raises(cadence.TypeMismatchError):
        engine.set(layers, "position", [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError):
        engine.set(layers, "opacity", ["1", "2", "3"])
    with pytest.raises(cadence.InvalidArgumentError, match=r"layers\[2\]"):
        engine.set(layers, "opacity", [0.0, 0.0, math.nan])
    assert [l.opacity for l in layers] == [0.25, 0.5, 0.75]


def test_batch_matches_what_the_rows_say_for_many_layers(engine):
    n = 300
    layers = make_layers(engine, n)
    rows = [((i * 37) % 101 - 50.0, (i * 53) % 97 / 4.0) for i in range(n)]
    with engine.transaction(disable_actions=True):
        engine.set(layers, "position", rows)
    assert positions(layers) == rows
    assert approx([l.get("position.x") for l in layers]) == [x for x, _ in rows]
