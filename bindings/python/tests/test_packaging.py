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
