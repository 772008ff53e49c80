#!/usr/bin/env python3
"""Checks libcadence.so against include/cadence.h.

* every function the header declares is exported, and nothing but `cad_*`
  functions is exported (the version script hides the Swift runtime);
* every function of the spec, docs/spec/API.md, is in the header;
* `ldd` shows no Swift or Foundation libraries (the runtime is linked statically);
* DT_SONAME is `libcadence.so.<CAD_ABI_VERSION of the header>` (hosts record it
  as DT_NEEDED, so it must change exactly when the ABI does), and no version
  definition is named after a path (the linker names the version script's base
  definition after the output path when there is no SONAME).
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
api = root / "docs" / "spec" / "API.md"
if api.exists():
    wanted = set(re.findall(r"\b(cad_[a-z0-9_]+)\s*\(", api.read_text()))
    header = (root / "include/cadence.h").read_text()
    missing = sorted(f for f in wanted if not re.search(rf"\b{f}\s*\(", header))
    if missing:
        problems.append(f"API.md functions missing from the header: {missing}")
abi = re.search(r"^#define CAD_ABI_VERSION (\d+)u?\b", (root / "include/cadence.h").read_text(), re.M)
want_soname = f"libcadence.so.{int(abi.group(1))}" if abi else None
if want_soname is None:
    problems.append("no CAD_ABI_VERSION in include/cadence.h")
dyn = subprocess.run(["readelf", "-d", "-W", lib], capture_output=True, text=True, check=True).stdout
sonames = re.findall(r"\(SONAME\)\s+Library soname: \[(.*)\]", dyn)
if want_soname and sonames != [want_soname]:
    problems.append(f"DT_SONAME is {sonames[0] if sonames else 'missing'}, want {want_soname}")
# readelf -V: the "Version definition section" block ends at the next section's header
ver = subprocess.run(["readelf", "-V", "-W", lib], capture_output=True, text=True, check=True).stdout
verdef = ver.split("Version definition section", 1)[1] if "Version definition section" in ver else ""
verdef = re.split(r"\n\S[^\n]*section", verdef, maxsplit=1)[0]
defnames = re.findall(r"(?:Name|Parent \d+): (\S+)", verdef)
if any("/" in n for n in defnames):
    problems.append(f"version definitions named after a path: {[n for n in defnames if '/' in n]}")
ldd = subprocess.run(["ldd", lib], capture_output=True, text=True).stdout
bad = [l.strip() for l in ldd.splitlines() if re.search(r"libswift|Foundation|libdispatch|libBlocksRuntime", l)]
if bad:
    problems.append(f"dynamic Swift dependencies: {bad}")
if problems:
    print("check_abi: FAILED\n  " + "\n  ".join(problems))
    sys.exit(1)
size = pathlib.Path(lib).stat().st_size
print(f"check_abi: {len(exported)} cad_ functions exported, all declared; self-contained ({size / 1e6:.1f} MB); "
      f"SONAME {sonames[0]}, version definitions {defnames}")
