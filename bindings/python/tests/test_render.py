"""Frame output: the render list (numpy zero-copy and plain ctypes) and sample()."""
from __future__ import annotations

import ctypes

import pytest

import cadence
from cadence import Animation, ItemFlag, Transform3D

try:
    import numpy as np
except ImportError:  # the numpy tests are skipped; the plain-ctypes ones still run
    np = None

needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")
T = Transform3D.translation


def local_matrix(l, parent=None):
    """SEMANTICS.md §2.2 written out (row vectors: a.concat(b) = a * b)."""
    bx, by, bw, bh = l.bounds
    ax, ay = l.anchor_point
    az = l.anchor_point_z
    px, py = l.position
    m = T(-(bx + ax * bw), -(by + ay * bh), -az).concat(l.transform).concat(T(px, py, l.z_position + az))
    if parent is not None:
        pbx, pby, pbw, pbh = parent.bounds
        pax, pay = parent.anchor_point
        anchor = (pbx + pax * pbw, pby + pay * pbh, parent.anchor_point_z)
        m = m.concat(T(*[-v for v in anchor])).concat(parent.sublayer_transform).concat(T(*anchor))
    return m


@needs_numpy
def test_dtype_is_built_from_the_ctypes_struct():
    dt = cadence.RENDER_ITEM_DTYPE
    assert dt == np.dtype(cadence.cad_render_item)
    assert dt.itemsize == ctypes.sizeof(cadence.cad_render_item) == cadence.lib.cad_sizeof_render_item()
    assert dt.names == tuple(f for f, _, _ in cadence._abi.STRUCTS["cad_render_item"])
    assert dt["world"].shape == (16,) and dt["world"].base == np.float32
    assert dt["layer"] == np.uint64 and dt["parent"] == np.int32
    for name, _, count in cadence._abi.STRUCTS["cad_render_item"]:
        assert dt.fields[name][1] == getattr(cadence.cad_render_item, name).offset


@needs_numpy
def test_world_translation_example(engine):
    l = engine.create_layer(position=(10, 20), bounds=(0, 0, 4, 4), anchor_point=(0.5, 0.5))
    items = engine.render_list(l)
    assert items.dtype == cadence.RENDER_ITEM_DTYPE and len(items) == 1
    it = items[0]
    assert it["world"][12] == 8 and it["world"][13] == 18  # m41, m42
    assert it["layer"] == l.handle and it["parent"] == -1
    assert tuple(it["bounds"]) == (0, 0, 4, 4)


@needs_numpy
def test_fields_reflect_layer_properties(engine):
    l = engine.create_layer(bounds=(1, 2, 30, 40), opacity=0.5, background_color=(1, 0.5, 0.25, 1),
                            border_color=(0, 1, 0, 0.5), shadow_color=(0, 0, 1, 1), border_width=2, corner_radius=3,
                            shadow_opacity=0.75, shadow_radius=4, shadow_offset=(1, -1),
                            contents_rect=(0, 0, 0.5, 0.5), masks_to_bounds=True, double_sided=False, contents=99)
    it = engine.render_list(l)[0]
    assert it["opacity"] == 0.5 and it["world_opacity"] == 0.5
    assert tuple(it["background_color"]) == (1, 0.5, 0.25, 1)
    assert tuple(it["border_color"]) == (0, 1, 0, 0.5) and tuple(it["shadow_color"]) == (0, 0, 1, 1)
    assert (it["border_width"], it["corner_radius"], it["shadow_opacity"], it["shadow_radius"]) == (2, 3, 0.75, 4)
    assert tuple(it["shadow_offset"]) == (1, -1) and tuple(it["contents_rect"]) == (0, 0, 0.5, 0.5)
    assert it["contents"] == 99
    assert it["flags"] & ItemFlag.MASKS_TO_BOUNDS and not it["flags"] & ItemFlag.DOUBLE_SIDED
    l.double_sided = True
    assert engine.render_list(l)[0]["flags"] & ItemFlag.DOUBLE_SIDED


@needs_numpy
def test_hierarchy_order_parents_and_world_matrices(engine):
    root = engine.create_layer(bounds=(0, 0, 200, 100), position=(100, 50), opacity=0.5)
    root["sublayerTransform.m34"] = -1 / 500
    root.anchor_point_z = 3
    a = engine.create_layer(bounds=(5, 5, 20, 10), position=(30, 40), anchor_point=(0, 1), opacity=0.5, z_position=2)
    a["transform.rotation.z"] = 0.3
    b = engine.create_layer(bounds=(0, 0, 10, 10), position=(1, 2))
    b["transform.scale"] = 2
    c = engine.create_layer(bounds=(0, 0, 4, 4), position=(7, 7))
    root.add_sublayer(a)
    root.add_sublayer(c)
    a.add_sublayer(b)
    items = engine.render_list(root)
    assert list(items["layer"]) == [root.handle, a.handle, b.handle, c.handle]  # depth first, in order
    assert list(items["parent"]) == [-1, 0, 1, 0]
    assert list(items["world_opacity"]) == pytest.approx([0.5, 0.25, 0.25, 0.5])
    w_root = local_matrix(root)
    w_a = local_matrix(a, root).concat(w_root)
    w_b = local_matrix(b, a).concat(w_a)
    w_c = local_matrix(c, root).concat(w_root)
    for it, w in zip(items, (w_root, w_a, w_b, w_c)):
        assert list(it["world"]) == pytest.approx(list(w), rel=1e-5, abs=1e-5)


@needs_numpy
def test_hidden_subtrees_and_future_layers_are_left_out(engine):
    root, a, b, c = (engine.create_layer() for _ in range(4))
    root.add_sublayer(a)
    a.add_sublayer(b)
    root.add_sublayer(c)
    a.hidden = True
    assert list(engine.render_list(root)["layer"]) == [root.handle, c.handle]
    a.hidden = False
    c.begin_time = 10  # not begun yet (§3.1)
    assert list(engine.render_list(root)["layer"]) == [root.handle, a.handle, b.handle]
    c.fill_mode = "backwards"
    assert list(engine.render_list(root)["layer"])[-1] == c.handle
    root.hidden = True
    assert len(engine.render_list(root)) == 0


@needs_numpy
def test_render_list_is_zero_copy_and_reused(engine):
    root = engine.create_layer()
    a = engine.render_list(root)
    b = engine.render_list(root)
    assert np.shares_memory(a, b)  # one buffer per engine and root, written by the library
    keep = engine.render_list(root, copy=True)
    assert not np.shares_memory(keep, b)
    root.opacity = 0.25
    engine.render_list(root)
    assert a[0]["opacity"] == 0.25 and keep[0]["opacity"] == 1.0


@needs_numpy
def test_render_list_copy_never_writes_into_the_shared_buffer(engine):
    # copy=True renders into an array of its own: a view of the shared buffer (another
    # thread's, say) is not rewritten by it, and it cannot race with another thread's
    # call rewriting that buffer (README "Threads").
    root = engine.create_layer(opacity=0.5)
    view = engine.render_list(root)
    root.opacity = 0.25
    own = engine.render_list(root, copy=True)
    assert own.dtype == cadence.RENDER_ITEM_DTYPE and len(own) == 1 and own.flags.owndata
    assert own[0]["opacity"] == 0.25 and view[0]["opacity"] == 0.5
    assert not np.shares_memory(own, view)
    again = engine.render_list(root)        # the plain call still rewrites the shared buffer
    assert np.shares_memory(again, view) and view[0]["opacity"] == 0.25
    # More items than the shared buffer holds: one private array of exactly n items.
    for i in range(100):
        root.add_sublayer(engine.create_layer(position=(i, 0)))
    own = engine.render_list(root, copy=True)
    assert len(own) == 101 and own.flags.owndata and own["world"][1:, 12].tolist() == list(map(float, range(100)))
    assert view[0]["opacity"] == 0.25 and len(engine.render_list(root)) == 101


@needs_numpy
def test_render_list_views_of_a_replaced_buffer_are_no_longer_rewritten(engine):
    # README "numpy": a view stops being rewritten once its root's buffer is replaced
    # (grown, or dropped after 32 other roots' buffers were made).
    root = engine.create_layer(opacity=0.5)
    old = engine.render_list(root)
    for _ in range(80):                     # more than the first buffer holds: a new one
        root.add_sublayer(engine.create_layer())
    root.opacity = 0.25
    assert len(engine.render_list(root)) == 81 and old[0]["opacity"] == 0.5
    view = engine.render_list(root)
    others = [engine.create_layer() for _ in range(32)]
    for other in others:
        engine.render_list(other)
    root.opacity = 0.75
    assert engine.render_list(root)[0]["opacity"] == 0.75 and view[0]["opacity"] == 0.25


@needs_numpy
def test_render_list_grows(engine):
    root = engine.create_layer()
    kids = [engine.create_layer(position=(i, 0)) for i in range(300)]
    for k in kids:
        root.add_sublayer(k)
    items = engine.render_list(root)
    assert len(items) == 301
    assert list(items["world"][1:, 12]) == [float(i) for i in range(300)]
    for k in kids[:200]:
        k.remove_from_superlayer()
    assert len(engine.render_list(root)) == 101


@needs_numpy
def test_render_list_follows_presentation(engine, layer):
    layer.bounds = (0, 0, 10, 10)
    layer.add_animation(Animation.basic(engine, "position.x", from_=0, to=100, duration=1), "x")
    engine.tick(0.5)
    assert engine.render_list(layer)[0]["world"][12] == pytest.approx(50 - 5)


def test_render_list_errors(engine):
    with pytest.raises(cadence.InvalidHandleError):
        engine.render_list(cadence.Layer(engine, 12345))


def test_render_list_without_numpy(engine, monkeypatch):
    monkeypatch.setattr(cadence.engine, "_np", None)
    root = engine.create_layer(position=(10, 20), bounds=(0, 0, 4, 4))
    for _ in range(70):  # more than the initial capacity
        root.add_sublayer(engine.create_layer())
    items = engine.render_list(root)
    assert isinstance(items, list) and len(items) == 71
    assert isinstance(items[0], cadence.cad_render_item)
    assert items[0].world[12] == 8 and items[0].world[13] == 18 and items[1].parent == 0


# ---- sample ------------------------------------------------------------------------

@needs_numpy
def test_sample_shape_and_values(engine):
    layers = [engine.create_layer(position=(i, 2 * i), opacity=i / 10) for i in range(5)]
    pos = engine.sample(layers, "position")
    assert pos.shape == (5, 2) and pos.dtype == np.float64
    assert pos.tolist() == [[i, 2 * i] for i in range(5)]
    op = engine.sample(layers, "opacity")
    assert op.shape == (5, 1)
    tr = engine.sample(layers, "transform")
    assert tr.shape == (5, 16) and (tr == np.eye(4).ravel()).all()
    assert engine.sample(layers, "position.y")[:, 0].tolist() == [2.0 * i for i in range(5)]


@needs_numpy
def test_sample_reads_presentation(engine):
    layers = [engine.create_layer() for _ in range(3)]
    engine.tick(0)
    for i, l in enumerate(layers):
        l.add_animation(Animation.basic(engine, "position.x", from_=0, to=10 * (i + 1), duration=1), "x")
    engine.tick(0.5)
    assert engine.sample(layers, "position.x")[:, 0].tolist() == pytest.approx([5, 10, 15])


@needs_numpy
def test_sample_from_handle_array(engine):
    layers = [engine.create_layer(opacity=0.5) for _ in range(4)]
    handles = np.array([l.handle for l in layers], dtype=np.uint64)
    out = engine.sample(handles, "opacity")
    assert out.shape == (4, 1) and (out == 0.5).all()


@needs_numpy
def test_sample_errors_fail_the_whole_call(engine):
    a = engine.create_layer()
    with pytest.raises(cadence.InvalidHandleError):
        engine.sample([a, 0], "opacity")
    with pytest.raises(cadence.UnknownKeyPathError):
        engine.sample([a], "nope")
    empty = engine.sample([], "position")
    assert empty.shape[0] == 0


def test_sample_without_numpy(engine, monkeypatch):
    layers = [engine.create_layer(position=(i, -i)) for i in range(3)]
    monkeypatch.setattr(cadence.engine, "_np", None)
    assert engine.sample(layers, "position") == [(0.0, 0.0), (1.0, -1.0), (2.0, -2.0)]
    assert engine.sample(layers, "opacity") == [(1.0,), (1.0,), (1.0,)]
