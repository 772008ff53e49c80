"""IntEnum mirrors of the C enums, with the values of the generated constant table.

Each C enumerator ``CAD_<PREFIX>_<NAME>`` is ``<Enum>.<NAME>``; for example
``CAD_FILL_FORWARDS`` is ``FillMode.FORWARDS`` and ``CAD_ERR_NOT_FOUND`` is
``Status.NOT_FOUND``. The classes are written out (so type checkers know them);
the values come from :mod:`cadence._abi`, and a test checks that the members match
the table's enumerators (:func:`table_members`). The helper :func:`parse_enum`
accepts the enum, an integer (``int``, numpy integers: anything ``operator.index``
takes, but not ``bool``) or a name in Core Animation's spelling
(``"easeInEaseOut"``, ``"fromLeft"``, ``"forwards"``) or snake case
(``"ease_in_ease_out"``).
"""
from __future__ import annotations

import enum
import operator
from typing import Any, Dict, List, SupportsIndex, Tuple, Type, TypeVar, Union

from . import _abi
from .errors import InvalidArgumentError

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

_C = _abi.CONSTANTS


class Status(enum.IntEnum):
    """``cad_status``: ``CAD_OK`` and the ``CAD_ERR_*`` codes."""

    OK = _C["CAD_OK"]
    INVALID_HANDLE = _C["CAD_ERR_INVALID_HANDLE"]
    INVALID_ARGUMENT = _C["CAD_ERR_INVALID_ARGUMENT"]
    UNKNOWN_KEYPATH = _C["CAD_ERR_UNKNOWN_KEYPATH"]
    TYPE_MISMATCH = _C["CAD_ERR_TYPE_MISMATCH"]
    BUFFER_TOO_SMALL = _C["CAD_ERR_BUFFER_TOO_SMALL"]
    NOT_FOUND = _C["CAD_ERR_NOT_FOUND"]
    INVALID_STATE = _C["CAD_ERR_INVALID_STATE"]
    OUT_OF_MEMORY = _C["CAD_ERR_OUT_OF_MEMORY"]


class AnimKind(enum.IntEnum):
    """``cad_anim_kind`` (``CAD_ANIM_*``)."""

    BASIC = _C["CAD_ANIM_BASIC"]
    KEYFRAME = _C["CAD_ANIM_KEYFRAME"]
    SPRING = _C["CAD_ANIM_SPRING"]
    GROUP = _C["CAD_ANIM_GROUP"]
    TRANSITION = _C["CAD_ANIM_TRANSITION"]


class FillMode(enum.IntEnum):
    """``cad_fill_mode`` (``CAD_FILL_*``)."""

    REMOVED = _C["CAD_FILL_REMOVED"]
    FORWARDS = _C["CAD_FILL_FORWARDS"]
    BACKWARDS = _C["CAD_FILL_BACKWARDS"]
    BOTH = _C["CAD_FILL_BOTH"]


class TimingName(enum.IntEnum):
    """``cad_timing_name`` (``CAD_TIMING_*``)."""

    LINEAR = _C["CAD_TIMING_LINEAR"]
    EASE_IN = _C["CAD_TIMING_EASE_IN"]
    EASE_OUT = _C["CAD_TIMING_EASE_OUT"]
    EASE_IN_EASE_OUT = _C["CAD_TIMING_EASE_IN_EASE_OUT"]
    DEFAULT = _C["CAD_TIMING_DEFAULT"]


class CalcMode(enum.IntEnum):
    """``cad_calc_mode`` (``CAD_CALC_*``)."""

    LINEAR = _C["CAD_CALC_LINEAR"]
    DISCRETE = _C["CAD_CALC_DISCRETE"]
    PACED = _C["CAD_CALC_PACED"]
    CUBIC = _C["CAD_CALC_CUBIC"]
    CUBIC_PACED = _C["CAD_CALC_CUBIC_PACED"]


class RotationMode(enum.IntEnum):
    """``cad_rotation_mode`` (``CAD_ROTATE_*``)."""

    NONE = _C["CAD_ROTATE_NONE"]
    AUTO = _C["CAD_ROTATE_AUTO"]
    AUTO_REVERSE = _C["CAD_ROTATE_AUTO_REVERSE"]


class TransitionType(enum.IntEnum):
    """``cad_transition_type`` (``CAD_TRANSITION_*``)."""

    FADE = _C["CAD_TRANSITION_FADE"]
    MOVE_IN = _C["CAD_TRANSITION_MOVE_IN"]
    PUSH = _C["CAD_TRANSITION_PUSH"]
    REVEAL = _C["CAD_TRANSITION_REVEAL"]
    FLIP = _C["CAD_TRANSITION_FLIP"]  # Cadence's own 3D types (SEMANTICS.md §8)
    CUBE = _C["CAD_TRANSITION_CUBE"]


class TransitionSubtype(enum.IntEnum):
    """``cad_transition_subtype`` (``CAD_FROM_*``)."""

    FROM_LEFT = _C["CAD_FROM_LEFT"]
    FROM_RIGHT = _C["CAD_FROM_RIGHT"]
    FROM_TOP = _C["CAD_FROM_TOP"]
    FROM_BOTTOM = _C["CAD_FROM_BOTTOM"]


class EventKind(enum.IntEnum):
    """``cad_event_kind`` (``CAD_EVENT_*``)."""

    START = _C["CAD_EVENT_START"]
    STOP = _C["CAD_EVENT_STOP"]
    TRANSACTION_COMPLETE = _C["CAD_EVENT_TRANSACTION_COMPLETE"]


class ItemFlag(enum.IntFlag):
    """Render item flags (``CAD_ITEM_*``)."""

    MASKS_TO_BOUNDS = _C["CAD_ITEM_MASKS_TO_BOUNDS"]
    DOUBLE_SIDED = _C["CAD_ITEM_DOUBLE_SIDED"]
    TRANSITION_OUTGOING = _C["CAD_ITEM_TRANSITION_OUTGOING"]
    TRANSITION_INCOMING = _C["CAD_ITEM_TRANSITION_INCOMING"]
    TRANSITION_CLIP = _C["CAD_ITEM_TRANSITION_CLIP"]


# (enum, prefixes of its C enumerators in the table)
_GROUPS: List[Tuple[Type[enum.Enum], Tuple[str, ...]]] = [
    (Status, ("CAD_OK", "CAD_ERR_")),
    (AnimKind, ("CAD_ANIM_",)),
    (FillMode, ("CAD_FILL_",)),
    (TimingName, ("CAD_TIMING_",)),
    (CalcMode, ("CAD_CALC_",)),
    (RotationMode, ("CAD_ROTATE_",)),
    (TransitionType, ("CAD_TRANSITION_",)),
    (TransitionSubtype, ("CAD_FROM_",)),
    (EventKind, ("CAD_EVENT_",)),
    (ItemFlag, ("CAD_ITEM_",)),
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


def table_members() -> Dict[str, Dict[str, int]]:
    """Per enum name, the members the generated table defines (name -> value), for
    checking the classes above against a regenerated table."""
    out: Dict[str, Dict[str, int]] = {}
    for cls, prefixes in _GROUPS:
        out[cls.__name__] = {_member_name(c, prefixes): v for c, v in _C.items()
                             if any(c == p or (p.endswith("_") and c.startswith(p)) for p in prefixes)}
    return out


E = TypeVar("E", bound=enum.IntEnum)

# Extra spellings (normalised: lower case, no underscores) per enum.
_ALIASES: Dict[str, Dict[str, str]] = {
    "TimingName": {"easeinout": "EASE_IN_EASE_OUT", "easeineaseout": "EASE_IN_EASE_OUT"},
    "TransitionSubtype": {"left": "FROM_LEFT", "right": "FROM_RIGHT", "top": "FROM_TOP", "bottom": "FROM_BOTTOM"},
}


def _norm(s: str) -> str:
    return s.replace("_", "").replace("-", "").replace(" ", "").lower()


def _enum_int(value: Any) -> Union[int, None]:
    """``operator.index(value)`` for an enum argument given as an integer (int, numpy
    integers...), None for anything else, bools included (``fill_mode=True`` is a
    mistake, not FORWARDS)."""
    t = type(value)
    if isinstance(value, (bool, str)) or (t.__module__ == "numpy" and t.__name__ in ("bool", "bool_")):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def is_enum_int(value: Any) -> bool:
    """True for an integer given where an enum is expected (see :func:`parse_enum`)."""
    return _enum_int(value) is not None


def parse_enum(cls: Type[E], value: Union[E, SupportsIndex, str], what: str = "value") -> E:
    """Converts an enum member, an integer (anything ``operator.index`` accepts but
    bool) or a name (any case, with or without underscores) to ``cls``.

    An unknown name is a ValueError, a non-integer a TypeError and an integer
    outside int32 (a C enum) an :class:`~cadence.InvalidArgumentError`; other
    integers that are not members are returned as ints, for the library to refuse."""
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
    v = _enum_int(value)
    if v is None:
        raise TypeError(f"{what} must be a {cls.__name__}, an int or a name, not {type(value).__name__}")
    value = v
    try:
        return cls(value)
    except ValueError:
        pass
    # Other int32 values go through untouched: the library validates them
    # (CAD_ERR_INVALID_ARGUMENT). Wider ints would be truncated by ctypes: refused
    # here with the library's error for a value out of range.
    if not -2 ** 31 <= value < 2 ** 31:
        raise InvalidArgumentError(-2, message=f"{what} {value} is out of range for a C enum")
    return value  # type: ignore[return-value]


def _camel(name: str) -> str:
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])
