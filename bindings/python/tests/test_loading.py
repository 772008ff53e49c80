"""Loading the library, the generated table, the ABI checks and the low-level table."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cadence
from cadence import _abi, _lib, lib

PACKAGE_DIR = Path(cadence.__file__).resolve().parent


def test_every_table_function_is_bound_with_its_signature():
    for name, ret, args in _abi.FUNCTIONS:
        fn = getattr(lib, name)
        if name in lib.missing_functions:
            continue
        assert isinstance(fn, ctypes._CFuncPtr), name
        assert fn.restype is _lib.resolve_type(ret), name
        assert list(fn.argtypes) == [_lib.resolve_type(t) for _, t in args], name


def test_low_level_functions_are_unwrapped():
    fn = lib.cad_layer_get
    assert isinstance(fn, ctypes._CFuncPtr)
    # no errcheck hook installed (it would cost a Python call per C call)
    fresh = ctypes.CDLL(cadence.LIBRARY_PATH).cad_layer_get
    assert fn.errcheck is fresh.errcheck
    # attributes live in the instance dict: a plain lookup, no __getattr__ hook
    assert "cad_layer_get" in vars(lib)


def test_type_resolution():
    r = _lib.resolve_type
    assert r("engine") is ctypes.c_void_p
    assert r("c_char_p") is ctypes.c_char_p
    assert r("c_char_buf") is ctypes.POINTER(ctypes.c_char)
    assert r("POINTER(c_double)") is ctypes.POINTER(ctypes.c_double)
    assert r("cad_layer") is ctypes.c_uint64
    assert r("cad_anim") is ctypes.c_uint64
    assert r("cad_fill_mode") is ctypes.c_int32
    assert r("POINTER(cad_render_item)") is ctypes.POINTER(cadence.cad_render_item)
    assert r("cad_anim_callback") is cadence.cad_anim_callback
    assert r("None") is None
    with pytest.raises(TypeError):
        r("no_such_type")


def test_struct_layouts_match_the_library():
    assert ctypes.sizeof(cadence.cad_render_item) == lib.cad_sizeof_render_item()
    assert ctypes.sizeof(cadence.cad_event) == lib.cad_sizeof_event()
    names = [f for f, _, _ in _abi.STRUCTS["cad_render_item"]]
    assert [f[0] for f in cadence.cad_render_item._fields_] == names
    assert cadence.cad_event.key.size == 64
    assert cadence.cad_render_item.world.size == 16 * 4


def test_versions():
    assert lib.cad_abi_version() == _abi.ABI_VERSION == cadence.ABI_VERSION
    assert re.fullmatch(r"\d+\.\d+\.\d+", cadence.LIBRARY_VERSION)
    assert cadence.__version__ == _abi.VERSION
    assert os.path.exists(cadence.LIBRARY_PATH)


def test_constants_and_enums_mirror_the_table():
    for cname, value in _abi.CONSTANTS.items():
        assert getattr(lib, cname) == value
    assert cadence.FillMode.FORWARDS == _abi.CONSTANTS["CAD_FILL_FORWARDS"]
    assert cadence.TimingName.EASE_IN_EASE_OUT == _abi.CONSTANTS["CAD_TIMING_EASE_IN_EASE_OUT"]
    assert cadence.TransitionSubtype.FROM_BOTTOM == _abi.CONSTANTS["CAD_FROM_BOTTOM"]
    assert cadence.EventKind.TRANSACTION_COMPLETE == 3
    assert cadence.Status.NOT_FOUND == -6
    assert cadence.ItemFlag.MASKS_TO_BOUNDS | cadence.ItemFlag.DOUBLE_SIDED == 3
    total = sum(len(list(E)) for E in (cadence.Status, cadence.AnimKind, cadence.FillMode, cadence.TimingName,
                                       cadence.CalcMode, cadence.RotationMode, cadence.TransitionType,
                                       cadence.TransitionSubtype, cadence.EventKind, cadence.ItemFlag))
    assert total == len(_abi.CONSTANTS)


def test_lookup_order(monkeypatch):
    monkeypatch.setenv("CADENCE_LIBRARY", "/nonexistent/libcadence.so")
    cands = _lib.find_library_candidates()
    assert cands[0] == ("$CADENCE_LIBRARY", "/nonexistent/libcadence.so")
    assert cands[1][0] == "package directory"
    assert cands[1][1] == str(PACKAGE_DIR / _lib.LIBRARY_FILENAMES[0])
    assert cands[-1][0].startswith("system loader")
    kinds = [w for w, _ in cands]
    builds = [i for i, w in enumerate(kinds) if w.startswith("build folder")]
    assert all(1 < i < len(kinds) - 1 for i in builds)
    system = [p for w, p in cands if w.startswith("system loader (") and "find_library" not in w]
    if sys.platform.startswith("linux"):
        # the development link first, then the SONAME a runtime-only package ships
        assert system[-2:] == ["libcadence.so", f"libcadence.so.{_abi.ABI_VERSION}"]


def _copy_package(tmp_path: Path, edit_abi=None) -> Path:
    """A copy of the package, in a directory with no build folders above it."""
    dest = tmp_path / "pkg"
    shutil.copytree(PACKAGE_DIR, dest / "cadence", ignore=shutil.ignore_patterns("__pycache__", "libcadence.*"))
    if edit_abi:
        p = dest / "cadence" / "_abi.py"
        p.write_text(edit_abi(p.read_text()))
    return dest


def _run_import(pkg: Path, env_lib: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, CADENCE_LIBRARY=env_lib, PYTHONPATH=str(pkg))
    code = "import cadence"
    return subprocess.run([sys.executable, "-c", code], cwd=str(pkg), env=env, capture_output=True, text=True,
                          timeout=60)


def test_missing_library_lists_what_was_tried(tmp_path):
    if ctypes.util.find_library("cadence"):
        pytest.skip("a system libcadence is installed")
    pkg = _copy_package(tmp_path)
    r = _run_import(pkg, "/nonexistent/libcadence.so")
    assert r.returncode != 0
    assert "LibraryNotFoundError" in r.stderr
    assert "/nonexistent/libcadence.so" in r.stderr
    assert "package directory" in r.stderr
    assert "system loader" in r.stderr
    assert "CADENCE_LIBRARY" in r.stderr


def test_abi_version_mismatch_is_an_import_error(tmp_path):
    pkg = _copy_package(tmp_path, lambda s: s.replace("ABI_VERSION = ", "ABI_VERSION = 1000 + "))
    r = _run_import(pkg, cadence.LIBRARY_PATH)
    assert r.returncode != 0
    assert "LibraryMismatchError" in r.stderr
    assert "ABI version" in r.stderr


def test_struct_size_mismatch_is_an_import_error(tmp_path):
    pkg = _copy_package(tmp_path, lambda s: s.replace("('contents', 'c_uint64', 0),",
                                                      "('contents', 'c_uint64', 0),\n        ('extra', 'c_uint64', 0),"))
    r = _run_import(pkg, cadence.LIBRARY_PATH)
    assert r.returncode != 0
    assert "LibraryMismatchError" in r.stderr
    assert "sizeof(cad_render_item)" in r.stderr


def test_bundled_library_in_package_directory_is_found(tmp_path):
    pkg = _copy_package(tmp_path)
    shutil.copy(cadence.LIBRARY_PATH, pkg / "cadence" / _lib.LIBRARY_FILENAMES[0])
    env = {k: v for k, v in os.environ.items() if k != "CADENCE_LIBRARY"}
    env["PYTHONPATH"] = str(pkg)
    r = subprocess.run([sys.executable, "-c", "import cadence; print(cadence.LIBRARY_PATH)"], cwd=str(pkg),
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(pkg / "cadence" / _lib.LIBRARY_FILENAMES[0])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF SONAME lookup")
def test_runtime_only_install_is_found_by_its_soname(tmp_path):
    # A runtime package ships libcadence.so.<ABI> and no libcadence.so link: with
    # its directory on LD_LIBRARY_PATH (or in the loader's cache) the system
    # lookup must still load it.
    if ctypes.util.find_library("cadence"):
        pytest.skip("a system libcadence is installed")
    soname = f"libcadence.so.{_abi.ABI_VERSION}"
    pkg = _copy_package(tmp_path)
    runtime = tmp_path / "runtime-lib"
    runtime.mkdir()
    shutil.copy(cadence.LIBRARY_PATH, runtime / soname)
    env = {k: v for k, v in os.environ.items() if k != "CADENCE_LIBRARY"}
    env.update(PYTHONPATH=str(pkg), LD_LIBRARY_PATH=str(runtime))
    code = ("import cadence; print(cadence.LIBRARY_PATH); "
            "print([l.split()[-1] for l in open('/proc/self/maps') if 'libcadence' in l][0])")
    r = subprocess.run([sys.executable, "-c", code], cwd=str(pkg), env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    name, mapped = r.stdout.split()
    assert name == soname
    assert mapped == str(runtime / soname)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF loader and its cache")
def test_found_but_not_loadable_hints_at_ldconfig(tmp_path):
    # scripts/install.sh into /usr/local/lib before ldconfig has run: find_library
    # finds the library where the linker looks (gcc -lcadence; LIBRARY_PATH plays
    # /usr/local/lib here), and the loader, whose cache does not know it, cannot load it.
    if ctypes.util.find_library("cadence"):
        pytest.skip("a system libcadence is installed")
    soname = f"libcadence.so.{_abi.ABI_VERSION}"
    pkg = _copy_package(tmp_path)
    libdir = tmp_path / "usr-local-lib"
    libdir.mkdir()
    shutil.copy(cadence.LIBRARY_PATH, libdir / soname)
    (libdir / "libcadence.so").symlink_to(soname)
    env = {k: v for k, v in os.environ.items() if k not in ("CADENCE_LIBRARY", "LD_LIBRARY_PATH")}
    env.update(PYTHONPATH=str(pkg), LIBRARY_PATH=str(libdir))
    found = subprocess.run([sys.executable, "-c", "import ctypes.util; print(ctypes.util.find_library('cadence'))"],
                           env=env, capture_output=True, text=True, timeout=60).stdout.strip()
    if found in ("", "None"):
        pytest.skip("ctypes.util.find_library does not ask the linker here (no gcc?)")
    r = subprocess.run([sys.executable, "-c", "import cadence"], cwd=str(pkg), env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0
    assert "LibraryNotFoundError" in r.stderr
    assert f"found {found}, but the loader could not load it" in r.stderr
    assert "sudo ldconfig" in r.stderr and "LD_LIBRARY_PATH" in r.stderr


def test_bad_env_path_warns_and_falls_back(tmp_path):
    pkg = _copy_package(tmp_path)
    shutil.copy(cadence.LIBRARY_PATH, pkg / "cadence" / _lib.LIBRARY_FILENAMES[0])
    r = subprocess.run([sys.executable, "-W", "always", "-c", "import cadence; print(cadence.LIBRARY_PATH)"],
                       cwd=str(pkg), env=dict(os.environ, CADENCE_LIBRARY=str(tmp_path / "nope.so"),
                                              PYTHONPATH=str(pkg)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "RuntimeWarning" in r.stderr and "nope.so" in r.stderr


def test_missing_function_stub_raises():
    stub = _lib._missing_stub("cad_not_there", "/x/libcadence.so")
    with pytest.raises(cadence.MissingFunctionError, match="cad_not_there"):
        stub(1, 2)


def test_media_time_is_monotonic():
    a = cadence.media_time()
    b = cadence.Engine.media_time()
    assert b >= a > 0
