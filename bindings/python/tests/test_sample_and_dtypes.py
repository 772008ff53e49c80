"""Shapes and layouts of the numpy outputs: sample() of no layers, EVENT_DTYPE."""
from __future__ import annotations

import ctypes

import pytest

import cadence
from cadence import Animation, lib

np = pytest.importorskip("numpy")

# Component counts of key paths (SEMANTICS.md §2): a point 2, a 4x4 matrix 16, a
# colour 4, a rect 4, sub-keys 1 or their own shape.
COMPONENTS = {"position": 2, "transform": 16, "opacity": 1, "backgroundColor": 4, "bounds": 4, "bounds.size": 2,
              "position.x": 1, "transform.rotation.z": 1, "contents": 1, "hidden": 1, "shadowOffset": 2,
              "sublayerTransform": 16, "fillMode": 1}


def test_sample_of_no_layers_has_the_key_paths_shape(engine):
    # before any other sample, and with no layer in the engine at all
    for kp, k in COMPONENTS.items():
        assert engine.sample([], kp).shape == (0, k), kp
        assert engine.sample(np.array([], dtype=np.uint64), kp).shape == (0, k), kp
    assert engine.layer_count == 0  # nothing left behind
    with pytest.raises(cadence.UnknownKeyPathError):
        engine.sample([], "bogus")


def test_sample_of_no_layers_does_not_depend_on_history(engine):
    layer = engine.create_layer(position=(3, 4))
    engine.tick(0.0)
    first = engine.sample([], "position")
    assert engine.sample([layer], "position").tolist() == [[3.0, 4.0]]
    assert engine.sample([], "position").shape == first.shape == (0, 2)
    assert engine.sample([], "opacity").shape == (0, 1)
    assert engine.layer_count == 1 and list(engine.poll_events()) == []
    assert engine.sample([layer], "transform").shape == (1, 16)


# The C struct cad_event (include/cadence.h), laid out by the C rules: int32_t kind,
# int32_t finished, cad_layer (uint64_t) layer, int64_t tag, double time, char key[64].
EVENT_LAYOUT = {"kind": ("<i4", 0), "finished": ("<i4", 4), "layer": ("<u8", 8), "tag": ("<i8", 16),
                "time": ("<f8", 24), "key": ("S64", 32)}


def test_event_dtype_matches_cad_event():
    dt = cadence.EVENT_DTYPE
    assert dt.itemsize == 96 == ctypes.sizeof(cadence.cad_event) == lib.cad_sizeof_event()
    assert dt.names == tuple(EVENT_LAYOUT)
    for name, (fmt, offset) in EVENT_LAYOUT.items():
        assert dt.fields[name][0] == np.dtype(fmt), name
        assert dt.fields[name][1] == offset == getattr(cadence.cad_event, name).offset, name


def test_render_item_dtype_keeps_the_struct_layout():
    dt = cadence.RENDER_ITEM_DTYPE
    assert dt.itemsize == ctypes.sizeof(cadence.cad_render_item) == lib.cad_sizeof_render_item()
    for name, ctype in cadence.cad_render_item._fields_:
        assert dt.fields[name][1] == getattr(cadence.cad_render_item, name).offset
        assert dt.fields[name][0].itemsize == ctypes.sizeof(ctype)


def test_events_read_through_event_dtype(engine):
    layer = engine.create_layer()
    engine.tick(0.0)
    layer.add_animation(Animation.basic(engine, "opacity", to=0.0, duration=1.0, tag=7), "fade")
    engine.tick(2.0)
    ev = np.zeros(4, dtype=cadence.EVENT_DTYPE)
    n = ctypes.c_int32()
    st = lib.cad_engine_poll_events(engine.pointer, ev.ctypes.data_as(ctypes.POINTER(cadence.cad_event)), 4,
                                    ctypes.byref(n))
    assert st == 0 and n.value == 2
    assert ev["key"].shape == (4,)
    assert ev["key"][:2].tolist() == [b"fade", b"fade"]
    assert ev["kind"][:2].tolist() == [cadence.EventKind.START, cadence.EventKind.STOP]
    assert ev["tag"][:2].tolist() == [7, 7] and ev["layer"][0] == layer.handle
    assert ev["time"][:2].tolist() == [0.0, 1.0]
