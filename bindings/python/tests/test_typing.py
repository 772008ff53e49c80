"""Static typing: typical code and the README examples pass ``mypy --strict``.

The mypy test runs when mypy is installed (``pip install mypy``). The other tests
check, without mypy, what it relies on: the enums are class statements, the layer
properties are declared in the class body with typed descriptors, and ``Lib``
declares its dynamic attributes for type checkers, while the run-time objects
still match the generated table.
"""
from __future__ import annotations

import ast
import enum
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cadence
from cadence import Layer, _core, enums
from cadence.layer import PROPERTIES, snake_case

PACKAGE_DIR = Path(cadence.__file__).resolve().parent
README = PACKAGE_DIR.parent / "README.md"

# Typical typed code (the audit's repro_typing.py and more), every line README usage.
TYPICAL = '''
from __future__ import annotations
import ctypes
import math
from typing import List
import cadence
from cadence import Animation, Event, EventKind, FillMode, Layer, Point, Rect, Transform3D, lib


def build(engine: cadence.Engine) -> Layer:
    layer = engine.create_layer(bounds=(0, 0, 100, 100), position=(50, 50))
    layer.position = (1.0, 2.0)
    layer.anchor_point = [0.5, 0.5]
    layer.transform = Transform3D.rotation(math.pi / 4)
    layer.opacity = 0.5
    layer.fill_mode = "forwards"
    layer.hidden = False
    layer.background_color = (1, 0, 0, 1)
    return layer


def read(engine: cadence.Engine, layer: Layer) -> float:
    mode: FillMode = layer.fill_mode
    assert mode != FillMode.BOTH
    pos: Point = layer.position
    b: Rect = layer.bounds
    hidden: bool = layer.hidden
    kids: List[Layer] = layer.sublayers
    return layer.opacity + pos.x + b.width + float(hidden) + len(kids)


def animate(engine: cadence.Engine, layer: Layer) -> List[str]:
    log: List[str] = []
    anim = Animation.basic(engine, "position", from_=(0, 0), to=(10, 10), duration=1.0)

    @anim.on_event
    def report(ev: Event) -> None:
        if ev.kind == EventKind.STOP:
            log.append(ev.key)

    anim.repeat_count = 2
    anim.fill_mode = FillMode.FORWARDS
    d: float = anim.duration + anim.repeat_count + anim.begin_time
    layer.add_animation(anim, "move")
    with engine.animate(duration=1, curve="linear"):
        layer.position = (1, 2)
    with engine.transaction(disable_actions=True) as tx:
        tid: int = tx.id
    engine.tick(2.0)
    for event in engine.poll_events():
        log.append(event.kind.name)
    log.append(str(d + tid))
    return log


def low_level(engine: cadence.Engine, handle: int) -> int:
    out = (ctypes.c_double * 16)(); n = ctypes.c_int32()
    status: int = lib.cad_layer_get(engine.pointer, handle, b"opacity", out, 16, ctypes.byref(n))
    return status
'''

# Mistakes mypy must report (so the test shows the types are real, not Any).
WRONG = '''
import cadence
from cadence import FillMode, Point

def f(engine: cadence.Engine) -> None:
    layer = engine.create_layer()
    p: int = layer.position
    layer.opacity = "0.5"
    mode: str = layer.fill_mode
    anim = cadence.Animation.basic(engine, "opacity")
    anim.duration = "2"
'''


#: numpy for the snippets: without numpy installed mypy takes it as Any (and the
#: package must still pass, see test_mypy_strict_passes_for_the_package).
NUMPY_IMPORT = "import numpy as np  # type: ignore[import-not-found, unused-ignore]"


def _readme_blocks() -> list:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    out = [blocks[0]]
    for i, block in enumerate(blocks[1:]):
        # the later blocks are fragments using names defined by the reader: give them types
        out.append(f"import ctypes\nfrom typing import List\n{NUMPY_IMPORT}\nimport cadence\n\n"
                   f"def block_{i}(engine: cadence.Engine, layer: cadence.Layer, root: cadence.Layer,\n"
                   "            layers: List[cadence.Layer]) -> None:\n" + textwrap.indent(block, "    "))
    return out


def _mypy(tmp_path: Path, sources: dict) -> subprocess.CompletedProcess:
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    env = dict(os.environ)
    parent = PACKAGE_DIR.parent
    if parent.name not in ("site-packages", "dist-packages"):  # the source tree
        env["MYPYPATH"] = str(parent)
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir",
                           str(tmp_path / ".mypy_cache"), *sorted(sources)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


def test_mypy_strict_accepts_typical_code_and_the_readme(tmp_path):
    pytest.importorskip("mypy")
    sources = {"typical.py": TYPICAL}
    if README.exists():
        for i, block in enumerate(_readme_blocks()):
            sources[f"readme_{i}.py"] = block
    r = _mypy(tmp_path, sources)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_reports_wrong_types(tmp_path):
    pytest.importorskip("mypy")
    r = _mypy(tmp_path, {"wrong.py": WRONG})
    errors = [line for line in r.stdout.splitlines() if ": error:" in line]
    assert [int(line.split(":")[1]) for line in errors] == [7, 8, 9, 11], r.stdout


def test_mypy_strict_passes_for_the_package(tmp_path):
    # With and without numpy installed (numpy is optional: the package must not need
    # its stubs either).
    pytest.importorskip("mypy")
    # (a copy: the tested package may be an installed one, and mypy run in site-packages
    # would check every module there)
    src = tmp_path / "src"
    shutil.copytree(PACKAGE_DIR, src / "cadence", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.dylib",
                                                                                "*.dll"))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir",
                        str(tmp_path / ".mypy_cache"), "-p", "cadence"], cwd=src,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


# ---- what the run-time checks accept, mypy accepts: numpy values and array-likes ------

# Every line runs (the test executes it too) and passes mypy --strict: numpy scalars
# where numbers, integers or bools are taken, arrays where vectors and keyframe values are.
NUMPY_CODE = """
from __future__ import annotations
import math
from typing import List
import numpy as np
import cadence
from cadence import Animation, CalcMode, FillMode


def main() -> None:
    engine = cadence.Engine()
    layer = engine.create_layer(position=np.array([1.0, 2.0]), opacity=np.float32(0.5))
    engine.tick(0.0)
    layer.position = np.array([1.0, 2.0])
    layer.opacity = np.float32(0.5)
    layer.z_position = np.int64(3)
    layer.transform = np.eye(4)
    layer.background_color = np.array([1.0, 0.0, 0.0, 1.0], dtype=np.float32)
    layer.hidden = np.True_
    layer.masks_to_bounds = np.array([True, False])[1]
    layer.fill_mode = np.int64(FillMode.BOTH)
    layer.contents = np.uint64(5)
    layer.insert_sublayer(engine.create_layer(), np.int32(0))
    layer["position"] = np.array([3.0, 4.0])
    anim = Animation.keyframe(engine, "opacity", values=np.linspace(0, 1, 5), key_times=np.linspace(0, 1, 5),
                              duration=np.float32(2.0))
    anim.key_times = np.linspace(0, 1, 5)
    anim.values = np.zeros((5, 1))
    anim.duration = np.float32(2.0)
    anim.repeat_count = np.True_
    anim.autoreverses = np.False_
    anim.calculation_mode = CalcMode.PACED
    anim.fill_mode = FillMode.BOTH
    anim.tag = np.int64(7)
    anim.set_tcb(tension=np.zeros(5))
    basic = Animation.basic(engine, "position", from_=np.zeros(2), to=np.array([10, 20]), duration=np.float64(1))
    basic.to_value = np.array([5.0, 5.0])
    spring = Animation.spring(engine, "opacity", mass=np.float32(1), to=np.float32(0.5))
    spring.stiffness = np.float32(200)
    engine.tick(np.float32(1.0))
    print(engine.convert_time(np.float32(1.0)), layer.convert_point(np.array([1.0, 2.0])))
    with engine.animate(duration=np.float32(1.0), delay=np.int64(0), repeat=math.inf, autoreverse=np.False_,
                        curve=(np.float32(0.42), 0, 0.58, 1)):
        layer.opacity = 0.25
    with engine.transaction(duration=np.float64(0.5), disable_actions=np.True_) as tx:
        tx.set_duration(np.float32(0.25))
    y: float = cadence.evaluate_timing("easeIn", np.float32(0.5))
    ys: List[float] = cadence.evaluate_timing("easeIn", [np.float32(0.5), 1])
    arr = cadence.evaluate_timing("easeIn", np.linspace(0, 1, 3))
    print(y, ys, arr.shape)
    engine.close()
"""

# The same without numpy: classes with the protocols the annotations name (an array
# protocol, __float__, __index__), and Fraction.
ARRAY_LIKE_CODE = """
from __future__ import annotations
from fractions import Fraction
from typing import Any, Iterator, List
import cadence
from cadence import Animation


class Vec:
    def __init__(self, *xs: float) -> None:
        self.xs = list(xs)

    def __array__(self) -> Any:
        return self.xs

    def __len__(self) -> int:
        return len(self.xs)

    def __getitem__(self, i: int) -> float:
        return self.xs[i]


class Index:
    def __index__(self) -> int:
        return 2


def main() -> None:
    engine = cadence.Engine()
    layer = engine.create_layer()
    engine.tick(Fraction(0))
    layer.position = Vec(1.0, 2.0)
    layer.opacity = Fraction(1, 2)
    layer.fill_mode = Index()
    layer.transform = [Vec(1, 0, 0, 0), Vec(0, 1, 0, 0), Vec(0, 0, 1, 0), Vec(0, 0, 0, 1)]
    layer.transform = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    anim = Animation.keyframe(engine, "position", values=[Vec(0, 0), (1, 1)], key_times=Vec(0, 1))
    anim.tag = Index()
    anim.duration = Fraction(3, 2)
    anim.values = [Vec(0, 0), Vec(2, 2)]
    engine.tick(Fraction(1, 4))
    assert layer.position == (1.0, 2.0) and layer.fill_mode == cadence.FillMode.BACKWARDS
    engine.close()
"""


def _run_snippet(source: str) -> None:
    namespace: dict = {"__name__": "snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    namespace["main"]()


def test_mypy_strict_accepts_numpy_values_the_run_time_accepts(tmp_path):
    pytest.importorskip("numpy")
    _run_snippet(NUMPY_CODE)  # every line works at run time
    pytest.importorskip("mypy")
    r = _mypy(tmp_path, {"numpy_code.py": NUMPY_CODE})
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_accepts_array_likes_without_numpy(tmp_path):
    _run_snippet(ARRAY_LIKE_CODE)
    pytest.importorskip("mypy")
    r = _mypy(tmp_path, {"array_like_code.py": ARRAY_LIKE_CODE})
    assert r.returncode == 0, r.stdout + r.stderr


# ---- what fails at run time, mypy reports ------------------------------------------------

# Each line marked "# E" fails at run time and must be a mypy error; no other line may be.
RUNTIME_FAILURES = """
from __future__ import annotations
from typing import List
import cadence
from cadence import Animation


def main(engine: cadence.Engine, layer: cadence.Layer, anim: Animation) -> None:
    view = layer.animation_for_key("fade")
    assert view is not None
    remaining: float = view.duration - 1.0  # E: None on a view
    with engine.animate(duration=1.0, curve=("steps", 4, "end")):  # E: blocks take no steps
        layer.opacity = 0.1
    with engine.transaction(timing_function=("steps", 2)) as tx:  # E
        tx.set_duraton(1.0)  # E: a typo
        tx.set_timing_function(("steps", 2, "start"))  # E
        with tx.keyframe(0, 0.5) as window:
            window.nope  # E: None
    with engine.animate() as block:
        block.id.bit_length()
        block.nope  # E
    cadence.evaluate_timing(("steps", 2, "end"), 0.5)  # E: no Bézier points
    cadence.timing_bezier(("steps", 2, "end"))  # E
    Animation.keyframe(engine, "opacity", values=[0, 1], timing_functions=[("steps", 2, "end")])  # E
    anim.timing_function = ("steps", 2, "end")
    y: str = cadence.evaluate_timing("easeIn", 0.5)  # E: a float
    ys: List[str] = cadence.evaluate_timing("easeIn", [0.5])  # E: a list of floats
    layer.position = {1.0, 2.0}  # E: a set
    layer.position = {"x": 1.0, "y": 2.0}  # E: a dict
    layer.position = "12"  # E
    layer.opacity = "0.5"  # E
    layer.hidden = "no"  # E
    anim.values = ["0", "1"]  # E
    anim.key_times = "01"  # E
    anim.to_value = "1"  # E
    anim.tag = 1.5  # E
    layer.fill_mode = 1.5  # E
    engine.tick("1")  # E
"""


def _error_lines(r: subprocess.CompletedProcess, name: str) -> list:
    return sorted({int(line.split(":")[1]) for line in r.stdout.splitlines()
                   if line.startswith(name + ":") and ": error:" in line})


def _marked_lines(source: str) -> list:
    return [i for i, line in enumerate(source.splitlines(), 1) if "# E" in line]


def test_mypy_strict_reports_what_fails_at_run_time(tmp_path):
    pytest.importorskip("mypy")
    r = _mypy(tmp_path, {"failures.py": RUNTIME_FAILURES})
    assert _error_lines(r, "failures.py") == _marked_lines(RUNTIME_FAILURES), r.stdout


# The fields a read-only view (Layer.animation_for_key) reads as None: Optional on an
# AnimationView, their own type on an Animation.
VIEW_FIELDS = {
    "begin_time": "float", "duration": "float", "speed": "float", "time_offset": "float",
    "repeat_count": "float", "repeat_duration": "float", "autoreverses": "bool", "fill_mode": "FillMode",
    "removed_on_completion": "bool", "additive": "bool", "cumulative": "bool", "tag": "int",
    "calculation_mode": "CalcMode", "rotation_mode": "RotationMode", "transition_type": "TransitionType",
    "transition_subtype": "TransitionSubtype", "start_progress": "float", "end_progress": "float",
}


def _view_fields_code() -> str:
    lines = ["from cadence import (Animation, AnimationView, CalcMode, FillMode, RotationMode, TransitionSubtype,",
             "                     TransitionType)", "", "", "def f(anim: Animation, view: AnimationView) -> None:"]
    for name, typ in VIEW_FIELDS.items():
        camel = name.split("_")[0] + "".join(p.title() for p in name.split("_")[1:])
        for attr in {name, camel}:
            lines.append(f"    a_{attr}: {typ} = anim.{attr}")
            lines.append(f"    v_{attr}: {typ} = view.{attr}  # E")
            lines.append(f"    o_{attr}: Optional[{typ}] = view.{attr}")
    return "from typing import Optional\n" + "\n".join(lines) + "\n"


def test_fields_of_a_view_are_optional_for_type_checkers(tmp_path, engine, layer):
    # At run time: a view is an AnimationView (an Animation) whose fields read None.
    layer.add_animation(cadence.Animation.basic(engine, "opacity", to=0.5, duration=2.0), "fade")
    view = layer.animation_for_key("fade")
    assert isinstance(view, cadence.AnimationView) and isinstance(view, cadence.Animation)
    assert type(cadence.Animation.basic(engine, "opacity")) is cadence.Animation
    for name in VIEW_FIELDS:
        assert getattr(view, name) is None, name
    pytest.importorskip("mypy")
    code = _view_fields_code()
    r = _mypy(tmp_path, {"views.py": code})
    assert _error_lines(r, "views.py") == _marked_lines(code), r.stdout


def _class_body(path: Path, name: str) -> list:
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node.body
    raise AssertionError(f"no class {name} in {path.name}")


def test_enums_are_classes_matching_the_table():
    for name, members in enums.table_members().items():  # (table_members: a helper of this fix)
        cls = getattr(cadence, name)
        # a class statement (a type checker sees the class and its members)
        body = _class_body(PACKAGE_DIR / "enums.py", name)
        declared = [t.id for node in body if isinstance(node, ast.Assign) for t in node.targets]
        assert declared == list(members), name
        assert issubclass(cls, enum.IntEnum if name != "ItemFlag" else enum.IntFlag)
        assert {m.name: m.value for m in cls} == members, name


def test_layer_properties_are_declared_with_types():
    body = _class_body(PACKAGE_DIR / "layer.py", "Layer")
    assigned = {t.id for node in body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    for kp, kind in PROPERTIES:
        assert {kp, snake_case(kp)} <= assigned, kp
        prop = vars(Layer)[kp]
        assert isinstance(prop, _core.TypedProperty) and vars(Layer)[snake_case(kp)] is prop, kp


def test_lib_declares_dynamic_attributes_for_type_checkers_only():
    body = _class_body(PACKAGE_DIR / "_lib.py", "Lib")
    hooks = [f for node in body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
             for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__getattr__"]
    assert len(hooks) == 1 and ast.unparse(hooks[0].returns) == "Any"
    # at run time the table is unchanged: no __getattr__, unknown names raise
    assert not hasattr(type(cadence.lib), "__getattr__")
    with pytest.raises(AttributeError):
        cadence.lib.cad_no_such_function  # noqa: B018
