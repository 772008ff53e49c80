"""Events and callbacks (SEMANTICS.md §11), including exceptions and reentrancy."""
from __future__ import annotations

import gc
import weakref

import pytest

import cadence
from cadence import Animation, EventKind


def kinds(events):
    return [(e.kind, e.key, e.finished) for e in events]


def test_start_and_stop_in_one_tick(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=0.5, tag=5), "a")
    engine.tick(2.0)
    evs = list(engine.poll_events())
    assert kinds(evs) == [(EventKind.START, "a", False), (EventKind.STOP, "a", True)]
    assert [e.time for e in evs] == [0.0, 0.5]
    assert all(e.tag == 5 and e.layer == layer for e in evs)
    assert isinstance(evs[0].kind, EventKind)
    assert list(engine.poll_events()) == []


def test_order_by_time_then_layer_creation_then_add_order(engine):
    first = engine.create_layer()
    second = engine.create_layer()
    engine.tick(0.0)
    second.add_animation(Animation.basic(engine, "opacity", to=0, duration=1), "s1")
    first.add_animation(Animation.basic(engine, "opacity", to=0, duration=2), "f1")
    first.add_animation(Animation.basic(engine, "position.x", to=1, duration=1), "f2")
    engine.tick(5.0)
    evs = list(engine.poll_events())
    assert [(e.kind, e.key) for e in evs] == [
        (EventKind.START, "f1"), (EventKind.START, "f2"), (EventKind.START, "s1"),  # t = 0
        (EventKind.STOP, "f2"), (EventKind.STOP, "s1"),                             # t = 1
        (EventKind.STOP, "f1"),                                                     # t = 2
    ]


def test_replaced_removed_and_destroyed_report_unfinished(engine, layer):
    a = Animation.basic(engine, "opacity", to=0, duration=10)
    layer.add_animation(a, "x")
    engine.tick(1.0)
    list(engine.poll_events())
    layer.add_animation(a, "x")  # replace
    assert list(engine.poll_events()) == []  # delivered at the next tick
    engine.tick(1.5)
    evs = list(engine.poll_events())
    assert (EventKind.STOP, "x", False) in kinds(evs)
    layer.remove_animation("x")
    engine.tick(2.0)
    assert kinds(engine.poll_events()) == [(EventKind.STOP, "x", False)]
    other = engine.create_layer()
    engine.tick(2.5)
    other.add_animation(a, "y")
    engine.tick(3.0)
    list(engine.poll_events())
    other.destroy()
    engine.tick(3.5)
    assert kinds(engine.poll_events()) == [(EventKind.STOP, "y", False)]


def test_callback_receives_events(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", to=0, duration=1, tag=-7)
    cb = got.append
    assert a.on_event(cb) is cb
    layer.add_animation(a, "cb")
    engine.tick(0.5)
    assert kinds(got) == [(EventKind.START, "cb", False)]
    engine.tick(1.5)
    assert kinds(got) == [(EventKind.START, "cb", False), (EventKind.STOP, "cb", True)]
    assert got[0].tag == -7 and got[0].layer == layer
    # the same events also go to the poll queue
    assert kinds(engine.poll_events()) == kinds(got)


def test_on_event_as_decorator_and_removal(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", to=0, duration=1)

    @a.on_event
    def handler(ev):
        got.append(ev.kind)

    a.on_event(None)  # removed before adding: nothing is called
    layer.add_animation(a, "x")
    engine.tick(2.0)
    assert got == []


def test_exception_in_callback_is_reraised_from_tick(engine, layer):
    def boom(ev):
        raise ValueError(f"boom at {ev.kind.name}")

    a = Animation.basic(engine, "opacity", to=0, duration=1)
    a.on_event(boom)
    layer.add_animation(a, "x")
    with pytest.raises(ValueError, match="boom at START"):
        engine.tick(0.5)
    # the engine state is intact and the next tick works (and reports the next failure)
    assert engine.now == 0.5
    with pytest.raises(ValueError, match="boom at STOP"):
        engine.tick(1.5)
    engine.tick(2.0)


def test_first_of_several_callback_exceptions_is_raised(engine, layer):
    calls = []

    def bad(ev):
        calls.append(ev.key)
        raise RuntimeError(ev.key)

    for key in ("one", "two"):
        a = Animation.basic(engine, "opacity", to=0, duration=1)
        a.on_event(bad)
        layer.add_animation(a, key)
    with pytest.raises(RuntimeError, match="one"):
        engine.tick(0.5)
    assert calls == ["one", "two"]  # later callbacks still ran


def test_callback_adds_animation_reentrancy(engine, layer):
    log = []

    def chain(ev):
        log.append((ev.kind, ev.key, engine.now))
        if ev.kind == EventKind.STOP and ev.key == "first":
            nxt = Animation.basic(engine, "position.x", from_=0, to=10, duration=1)
            nxt.on_event(chain)
            ev.layer.add_animation(nxt, "second")
            ev.layer.opacity = 0.5  # setting properties from a callback is fine too

    a = Animation.basic(engine, "opacity", from_=0, to=1, duration=0.5)
    a.on_event(chain)
    layer.add_animation(a, "first")
    engine.tick(1.0)
    assert [k for k, _, _ in log] == [EventKind.START, EventKind.STOP]
    assert "second" in layer.animation_keys()
    engine.tick(1.5)  # "second" began at the engine's now during the callback (1.0)
    assert layer.presentation("position.x") == pytest.approx(5)
    engine.tick(2.5)
    assert [(k, key) for k, key, _ in log][2:] == [(EventKind.START, "second"), (EventKind.STOP, "second")]


def test_close_inside_callback(engine, layer):
    seen = []

    def closer(ev):
        seen.append(ev.key)
        engine.close()

    for key in ("a", "b"):
        a = Animation.basic(engine, "opacity", to=0, duration=1)
        a.on_event(closer)
        layer.add_animation(a, key)
    engine.tick(0.5)  # no crash; the remaining callbacks of the tick are skipped
    assert engine.closed and seen == ["a"]
    with pytest.raises(cadence.ClosedError):
        engine.tick(1.0)


def test_callbacks_survive_the_animation_object(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", to=0, duration=1)
    a.on_event(lambda ev: got.append(ev.kind))
    layer.add_animation(a, "x")
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None
    engine.tick(2.0)
    assert got == [EventKind.START, EventKind.STOP]


def test_engine_is_collectable_with_callbacks():
    e = cadence.Engine()
    l = e.create_layer()
    a = Animation.basic(e, "opacity", to=0)
    a.on_event(lambda ev: None)
    l.add_animation(a)
    ref = weakref.ref(e)
    del e, l, a
    gc.collect()
    assert ref() is None


def test_event_capacity_and_dropped(engine, layer):
    engine.set_event_capacity(2)
    for i in range(3):
        layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=0.1), f"k{i}")
    engine.tick(1.0)  # 6 events, 2 kept
    evs = list(engine.poll_events())
    assert len(evs) == 2 and engine.events_dropped == 4
    assert kinds(evs) == [(EventKind.STOP, "k1", True), (EventKind.STOP, "k2", True)]  # the newest kept
    engine.set_event_capacity(0)
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=0.1), "z")
    engine.tick(2.0)
    assert list(engine.poll_events()) == [] and engine.events_dropped == 6
    with pytest.raises(cadence.InvalidArgumentError):
        engine.set_event_capacity(-1)


def test_long_keys_are_truncated_in_events(engine, layer):
    key = "k" * 100
    layer.add_animation(Animation.basic(engine, "opacity", to=0, duration=0.1), key)
    engine.tick(1.0)
    evs = list(engine.poll_events())
    assert evs[0].key == key[:63]


def test_callback_exception_surfaces_on_the_ticking_thread(engine, layer):
    import threading

    a = Animation.basic(engine, "opacity", to=0, duration=1)
    a.on_event(lambda ev: (_ for _ in ()).throw(LookupError("in worker")))
    layer.add_animation(a, "x")
    caught = []

    def worker():
        try:
            engine.tick(0.5)
        except LookupError as exc:
            caught.append(exc)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert len(caught) == 1
    engine.tick(0.6)  # nothing pending on this thread


def test_polled_keys_are_cut_to_63_bytes_callbacks_get_the_whole_key(engine, layer):
    # cad_event.key is a char[64]: the queue keeps at most 63 bytes of the key, cut at a
    # character boundary (docs/decisions.md, "Keys must be UTF-8"). Here the 2-byte "é"
    # straddles the cut (bytes 62 and 63): the polled key ends before it.
    key = "x" * 62 + "é" + "tail"
    got = []
    layer.add_animation(Animation.basic(engine, "opacity", to=0.0, duration=1.0,
                                        on_event=lambda ev: got.append(ev.key)), key)
    engine.tick(2.0)
    assert got == [key, key]
    polled = [ev.key for ev in engine.poll_events()]
    assert polled == ["x" * 62] * 2
