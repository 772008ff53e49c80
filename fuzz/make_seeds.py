#!/usr/bin/env python3
"""Writes the seed corpus of the Cadence fuzz target (fuzz/corpus/seed-*) and
the fuzz inputs of the regressions (fuzz/regressions/*.bin).

Each seed is a byte string in the encoding of fuzz/cadence_fuzz.c (an opcode
byte, then the bytes each argument picker consumes). The opcodes are read from
the OPS(X) list of cadence_fuzz.c, so reordering ops there keeps this valid;
changing a picker's encoding needs the matching helper below changed.

    python3 fuzz/make_seeds.py            # (re)writes fuzz/corpus/seed-*
    python3 fuzz/make_seeds.py --check    # exits 1 if the files are out of date
"""
import math
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "cadence_fuzz.c")
OUT = os.path.join(HERE, "corpus")


def read_ops():
    text = open(SRC).read()
    m = re.search(r"#define OPS\(X\)(.*?)\n\n", text, re.S)
    return {name: i for i, name in enumerate(re.findall(r"X\((\w+)\)", m.group(1)))}


def read_specials():
    text = open(SRC).read()
    m = re.search(r"special_doubles\[\] = \{(.*?)\};", text, re.S)
    vals = []
    for tok in m.group(1).replace("\n", " ").split(","):
        tok = tok.strip()
        if not tok:
            continue
        vals.append({"NAN": math.nan, "INFINITY": math.inf, "-INFINITY": -math.inf}.get(tok) or float(tok))
    return vals


def keypaths():
    """The order of cad_kp_init() in tests/reliability/keypaths.h."""
    props = [("position", 1), ("zPosition", 0), ("anchorPoint", 1), ("anchorPointZ", 0), ("bounds", 3),
             ("transform", 5), ("sublayerTransform", 5), ("opacity", 0), ("hidden", 6), ("backgroundColor", 4),
             ("borderColor", 4), ("borderWidth", 0), ("cornerRadius", 0), ("shadowColor", 4), ("shadowOpacity", 0),
             ("shadowOffset", 2), ("shadowRadius", 0), ("contentsRect", 3), ("masksToBounds", 6), ("doubleSided", 6)]
    comps = [1, 2, 2, 4, 4, 16, 1]
    out = []
    for n, kind in props:
        out.append((n, comps[kind]))
        if kind == 1:
            out += [(n + ".x", 1), (n + ".y", 1)]
        elif kind == 2:
            out += [(n + ".width", 1), (n + ".height", 1)]
        elif kind == 3:
            out += [(n + ".origin", 2), (n + ".origin.x", 1), (n + ".origin.y", 1), (n + ".size", 2),
                    (n + ".size.width", 1), (n + ".size.height", 1)]
        elif kind == 4:
            out += [(n + "." + c, 1) for c in "rgba"]
        elif kind == 5:
            for v in ["rotation.x", "rotation.y", "rotation.z", "scale.x", "scale.y", "scale.z", "scale",
                      "translation.x", "translation.y", "translation.z", "translation", "rotation"]:
                out.append((n + "." + v, 2 if v == "translation" else 1))
            out += [(f"{n}.m{r}{c}", 1) for r in range(1, 5) for c in range(1, 5)]
    out += [("contents", 1), ("frame", 4)]
    out += [(t, 1) for t in ["beginTime", "speed", "timeOffset", "duration", "repeatCount", "repeatDuration",
                             "autoreverses", "fillMode"]]
    return out


OPS = read_ops()
SPECIALS = read_specials()
KPS = keypaths()
KP_INDEX = {n: i for i, (n, _) in enumerate(KPS)}
KEYS = ["a", "b", "k", "transition", "position", "opacity", "cadence.anim.1", "x"]


class Enc:
    def __init__(self):
        self.b = bytearray()

    def op(self, name):
        self.b.append(OPS[name])
        return self

    def u8(self, v):
        self.b.append(v & 0xFF)
        return self

    def eng(self, slot=0):
        return self.u8(slot)

    def layer(self, i):          # live layer i of the picked engine (i < 32)
        return self.u8(i << 3)

    def stale_layer(self):
        return self.u8(5)

    def foreign_layer(self):
        return self.u8(6)

    def anim(self, i):           # live description i (i < 32)
        return self.u8(i << 3)

    def ro_anim(self, i=0):
        return self.u8((i << 3) | 4)

    def dbl(self, v):
        for k, s in enumerate(SPECIALS):
            if (math.isnan(v) and math.isnan(s)) or (s == v and math.copysign(1, s) == math.copysign(1, v)):
                return self.u8(k)
        if v == int(v) and -128 <= v <= 127:
            return self.u8(232).u8(int(v) & 0xFF)
        self.u8(250)
        self.b += struct.pack("<d", v)
        return self

    def i32(self, v):            # -2 ... 19
        assert -2 <= v <= 19
        return self.u8(v + 2)

    def count(self, v):          # 0 ... 8
        assert 0 <= v <= 8
        return self.u8(v)

    def kp(self, name):
        i = KP_INDEX[name]
        return self.u8(i & 0xFF).u8(i >> 8) if i < 224 else self.u8(i & 0xFF).u8(i >> 8)

    def key(self, k):
        return self.u8(KEYS.index(k))

    def value(self, vals):       # make_value(): the key path's count, ordinary values
        self.u8(1)
        for v in vals:
            self.dbl(v)
        return self

    # ---- whole operations ----
    def create_layers(self, n, slot=0):
        for _ in range(n):
            self.op("LAYER_CREATE").eng(slot).u8(1)
        return self

    def add_sublayer(self, p, c, slot=0):
        return self.op("ADD_SUBLAYER").eng(slot).layer(p).layer(c)

    def set(self, l, kp, vals, slot=0):
        return self.op("SET").eng(slot).layer(l).kp(kp).value(vals)

    def anim_create(self, kind, kp=None, slot=0):
        self.op("ANIM_CREATE").eng(slot).u8(kind)
        if kind in (3, 4):
            self.u8(1)           # keypath NULL
        else:
            self.kp(kp)
        return self.u8(1)

    def anim_set(self, opname, a, *doubles, slot=0):
        self.op(opname).eng(slot).anim(a)
        for d in doubles:
            self.dbl(d)
        return self

    def anim_int(self, opname, a, v, slot=0):
        return self.op(opname).eng(slot).anim(a).i32(v)

    def anim_values(self, opname, a, kp, vals, slot=0):
        return self.op(opname).eng(slot).anim(a).u8(KP_INDEX[kp] % 200 if KP_INDEX[kp] < 200 else 0).value(vals)

    def callback(self, a, token=0, slot=0):
        return self.op("CALLBACK").eng(slot).anim(a).u8(1).u8(token)

    def add_anim(self, l, a, key, slot=0):
        return self.op("ADD_ANIM").eng(slot).layer(l).anim(a).key(key)

    def tick(self, steps=6, slot=0):     # now + steps/60
        return self.op("TICK").eng(slot).u8(steps)

    def frame(self, steps=6, slot=0):
        return self.op("MACRO_FRAME").eng(slot).u8(steps)

    def render(self, root, slot=0):
        return self.op("RENDER_LIST").eng(slot).layer(root).u8(1)

    def poll(self, n=8, slot=0):
        return self.op("POLL").eng(slot).u8(n - 1).u8(1)

    def verify(self):
        return self.op("VERIFY")

    # Bytes consumed by the callbacks when they reenter: n ops then their args.
    def reenter(self, *chunks):
        self.u8(len(chunks))
        for c in chunks:
            self.b += c.b
        return self


def seeds():
    out = {}

    # 1. A small tree, a basic animation per kind of value, frames and renders.
    e = Enc().create_layers(4)
    e.add_sublayer(0, 1).add_sublayer(0, 2).add_sublayer(2, 3)
    e.set(0, "bounds", [0, 0, 100, 100]).set(1, "position", [10, 10]).set(2, "opacity", [0.5])
    e.anim_create(0, "position").anim_values("TO", 0, "position", [50, 50]).anim_set("DURATION", 0, 1.0)
    e.add_anim(1, 0, "a")
    e.anim_create(0, "opacity").anim_values("FROM", 1, "opacity", [0.0]).anim_values("TO", 1, "opacity", [1.0])
    e.add_anim(2, 1, "b")
    e.anim_create(0, "transform").anim_values("TO", 2, "transform", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 5, 0, 1])
    e.add_anim(3, 2, "k")
    for _ in range(8):
        e.frame(6)
    e.render(0).poll(8).verify()
    out["basic-tree"] = e

    # 2. Keyframes (values, key times, modes, tcb) and a path.
    e = Enc().create_layers(2)
    e.anim_create(1, "position")
    e.op("VALUES").eng(0).anim(0).count(3).u8(0).u8(1)   # kp index 0 (position, 2 comps), a buffer: 3 x 2 values
    for v in [0, 0, 100, 0, 100, 100]:
        e.dbl(v)
    e.op("KEY_TIMES").eng(0).anim(0).count(3).u8(1).u8(0)
    e.anim_int("CALC_MODE", 0, 3)
    e.op("TCB").eng(0).anim(0).count(3).u8(7)
    for _ in range(3):
        for v in [0.5, -0.5, 0.0]:
            e.dbl(v)
    e.add_anim(0, 0, "a")
    e.anim_create(1, "position")
    e.anim_set("MOVE_TO", 1, 0, 0).anim_set("LINE_TO", 1, 100, 0).anim_set("QUAD_TO", 1, 100, 100, 0, 100)
    e.anim_set("CUBIC_TO", 1, 0, 50, 50, 50, 10, 10).op("CLOSE").eng(0).anim(1)
    e.anim_int("ROTATION_MODE", 1, 1)
    e.add_anim(1, 1, "b")
    for _ in range(10):
        e.frame(9)
    e.verify()
    out["keyframes-path"] = e

    # 3. Springs of the three kinds.
    e = Enc().create_layers(1)
    e.anim_create(2, "position.x").anim_values("TO", 0, "position.x", [100])
    e.anim_set("SPRING", 0, 1, 100, 10, 0).op("SETTLING").eng(0).anim(0).u8(1)
    e.add_anim(0, 0, "a")
    e.anim_create(2, "opacity").anim_values("TO", 1, "opacity", [0.0]).anim_set("SPRING_PERCEPTUAL", 1, 0.5, 0.25)
    e.add_anim(0, 1, "b")
    e.anim_create(2, "bounds").anim_values("TO", 2, "bounds", [0, 0, 50, 50]).anim_set("SPRING_UIKIT", 2, 1, 0.5, 0)
    e.add_anim(0, 2, "k")
    for _ in range(12):
        e.frame(10)
    out["springs"] = e

    # 4. A group and a transition; contents changes (implicit fade).
    e = Enc().create_layers(3)
    e.add_sublayer(0, 1).add_sublayer(0, 2)
    e.anim_create(0, "opacity").anim_values("TO", 0, "opacity", [0.0])
    e.anim_create(0, "position").anim_values("BY", 1, "position", [10, 10])
    e.anim_create(3)
    e.op("GROUP_CHILDREN").eng(0).anim(2).count(2).u8(1).anim(0).anim(1)
    e.anim_set("DURATION", 2, 2.0).anim_int("FILL_MODE", 2, 3).anim_int("REMOVED_ON_COMPLETION", 2, 0)
    e.add_anim(1, 2, "a")
    e.anim_create(4).op("TRANSITION").eng(0).anim(3).i32(2).i32(1)
    e.add_anim(0, 3, "transition")
    e.op("SET_CONTENTS").eng(0).layer(2).u8(1).u8(7)
    for _ in range(8):
        e.frame(10)
    e.render(0)
    out["group-transition"] = e

    # 5. Transactions: implicit animations, completion callback, nesting, keyframe block.
    e = Enc().create_layers(2).tick(6)
    e.op("TX_BEGIN").eng(0).op("TX_DURATION").eng(0).dbl(0.5).op("TX_COMPLETION").eng(0).u8(1).u8(0)
    e.set(0, "position", [100, 100]).set(1, "opacity", [0.25])
    e.op("TX_BEGIN").eng(0).op("TX_DISABLE_ACTIONS").eng(0).i32(1).set(1, "bounds", [0, 0, 5, 5])
    e.op("TX_COMMIT").eng(0).op("TX_COMMIT").eng(0)
    e.reenter(Enc().op("LAYER_COUNT").eng(0).u8(1))
    for _ in range(6):
        e.frame(10)
    e.op("TX_BEGIN").eng(0).op("TX_SPRING").eng(0).dbl(0.5).dbl(0)
    e.op("TX_BEGIN_KEYFRAME").eng(0).dbl(0).dbl(0.5).set(0, "position.x", [0]).op("TX_COMMIT").eng(0)
    e.op("TX_COMMIT").eng(0)
    for _ in range(6):
        e.frame(10)
    e.poll(8)
    out["transactions"] = e

    # 6. Reentrant callbacks: a stop callback adds an animation, sets a property,
    #    destroys a layer and ticks.
    e = Enc().create_layers(3)
    e.anim_create(0, "opacity").anim_values("TO", 0, "opacity", [0.0]).anim_set("DURATION", 0, 0.1)
    e.callback(0, 1).add_anim(0, 0, "a")
    e.tick(12)
    e.reenter(Enc().op("ADD_ANIM").eng(0).layer(1).anim(0).key("b"),
              Enc().set(2, "position", [5, 5]))
    e.reenter(Enc().op("LAYER_DESTROY").eng(0).layer(2))
    e.tick(30)
    e.reenter(Enc().tick(1), Enc().op("REMOVE_ALL").eng(0).layer(1))
    e.reenter()
    e.verify()
    out["reentrant-callbacks"] = e

    # 7. Hostile arguments: NULL and forged engines, stale and foreign handles.
    e = Enc().create_layers(2).create_layers(2, slot=1)
    e.op("LAYER_DESTROY").eng(0).layer(1)
    e.op("SET").eng(0).stale_layer().kp("position").value([1, 2])
    e.op("ADD_SUBLAYER").eng(0).layer(0).foreign_layer()
    e.op("TICK").u8(240).dbl(math.nan)
    e.op("TICK").u8(241).dbl(1.0)
    e.op("SET").eng(0).layer(0).kp("opacity").u8(0).dbl(math.nan)
    e.op("SET").eng(0).layer(0).kp("position").u8(0).dbl(1e300).dbl(-1e300)
    e.op("ADD_SUBLAYER").eng(0).layer(0).layer(0)
    e.op("TICK").eng(0).u8(250).dbl(-1.0)
    e.op("RENDER_LIST").eng(0).layer(0).u8(200).u8(255).u8(0xFF).u8(0xFF).u8(0xFF).u8(0x7F)
    e.verify()
    out["hostile-handles"] = e

    # 8. Extreme but valid numbers: long times, tiny durations, extreme speeds.
    e = Enc().create_layers(1)
    e.anim_create(0, "position.x").anim_values("TO", 0, "position.x", [1e300]).anim_set("DURATION", 0, 1e-9)
    e.anim_set("SPEED", 0, 1e6).anim_set("REPEAT_COUNT", 0, math.inf).add_anim(0, 0, "a")
    e.anim_create(0, "opacity").anim_set("SPEED", 1, 1e-6).anim_set("TIME_OFFSET", 1, 1e9).add_anim(0, 1, "b")
    e.op("TICK").eng(0).u8(200).dbl(1e9)
    e.frame(1).frame(30)
    e.op("PRESENTATION").eng(0).layer(0).kp("position.x").u8(1)
    out["numeric-extremes"] = e

    # 9. Event queue bound: capacity 2, many events, never polled; then dropped count.
    e = Enc().create_layers(2)
    e.op("SET_EVENT_CAPACITY").eng(0).i32(2)
    for i in range(6):
        e.anim_create(0, "opacity").anim_values("TO", i, "opacity", [0.5]).anim_set("DURATION", i, 0.1)
        e.add_anim(i % 2, i, "a" if i % 2 else "b")
    e.tick(30).tick(30).op("EVENTS_DROPPED").eng(0).u8(1).poll(8)
    e.op("POLL_MANY").eng(0).u8(9)          # cad_engine_poll_events, cap 9
    out["event-capacity"] = e

    # 9b. Storage reserved before a scene is built, again below it, and refused past the limit.
    e = Enc().op("RESERVE").eng(0).u8(200).i32(0).i32(0)       # 4096 layers, 4096 animations
    e.create_layers(3)
    e.anim_create(0, "opacity").anim_values("TO", 0, "opacity", [0.5]).anim_set("DURATION", 0, 0.1).add_anim(1, 0, "a")
    e.op("RESERVE").eng(0).u8(0).i32(1).i32(1)                 # below what it holds
    e.op("RESERVE").eng(0).u8(240).i32(0).i32(0)               # (1 << 20) + 1 layers: refused
    e.tick(30).frame(1)
    out["reserve"] = e

    # 10. Engine destroyed from its own callback during a tick.
    e = Enc().create_layers(1)
    e.anim_create(0, "opacity").anim_values("TO", 0, "opacity", [0.0]).anim_set("DURATION", 0, 0.1)
    e.callback(0, 2).add_anim(0, 0, "a").tick(30)
    e.reenter(Enc().op("ENGINE_DESTROY").u8(0).u8(0))
    e.reenter()
    e.op("ENGINE_CREATE").create_layers(1)
    out["destroy-in-callback"] = e

    # 11. Sampling, conversions, actions, key queries, library calls.
    e = Enc().create_layers(3)
    e.op("SET_ACTION").eng(0).layer(0).u8(0).kp("opacity").u8(0)
    e.anim_create(0, "opacity").op("SET_ACTION").eng(0).layer(1).u8(0).kp("opacity").u8(1).anim(0)
    e.tick(6).set(1, "opacity", [0.5]).set(0, "opacity", [0.5])
    e.op("CLEAR_ACTION").eng(0).layer(1).u8(0).kp("opacity")
    e.op("SAMPLE").eng(0).count(3).u8(1).layer(0).layer(1).layer(2).kp("opacity").u8(1)
    e.op("CONVERT_TIME").eng(0).dbl(1.0).u8(1).layer(0).u8(0).u8(1)
    e.op("KEY_AT").eng(0).layer(1).i32(0).u8(1)
    e.op("FOR_KEY").eng(0).layer(1).key("opacity").u8(1)
    e.op("LIBRARY").u8(0).op("TIMING_EVAL_BATCH").dbl(0.25).dbl(0.1).dbl(0.25).dbl(1.0).count(4).u8(1)
    for v in [0, 0.5, 1, math.nan]:
        e.dbl(v)
    e.u8(1)
    out["queries"] = e

    # 11b. Points and hit testing: a small tree with a perspective, conversions
    # both ways (model and presentation), hit tests inside, outside, on an edge.
    e = Enc().create_layers(3)
    e.add_sublayer(0, 1).add_sublayer(1, 2)
    e.set(0, "bounds", [0, 0, 200, 200]).set(0, "position", [100, 100])
    e.set(1, "bounds", [0, 0, 100, 100]).set(1, "position", [60, 60]).set(1, "masksToBounds", [1])
    e.set(2, "bounds", [0, 0, 40, 40]).set(2, "position", [90, 90])
    e.set(0, "sublayerTransform.m34", [-0.002]).set(2, "transform.rotation.y", [1.2])
    e.tick(6)
    for x, y, pres in [(50.0, 50.0, 1), (200.0, 0.0, 0), (1e300, -1e300, 1)]:
        e.op("CONVERT_POINT").eng(0).dbl(x).dbl(y).u8(1).layer(2).u8(0).u8(pres).u8(1)   # 2 -> world
        e.op("CONVERT_POINT").eng(0).dbl(x).dbl(y).u8(0).u8(1).layer(1).u8(pres).u8(1)   # world -> 1
        e.op("HIT_TEST").eng(0).layer(0).dbl(x).dbl(y).u8(pres).u8(1)
    out["points"] = e

    # 11b. Batch sets: positions of three layers (actions on), a duplicate
    # layer (its last row wins), a NaN in the last row (nothing set), a
    # timing key, and a stale handle (nothing set).
    e = Enc().create_layers(3)
    e.tick(1)
    e.op("SET_MANY").eng(0).count(3).u8(1).layer(0).layer(1).layer(2).kp("position").u8(1).value([10, 20])
    e.op("SET_MANY").eng(0).count(3).u8(1).layer(0).layer(1).layer(0).kp("opacity").u8(1).value([0.25])
    e.op("SET_MANY").eng(0).count(2).u8(1).layer(1).layer(2).kp("position").u8(0x31).value([1, 2]).dbl(math.nan)
    e.op("SET_MANY").eng(0).count(2).u8(1).layer(1).layer(2).kp("speed").u8(1).value([2])
    e.op("LAYER_DESTROY").eng(0).layer(2)
    e.op("SET_MANY").eng(0).count(2).u8(1).layer(0).stale_layer().kp("bounds").u8(1).value([0, 0, 4, 4])
    e.frame(6).render(0).verify()
    out["set-many"] = e

    # 12. Macros: trees and animations built quickly, checked failures.
    e = Enc()
    for i in range(3):
        e.op("MACRO_TREE").eng(0).u8(5)
        for _ in range(6):
            e.u8(i * 7 + 3)
    for i in range(10):
        e.op("MACRO_ANIMATE").eng(0).u8(i * 3).u8(i * 37).u8(i * 11)
        for _ in range(40):
            e.u8(i + 1)
    for _ in range(10):
        e.frame(7)
    e.op("CHECKED").eng(0).u8(OPS["SET"]).eng(0).stale_layer().kp("opacity").value([0.5])
    e.verify()
    out["macros"] = e

    # Sublayer removals leave holes that readers compact: 31 sublayers of one
    # layer, 20 removed (past the compaction threshold) and some put back at
    # indices, with renders, listings and a destroy in between.
    e = Enc().create_layers(32)
    for c in range(1, 32):
        e.add_sublayer(0, c)
    e.tick(1)
    for c in range(1, 21):
        e.op("REMOVE_FROM_SUPERLAYER").eng(0).layer(c)
        if c % 7 == 0:
            e.render(0)
    e.op("SUBLAYERS").eng(0).layer(0).count(8).u8(1)
    for c in (3, 5, 9, 2):
        e.op("INSERT_SUBLAYER").eng(0).layer(0).layer(c).u8(c)
    e.add_sublayer(25, 26).add_sublayer(26, 27)
    e.op("LAYER_DESTROY").eng(0).layer(24)
    e.render(0).frame(6).verify()
    out["sublayer-holes"] = e
    return out


def regressions():
    """Minimised crash inputs, written out as calls so that they stay valid when
    the harness changes (fuzz/regressions/<name>.bin, next to <name>.c)."""
    out = {}
    # Index out of bounds in Engine.emitLayer: a three-level tree of default layers.
    e = Enc().create_layers(4).add_sublayer(0, 2).add_sublayer(2, 3).render(0)
    out["render_list_nested"] = e
    # Swift trap converting fillMode 1e18 to Int32 in the layer timing setter.
    e = Enc().create_layers(1)
    for v in (1e18, -1e18, 1.7976931348623157e308):
        e.op("SET").eng(0).layer(0).kp("fillMode").u8(1).dbl(v)
    out["layer_fillmode_huge"] = e
    # Transition render items with opacity outside [0, 1] (overshooting timing function).
    e = Enc().create_layers(1).tick(6)
    e.op("TX_BEGIN").eng(0).op("TX_DURATION").eng(0).dbl(0.5)
    e.op("TX_TIMING_BEZIER").eng(0).dbl(0).dbl(1).dbl(0).dbl(1e300)
    e.op("SET_CONTENTS").eng(0).layer(0).u8(1).u8(0)
    e.op("TX_COMMIT").eng(0).frame(22)
    out["transition_opacity_unclamped"] = e
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    stale = False
    files = [(os.path.join(OUT, "seed-" + n), e) for n, e in seeds().items()]
    files += [(os.path.join(HERE, "regressions", n + ".bin"), e) for n, e in regressions().items()]
    for path, enc in files:
        data = bytes(enc.b)
        if "--check" in sys.argv:
            if not os.path.exists(path) or open(path, "rb").read() != data:
                print(f"out of date: {path}")
                stale = True
            continue
        with open(path, "wb") as f:
            f.write(data)
    if stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
