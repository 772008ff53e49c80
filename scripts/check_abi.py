#!/usr/bin/env python3
"""Checks libcadence.so against include/cadence.h.

* every function the header declares is exported, and nothing but `cad_*`
  functions is exported (the version script hides the Swift runtime);
* every function of ../shared/spec/API.md (when present) is in the header;
* `ldd` shows no Swift or Foundation libraries (the runtime is linked statically).
"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
lib = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/release/libcadence.so")
desc = json.loads((root / "include/cadence.json").read_text())
declared = {f["name"] for f in desc["functions"]}

out = subprocess.run(["readelf", "--dyn-syms", "-W", lib], capture_output=True, text=True, check=True).stdout
exported = set()
others = []
for line in out.splitlines():
    parts = line.split()
    if len(parts) >= 8 and parts[4] == "GLOBAL" and parts[6] != "UND":
        name = parts[7].split("@")[0]
        if name.startswith("cad_"):
            exported.add(name)
        else:
            others.append(name)
problems = []
if declared - exported:
    problems.append(f"declared but not exported: {sorted(declared - exported)}")
if exported - declared:
    problems.append(f"exported but not declared: {sorted(exported - declared)}")
if others:
    problems.append(f"non-cad_ symbols exported: {others[:10]}")
api = root.parent / "shared" / "spec" / "API.md"
if api.exists():
    wanted = set(re.findall(r"\b(cad_[a-z0-9_]+)\s*\(", api.read_text()))
    header = (root / "include/cadence.h").read_text()
    missing = sorted(f for f in wanted if not re.search(rf"\b{f}\s*\(", header))
    if missing:
        problems.append(f"API.md functions missing from the header: {missing}")
ldd = subprocess.run(["ldd", lib], capture_output=True, text=True).stdout
bad = [l.strip() for l in ldd.splitlines() if re.search(r"libswift|Foundation|libdispatch|libBlocksRuntime", l)]
if bad:
    problems.append(f"dynamic Swift dependencies: {bad}")
if problems:
    print("check_abi: FAILED\n  " + "\n  ".join(problems))
    sys.exit(1)
size = pathlib.Path(lib).stat().st_size
print(f"check_abi: {len(exported)} cad_ functions exported, all declared; self-contained ({size / 1e6:.1f} MB)")
