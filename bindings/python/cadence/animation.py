"""Animation descriptions (basic, keyframe, spring, group, transition) and paths.

An :class:`Animation` owns a description handle in its engine. Adding it to a
layer attaches an immutable copy, so the description can be changed and added
again. ``close()`` destroys the description (attached copies live on).

The C API has setters but no getters for animation fields, so the properties
read back what was set through this object (the spec defaults otherwise): for
values, an immutable copy of the numbers sent to C (a float, a tuple of floats,
or a read-only float64 array for an array), never the object passed in. A
read-only view of an attached copy (:meth:`Layer.animation_for_key`) cannot be
changed (``InvalidStateError``) and its properties read ``None``.
"""
from __future__ import annotations

import ctypes
import math
import numbers
from contextlib import contextmanager
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, SupportsFloat,
                    SupportsIndex, Tuple, TypeVar, Union, overload)

from ._core import (INT64_RANGE, NP_BOOL, ArrayLike, BoolLike, IntLike, RealLike, TypedProperty, Value, Vector, _np,
                    byref, c_double, c_uint64, check, checked_bool, checked_count, checked_finite, checked_float,
                    checked_int, checked_non_negative, checked_repeat, doubles, encode, flatten, raise_status,
                    refuse_unordered)
from ._lib import cad_anim_callback, lib
from .enums import (AnimKind, CalcMode, FillMode, RotationMode, TimingName, TransitionSubtype, TransitionType,
                    is_enum_int, parse_enum)
from .errors import ClosedError, InvalidArgumentError, InvalidStateError, error_for_status

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import TypeGuard

    from .engine import Engine, Event

__all__ = ["Animation", "AnimationView", "Path", "TimingFunction", "BezierTimingFunction", "NAMED_CURVES",
           "timing_bezier", "evaluate_timing"]

#: A timing function given as a curve: a name ("linear", "easeIn", "easeOut",
#: "easeInEaseOut", "default"), a TimingName (or its int), or a 4-tuple of Bézier
#: control points (c1x, c1y, c2x, c2y). What transaction blocks
#: (``Engine.transaction``, ``Engine.animate``), per-segment keyframe timing
#: functions, :func:`timing_bezier` and :func:`evaluate_timing` take.
BezierTimingFunction = Union[str, SupportsIndex, Tuple[SupportsFloat, SupportsFloat, SupportsFloat, SupportsFloat]]
#: A timing function of an animation: a :data:`BezierTimingFunction`, or Cadence's
#: ``("steps", n, "start"|"end")`` (``("steps", n)``: "end").
TimingFunction = Union[BezierTimingFunction, Tuple[str, SupportsIndex], Tuple[str, SupportsIndex, str]]

#: Keyframe values: one value (a number, a sequence of numbers, a 4x4 matrix as rows,
#: an array) per keyframe, or an array with one row per keyframe.
Values = Union[Sequence[Value], ArrayLike]

#: Control points of the named curves (SEMANTICS.md §4).
NAMED_CURVES: Dict[int, Tuple[float, float, float, float]] = {
    TimingName.LINEAR: (0.0, 0.0, 1.0, 1.0),
    TimingName.EASE_IN: (0.42, 0.0, 1.0, 1.0),
    TimingName.EASE_OUT: (0.0, 0.0, 0.58, 1.0),
    TimingName.EASE_IN_EASE_OUT: (0.42, 0.0, 0.58, 1.0),
    TimingName.DEFAULT: (0.25, 0.1, 0.25, 1.0),
}

_NULL_ANIM_CB = cad_anim_callback()  # a NULL function pointer (removes a callback)


def _no_copy(self: Any, *args: Any) -> Any:
    """``copy``, ``deepcopy`` and ``pickle`` of objects that own or reference C handles."""
    raise TypeError(f"cannot copy or pickle a cadence.{type(self).__qualname__}: "
                    "it owns or references a libcadence handle")


def _is_timing_name(tf: Any) -> "TypeGuard[Union[str, int]]":
    """A timing function given by name: a str, a TimingName or an integer (not bool)."""
    return isinstance(tf, str) or is_enum_int(tf)


def timing_bezier(tf: BezierTimingFunction) -> Tuple[float, float, float, float]:
    """The four Bézier control points of a timing function (names map to §4's table)."""
    if _is_timing_name(tf):
        return NAMED_CURVES[int(_checked_member(TimingName, tf, "timing function"))]
    refuse_unordered(tf, "a timing function", "a name, an int or 4 Bézier values")
    try:
        items = tuple(tf)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a timing function is a name, an int or 4 Bézier values, not {type(tf).__name__}") from None
    if items and isinstance(items[0], str):
        raise ValueError(f"{tf!r} has no Bézier control points (a name, an int or 4 Bézier values are)")
    pts = tuple(checked_float(x, "a Bézier control value") for x in items)
    if len(pts) != 4:
        raise ValueError(f"a Bézier timing function has 4 control values (c1x, c1y, c2x, c2y), got {len(pts)}")
    return (pts[0], pts[1], pts[2], pts[3])


def _check_bezier(pts: Tuple[float, float, float, float]) -> None:
    """Raises the library's error unless it accepts these Bézier control points. The
    check is the library's own (``cad_timing_eval_batch`` with no points: no engine,
    no state), so it never drifts from C's rule."""
    st = lib.cad_timing_eval_batch(pts[0], pts[1], pts[2], pts[3], None, None, 0)
    if st:
        raw = lib.cad_last_error()
        message = raw.decode("utf-8", "replace") if raw else ""
        prefix = "cad_timing_eval_batch: "
        if message.startswith(prefix):
            message = "Bézier timing function: " + message[len(prefix):]
        raise error_for_status(st, "", message)


def _checked_member(cls: Any, value: Any, what: str) -> Any:
    """``parse_enum(cls, value)``, refusing integers that are not members (C would)."""
    v = parse_enum(cls, value, what)
    if not isinstance(v, cls):
        raise InvalidArgumentError(-2, message=f"{what} {v} is not a valid value")
    return v


def _timing_call(tf: Optional[TimingFunction], set_name: Callable[..., int], set_bezier: Callable[..., int],
                 set_steps: Optional[Callable[..., int]],
                 check_bezier: bool = False) -> Tuple[Callable[..., int], Tuple[Any, ...]]:
    """The C setter and its value arguments for a timing function, as ``(setter, args)``,
    without calling it. Names and step counts are checked as the library checks them,
    and with ``check_bezier`` also Bézier control points (:func:`_check_bezier`), so
    that the call cannot be refused for its values. ``set_steps`` is None for a
    transaction block's timing function (the C API has no steps setter for it)."""
    if tf is None:
        return set_name, (TimingName.LINEAR,)
    if _is_timing_name(tf):
        return set_name, (_checked_member(TimingName, tf, "timing function"),)
    forms = ("a name, an int, 4 Bézier values or ('steps', n, 'start'|'end')" if set_steps is not None
             else "a name, an int or 4 Bézier values")
    refuse_unordered(tf, "a timing function", forms)
    try:
        items = tuple(tf)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a timing function is {forms}, not {type(tf).__name__}") from None
    if items and isinstance(items[0], str):
        if items[0].lower() == "steps" and set_steps is None:
            raise ValueError(f"a transaction block's timing function is a name or 4 Bézier values, not steps "
                             f"(got {tf!r}): steps timing functions apply to animations "
                             f"(Animation.timing_function), not to transaction or animate blocks")
        if items[0].lower() != "steps" or len(items) not in (2, 3) or set_steps is None:
            raise ValueError(f"unknown timing function {tf!r}; use {forms}")
        at = items[2] if len(items) == 3 else "end"
        if at not in ("start", "end"):
            raise ValueError(f"steps position must be 'start' or 'end', not {at!r}")
        # n is an int32_t in C: int() would truncate 2.7 and ctypes wrap 2**32 + 3 to 3.
        n = checked_int(items[1], "steps count")
        if n < 1:
            raise InvalidArgumentError(-2, message=f"steps must be >= 1 (got {n})")
        return set_steps, (n, 1 if at == "start" else 0)
    pts = timing_bezier(items)  # type: ignore[arg-type]
    if check_bezier:
        _check_bezier(pts)
    return set_bezier, pts


def _apply_timing(tf: Optional[TimingFunction], call: Callable[..., int], set_name: Callable[..., int],
                  set_bezier: Callable[..., int], set_steps: Optional[Callable[..., int]]) -> None:
    """Sends a timing function through the matching C setter, as ``call(setter, *values)``
    (which supplies the leading C arguments and returns the status)."""
    fn, args = _timing_call(tf, set_name, set_bezier, set_steps)
    check(call(fn, *args))


class Path:
    """A path for keyframe animations of points (moveTo, lineTo, quadTo, cubicTo, close).

    Methods return the path, so calls chain: ``Path().move_to(0, 0).line_to(100, 0)``.
    A path can also be given as a list: 2-tuples are points (the first is a
    move_to, the rest line_to), or tagged tuples like ``("quad_to", cx, cy, x, y)``.
    Coordinates must be finite numbers (NaN or an infinity is an
    :class:`~cadence.InvalidArgumentError` when the element is added, as in C).
    """

    __slots__ = ("_elements",)

    _ARITY = {"move_to": 2, "line_to": 2, "quad_to": 4, "cubic_to": 6, "close": 0}

    def __init__(self, elements: Optional[Iterable[Any]] = None) -> None:
        self._elements: List[Tuple[Any, ...]] = []
        if elements is not None:
            self.extend(elements)

    def move_to(self, x: RealLike, y: RealLike) -> "Path":
        """Starts a subpath at (x, y)."""
        self._elements.append(("move_to", checked_finite(x, "x"), checked_finite(y, "y")))
        return self

    def line_to(self, x: RealLike, y: RealLike) -> "Path":
        """A straight line to (x, y)."""
        self._elements.append(("line_to", checked_finite(x, "x"), checked_finite(y, "y")))
        return self

    def quad_to(self, cx: RealLike, cy: RealLike, x: RealLike, y: RealLike) -> "Path":
        """A quadratic Bézier with control point (cx, cy) to (x, y)."""
        self._elements.append(("quad_to", *_finite_floats(cx=cx, cy=cy, x=x, y=y)))
        return self

    def cubic_to(self, c1x: RealLike, c1y: RealLike, c2x: RealLike, c2y: RealLike, x: RealLike,
                 y: RealLike) -> "Path":
        """A cubic Bézier with control points (c1x, c1y), (c2x, c2y) to (x, y)."""
        self._elements.append(("cubic_to", *_finite_floats(c1x=c1x, c1y=c1y, c2x=c2x, c2y=c2y, x=x, y=y)))
        return self

    def close(self) -> "Path":
        """A line back to the start of the current subpath."""
        self._elements.append(("close",))
        return self

    def extend(self, elements: Iterable[Any]) -> "Path":
        """Appends elements given as points or tagged tuples (see the class doc)."""
        if isinstance(elements, Path):
            self._elements.extend(elements._elements)
            return self
        refuse_unordered(elements, "a path", "a Path or a sequence of elements")
        for el in elements:
            refuse_unordered(el, "a path element", "a point (x, y) or a tagged tuple")
            el = tuple(el) if not isinstance(el, str) else (el,)
            if el and isinstance(el[0], str):
                op = el[0].lower().replace("moveto", "move_to").replace("lineto", "line_to")
                op = op.replace("quadto", "quad_to").replace("cubicto", "cubic_to").replace("closepath", "close")
                if op not in self._ARITY or len(el) - 1 != self._ARITY[op]:
                    raise ValueError(f"bad path element {el!r}")
                getattr(self, op)(*el[1:])
            elif len(el) == 2:
                if self._elements:
                    self.line_to(*el)
                else:
                    self.move_to(*el)
            else:
                raise ValueError(f"bad path element {el!r}: use (x, y) or ('line_to', x, y) ...")
        return self

    @property
    def elements(self) -> Tuple[Tuple[Any, ...], ...]:
        """The elements as tagged tuples."""
        return tuple(self._elements)

    def __len__(self) -> int:
        return len(self._elements)

    def __iter__(self) -> Iterator[Tuple[Any, ...]]:
        return iter(self._elements)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Path) and other._elements == self._elements

    def __repr__(self) -> str:
        return f"Path({self._elements!r})"

    _C = {"move_to": "cad_anim_path_move_to", "line_to": "cad_anim_path_line_to",
          "quad_to": "cad_anim_path_quad_to", "cubic_to": "cad_anim_path_cubic_to", "close": "cad_anim_path_close"}

    #: The most elements a description's path holds (the library's limit).
    _MAX_ELEMENTS = 1 << 20

    def _check_sendable(self) -> None:
        """Raises what the library would raise for one of the elements, before any is
        sent: coordinates are finite already (checked when added), so what is left is
        a close with no subpath before it and the element limit."""
        if self._elements and self._elements[0][0] == "close":
            raise InvalidStateError(-7, message="path close needs a current subpath (add a move or line first)")
        if len(self._elements) > self._MAX_ELEMENTS:
            raise InvalidArgumentError(-2, message=f"a path may hold at most {self._MAX_ELEMENTS} elements "
                                                   f"(got {len(self._elements)})")

    def _prefix(self, n: int) -> "Path":
        """A path of the first ``n`` elements."""
        p = Path()
        p._elements = self._elements[:n]
        return p


def _floats(**values: Any) -> List[float]:
    return [checked_float(v, name) for name, v in values.items()]


def _finite_floats(**values: Any) -> List[float]:
    return [checked_finite(v, name) for name, v in values.items()]


def _as_path(path: Any) -> Path:
    """``path`` as a :class:`Path` (a list of points or tagged tuples is converted),
    checked as the library would check its elements (see :meth:`Path._check_sendable`)."""
    p = path if isinstance(path, Path) else Path(path)
    p._check_sendable()
    return p


# What the value getters read back: an immutable copy of the numbers sent to C, never
# the caller's object (a list changed after the call would otherwise read back numbers
# the library never had). A number reads as a float, a numpy array as a read-only
# float64 array of its shape, any other sequence as a flat tuple of floats.
def _frozen(value: Any, flat: List[float]) -> Any:
    if isinstance(value, numbers.Real) or type(value) is NP_BOOL:
        return flat[0]
    if _is_ndarray(value):
        arr = _np.array(flat, dtype=_np.float64).reshape(value.shape)
        arr.flags.writeable = False
        return arr
    return tuple(flat)


def _frozen_timing(tf: Any, args: Tuple[Any, ...]) -> Any:
    """The timing function to read back: a name (immutable) as given, Bézier control
    points as the 4 floats sent, steps as a tuple of what was given."""
    if tf is None or _is_timing_name(tf):
        return tf
    items = tuple(tf)
    if items and isinstance(items[0], str):
        return items
    return tuple(args)


# Converters of the CAMediaTiming and property-animation fields: (value, field name) -> C value.
def _to_bool(v: Any, attr: str) -> int:
    """A boolean field: numbers as in C (non-zero finite = true), NaN/inf an
    InvalidArgumentError, non-numbers ("no", None) a TypeError."""
    return 1 if checked_bool(v, attr) else 0


def _to_tag(v: Any, attr: str) -> int:
    # An int64_t in C: an integer in range (ctypes would wrap 2**63, int() truncate 1.9
    # or parse "7"), so that the getter matches the tag events report.
    return checked_int(v, attr, INT64_RANGE)


# Numbers as for layer properties (float() would parse "2", b"1" or "inf"), with the
# library's rules for each field (so that configure() can check them all first).
def _to_finite(v: Any, attr: str) -> float:
    return checked_finite(v, attr)


def _to_duration(v: Any, attr: str) -> float:
    return checked_non_negative(v, attr)


def _to_repeat(v: Any, attr: str) -> float:
    return checked_repeat(v, attr)


def _to_fill(v: Any, attr: str) -> Any:
    return _checked_member(FillMode, v, "fill mode")


def _to_calc_mode(v: Any, attr: str) -> Any:
    return _checked_member(CalcMode, v, "calculation mode")


def _to_rotation_mode(v: Any, attr: str) -> Any:
    return RotationMode.NONE if v is None else _checked_member(RotationMode, v, "rotation mode")


def _same(v: Any) -> Any:
    return v


# (attribute, C setter, converter, default, reader) of the fields set through one C setter.
_FIELDS: List[Tuple[str, str, Callable[[Any, str], Any], Any, Callable[[Any], Any]]] = [
    ("begin_time", "cad_anim_set_begin_time", _to_finite, 0.0, float),
    ("duration", "cad_anim_set_duration", _to_duration, 0.0, float),
    ("speed", "cad_anim_set_speed", _to_finite, 1.0, float),
    ("time_offset", "cad_anim_set_time_offset", _to_finite, 0.0, float),
    ("repeat_count", "cad_anim_set_repeat_count", _to_repeat, 0.0, float),
    ("repeat_duration", "cad_anim_set_repeat_duration", _to_repeat, 0.0, float),
    ("autoreverses", "cad_anim_set_autoreverses", _to_bool, False, bool),
    ("fill_mode", "cad_anim_set_fill_mode", _to_fill, FillMode.REMOVED, _same),
    ("removed_on_completion", "cad_anim_set_removed_on_completion", _to_bool, True, bool),
    ("additive", "cad_anim_set_additive", _to_bool, False, bool),
    ("cumulative", "cad_anim_set_cumulative", _to_bool, False, bool),
    ("tag", "cad_anim_set_tag", _to_tag, 0, int),
]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def _field_property(attr: str, cname: str, conv: Callable[[Any, str], Any], default: Any,
                    out: Callable[[Any], Any] = _same, doc: Optional[str] = None) -> Any:
    """A property whose setter sends ``conv(value)`` through the C setter ``cname``
    and whose getter reads back what was set (``default`` before that)."""

    def fget(self: "Animation") -> Any:
        v = self._get(attr, default)
        return None if v is None else out(v)

    def fset(self: "Animation", value: Any) -> None:
        cv = conv(value, attr)
        self._check(getattr(lib, cname), cv)
        self._values[attr] = cv
        if attr == "duration":
            self._values.pop("_auto_duration", None)  # set explicitly: no longer follows the spring

    return _Field(fget, fset, doc=doc or f"{_camel(attr)} (``{cname}``); default {default!r}.")


#: Spring parameters and their defaults, in ``set_spring`` order.
_SPRING_DEFAULTS: Dict[str, float] = {"mass": 1.0, "stiffness": 100.0, "damping": 10.0, "initial_velocity": 0.0}


def _spring_property(name: str, doc: str) -> "TypedProperty[Optional[float], RealLike]":
    """One spring parameter (None for other kinds); setting it keeps the other three."""
    return TypedProperty(lambda self: self._spring_params()[name]
                         if self._kind == AnimKind.SPRING and not self._readonly else None,
                         lambda self, v: self._set_spring_field(name, v), doc=doc)


#: Docstrings of the _FIELDS properties that need more than the default one.
_FIELD_DOCS = {
    "repeat_count": "repeatCount (``cad_anim_set_repeat_count``); default 0.0. ``True`` means forever "
                    "(infinity, UIKit's ``repeat: true``) and ``False`` 0, never one repeat.",
    "repeat_duration": "repeatDuration (``cad_anim_set_repeat_duration``); default 0.0. ``True`` means "
                       "forever (infinity) and ``False`` 0.",
    "tag": "The tag events report (``cad_anim_set_tag``, an int64); default 0. A bool is a TypeError.",
}


def _field(attr: str) -> Any:
    """The property of ``attr``'s row of _FIELDS."""
    for row in _FIELDS:
        if row[0] == attr:
            return _field_property(*row, doc=_FIELD_DOCS.get(attr))
    raise KeyError(attr)


#: An enum argument: a member, an integer (numpy's too) or a name.
_Enum = Union[SupportsIndex, str]

_G = TypeVar("_G")
_S = TypeVar("_S")


class _Field(TypedProperty[_G, _S]):
    """An animation field: a :class:`~cadence._core.TypedProperty` that reads ``_G`` on
    an animation description and ``Optional[_G]`` on a read-only view of an attached
    copy (:class:`AnimationView`), whose fields read None (the C API has no getters).
    At run time it is a plain property."""

    if TYPE_CHECKING:  # pragma: no cover
        @overload  # type: ignore[override]
        def __get__(self, obj: None, owner: Any = None) -> "_Field[_G, _S]": ...

        @overload
        def __get__(self, obj: "AnimationView", owner: Any = None) -> Optional[_G]: ...

        @overload
        def __get__(self, obj: object, owner: Any = None) -> _G: ...

        def __get__(self, obj: Any, owner: Any = None) -> Any: ...


class Animation:
    """An animation description in an engine (see the module doc).

    Build one with the constructors :meth:`basic`, :meth:`keyframe`,
    :meth:`spring`, :meth:`spring_perceptual`, :meth:`spring_uikit`,
    :meth:`group` and :meth:`transition`. Every constructor takes the timing
    fields as keywords (``duration``, ``begin_time``, ``speed``, ``time_offset``,
    ``repeat_count``, ``repeat_duration``, ``autoreverses``, ``fill_mode``,
    ``removed_on_completion``, ``timing_function``, ``additive``, ``cumulative``,
    ``tag``) and ``on_event`` (a callable receiving :class:`~cadence.Event`).
    """

    # _cb_uid: the engine's id of the callback set by on_event (0: none), see Engine._release_callback.
    # _id: the handle given at creation, kept after close() (identity: hash and equality).
    __slots__ = ("_engine", "_handle", "_id", "_kind", "_keypath", "_readonly", "_values", "_cb_uid",
                 "__weakref__")

    # The fields set through one C setter each (_FIELDS), typed for type checkers. On
    # read-only views (Layer.animation_for_key) they read None: _Field types them
    # Optional on an AnimationView.
    begin_time: "_Field[float, RealLike]" = _field("begin_time")
    duration: "_Field[float, RealLike]" = _field("duration")
    speed: "_Field[float, RealLike]" = _field("speed")
    time_offset: "_Field[float, RealLike]" = _field("time_offset")
    repeat_count: "_Field[float, RealLike]" = _field("repeat_count")
    repeat_duration: "_Field[float, RealLike]" = _field("repeat_duration")
    autoreverses: "_Field[bool, BoolLike]" = _field("autoreverses")
    fill_mode: "_Field[FillMode, _Enum]" = _field("fill_mode")
    removed_on_completion: "_Field[bool, BoolLike]" = _field("removed_on_completion")
    additive: "_Field[bool, BoolLike]" = _field("additive")
    cumulative: "_Field[bool, BoolLike]" = _field("cumulative")
    tag: "_Field[int, IntLike]" = _field("tag")

    # ---- construction -------------------------------------------------------

    def __init__(self, engine: "Engine", kind: Union[AnimKind, IntLike, str], keypath: Optional[str] = None,
                 **options: Any) -> None:
        """Creates a description of ``kind`` for ``keypath`` (None for groups and
        transitions) and applies ``options`` (timing fields, see the class doc)."""
        self._engine = engine
        self._handle = self._id = 0
        self._cb_uid = 0
        self._readonly = False
        self._values: Dict[str, Any] = {}
        kind = parse_enum(AnimKind, kind, "animation kind")
        self._kind = kind
        self._keypath = None
        bkp = encode(keypath, "key path")
        out = c_uint64()
        engine._check(lib.cad_anim_create, kind, bkp, byref(out))
        self._handle = self._id = out.value
        # The library took it as a key path, so it is UTF-8 (also when given as bytes).
        self._keypath = None if bkp is None else bkp.decode("utf-8", "replace")
        if options:
            with self._closing_on_error():
                self.configure(**options)

    @classmethod
    def _view(cls, engine: "Engine", handle: int, key: Optional[str] = None) -> "AnimationView":
        """A read-only view of an attached copy (not owned: close() does not destroy it)."""
        self = AnimationView.__new__(AnimationView)
        self._engine = engine
        self._handle = self._id = handle
        self._cb_uid = 0
        self._kind = None  # type: ignore[assignment]  # views have no kind (the kind property says Optional)
        self._keypath = None
        self._readonly = True
        self._values = {}
        return self

    def configure(self, **options: Any) -> "Animation":
        """Sets several fields at once (any settable property name, snake or camel case,
        plus ``on_event``), in the order given. Returns the animation.

        Every option is checked before any is set: its name, its type and shape, and
        the library's rules for the value itself (finite numbers, ``duration >= 0``,
        ``repeat_count >= 0``, enum names, timing functions, path coordinates, spring
        parameter signs, progress in [0, 1]...); a refused option leaves the animation
        as it was. What only the library can judge, because it depends on the key path,
        the kind or other settings (a value's number of components, an option that
        does not apply to this kind, keyTimes against the values, a spring whose
        parameters give no finite frequency...), is checked as each option is set:
        such a failure raises with the options before it already set.
        """
        attrs = []
        for name in options:
            attr = _OPTION_NAMES.get(name)
            if attr is None:
                raise TypeError(f"unknown animation option {name!r}")
            attrs.append(attr)
        for attr, value in zip(attrs, options.values()):
            _check_option(self, attr, value)
        for attr, value in zip(attrs, options.values()):
            if attr == "on_event":
                self.on_event(value)
            else:
                setattr(self, attr, value)
        return self

    @classmethod
    def basic(cls, engine: "Engine", keypath: str, from_: Optional[Value] = None, to: Optional[Value] = None,
              by: Optional[Value] = None, duration: Optional[RealLike] = None, **timing: Any) -> "Animation":
        """A CABasicAnimation of ``keypath`` (SEMANTICS.md §5): any of from/to/by
        (from+to+by together fails when the animation is added)."""
        a = cls(engine, AnimKind.BASIC, keypath)
        with a._closing_on_error():
            a._set_endpoints(from_, to, by)
            if duration is not None:
                a.duration = duration
            a.configure(**timing)
        return a

    @classmethod
    def keyframe(cls, engine: "Engine", keypath: str, values: Optional[Values] = None,
                 key_times: Optional[Vector] = None, calculation_mode: _Enum = "linear",
                 timing_functions: Optional[Sequence[BezierTimingFunction]] = None,
                 tcb: Optional[Any] = None, path: Optional[Any] = None,
                 rotation_mode: Optional[_Enum] = None, duration: Optional[RealLike] = None,
                 **timing: Any) -> "Animation":
        """A CAKeyframeAnimation (SEMANTICS.md §7).

        ``values``: one value per keyframe (numbers or sequences, or a 2-D array);
        ``key_times``: n (or n+1 for discrete) times in [0, 1]; ``calculation_mode``:
        "linear", "discrete", "paced", "cubic", "cubicPaced"; ``timing_functions``:
        one per segment; ``tcb``: (tension, continuity, bias) lists (any None) or a
        dict with those keys; ``path``: a :class:`Path` or a list of points /
        tagged tuples (replaces values); ``rotation_mode``: None, "auto", "autoReverse".
        """
        a = cls(engine, AnimKind.KEYFRAME, keypath)
        with a._closing_on_error():
            for name, value in (("values", values), ("key_times", key_times), ("calculation_mode", calculation_mode),
                                ("timing_functions", timing_functions), ("tcb", tcb), ("path", path),
                                ("rotation_mode", rotation_mode), ("duration", duration)):
                if value is not None:
                    setattr(a, name, value)
            a.configure(**timing)
        return a

    @classmethod
    def spring(cls, engine: "Engine", keypath: str, mass: RealLike = 1.0, stiffness: RealLike = 100.0,
               damping: RealLike = 10.0, initial_velocity: RealLike = 0.0, from_: Optional[Value] = None,
               to: Optional[Value] = None, by: Optional[Value] = None, duration: Optional[RealLike] = None,
               **timing: Any) -> "Animation":
        """A CASpringAnimation (SEMANTICS.md §6). With ``duration=None`` the duration
        is set to the spring's settling duration, so it ends naturally, and kept equal
        to it when mass, stiffness, damping or initial_velocity change later (until
        ``duration`` is set explicitly)."""
        a = cls(engine, AnimKind.SPRING, keypath)
        with a._closing_on_error():
            a.set_spring(mass, stiffness, damping, initial_velocity)
            a._set_endpoints(from_, to, by)
            if duration is None:
                a._follow_settling_duration()
            else:
                a.duration = duration
            a.configure(**timing)
        return a

    @classmethod
    def spring_perceptual(cls, engine: "Engine", keypath: str, duration: RealLike, bounce: RealLike = 0.0,
                          from_: Optional[Value] = None, to: Optional[Value] = None, by: Optional[Value] = None,
                          **timing: Any) -> "Animation":
        """A spring from a perceptual duration and a bounce in (-1, 1) (SEMANTICS.md §6;
        ``cad_anim_set_spring_perceptual``); its duration becomes the settling duration,
        and follows it when the spring parameters change later (until set explicitly)."""
        a = cls(engine, AnimKind.SPRING, keypath)
        with a._closing_on_error():
            a.set_spring_perceptual(duration, bounce)
            a._set_endpoints(from_, to, by)
            a.configure(**timing)
        return a

    @classmethod
    def spring_uikit(cls, engine: "Engine", keypath: str, duration: RealLike, damping_ratio: RealLike,
                     initial_velocity: RealLike = 0.0, from_: Optional[Value] = None, to: Optional[Value] = None,
                     by: Optional[Value] = None, **timing: Any) -> "Animation":
        """A UIKit-style spring that settles exactly at ``duration`` (``cad_anim_set_spring_uikit``)."""
        a = cls(engine, AnimKind.SPRING, keypath)
        with a._closing_on_error():
            a.set_spring_uikit(duration, damping_ratio, initial_velocity)
            a._set_endpoints(from_, to, by)
            a.configure(**timing)
        return a

    @classmethod
    def group(cls, engine: "Engine", children: Sequence["Animation"], duration: Optional[RealLike] = None,
              **timing: Any) -> "Animation":
        """A CAAnimationGroup of copies of ``children`` (SEMANTICS.md §9)."""
        a = cls(engine, AnimKind.GROUP, None)
        with a._closing_on_error():
            a.children = children
            if duration is not None:
                a.duration = duration
            a.configure(**timing)
        return a

    @classmethod
    def transition(cls, engine: "Engine", type: _Enum = "fade", subtype: _Enum = "fromLeft",
                   start_progress: RealLike = 0.0, end_progress: RealLike = 1.0, duration: Optional[RealLike] = None,
                   **timing: Any) -> "Animation":
        """A CATransition (SEMANTICS.md §8): type "fade", "moveIn", "push", "reveal",
        or Cadence's 3D "flip" and "cube"; subtype "fromLeft", "fromRight", "fromTop",
        "fromBottom"."""
        a = cls(engine, AnimKind.TRANSITION, None)
        with a._closing_on_error():
            a.set_transition(type, subtype)
            if (start_progress, end_progress) != (0.0, 1.0):
                a.set_progress(start_progress, end_progress)
            if duration is not None:
                a.duration = duration
            a.configure(**timing)
        return a

    # ---- identity and lifetime -----------------------------------------------

    @property
    def engine(self) -> "Engine":
        """The engine the description lives in."""
        return self._engine

    @property
    def handle(self) -> int:
        """The ``cad_anim`` handle (0 once closed)."""
        return self._handle

    @property
    def kind(self) -> Optional[AnimKind]:
        """The animation kind (None for read-only views)."""
        return self._kind

    @property
    def keypath(self) -> Optional[str]:
        """The animated key path (None for groups, transitions and views)."""
        return self._keypath

    @property
    def readonly(self) -> bool:
        """True for views of attached copies (``Layer.animation_for_key``)."""
        return self._readonly

    @property
    def closed(self) -> bool:
        return self._handle == 0 or self._engine.closed

    def _p(self) -> int:
        """The engine pointer, raising ClosedError when the animation or engine is closed."""
        if self._handle == 0:
            raise ClosedError("the animation is closed")
        return self._engine._p()

    def _call(self, fn: Callable[..., int], *args: Any) -> int:
        """``fn(engine, handle, *args)`` as one counted call (Engine._call); its status."""
        h = self._handle
        if h == 0:
            raise ClosedError("the animation is closed")
        return self._engine._call(fn, h, *args)

    def _check(self, fn: Callable[..., int], *args: Any) -> None:
        """:meth:`_call`, raising the error of a failed status."""
        st = self._call(fn, *args)
        if st:
            raise_status(st)

    @contextmanager
    def _closing_on_error(self) -> Iterator["Animation"]:
        """Closes the description when the block raises (a failed constructor leaves nothing behind)."""
        try:
            yield self
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Destroys the description (idempotent). Attached copies live on; a
        read-only view is only forgotten."""
        h = self._handle
        if h == 0:
            return
        self._handle = 0
        eng = self._engine
        if not self._readonly:
            p = eng._try_enter()  # None once the engine is closing (it frees the description)
            if p is not None:
                try:
                    lib.cad_anim_destroy(p, h)
                finally:
                    eng._exit()
        # The description no longer calls its callback; attached copies keep it
        # registered until their stop events (Engine._release_callback).
        uid, self._cb_uid = self._cb_uid, 0
        eng._release_callback(uid)

    destroy = close

    def __enter__(self) -> "Animation":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown, half-built object
            pass

    # Identity is the handle given at creation, kept after close(): the hash never
    # changes and equality stays reflexive. Two objects are equal when they stand for
    # the same description (or attached copy) of the same engine.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Animation):
            return NotImplemented
        return self._id != 0 and other._id == self._id and other._engine is self._engine

    def __hash__(self) -> int:
        return hash(self._id)

    # The object owns its description: a copy would destroy it a second time (copy
    # the settings with the constructors instead).
    __copy__ = __deepcopy__ = __reduce_ex__ = __reduce__ = _no_copy

    def __repr__(self) -> str:
        state = "closed" if self._handle == 0 else ("read-only" if self._readonly else "")
        kind = self._kind.name.lower() if self._kind is not None else "attached"
        kp = f" {self._keypath!r}" if self._keypath else ""
        return f"<cadence.Animation {kind}{kp} handle={self._handle:#x}{' ' + state if state else ''}>"

    # ---- values --------------------------------------------------------------

    def _get(self, name: str, default: Any) -> Any:
        self._p()  # a closed animation (or engine) raises ClosedError, as its setters do
        if self._readonly:
            return None
        return self._values.get(name, default)

    def _set_endpoints(self, from_: Any, to: Any, by: Any) -> None:
        if from_ is not None:
            self.from_value = from_
        if to is not None:
            self.to_value = to
        if by is not None:
            self.by_value = by

    def _set_value(self, fn: Any, name: str, value: Any) -> None:
        if value is None:
            self._check(fn, None, 0)
            self._values[name] = None
        else:
            flat = flatten(value, name)
            self._check(fn, doubles(flat), len(flat))
            self._values[name] = _frozen(value, flat)

    from_value: "TypedProperty[Any, Optional[Value]]" = TypedProperty(
        lambda self: self._get("from_value", None),
        lambda self, v: self._set_value(lib.cad_anim_set_from, "from_value", v),
        doc="fromValue (None clears it). Reads back the numbers sent: a float for a number, a tuple of "
            "floats for a sequence, a read-only float64 array for an array.")
    to_value: "TypedProperty[Any, Optional[Value]]" = TypedProperty(
        lambda self: self._get("to_value", None),
        lambda self, v: self._set_value(lib.cad_anim_set_to, "to_value", v),
        doc="toValue (None clears it); read back as fromValue.")
    by_value: "TypedProperty[Any, Optional[Value]]" = TypedProperty(
        lambda self: self._get("by_value", None),
        lambda self, v: self._set_value(lib.cad_anim_set_by, "by_value", v),
        doc="byValue (None clears it); read back as fromValue.")

    @property
    def timing_function(self) -> Optional[TimingFunction]:
        """The timing function (None = linear): a name, a TimingName, a 4-tuple of
        Bézier control points or ("steps", n, "start"|"end"). Reads back a name as
        given, Bézier control points as the tuple of 4 floats sent."""
        v: Optional[TimingFunction] = self._get("timing_function", None)
        return v

    @timing_function.setter
    def timing_function(self, tf: Optional[TimingFunction]) -> None:
        fn, args = _timing_call(tf, lib.cad_anim_set_timing_function, lib.cad_anim_set_timing_bezier,
                                lib.cad_anim_set_timing_steps)
        self._check(fn, *args)
        self._values["timing_function"] = _frozen_timing(tf, args)

    def set_timing_steps(self, steps: IntLike, jump_at_start: bool = False) -> None:
        """Cadence extension: a ``steps(n, start|end)`` timing function."""
        self.timing_function = ("steps", steps, "start" if jump_at_start else "end")

    # ---- springs ---------------------------------------------------------------

    def set_spring(self, mass: RealLike = 1.0, stiffness: RealLike = 100.0, damping: RealLike = 10.0,
                   initial_velocity: RealLike = 0.0) -> None:
        """Spring parameters (mass > 0, stiffness > 0, damping >= 0)."""
        m, k, c, v0 = _floats(mass=mass, stiffness=stiffness, damping=damping, initial_velocity=initial_velocity)
        self._check(lib.cad_anim_set_spring, m, k, c, v0)
        self._values.update(mass=m, stiffness=k, damping=c, initial_velocity=v0)
        if self._values.get("_auto_duration"):
            self._follow_settling_duration()

    def _follow_settling_duration(self) -> None:
        """Sets the duration to the settling duration and keeps it so when the spring
        parameters change (the ``_auto_duration`` mark, dropped by an explicit duration)."""
        settle = self.settling_duration
        # An undamped spring never settles (inf): it keeps the duration it has
        # (0: the default 0.25 s), as a C host's spring would.
        if math.isfinite(settle):
            self.duration = settle
        self._values["_auto_duration"] = True

    def set_spring_perceptual(self, duration: RealLike, bounce: RealLike = 0.0) -> None:
        """Perceptual spring (duration > 0, bounce in (-1, 1)); sets the duration to the settling duration."""
        d, b = _floats(duration=duration, bounce=bounce)
        self._check(lib.cad_anim_set_spring_perceptual, d, b)
        self._values["duration"] = self.settling_duration
        self._values["_auto_duration"] = True  # C set it to the settling duration: keep following it
        for k in ("mass", "stiffness", "damping", "initial_velocity"):
            self._values.pop(k, None)

    def set_spring_uikit(self, duration: RealLike, damping_ratio: RealLike, initial_velocity: RealLike = 0.0) -> None:
        """UIKit-style spring settling exactly at ``duration`` (damping ratio in (0, 1])."""
        d, z, v0 = _floats(duration=duration, damping_ratio=damping_ratio, initial_velocity=initial_velocity)
        self._check(lib.cad_anim_set_spring_uikit, d, z, v0)
        self._values["duration"] = d
        self._values.pop("_auto_duration", None)  # settles exactly at the duration given
        for k in ("mass", "stiffness", "damping"):
            self._values.pop(k, None)
        self._values["initial_velocity"] = v0

    mass = _spring_property("mass", "Spring mass [1].")
    stiffness = _spring_property("stiffness", "Spring stiffness [100].")
    damping = _spring_property("damping", "Spring damping [10].")
    initial_velocity = _spring_property("initial_velocity",
                                        "Spring initial velocity [0], in distances per second toward the target.")

    def _spring_params(self) -> Dict[str, float]:
        """The engine's spring parameters (derived ones after the perceptual or UIKit setters)."""
        out = [c_double() for _ in range(4)]
        self._check(lib.cad_anim_get_spring, *(byref(o) for o in out))
        return dict(zip(_SPRING_DEFAULTS, (o.value for o in out)))

    def _set_spring_field(self, name: str, value: RealLike) -> None:
        v = checked_float(value, name)
        cur = self._spring_params()
        cur[name] = v
        self.set_spring(**cur)

    @property
    def settling_duration(self) -> float:
        """The spring's settling duration (SEMANTICS.md §6)."""
        out = c_double()
        self._check(lib.cad_anim_spring_settling_duration, byref(out))
        return out.value

    # ---- keyframes ---------------------------------------------------------------

    def _set_values(self, values: Values) -> None:
        self._p()
        flat, count, components, frozen = _keyframe_values(values)
        self._check(lib.cad_anim_set_values, doubles(flat), count, components)
        self._values["values"] = frozen

    def _set_key_times(self, times: Optional[Vector]) -> None:
        self._p()
        flat = None if times is None else flatten(times, "key_times")
        self._check(lib.cad_anim_set_key_times, doubles(flat), len(flat or ()))
        self._values["key_times"] = None if flat is None else _frozen(times, flat)

    # (TypedProperty: what they read differs from what they take, numpy arrays included)
    values: "TypedProperty[Optional[Sequence[Any]], Values]" = TypedProperty(
        lambda self: self._get("values", None), _set_values,
        doc="Keyframe values (one number or sequence per keyframe, or an array), read back as a tuple "
            "with a float per number and a flat tuple of floats per sequence (a read-only float64 array of "
            "the same shape for an array): a copy of what was sent.")
    key_times: "TypedProperty[Optional[Sequence[float]], Optional[Vector]]" = TypedProperty(
        lambda self: self._get("key_times", None), _set_key_times,
        doc="keyTimes (None: evenly spaced), read back as a tuple of floats (a read-only float64 array "
            "for an array): a copy of what was sent.")

    calculation_mode: "_Field[CalcMode, _Enum]" = _field_property(
        "calculation_mode", "cad_anim_set_calculation_mode", _to_calc_mode, CalcMode.LINEAR,
        doc='calculationMode: "linear" [default], "discrete", "paced", "cubic", "cubicPaced".')

    @property
    def timing_functions(self) -> Optional[Sequence[BezierTimingFunction]]:
        """Per-segment timing functions (names or 4-tuples)."""
        v: Optional[Sequence[BezierTimingFunction]] = self._get("timing_functions", None)
        return v

    @timing_functions.setter
    def timing_functions(self, tfs: Optional[Sequence[BezierTimingFunction]]) -> None:
        self._p()
        if tfs is not None:
            refuse_unordered(tfs, "timing_functions", "a sequence of timing functions")
        if tfs is None:
            flat, kept = None, None
        else:
            given = list(tfs)
            points = [timing_bezier(tf) for tf in given]
            flat = [x for pts in points for x in pts]
            # read back: names as given, Bézier control points as the 4 floats sent
            kept = tuple(tf if _is_timing_name(tf) else pts for tf, pts in zip(given, points))
        self._check(lib.cad_anim_set_segment_timing, doubles(flat), len(flat or ()) // 4)
        self._values["timing_functions"] = kept

    @property
    def tcb(self) -> Optional[Any]:
        """Kochanek–Bartels (tension, continuity, bias) per keyframe, for the cubic modes."""
        return self._get("tcb", None)

    @tcb.setter
    def tcb(self, tcb: Any) -> None:
        self.set_tcb(*_tcb_triple(tcb))

    def set_tcb(self, tension: Optional[Vector] = None, continuity: Optional[Vector] = None,
                bias: Optional[Vector] = None) -> None:
        """Per-keyframe tension, continuity and bias lists (None = zeros)."""
        self._p()
        lists, count = _tcb_lists(tension, continuity, bias)
        arrs = [doubles(x) for x in lists]
        self._check(lib.cad_anim_set_tcb, arrs[0], arrs[1], arrs[2], count)
        self._values["tcb"] = tuple(None if flat is None else _frozen(given, flat)
                                    for given, flat in zip((tension, continuity, bias), lists))

    @property
    def path(self) -> Optional["Path"]:
        """The keyframe path (replaces values): a :class:`Path`, or a list of points
        and tagged tuples, set once per animation.

        A description takes one path: the C API only appends elements, so a second
        assignment is an :class:`~cadence.InvalidStateError` (create a new animation
        for another path). A refused path leaves nothing behind: the whole path is
        checked (finite coordinates, element shapes, no leading close, the element
        limit) before its first element is sent. Should a C call still fail part-way,
        for a reason the binding cannot check beforehand (out of memory, say), the
        elements already sent stay in the description: ``path`` then reads those
        (a :class:`Path` of them), and a further assignment is refused as for a
        second path.
        """
        v: Optional[Path] = self._get("path", None)
        return v

    @path.setter
    def path(self, path: Any) -> None:
        # The C API only appends path elements (cad_anim_path_*), so a second
        # path would be joined to the first; refuse it rather than concatenate.
        if self._get("path", None) is not None:
            raise InvalidStateError(-7, message="this animation already has a path (the C API appends elements); "
                                                "create a new animation for another path")
        p = _as_path(path)
        self._p()
        sent = 0
        try:
            for op, *args in p._elements:
                check(self._call(getattr(lib, Path._C[op]), *args))
                sent += 1
        finally:
            # A call failed part-way: record what the description holds (see the doc
            # above), so that it reads back and is never joined to another path.
            if sent < len(p) and sent:
                self._values["path"] = p._prefix(sent)
        self._values["path"] = p

    rotation_mode: "_Field[RotationMode, Optional[_Enum]]" = _field_property(
        "rotation_mode", "cad_anim_set_rotation_mode", _to_rotation_mode, RotationMode.NONE,
        doc='rotationMode of a path animation: None/"none", "auto", "autoReverse".')

    # ---- groups and transitions ------------------------------------------------------

    @property
    def children(self) -> Optional[Sequence["Animation"]]:
        """The objects last passed as the group's children (None before). The group holds
        copies taken when they were set: later changes to these objects (or closing
        them) do not affect it."""
        v: Optional[Sequence[Animation]] = self._get("children", None)
        return v

    @children.setter
    def children(self, children: Sequence["Animation"]) -> None:
        self._p()
        kids = list(children)
        hs = self._child_handles(kids)
        arr = (c_uint64 * max(len(hs), 1))(*hs)
        self._check(lib.cad_anim_group_set_children, arr, len(hs))
        self._values["children"] = tuple(kids)

    def _child_handles(self, kids: Sequence[Any]) -> List[int]:
        """The handles of a group's children, checked (Animation objects of this engine, open)."""
        hs = []
        for k in kids:
            if not isinstance(k, Animation):
                raise TypeError(f"group children must be Animation objects, not {type(k).__name__}")
            if k._engine is not self._engine:
                raise ValueError("group children must belong to the group's engine")
            k._p()  # a closed child (handle 0) raises ClosedError, not InvalidHandleError
            hs.append(k._handle)
        return hs

    def set_transition(self, type: _Enum = "fade", subtype: _Enum = "fromLeft") -> None:
        """A transition's type and subtype."""
        t = parse_enum(TransitionType, type, "transition type")
        s = parse_enum(TransitionSubtype, subtype, "transition subtype")
        self._check(lib.cad_anim_set_transition, t, s)
        self._values["transition_type"] = t
        self._values["transition_subtype"] = s

    def set_progress(self, start: RealLike = 0.0, end: RealLike = 1.0) -> None:
        """A transition's startProgress and endProgress, in [0, 1]."""
        s0, s1 = _floats(start=start, end=end)
        self._check(lib.cad_anim_set_transition_progress, s0, s1)
        self._values["start_progress"] = s0
        self._values["end_progress"] = s1

    transition_type: "_Field[TransitionType, _Enum]" = _Field(
        lambda self: self._get("transition_type", TransitionType.FADE),
        lambda self, v: self.set_transition(v, self._values.get("transition_subtype", 0)),
        doc="A transition's type.")
    transition_subtype: "_Field[TransitionSubtype, _Enum]" = _Field(
        lambda self: self._get("transition_subtype", TransitionSubtype.FROM_LEFT),
        lambda self, v: self.set_transition(self._values.get("transition_type", 0), v),
        doc="A transition's subtype.")
    start_progress: "_Field[float, RealLike]" = _Field(
        lambda self: self._get("start_progress", 0.0),
        lambda self, v: self.set_progress(v, self._values.get("end_progress", 1.0)),
        doc="A transition's startProgress.")
    end_progress: "_Field[float, RealLike]" = _Field(
        lambda self: self._get("end_progress", 1.0),
        lambda self, v: self.set_progress(self._values.get("start_progress", 0.0), v),
        doc="A transition's endProgress.")

    # camelCase aliases of the settable names (Core Animation's spelling), checked below.
    beginTime = begin_time
    timeOffset = time_offset
    repeatCount = repeat_count
    repeatDuration = repeat_duration
    fillMode = fill_mode
    removedOnCompletion = removed_on_completion
    timingFunction = timing_function
    fromValue = from_value
    toValue = to_value
    byValue = by_value
    keyTimes = key_times
    calculationMode = calculation_mode
    timingFunctions = timing_functions
    rotationMode = rotation_mode
    initialVelocity = initial_velocity
    transitionType = transition_type
    transitionSubtype = transition_subtype
    startProgress = start_progress
    endProgress = end_progress

    # ---- events -----------------------------------------------------------------------

    def on_event(self, callback: Optional[Callable[["Event"], Any]]) -> Optional[Callable[["Event"], Any]]:
        """Sets the callback for the animation's start and stop events (None removes it).

        The callback receives an :class:`~cadence.Event` and runs on the thread
        that calls ``Engine.tick``; it may call any engine function. An exception
        it raises is re-raised from that ``tick``. Copies attached before this
        call keep their callback. Returns ``callback``, so it works as a decorator.
        """
        self._p()
        eng = self._engine
        if callback is not None and not callable(callback):
            raise TypeError("the event callback must be callable")
        with eng._cb_lock:  # no copy of the description is made meanwhile (Engine._set_action)
            if callback is None:
                self._check(lib.cad_anim_set_callback, _NULL_ANIM_CB, None)
                uid = 0
            else:
                uid = eng._register_callback(callback)
                try:
                    st = self._call(lib.cad_anim_set_callback, eng._anim_trampoline, uid)
                except BaseException:
                    eng._release_callback(uid)
                    raise
                if st:
                    eng._release_callback(uid)  # C did not take it: nothing can call it
                    raise_status(st)
            # The previous callback is no longer the description's (a new id each time,
            # so copies attached before keep theirs until their stop events).
            old, self._cb_uid = self._cb_uid, uid
        eng._release_callback(old)
        self._values["on_event"] = callback
        return callback


class AnimationView(Animation):
    """A read-only view of an animation attached to a layer, from
    :meth:`Layer.animation_for_key` (an :class:`Animation`).

    The C API has no getters for animation fields, so on a view they read None (for
    type checkers: ``Optional``, e.g. ``view.duration`` is ``Optional[float]``), and
    setting one is an :class:`~cadence.InvalidStateError`. A view can be passed to
    :meth:`Layer.add_animation` and :meth:`Layer.set_action` (a copy of the copy it
    shows); ``close()`` only forgets it.
    """

    __slots__ = ()


def _keyframe_values(values: Any) -> Tuple[List[float], int, int, Any]:
    """Keyframe values as ``(flat, count, components)`` for ``cad_anim_set_values``, and
    the immutable copy the ``values`` getter reads back: a read-only float64 array of
    an array's shape, or a tuple with a float per number and a flat tuple of floats
    per sequence."""
    refuse_unordered(values, "keyframe values", "a sequence of values")
    rows = list(values) if not _is_ndarray(values) else values
    count = len(rows)
    flat = flatten(rows, "keyframe values") if count else []
    components = len(flat) // count if count else 0
    if count and not _is_ndarray(values):
        # Every value must have the same number of components: a total that merely
        # divides evenly (values of 1, 3 and 2 numbers as 3 values of 2) would be
        # regrouped silently. The C side then checks that number for the key path.
        sizes = [len(flatten(row, "keyframe values")) for row in rows]
        for i, n in enumerate(sizes):
            if n != sizes[0]:
                raise InvalidArgumentError(
                    -2, message=f"keyframe values must all have the same number of components: "
                                f"value {i} has {n}, value 0 has {sizes[0]}")
    if _is_ndarray(values):
        return flat, count, components, _frozen(values, flat)
    frozen = tuple(_frozen(row, flat[i * components:(i + 1) * components]) for i, row in enumerate(rows))
    return flat, count, components, frozen


def _tcb_triple(tcb: Any) -> Tuple[Any, Any, Any]:
    """(tension, continuity, bias) of a ``tcb`` value: a dict with those keys or a 3-sequence."""
    if isinstance(tcb, dict):
        unknown = set(tcb) - {"tension", "continuity", "bias"}
        if unknown:
            raise TypeError(f"unknown tcb keys {sorted(unknown)}; use tension, continuity, bias")
        return tcb.get("tension"), tcb.get("continuity"), tcb.get("bias")
    refuse_unordered(tcb, "tcb", "a dict or a sequence (tension, continuity, bias)")
    t, c, b = tcb
    return t, c, b


def _tcb_lists(*lists: Optional[Vector]) -> Tuple[List[Optional[List[float]]], int]:
    """The tension, continuity and bias lists as flat float lists (None stays None) and their common length."""
    flat = [None if x is None else flatten(x, "tcb") for x in lists]
    count = max((len(x) for x in flat if x is not None), default=0)
    for x in flat:
        if x is not None and len(x) != count:
            raise ValueError("tension, continuity and bias must have the same length")
    return flat, count


def _require_finite(xs: Iterable[float], what: str) -> None:
    for x in xs:
        if not math.isfinite(x):
            raise InvalidArgumentError(-2, message=f"{what} must be finite (got {x!r})")


def _check_unit(v: Any, what: str) -> None:
    x = checked_finite(v, what)
    if not 0.0 <= x <= 1.0:
        raise InvalidArgumentError(-2, message=f"{what} must lie in [0, 1] (got {x!r})")


def _check_spring_field(name: str, v: Any) -> None:
    # Each parameter's own rule (cad_anim_set_spring): mass > 0, stiffness > 0, damping >= 0, all finite.
    x = checked_finite(v, name)
    if (name in ("mass", "stiffness") and not x > 0) or (name == "damping" and not x >= 0):
        raise InvalidArgumentError(-2, message=f"{name} must be {'>= 0' if name == 'damping' else '> 0'} (got {x!r})")


def _check_option(anim: "Animation", attr: str, v: Any) -> None:
    """Raises what setting ``attr`` to ``v`` would raise because of ``v`` alone (its
    type, its shape, and the library's rules for it that do not depend on the
    animation's key path, kind or other settings). Used by :meth:`Animation.configure`
    to check every option before it sets any."""
    conv = _CONVERTERS.get(attr)
    if conv is not None:
        conv(v, attr)
    elif attr == "timing_function":
        _timing_call(v, lib.cad_anim_set_timing_function, lib.cad_anim_set_timing_bezier,
                     lib.cad_anim_set_timing_steps, check_bezier=True)
    elif attr == "timing_functions":
        if v is not None:
            refuse_unordered(v, "timing_functions", "a sequence of timing functions")
            for pts in {timing_bezier(tf) for tf in v}:
                _check_bezier(pts)
    elif attr in ("from_value", "to_value", "by_value"):
        if v is not None:
            _require_finite(flatten(v, attr), f"{attr} components")
    elif attr == "values":
        _require_finite(_keyframe_values(v)[0], "keyframe values")
    elif attr == "key_times":
        if v is not None:
            _require_finite(flatten(v, "key_times"), "key_times")
    elif attr == "tcb":
        for x in _tcb_lists(*_tcb_triple(v))[0]:
            _require_finite(x or (), "tension, continuity and bias values")
    elif attr == "path":
        if anim._get("path", None) is not None:
            raise InvalidStateError(-7, message="this animation already has a path (the C API appends elements); "
                                                "create a new animation for another path")
        _as_path(v)
    elif attr == "children":
        anim._child_handles(list(v))
    elif attr in _SPRING_DEFAULTS:
        _check_spring_field(attr, v)
    elif attr == "transition_type":
        _checked_member(TransitionType, v, "transition type")
    elif attr == "transition_subtype":
        _checked_member(TransitionSubtype, v, "transition subtype")
    elif attr in ("start_progress", "end_progress"):
        _check_unit(v, attr)
    elif attr == "on_event":
        if v is not None and not callable(v):
            raise TypeError("the event callback must be callable")


def _is_ndarray(x: Any) -> bool:
    return type(x).__module__ == "numpy" and type(x).__name__ == "ndarray"


#: The converters of the fields whose setter sends one converted value (configure() checks with them first).
_CONVERTERS: Dict[str, Callable[[Any, str], Any]] = {row[0]: row[2] for row in _FIELDS}
_CONVERTERS.update(calculation_mode=_to_calc_mode, rotation_mode=_to_rotation_mode)

#: Settable names accepted by configure()/constructors (snake and camel case) -> attribute.
_SETTABLE = [f[0] for f in _FIELDS] + [
    "timing_function", "from_value", "to_value", "by_value", "values", "key_times", "calculation_mode",
    "timing_functions", "tcb", "path", "rotation_mode", "children", "mass", "stiffness", "damping",
    "initial_velocity", "transition_type", "transition_subtype", "start_progress", "end_progress", "on_event",
]
_OPTION_NAMES: Dict[str, str] = {}
for _n in _SETTABLE:
    _OPTION_NAMES[_n] = _n
    _OPTION_NAMES[_camel(_n)] = _n
    # The class body declares each settable name, and its camelCase alias as the same property.
    if _n != "on_event" and (not isinstance(vars(Animation).get(_n), property)
                             or vars(Animation).get(_camel(_n)) is not vars(Animation)[_n]):
        raise AssertionError(f"cadence.Animation: {_n!r} or its alias {_camel(_n)!r} is not declared")
_OPTION_NAMES["from_"] = "from_value"
_OPTION_NAMES["to"] = "to_value"
_OPTION_NAMES["by"] = "by_value"
_OPTION_NAMES["fromValue"] = "from_value"
_OPTION_NAMES["toValue"] = "to_value"
_OPTION_NAMES["byValue"] = "by_value"
del _n


@overload
def evaluate_timing(timing_function: BezierTimingFunction, x: ArrayLike) -> Any: ...


@overload
def evaluate_timing(timing_function: BezierTimingFunction, x: RealLike) -> float: ...


@overload
def evaluate_timing(timing_function: BezierTimingFunction, x: Sequence[RealLike]) -> List[float]: ...


def evaluate_timing(timing_function: BezierTimingFunction, x: Any) -> Any:
    """Evaluates a Bézier timing function (a name or 4 control values) at progress
    ``x`` with the engine's own solver (``cad_timing_eval_batch``, one C call).

    ``x``: a real number of any type (int, float, bool, numpy scalars such as
    ``np.float32(0.5)`` or ``np.True_``...; returns a float), a numpy array of any
    shape, 0-d included, and memory layout (returns a new float64 array of the same
    shape) or a sequence (returns a list). Arrays must hold real numbers (a bool,
    integer or float dtype): strings, bytes, complex numbers or objects are a
    TypeError, as they are in a sequence. Values are clamped to [0, 1]. The count is
    a C ``int32_t``: more than 2**31 - 1 values is an :class:`~cadence.InvalidArgumentError`.
    """
    c1x, c1y, c2x, c2y = timing_bezier(timing_function)
    if isinstance(x, numbers.Real) or type(x) is NP_BOOL:  # (numpy's bool is no numbers.Real)
        xi = (c_double * 1)(checked_float(x, "x"))
        yo = (c_double * 1)()
        check(lib.cad_timing_eval_batch(c1x, c1y, c2x, c2y, xi, yo, 1))
        return yo[0]
    if _is_ndarray(x):
        np = _np  # (an ndarray was given: numpy is there)
        if x.dtype.kind not in "biuf":  # np.require would parse strings and drop imaginary parts
            raise TypeError(f"x must be an array of real numbers (a bool, integer or float dtype), "
                            f"not of dtype {x.dtype}")
        n = checked_count(int(x.size), "n")  # before any copy of the array
        # C reads and writes aligned, contiguous doubles; the shape is kept (0-d too:
        # np.ascontiguousarray would make it 1-d).
        xa = np.require(np.asarray(x), dtype=np.float64, requirements=("C", "A"))
        ya = np.empty(xa.shape, dtype=np.float64)
        pd = ctypes.POINTER(c_double)
        check(lib.cad_timing_eval_batch(c1x, c1y, c2x, c2y, ctypes.cast(xa.ctypes.data, pd),
                                        ctypes.cast(ya.ctypes.data, pd), n))
        return ya
    xs = flatten(x, "x")
    n = checked_count(len(xs), "n")
    xi = doubles(xs)
    yo = (c_double * max(n, 1))()
    check(lib.cad_timing_eval_batch(c1x, c1y, c2x, c2y, xi, yo, n))
    return list(yo[:n])
