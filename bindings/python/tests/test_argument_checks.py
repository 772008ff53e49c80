"""Arguments the binding must check itself because ctypes would wrap or truncate them
(int32/int64/uint64 ranges, bools), and the bookkeeping fixes of the audit: ragged
keyframes, closed animations, callback lifetimes, orphan layers, spring durations,
exact ``layer["contents"]``."""
from __future__ import annotations

import gc
import math
import weakref

import pytest

import cadence
from cadence import Animation, EventKind, Layer
from conftest import approx

np = pytest.importorskip("numpy")


def _settling_envelope(m, k, c, v0):
    # SEMANTICS.md §6, for zeta < 1: ln((1 + |B|) / 0.001) / (zeta w0), B = (zeta w0 - v0) / wd
    w0 = math.sqrt(k / m)
    zeta = c / (2 * math.sqrt(k * m))
    wd = w0 * math.sqrt(1 - zeta * zeta)
    return math.log((1 + abs((zeta * w0 - v0) / wd)) / 0.001) / (zeta * w0)


# ---- 1. int32 arguments ------------------------------------------------------------

def test_insert_sublayer_index_is_a_checked_int32(engine):
    root, a, b = engine.create_layer(), engine.create_layer(), engine.create_layer()
    root.add_sublayer(a)
    # 2**32 would wrap to 0 and 2**33 + 1 to 1 through ctypes, both valid indexes.
    for bad in (2 ** 32, 2 ** 33 + 1, -2 ** 31 - 1, 2.7, 1.0):
        with pytest.raises(cadence.InvalidArgumentError):
            root.insert_sublayer(b, bad)
    for wrong in ("1", None):
        with pytest.raises(TypeError):
            root.insert_sublayer(b, wrong)
    assert root.sublayers == [a] and b.superlayer is None
    root.insert_sublayer(b, np.int64(0))  # numpy integers are integers
    assert root.sublayers == [b, a]


def test_event_capacity_is_a_checked_int32(engine, layer):
    with pytest.raises(cadence.InvalidArgumentError):
        engine.set_event_capacity(2 ** 32)  # would wrap to 0: keep no events
    with pytest.raises(cadence.InvalidArgumentError):
        engine.set_event_capacity(2.5)
    with pytest.raises(TypeError):
        engine.set_event_capacity("8")
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=0.1), "k")
    engine.tick(1.0)
    assert len(list(engine.poll_events())) == 2 and engine.events_dropped == 0  # default capacity kept


def test_reserve_checks_its_counts_and_changes_no_result(engine):
    for layers, animations in ((-1, 0), (0, -1), (2 ** 20 + 1, 0), (0, 2 ** 32 + 5), (2.5, 1)):
        with pytest.raises(cadence.InvalidArgumentError):
            engine.reserve(layers, animations)
    for wrong in ("8", None, True):
        with pytest.raises(TypeError):
            engine.reserve(wrong, 8)
    engine.reserve(100, 100)
    engine.reserve(2 ** 20, 0)  # the limit
    engine.reserve(1, 1)  # below what it holds: nothing changes
    root = engine.create_layer()
    leaf = engine.create_layer()
    root.add_sublayer(leaf)
    leaf["position"] = (10.0, 20.0)
    leaf.add_animation(Animation.basic(engine, "position", from_=(0.0, 0.0), to=(100.0, 50.0), duration=2), "m")
    engine.tick(0.5)  # a quarter of the way
    assert leaf.presentation("position") == pytest.approx((25.0, 12.5), abs=1e-12)


def test_steps_count_is_a_checked_int32(engine, layer):
    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=1)
    for bad in (2 ** 32 + 3, 2.7, 3.0):  # 2**32 + 3 would wrap to 3 steps, 2.7 truncate to 2
        with pytest.raises(cadence.InvalidArgumentError):
            a.timing_function = ("steps", bad, "end")
    with pytest.raises(TypeError):
        a.timing_function = ("steps", "2", "end")
    assert a.timing_function is None
    a.timing_function = ("steps", np.int32(4), "end")  # floor(4 p) / 4
    layer.add_animation(a, "s")
    engine.tick(0.3)
    assert layer.presentation("opacity") == pytest.approx(0.25)


# ---- 2. tag --------------------------------------------------------------------------

def test_tag_is_a_checked_int64(engine, layer):
    a = Animation.basic(engine, "opacity", to=0, duration=1)
    for bad in (2 ** 63, -2 ** 63 - 1, 2 ** 64 + 5, 1.9, 7.0):
        with pytest.raises(cadence.InvalidArgumentError):
            a.tag = bad
    for wrong in ("7", None):
        with pytest.raises(TypeError):
            a.tag = wrong
    assert a.tag == 0
    got = []
    a.tag = 2 ** 63 - 1
    a.on_event(lambda ev: got.append(ev.tag))
    layer.add_animation(a, "t")
    engine.tick(0.1)
    assert a.tag == 2 ** 63 - 1 and got == [2 ** 63 - 1]
    assert [ev.tag for ev in engine.poll_events()] == [2 ** 63 - 1]
    a.tag = -2 ** 63
    assert a.tag == -2 ** 63


# ---- 3. layer handles ----------------------------------------------------------------

def test_layer_handles_outside_uint64_are_refused(engine):
    l = engine.create_layer(opacity=0.25)
    other = engine.create_layer()
    engine.tick(0.0)
    for bad in (2 ** 64 + l.handle, l.handle - 2 ** 64, -1):  # would wrap to l (or 2**64 - 1)
        with pytest.raises(cadence.InvalidArgumentError):
            engine.layer(bad)
        with pytest.raises(cadence.InvalidArgumentError):
            Layer(engine, bad)
        with pytest.raises(cadence.InvalidArgumentError):
            other.add_sublayer(bad)
        with pytest.raises(cadence.InvalidArgumentError):
            engine.sample([bad], "opacity")
        with pytest.raises(cadence.InvalidArgumentError):
            engine.convert_time(1.0, bad)
    with pytest.raises(TypeError):
        engine.layer("1")
    assert other.sublayers == []
    assert engine.layer(l.handle).opacity == 0.25
    assert engine.sample([l.handle, l], "opacity").tolist() == [[0.25], [0.25]]


def test_sample_requires_integer_handle_arrays(engine):
    l = engine.create_layer(opacity=0.25)
    engine.tick(0.0)
    with pytest.raises(TypeError):
        engine.sample(np.array([float(l.handle)]), "opacity")  # a float cannot hold a handle exactly
    with pytest.raises(TypeError):
        engine.sample(np.array([True]), "opacity")
    with pytest.raises(cadence.InvalidArgumentError):
        engine.sample(np.array([l.handle, -1], dtype=np.int64), "opacity")
    assert engine.sample(np.array([l.handle], dtype=np.int64), "opacity").tolist() == [[0.25]]
    assert engine.sample(np.array([l.handle], dtype=np.uint64), "opacity").tolist() == [[0.25]]


# ---- 4. ragged keyframes ------------------------------------------------------------

def test_ragged_keyframe_values_are_refused(engine):
    # 1 + 3 + 2 = 6 numbers would otherwise be regrouped as 3 points.
    with pytest.raises(cadence.InvalidArgumentError, match="same number of components"):
        Animation.keyframe(engine, "position", values=[(0,), (10, 20, 30), (40, 50)], duration=1)
    a = Animation.keyframe(engine, "position", values=[(0, 0), (10, 20)], duration=1)
    with pytest.raises(cadence.InvalidArgumentError):
        a.values = [(1, 2, 3, 4), (5, 6)]  # 6 numbers for 3 points
    assert a.values == ((0.0, 0.0), (10.0, 20.0))  # unchanged (read back as the tuple sent to C)
    with pytest.raises(cadence.TypeMismatchError):  # consistent rows, wrong count for the key path
        a.values = [(1, 2, 3), (4, 5, 6)]


# ---- 5. closed animations -------------------------------------------------------------

def test_closed_animations_are_refused_with_closed_error(engine, layer):
    c = Animation.basic(engine, "opacity", duration=10)
    c.close()
    with pytest.raises(cadence.ClosedError):
        layer.set_action("opacity", c)  # handle 0 would mean "no action"
    with pytest.raises(cadence.ClosedError):
        layer.add_animation(c, "c")
    with pytest.raises(cadence.ClosedError):
        Animation.group(engine, [c])
    # The default action still runs.
    layer.opacity = 0.0
    assert layer.animation_count == 1


# ---- 6. booleans ------------------------------------------------------------------------

def test_layer_bools_follow_the_c_conversion(engine):
    l = engine.create_layer()
    for name in ("hidden", "masksToBounds", "double_sided"):
        for v, expected in ((True, True), (False, False), (2, True), (0.5, True), (0.0, False), (0, False),
                            (np.bool_(True), True), (-1, True)):
            setattr(l, name, v)
            assert getattr(l, name) is expected, (name, v)
        setattr(l, name, False)
        for bad in (math.nan, math.inf):
            with pytest.raises(cadence.InvalidArgumentError):
                setattr(l, name, bad)
        for wrong in ("no", None, (1,)):
            with pytest.raises(TypeError):
                setattr(l, name, wrong)
        assert getattr(l, name) is False  # unchanged by the refused values


def test_animation_bools_follow_the_c_conversion(engine):
    a = Animation.basic(engine, "opacity", to=0)
    for name in ("autoreverses", "removed_on_completion", "additive", "cumulative"):
        setattr(a, name, 0.5)
        assert getattr(a, name) is True
        setattr(a, name, 0)
        assert getattr(a, name) is False
        with pytest.raises(cadence.InvalidArgumentError):
            setattr(a, name, math.nan)
        with pytest.raises(TypeError):
            setattr(a, name, "no")
        assert getattr(a, name) is False
    with pytest.raises(TypeError):
        Animation.basic(engine, "opacity", autoreverses="yes")


# ---- 7. callback lifetimes ---------------------------------------------------------------

def test_callbacks_of_closed_animations_are_released(engine):
    for _ in range(50):
        Animation.basic(engine, "opacity", to=0, on_event=lambda ev: None).close()
    assert engine._callbacks == {}
    a = Animation.basic(engine, "opacity", to=0)
    a.on_event(lambda ev: None)
    a.on_event(lambda ev: None)  # replaced, not accumulated
    assert len(engine._callbacks) == 1
    a.on_event(None)
    assert engine._callbacks == {}
    # A failing constructor option (after on_event) leaves nothing registered.
    with pytest.raises(cadence.InvalidArgumentError):
        Animation.basic(engine, "opacity", on_event=print, duration=-1)
    assert engine._callbacks == {}


def test_failed_callback_registration_is_released(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=5), "v")
    view = layer.animation_for_key("v")
    with pytest.raises(cadence.InvalidStateError):
        view.on_event(lambda ev: None)  # attached copies are read-only
    assert engine._callbacks == {}


def test_attached_copy_keeps_its_callback_after_close(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", to=0, duration=1, on_event=lambda ev: got.append(("a", ev.kind)))
    layer.add_animation(a, "x")
    a.on_event(lambda ev: got.append(("b", ev.kind)))  # copies attached before keep the first callback
    layer.add_animation(a, "y")
    a.close()
    assert len(engine._callbacks) == 2  # both attached copies can still call
    engine.tick(0.5)
    engine.tick(2.0)
    assert sorted(got) == sorted([("a", EventKind.START), ("a", EventKind.STOP),
                                  ("b", EventKind.START), ("b", EventKind.STOP)])
    assert engine._callbacks == {}  # every copy reported its stop: nothing can call any more


def test_removed_copy_releases_its_callback_after_its_stop(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", to=0, duration=1, begin_time=100, on_event=lambda ev: got.append(ev.finished))
    layer.add_animation(a, "x")
    layer.add_animation(a, "y")
    a.close()
    layer.remove_animation("x")
    engine.tick(0.1)
    assert got == [False] and len(engine._callbacks) == 1  # "y" is still attached
    layer.destroy()
    engine.tick(0.2)
    assert got == [False, False] and engine._callbacks == {}


def test_action_callbacks_stay_while_the_action_can_run(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", duration=0.5, on_event=lambda ev: got.append(ev.kind))
    layer.set_action("opacity", a)
    a.close()
    for i, t in enumerate((1.0, 3.0)):
        layer.opacity = 0.5 * i
        engine.tick(t)
        engine.tick(t + 1.0)
    assert got == [EventKind.START, EventKind.STOP] * 2


def _callback_state(engine):
    """Every record the engine keeps for animation callbacks (the callbacks by id and
    the sets/dicts that keep ids alive), whatever their names."""
    return {name: value for name, value in vars(engine).items()
            if (name == "_callbacks" or name.startswith("_cb_")) and isinstance(value, (dict, set))}


def _recorder(log, name):
    def cb(ev):
        log.append((name, ev.kind, ev.finished))
    return cb


def test_replaced_action_callbacks_are_released(engine, layer):
    # A new action animation (with its own callback) per interaction: each callback
    # goes once nothing can call it any more, instead of living as long as the engine.
    stops, refs = [], []
    t = 0.0
    for i in range(1000):
        def cb(ev, i=i):
            if ev.kind == EventKind.STOP:
                stops.append((i, ev.finished))
        refs.append(weakref.ref(cb))
        a = Animation.basic(engine, "opacity", duration=0.02 + 0.03 * (i % 2), on_event=cb)
        layer.set_action("opacity", a)
        a.close()
        del cb, a
        layer.opacity = 0.25 + 0.5 * (i % 2)  # runs the action: one copy, one stop event
        if i % 3:
            t += 0.01 * (i % 4)
            engine.tick(t)
    engine.tick(t + 1.0)
    engine.tick(t + 2.0)
    # Every copy reported exactly one stop through its callback (replaced ones too).
    assert sorted(i for i, _ in stops) == list(range(1000))
    assert any(f for _, f in stops) and not all(f for _, f in stops)
    state = _callback_state(engine)
    assert len(engine._callbacks) <= 2, {k: len(v) for k, v in state.items()}
    assert sum(len(v) for v in state.values()) <= 8, {k: len(v) for k, v in state.items()}
    gc.collect()
    assert sum(r() is not None for r in refs) <= 1  # at most the current action's
    layer.set_action("opacity", None)
    engine.tick(t + 3.0)
    engine.tick(t + 4.0)
    gc.collect()
    assert all(r() is None for r in refs) and engine._callbacks == {}


def test_action_callbacks_replaced_on_long_lived_descriptions_are_released(engine, layer):
    # Two descriptions set in turn, each given a new callback before each use.
    a = Animation.basic(engine, "position", duration=0.05)
    b = Animation.spring(engine, "position", duration=0.05)
    refs, count = [], [0]
    for i in range(300):
        def cb(ev):
            count[0] += ev.kind == EventKind.STOP
        refs.append(weakref.ref(cb))
        d = (a, b)[i % 2]
        d.on_event(cb)
        layer.set_action("position", d)
        del cb
        layer.position = (i, -i)
        engine.tick(0.1 * (i + 1))
    engine.tick(100.0)
    assert count[0] == 300
    gc.collect()
    assert sum(r() is not None for r in refs) <= 2  # the callbacks a and b hold now
    assert len(engine._callbacks) <= 3


def test_a_copy_running_when_its_action_is_replaced_still_reports(engine, layer):
    log = []
    a = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "a"))
    b = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "b"))
    layer.set_action("opacity", a)
    layer.opacity = 0.5                          # a's copy runs from 0 to 1.0
    engine.tick(0.25)
    layer.set_action("opacity", b)               # replaced while a's copy runs
    a.close()
    del a
    gc.collect()
    engine.tick(0.5)
    engine.tick(0.75)
    assert log == [("a", EventKind.START, False)]
    engine.tick(2.5)                             # a's copy ends: through a's callback
    assert log[-1] == ("a", EventKind.STOP, True)
    # A copy replaced by the next action's copy reports stop(False) through its own.
    layer.opacity = 0.2                          # b's copy
    engine.tick(3.0)
    c = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "c"))
    layer.set_action("opacity", c)
    b.close()
    layer.opacity = 0.7                          # c's copy replaces b's
    engine.tick(3.1)
    assert ("b", EventKind.STOP, False) in log and log.count(("b", EventKind.STOP, False)) == 1
    # Cleared while a copy runs, and removed before the action is cleared: the stops
    # still arrive (the second one was pending when the action went away).
    layer.clear_action("opacity")
    c.close()
    engine.tick(5.0)
    assert log[-1] == ("c", EventKind.STOP, True)
    d = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "d"))
    layer.set_action("opacity", d)
    d.close()
    layer.opacity = 0.1
    layer.remove_animation("opacity")            # stop(False) pending until the next tick
    layer.set_action("opacity", None)
    engine.tick(6.0)
    assert log[-1] == ("d", EventKind.STOP, False)
    # Two copies of one action, the first replaced by the second: both stops arrive.
    e = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "e"))
    layer.set_action("opacity", e)
    e.close()
    layer.opacity = 0.3
    layer.opacity = 0.4                          # the first copy's stop is pending
    layer.set_action("opacity", None)
    engine.tick(6.5)
    engine.tick(8.0)
    assert log.count(("e", EventKind.STOP, False)) == 1 and log.count(("e", EventKind.STOP, True)) == 1
    engine.tick(9.0)
    assert engine._callbacks == {}


def test_action_copies_of_a_destroyed_layer_report_and_release(engine):
    log = []
    layer = engine.create_layer()
    engine.tick(0.0)
    a = Animation.basic(engine, "position", duration=1.0, on_event=_recorder(log, "a"))
    ref = weakref.ref(a._values["on_event"])
    layer.set_action("position", a)
    layer.set_action("bounds", a)
    a.close()
    del a
    layer.frame = (0, 0, 10, 10)                 # runs both actions
    engine.tick(0.5)
    layer.position = (5, 5)                      # replaces the position copy
    layer.destroy()
    engine.tick(0.6)
    assert sorted(log) == sorted([("a", EventKind.START, False)] * 2 + [("a", EventKind.STOP, False)] * 3)
    engine.tick(0.7)
    gc.collect()
    assert ref() is None and engine._callbacks == {}


def test_one_action_animation_on_several_layers_and_keys(engine):
    log = []
    l1, l2 = engine.create_layer(), engine.create_layer()
    engine.tick(0.0)
    a = Animation.basic(engine, "opacity", duration=1.0, on_event=lambda ev: log.append((ev.layer, ev.key, ev.kind)))
    ref = weakref.ref(a._values["on_event"])
    for l in (l1, l2):
        l.set_action("opacity", a)
        l.set_action("shadowOpacity", a)
    l1.set_action("opacity", a)                  # the same animation twice on one slot
    a.close()
    del a
    for l in (l1, l2):
        l.opacity = 0.5
        l.shadowOpacity = 0.5
    engine.tick(0.5)
    l1.set_action("opacity", None)               # the other slots keep the callback
    l2.clear_action("shadowOpacity")
    engine.tick(2.0)
    engine.tick(3.0)
    stops = sorted((l.handle, k) for l, k, kind in log if kind == EventKind.STOP)
    assert stops == sorted((l.handle, k) for l in (l1, l2) for k in ("opacity", "shadowOpacity"))
    del log[:]
    for l in (l1, l2):                           # the remaining actions still call it
        l.opacity = 0.1
        l.shadowOpacity = 0.1
    engine.tick(4.0)
    engine.tick(6.0)
    assert sorted((l.handle, k) for l, k, kind in log if kind == EventKind.STOP) == \
        sorted([(l1.handle, "shadowOpacity"), (l2.handle, "opacity")])
    gc.collect()
    assert ref() is not None
    l1.clear_action("shadowOpacity")
    l2.destroy()
    engine.tick(7.0)
    engine.tick(8.0)
    gc.collect()
    assert ref() is None and engine._callbacks == {}


def test_transition_and_kept_action_copies(engine, layer):
    log = []
    # A transition action attaches under "transition", not under the action's key.
    tr = Animation.transition(engine, "fade", duration=1.0, on_event=_recorder(log, "tr"))
    layer.set_action("opacity", tr)
    tr.close()
    layer.opacity = 0.5
    layer.set_action("opacity", None)
    engine.tick(0.5)
    engine.tick(2.0)
    assert log == [("tr", EventKind.START, False), ("tr", EventKind.STOP, True)]
    # A copy kept after its end (removed_on_completion=False) holds its callback only
    # while it stays attached.
    k = Animation.basic(engine, "opacity", duration=0.5, removed_on_completion=False, fill_mode="forwards",
                        on_event=_recorder(log, "k"))
    ref = weakref.ref(k._values["on_event"])
    layer.set_action("opacity", k)
    k.close()
    del k
    layer.opacity = 0.2
    engine.tick(2.2)
    engine.tick(3.0)
    assert log[-1] == ("k", EventKind.STOP, True) and layer.animation_keys() == ["opacity"]
    layer.set_action("opacity", None)
    engine.tick(4.0)
    engine.tick(5.0)
    gc.collect()
    assert ref() is not None                     # still attached (it already stopped)
    layer.remove_animation("opacity")
    engine.tick(6.0)
    engine.tick(7.0)
    gc.collect()
    assert ref() is None and engine._callbacks == {}


def test_copies_of_attached_copies_keep_their_callbacks(engine):
    # A read-only view copies the callback of the copy it shows, which the binding
    # cannot tell: those callbacks are then kept, never dropped under a copy.
    log = []
    l1, l2, l3 = engine.create_layer(), engine.create_layer(), engine.create_layer()
    engine.tick(0.0)
    a = Animation.basic(engine, "opacity", to=0.0, duration=1.0, on_event=_recorder(log, "a"))
    l1.add_animation(a, "k")
    b = Animation.basic(engine, "opacity", duration=1.0, on_event=_recorder(log, "b"))
    l1.set_action("shadowOpacity", b)
    a.close()
    b.close()
    l1.shadowOpacity = 0.5
    l2.add_animation(l1.animation_for_key("k"), "k2")         # carries a's callback
    l3.set_action("opacity", l1.animation_for_key("shadowOpacity"))  # carries the action's
    l1.set_action("shadowOpacity", None)
    engine.tick(2.0)
    l3.opacity = 0.5
    engine.tick(2.5)
    engine.tick(4.0)
    assert sorted(log) == sorted([("a", EventKind.START, False), ("a", EventKind.STOP, True)] * 2
                                 + [("b", EventKind.START, False), ("b", EventKind.STOP, True)] * 2)


def test_a_refused_action_keeps_the_previous_one(engine, layer):
    log = []
    a = Animation.basic(engine, "opacity", duration=0.5, on_event=_recorder(log, "a"))
    layer.set_action("opacity", a)
    before = {k: len(v) for k, v in _callback_state(engine).items()}
    bad = Animation.basic(engine, "opacity", from_=0, to=1, by=1, on_event=_recorder(log, "bad"))
    with pytest.raises(cadence.InvalidStateError):
        layer.set_action("opacity", bad)             # from, to and by: refused when it would run
    with pytest.raises(cadence.UnknownKeyPathError):
        layer.set_action("no-such-key", a)
    bad.close()
    assert {k: len(v) for k, v in _callback_state(engine).items()} == before
    a.close()
    layer.opacity = 0.5
    engine.tick(1.0)
    assert log == [("a", EventKind.START, False), ("a", EventKind.STOP, True)]


def test_action_copies_made_inside_a_transaction(engine, layer):
    log = []
    a = Animation.basic(engine, "opacity", duration=0.5, on_event=_recorder(log, "a"))
    ref = weakref.ref(a._values["on_event"])
    layer.set_action("opacity", a)
    a.close()
    del a
    with engine.transaction():
        layer.opacity = 0.5                          # attached now, begins at the commit
        layer.set_action("opacity", None)
    engine.tick(0.25)
    engine.tick(1.0)
    assert log == [("a", EventKind.START, False), ("a", EventKind.STOP, True)]
    engine.tick(2.0)
    gc.collect()
    assert ref() is None and engine._callbacks == {}


def test_engine_close_drops_action_callbacks(engine, layer):
    a = Animation.basic(engine, "opacity", duration=1.0, on_event=lambda ev: None)
    layer.set_action("opacity", a)
    layer.opacity = 0.5
    layer.set_action("opacity", None)
    engine.close()
    assert all(not v for v in _callback_state(engine).values())


def test_action_callbacks_with_a_ticking_thread(engine, layer):
    # One thread ticks while another sets a new action and changes the value: every
    # copy reports its stop through its callback, and the callbacks do not pile up.
    import threading

    stops = []
    done = threading.Event()

    def ticker():
        t = 0.0
        while not done.is_set():
            t += 0.003
            engine.tick(t)
        engine.tick(t + 10.0)
        engine.tick(t + 11.0)

    th = threading.Thread(target=ticker)
    th.start()
    try:
        for i in range(400):
            a = Animation.basic(engine, "opacity", duration=0.01, on_event=lambda ev, i=i: (
                stops.append(i) if ev.kind == EventKind.STOP else None))
            layer.set_action("opacity", a)
            a.close()
            layer.opacity = (i % 2) * 0.5
    finally:
        done.set()
        th.join()
    assert sorted(stops) == list(range(400))
    assert len(engine._callbacks) <= 2


def test_transaction_completion_is_replaced_not_accumulated(engine, layer):
    fired = []
    with engine.transaction() as t:
        t.set_completion(lambda: fired.append("first"))
        t.set_completion(lambda: fired.append("second"))
        assert len(engine._tx_callbacks) == 1
    assert fired == ["second"] and engine._tx_callbacks == {}
    with engine.transaction() as t:
        t.set_completion(lambda: fired.append("third"))
        t.set_completion(None)
        assert engine._tx_callbacks == {}
    assert fired == ["second"]
    # Nested transactions keep their own completions.
    with engine.transaction(completion=lambda: fired.append("outer")):
        with engine.transaction(completion=lambda: fired.append("inner")):
            pass
    assert fired == ["second", "inner", "outer"] and engine._tx_callbacks == {}


# ---- 8. no orphan layers ------------------------------------------------------------------

def test_failed_create_layer_leaves_no_layer(engine):
    assert engine.layer_count == 0
    with pytest.raises(cadence.TypeMismatchError):
        engine.create_layer(opacity=0.5, position=(1, 2, 3))
    with pytest.raises(cadence.InvalidArgumentError):
        Layer(engine, opacity=math.nan)
    with pytest.raises(TypeError):
        engine.create_layer(bogus=1)
    assert engine.layer_count == 0
    engine.create_layer(opacity=0.5)
    assert engine.layer_count == 1


# ---- 9. automatic spring durations ---------------------------------------------------------

def test_automatic_spring_duration_follows_parameter_changes(engine, layer):
    s = Animation.spring(engine, "opacity", from_=0, to=1)
    assert s.duration == pytest.approx(_settling_envelope(1, 100, 10, 0), rel=1e-9)
    s.stiffness = 400
    expected = _settling_envelope(1, 400, 10, 0)  # about 1.4275 s, shorter than 1.4727 s
    assert s.duration == pytest.approx(expected, rel=1e-9)
    layer.add_animation(s, "s")
    engine.tick(expected + 1e-3)  # the attached copy uses the new duration
    assert [(ev.kind, ev.finished) for ev in engine.poll_events()] == [(EventKind.START, False),
                                                                       (EventKind.STOP, True)]
    s.mass = 2
    assert s.duration == pytest.approx(_settling_envelope(2, 400, 10, 0), rel=1e-9)
    # An explicit duration stops the following.
    s.duration = 3.0
    s.damping = 12
    assert s.duration == 3.0
    e = Animation.spring(engine, "opacity", duration=2.0)
    e.stiffness = 400
    assert e.duration == 2.0


def test_perceptual_spring_duration_follows_parameter_changes(engine):
    sp = Animation.spring_perceptual(engine, "opacity", duration=0.5, bounce=0.3)
    k = (2 * math.pi / 0.5) ** 2
    c = 4 * math.pi * 0.7 / 0.5
    assert sp.duration == pytest.approx(_settling_envelope(1, k, c, 0), rel=1e-9)
    sp.damping = 12
    assert sp.duration == pytest.approx(_settling_envelope(1, k, 12, 0), rel=1e-9)


# ---- 10. layer["contents"] -------------------------------------------------------------------

def test_item_contents_is_exact(engine):
    l = engine.create_layer()
    big = 2 ** 60 + 1  # not a double
    l["contents"] = big
    assert l.contents == big
    l.set(b"contents", 2 ** 64 - 1)
    assert l.contents == 2 ** 64 - 1
    assert l["contents"] == float(2 ** 64)  # reads go through a double


def test_a_second_path_is_refused_not_joined(engine):
    # The C API appends path elements: a second path would be joined to the first
    # (halfway along [(0,0),(100,0)] + [(0,0),(0,100)] instead of (0, 50)).
    a = cadence.Animation.keyframe(engine, "position", path=[(0, 0), (100, 0)], duration=1)
    with pytest.raises(cadence.InvalidStateError):
        a.path = [(0, 0), (0, 100)]
    layer = engine.create_layer()
    engine.tick(0)
    layer.add_animation(a, "move")
    engine.tick(0.5)                       # halfway along the first path only
    assert tuple(layer.presentation("position")) == (50.0, 0.0)


def _linear_path_animation(engine, bad_path):
    """A 1 s linear keyframe animation of position whose first path was refused,
    then given the path (0,0) -> (100,0)."""
    a = cadence.Animation(engine, "keyframe", "position")
    a.duration = 1.0
    a.calculation_mode = "linear"
    with pytest.raises(cadence.CadenceError):
        a.path = bad_path
    assert a.path is None
    a.path = [(0, 0), (100, 0)]
    return a


@pytest.mark.parametrize("bad_path", [
    [(0, 0), (1, 1), (math.nan, 2)],
    [(0, 0), (1, 1), (2, math.inf)],
    [("move_to", 0, 0), ("line_to", 1, 1), ("quad_to", 5, math.nan, 7, 7)],
    [("move_to", 0, 0), ("cubic_to", 1, 1, 2, 2, 3, 3), ("cubic_to", 1, 1, 2, -math.inf, 3, 3)],
    [("close",), ("move_to", 0, 0), ("line_to", 5, 5)],
], ids=["nan-point", "inf-point", "nan-quad", "inf-cubic", "leading-close"])
def test_a_refused_path_leaves_nothing_behind(engine, bad_path):
    # SEMANTICS.md §12: a failing call leaves the engine as it was. The path is sent
    # one element per C call: a bad element after good ones must be refused before
    # the first one is sent, or the next path is joined to the half-sent one.
    engine.tick(1.0)
    a = _linear_path_animation(engine, bad_path)
    layer = engine.create_layer()
    engine.tick(1.1)
    layer.add_animation(a, "p")
    engine.tick(1.35)
    # linear over the single segment (0,0) -> (100,0) (SEMANTICS.md §7): 25% of the way
    assert tuple(layer.presentation("position")) == approx((25.0, 0.0))


def test_path_objects_refuse_non_finite_coordinates():
    for build in (lambda: cadence.Path().move_to(math.nan, 0),
                  lambda: cadence.Path().move_to(0, 0).line_to(0, math.inf),
                  lambda: cadence.Path().move_to(0, 0).quad_to(1, 1, math.nan, 2),
                  lambda: cadence.Path().move_to(0, 0).cubic_to(1, 1, 2, 2, 3, -math.inf),
                  lambda: cadence.Path([(0, 0), (math.nan, 1)])):
        with pytest.raises(cadence.InvalidArgumentError):
            build()


def test_a_path_that_fails_part_way_in_c_is_recorded_not_joined(engine, monkeypatch):
    # A C call that still fails part-way (here a line_to made to send NaN, as if the
    # library refused it for a reason the binding cannot check) leaves the elements
    # before it in the description. The binding must say so (path reads them) and
    # refuse another path, which would be joined to them.
    from cadence._lib import lib
    real = lib.cad_anim_path_line_to
    calls = []

    def failing_second_line(e, h, x, y):
        calls.append((x, y))
        return real(e, h, math.nan if len(calls) == 2 else x, y)

    monkeypatch.setattr(lib, "cad_anim_path_line_to", failing_second_line)
    a = cadence.Animation.keyframe(engine, "position", duration=1.0)
    with pytest.raises(cadence.InvalidArgumentError):
        a.path = [(0, 0), (100, 0), (100, 100)]
    monkeypatch.undo()
    assert a.path == cadence.Path([(0, 0), (100, 0)])  # what the library took
    with pytest.raises(cadence.InvalidStateError):
        a.path = [(0, 0), (0, 100)]
    layer = engine.create_layer()
    engine.tick(0)
    layer.add_animation(a, "move")
    engine.tick(0.5)  # halfway along (0,0) -> (100,0), the elements the library holds
    assert tuple(layer.presentation("position")) == approx((50.0, 0.0))


def test_animation_configure_checks_every_option_before_setting_any(engine, layer):
    refused = [
        (dict(duration=2.0, speed=math.nan), cadence.InvalidArgumentError),
        (dict(duration=2.0, repeat_count=-1), cadence.InvalidArgumentError),
        (dict(duration=2.0, begin_time=math.inf), cadence.InvalidArgumentError),
        (dict(duration=2.0, timing_function=(1.5, 0, 1, 1)), cadence.InvalidArgumentError),  # c1x outside [0, 1]
        (dict(duration=2.0, timing_function=("steps", 0)), cadence.InvalidArgumentError),
        (dict(duration=2.0, fill_mode=9), cadence.InvalidArgumentError),
        (dict(duration=2.0, to_value=math.nan), cadence.InvalidArgumentError),
        (dict(duration=2.0, on_event=3), TypeError),
        (dict(duration=2.0, bogus=1), TypeError),
    ]
    for options, error in refused:
        a = Animation.basic(engine, "opacity", to=0.0)
        with pytest.raises(error):
            a.configure(**options)
        assert a.duration == 0.0, options  # the default: duration was not set
        assert a.timing_function is None and a.fill_mode == cadence.FillMode.REMOVED
    # ... and in the engine: the last one runs with the default duration 0.25 s (linear)
    layer.add_animation(a, "fade")
    engine.tick(0.125)
    assert layer.presentation("opacity") == approx(0.5)


def test_every_callback_exception_of_a_tick_is_kept(engine):
    # Two animations end in the same tick and both callbacks raise: the first
    # exception is raised, the second travels with it instead of being dropped.
    layer = engine.create_layer()
    engine.tick(0)
    for i, key in enumerate(("a", "b")):
        a = cadence.Animation.basic(engine, "opacity" if i == 0 else "zPosition", to=0.5, duration=0.5)

        def boom(event, i=i):
            if event.kind.name == "STOP":
                raise RuntimeError(f"callback {i}")
        a.on_event(boom)
        layer.add_animation(a, key)
    with pytest.raises(RuntimeError) as info:
        engine.tick(1)
    assert str(info.value) == "callback 0"
    further = getattr(info.value, "further_callback_exceptions", [])
    assert [str(x) for x in further] == ["callback 1"]


def test_animate_initial_velocity_needs_spring_damping(engine):
    layer = engine.create_layer()
    engine.tick(0)
    with pytest.raises(ValueError):
        with engine.animate(duration=1, initial_velocity=2):
            layer.opacity = 0.5
    assert engine.transaction_id == 0          # no transaction left open



# ---- 11. copies of a read-only view (audit 36, D1) ---------------------------------------

def test_every_copy_made_from_a_view_of_a_collected_description_calls_its_callback(engine):
    # The usual pattern: the description is a temporary, collected at once. A read-only
    # view of its attached copy is then added to another layer and set as a third
    # layer's action; once the first copy has stopped, the later copies still call the
    # callback. Expected: the C host of this scenario (every copy of a copy carries the
    # callback), in the engine's delivery order.
    l1, l2, l3 = engine.create_layer(), engine.create_layer(), engine.create_layer()
    engine.tick(0.0)
    names = {l1.handle: "l1", l2.handle: "l2", l3.handle: "l3"}
    got = []

    def record(ev):
        got.append((ev.kind, names[ev.layer.handle], ev.key, ev.finished, ev.tag))

    l1.add_animation(Animation.basic(engine, "opacity", from_=1.0, to=0.0, duration=1.0, tag=7, on_event=record), "k")
    del record
    gc.collect()
    view = l1.animation_for_key("k")
    engine.tick(0.5)
    l2.add_animation(view, "k")             # a copy of the copy: runs 0.5 .. 1.5
    l3.set_action("opacity", view)          # the view as l3's opacity action
    engine.tick(1.2)                        # l1's copy stops
    gc.collect()
    l3.opacity = 0.3                        # runs the action: another copy, 1.2 .. 2.2
    engine.tick(3.0)                        # l2's and l3's copies stop
    S, E = EventKind.START, EventKind.STOP
    expected = [(S, "l1", "k", False, 7), (S, "l2", "k", False, 7), (E, "l1", "k", True, 7),
                (S, "l3", "opacity", False, 7), (E, "l2", "k", True, 7), (E, "l3", "opacity", True, 7)]
    assert got == expected
    assert [(ev.kind, names[ev.layer.handle], ev.key, ev.finished, ev.tag) for ev in engine.poll_events()] == expected


# ---- 12. NUL inside key paths and keys (audit 36, D2) -------------------------------------

def test_a_nul_inside_a_key_path_or_key_is_refused_not_cut(engine, layer):
    # C reads a string up to its first NUL: "opacity\0junk" would reach it as "opacity".
    # Refused instead, with InvalidArgumentError (a ValueError, as Python's own C-string
    # boundaries raise), before anything changes.
    layer.opacity = 0.5
    engine.tick(1.0)
    layer.add_animation(Animation.basic(engine, "opacity", to=0.0, duration=9), "k")
    keys = layer.animation_keys()
    assert keys == ["k"]                    # (the implicit opacity animation has ended)
    calls = {
        "get": lambda: layer.get("opacity\0junk"),
        "item get": lambda: layer["opacity\0junk"],
        "set": lambda: layer.set("opacity\0junk", 0.25),
        "item set": lambda: layer.__setitem__("opacity\0junk", 0.25),
        "presentation": lambda: layer.presentation("position.x\0.y"),
        "presentation layer item": lambda: layer.presentation_layer["opacity\0"],
        "sample": lambda: engine.sample([layer], "opacity\0x"),
        "sample of no layers": lambda: engine.sample([], "opacity\0x"),
        "remove_animation": lambda: layer.remove_animation("k\0other"),
        "add_animation key": lambda: layer.add_animation(Animation.basic(engine, "opacity", to=1.0), "key\0suffix"),
        "Animation key path": lambda: Animation.basic(engine, "opacity\0zz", to=1.0),
        "Animation(kind, key path)": lambda: Animation(engine, "keyframe", "position\0"),
        "animation_for_key": lambda: layer.animation_for_key("k\0zz"),
        "set_action": lambda: layer.set_action("opacity\0zz", None),
        "clear_action": lambda: layer.clear_action("opacity\0zz"),
        "bytes key path": lambda: layer.get(b"opacity\0junk"),
        "trailing NUL": lambda: layer.get("opacity\0"),
    }
    for name, call in calls.items():
        with pytest.raises(cadence.InvalidArgumentError, match="NUL") as info:
            call()
        assert isinstance(info.value, ValueError), name
    assert layer.opacity == 0.5 and layer.animation_keys() == keys
    # The opacity action was not disabled: a change still animates (implicitly).
    layer.opacity = 0.75
    assert layer.animation_keys() == ["k", "opacity"]


# ---- 13. bools where integers are meant (audit 36, A1) ------------------------------------

@pytest.mark.parametrize("b", [True, False, np.True_, np.False_])
def test_bools_are_refused_where_integers_are_meant(engine, layer, b):
    # As enum arguments refuse them: True where a handle, contents id, tag, index, step
    # count or capacity is expected is a mistake, not 1 (and False not 0).
    child = engine.create_layer()
    a = Animation.basic(engine, "opacity", to=0.0, duration=0.5)
    count = engine.layer_count
    refused = {
        "contents": lambda: setattr(layer, "contents", b),
        "contents item": lambda: layer.__setitem__("contents", b),
        "contents configure": lambda: layer.configure(contents=b),
        "contents at creation": lambda: engine.create_layer(contents=b),
        "tag": lambda: setattr(a, "tag", b),
        "tag option": lambda: Animation.basic(engine, "opacity", tag=b),
        "engine.layer": lambda: engine.layer(b),
        "Layer(engine, handle)": lambda: Layer(engine, b),
        "sample handles": lambda: engine.sample([b], "opacity"),
        "add_sublayer": lambda: layer.add_sublayer(b),
        "convert_time": lambda: engine.convert_time(1.0, b),
        "insert_sublayer index": lambda: layer.insert_sublayer(child, b),
        "steps": lambda: setattr(a, "timing_function", ("steps", b, "end")),
        "set_timing_steps": lambda: a.set_timing_steps(b),
        "event capacity": lambda: engine.set_event_capacity(b),
    }
    for name, call in refused.items():
        with pytest.raises(TypeError, match="not bool"):
            call()
    assert engine.layer_count == count and layer.contents == 0 and a.tag == 0
    assert child.superlayer is None and a.timing_function is None
    # The capacity kept its default: both events of an animation are queued.
    layer.add_animation(a, "t")
    engine.tick(1.0)
    assert [ev.tag for ev in engine.poll_events()] == [0, 0]
    # Integers (numpy's too) still go through.
    layer.contents = np.uint64(1)
    a.tag = np.int64(1)
    layer.insert_sublayer(child, np.int32(0))
    engine.set_event_capacity(np.int64(8))
    assert layer.contents == 1 and a.tag == 1 and layer.sublayers == [child]


def test_true_as_a_repeat_count_means_forever_everywhere(engine, layer):
    # The documented exception (UIKit's ``repeat: true``): where a repeat count or
    # repeat duration is expected, True is infinity, and False 0 -- for animations,
    # animate() blocks and the layer's own timing fields alike (a layer read True as
    # 1 repeat before).
    a = Animation.basic(engine, "opacity", to=0.0, duration=1.0, repeat_count=True)
    assert a.repeat_count == math.inf
    a.repeat_count = np.False_
    assert a.repeat_count == 0.0
    a.repeat_duration = np.True_
    assert a.repeat_duration == math.inf
    for t in (True, np.True_):
        layer.repeat_count = 2.0
        layer.repeat_count = t
        assert layer.repeat_count == math.inf
        layer.repeatDuration = 2.0
        layer.repeatDuration = t
        assert layer.repeat_duration == math.inf
        layer["repeatCount"] = 2.0
        layer["repeatCount"] = t
        assert layer["repeatCount"] == math.inf
        layer.set("repeatDuration", 2.0)
        layer.set("repeatDuration", t)
        assert layer["repeatDuration"] == math.inf
    layer.configure(repeat_count=False, repeat_duration=np.False_)
    assert (layer.repeat_count, layer.repeat_duration) == (0.0, 0.0)
    assert engine.create_layer(repeat_count=True).repeat_count == math.inf
    # Elsewhere a bool stays a number (hidden, opacity...): True is 1.0.
    layer["opacity"] = np.False_
    assert layer.opacity == 0.0
    layer.duration = True
    assert layer.duration == 1.0


# ---- 14. int32 counts of batches (audit 36, A5) -------------------------------------------

def test_batch_counts_above_int32_are_refused_not_wrapped(engine, layer, monkeypatch):
    # evaluate_timing and sample pass their counts as int32_t: 2**32 + 3 would wrap to 3
    # (a result of 2**32 + 3 values with 3 computed). A broadcast array has the size
    # without the memory, and the size is checked before any copy of it.
    huge = np.broadcast_to(np.float64(0.5), (2 ** 32 + 3,))
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        cadence.evaluate_timing("linear", huge)
    handles = np.broadcast_to(np.uint64(layer.handle), (2 ** 32 + 1,))
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        engine.sample(handles, "opacity")
    # n fits, n x components does not (2**27 transforms of 16 doubles)
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        engine.sample(np.broadcast_to(np.uint64(layer.handle), (2 ** 27,)), "transform")
    # Sequences: their length as the count (a fake len: no list of 2**31 items needed)
    monkeypatch.setattr(cadence.animation, "len", lambda seq: 2 ** 31, raising=False)
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        cadence.evaluate_timing("linear", [0.5])
    monkeypatch.setattr(cadence.engine, "len", lambda seq: 2 ** 31, raising=False)
    with pytest.raises(cadence.InvalidArgumentError, match="int32"):
        engine.sample([layer], "opacity")
    monkeypatch.undo()
    # The largest counts that fit still work (as far as memory allows: small ones here).
    assert cadence.evaluate_timing("linear", np.broadcast_to(np.float64(0.25), (3,))).tolist() == [0.25] * 3
    assert engine.sample(np.broadcast_to(np.uint64(layer.handle), (2,)), "opacity").tolist() == [[1.0], [1.0]]
