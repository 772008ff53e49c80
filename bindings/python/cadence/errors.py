"""Exceptions of the Cadence binding.

Every failing C call returns a negative ``cad_status``; the high-level API turns
it into an instance of the :class:`CadenceError` subclass for that status, with
the thread's ``cad_last_error()`` message read right after the failing call.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Type

from . import _abi

__all__ = [
    "CadenceError",
    "InvalidHandleError",
    "InvalidArgumentError",
    "UnknownKeyPathError",
    "TypeMismatchError",
    "BufferTooSmallError",
    "NotFoundError",
    "InvalidStateError",
    "OutOfMemoryError",
    "ClosedError",
    "EngineClosedError",
    "LibraryNotFoundError",
    "LibraryMismatchError",
    "MissingFunctionError",
    "ERRORS",
    "error_for_status",
]


class CadenceError(Exception):
    """A libcadence call failed.

    Attributes:
        status: the ``cad_status`` code (negative).
        name: the enumerator name, e.g. ``"CAD_ERR_INVALID_HANDLE"``.
        message: the library's ``cad_last_error()`` text for the failure.
    """

    #: Status code of this class (``None`` on the base class).
    code: Optional[int] = None

    def __init__(self, status: int, name: str = "", message: str = "") -> None:
        self.status = int(status)
        self.name = name or _NAMES.get(self.status, "CAD_ERR_UNKNOWN")
        self.message = message
        super().__init__(f"{self.name} ({self.status}): {message}" if message else f"{self.name} ({self.status})")

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:  # keep exceptions picklable (multiprocessing, pytest-xdist)
        return (type(self), (self.status, self.name, self.message))


class InvalidHandleError(CadenceError):
    """A stale (destroyed), forged, zero or foreign layer or animation handle."""

    code = -1


class InvalidArgumentError(CadenceError, ValueError):
    """NaN/inf, negative count, bad enum value, tree cycle, index out of range..."""

    code = -2


class UnknownKeyPathError(CadenceError, KeyError):
    """The key path names no property (SEMANTICS.md §2)."""

    code = -3

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return Exception.__str__(self)


class TypeMismatchError(CadenceError, TypeError):
    """Wrong number of components for the key path."""

    code = -4


class BufferTooSmallError(CadenceError):
    """An output buffer was too small (the binding normally grows and retries)."""

    code = -5


class NotFoundError(CadenceError, LookupError):
    """No animation for the key, or the event queue is empty."""

    code = -6


class InvalidStateError(CadenceError):
    """Read-only attached animation, from+to+by all set, unbalanced commit, wrong kind..."""

    code = -7


class OutOfMemoryError(CadenceError, MemoryError):
    """The library could not allocate memory."""

    code = -8


class ClosedError(InvalidStateError):
    """An engine or animation was used after ``close()``."""

    def __init__(self, message: str = "the engine is closed") -> None:
        super().__init__(-7, "CAD_ERR_INVALID_STATE", message)

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (type(self), (self.message,))


#: Alias of :class:`ClosedError`.
EngineClosedError = ClosedError


class LibraryNotFoundError(ImportError):
    """libcadence could not be found or loaded; the message lists every place tried."""


class LibraryMismatchError(ImportError):
    """The loaded libcadence does not match this binding (ABI version or struct sizes)."""


class MissingFunctionError(NotImplementedError):
    """The loaded library predates a function of the binding's table."""


#: Exception class per status code.
ERRORS: Dict[int, Type[CadenceError]] = {
    cls.code: cls  # type: ignore[misc,unused-ignore]
    for cls in (
        InvalidHandleError,
        InvalidArgumentError,
        UnknownKeyPathError,
        TypeMismatchError,
        BufferTooSmallError,
        NotFoundError,
        InvalidStateError,
        OutOfMemoryError,
    )
}

_NAMES: Dict[int, str] = {
    v: k for k, v in _abi.CONSTANTS.items() if k == "CAD_OK" or k.startswith("CAD_ERR_")
}


def error_for_status(status: int, name: str = "", message: str = "") -> CadenceError:
    """Builds the exception for ``status`` (a :class:`CadenceError` for unknown codes)."""
    cls = ERRORS.get(int(status), CadenceError)
    return cls(status, name, message)
