# shellcheck shell=sh
# scripts/python_env.sh - sourced, from the repository root, by the scripts that
# run Python (setup.sh, demo.sh, test.sh, reliability.sh, benchmarks/run.sh).
# Sets and exports PYTHON, the interpreter for the demo and the tests:
#   - PYTHON if already set (a calling script's choice, or yours);
#   - python3 when pip may install into it (pyenv, an active virtualenv, CI);
#   - else .venv/bin/python, the checkout's own virtual environment (gitignored;
#     scripts/setup.sh creates it): python3 is a system Python that refuses pip
#     installs (PEP 668: an EXTERNALLY-MANAGED file in its stdlib directory, as
#     /usr/bin/python3 on Debian 12 and Ubuntu 23.04+) or has no pip.
# CADENCE_VENV is 1 when PYTHON is that .venv, else 0. POSIX sh (run.sh is sh).

# python3 would refuse `pip install` (a venv or PIP_BREAK_SYSTEM_PACKAGES lifts
# PEP 668, as pip itself does), or has no pip at all
cadence_python3_refuses_pip() {
  python3 -c '
import importlib.util, os, sys, sysconfig
managed = os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
override = os.environ.get("PIP_BREAK_SYSTEM_PACKAGES", "").lower() in ("1", "true", "yes", "on")
sys.exit(0 if importlib.util.find_spec("pip") is None or (managed and not in_venv and not override) else 1)
' 2>/dev/null
}

if [ -z "${PYTHON:-}" ]; then
  if command -v python3 >/dev/null 2>&1 && cadence_python3_refuses_pip; then
    PYTHON="$PWD/.venv/bin/python"
  else
    PYTHON=python3
  fi
fi
export PYTHON
if [ "$PYTHON" = "$PWD/.venv/bin/python" ]; then CADENCE_VENV=1; else CADENCE_VENV=0; fi

# cadence_python_ready WHO: fails, saying what to do, when PYTHON cannot run
cadence_python_ready() {
  command -v "$PYTHON" >/dev/null 2>&1 && return 0
  if [ "$CADENCE_VENV" = 1 ]; then
    echo "$1: no virtual environment at .venv/ (python3 refuses pip installs, PEP 668): run scripts/setup.sh" >&2
  else
    echo "$1: PYTHON=$PYTHON is not an interpreter" >&2
  fi
  return 1
}
