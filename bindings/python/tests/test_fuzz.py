"""Seeded random hostile call sequences in child processes: the library must never crash.

Each seed runs fuzz_child.py in its own process (a crash would kill pytest
itself otherwise). A child killed by a signal, hanging, or ending with an
uncaught Python exception fails the test, with the seed and the last calls made.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cadence

HERE = Path(__file__).resolve().parent
SEEDS = [1, 2, 3, 4, 5, 6, 7, 8]
CALLS = 4000
TIMEOUT = 60.0


def _env() -> dict:
    env = dict(os.environ)
    pkg_parent = str(Path(cadence.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = pkg_parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["CADENCE_LIBRARY"] = cadence.LIBRARY_PATH
    return env


def test_random_hostile_call_sequences_do_not_crash(tmp_path):
    started = time.monotonic()
    procs = {}
    for seed in SEEDS:
        log = tmp_path / f"seed{seed}.log"
        procs[seed] = (subprocess.Popen([sys.executable, str(HERE / "fuzz_child.py"), str(seed), str(CALLS), str(log)],
                                        env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), log)
    failures = []
    for seed, (p, log) in procs.items():
        try:
            out, err = p.communicate(timeout=max(1.0, TIMEOUT - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            failures.append((seed, "hung (killed after the timeout)", err, log))
            continue
        if p.returncode < 0:
            failures.append((seed, f"killed by signal {-p.returncode}", err, log))
        elif p.returncode != 0:
            failures.append((seed, f"exited with status {p.returncode}", err, log))
        else:
            assert f"survived seed={seed}" in out
    if failures:
        report = []
        for seed, what, err, log in failures:
            tail = log.read_text(errors="replace").splitlines()[-15:] if log.exists() else []
            report.append(f"seed {seed}: {what}\n--- stderr ---\n{err[-3000:]}\n--- last calls ---\n" + "\n".join(tail)
                          + f"\nreproduce: python {HERE / 'fuzz_child.py'} {seed} {CALLS} /tmp/fuzz.log")
        pytest.fail("\n\n".join(report), pytrace=False)
