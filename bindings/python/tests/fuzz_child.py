"""Random hostile call sequences against libcadence, run in a child process.

    python fuzz_child.py SEED N_CALLS [LOG_PATH]

Makes N_CALLS seeded random calls through the raw table (cadence.lib) and the
high-level API with hostile arguments: stale, forged, zero and foreign handles,
NaN and infinities, negative and oversized counts (never larger than the
buffers actually passed: that would be the host's bug, not the library's),
NULL where a pointer is taken, unknown and malformed key paths, tree cycles,
bad enum values, unbalanced transactions, reentrant callbacks, closing the
engine inside a callback. Every failure must be a status (or a Python
exception of the binding); a crash kills the process with a signal, which the
parent test reports with the seed and the tail of LOG_PATH (one line per call).
Exit status 0 means the library survived.
"""
from __future__ import annotations

import ctypes
import faulthandler
import math
import os
import random
import sys

faulthandler.enable()

import cadence  # noqa: E402
from cadence import Animation, CadenceError, lib  # noqa: E402

c_double, c_int32, c_uint64, c_int64 = ctypes.c_double, ctypes.c_int32, ctypes.c_uint64, ctypes.c_int64
byref = ctypes.byref

NAN, INF = math.nan, math.inf
DOUBLES = [0.0, 1.0, -1.0, 0.5, 0.25, 2.0, 100.0, -100.0, 1e308, -1e308, NAN, INF, -INF, -0.0, 5e-324, 1e-300,
           2.0 ** 53, 1e9, 3.5, 0.999999, 1.000001]
INTS = [0, 1, -1, 2, 3, 4, 5, 16, 64, 1000, -2 ** 31, 2 ** 31 - 1, 7, 99]
KEYPATHS = [
    "position", "position.x", "position.y", "zPosition", "anchorPoint", "anchorPoint.x", "anchorPointZ", "bounds",
    "bounds.origin", "bounds.size", "bounds.size.width", "frame", "transform", "transform.rotation",
    "transform.rotation.x", "transform.rotation.y", "transform.rotation.z", "transform.scale", "transform.scale.x",
    "transform.translation", "transform.translation.z", "transform.m34", "transform.m11", "sublayerTransform",
    "sublayerTransform.m34", "opacity", "hidden", "backgroundColor", "backgroundColor.a", "borderColor",
    "borderWidth", "cornerRadius", "shadowColor", "shadowOpacity", "shadowOffset", "shadowOffset.height",
    "shadowRadius", "contentsRect", "masksToBounds", "doubleSided", "contents", "beginTime", "speed", "timeOffset",
    "duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
]
BAD_KEYPATHS = ["", "bogus", "position.", ".position", "position..x", "position.z", "transform.rotation.w",
                "transform.m55", "transform.m00", "bounds.size.depth", "x" * 300, "opacity.x", "frame.origin.x",
                "\u00e9t\u00e9", "transform.scale.x.y"]
RAW_BAD = [b"\xff\xfe", b"position\xff", None]

# Inputs that crash the current library because of engine bugs reproduced (as
# strict xfails) in test_engine_bugs.py are steered around, so that the fuzzer
# keeps finding new problems. Set CADENCE_FUZZ_KNOWN_BUGS=1 to include them.
AVOID_KNOWN_BUGS = not os.environ.get("CADENCE_FUZZ_KNOWN_BUGS")


class Fuzzer:
    def __init__(self, seed: int, log_path: str | None) -> None:
        self.r = random.Random(seed)
        self.log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC) if log_path else None
        self.engine = cadence.Engine()
        self.other = cadence.Engine()  # for foreign handles
        self.layers: list[int] = []
        self.dead_layers: list[int] = []
        self.anims: list[int] = []
        self.dead_anims: list[int] = []
        self.foreign: list[int] = []
        self.now = 0.0
        self.depth = 0
        self.open_tx = 0
        self.keep: list = []  # python objects (callbacks) that must outlive C's use
        for _ in range(3):
            out = c_uint64()
            lib.cad_layer_create(self.other.pointer, byref(out))
            self.foreign.append(out.value)
        self.ops = [(name[3:], getattr(self, name)) for name in dir(self) if name.startswith("op_")]

    # ---- helpers ----------------------------------------------------------------

    def log(self, text: str) -> None:
        if self.log_fd is not None:
            os.write(self.log_fd, (text + "\n").encode("utf-8", "replace"))

    @property
    def e(self) -> int:
        if self.engine.closed:
            self.reset_engine()
        return self.engine.pointer

    def reset_engine(self) -> None:
        self.log("reset engine")
        self.engine.close()
        self.engine = cadence.Engine()
        self.dead_layers = (self.dead_layers + self.layers)[-50:]
        self.dead_anims = (self.dead_anims + self.anims)[-50:]
        self.layers, self.anims = [], []
        self.now = 0.0
        self.open_tx = 0

    def d(self) -> float:
        r = self.r.random()
        if r < 0.5:
            return self.r.choice(DOUBLES)
        if r < 0.8:
            return self.r.uniform(-2, 2)
        return self.r.uniform(0, 1)

    def i32(self) -> int:
        return self.r.choice(INTS) if self.r.random() < 0.6 else self.r.randint(-3, 40)

    def handle(self, prefer: str = "layer") -> int:
        r = self.r.random()
        pool = self.layers if prefer == "layer" else self.anims
        if r < 0.6 and pool:
            return self.r.choice(pool)
        if r < 0.7:
            return 0
        if r < 0.78 and self.dead_layers + self.dead_anims:
            return self.r.choice(self.dead_layers + self.dead_anims)
        if r < 0.86 and self.foreign:
            return self.r.choice(self.foreign)
        if r < 0.93:
            other = self.anims if prefer == "layer" else self.layers
            if other:
                return self.r.choice(other)
        return self.r.getrandbits(64)

    def keypath(self):
        r = self.r.random()
        if r < 0.75:
            return self.r.choice(KEYPATHS).encode()
        if r < 0.92:
            return self.r.choice(BAD_KEYPATHS).encode("utf-8")
        return self.r.choice(RAW_BAD)

    def key(self):
        r = self.r.random()
        if r < 0.5:
            return self.r.choice([b"a", b"b", b"position", b"opacity", b"transition", b""])
        if r < 0.7:
            return None
        if r < 0.8:
            return b"k" * self.r.randint(60, 200)
        return self.keypath()

    def dbuf(self, size: int):
        """A double buffer of `size` (NULL sometimes) and a count that never exceeds it."""
        if self.r.random() < 0.1:
            return None, self.r.choice([0, 1, 4, 16, -1, 2 ** 31 - 1])
        buf = (c_double * max(size, 1))(*[self.d() for _ in range(max(size, 1))])
        n = self.r.choice([size, size, size, self.r.randint(0, size), -1, -(2 ** 31), 0])
        return buf, n

    def out_d(self, size: int):
        if self.r.random() < 0.1:
            return None, self.r.choice([0, 16, -1])
        buf = (c_double * max(size, 1))()
        return buf, self.r.choice([size, size, self.r.randint(0, size), -1, 0])

    def opt_byref(self, obj):
        return None if self.r.random() < 0.08 else byref(obj)

    # ---- engine, time, events --------------------------------------------------------

    def op_tick(self):
        r = self.r.random()
        if r < 0.85:
            t = self.now + self.r.choice([0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0])
        elif r < 0.9:
            t = self.now - 1.0
        elif r < 0.95:
            t = self.r.choice([NAN, INF, -INF])
        else:
            t = self.now + self.r.choice([1e6, 1e15])
        self.log(f"tick {t!r}")
        try:
            self.engine.tick(t)
            if math.isfinite(t) and t >= self.now:
                self.now = t
        except (CadenceError, ArithmeticError, LookupError, TypeError, ValueError, RuntimeError):
            pass

    def op_poll(self):
        ev = cadence.cad_event()
        for _ in range(self.r.randint(0, 20)):
            st = lib.cad_engine_poll_event(self.e, byref(ev) if self.r.random() > 0.05 else None)
            if st == cadence.Status.NOT_FOUND:
                break

    def op_event_capacity(self):
        lib.cad_engine_set_event_capacity(self.e, self.r.choice([0, 1, 2, 10, 4096, -1, -(2 ** 31), 2 ** 31 - 1]))
        n = c_uint64()
        lib.cad_engine_events_dropped(self.e, self.opt_byref(n))

    def op_misc_library(self):
        lib.cad_status_name(self.r.randint(-(2 ** 31), 2 ** 31 - 1))
        lib.cad_status_name(self.r.randint(-10, 2))
        lib.cad_last_error()
        lib.cad_media_time()
        out = c_double()
        lib.cad_engine_now(self.e, self.opt_byref(out))
        cnt = c_int32()
        lib.cad_engine_layer_count(self.e, self.opt_byref(cnt))

    # ---- layers ------------------------------------------------------------------------

    def op_layer_create(self):
        if len(self.layers) > 150:
            return self.op_layer_destroy()
        out = c_uint64()
        if lib.cad_layer_create(self.e, self.opt_byref(out)) == 0 and out.value:
            self.layers.append(out.value)

    def op_layer_destroy(self):
        h = self.handle()
        self.log(f"layer_destroy {h:#x}")
        if lib.cad_layer_destroy(self.e, h) == 0 and h in self.layers:
            self.layers.remove(h)
            self.dead_layers.append(h)

    def op_tree(self):
        a, b = self.handle(), self.handle()
        which = self.r.randrange(4)
        self.log(f"tree {which} {a:#x} {b:#x}")
        if which == 0:
            lib.cad_layer_add_sublayer(self.e, a, b)
        elif which == 1:
            lib.cad_layer_insert_sublayer(self.e, a, b, self.i32())
        elif which == 2:
            lib.cad_layer_remove_from_superlayer(self.e, a)
        else:  # try hard for a cycle: add a layer's ancestor below it
            out = c_uint64()
            if lib.cad_layer_superlayer(self.e, a, byref(out)) == 0 and out.value:
                lib.cad_layer_add_sublayer(self.e, a, out.value)
                lib.cad_layer_add_sublayer(self.e, a, a)

    def op_tree_read(self):
        h = self.handle()
        out = c_uint64()
        lib.cad_layer_superlayer(self.e, h, self.opt_byref(out))
        size = self.r.choice([0, 1, 2, 8, 64])
        buf = (c_uint64 * max(size, 1))() if self.r.random() > 0.1 else None
        cap = self.r.choice([size, 0, -1, self.r.randint(0, size)]) if buf is not None else self.r.choice([0, 5, -1])
        n = c_int32()
        lib.cad_layer_sublayers(self.e, h, buf, cap, self.opt_byref(n))

    def op_layer_set(self):
        h, kp = self.handle(), self.keypath()
        buf, n = self.dbuf(self.r.choice([1, 2, 4, 16, 3, 0]))
        self.log(f"layer_set {h:#x} {kp!r} n={n}")
        lib.cad_layer_set(self.e, h, kp, buf, n)

    def op_layer_set_sane(self):
        # well-formed values, so that the scene actually animates
        if not self.layers:
            return self.op_layer_create()
        h = self.r.choice(self.layers)
        kp, n = self.r.choice([(b"position", 2), (b"opacity", 1), (b"bounds", 4), (b"transform.rotation.z", 1),
                               (b"backgroundColor", 4), (b"hidden", 1), (b"transform.scale", 1), (b"speed", 1),
                               (b"timeOffset", 1), (b"beginTime", 1), (b"sublayerTransform.m34", 1)])
        vals = (c_double * n)(*[self.r.uniform(-5, 5) for _ in range(n)])
        lib.cad_layer_set(self.e, h, kp, vals, n)

    def op_layer_get(self):
        h, kp = self.handle(), self.keypath()
        buf, cap = self.out_d(self.r.choice([0, 1, 2, 4, 16]))
        n = c_int32()
        fn = lib.cad_layer_get if self.r.random() < 0.5 else lib.cad_layer_presentation
        self.log(f"layer_get {h:#x} {kp!r} cap={cap}")
        fn(self.e, h, kp, buf, cap, self.opt_byref(n))

    def op_contents(self):
        h = self.handle()
        lib.cad_layer_set_contents(self.e, h, self.r.getrandbits(64))
        out = c_uint64()
        lib.cad_layer_get_contents(self.e, h, self.opt_byref(out))

    def op_actions(self):
        h = self.handle()
        which = self.r.randrange(3)
        if which == 0:
            lib.cad_layer_set_actions_enabled(self.e, h, self.i32())
        elif which == 1:
            lib.cad_layer_set_action(self.e, h, self.key(), self.handle("anim"))
        else:
            lib.cad_layer_clear_action(self.e, h, self.key())

    def op_convert_time(self):
        out = c_double()
        lib.cad_layer_convert_time(self.e, self.d(), self.handle(), self.handle(), self.opt_byref(out))

    def op_convert_point(self):
        out = (c_double * 2)()
        lib.cad_layer_convert_point(self.e, self.d(), self.d(), self.handle(), self.handle(),
                                    self.r.choice([0, 1, -1, 7]), out if self.r.random() < 0.9 else None)

    def op_hit_test(self):
        out = c_uint64()
        lib.cad_layer_hit_test(self.e, self.handle(), self.d(), self.d(), self.r.choice([0, 1, 2]), self.opt_byref(out))

    # ---- animations --------------------------------------------------------------------

    def op_anim_create(self):
        if len(self.anims) > 150:
            return self.op_anim_destroy()
        kind = self.r.choice([0, 1, 2, 3, 4, 0, 1, 2, -1, 5, 99])
        kp = None if (kind in (3, 4) and self.r.random() < 0.8) else self.keypath()
        out = c_uint64()
        self.log(f"anim_create {kind} {kp!r}")
        if lib.cad_anim_create(self.e, kind, kp, self.opt_byref(out)) == 0 and out.value:
            self.anims.append(out.value)

    def op_anim_destroy(self):
        a = self.handle("anim")
        self.log(f"anim_destroy {a:#x}")
        if lib.cad_anim_destroy(self.e, a) == 0 and a in self.anims:
            self.anims.remove(a)
            self.dead_anims.append(a)

    def op_anim_timing(self):
        a = self.handle("anim")
        name = self.r.choice(["cad_anim_set_begin_time", "cad_anim_set_duration", "cad_anim_set_speed",
                              "cad_anim_set_time_offset", "cad_anim_set_repeat_count",
                              "cad_anim_set_repeat_duration"])
        v = self.d()
        self.log(f"{name} {a:#x} {v!r}")
        getattr(lib, name)(self.e, a, v)

    def op_anim_flags(self):
        a = self.handle("anim")
        name = self.r.choice(["cad_anim_set_autoreverses", "cad_anim_set_fill_mode",
                              "cad_anim_set_removed_on_completion", "cad_anim_set_timing_function",
                              "cad_anim_set_additive", "cad_anim_set_cumulative", "cad_anim_set_calculation_mode",
                              "cad_anim_set_rotation_mode"])
        getattr(lib, name)(self.e, a, self.i32())
        lib.cad_anim_set_tag(self.e, a, self.r.choice([0, -1, 2 ** 63 - 1, -(2 ** 63), 42]))

    def op_anim_bezier(self):
        a = self.handle("anim")
        if self.r.random() < 0.7:
            lib.cad_anim_set_timing_bezier(self.e, a, self.d(), self.d(), self.d(), self.d())
        else:
            lib.cad_anim_set_timing_steps(self.e, a, self.i32(), self.i32())

    def op_anim_values(self):
        a = self.handle("anim")
        buf, n = self.dbuf(self.r.choice([1, 2, 4, 16, 3]))
        fn = self.r.choice([lib.cad_anim_set_from, lib.cad_anim_set_to, lib.cad_anim_set_by])
        self.log(f"anim_value {a:#x} n={n}")
        fn(self.e, a, buf, n)

    def op_anim_sane(self):
        # well-formed animations added to real layers, so ticks have work to do
        if not self.layers:
            return self.op_layer_create()
        h = self.r.choice(self.layers)
        kind = self.r.choice(["basic", "spring", "keyframe", "group", "transition", "path"])
        eng = self.engine
        try:
            if kind == "basic":
                an = Animation.basic(eng, "opacity", from_=self.r.random(), to=self.r.random(),
                                     duration=self.r.choice([0, 0.1, 1]), repeat_count=self.r.choice([0, 2, INF]),
                                     autoreverses=self.r.random() < 0.3, fill_mode=self.r.randrange(4),
                                     removed_on_completion=self.r.random() < 0.8, cumulative=self.r.random() < 0.2,
                                     time_offset=self.r.choice([0, 0.3]), speed=self.r.choice([1, 2, 0, -1]))
            elif kind == "spring":
                an = Animation.spring(eng, "position", from_=(0, 0), to=(10, 10), damping=self.r.choice([0, 5, 20, 40]))
            elif kind == "keyframe":
                n = self.r.randint(1, 6)
                an = Animation.keyframe(eng, "transform", values=[cadence.Transform3D.rotation(self.r.uniform(-7, 7))
                                                                  for _ in range(n)],
                                        calculation_mode=self.r.randrange(5), duration=self.r.choice([0.1, 1]))
            elif kind == "group":
                kids = [Animation.basic(eng, "position.x", to=self.r.uniform(-9, 9)) for _ in range(self.r.randint(0, 3))]
                an = Animation.group(eng, kids, duration=self.r.choice([0, 0.5, 2]))
            elif kind == "transition":
                an = Animation.transition(eng, self.r.randrange(6), self.r.randrange(4), duration=0.3)
            else:
                p = cadence.Path().move_to(0, 0)
                for _ in range(self.r.randint(0, 5)):
                    self.r.choice([lambda: p.line_to(self.r.uniform(-9, 9), 3), lambda: p.close(),
                                   lambda: p.quad_to(1, 2, 3, 4), lambda: p.cubic_to(0, 0, 0, 0, 0, 0),
                                   lambda: p.move_to(5, 5)])()
                an = Animation.keyframe(eng, "position", path=p, calculation_mode=self.r.randrange(5),
                                        rotation_mode=self.r.randrange(3), duration=0.5)
            if self.r.random() < 0.3:
                an.on_event(self.make_callback())
            cadence.Layer(eng, h).add_animation(an, self.r.choice([None, "a", "b", "position", "transition"]))
            an.close()
        except (CadenceError, ValueError, TypeError):
            pass

    def op_spring(self):
        a = self.handle("anim")
        which = self.r.randrange(4)
        if which == 0:
            lib.cad_anim_set_spring(self.e, a, self.d(), self.d(), self.d(), self.d())
        elif which == 1:
            lib.cad_anim_set_spring_perceptual(self.e, a, self.d(), self.d())
        elif which == 2:
            lib.cad_anim_set_spring_uikit(self.e, a, self.d(), self.d(), self.d())
        else:
            out = c_double()
            lib.cad_anim_spring_settling_duration(self.e, a, self.opt_byref(out))

    def op_keyframes(self):
        a = self.handle("anim")
        which = self.r.randrange(4)
        if which == 0:
            size = self.r.choice([0, 1, 4, 16, 64])
            buf = (c_double * max(size, 1))(*[self.d() for _ in range(max(size, 1))]) if self.r.random() > 0.1 else None
            comps = self.r.choice([1, 2, 4, 16, 0, -1, 3])
            count = self.r.choice([size // comps if comps > 0 else 0, 0, -1, 1]) if buf is not None else \
                self.r.choice([0, 3, -1])
            if buf is not None and comps > 0 and count > 0 and count * comps > size:
                count = size // comps
            self.log(f"set_values {a:#x} count={count} comps={comps}")
            lib.cad_anim_set_values(self.e, a, buf, count, comps)
        elif which == 1:
            buf, n = self.dbuf(self.r.choice([0, 2, 3, 5]))
            if buf is not None and self.r.random() < 0.5:
                m = max(n, 0)
                for i in range(m):
                    buf[i] = i / max(m - 1, 1)
            lib.cad_anim_set_key_times(self.e, a, buf, n)
        elif which == 2:
            size = self.r.choice([0, 4, 8, 12])
            buf = (c_double * max(size, 1))(*[self.d() for _ in range(max(size, 1))]) if self.r.random() > 0.1 else None
            segs = self.r.choice([size // 4, 0, -1]) if buf is not None else self.r.choice([0, 2, -1])
            lib.cad_anim_set_segment_timing(self.e, a, buf, segs)
        else:
            size = self.r.choice([0, 2, 5])
            arrs = [None if self.r.random() < 0.3 else (c_double * max(size, 1))(*[self.d() for _ in range(max(size, 1))])
                    for _ in range(3)]
            cnt = self.r.choice([size, 0, -1]) if all(x is not None for x in arrs) else self.r.choice([size, 0, -1, 3])
            if any(x is not None for x in arrs) and cnt > size:
                cnt = size
            lib.cad_anim_set_tcb(self.e, a, arrs[0], arrs[1], arrs[2], cnt)

    def op_path(self):
        a = self.handle("anim")
        which = self.r.randrange(5)
        if which == 0:
            lib.cad_anim_path_move_to(self.e, a, self.d(), self.d())
        elif which == 1:
            lib.cad_anim_path_line_to(self.e, a, self.d(), self.d())
        elif which == 2:
            lib.cad_anim_path_quad_to(self.e, a, self.d(), self.d(), self.d(), self.d())
        elif which == 3:
            lib.cad_anim_path_cubic_to(self.e, a, *[self.d() for _ in range(6)])
        else:
            lib.cad_anim_path_close(self.e, a)

    def op_group(self):
        g = self.handle("anim")
        size = self.r.choice([0, 1, 3, 8])
        kids = [self.handle("anim") for _ in range(size)]
        if self.r.random() < 0.3:
            kids.append(g)  # a group containing itself
        arr = (c_uint64 * max(len(kids), 1))(*kids) if self.r.random() > 0.1 else None
        cnt = self.r.choice([len(kids), 0, -1]) if arr is not None else self.r.choice([0, 2, -1])
        self.log(f"group {g:#x} count={cnt}")
        lib.cad_anim_group_set_children(self.e, g, arr, cnt)

    def op_deep_groups(self):
        # nest groups beyond the documented depth (32)
        try:
            an = Animation.basic(self.engine, "opacity", to=0.5)
            for _ in range(self.r.choice([5, 33, 40])):
                an = Animation.group(self.engine, [an], duration=0.5)
            if self.layers:
                cadence.Layer(self.engine, self.r.choice(self.layers)).add_animation(an)
        except (CadenceError, ValueError, TypeError):
            pass

    def op_transition(self):
        a = self.handle("anim")
        if self.r.random() < 0.5:
            lib.cad_anim_set_transition(self.e, a, self.i32(), self.i32())
        else:
            lib.cad_anim_set_transition_progress(self.e, a, self.d(), self.d())

    def make_callback(self):
        def cb(ev):
            if self.depth > 2:
                return
            self.depth += 1
            try:
                for _ in range(self.r.randint(0, 3)):
                    name, op = self.r.choice(self.ops)
                    if name in ("close_engine",) and self.r.random() < 0.7:
                        continue
                    self.log(f"  in callback: {name}")
                    op()
                if self.r.random() < 0.05:
                    raise RuntimeError("callback failure")  # must come back out of tick, not crash
            finally:
                self.depth -= 1
        return cb

    def op_callback(self):
        a = self.handle("anim")
        if self.r.random() < 0.3:
            lib.cad_anim_set_callback(self.e, a, cadence.cad_anim_callback(), None)
            return
        try:
            an = Animation._view(self.engine, a)
            an.on_event(self.make_callback())
        except (CadenceError, ValueError, TypeError):
            pass

    def op_attach(self):
        h, a = self.handle(), self.handle("anim")
        which = self.r.randrange(6)
        self.log(f"attach {which} {h:#x} {a:#x}")
        if which <= 1:
            lib.cad_layer_add_animation(self.e, h, a, self.key())
        elif which == 2:
            lib.cad_layer_remove_animation(self.e, h, self.key())
        elif which == 3:
            lib.cad_layer_remove_all_animations(self.e, h)
        elif which == 4:
            cnt = c_int32()
            lib.cad_layer_animation_count(self.e, h, self.opt_byref(cnt))
            size = self.r.choice([0, 1, 8, 64])
            buf = ctypes.create_string_buffer(max(size, 1)) if self.r.random() > 0.1 else None
            cap = self.r.choice([size, 0, -1]) if buf is not None else self.r.choice([0, 10, -1])
            n = c_int32()
            lib.cad_layer_animation_key_at(self.e, h, self.i32() if self.r.random() < 0.5 else 0, buf, cap,
                                           self.opt_byref(n))
        else:
            out = c_uint64()
            if lib.cad_layer_animation_for_key(self.e, h, self.key(), self.opt_byref(out)) == 0 and out.value:
                ro = out.value
                lib.cad_anim_set_duration(self.e, ro, 1.0)  # read-only: must fail cleanly
                lib.cad_layer_add_animation(self.e, self.handle(), ro, None)
                lib.cad_anim_destroy(self.e, ro)

    # ---- transactions --------------------------------------------------------------------

    def op_transaction(self):
        which = self.r.randrange(10)
        e = self.e
        if which == 0 and self.open_tx < 40:
            if lib.cad_transaction_begin(e) == 0:
                self.open_tx += 1
        elif which == 1:
            st = lib.cad_transaction_commit(e)
            if st == 0:
                self.open_tx = max(0, self.open_tx - 1)
            self.engine._reraise() if not self.engine.closed else None
        elif which == 2:
            lib.cad_transaction_set_duration(e, self.d())
        elif which == 3:
            lib.cad_transaction_set_timing_function(e, self.i32())
            lib.cad_transaction_set_timing_bezier(e, self.d(), self.d(), self.d(), self.d())
        elif which == 4:
            lib.cad_transaction_set_disable_actions(e, self.i32())
            out = c_int64()
            lib.cad_transaction_id(e, self.opt_byref(out))
        elif which == 5:
            lib.cad_transaction_set_delay(e, self.d())
            lib.cad_transaction_set_repeat_count(e, self.d())
            lib.cad_transaction_set_autoreverses(e, self.i32())
        elif which == 6:
            lib.cad_transaction_set_spring(e, self.d(), self.d())
        elif which == 7:
            if lib.cad_transaction_begin_keyframe(e, self.d(), self.d()) == 0:
                self.open_tx += 1
        elif which == 8:
            def completion():
                if self.r.random() < 0.2:
                    raise RuntimeError("completion failure")  # re-raised from commit/tick

            try:
                self.engine._set_completion(completion)
            except CadenceError:
                pass
            if self.r.random() < 0.5:
                lib.cad_transaction_set_completion(e, cadence.cad_transaction_callback(), None)
        else:
            try:
                with self.engine.animate(duration=self.r.choice([0, 0.2, 1, NAN]), delay=self.r.choice([0, 0.1, -1]),
                                         repeat=self.r.choice([0, 2, True]), autoreverse=self.r.random() < 0.3,
                                         spring_damping=self.r.choice([None, 0.5, 0, 2])):
                    for _ in range(self.r.randint(0, 3)):
                        self.op_layer_set_sane()
                    if self.r.random() < 0.3:
                        with self.engine.keyframe(self.d(), self.d()):
                            self.op_layer_set_sane()
            except (CadenceError, ValueError, TypeError, RuntimeError):
                pass

    # ---- frame output --------------------------------------------------------------------

    def op_render_list(self):
        root = self.handle()
        size = self.r.choice([0, 1, 4, 64, 400])
        buf = (cadence.cad_render_item * max(size, 1))() if self.r.random() > 0.1 else None
        cap = self.r.choice([size, 0, -1, self.r.randint(0, size)]) if buf is not None else self.r.choice([0, 4, -1])
        n = c_int32()
        self.log(f"render_list {root:#x} cap={cap}")
        lib.cad_engine_render_list(self.e, root, buf, cap, self.opt_byref(n))

    def op_sample(self):
        size = self.r.choice([0, 1, 5, 30])
        hs = [self.handle() for _ in range(size)]
        harr = (c_uint64 * max(size, 1))(*hs) if self.r.random() > 0.1 else None
        count = self.r.choice([size, 0, -1, self.r.randint(0, size)]) if harr is not None else self.r.choice([0, 3, -1])
        osize = self.r.choice([0, 1, size, size * 2, size * 16])
        out = (c_double * max(osize, 1))() if self.r.random() > 0.1 else None
        cap = self.r.choice([osize, 0, -1]) if out is not None else self.r.choice([0, 8, -1])
        n = c_int32()
        self.log(f"sample count={count} cap={cap}")
        lib.cad_engine_sample(self.e, harr, count, self.keypath(), out, cap, self.opt_byref(n))

    def op_high_level(self):
        # the Python layer must turn hostile input into exceptions too
        eng = self.engine
        try:
            which = self.r.randrange(6)
            if which == 0:
                l = cadence.Layer(eng, self.handle())
                setattr(l, self.r.choice(cadence.Layer.PROPERTIES), self.r.choice([self.d(), (self.d(), self.d()),
                                                                                  "x", None, [self.d()] * 16]))
            elif which == 1:
                eng.sample([cadence.Layer(eng, self.handle()) for _ in range(self.r.randint(0, 4))],
                           self.r.choice(KEYPATHS + BAD_KEYPATHS))
            elif which == 2:
                eng.render_list(cadence.Layer(eng, self.handle()))
            elif which == 3:
                cadence.Layer(eng, self.handle()).animation_keys()
            elif which == 4:
                cadence.Layer(eng, self.handle()).sublayers
            else:
                list(eng.poll_events())
        except (CadenceError, ValueError, TypeError, RuntimeError):
            pass

    def op_close_engine(self):
        if self.r.random() < 0.1:
            self.log("close engine")
            self.engine.close()

    # ---- driver ----------------------------------------------------------------------------

    def run(self, n_calls: int) -> None:
        weights = {"tick": 6, "layer_set_sane": 4, "anim_sane": 4, "layer_create": 3, "close_engine": 0.2,
                   "deep_groups": 0.3, "high_level": 2}
        names = [n for n, _ in self.ops]
        w = [weights.get(n, 1.0) for n in names]
        for i in range(n_calls):
            name, op = self.ops[self.r.choices(range(len(names)), w)[0]]
            self.log(f"#{i} {name}")
            try:
                op()
            except (CadenceError, ctypes.ArgumentError, RuntimeError):
                pass
        self.engine.close()
        self.other.close()


def main() -> int:
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    log = sys.argv[3] if len(sys.argv) > 3 else None
    Fuzzer(seed, log).run(n)
    print(f"survived seed={seed} calls={n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
