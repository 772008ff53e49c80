"""evaluate_timing's x: the binding's one rule for numbers (a non-real is a TypeError,
never parsed or cast) holds for numpy arrays too, and every real scalar, numpy's bool
included, returns a float (its docstring). Expected values: the §4 Bézier curves,
solved independently (conftest.bezier_solve)."""
from __future__ import annotations

import re

import pytest

import cadence
from conftest import bezier_solve

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("x", [
    pytest.param(lambda: np.array(["0.5", "0.25"]), id="str"),
    pytest.param(lambda: np.array([b"0.5"]), id="bytes"),
    pytest.param(lambda: np.array([0.5 + 3j]), id="complex"),
    pytest.param(lambda: np.array([0.5 + 0j], dtype=np.complex64), id="complex64-real-valued"),
    pytest.param(lambda: np.array([None]), id="object-None"),
    pytest.param(lambda: np.array([0.5, 0.25], dtype=object), id="object-floats"),
    pytest.param(lambda: np.array(["2020-01-01"], dtype="datetime64[D]"), id="datetime"),
    pytest.param(lambda: np.array([1], dtype="timedelta64[s]"), id="timedelta"),
    pytest.param(lambda: np.zeros(2, dtype=[("a", "f8")]), id="structured"),
    pytest.param(lambda: np.array("0.5"), id="0-d-str"),
])
def test_arrays_of_non_reals_are_type_errors(x):
    arr = x()
    with pytest.raises(TypeError, match=re.escape(f"not of dtype {arr.dtype}")):
        cadence.evaluate_timing("linear", arr)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int64, np.uint64, np.float16, np.float32,
                                   np.float64])
def test_arrays_of_reals_are_taken(dtype):
    y = cadence.evaluate_timing("easeIn", np.array([0, 1], dtype=dtype))
    assert y.dtype == np.float64 and y.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("x, expected_x", [
    (np.True_, 1.0), (np.False_, 0.0), (np.array([True])[0], 1.0),
    (np.float32(0.5), 0.5), (np.float16(0.25), 0.25), (np.int64(1), 1.0), (np.uint8(0), 0.0),
])
def test_numpy_scalars_are_scalars_and_return_a_float(x, expected_x):
    y = cadence.evaluate_timing("easeIn", x)
    assert type(y) is float
    assert y == pytest.approx(bezier_solve(0.42, 0.0, 1.0, 1.0, expected_x), abs=1e-7)


@pytest.mark.parametrize("x", [np.complex128(0.5), np.str_("0.5"), np.bytes_(b"0.5"), np.datetime64("2020-01-01")])
def test_numpy_scalars_that_are_not_real_are_type_errors(x):
    with pytest.raises(TypeError):
        cadence.evaluate_timing("linear", x)


def test_a_0d_array_keeps_its_shape():
    # (documented: arrays of any shape, 0-d included, return an array of that shape)
    y = cadence.evaluate_timing("easeIn", np.array(True))
    assert isinstance(y, np.ndarray) and y.shape == () and float(y) == 1.0
