"""Internal helpers shared by the high-level modules: status checks and value packing."""
from __future__ import annotations

import ctypes
import math
import operator
from collections.abc import Mapping as _Mapping, Set as _Set
from numbers import Integral, Real
from typing import (TYPE_CHECKING, Any, Generic, List, NoReturn, Optional, Protocol, Sequence, SupportsFloat,
                    SupportsIndex, Tuple, TypeVar, Union, overload)

from ._lib import lib
from .errors import InvalidArgumentError, error_for_status

# numpy is optional, also for type checkers: without it installed, mypy takes _np as Any
# (hence the ignores, which are unused when numpy is there).
try:
    import numpy as _np  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - exercised on machines without numpy
    _np = None  # type: ignore[assignment, unused-ignore]


class _NoType:  # pragma: no cover - stands for numpy.bool_ without numpy
    pass


#: numpy's bool scalar type (``np.True_``, an element of a bool array), which is no
#: ``numbers.Real``: the helpers below treat it as they treat ``bool``.
NP_BOOL: type = _np.bool_ if _np is not None else _NoType

c_double = ctypes.c_double
c_int32 = ctypes.c_int32
c_uint64 = ctypes.c_uint64
byref = ctypes.byref

_last_error = lib.cad_last_error
_status_name = lib.cad_status_name

OK = 0
ERR_BUFFER_TOO_SMALL = lib.CAD_ERR_BUFFER_TOO_SMALL
ERR_NOT_FOUND = lib.CAD_ERR_NOT_FOUND
ERR_INVALID_HANDLE = lib.CAD_ERR_INVALID_HANDLE

__all__ = ["_np", "Value", "Vector", "ArrayLike", "RealLike", "IntLike", "BoolLike", "TypedProperty",
           "ReadOnlyProperty", "checked_float", "checked_int", "checked_bool", "check", "raise_status", "encode",
           "flatten", "pack", "doubles", "unpack", "byref", "c_double", "c_int32", "c_uint64", "OK",
           "ERR_BUFFER_TOO_SMALL", "ERR_NOT_FOUND", "ERR_INVALID_HANDLE", "INT32_RANGE", "INT64_RANGE", "HANDLE_RANGE",
           "INT32_MAX", "NP_BOOL", "finite_or_inf", "checked_finite", "checked_non_negative", "checked_repeat",
           "repeat_value", "checked_count", "refuse_unordered"]

# ---- types of the arguments, for type checkers ---------------------------------------
# What the run-time checks accept, without naming numpy (which may not be installed):
# numpy's scalars have __float__ / __index__, and its arrays match ArrayLike.

#: A real number where a C double is taken: int, float, bool, Fraction, numpy's scalars
#: (``np.float32(0.5)``, ``np.int64(2)``, ``np.True_``)... (checked_float: other types
#: with ``__float__``, such as Decimal, are a TypeError at run time).
RealLike = SupportsFloat
#: An integer where a C integer is taken: int, numpy's integers (anything with
#: ``__index__``; a bool is a TypeError at run time).
IntLike = SupportsIndex
#: A boolean: bool, numpy's bool, or a number (non-zero is true, as in C).
BoolLike = SupportsFloat


class ArrayLike(Protocol):
    """A numpy array (or another object with ``__array__``, ``__len__`` and
    ``__getitem__``), where a sequence of numbers is taken. For type checkers only."""

    def __array__(self) -> Any: ...

    def __len__(self) -> int: ...

    def __getitem__(self, index: Any, /) -> Any: ...


#: A sequence of numbers (a tuple, a list, a Point...) or an array: a vector value.
Vector = Union[Sequence[SupportsFloat], ArrayLike]
#: Value types accepted wherever the library takes ``const double *v, int32_t n``: a
#: number, a sequence of numbers, a nested sequence (a 4x4 matrix as rows) or an array.
Value = Union[SupportsFloat, Sequence[Union[SupportsFloat, Sequence[SupportsFloat], ArrayLike]], ArrayLike]

_G = TypeVar("_G")
_S = TypeVar("_S")


class TypedProperty(property, Generic[_G, _S]):
    """A ``property`` whose reads have type ``_G`` and whose writes accept ``_S``, for
    type checkers (``layer.position = (1, 2)`` then ``layer.position`` is a Point).
    At run time it is a plain property (same speed)."""

    if TYPE_CHECKING:  # pragma: no cover
        @overload
        def __get__(self, obj: None, owner: Any = None) -> "TypedProperty[_G, _S]": ...

        @overload
        def __get__(self, obj: object, owner: Any = None) -> _G: ...

        def __get__(self, obj: Any, owner: Any = None) -> Any: ...

        def __set__(self, obj: Any, value: _S) -> None: ...


class ReadOnlyProperty(property, Generic[_G]):
    """A read-only ``property`` whose reads have type ``_G`` (see :class:`TypedProperty`)."""

    if TYPE_CHECKING:  # pragma: no cover
        @overload
        def __get__(self, obj: None, owner: Any = None) -> "ReadOnlyProperty[_G]": ...

        @overload
        def __get__(self, obj: object, owner: Any = None) -> _G: ...

        def __get__(self, obj: Any, owner: Any = None) -> Any: ...

        def __set__(self, obj: Any, value: NoReturn) -> None: ...  # read-only: nothing is assignable


def raise_status(status: int) -> None:
    """Raises the exception for a failed call. Must run right after the failing call:
    it reads the thread's ``cad_last_error()`` before making any other library call."""
    raw = _last_error()
    message = raw.decode("utf-8", "replace") if raw else ""
    name_raw = _status_name(status)
    name = name_raw.decode("ascii", "replace") if name_raw else ""
    raise error_for_status(status, name, message)


def check(status: int) -> None:
    """Raises the :class:`~cadence.errors.CadenceError` subclass for a non-zero status."""
    if status:
        raise_status(status)


def encode(s: Optional[str], what: str = "key") -> Optional[bytes]:
    """A key path or key as NUL-terminated UTF-8 (``None`` stays ``None``).

    A NUL character inside it is an :class:`~cadence.InvalidArgumentError` (a
    ``ValueError``, as at Python's own C-string boundaries): C would read the
    string only up to it, so ``"opacity\\0junk"`` would silently reach the library as
    ``"opacity"``. Every key path and key the binding passes to C goes through here."""
    if type(s) is str:  # (the common case first: item access passes through here)
        b = s.encode()  # UTF-8
    elif s is None:
        return None
    elif isinstance(s, bytes):
        b = s
    elif isinstance(s, str):
        b = s.encode()
    else:
        raise TypeError(f"expected a str {what}, not {type(s).__name__}")
    if 0 in b:  # (an int: much cheaper than b"\0" in b)
        raise InvalidArgumentError(-2, message=f"{what} {s!r} contains a NUL character (C strings end at the first NUL)")
    return b


def checked_float(value: Any, what: str = "value") -> float:
    """``value`` as a float, for C ``double`` arguments (one rule for the whole binding).

    Real numbers (int, float, bool, Fraction, numpy scalars) are converted; one
    too large for a double (``10**400``) is an :class:`~cadence.InvalidArgumentError`,
    as NaN and infinities are where C refuses them. Anything else (a str such as
    "1", bytes, None, Decimal) is a TypeError: ``float()`` would parse strings and
    ctypes would raise its own ``ArgumentError``.
    """
    if type(value) is float:
        return value
    if not isinstance(value, Real):
        if type(value) is NP_BOOL:  # as bool (a Real) is
            return 1.0 if value else 0.0
        raise TypeError(f"{_name(what)} must be a number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        shown = repr(value)
        if len(shown) > 40:
            shown = f"{shown[:20]}... ({len(shown)} characters)"
        raise InvalidArgumentError(-2, message=f"{_name(what)} is out of range for a double: {shown}") from None


# The library's rules for timing numbers (CAMediaTiming fields, transaction settings),
# checked before a C call where a refused value must not leave a half-done operation
# behind (a transaction block, configure()). The messages follow the library's.

def checked_finite(value: Any, what: str) -> float:
    """``value`` as a float that must be finite (beginTime, speed, timeOffset, velocities...)."""
    v = checked_float(value, what)
    if not math.isfinite(v):
        raise InvalidArgumentError(-2, message=f"{_name(what)} must be a finite number (got {v!r})")
    return v


def checked_non_negative(value: Any, what: str) -> float:
    """``value`` as a float that must be finite and >= 0 (durations, delays)."""
    v = checked_float(value, what)
    if not (math.isfinite(v) and v >= 0):
        raise InvalidArgumentError(-2, message=f"{_name(what)} must be finite and >= 0 (got {v!r})")
    return v


def repeat_value(value: Any) -> Any:
    """A repeat count or duration as given, but for ``True`` (also numpy's), which
    means infinity (repeat forever, UIKit's ``repeat: true``), and ``False``, 0.
    The one meaning of a bool where a repeat count is expected, everywhere in the
    binding (``animate(repeat=...)``, ``Animation.repeat_count``/``repeat_duration``,
    a layer's ``repeatCount``/``repeatDuration``): never the count 1."""
    t = type(value)
    if t is bool or t is NP_BOOL:
        return math.inf if value else 0.0
    return value


def checked_repeat(value: Any, what: str) -> float:
    """A repeat count or duration: ``True`` is infinity (repeat forever, see
    :func:`repeat_value`), numbers must be >= 0 (infinity allowed, NaN not)."""
    value = repeat_value(value)
    v = checked_float(value, what)
    if not v >= 0:  # also refuses NaN
        raise InvalidArgumentError(-2, message=f"{_name(what)} must be >= 0 or infinity (got {v!r})")
    return v


def _name(what: Union[str, bytes]) -> str:
    # Hot paths pass a key path as bytes: decoded only for an error message.
    return what.decode("utf-8", "replace") if isinstance(what, bytes) else what


#: Containers refused where an ordered sequence of numbers is expected: a set has no
#: order (its elements would come in hash order) and a mapping would give its keys.
_UNORDERED = (_Set, _Mapping)


def refuse_unordered(value: Any, what: Union[str, bytes], expected: str = "a sequence of numbers") -> None:
    """Raises a TypeError naming the type when ``value`` is a set, a frozenset, a dict
    or any other unordered or mapping container (``collections.abc.Set`` or
    ``Mapping``, dict views of keys and items included), where an ordered sequence
    is expected: iterating it would give set elements in hash order, or a dict's keys."""
    if isinstance(value, _UNORDERED):
        raise TypeError(f"{_name(what)} must be {expected}, not {type(value).__name__}")


def flatten(value: Value, what: str = "value") -> List[float]:
    """A scalar, a sequence, a nested sequence (e.g. a 4x4 matrix) or an array as a flat
    list. Sets and mappings (at any level) are a TypeError (:func:`refuse_unordered`)."""
    if isinstance(value, Real):
        return [checked_float(value, what)]
    if type(value) is NP_BOOL:  # a numpy bool scalar, as a bool
        return [1.0 if value else 0.0]
    if _np is not None and isinstance(value, _np.ndarray):
        kind = value.dtype.kind
        if kind in "biuf":  # every such value fits a double
            floats: List[float] = value.astype(_np.float64).ravel().tolist()
            return floats
        if kind != "O":
            raise TypeError(f"{_name(what)} must be an array of numbers, not of dtype {value.dtype}")
        return [checked_float(x, what) for x in value.ravel().tolist()]
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"{_name(what)}: expected a number or a sequence of numbers, not {type(value).__name__}")
    # (tuples, NamedTuples such as Point, and lists skip the slower ABC check)
    if not isinstance(value, (tuple, list)) and isinstance(value, _UNORDERED):
        raise TypeError(f"{_name(what)} must be a sequence of numbers, not {type(value).__name__}")
    out: List[float] = []
    try:
        items = list(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{_name(what)}: expected a number or a sequence of numbers, not {type(value).__name__}") from None
    for x in items:
        if isinstance(x, Real):
            out.append(checked_float(x, what))
        else:
            out.extend(flatten(x, what))
    return out


def pack(value: Value, what: str = "value") -> Tuple[Any, int]:
    """``(c_double array, n)`` for a value."""
    if type(value) is float:
        return (c_double * 1)(value), 1
    if isinstance(value, Real):
        return (c_double * 1)(checked_float(value, what)), 1
    flat = flatten(value, what)
    return (c_double * len(flat))(*flat), len(flat)


def doubles(flat: Optional[Sequence[float]]) -> Any:
    """A c_double array of the numbers in ``flat`` (at least one element, so never
    NULL, even when empty), or None (NULL) for None."""
    if flat is None:
        return None
    return (c_double * max(len(flat), 1))(*flat)


def unpack(buf: Any, n: int) -> Union[float, Tuple[float, ...]]:
    """A float for one component, a tuple otherwise."""
    if n == 1:
        return float(buf[0])
    return tuple(buf[:n])


def finite_or_inf(x: Union[float, bool]) -> float:
    """True -> inf (UIKit's "repeat forever"); numbers as floats."""
    if x is True:
        return math.inf
    return float(x)


INT32_RANGE = (-2 ** 31, 2 ** 31)
INT64_RANGE = (-2 ** 63, 2 ** 63)
HANDLE_RANGE = (0, 2 ** 64)


def checked_int(value: Any, what: str, bounds: Tuple[int, int] = INT32_RANGE) -> int:
    """``value`` as a Python int in ``[bounds[0], bounds[1])``, for C integer arguments.

    ctypes would wrap out-of-range ints silently (2**32 -> 0 for an int32) and
    ``int()`` would truncate 2.7 or parse "7", so: anything ``operator.index``
    accepts (int, numpy integers), range-checked. A non-integral number (2.7, and
    also 2.0) or an out-of-range integer is an :class:`~cadence.InvalidArgumentError`;
    any other type (a str, None...) is a TypeError, and so is a bool (Python's or
    numpy's): ``True`` where a handle, id, tag, index, count or capacity is expected
    is a mistake, not 1 (as enum arguments refuse it).
    """
    t = type(value)
    if t is bool or t is NP_BOOL:
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        if isinstance(value, Real):
            raise InvalidArgumentError(-2, message=f"{what} must be an integer, got {value!r}") from None
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    lo, hi = bounds
    if not lo <= v < hi:
        raise InvalidArgumentError(-2, message=f"{what} must lie in [{lo}, {hi}), got {v}")
    return v


INT32_MAX = 2 ** 31 - 1


def checked_count(n: int, what: str) -> int:
    """``n`` (a length, >= 0) as a C ``int32_t`` count: above ``INT32_MAX`` an
    :class:`~cadence.InvalidArgumentError` (ctypes would wrap 2**32 + 3 to 3)."""
    if n > INT32_MAX:
        raise InvalidArgumentError(-2, message=f"{what}: {n} is more than an int32 count can hold ({INT32_MAX})")
    return n


def checked_bool(value: Any, what: str) -> bool:
    """A boolean argument, converted as the C side does (docs/decisions.md "Booleans"):
    bools as they are, numbers by "non-zero means true"; NaN and infinities are an
    :class:`~cadence.InvalidArgumentError` (as in C), and non-numbers (a str such as
    "no", None...) a TypeError instead of Python truthiness."""
    if isinstance(value, bool) or type(value) is NP_BOOL:
        return bool(value)
    if isinstance(value, Integral):  # exact, also for ints too large for a double
        return operator.index(value) != 0
    if isinstance(value, Real):
        f = float(value)
        if not math.isfinite(f):
            raise InvalidArgumentError(-2, message=f"{what} must be a bool or a finite number, got {value!r}")
        return f != 0.0
    raise TypeError(f"{what} must be a bool or a number, not {type(value).__name__}")
