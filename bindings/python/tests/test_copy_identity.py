"""Objects that own or reference C handles: no copies that would share ownership,
and identities (hash, equality) that do not change over an object's life."""
from __future__ import annotations

import copy
import gc
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cadence
from cadence import Animation, EventKind


def _run_child(code: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(cadence.__file__).resolve().parent.parent)
    env["CADENCE_LIBRARY"] = cadence.LIBRARY_PATH
    r = subprocess.run([sys.executable, "-c", "import faulthandler; faulthandler.enable()\n" + textwrap.dedent(code)],
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"child ended with status {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_engine_layer_and_transaction_copies():
    # In a child process: a copy of an Engine used to be a second owner of the same
    # cad_engine *, and collecting both destroyed it twice (a crash).
    out = _run_child("""
        import copy, gc, pickle
        import cadence
        results = []

        def attempt(what, op, obj):
            try:
                op(obj)
                results.append(f"{what}: copied")
            except TypeError:
                results.append(f"{what}: TypeError")

        for rep in range(20):
            e = cadence.Engine()
            layer = e.create_layer(opacity=0.5)
            e.tick(0)
            for name, op in (("copy", copy.copy), ("deepcopy", copy.deepcopy), ("pickle", pickle.dumps)):
                attempt(f"engine {name}", op, e)
                with e.transaction() as tx:
                    attempt(f"transaction {name}", op, tx)
                if name != "copy":  # a deep copy or pickle of a layer would need one of its engine
                    attempt(f"layer {name}", op, layer)
                    attempt(f"presentation {name}", op, layer.presentation_layer)
            gc.collect()
            # the engine is intact: still open, its layer still there
            results.append(f"alive {not e.closed} {layer.opacity} {e.layer_count}")
            same = copy.copy(layer)                 # a Layer is a reference: copying it is fine
            results.append(f"layer copy {same == layer and same is not layer and hash(same) == hash(layer)}")
            pres = copy.copy(layer.presentation_layer)
            results.append(f"presentation copy {pres.model_layer == layer and pres.opacity}")
            del layer, same, pres
            e.close()
            del e
            gc.collect()
        for line in sorted(set(results)):
            print(line)
    """)
    assert out.strip().split("\n") == sorted([
        "alive True 0.5 1",
        "engine copy: TypeError", "engine deepcopy: TypeError", "engine pickle: TypeError",
        "layer copy True", "layer deepcopy: TypeError", "layer pickle: TypeError",
        "presentation copy 0.5", "presentation deepcopy: TypeError", "presentation pickle: TypeError",
        "transaction copy: TypeError", "transaction deepcopy: TypeError", "transaction pickle: TypeError",
    ])


def test_animation_cannot_be_copied_and_keeps_its_description(engine, layer):
    got = []
    a = Animation.basic(engine, "opacity", from_=1.0, to=0.0, duration=1.0, on_event=got.append)
    for op in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError):
            op(a)
    gc.collect()
    # the description (and its callback) is intact: a linear fade, 1 -> 0 over 1 s
    layer.add_animation(a, "fade")
    engine.tick(0.25)
    assert layer.presentation("opacity") == pytest.approx(0.75)
    engine.tick(2.0)
    assert [ev.kind for ev in got] == [EventKind.START, EventKind.STOP]
    view = layer.animation_for_key("fade")
    assert view is None  # removed on completion
    b = Animation.basic(engine, "opacity", to=0.0, duration=5.0)
    layer.add_animation(b, "slow")
    view = layer.animation_for_key("slow")
    with pytest.raises(TypeError):
        copy.copy(view)


def test_animation_hash_and_equality_do_not_change_when_closed(engine, layer):
    a = Animation.basic(engine, "opacity", to=0.0)
    b = Animation.basic(engine, "opacity", to=0.0)
    h = hash(a)
    registry = {a: "fade", b: "other"}
    a.close()
    assert a.closed and a.handle == 0
    assert hash(a) == h
    assert a == a and not (a != a)
    assert a in registry and registry[a] == "fade"
    assert a != b
    b.close()
    assert a != b and registry[b] == "other"  # two closed descriptions stay distinct
    engine.close()
    assert hash(a) == h and a == a and registry.pop(a) == "fade"


def test_animation_views_compare_by_attached_copy(engine, layer):
    layer.add_animation(Animation.basic(engine, "opacity", to=0.0, duration=5.0), "k")
    v1, v2 = layer.animation_for_key("k"), layer.animation_for_key("k")
    assert v1 == v2 and hash(v1) == hash(v2) and v1 is not v2
    h = hash(v1)
    v1.close()  # forgets the view only
    assert v1 == v1 and hash(v1) == h and v1 == v2 and layer.animation_count == 1


def test_layer_hash_and_equality_do_not_change_when_destroyed_or_closed(engine):
    l = engine.create_layer()
    other = engine.create_layer()
    h = hash(l)
    seen = {l: "l"}
    l.destroy()
    assert not l.alive and hash(l) == h and l == l and seen[l] == "l" and l != other
    engine.close()
    assert hash(l) == h and l == l and l in seen and l != other


def test_animation_keypath_given_as_bytes_reads_back_as_str(engine):
    a = Animation.basic(engine, b"opacity", to=0.0)
    assert a.keypath == "opacity" and isinstance(a.keypath, str)
    k = Animation(engine, "keyframe", b"position.x")
    assert k.keypath == "position.x"
