"""Exceptions per status, with the library's messages."""
from __future__ import annotations

import ctypes
import math
import pickle

import pytest

import cadence
from cadence import Animation, errors, lib
from cadence._core import check


def test_mapping_covers_every_error_status():
    codes = {v for k, v in cadence._abi.CONSTANTS.items() if k.startswith("CAD_ERR_")}
    assert set(errors.ERRORS) == codes
    expected = {
        -1: cadence.InvalidHandleError, -2: cadence.InvalidArgumentError, -3: cadence.UnknownKeyPathError,
        -4: cadence.TypeMismatchError, -5: cadence.BufferTooSmallError, -6: cadence.NotFoundError,
        -7: cadence.InvalidStateError, -8: cadence.OutOfMemoryError,
    }
    assert errors.ERRORS == expected
    for code, cls in expected.items():
        assert issubclass(cls, cadence.CadenceError)
        exc = errors.error_for_status(code, "", "words")
        assert type(exc) is cls and exc.status == code and exc.message == "words"
        assert exc.name == lib.cad_status_name(code).decode()


def test_unknown_status_gives_base_class():
    exc = errors.error_for_status(-99)
    assert type(exc) is cadence.CadenceError and exc.status == -99


def test_exceptions_pickle():
    exc = cadence.UnknownKeyPathError(-3, "CAD_ERR_UNKNOWN_KEYPATH", 'unknown key path "x"')
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is cadence.UnknownKeyPathError and back.message == exc.message and back.status == -3


def test_invalid_handle(engine, layer):
    layer.destroy()
    with pytest.raises(cadence.InvalidHandleError) as ei:
        layer.opacity
    assert ei.value.status == -1 and ei.value.name == "CAD_ERR_INVALID_HANDLE"
    assert ei.value.message  # words from cad_last_error
    with pytest.raises(cadence.InvalidHandleError):
        cadence.Layer(engine, 0).position = (1, 2)
    with pytest.raises(cadence.InvalidHandleError):
        cadence.Layer(engine, 0xDEADBEEF).opacity


def test_foreign_handle_is_invalid(engine, layer):
    other = cadence.Engine()
    try:
        with pytest.raises(cadence.InvalidHandleError):
            cadence.Layer(other, layer.handle).opacity
    finally:
        other.close()


def test_invalid_argument(engine, layer):
    with pytest.raises(cadence.InvalidArgumentError) as ei:
        layer.position = (math.nan, 0)
    assert "finite" in ei.value.message
    with pytest.raises(cadence.InvalidArgumentError):
        engine.tick(math.inf)
    engine.tick(5)
    with pytest.raises(cadence.InvalidArgumentError) as ei:
        engine.tick(4)
    assert "earlier" in ei.value.message
    child = engine.create_layer()
    layer.add_sublayer(child)
    with pytest.raises(cadence.InvalidArgumentError):  # a cycle
        child.add_sublayer(layer)
    assert isinstance(ei.value, ValueError)  # also a ValueError for Python code


def test_unknown_key_path(layer):
    with pytest.raises(cadence.UnknownKeyPathError) as ei:
        layer["bogus"]
    assert ei.value.status == -3 and "bogus" in ei.value.message
    assert "bogus" in str(ei.value)
    with pytest.raises(cadence.UnknownKeyPathError):
        layer["position.z"] = 1


def test_type_mismatch(layer):
    with pytest.raises(cadence.TypeMismatchError) as ei:
        layer.position = (1, 2, 3)
    assert ei.value.status == -4 and "position" in ei.value.message
    with pytest.raises(cadence.TypeMismatchError):
        layer["opacity"] = (1, 2)


def test_buffer_too_small_through_the_raw_table(engine, layer):
    out = (ctypes.c_double * 1)()
    n = ctypes.c_int32()
    st = lib.cad_layer_get(engine.pointer, layer.handle, b"position", out, 1, ctypes.byref(n))
    assert st == cadence.Status.BUFFER_TOO_SMALL and n.value == 2
    with pytest.raises(cadence.BufferTooSmallError) as ei:
        check(st)
    assert ei.value.message


def test_not_found(layer):
    with pytest.raises(cadence.NotFoundError) as ei:
        layer.remove_animation("nothing-here")
    assert ei.value.status == -6
    assert layer.animation_for_key("nothing-here") is None


def test_invalid_state(engine, layer):
    with pytest.raises(cadence.InvalidStateError) as ei:
        engine.commit_transaction()
    assert "begin" in ei.value.message
    a = Animation.basic(engine, "opacity", from_=0, to=1, by=1)
    with pytest.raises(cadence.InvalidStateError):
        layer.add_animation(a)
    b = Animation.basic(engine, "opacity", from_=0, to=1, duration=10)
    layer.add_animation(b, "b")
    view = layer.animation_for_key("b")
    assert view is not None and view.readonly
    with pytest.raises(cadence.InvalidStateError):
        view.duration = 2
    with pytest.raises(cadence.InvalidStateError):  # spring parameters on a basic animation
        b.set_spring(1, 100, 10, 0)


def test_message_is_read_for_the_failing_call(layer):
    with pytest.raises(cadence.UnknownKeyPathError) as e1:
        layer["nope.one"]
    with pytest.raises(cadence.TypeMismatchError) as e2:
        layer["opacity"] = (1, 2)
    assert "nope.one" in e1.value.message
    assert "nope.one" not in e2.value.message


def test_tick_wants_a_number(engine):
    for bad in ("1", object(), [1.0]):
        with pytest.raises(TypeError):
            engine.tick(bad)
    engine.tick(2)          # ints are numbers
    assert engine.now == 2


def test_use_after_close(engine):
    l = engine.create_layer()
    a = Animation.basic(engine, "opacity", to=1)
    engine.close()
    engine.close()  # harmless
    assert engine.closed
    for action in (lambda: engine.tick(1), lambda: engine.now, lambda: l.opacity, lambda: engine.create_layer(),
                   lambda: setattr(a, "duration", 1), lambda: a.duration, lambda: a.to_value,
                   lambda: list(engine.poll_events()),
                   lambda: engine.render_list(l), lambda: engine.sample([l], "opacity"),
                   lambda: engine.transaction().__enter__()):
        with pytest.raises(cadence.ClosedError):
            action()
    a.close()  # closing an animation of a closed engine is harmless
    assert isinstance(cadence.ClosedError(), cadence.InvalidStateError)


def test_engine_context_manager_and_gc():
    with cadence.Engine() as e:
        e.create_layer()
    assert e.closed
    e2 = cadence.Engine()
    e2.create_layer()
    del e2  # __del__ closes; nothing to observe but no crash
    import gc
    gc.collect()


def test_animation_close_twice_and_use_after(engine):
    with Animation.basic(engine, "opacity", to=1) as a:
        a.duration = 1
    assert a.closed
    a.close()
    with pytest.raises(cadence.ClosedError):
        a.duration = 2
