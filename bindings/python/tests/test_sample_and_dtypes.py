"""Shapes and layouts of the numpy outputs: sample() (of no layers, of handle arrays of any
layout), the key-path table, EVENT_DTYPE and RENDER_ITEM_DTYPE."""
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


# ---- audit 36 ----------------------------------------------------------------------------

def test_sample_takes_unaligned_and_strided_handle_arrays(engine):
    # Handles read from a binary message (np.frombuffer at an odd offset) are a valid
    # uint64 array that is not aligned; C reads aligned handles, so the binding copies.
    layers = [engine.create_layer(opacity=0.25 * (i + 1)) for i in range(3)]
    engine.tick(0.0)
    expected = [[0.25], [0.5], [0.75]]
    h = np.array([l.handle for l in layers], dtype=np.uint64)
    raw = bytearray(1 + h.nbytes)
    raw[1:] = h.tobytes()
    unaligned = np.frombuffer(raw, dtype=np.uint64, offset=1)
    assert not unaligned.flags.aligned and np.array_equal(unaligned, h)
    assert engine.sample(unaligned, "opacity").tolist() == expected
    raw_i = bytearray(3 + h.nbytes)
    raw_i[3:] = h.astype(np.int64).tobytes()
    assert engine.sample(np.frombuffer(raw_i, dtype=np.int64, offset=3), "opacity").tolist() == expected
    strided = np.stack([h, h[::-1]], axis=1)[:, 0]
    assert not strided.flags.c_contiguous
    assert engine.sample(strided, "opacity").tolist() == expected
    assert engine.sample(h.reshape(3, 1), "opacity").tolist() == expected
    assert engine.sample(np.array(h[1]), "opacity").tolist() == [[0.5]]  # 0-d: one handle


def test_sample_of_no_layers_changes_nothing_in_the_engine(engine):
    # A C host's cad_engine_sample of no layers creates nothing: the next layer takes the
    # next slot in its first generation, and generated keys count on from the layers
    # created and the animations added (cadence.anim.<n>), so replays match the host.
    a = engine.create_layer()
    engine.tick(0.0)
    for kp in COMPONENTS:
        assert engine.sample([], kp).shape == (0, COMPONENTS[kp])
        assert engine.sample(np.array([], dtype=np.uint64), kp).shape == (0, COMPONENTS[kp])
    with pytest.raises(cadence.UnknownKeyPathError):
        engine.sample([], "frame.origin")
    b = engine.create_layer()
    assert b.handle == a.handle + 1
    a.add_animation(Animation.basic(engine, "opacity", to=0.0))
    assert a.animation_keys() == ["cadence.anim.3"]  # layers 1 and 2, then this add
    assert engine.layer_count == 2 and list(engine.poll_events()) == []


# Every key path (SEMANTICS.md §2 and §2.3) with its component count, written out.
_SUB = {"point": {"x": 1, "y": 1}, "size": {"width": 1, "height": 1},
        "rect": {"origin": 2, "origin.x": 1, "origin.y": 1, "size": 2, "size.width": 1, "size.height": 1},
        "color": {"r": 1, "g": 1, "b": 1, "a": 1},
        "transform": {"rotation": 1, "rotation.x": 1, "rotation.y": 1, "rotation.z": 1, "scale": 1, "scale.x": 1,
                      "scale.y": 1, "scale.z": 1, "translation": 2, "translation.x": 1, "translation.y": 1,
                      "translation.z": 1, **{f"m{r}{c}": 1 for r in "1234" for c in "1234"}}}
_KINDS = {"position": ("point", 2), "anchorPoint": ("point", 2), "shadowOffset": ("size", 2),
          "bounds": ("rect", 4), "contentsRect": ("rect", 4), "backgroundColor": ("color", 4),
          "borderColor": ("color", 4), "shadowColor": ("color", 4), "transform": ("transform", 16),
          "sublayerTransform": ("transform", 16)}
ALL_KEY_PATHS = {"frame": 4, "contents": 1}
ALL_KEY_PATHS.update({kp: 1 for kp in ("zPosition", "anchorPointZ", "opacity", "hidden", "borderWidth", "cornerRadius",
                                       "shadowOpacity", "shadowRadius", "masksToBounds", "doubleSided", "beginTime",
                                       "speed", "timeOffset", "duration", "repeatCount", "repeatDuration",
                                       "autoreverses", "fillMode")})
for _kp, (_kind, _n) in _KINDS.items():
    ALL_KEY_PATHS[_kp] = _n
    ALL_KEY_PATHS.update({f"{_kp}.{sub}": n for sub, n in _SUB[_kind].items()})


def test_the_bindings_key_path_table_is_the_librarys(engine):
    from cadence.layer import KEY_PATH_COMPONENTS
    assert {k.decode(): n for k, n in KEY_PATH_COMPONENTS.items()} == ALL_KEY_PATHS
    layer = engine.create_layer()
    engine.tick(0.0)
    for kp, n in ALL_KEY_PATHS.items():
        v = layer.get(kp)                   # C says how many components it wrote
        assert (1 if isinstance(v, float) else len(v)) == n, kp
    for kp in ("frame.origin", "frame.size.width", "position.z", "transform.m00", "transform.m15", "transform.m51",
               "transform.rotation.w", "transform.translation.w", "opacity.x", "contents.x", "beginTime.x",
               "backgroundColor.x", "bounds.size.depth", "shadowOffset.x", "fillMode.x", "Position", "position."):
        with pytest.raises(cadence.UnknownKeyPathError):
            layer.get(kp)


def test_sample_learns_a_key_path_the_table_lacks(engine, monkeypatch):
    # A key path of a newer library than the table: its shape comes from C's
    # BUFFER_TOO_SMALL reply (one more call), then from the engine's cache.
    import cadence.engine as engine_module
    table = {k: n for k, n in engine_module.KEY_PATH_COMPONENTS.items() if k != b"position"}
    monkeypatch.setattr(engine_module, "KEY_PATH_COMPONENTS", table)
    with pytest.raises(cadence.InvalidStateError):
        engine.sample([], "position")
    l = engine.create_layer(position=(3, 4))
    engine.tick(0.0)
    assert engine.sample([l, l], "position").tolist() == [[3.0, 4.0]] * 2
    assert engine.sample([], "position").shape == (0, 2)


# The C rules for struct layout: each field at the next multiple of its alignment
# (its scalar's size), the struct aligned to its widest field, the size a multiple of it.
_C_SIZES = {"int32_t": 4, "uint64_t": 8, "int64_t": 8, "double": 8, "float": 4, "char": 1, "cad_layer": 8}


def _c_layout(fields):
    offsets, end, align = {}, 0, 1
    for name, ctype, count in fields:
        size = _C_SIZES[ctype]
        end = -(-end // size) * size
        offsets[name] = end
        end += size * max(count, 1)
        align = max(align, size)
    return offsets, -(-end // align) * align, align


@pytest.mark.parametrize("struct, dtype_name", [("cad_event", "EVENT_DTYPE"), ("cad_render_item", "RENDER_ITEM_DTYPE")])
def test_struct_dtypes_are_aligned_as_in_c(struct, dtype_name):
    import json
    from pathlib import Path
    header = Path(__file__).resolve().parents[3] / "include" / "cadence.json"
    if not header.exists():
        pytest.skip("include/cadence.json is not in this tree")
    offsets, size, align = _c_layout(json.loads(header.read_text())["structs"][struct])
    dt = getattr(cadence, dtype_name)
    assert dt.isalignedstruct and dt.alignment == align == 8
    assert dt.itemsize == size and {n: dt.fields[n][1] for n in dt.names} == offsets
    buf = np.zeros(5, dtype=dt)
    assert buf.flags.aligned and buf.ctypes.data % 8 == 0
