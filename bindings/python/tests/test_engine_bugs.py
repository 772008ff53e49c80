"""Regression tests for engine bugs found by the binding's tests (values or
crashes that contradicted the spec). New findings start as strict xfails; once
the engine is fixed the marker is removed and the test stays here.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cadence


def _run_child(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(cadence.__file__).resolve().parent.parent)
    env["CADENCE_LIBRARY"] = cadence.LIBRARY_PATH
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=60)


# Was: cad_layer_set("fillMode", v) with v outside the int32 range trapped (SIGILL).
@pytest.mark.parametrize("value", ["2147483648.0", "-2147483649.0", "1e308"])
def test_layer_fill_mode_out_of_int32_range_is_an_error_not_a_crash(value):
    r = _run_child(f"""
        import ctypes, cadence
        from cadence import lib
        e = cadence.Engine()
        l = e.create_layer()
        v = (ctypes.c_double * 1)({value})
        st = lib.cad_layer_set(e.pointer, l.handle, b"fillMode", v, 1)
        print(st)
    """)
    assert r.returncode == 0, f"child died with status {r.returncode}"
    assert r.stdout.strip() == str(int(cadence.Status.INVALID_ARGUMENT))


def test_binding_rejects_out_of_range_fill_mode_before_the_library():
    # the high-level API guards against the bug above (and against ctypes' silent int32 truncation)
    with cadence.Engine() as e:
        l = e.create_layer()
        with pytest.raises(ValueError):
            l.fill_mode = 2 ** 31
        with pytest.raises(TypeError):
            l.fill_mode = 1e10
        a = cadence.Animation.basic(e, "opacity")
        with pytest.raises(ValueError):
            a.fill_mode = 2 ** 40
