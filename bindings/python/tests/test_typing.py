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
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir",
                        str(tmp_path / ".mypy_cache"), "-p", "cadence"], cwd=PACKAGE_DIR.parent,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


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
