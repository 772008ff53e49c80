"""Package metadata (pyproject.toml) says nothing the repository does not back."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@pytest.mark.skipif(not PYPROJECT.exists(), reason="pyproject.toml not next to the tests (installed copy)")
def test_no_license_claim_without_a_license_file():
    text = PYPROJECT.read_text()
    project = text.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    claims = re.findall(r"^license(?:-files)?\s*=.*$", project, re.M)
    classifiers = re.findall(r'"License :: [^"]*"', project)
    dirs = [PYPROJECT.parent, PYPROJECT.parent.parent.parent]  # bindings/python and the repository root
    license_files = [p.name for d in dirs if d.is_dir() for p in d.iterdir()
                     if p.name.upper().startswith(("LICENSE", "LICENCE", "COPYING"))]
    # The project has no license yet: the metadata must not claim or point to one.
    assert license_files or not (claims or classifiers), (claims, classifiers)


def _wheel(src: Path, out: Path) -> Path:
    import subprocess
    import sys
    out.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(out), str(src)],
                   check=True, capture_output=True, text=True)
    (whl,) = out.glob("*.whl")
    return whl


@pytest.mark.skipif(not PYPROJECT.exists(), reason="pyproject.toml not next to the tests (installed copy)")
def test_builds_outside_the_source_tree_and_never_package_a_removed_library(tmp_path):
    """A wheel build writes nothing next to the sources, and a library copied in
    and removed again is not packaged by the next build (no stale build/)."""
    import shutil
    import zipfile
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 70:
        pytest.importorskip("wheel")   # bdist_wheel (requirements-dev.txt), built in from setuptools 70
    src = tmp_path / "pkg"
    shutil.copytree(PYPROJECT.parent, src, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__", "libcadence.*", "cadence.dll", "tests"))
    before = sorted(p.name for p in src.iterdir())
    (src / "cadence" / "libcadence.so").write_bytes(b"\x7fELF not really a library")
    bundled = _wheel(src, tmp_path / "w1")
    assert not bundled.name.endswith("-none-any.whl"), bundled.name   # tagged for the platform
    assert "cadence/libcadence.so" in zipfile.ZipFile(bundled).namelist()
    (src / "cadence" / "libcadence.so").unlink()
    pure = _wheel(src, tmp_path / "w2")
    assert pure.name.endswith("-py3-none-any.whl"), pure.name
    assert not [n for n in zipfile.ZipFile(pure).namelist() if "libcadence" in n]
    assert sorted(p.name for p in src.iterdir()) == before   # no build/, no *.egg-info
