"""IntEnum mirrors of the C enums, built from the generated constant table.

Each C enumerator ``CAD_<PREFIX>_<NAME>`` becomes ``<Enum>.<NAME>``; for example
``CAD_FILL_FORWARDS`` is ``FillMode.FORWARDS`` and ``CAD_ERR_NOT_FOUND`` is
``Status.NOT_FOUND``. The helpers :func:`parse_enum` accept the enum, its integer
value or a name in Core Animation's spelling (``"easeInEaseOut"``,
``"fromLeft"``, ``"forwards"``) or snake case (``"ease_in_ease_out"``).
"""
from __future__ import annotations

import enum
from typing import Dict, List, Tuple, Type, TypeVar, Union

from . import _abi

__all__ = [
    "Status",
    "AnimKind",
    "FillMode",
    "TimingName",
    "CalcMode",
    "RotationMode",
    "TransitionType",
    "TransitionSubtype",
    "EventKind",
    "ItemFlag",
    "parse_enum",
]

# (enum name, prefixes of the C enumerators, base class)
_GROUPS: List[Tuple[str, Tuple[str, ...], type]] = [
    ("Status", ("CAD_OK", "CAD_ERR_"), enum.IntEnum),
    ("AnimKind", ("CAD_ANIM_",), enum.IntEnum),
    ("FillMode", ("CAD_FILL_",), enum.IntEnum),
    ("TimingName", ("CAD_TIMING_",), enum.IntEnum),
    ("CalcMode", ("CAD_CALC_",), enum.IntEnum),
    ("RotationMode", ("CAD_ROTATE_",), enum.IntEnum),
    ("TransitionType", ("CAD_TRANSITION_",), enum.IntEnum),
    ("TransitionSubtype", ("CAD_FROM_",), enum.IntEnum),
    ("EventKind", ("CAD_EVENT_",), enum.IntEnum),
    ("ItemFlag", ("CAD_ITEM_",), enum.IntFlag),
]


def _member_name(cname: str, prefixes: Tuple[str, ...]) -> str:
    if cname == "CAD_OK":
        return "OK"
    if cname.startswith("CAD_FROM_"):
        return cname[len("CAD_"):]  # FROM_LEFT reads better than LEFT
    for p in prefixes:
        if cname.startswith(p):
            return cname[len(p):]
    return cname


def _build() -> Dict[str, type]:
    out: Dict[str, type] = {}
    for ename, prefixes, base in _GROUPS:
        members = [(_member_name(c, prefixes), v) for c, v in _abi.CONSTANTS.items()
                   if any(c == p or (p.endswith("_") and c.startswith(p)) for p in prefixes)]
        out[ename] = base(ename, members, module=__name__)  # type: ignore[call-overload]
    return out


_ENUMS = _build()
Status: Type[enum.IntEnum] = _ENUMS["Status"]  # type: ignore[assignment]
AnimKind: Type[enum.IntEnum] = _ENUMS["AnimKind"]  # type: ignore[assignment]
FillMode: Type[enum.IntEnum] = _ENUMS["FillMode"]  # type: ignore[assignment]
TimingName: Type[enum.IntEnum] = _ENUMS["TimingName"]  # type: ignore[assignment]
CalcMode: Type[enum.IntEnum] = _ENUMS["CalcMode"]  # type: ignore[assignment]
RotationMode: Type[enum.IntEnum] = _ENUMS["RotationMode"]  # type: ignore[assignment]
TransitionType: Type[enum.IntEnum] = _ENUMS["TransitionType"]  # type: ignore[assignment]
TransitionSubtype: Type[enum.IntEnum] = _ENUMS["TransitionSubtype"]  # type: ignore[assignment]
EventKind: Type[enum.IntEnum] = _ENUMS["EventKind"]  # type: ignore[assignment]
ItemFlag: Type[enum.IntFlag] = _ENUMS["ItemFlag"]  # type: ignore[assignment]

E = TypeVar("E", bound=enum.IntEnum)

# Extra spellings (normalised: lower case, no underscores) per enum.
_ALIASES: Dict[str, Dict[str, str]] = {
    "TimingName": {"easeinout": "EASE_IN_EASE_OUT", "easeineaseout": "EASE_IN_EASE_OUT"},
    "TransitionSubtype": {"left": "FROM_LEFT", "right": "FROM_RIGHT", "top": "FROM_TOP", "bottom": "FROM_BOTTOM"},
}


def _norm(s: str) -> str:
    return s.replace("_", "").replace("-", "").replace(" ", "").lower()


def parse_enum(cls: Type[E], value: Union[E, int, str], what: str = "value") -> E:
    """Converts an enum member, an int or a name (any case, with or without underscores) to ``cls``."""
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        key = _norm(value)
        alias = _ALIASES.get(cls.__name__, {}).get(key)
        if alias is not None:
            return cls[alias]
        for m in cls:
            if _norm(m.name) == key:
                return m
        names = ", ".join(repr(_camel(m.name)) for m in cls)
        raise ValueError(f"unknown {what} {value!r}; expected one of {names}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a {cls.__name__}, an int or a name, not {type(value).__name__}")
    try:
        return cls(value)
    except ValueError:
        pass
    # Other int32 values go through untouched: the library validates them
    # (CAD_ERR_INVALID_ARGUMENT). Wider ints would be truncated by ctypes.
    if not -2 ** 31 <= value < 2 ** 31:
        raise ValueError(f"{what} {value} is out of range for a C enum")
    return value  # type: ignore[return-value]


def _camel(name: str) -> str:
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])
