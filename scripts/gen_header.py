#!/usr/bin/env python3
"""Generates the C header and the binding tables from the ABI sources.

Reads Sources/CadenceABI/*.swift (a constrained Swift style, see the comment at
the top of Types.swift) and writes:

  include/cadence.h                    the C header (C89..C2x / C++98..C++23 clean,
                                       pure ASCII, every function marked CAD_API)
  include/cadence.json                 a machine-readable description (functions,
                                       enums, structs) for binding generators
  bindings/python/cadence/_abi.py      the Python binding's signature table
  docs/api-reference.md                the API reference, from the same comments

`--check` regenerates in memory and fails (exit 1) when a committed file
differs: CI runs it so the committed header never drifts from the sources.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABI = ROOT / "Sources" / "CadenceABI"
# Order of sections in the header.
FILES = ["Types.swift", "Library.swift", "Layers.swift", "Animations.swift",
         "TransactionsAPI.swift", "Frame.swift"]

SCALARS = {
    "Int32": "int32_t", "UInt32": "uint32_t", "Int64": "int64_t", "UInt64": "uint64_t",
    "Double": "double", "Float": "float", "Void": "void", "CChar": "char",
}
ARRAYS = {"CChar64": ("char", 64), "Float16Array": ("float", 16),
          "Float4Array": ("float", 4), "Float2Array": ("float", 2)}
POINTER_ALIASES = {"cad_event_ptr": "cad_event", "cad_render_item_ptr": "cad_render_item"}
SKIP_ALIASES = set(POINTER_ALIASES) | set(ARRAYS)


class Decl:
    def __init__(self, kind, name, doc, **kw):
        self.kind, self.name, self.doc = kind, name, doc
        self.__dict__.update(kw)


def c_type(swift: str) -> str:
    """Maps a Swift parameter type of the ABI to its C spelling."""
    t = swift.strip()
    if t.endswith("?"):
        t = t[:-1]
    if t == "OpaquePointer":
        return "cad_engine *"
    if t == "UnsafeMutableRawPointer":
        return "void *"
    if t == "UnsafeRawPointer":
        return "const void *"
    if t in POINTER_ALIASES:
        return POINTER_ALIASES[t] + " *"
    m = re.fullmatch(r"Unsafe(Mutable)?Pointer<(\w+)>", t)
    if m:
        inner = SCALARS.get(m.group(2), m.group(2))
        return (inner + " *") if m.group(1) else ("const " + inner + " *")
    if t in SCALARS:
        return SCALARS[t]
    if t.startswith("cad_"):
        return t
    raise SystemExit(f"gen_header: no C spelling for Swift type {swift!r}")


def split_params(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def parse_params(s: str) -> list[tuple[str, str]]:
    params = []
    for p in split_params(s):
        m = re.fullmatch(r"_\s+(\w+)\s*:\s*(.+)", p)
        if not m:
            raise SystemExit(f"gen_header: parameter {p!r} must be written `_ name: Type`")
        params.append((m.group(1), m.group(2).strip()))
    return params


def parse_file(path: pathlib.Path) -> list[Decl]:
    lines = path.read_text().splitlines()
    decls: list[Decl] = []
    doc: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("///"):
            doc.append(line[3:].strip())
            i += 1
            continue
        m = re.match(r"// MARK: -?\s*(.+)", line)
        if m:
            decls.append(Decl("section", m.group(1), []))
            doc = []
            i += 1
            continue
        m = re.match(r"public typealias (\w+) = @convention\(c\) \((.*)\) -> (\w+)$", line)
        if m:
            decls.append(Decl("callback", m.group(1), doc, params=parse_params(m.group(2)), ret=m.group(3)))
            doc = []
            i += 1
            continue
        m = re.match(r"public typealias (\w+) = (\w+)$", line)
        if m:
            if m.group(1) not in SKIP_ALIASES:
                decls.append(Decl("typedef", m.group(1), doc, target=m.group(2)))
            doc = []
            i += 1
            continue
        m = re.match(r"public enum (\w+): Int32 \{$", line)
        if m:
            cases, cdoc = [], []
            i += 1
            while not lines[i].strip().startswith("}"):
                l2 = lines[i].strip()
                if l2.startswith("///"):
                    cdoc.append(l2[3:].strip())
                else:
                    cm = re.match(r"case (\w+) = (-?\d+)$", l2)
                    if not cm:
                        raise SystemExit(f"gen_header: {path.name}:{i + 1}: enum cases must be `case NAME = value`")
                    cases.append((cm.group(1), int(cm.group(2)), cdoc))
                    cdoc = []
                i += 1
            decls.append(Decl("enum", m.group(1), doc, cases=cases))
            doc = []
            i += 1
            continue
        m = re.match(r"public struct (cad_\w+) \{$", line)
        if m:
            fields, fdoc = [], []
            i += 1
            while not lines[i].strip().startswith("}"):
                l2 = lines[i].strip()
                if l2.startswith("///"):
                    fdoc.append(l2[3:].strip())
                elif l2:
                    fm = re.match(r"public var (\w+): (\w+)$", l2)
                    if not fm:
                        raise SystemExit(f"gen_header: {path.name}:{i + 1}: struct fields must be `public var name: Type`")
                    fields.append((fm.group(1), fm.group(2), fdoc))
                    fdoc = []
                i += 1
            decls.append(Decl("struct", m.group(1), doc, fields=fields))
            doc = []
            i += 1
            continue
        m = re.match(r"@c public func (cad_\w+)\((.*)\)( -> ([\w<>?]+))? \{$", line)
        if m:
            decls.append(Decl("function", m.group(1), doc, params=parse_params(m.group(2)) if m.group(2).strip() else [],
                              ret=m.group(4) or "Void"))
            doc = []
            i += 1
            continue
        if line.startswith("@c ") or line.startswith("@_cdecl"):
            raise SystemExit(f"gen_header: {path.name}:{i + 1}: exported function not in the generator's form: {line}")
        if line and not line.startswith("//"):
            doc = []
        i += 1
    return decls


def version() -> dict:
    text = (ABI / "Types.swift").read_text()
    v = {k: int(re.search(rf"static let {k} = (\d+)", text).group(1)) for k in ("major", "minor", "patch")}
    v["abi"] = int(re.search(r"static let abi: UInt32 = (\d+)", text).group(1))
    return v


def comment(doc: list[str], indent: str = "") -> list[str]:
    doc = [d.replace("/*", "/ *").replace("*/", "* /") for d in doc]
    if not doc:
        return []
    if len(doc) == 1:
        return [f"{indent}/* {doc[0]} */"]
    return [f"{indent}/*"] + [f"{indent} * {d}" if d else f"{indent} *" for d in doc] + [f"{indent} */"]


# The header is pure ASCII (MSVC without /utf-8 warns C4819 on other bytes in a
# file without a BOM): the doc comments' typography is transliterated for the
# header only; cadence.json and docs/api-reference.md keep the original text.
ASCII_REPLACEMENTS = [
    (re.compile("\u00a7\u00a7\\s*"), "sections "),   # section signs
    (re.compile("\u00a7\\s*"), "sec. "),
    (re.compile("\u2013"), "-"),                 # en dash
    (re.compile("\u2014"), "--"),                # em dash
    (re.compile("\u2212"), "-"),                 # minus sign
    (re.compile("\u00d7"), "x"),                 # multiplication sign
    (re.compile("\u2264"), "<="),
    (re.compile("\u2265"), ">="),
    (re.compile("\u2260"), "!="),
    (re.compile("\u2248"), "~="),
    (re.compile("\u00b1"), "+/-"),
    (re.compile("\u2192"), "->"),
    (re.compile("\u2190"), "<-"),
    (re.compile("\u21d2"), "=>"),
    (re.compile("\u2026"), "..."),
    (re.compile("[\u2018\u2019]"), "'"),
    (re.compile("[\u201c\u201d]"), '"'),
    (re.compile("[\u00a0\u2009\u202f]"), " "),  # no-break and thin spaces
    (re.compile("[\u00b7\u2022]"), "*"),
    (re.compile("\u00b0"), " deg"),
    (re.compile("[\u00b5\u03bc]"), "u"),
    (re.compile("\u00b2"), "^2"),
    (re.compile("\u00b3"), "^3"),
    (re.compile("\u00bd"), "1/2"),
    (re.compile("\u221e"), "inf"),
    (re.compile("\u03c0"), "pi"),
    (re.compile("\u03b8"), "theta"),
    (re.compile("\u03c9"), "omega"),
    (re.compile("\u03b6"), "zeta"),
]


def ascii_only(text: str, what: str) -> str:
    """Transliterates `text` to ASCII; fails on a character it has no spelling for."""
    for pattern, repl in ASCII_REPLACEMENTS:
        text = pattern.sub(repl, text)
    # accented letters (e with acute -> e): drop the combining marks
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    for n, line in enumerate(text.splitlines(), 1):
        bad = sorted({c for c in line if ord(c) > 127})
        if bad:
            names = ", ".join(f"{c!r} (U+{ord(c):04X} {unicodedata.name(c, '?')})" for c in bad)
            raise SystemExit(f"gen_header: {what}:{n}: no ASCII spelling for {names}; "
                             "add one to ASCII_REPLACEMENTS in scripts/gen_header.py")
    return text


def collect() -> list[tuple[str, list[Decl]]]:
    return [(f, parse_file(ABI / f)) for f in FILES]


def header(files, ver) -> str:
    out = [
        "/*",
        " * cadence.h - the C interface of libcadence (Core Animation's model for any render loop).",
        " *",
        " * GENERATED by scripts/gen_header.py from the Swift files in Sources/CadenceABI. Do not edit:",
        " * change the Swift sources and run `python3 scripts/gen_header.py`.",
        " *",
        " * Conventions (see docs/api-reference.md and docs/spec/API.md):",
        " *  - Every function that can fail returns cad_status (CAD_OK = 0, errors < 0) and",
        " *    writes results through out-pointers; on failure nothing is written (except the",
        " *    count needed on CAD_ERR_BUFFER_TOO_SMALL) and the engine is unchanged.",
        " *  - cad_last_error() gives the calling thread's message for its last failure.",
        " *  - Layers and animations are uint64_t handles; 0 means none. Stale, forged or",
        " *    foreign handles give CAD_ERR_INVALID_HANDLE, never a crash.",
        " *  - Any function may be called from any thread; calls on one engine are serialised.",
        " *    The transaction stack belongs to the engine, not to the calling thread",
        " *    (Core Animation's is per thread): keep begin ... commit on one thread.",
        " *    Callbacks run on the thread that called cad_engine_tick or",
        " *    cad_transaction_commit, with no engine lock held.",
        " *  - Memory: CAD_ERR_OUT_OF_MEMORY (and NULL from cad_engine_create) report the",
        " *    library's own limits (2^28 - 1 layers, descriptions and attached animations per",
        " *    engine; 16383 engines). Memory the system refuses ends the process, as in a",
        " *    C++ library built without exceptions: Swift cannot report a failed allocation.",
        " *    A host that must survive it bounds its scene (or runs the engine in a process",
        " *    of its own).",
        " */",
        "#ifndef CADENCE_H",
        "#define CADENCE_H",
        "",
        "#include <stdint.h>",
        "",
        "/*",
        " * CAD_API marks every function declaration. By default it gives them default",
        " * visibility on GCC and clang, so that a host may include this header under",
        " * `#pragma GCC visibility push(hidden)` (or build with -fvisibility=hidden)",
        " * and still bind to libcadence.so. Define CAD_API before including the",
        " * header to replace it (for example with nothing).",
        " */",
        "#ifndef CAD_API",
        "#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)",
        '#define CAD_API __attribute__((visibility("default")))',
        "#else",
        "#define CAD_API",
        "#endif",
        "#endif",
        "",
        f"#define CAD_VERSION_MAJOR {ver['major']}",
        f"#define CAD_VERSION_MINOR {ver['minor']}",
        f"#define CAD_VERSION_PATCH {ver['patch']}",
        f'#define CAD_VERSION_STRING "{ver["major"]}.{ver["minor"]}.{ver["patch"]}"',
        "/* Equals cad_abi_version() of a library this header matches. */",
        f"#define CAD_ABI_VERSION {ver['abi']}u",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
    ]
    pending_typedef = None
    for fname, decls in files:
        for d in decls:
            if d.kind == "section":
                out += ["", f"/* ---- {d.name} ---- */", ""]
                continue
            if d.kind == "typedef":
                if d.target == "OpaquePointer":
                    out += comment(d.doc) + [f"typedef struct {d.name} {d.name};", ""]
                elif d.target == "Int32" and d.name != "cad_status":
                    pending_typedef = d   # the enum cad_x_ follows
                else:
                    out += comment(d.doc) + [f"typedef {SCALARS[d.target]} {d.name};", ""]
                continue
            if d.kind == "enum":
                body = []
                for k, (cn, cv, cd) in enumerate(d.cases):
                    sep = "," if k + 1 < len(d.cases) else ""
                    body += comment(cd, "  ") + [f"  {cn} = {cv}{sep}"]
                if d.name.startswith("cad_anonymous_"):
                    out += comment(d.doc) + ["enum {"] + body + ["};", ""]
                else:
                    name = d.name[:-1]
                    if pending_typedef is None or pending_typedef.name != name:
                        raise SystemExit(f"gen_header: enum {d.name} must follow `public typealias {name} = Int32`")
                    out += comment(pending_typedef.doc) + ["typedef enum {"] + body + [f"}} {name};", ""]
                    pending_typedef = None
                continue
            if d.kind == "callback":
                params = ", ".join(f"{c_type(t)}{'' if c_type(t).endswith('*') else ' '}{n}" for n, t in d.params)
                out += comment(d.doc) + [f"typedef {c_type(d.ret)} (*{d.name})({params});", ""]
                continue
            if d.kind == "struct":
                out += comment(d.doc) + [f"typedef struct {d.name} {{"]
                for n, t, fd in d.fields:
                    if t in ARRAYS:
                        base, count = ARRAYS[t]
                        decl = f"{base} {n}[{count}];"
                    else:
                        decl = f"{c_type(t)} {n};"
                    out += comment(fd, "  ") + [f"  {decl}"]
                out += [f"}} {d.name};", ""]
                continue
            if d.kind == "function":
                ps = [f"{c_type(t)}{'' if c_type(t).endswith('*') else ' '}{n}" for n, t in d.params]
                params = ", ".join(ps) if ps else "void"
                ret = c_type(d.ret)
                sp = "" if ret.endswith("*") else " "
                out += comment(d.doc) + [f"CAD_API {ret}{sp}{d.name}({params});", ""]
    out += [
        "/*",
        " * 1 when the library matches this header: same ABI version and struct sizes.",
        " * (No casts: uint32_t and size_t are both unsigned, so the comparisons are",
        " * clean under -Wsign-compare, -Wsign-conversion and C++'s -Wold-style-cast.)",
        " */",
        "#define CAD_CHECK_LAYOUT() \\",
        "  (cad_abi_version() == CAD_ABI_VERSION && \\",
        "   cad_sizeof_render_item() == sizeof(cad_render_item) && \\",
        "   cad_sizeof_event() == sizeof(cad_event))",
        "",
        "#ifdef __cplusplus",
        "}  /* extern \"C\" */",
        "#endif",
        "",
        "#endif  /* CADENCE_H */",
        "",
    ]
    # collapse runs of blank lines
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return ascii_only(text, "include/cadence.h")


CTYPES = {
    "int32_t": "c_int32", "uint32_t": "c_uint32", "int64_t": "c_int64", "uint64_t": "c_uint64",
    "double": "c_double", "float": "c_float", "void": "None", "char": "c_char",
}


def py_type(ct: str) -> str:
    """A type name the Python binding resolves (see cadence/_lib.py)."""
    ct = ct.strip()
    if ct == "cad_engine *":
        return "engine"
    if ct == "const char *":
        return "c_char_p"
    if ct == "char *":
        return "c_char_buf"
    if ct == "void *":
        return "c_void_p"
    if ct.endswith("*"):
        inner = ct[:-1].strip().replace("const ", "")
        return "POINTER(" + CTYPES.get(inner, inner) + ")"
    return CTYPES.get(ct, ct)


def description(files, ver) -> dict:
    desc = {"version": f"{ver['major']}.{ver['minor']}.{ver['patch']}", "abi_version": ver["abi"],
            "typedefs": {}, "enums": {}, "structs": {}, "callbacks": {}, "functions": []}
    for _, decls in files:
        for d in decls:
            if d.kind == "typedef":
                desc["typedefs"][d.name] = "struct" if d.target == "OpaquePointer" else SCALARS[d.target]
            elif d.kind == "enum":
                desc["enums"][d.name.rstrip("_")] = {cn: cv for cn, cv, _ in d.cases}
            elif d.kind == "struct":
                fl = []
                for n, t, _ in d.fields:
                    if t in ARRAYS:
                        fl.append([n, ARRAYS[t][0], ARRAYS[t][1]])
                    else:
                        fl.append([n, c_type(t), 0])
                desc["structs"][d.name] = fl
            elif d.kind == "callback":
                desc["callbacks"][d.name] = {"ret": c_type(d.ret), "params": [[n, c_type(t)] for n, t in d.params]}
            elif d.kind == "function":
                desc["functions"].append({"name": d.name, "ret": c_type(d.ret),
                                          "params": [[n, c_type(t)] for n, t in d.params],
                                          "doc": " ".join(d.doc)})
    return desc


def python_table(desc) -> str:
    out = ['"""Signature table of libcadence, GENERATED by scripts/gen_header.py. Do not edit."""', "",
           f'VERSION = "{desc["version"]}"', f"ABI_VERSION = {desc['abi_version']}", "",
           "# Integer constants of the C header.", "CONSTANTS = {"]
    for en, cases in desc["enums"].items():
        for cn, cv in cases.items():
            out.append(f"    {cn!r}: {cv},")
    out += ["}", "", "# Typedefs to scalar C types.", "TYPEDEFS = {"]
    for n, t in desc["typedefs"].items():
        if t != "struct":
            out.append(f"    {n!r}: {CTYPES[t]!r},")
    out += ["}", "", "# Structs: (field, C type, array length or 0).", "STRUCTS = {"]
    for n, fl in desc["structs"].items():
        out.append(f"    {n!r}: [")
        for f, t, c in fl:
            out.append(f"        ({f!r}, {py_type(t)!r}, {c}),")
        out.append("    ],")
    out += ["}", "", "# Callback types: (result, [argument types]).", "CALLBACKS = {"]
    for n, cb in desc["callbacks"].items():
        out.append(f"    {n!r}: ({py_type(cb['ret'])!r}, {[py_type(t) for _, t in cb['params']]!r}),")
    out += ["}", "", "# Every exported function: (name, result type, [(argument, type)]).", "FUNCTIONS = ["]
    for f in desc["functions"]:
        args = ", ".join(f"({n!r}, {py_type(t)!r})" for n, t in f["params"])
        out.append(f"    ({f['name']!r}, {py_type(f['ret'])!r}, [{args}]),")
    out += ["]", ""]
    return "\n".join(out)


def reference(files, ver) -> str:
    out = ["# Cadence C API reference", "",
           f"Version {ver['major']}.{ver['minor']}.{ver['patch']}, ABI {ver['abi']}. "
           "Generated by `scripts/gen_header.py` from the comments of `include/cadence.h` "
           "(written in `Sources/CadenceABI/*.swift`); do not edit.", "",
           "Semantics: [docs/spec/SEMANTICS.md](spec/SEMANTICS.md); contract: [docs/spec/API.md](spec/API.md); "
           "Cadence's decisions where the spec is silent: [decisions.md](decisions.md).", ""]
    for fname, decls in files:
        for d in decls:
            if d.kind == "section":
                out += [f"## {d.name}", ""]
            elif d.kind == "function":
                ps = [f"{c_type(t)}{'' if c_type(t).endswith('*') else ' '}{n}" for n, t in d.params]
                ret = c_type(d.ret)
                sig = f"{ret}{'' if ret.endswith('*') else ' '}{d.name}({', '.join(ps) if ps else 'void'});"
                out += [f"### `{d.name}`", "", "```c", sig, "```", "", " ".join(d.doc), ""]
            elif d.kind == "enum":
                name = d.name.rstrip("_") if not d.name.startswith("cad_anonymous_") else d.name.replace("cad_anonymous_", "")
                out += [f"### enum `{name}`", "", "| name | value | meaning |", "|---|---|---|"]
                for cn, cv, cd in d.cases:
                    out.append(f"| `{cn}` | {cv} | {' '.join(cd)} |")
                out.append("")
            elif d.kind == "struct":
                out += [f"### struct `{d.name}`", "", " ".join(d.doc), "", "| field | type | meaning |", "|---|---|---|"]
                for n, t, fd in d.fields:
                    ct = f"{ARRAYS[t][0]}[{ARRAYS[t][1]}]" if t in ARRAYS else c_type(t)
                    out.append(f"| `{n}` | `{ct}` | {' '.join(fd)} |")
                out.append("")
            elif d.kind == "callback":
                params = ", ".join(f"{c_type(t)} {n}" for n, t in d.params)
                out += [f"### callback `{d.name}`", "", "```c", f"typedef {c_type(d.ret)} (*{d.name})({params});", "```", "",
                        " ".join(d.doc), ""]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if a generated file differs from the committed one")
    args = ap.parse_args()
    files = collect()
    ver = version()
    desc = description(files, ver)
    outputs = {
        ROOT / "include" / "cadence.h": header(files, ver),
        ROOT / "include" / "cadence.json": json.dumps(desc, indent=1) + "\n",
        ROOT / "bindings" / "python" / "cadence" / "_abi.py": python_table(desc),
        ROOT / "docs" / "api-reference.md": reference(files, ver),
    }
    status = 0
    for path, text in outputs.items():
        if args.check:
            old = path.read_text() if path.exists() else None
            if old != text:
                print(f"gen_header: {path.relative_to(ROOT)} is out of date; run python3 scripts/gen_header.py", file=sys.stderr)
                status = 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if not args.check:
        print(f"gen_header: wrote {len(desc['functions'])} functions to {', '.join(str(p.relative_to(ROOT)) for p in outputs)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
