"""The README's quick example and the package docstring's example run as written."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import cadence

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not README.exists(), reason="README not next to the tests (installed copy)")
def test_readme_quick_example(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Point(x=80.0, y=100.0)" in out and "START spin False" in out


def test_package_docstring_example(capsys):
    code = cadence.__doc__.split("Quick start::")[1].split("Low level")[0]
    exec(compile(textwrap.dedent(code), "cadence.__doc__", "exec"), {})
    assert "Point(x=100.0, y=50.0)" in capsys.readouterr().out
