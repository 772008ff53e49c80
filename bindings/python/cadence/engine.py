"""The engine: clock, layers, events, transactions and frame output."""
from __future__ import annotations

import ctypes
import itertools
import math
import numbers
import operator
import threading
import weakref
from contextlib import contextmanager
from functools import partial
from typing import (Any, Callable, ContextManager, Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple,
                    Union)

from ._core import (ERR_BUFFER_TOO_SMALL, ERR_INVALID_HANDLE, ERR_NOT_FOUND, INT32_MAX, NP_BOOL, ArrayLike, BoolLike,
                    IntLike, RealLike, Value, Vector, _np, byref, c_double, c_int32, c_uint64, check, checked_bool,
                    checked_count, checked_finite, checked_float, checked_int, checked_non_negative, checked_repeat,
                    encode, flatten, raise_status, refuse_unordered, repeat_value)
from ._lib import cad_anim_callback, cad_event, cad_render_item, cad_transaction_callback, lib
from .animation import Animation, BezierTimingFunction, _apply_timing, _no_copy, _timing_call
from .enums import AnimKind, EventKind
from .errors import ClosedError, InvalidArgumentError, InvalidStateError, OutOfMemoryError, TypeMismatchError
from .layer import _REPEAT_BKEYS, KEY_PATH_COMPONENTS, Layer, _convert_point, _handle_of, _layer_handle
from .types import Point

__all__ = ["Engine", "Event", "Transaction", "media_time", "RENDER_ITEM_DTYPE", "EVENT_DTYPE"]

_POINTER_RENDER_ITEM = ctypes.POINTER(cad_render_item)
_POINTER_DOUBLE = ctypes.POINTER(c_double)
_POINTER_U64 = ctypes.POINTER(c_uint64)
_NULL_TX_CB = cad_transaction_callback()
_RENDER_CACHE_ROOTS = 32  # render-list buffers kept per engine (one per root layer)



def _struct_dtype(struct: Any) -> Any:
    """The numpy dtype of a ctypes structure, field by field at the structure's own
    offsets and size, with ``char[n]`` fields as numpy strings ``'S<n>'`` (numpy
    would otherwise read them as n one-byte strings). An aligned struct dtype
    (``isalignedstruct``, ``alignment`` 8 as in C): numpy checks that every offset
    and the size keep the fields' natural alignment, and arrays it allocates of it
    are aligned as the library requires of the buffers it writes."""
    names, formats, offsets = [], [], []
    for name, ctype in struct._fields_:
        names.append(name)
        offsets.append(getattr(struct, name).offset)
        if issubclass(ctype, ctypes.Array) and ctype._type_ is ctypes.c_char:
            formats.append(f"S{ctype._length_}")
        else:
            formats.append(_np.dtype(ctype))
    dt = _np.dtype({"names": names, "formats": formats, "offsets": offsets,
                    "itemsize": ctypes.sizeof(struct)}, align=True)
    if dt.itemsize != ctypes.sizeof(struct) or dt.alignment != ctypes.alignment(struct):  # pragma: no cover
        raise AssertionError(f"numpy lays out {struct.__name__} differently from C")
    return dt


#: numpy dtype of ``cad_render_item`` (None without numpy), built from the ctypes struct.
RENDER_ITEM_DTYPE = _struct_dtype(cad_render_item) if _np is not None else None
#: numpy dtype of ``cad_event`` (None without numpy); ``key`` is ``'S64'``.
EVENT_DTYPE = _struct_dtype(cad_event) if _np is not None else None

_media_time = lib.cad_media_time


def media_time() -> float:
    """Monotonic seconds (CLOCK_MONOTONIC), like ``CACurrentMediaTime()``."""
    t: float = _media_time()
    return t


class Event(NamedTuple):
    """An animation or transaction event (SEMANTICS.md §11).

    ``layer`` is None for transaction completions; ``tag`` is the animation's tag
    or the transaction's id; ``time`` is the global time at which it happened
    (for callbacks: the engine's now during the tick that delivers it).

    ``key``: callbacks get the animation's whole key. Events from
    :meth:`Engine.poll_events` carry the queue's copy, ``cad_event.key``: a
    ``char[64]``, so a key longer than 63 bytes (UTF-8) is cut to its first 63
    bytes, and a cut through a multi-byte character ends in U+FFFD. Use keys of at
    most 63 bytes (or callbacks) to tell polled events apart by key.
    """

    kind: EventKind
    finished: bool
    layer: Optional[Layer]
    tag: int
    time: float
    key: str


def _error(status: int) -> BaseException:
    """The exception of a failed status, read right after the failing call (as
    raise_status does), to raise after further calls."""
    try:
        raise_status(status)
    except BaseException as exc:  # noqa: BLE001 - returned, raised by the caller
        return exc
    raise AssertionError("raise_status returned")  # pragma: no cover


def _layer_handles(layers: Any) -> Tuple[Any, Any, int]:
    """The ``layers`` argument of :meth:`Engine.sample` and :meth:`Engine.set` as C
    reads it: ``(buffer, pointer, count)``, the buffer to keep alive until the C call
    has returned, the pointer to pass (to an aligned, contiguous uint64 array, never
    NULL) and the number of handles (a C ``int32_t``)."""
    if _np is not None and isinstance(layers, _np.ndarray) and layers.dtype.kind != "O":
        # Handles are exact 64-bit integers: a float array (which cannot hold them
        # exactly) is refused rather than cast, and negative ints would wrap.
        kind = layers.dtype.kind
        if kind not in "iu":
            raise TypeError(f"layer handles must be an integer array (uint64), not {layers.dtype}")
        count = checked_count(layers.size, "n_layers")  # before any copy of the array
        if kind == "i" and count and layers.min() < 0:
            raise InvalidArgumentError(-2, message="layer handles must lie in [0, 2**64); the array holds negative values")
        # C reads an aligned, contiguous uint64 array (it refuses an unaligned one).
        harr = _np.require(_np.asarray(layers), dtype=_np.uint64, requirements=("C", "A")).reshape(-1)
        return harr, ctypes.cast(harr.ctypes.data, _POINTER_U64), count
    hs = [_layer_handle(l) for l in layers]
    count = checked_count(len(hs), "n_layers")
    buf = (c_uint64 * max(count, 1))(*hs)
    return buf, buf, count


# ---- the values of Engine.set ------------------------------------------------------------

#: What :meth:`Engine.set` takes as ``values``: n rows (each a number or a sequence of
#: numbers), n * k numbers, or an array.
Rows = Union[Sequence[Value], ArrayLike]

_CONTENTS = b"contents"
#: Key paths whose numbers Engine.set converts one by one, as Layer.set does: the
#: repeat fields (a bool means forever) and contents (integer ids, no bools).
_ITEMWISE_BKEYS = _REPEAT_BKEYS | {_CONTENTS}
_EXACT = 2 ** 53  # every integer up to this is a double


def _exact_id(v: int, what: str) -> None:
    """A contents id that goes to C as a double must be one exactly (ids above 2**53 may not be)."""
    if v > _EXACT and int(float(v)) != v:
        raise InvalidArgumentError(-2, message=f"{what}: contents id {v} is not exact as a double (ids above 2**53 "
                                               "may not be): set it with Layer.contents, which takes 64-bit ids")


def _batch_number(x: Any, what: str, bkp: bytes) -> float:
    """One number of a batch of a repeat field or of contents, taken as Layer.set takes
    a value: for repeatCount/repeatDuration a bool is forever (True) or 0; for contents
    a bool is a TypeError (an id is meant) and an integer id must be exact as a double."""
    t = type(x)
    if bkp == _CONTENTS:
        if t is bool or t is NP_BOOL:
            raise TypeError(f"{what}: contents must be an integer id, not bool")
        f = checked_float(x, what)
        if isinstance(x, numbers.Integral):
            _exact_id(operator.index(x), what)
        return f
    return checked_float(repeat_value(x), what)


def _flat_itemwise(value: Any, what: str, bkp: bytes, out: List[float]) -> None:
    """:func:`~cadence._core.flatten` of a row with :func:`_batch_number` for its numbers."""
    if isinstance(value, numbers.Real) or type(value) is NP_BOOL:
        out.append(_batch_number(value, what, bkp))
        return
    if _np is not None and isinstance(value, _np.ndarray):
        if value.dtype.kind not in "biufO":
            raise TypeError(f"{what} must be an array of numbers, not of dtype {value.dtype}")
        value = value.tolist()  # Python bools, ints and floats (a 0-d array: one of them)
        if not isinstance(value, list):
            out.append(_batch_number(value, what, bkp))
            return
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"{what}: expected a number or a sequence of numbers, not {type(value).__name__}")
    refuse_unordered(value, what)
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{what}: expected a number or a sequence of numbers, not {type(value).__name__}") from None
    for x in items:
        _flat_itemwise(x, what, bkp, out)


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) or type(x) is NP_BOOL


def _batch_items(values: Any) -> List[Any]:
    """The items of ``values`` given as a Python sequence (or iterable), in order."""
    if _is_number(values):
        raise TypeError(f"values must be a sequence of rows or of numbers, or an array, not one "
                        f"{type(values).__name__}: give a row per layer (a value is not repeated for every layer)")
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"values must be a sequence of rows or of numbers, or an array, not {type(values).__name__}")
    refuse_unordered(values, "values", "a sequence of rows or of numbers, or an array")
    if isinstance(values, list):
        return values
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"values must be a sequence of rows or of numbers, or an array, "
                        f"not {type(values).__name__}") from None


def _shape_error(keypath: str, count: int, k: int, got: str) -> TypeMismatchError:
    return TypeMismatchError(-4, message=f"\"{keypath}\" takes {k} component(s) per layer: {count} layer(s) need "
                                         f"{count} row(s) of {k} number(s) (an array of shape ({count}, {k})) or "
                                         f"{count * k} numbers; got {got} (nothing was set)")


def _python_values(items: List[Any], count: int, k: Optional[int], bkp: bytes, keypath: str) -> List[float]:
    """The doubles of ``values`` given as Python objects: n rows of k numbers, or
    n * k numbers (a row of k = 1 may be a number)."""
    itemwise = bkp in _ITEMWISE_BKEYS

    def row(value: Any, what: str) -> List[float]:
        if itemwise:
            out: List[float] = []
            _flat_itemwise(value, what, bkp, out)
            return out
        if type(value) is float:
            return [value]
        return flatten(value, what)

    if k is not None and len(items) != count:
        # Not one row per layer: n * k numbers, or a shape C would refuse.
        if len(items) != count * k or not all(_is_number(x) for x in items):
            raise _shape_error(keypath, count, k, f"{len(items)} item(s)")
        if itemwise:
            return [_batch_number(x, f"values[{i}]", bkp) for i, x in enumerate(items)]
        return [x if type(x) is float else checked_float(x, f"values[{i}]") for i, x in enumerate(items)]
    flat: List[float] = []
    for i, value in enumerate(items):
        r = row(value, f"values[{i}]")
        if k is not None and len(r) != k:
            raise _shape_error(keypath, count, k, f"{len(r)} number(s) in values[{i}]")
        flat += r
    # (k None: a key path this binding's table lacks; C reports an unknown one, or checks the count)
    return flat


def _array_values(arr: Any, count: int, k: Optional[int], bkp: bytes, keypath: str) -> Tuple[Any, Any, int]:
    """``(buffer, pointer, n_values)`` of ``values`` given as a numpy array: of shape
    (n, k), (n, ...) with k numbers per row, or flat (n * k,). A C-contiguous aligned
    float64 array is passed as it is; others are copied once, after the checks."""
    kind = arr.dtype.kind
    if kind not in "biuf":
        raise TypeError(f"values must be an array of numbers (bool, integer or float), not of dtype {arr.dtype}")
    shape = arr.shape
    if k is not None:
        size = 1
        for d in shape[1:]:
            size *= d
        if not ((arr.ndim <= 1 and arr.size == count * k) or (arr.ndim >= 2 and shape[0] == count and size == k)):
            raise _shape_error(keypath, count, k, f"shape {shape}")
    n = checked_count(arr.size, "n_values")  # before any copy (a broadcast array has no memory of its size)
    if bkp == _CONTENTS:
        if kind == "b":
            raise TypeError("values: contents must be integer ids, not bools")
        if kind in "iu" and arr.dtype.itemsize >= 8 and n:
            flat = arr.reshape(-1)
            for i in _np.flatnonzero(flat > _EXACT).tolist():
                _exact_id(int(flat[i]), f"values[{i}]")
    elif kind == "b" and bkp in _REPEAT_BKEYS:
        arr = _np.where(arr, _np.inf, 0.0)  # True: forever, as everywhere in the binding
    if not n:
        empty = (c_double * 1)()
        return empty, empty, 0
    # C reads an aligned, contiguous float64 array (it refuses an unaligned one).
    buf = _np.require(arr, dtype=_np.float64, requirements=("C", "A"))
    return buf, ctypes.cast(buf.ctypes.data, _POINTER_DOUBLE), n


def _batch_values(values: Any, count: int, k: Optional[int], bkp: bytes, keypath: str) -> Tuple[Any, Any, int]:
    """``(buffer, pointer, n_values)`` of the ``values`` of :meth:`Engine.set`: the
    buffer to keep alive until the C call has returned, the pointer to pass (aligned
    doubles, never NULL) and their count (a C ``int32_t``). ``k``: the key path's
    component count (None: unknown to the binding, C checks the count)."""
    if _np is not None:
        arr = None
        if isinstance(values, _np.ndarray):
            arr = values
        elif not _is_number(values) and (hasattr(values, "__array__") or hasattr(values, "__array_interface__")):
            try:
                arr = _np.asarray(values)  # an array-like (a pandas or torch object...)
            except (TypeError, ValueError, OverflowError):
                arr = None  # (one numpy cannot convert: checked item by item below)
        elif bkp not in _ITEMWISE_BKEYS:
            # A Python sequence: converted by numpy when all its items are numbers in
            # rows of one length; anything else (strings, None, sets, ragged rows...) is
            # checked item by item below, with the binding's errors.
            values = _batch_items(values)
            try:
                arr = _np.asarray(values)
            except (TypeError, ValueError, OverflowError):
                arr = None
            if arr is not None and arr.dtype.kind not in "biuf":
                arr = None
        if arr is not None:
            if arr.dtype.kind != "O":
                return _array_values(arr, count, k, bkp, keypath)
            values = arr.tolist()  # objects: Python numbers (and whatever else, refused below)
    flat = _python_values(_batch_items(values), count, k, bkp, keypath)
    n = checked_count(len(flat), "n_values")
    buf = (c_double * max(n, 1))(*flat)
    return buf, buf, n


def _event_kind(k: int) -> Any:
    try:
        return EventKind(k)
    except ValueError:
        return k


def _anim_trampoline(wref: "weakref.ref[Engine]", e: Any, kind: int, layer: int, key: Optional[bytes],
                     finished: int, tag: int, userdata: Optional[int]) -> None:
    # Runs inside a C call: nothing may propagate out of here. That call (a tick or
    # a commit made through the binding) is in flight on this thread, so no other
    # thread can destroy the engine until it returns; only a callback on this thread
    # can (then _ptr is None and C skips the rest of the tick's callbacks).
    eng = None
    try:
        eng = wref()
        if eng is None or eng._ptr is None:
            return
        uid = userdata or 0
        fn = eng._callbacks.get(uid)
        if fn is None:
            return
        if kind == EventKind.STOP and layer:
            eng._callback_stopped(uid)  # that attached copy will not call again (actions: see _settle_actions)
        now = c_double()
        lib.cad_engine_now(eng._ptr, byref(now))
        ev = Event(_event_kind(kind), bool(finished), Layer(eng, layer) if layer else None, tag, now.value,
                   key.decode("utf-8", "replace") if key else "")
        fn(ev)
    except BaseException as exc:  # noqa: BLE001 - re-raised after the C call returns
        if eng is not None:
            eng._pending.append(exc)


def _tx_trampoline(wref: "weakref.ref[Engine]", e: Any, userdata: Optional[int]) -> None:
    eng = None
    try:
        eng = wref()
        if eng is None:
            return
        fn = eng._tx_callbacks.pop(userdata or 0, None)
        if fn is None or eng._ptr is None:
            return
        fn()
    except BaseException as exc:  # noqa: BLE001
        if eng is not None:
            eng._pending.append(exc)


def _set_tx_timing(eng: "Engine", tf: BezierTimingFunction) -> None:
    """Sets the innermost transaction's timing function (a name or 4 Bézier values)."""
    _apply_timing(tf, eng._call, lib.cad_transaction_set_timing_function, lib.cad_transaction_set_timing_bezier, None)


# The settings of a transaction()/animate() block, checked as the library checks them
# (cad_transaction_set_*) before the block's transaction opens: a refused setting must
# not open (and so commit) a transaction. One function per rule, used by both blocks.

def _tx_timing_call(tf: BezierTimingFunction) -> Tuple[Callable[..., int], Tuple[Any, ...]]:
    """The C setter and arguments of a transaction's timing function, checked
    (a name or 4 Bézier values the library accepts; no steps)."""
    return _timing_call(tf, lib.cad_transaction_set_timing_function, lib.cad_transaction_set_timing_bezier, None,
                        check_bezier=True)


def _checked_damping_ratio(value: Any) -> float:
    """A spring damping ratio: finite, in (0, 1]."""
    v = checked_float(value, "spring_damping")
    if not (math.isfinite(v) and 0.0 < v <= 1.0):
        raise InvalidArgumentError(-2, message=f"spring_damping (damping_ratio) must lie in (0, 1] (got {v!r})")
    return v


class Transaction:
    """The open transaction of a ``with engine.transaction()`` / ``engine.animate()`` block.

    Its methods configure that transaction, and only while it is the innermost open
    one: once its block has ended, or while a nested block (or keyframe window) is
    open, they raise :class:`~cadence.InvalidStateError` instead of configuring
    another transaction. It cannot be copied or pickled.
    """

    __slots__ = ("_engine", "id", "_open")

    def __init__(self, engine: "Engine", tid: int) -> None:
        self._engine = engine
        #: The transaction's id (the tag of its completion event).
        self.id = tid
        self._open = True

    def _check_current(self) -> None:
        """Raises InvalidStateError unless this is the engine's innermost open transaction."""
        if not self._open:
            raise InvalidStateError(-7, "CAD_ERR_INVALID_STATE",
                                    f"transaction {self.id}'s with-block has ended; this object no longer configures anything")
        current = self._engine.transaction_id
        if current != self.id:
            raise InvalidStateError(-7, "CAD_ERR_INVALID_STATE",
                                    f"transaction {self.id} is not the innermost open transaction ({current} is): "
                                    "configure a nested block through its own object")

    def keyframe(self, rel_start: RealLike, rel_duration: RealLike) -> ContextManager[None]:
        """A keyframe window of the block (see :meth:`Engine.keyframe`)."""
        self._check_current()
        return self._engine.keyframe(rel_start, rel_duration)

    def set_duration(self, d: RealLike) -> None:
        d = checked_non_negative(d, "duration")
        self._check_current()
        self._engine._check(lib.cad_transaction_set_duration, d)

    def set_timing_function(self, tf: BezierTimingFunction) -> None:
        """The block's timing function: a name or 4 Bézier values (no steps: the C API
        has none for transactions)."""
        self._check_current()
        _set_tx_timing(self._engine, tf)

    def set_disable_actions(self, disable: BoolLike = True) -> None:
        flag = 1 if checked_bool(disable, "disable_actions") else 0
        self._check_current()
        self._engine._check(lib.cad_transaction_set_disable_actions, flag)

    def set_completion(self, fn: Optional[Callable[[], Any]]) -> None:
        self._check_current()
        self._engine._set_completion(fn)

    def __repr__(self) -> str:
        return f"<cadence.Transaction id={self.id}{'' if self._open else ' ended'}>"

    __copy__ = __deepcopy__ = __reduce_ex__ = __reduce__ = _no_copy


class _Linger:
    """A dropped action's alias id (see Engine "layer actions"): the layer and the key
    its copies attach under; ``handle``, the copy attached there when the action was
    dropped (0: none, or gone since); and once none of its copies can be attached
    any more, ``seq``, the number of ticks started when that was seen."""

    __slots__ = ("layer", "key", "handle", "seq")

    def __init__(self, layer: int, key: bytes, handle: int, seq: int) -> None:
        self.layer = layer
        self.key = key
        self.handle = handle
        self.seq = seq


class _Calls:
    """One thread's count of C calls in flight on one engine (written only by that thread)."""

    __slots__ = ("n", "ticks", "__weakref__")

    def __init__(self) -> None:
        self.n = 0
        self.ticks = 0  # of those, tick() calls (see Engine._ticking)


class Engine:
    """A Cadence engine: layers, animations, a clock and a transaction stack.

    Owns its ``cad_engine *``. ``close()`` destroys it (idempotent); any use
    afterwards raises :class:`~cadence.ClosedError`. It is a context manager,
    and garbage collection closes it too. It cannot be copied or pickled
    (``TypeError``): it owns the C engine.

    Threads: every method and property of the engine, its layers, animations,
    presentation layers and transactions may be called from any thread (the C
    library serialises them). ``close()`` may be called from any thread too: calls
    that have started on other threads finish first, calls made after it began
    raise :class:`~cadence.ClosedError`. See the README, "Threads".

    Python callbacks (animation events, transaction completions) run inside
    :meth:`tick` or a transaction commit; an exception raised in one is caught
    before it reaches C and re-raised from that call once the C call returns.
    """

    def __init__(self) -> None:
        self._ptr: Optional[int] = None
        # Calls in flight (see _enter): each thread counts its own in a _Calls record
        # (reached through self._local, listed weakly in _threads); _closing, _ptr and
        # the list change under _lock, and close() waits on _cond for other threads.
        self._closing = True  # until the C engine exists
        self._closer = False  # a close() is waiting for other threads' calls
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._threads: "weakref.WeakSet[_Calls]" = weakref.WeakSet()
        # Python callbacks by userdata id, kept exactly while C may still call them.
        # Animation callbacks: while a description holds the id (``_cb_owned``), while
        # attached copies made by add_animation have not reported their stop event
        # (``_cb_copies``), or, for a layer action, while the action is set
        # (``_cb_pinned``) and then until its copies are gone (``_cb_linger``): see
        # _set_action. These records change under _lock.
        self._callbacks: Dict[int, Callable[[Event], Any]] = {}
        self._cb_owned: Set[int] = set()
        self._cb_copies: Dict[int, int] = {}
        # Layer actions (see "layer actions" below). Each set_action of an animation
        # with a callback gives the action its own id (an alias of the callback),
        # carried by the copies that action makes and by nothing else.
        # _cb_pinned: alias -> (layer, action key, key its copies attach under, the
        # copy attached there when it was set); _cb_actions: layer -> {action key:
        # alias}; _cb_linger: alias -> _Linger once its action is gone;
        # _cb_watching: (layer, attach key) -> the lingering aliases still watching
        # the copy attached there. _cb_forever: ids copies of a read-only view may
        # carry (never released).
        self._cb_pinned: Dict[int, Tuple[int, bytes, bytes, int]] = {}
        self._cb_actions: Dict[int, Dict[bytes, int]] = {}
        self._cb_linger: Dict[int, _Linger] = {}
        self._cb_watching: Dict[Tuple[int, bytes], Set[int]] = {}
        self._cb_forever: Set[int] = set()
        # Held while a description's callback id is read or changed and copies of it
        # are made (on_event, add_animation, set_action), and while an action changes
        # (set_action, clear_action, Layer.destroy). Taken before _lock, never after.
        self._cb_lock = threading.RLock()
        # tick() calls: started (each takes the next number, under _lock), and the
        # number of one that returned after C ran it (see _settle_actions).
        self._ticks_started = 0
        self._ticks_done = 0
        # Transaction completions: until they run (popped by the trampoline), or until
        # replaced on the same open transaction (``_tx_uid_of``: transaction id -> id).
        self._tx_callbacks: Dict[int, Callable[[], Any]] = {}
        self._tx_uid_of: Dict[int, int] = {}
        self._ids = itertools.count(1)
        self._render_cache: Dict[int, Tuple[Any, Any]] = {}
        self._render_cap = 64
        self._sample_components: Dict[bytes, int] = {}
        self._local = threading.local()  # per thread: calls in flight, exceptions raised by callbacks
        wref = weakref.ref(self)
        # One trampoline per engine and kind, alive as long as this object: C only
        # calls them while the engine exists, and close() never frees them (it may
        # run inside one of them).
        self._anim_trampoline = cad_anim_callback(partial(_anim_trampoline, wref))
        self._tx_trampoline = cad_transaction_callback(partial(_tx_trampoline, wref))
        p = lib.cad_engine_create()
        if not p:
            raise OutOfMemoryError(lib.CAD_ERR_OUT_OF_MEMORY, "CAD_ERR_OUT_OF_MEMORY", "cad_engine_create returned NULL")
        self._ptr = p
        self._closing = False

    # ---- calls in flight -----------------------------------------------------------
    #
    # Every C call the high-level objects make on this engine runs between _enter()
    # (which returns the engine pointer) and _exit(). _enter takes _lock once: it
    # refuses when close() has begun, and counts the call in the calling thread's
    # record. _exit takes no lock unless close() has begun (then it wakes close()).
    # close() marks the engine closing, waits until no other thread has a call in
    # flight, then destroys it; calls in flight on its own thread (close() from a
    # callback of a tick) do not delay it: C allows destroying the engine from its
    # own callbacks. Layer._read, Layer._write and tick() inline the same steps.

    def _calls(self) -> _Calls:
        """The calling thread's record (created on its first call)."""
        try:
            return self._local.calls  # type: ignore[no-any-return]
        except AttributeError:
            rec = _Calls()
            with self._lock:
                self._threads.add(rec)
            self._local.calls = rec
            return rec

    def _enter(self) -> int:
        """Starts a counted C call: the engine pointer, valid until :meth:`_exit`
        (other threads cannot destroy the engine meanwhile). ClosedError once
        close() has begun."""
        try:
            rec = self._local.calls
        except AttributeError:
            rec = self._calls()
        lock = self._lock
        lock.acquire()  # (acquire/release: cheaper than ``with`` on hot paths)
        try:
            closing = self._closing
            if not closing:
                rec.n += 1
        finally:
            lock.release()
        if closing:
            raise ClosedError("the engine is closed")
        return self._ptr  # type: ignore[return-value]

    def _exit(self) -> None:
        """Ends a call started by :meth:`_enter` (wakes a waiting close())."""
        self._local.calls.n -= 1
        if self._closing:
            self._wake()

    def _wake(self) -> None:
        with self._lock:
            self._cond.notify_all()

    def _try_enter(self) -> Optional[int]:
        """Like :meth:`_enter`, but None instead of ClosedError (cleanup paths)."""
        try:
            return self._enter()
        except ClosedError:
            return None

    def _call(self, fn: Callable[..., int], *args: Any) -> int:
        """``fn(engine, *args)`` as one counted call; returns its status."""
        p = self._enter()
        try:
            return fn(p, *args)
        finally:
            self._exit()

    def _check(self, fn: Callable[..., int], *args: Any) -> None:
        """:meth:`_call`, raising the error of a failed status."""
        p = self._enter()
        try:
            st = fn(p, *args)
        finally:
            self._exit()
        if st:
            raise_status(st)

    def _others_in_flight(self, mine: Optional[_Calls]) -> bool:
        return any(rec.n for rec in list(self._threads) if rec is not mine)

    # ---- lifetime ----------------------------------------------------------------

    def _p(self) -> int:
        """The engine pointer, ClosedError once close() has begun (no call counted)."""
        p = self._ptr
        if p is None or self._closing:
            raise ClosedError("the engine is closed")
        return p

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has begun."""
        return self._closing

    @property
    def pointer(self) -> int:
        """The raw ``cad_engine *`` as an int, for calls through :data:`cadence.lib`.

        Calls made through :data:`cadence.lib` are not counted as in flight: do not
        make them while another thread may close the engine."""
        return self._p()

    def close(self) -> None:
        """Destroys the engine and everything in it. Calling it again does nothing.

        Thread-safe: calls made through this binding that are in flight on other
        threads finish first (later ones raise ClosedError), then the engine is
        destroyed. Safe inside one of the engine's callbacks: the calling thread's
        own calls in flight do not delay it, and the rest of that tick's callbacks
        are skipped.
        """
        try:
            mine: Optional[_Calls] = self._local.calls
        except AttributeError:
            mine = None
        with self._lock:
            if self._ptr is None:
                return  # destroyed (or never created)
            self._closing = True  # from now on, new calls raise ClosedError
            if mine is not None and mine.n:
                # This thread has calls in flight (close() from a callback). If another
                # thread is closing, it waits for them: do not wait back, return.
                if self._closer:
                    return
            else:
                while self._closer and self._ptr is not None:  # another thread closes: wait for it
                    self._cond.wait(0.05)
                if self._ptr is None:
                    return
            self._closer = True
            try:
                while self._others_in_flight(mine):
                    # Timed: a thread that ended a call without seeing _closing yet (no
                    # notify) is seen at the next check; no lost wake-up can hang close().
                    self._cond.wait(0.05)
            except BaseException:
                # Interrupted (KeyboardInterrupt...): the engine stays closed to new
                # calls, and the next close() (or the finalizer) takes over.
                self._closer = False
                self._cond.notify_all()
                raise
            p, self._ptr = self._ptr, None
            self._render_cache.clear()
            lib.cad_engine_destroy(p)
            # C can no longer call anything: drop the Python callbacks.
            for d in (self._callbacks, self._cb_copies, self._cb_pinned, self._cb_actions, self._cb_linger,
                      self._cb_watching, self._tx_callbacks, self._tx_uid_of):
                d.clear()
            self._cb_owned.clear()
            self._cb_forever.clear()
            self._closer = False
            self._cond.notify_all()

    def __enter__(self) -> "Engine":
        self._p()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown, half-built object
            pass

    def __repr__(self) -> str:
        p = self._ptr
        return "<cadence.Engine closed>" if p is None or self._closing else f"<cadence.Engine at {p:#x}>"

    # An engine owns its cad_engine *: a copy would destroy it a second time.
    __copy__ = __deepcopy__ = __reduce_ex__ = __reduce__ = _no_copy

    # ---- callbacks -----------------------------------------------------------------

    @property
    def _pending(self) -> List[BaseException]:
        """Exceptions raised by callbacks on this thread, waiting to be re-raised."""
        try:
            return self._local.pending  # type: ignore[no-any-return]
        except AttributeError:
            pending: List[BaseException] = []
            self._local.pending = pending
            return pending

    def _register_callback(self, fn: Callable[[Event], Any]) -> int:
        """A new userdata id for an animation callback, held by its description until
        :meth:`_release_callback`."""
        with self._lock:
            uid = next(self._ids)
            self._callbacks[uid] = fn
            self._cb_owned.add(uid)
        return uid

    def _release_callback(self, uid: int) -> None:
        """The description no longer holds ``uid`` (closed, callback replaced or
        removed, or the C call registering it failed)."""
        if uid:
            with self._lock:
                self._cb_owned.discard(uid)
                self._forget_callback(uid)

    def _callback_copied(self, uid: int, n: int = 1) -> None:
        """``n`` copies carrying ``uid`` are attached by add_animation (each reports
        one stop event); -1 takes back a count made for a copy C refused."""
        if uid:
            with self._lock:
                left = self._cb_copies.get(uid, 0) + n
                if left > 0:
                    self._cb_copies[uid] = left
                else:
                    self._cb_copies.pop(uid, None)
                    self._forget_callback(uid)

    def _callback_stopped(self, uid: int) -> None:
        """An attached copy carrying ``uid`` reported its (only) stop event."""
        with self._lock:
            if uid in self._cb_pinned or uid in self._cb_linger:
                return  # a copy made by an action (its own alias id): see _settle_actions
            n = self._cb_copies.get(uid, 0)
            if n > 1:
                self._cb_copies[uid] = n - 1
            else:
                self._cb_copies.pop(uid, None)
                self._forget_callback(uid)

    def _forget_callback(self, uid: int) -> None:
        """Drops ``uid``'s callback unless something may still call it (under _lock)."""
        if (uid not in self._cb_owned and uid not in self._cb_copies and uid not in self._cb_pinned
                and uid not in self._cb_linger and uid not in self._cb_forever):
            self._callbacks.pop(uid, None)

    def _keep_callbacks_forever(self) -> None:
        """A read-only view (an attached copy) is copied again: its copies carry the
        callback id of the copy it shows, which the binding cannot tell. Every id
        registered now is kept for the engine's life (the behaviour before actions
        had their own ids), so none of them can go while such a copy may call it."""
        with self._lock:
            self._cb_forever.update(self._callbacks)

    # ---- layer actions ---------------------------------------------------------------
    #
    # C copies an action animation when it is set and again on every change of its
    # key: the binding cannot count those copies. What it knows:
    # - every copy of the action set for (layer, key) attaches on that layer under
    #   ``key`` ("transition" for a transition), replacing what was attached there:
    #   at most one of them is attached at a time, and attached copies have distinct
    #   handles (cad_layer_animation_for_key);
    # - each copy reports exactly one stop event, a removed one at the next tick;
    # - once the action is replaced, cleared or its layer destroyed, C makes no new
    #   copy of it.
    # So set_action gives each action a fresh id, an alias of the callback (set on the
    # description just for the C call: the description and its add_animation copies
    # keep their own id), pinned while the action is set. When the action goes, the
    # copy attached where its copies attach is read:
    # - the copy that was attached there when the action was set: the action made no
    #   copy at all, the alias goes at once;
    # - another copy (maybe the action's, maybe still running): the alias is kept
    #   until that copy is no longer attached there (checked after each tick);
    # - none, or once that copy is gone: every copy of the action is gone, but the
    #   stop events of removed ones may still be pending. They are delivered by the
    #   first tick C runs after, so the alias goes once a tick started later has
    #   returned with no tick in progress (_settle_actions).

    def _set_action(self, layer: int, key: bytes, anim: Optional[Animation]) -> None:
        """``cad_layer_set_action(layer, key, anim)`` (None: the "no action" marker),
        keeping the action's callback exactly while its copies may call it."""
        with self._cb_lock:
            h = uid = 0
            transition = False
            if anim is not None:
                h, uid = anim._handle, anim._cb_uid
                transition = anim._kind == AnimKind.TRANSITION
                if anim._readonly:
                    self._keep_callbacks_forever()
            alias = 0
            err: Optional[BaseException] = None
            p = self._enter()
            try:
                if uid:
                    alias = self._new_alias(p, uid, layer, key, transition)
                if alias:
                    # The copy C keeps for the action takes the alias id; the description
                    # gets its own back at once (_cb_lock keeps on_event and add_animation
                    # of it out meanwhile).
                    st = lib.cad_anim_set_callback(p, h, self._anim_trampoline, alias)
                    if st:
                        err = _error(st)
                    else:
                        st = lib.cad_layer_set_action(p, layer, key, h)
                        if st:
                            err = _error(st)
                        lib.cad_anim_set_callback(p, h, self._anim_trampoline, uid)
                else:
                    st = lib.cad_layer_set_action(p, layer, key, h)
                    if st:
                        err = _error(st)
            except BaseException:
                self._drop_alias(alias)
                raise
            finally:
                self._exit()
            if err is not None:
                self._drop_alias(alias)  # C did not take it: no copy carries it
                raise err
            with self._lock:
                if self._ptr is None:
                    return  # closed meanwhile: close() dropped everything
                slots = self._cb_actions.get(layer)
                old = 0 if slots is None else slots.pop(key, 0)
                if alias:
                    self._cb_actions.setdefault(layer, {})[key] = alias
                elif slots is not None and not slots:
                    del self._cb_actions[layer]
            if old:
                self._action_dropped(old)

    def _new_alias(self, p: int, uid: int, layer: int, key: bytes, transition: bool) -> int:
        """(Inside a counted call, ``p`` its pointer.) A new id for ``uid``'s callback,
        pinned as the action for (layer, key); 0 when ``uid`` has no callback."""
        fn = self._callbacks.get(uid)
        if fn is None:
            return 0
        where = b"transition" if transition else key  # a transition attaches under "transition"
        out = c_uint64()
        before = out.value if lib.cad_layer_animation_for_key(p, layer, where, byref(out)) == 0 else 0
        with self._lock:
            alias = next(self._ids)
            self._callbacks[alias] = fn
            self._cb_pinned[alias] = (layer, key, where, before)
        return alias

    def _drop_alias(self, alias: int) -> None:
        """Forgets an alias C never took."""
        if alias:
            with self._lock:
                self._cb_pinned.pop(alias, None)
                self._forget_callback(alias)

    def _clear_action(self, layer: int, key: bytes) -> None:
        """``cad_layer_clear_action``: the default action again."""
        with self._cb_lock:
            self._check(lib.cad_layer_clear_action, layer, key)
            with self._lock:
                slots = self._cb_actions.get(layer)
                old = 0 if slots is None else slots.pop(key, 0)
                if slots is not None and not slots:
                    del self._cb_actions[layer]
            if old:
                self._action_dropped(old)

    def _destroy_layer(self, layer: int) -> None:
        """``cad_layer_destroy``: its actions go, its copies stop (at the next tick)."""
        with self._cb_lock:
            p = self._enter()
            try:
                st = lib.cad_layer_destroy(p, layer)
            finally:
                self._exit()
            err = _error(st) if st else None
            if st in (0, ERR_INVALID_HANDLE):  # (also when it was destroyed without the binding)
                with self._lock:
                    slots = self._cb_actions.pop(layer, None)
                    for alias in (slots or {}).values():
                        self._linger(alias, 0)
                    # The copies lingering aliases watch there went with the layer.
                    for where in [w for w in self._cb_watching if w[0] == layer]:
                        self._copies_gone(where, 0)
            if err is not None:
                raise err

    def _action_dropped(self, alias: int) -> None:
        """The action ``alias`` was set for was replaced or cleared: C makes no new
        copy of it. Reads what is attached where its copies attach."""
        where = self._cb_pinned.get(alias)
        if where is None:
            return
        out = c_uint64()
        p = self._try_enter()
        if p is None:
            return  # closing: close() drops everything
        try:
            st = lib.cad_layer_animation_for_key(p, where[0], where[2], byref(out))
        finally:
            self._exit()
        with self._lock:
            if self._ptr is not None:
                self._linger(alias, out.value if st == 0 else 0)

    def _linger(self, alias: int, attached: int) -> None:
        """(Under _lock, after reading it.) The action ``alias`` is gone; ``attached``
        is the copy attached where its copies attach (0: none)."""
        layer, _, key, before = self._cb_pinned[alias]
        where = (layer, key)
        self._copies_gone(where, attached)  # lingering aliases watching another copy there
        if attached and attached == before:
            # Attached before the action was set, and never replaced: the action made
            # no copy (a copy would have replaced it), so nothing carries the alias.
            del self._cb_pinned[alias]
            self._forget_callback(alias)
            return
        self._cb_linger[alias] = _Linger(layer, key, attached, -1 if attached else self._ticks_started)
        del self._cb_pinned[alias]
        if attached:
            self._cb_watching.setdefault(where, set()).add(alias)

    def _copies_gone(self, where: Tuple[int, bytes], attached: int) -> None:
        """(Under _lock, after reading it, with _cb_lock held since: no alias started
        watching meanwhile.) ``attached`` is the copy attached at ``where`` (0: none):
        the lingering aliases watching another copy there stop watching."""
        watching = self._cb_watching.get(where)
        if watching:
            for alias in [a for a in watching if self._cb_linger[a].handle != attached]:
                self._copy_gone(alias)

    def _copy_gone(self, alias: int) -> None:
        """(Under _lock, after reading it.) The copy lingering ``alias`` watches is
        no longer attached: seen before ``_ticks_started`` ticks had started."""
        rec = self._cb_linger[alias]
        rec.handle = 0
        rec.seq = self._ticks_started
        where = (rec.layer, rec.key)
        watching = self._cb_watching[where]
        watching.discard(alias)
        if not watching:
            del self._cb_watching[where]

    def _ticking(self) -> bool:
        """(Under _lock.) True while a tick() call is in progress on any thread."""
        return any(rec.ticks for rec in list(self._threads))

    def _settle_actions(self) -> None:
        """After a tick, when none is in progress: drops the lingering aliases nothing
        can call any more (see "layer actions" above). Never raises."""
        with self._lock:
            if self._ptr is None or self._ticking():
                return
            watched = [(where, [(a, self._cb_linger[a].handle) for a in aliases])
                       for where, aliases in self._cb_watching.items()]
        if watched:
            p = self._try_enter()
            if p is None:
                return
            out = c_uint64()
            ref = byref(out)
            gone = []
            try:
                for (layer, key), pairs in watched:
                    attached = out.value if lib.cad_layer_animation_for_key(p, layer, key, ref) == 0 else 0
                    gone += [(a, h) for a, h in pairs if h != attached]
            finally:
                self._exit()
            with self._lock:
                if self._ptr is None:
                    return
                for alias, handle in gone:
                    # (Only the pairs read: an alias that started watching meanwhile
                    # watches a copy attached after the read.)
                    rec = self._cb_linger.get(alias)
                    if rec is not None and rec.handle == handle:
                        self._copy_gone(alias)
        with self._lock:
            if self._ptr is None or self._ticking():
                return
            done = self._ticks_done
            for alias in [a for a, rec in self._cb_linger.items() if not rec.handle and rec.seq < done]:
                del self._cb_linger[alias]
                self._forget_callback(alias)

    def _reraise(self) -> None:
        # The first callback exception is raised; later ones of the same C call
        # are attached to it (exc.further_callback_exceptions, and as notes on
        # Python 3.11+) rather than dropped.
        pending = self._pending
        if pending:
            exc = pending[0]
            rest = list(pending[1:])
            del pending[:]
            if rest:
                try:
                    exc.further_callback_exceptions = rest  # type: ignore[attr-defined]
                except AttributeError:
                    pass
                if hasattr(exc, "add_note"):
                    for other in rest:
                        exc.add_note(f"also raised by a callback in the same call: {other!r}")
            raise exc

    def _set_completion(self, fn: Optional[Callable[[], Any]]) -> None:
        if fn is not None and not callable(fn):
            raise TypeError("completion must be callable")
        tid = self.transaction_id  # the innermost open transaction (0: none, C fails below)
        if fn is None:
            self._check(lib.cad_transaction_set_completion, _NULL_TX_CB, None)
            uid = 0
        else:
            uid = next(self._ids)
            self._tx_callbacks[uid] = fn
            st = self._call(lib.cad_transaction_set_completion, self._tx_trampoline, uid)
            if st:
                self._tx_callbacks.pop(uid, None)
                raise_status(st)
        # C replaced this transaction's previous completion: forget it (no accumulation).
        old = self._tx_uid_of.pop(tid, 0)
        if old:
            self._tx_callbacks.pop(old, None)
        if uid:
            self._tx_uid_of[tid] = uid

    def _forget_tx_id(self, e: int) -> None:
        """Before a commit (inside a counted call, ``e`` its pointer): the innermost
        transaction's completion can no longer be replaced (it stays in _tx_callbacks
        until it runs)."""
        if self._tx_uid_of:
            out = ctypes.c_int64()
            if lib.cad_transaction_id(e, byref(out)) == 0:
                self._tx_uid_of.pop(out.value, None)

    # ---- time ----------------------------------------------------------------------

    def tick(self, now: Optional[RealLike] = None) -> None:
        """Advances the engine to ``now`` (default: :func:`media_time`), updates every
        animation and delivers the events (callbacks run before this returns)."""
        if now is None:
            now = _media_time()
        elif type(now) is not float:
            now = checked_float(now, "now")
        # _enter() and _exit(), inlined (hot path)
        try:
            rec = self._local.calls
        except AttributeError:
            rec = self._calls()
        lock = self._lock
        lock.acquire()
        try:
            closing = self._closing
            if not closing:
                rec.n += 1
                rec.ticks += 1
                self._ticks_started += 1
                seq = self._ticks_started
        finally:
            lock.release()
        if closing:
            raise ClosedError("the engine is closed")
        try:
            st = lib.cad_engine_tick(self._ptr, now)
        finally:
            rec.n -= 1
            rec.ticks -= 1
            if self._closing:
                self._wake()
        if st:
            raise_status(st)
        # C ran this tick: the stop events pending when it started were delivered, and
        # their callbacks have run. (Unlocked: a racing write can only lower the
        # number, which delays _settle_actions, never hastens it.)
        if seq > self._ticks_done:
            self._ticks_done = seq
        if self._cb_linger and not rec.ticks:
            self._settle_actions()
        if self._pending:
            self._reraise()

    @property
    def now(self) -> float:
        """The ``now`` of the last tick (0 before the first)."""
        out = c_double()
        self._check(lib.cad_engine_now, byref(out))
        return out.value

    @staticmethod
    def media_time() -> float:
        """Monotonic seconds, like ``CACurrentMediaTime()``."""
        return media_time()

    def convert_time(self, t: RealLike, from_: Optional[Layer] = None, to: Optional[Layer] = None) -> float:
        """Converts ``t`` from ``from_``'s local time to ``to``'s (None = global time)."""
        t = checked_float(t, "t")
        out = c_double()
        self._check(lib.cad_layer_convert_time, t, _handle_of(from_), _handle_of(to), byref(out))
        return out.value

    def convert_point(self, point: Vector, from_: Optional[Layer] = None, to: Optional[Layer] = None,
                      presentation: BoolLike = False) -> Point:
        """Converts ``point`` from ``from_``'s bounds space to ``to``'s (None = world
        space, where the render list's world matrices map to); see
        :meth:`Layer.convert_point`."""
        return _convert_point(self, point, _handle_of(from_), _handle_of(to), presentation)

    # ---- layers --------------------------------------------------------------------

    def create_layer(self, **props: Any) -> Layer:
        """Creates a root layer and sets ``props`` (property names, camel or snake
        case, e.g. ``bounds=(0, 0, 100, 100), anchor_point=(0, 0)``). A new layer takes
        its values without animation until the next tick."""
        return Layer(self, None, **props)

    def layer(self, handle: IntLike) -> Layer:
        """Wraps an existing layer handle (an integer in [0, 2**64); a bool is a TypeError)."""
        return Layer(self, handle)

    @property
    def layer_count(self) -> int:
        """Number of live layers."""
        out = c_int32()
        self._check(lib.cad_engine_layer_count, byref(out))
        return out.value

    # ---- events ----------------------------------------------------------------------

    def poll_events(self) -> Iterator[Event]:
        """Yields the queued events, oldest first, until the queue is empty.

        Their ``key`` is cut to 63 bytes (the queue's ``char[64]``, see :class:`Event`);
        callbacks get the whole key."""
        ev = cad_event()
        ref = byref(ev)
        while True:
            st = self._call(lib.cad_engine_poll_event, ref)  # one counted call per event, none across a yield
            if st == ERR_NOT_FOUND:
                return
            if st:
                raise_status(st)
            yield Event(_event_kind(ev.kind), bool(ev.finished), Layer(self, ev.layer) if ev.layer else None,
                        ev.tag, ev.time, ev.key.decode("utf-8", "replace"))

    def set_event_capacity(self, capacity: IntLike) -> None:
        """Capacity of the poll queue (default 4096, 0 = keep none); the oldest events are dropped when full.
        An int32 (a bool is a TypeError). Also returns the memory the event lists grew to in earlier bursts
        (setting the current capacity again after a large setup releases that peak)."""
        # An int32_t in C: checked here, as ctypes would wrap 2**32 to 0.
        self._check(lib.cad_engine_set_event_capacity, checked_int(capacity, "capacity"))

    def reserve(self, layers: IntLike, animations: IntLike) -> None:
        """Sizes the engine's storage for ``layers`` layers and ``animations`` attached animations in all
        (totals; each an int in 0...1048576), so that building a scene up to that size does not regrow and
        copy the engine's arrays. Optional: storage grows as needed without it; never shrinks."""
        self._check(lib.cad_engine_reserve, checked_int(layers, "layers"), checked_int(animations, "animations"))

    @property
    def events_dropped(self) -> int:
        """Events dropped because the poll queue was full, since creation."""
        out = c_uint64()
        self._check(lib.cad_engine_events_dropped, byref(out))
        return out.value

    # ---- transactions ------------------------------------------------------------------

    def begin_transaction(self) -> None:
        """``cad_transaction_begin``; prefer ``with engine.transaction():``."""
        self._check(lib.cad_transaction_begin)

    def commit_transaction(self) -> None:
        """Commits the innermost transaction (``InvalidStateError`` without a begin).
        Completion callbacks may run, and their exceptions are re-raised, here."""
        p = self._enter()
        try:
            self._forget_tx_id(p)
            st = lib.cad_transaction_commit(p)
        finally:
            self._exit()
        if st:
            raise_status(st)
        if self._pending:
            self._reraise()

    @property
    def transaction_id(self) -> int:
        """The id of the innermost open transaction, 0 when none is open."""
        out = ctypes.c_int64()
        self._check(lib.cad_transaction_id, byref(out))
        return out.value

    @contextmanager
    def _block(self, setup: Callable[[], None]) -> Iterator[Transaction]:
        self._check(lib.cad_transaction_begin)
        try:
            setup()
            tid = self.transaction_id
        except BaseException:
            self._commit_quietly()
            raise
        tx = Transaction(self, tid)
        try:
            yield tx
        except BaseException:
            # Keep the transaction stack balanced, then let the body's exception through.
            tx._open = False
            self._commit_quietly()
            raise
        tx._open = False
        self.commit_transaction()

    def _commit_quietly(self) -> None:
        p = self._try_enter()
        if p is None:
            return
        try:
            self._forget_tx_id(p)
            lib.cad_transaction_commit(p)
        finally:
            self._exit()
        del self._pending[:]

    def transaction(self, duration: Optional[RealLike] = None,
                    timing_function: Optional[BezierTimingFunction] = None, disable_actions: Optional[BoolLike] = None,
                    completion: Optional[Callable[[], Any]] = None) -> ContextManager[Transaction]:
        """An explicit transaction (``CATransaction.begin()`` ... ``commit()``) as a context manager.

        ``duration``: of the implicit animations (default 0.25 s); ``timing_function``:
        a name or 4 Bézier values; ``disable_actions``: changes take effect at once;
        ``completion``: called (no arguments) once every animation the transaction
        added has stopped, or at the commit if none was added. The block commits
        on exit, also when it raises.

        Every argument is checked as the library checks it (``duration`` finite and
        >= 0, a timing function name or Bézier control points it accepts...) before
        the transaction opens: a refused argument raises from this call (or the
        ``with``) without opening, and so without committing, a transaction.
        """
        # Every argument is checked, as the library checks it, before the transaction
        # opens: a refused block opens (and commits) nothing.
        d = None if duration is None else checked_non_negative(duration, "duration")
        timing = None if timing_function is None else _tx_timing_call(timing_function)
        disable = None if disable_actions is None else (1 if checked_bool(disable_actions, "disable_actions") else 0)
        if completion is not None and not callable(completion):
            raise TypeError("completion must be callable")

        def setup() -> None:
            if d is not None:
                self._check(lib.cad_transaction_set_duration, d)
            if timing is not None:
                self._check(timing[0], *timing[1])
            if disable is not None:
                self._check(lib.cad_transaction_set_disable_actions, disable)
            if completion is not None:
                self._set_completion(completion)

        return self._block(setup)

    def animate(self, duration: RealLike = 0.25, delay: RealLike = 0.0,
                curve: Optional[BezierTimingFunction] = "easeInOut", autoreverse: BoolLike = False,
                repeat: RealLike = 0, spring_damping: Optional[RealLike] = None, initial_velocity: RealLike = 0.0,
                completion: Optional[Callable[[], Any]] = None) -> ContextManager[Transaction]:
        """A UIKit-style animation block (``UIView.animate``) as a context manager.

        Changes inside the block animate over ``duration`` after ``delay`` with
        ``curve`` ("easeInOut", "linear", "easeIn", "easeOut", "default" or 4 Bézier
        values); ``autoreverse`` plays forward then back; ``repeat`` is a repeat
        count (True = forever); ``spring_damping`` (a damping ratio in (0, 1]) with
        ``initial_velocity`` makes them springs that settle at ``duration``;
        ``completion`` runs once they have all stopped. ``curve=None`` keeps the
        transaction's default (Core Animation's ``default`` curve).

        Every argument is checked as the library checks it (``duration`` and
        ``delay`` finite and >= 0, ``repeat`` >= 0 or infinite, ``spring_damping`` in
        (0, 1], ``initial_velocity`` finite, the curve...) before the transaction
        opens: a refused argument opens, and so commits, no transaction.

        Example::

            with engine.animate(duration=1, delay=2, curve="easeInOut", autoreverse=True, repeat=3):
                layer.position = (80, 100)
        """
        # Every argument is checked, as the library checks it, before the transaction
        # opens: a refused block opens (and commits) nothing.
        d = checked_non_negative(duration, "duration")
        dl = checked_non_negative(delay, "delay")
        rep = checked_repeat(repeat, "repeat")
        rev = checked_bool(autoreverse, "autoreverse")
        damping = None if spring_damping is None else _checked_damping_ratio(spring_damping)
        v0 = checked_finite(initial_velocity, "initial_velocity")
        if damping is None and v0:
            raise ValueError("initial_velocity applies to springs: give spring_damping too")
        timing = None if curve is None else _tx_timing_call(curve)
        if completion is not None and not callable(completion):
            raise TypeError("completion must be callable")

        def setup() -> None:
            self._check(lib.cad_transaction_set_duration, d)
            if timing is not None:
                self._check(timing[0], *timing[1])
            if dl:
                self._check(lib.cad_transaction_set_delay, dl)
            if rep:
                self._check(lib.cad_transaction_set_repeat_count, rep)
            if rev:
                self._check(lib.cad_transaction_set_autoreverses, 1)
            if damping is not None:
                self._check(lib.cad_transaction_set_spring, damping, v0)
            if completion is not None:
                self._set_completion(completion)

        return self._block(setup)

    @contextmanager
    def keyframe(self, rel_start: RealLike, rel_duration: RealLike) -> Iterator[None]:
        """A keyframe window inside an ``animate()``/``transaction()`` block (UIKit's
        ``addKeyframe(withRelativeStartTime:relativeDuration:)``): changes in it animate
        over ``[rel_start, rel_start + rel_duration]`` of the block's duration."""
        s = checked_float(rel_start, "rel_start")
        d = checked_float(rel_duration, "rel_duration")
        self._check(lib.cad_transaction_begin_keyframe, s, d)
        try:
            yield
        except BaseException:
            self._commit_quietly()
            raise
        self.commit_transaction()

    # ---- frame output --------------------------------------------------------------------

    def render_list(self, root: Layer, copy: bool = False) -> Any:
        """The render list of ``root``'s subtree (SEMANTICS.md §2.2, API.md).

        With numpy: a structured array of dtype :data:`RENDER_ITEM_DTYPE`, a view of
        a buffer kept per engine and root and rewritten by the next call for the same
        root, from any thread. The library writes straight into it (one C call; the
        buffer grows when the scene does). A view stops being rewritten once its
        buffer is replaced: when a call needs more room (a new, larger buffer), when
        32 other roots' buffers were made since (the engine keeps 32), or when the
        engine closes. To keep one, pass ``copy=True`` (or call ``.copy()`` before the
        next call for that root, on any thread).

        ``copy=True`` renders into an array of its own, never into the shared buffer:
        it is the way for threads that render the same root without synchronising
        (a ``.copy()`` of a view can race with another thread's call rewriting it).
        Without numpy: a list of ``cad_render_item`` ctypes structures (always
        the caller's own).
        """
        h = _handle_of(root)
        if copy and _np is not None:
            return self._render_private(h)
        n = c_int32()
        e = self._enter()
        try:
            if _np is None:
                cap = self._render_cap
                while True:
                    arr = (cad_render_item * cap)()
                    st = lib.cad_engine_render_list(e, h, arr, cap, byref(n))
                    if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                        cap = self._render_cap = max(n.value, 2 * cap)
                        continue
                    break
            else:
                entry = self._render_cache.get(h)
                if entry is None:
                    entry = self._grow_render(h, self._render_cap)
                buf, ptr = entry
                while True:
                    st = lib.cad_engine_render_list(e, h, ptr, len(buf), byref(n))
                    if st == ERR_BUFFER_TOO_SMALL and n.value > len(buf):
                        buf, ptr = self._grow_render(h, max(n.value, 2 * len(buf)))
                        continue
                    break
        finally:
            self._exit()
        if st:
            raise_status(st)
        if _np is None:
            return list(arr[:n.value])
        return buf[:n.value]

    def _render_private(self, h: int) -> Any:
        """``render_list(copy=True)``: the render list in a new array (no other call
        writes into it), sized like the root's shared buffer to need one C call."""
        entry = self._render_cache.get(h)
        cap = self._render_cap if entry is None else len(entry[0])
        n = c_int32()
        e = self._enter()
        try:
            while True:
                buf = _np.empty(cap, dtype=RENDER_ITEM_DTYPE)
                st = lib.cad_engine_render_list(e, h, ctypes.cast(buf.ctypes.data, _POINTER_RENDER_ITEM), cap, byref(n))
                if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                    cap = n.value
                    continue
                break
        finally:
            self._exit()
        if st:
            raise_status(st)
        if n.value < cap:
            buf.resize(n.value, refcheck=False)  # this array's alone: shrunk in place, not copied
        return buf

    def _grow_render(self, h: int, cap: int) -> Tuple[Any, Any]:
        buf = _np.zeros(cap, dtype=RENDER_ITEM_DTYPE)
        ptr = ctypes.cast(buf.ctypes.data, _POINTER_RENDER_ITEM)
        cache = self._render_cache
        cache.pop(h, None)
        while len(cache) >= _RENDER_CACHE_ROOTS:  # forget the least recently grown root's buffer
            del cache[next(iter(cache))]
        cache[h] = (buf, ptr)
        return buf, ptr

    def sample(self, layers: Union[Sequence[Layer], Sequence[int], Any], keypath: str) -> Any:
        """Presentation values of ``keypath`` for many layers in one C call.

        ``layers``: Layer objects, handles, or a numpy array of handles (no per-item
        Python work then) of an integer dtype: uint64, or a signed one without
        negative values, in any memory layout (a strided or unaligned array, e.g.
        from ``np.frombuffer`` at an odd offset, is copied to the aligned contiguous
        uint64 buffer C reads). With numpy: a float64 array of shape (n, k), k the
        key path's component count (also for n = 0); without: a list of n tuples.

        n and n * k are C ``int32_t`` counts: more than 2**31 - 1 is an
        :class:`~cadence.InvalidArgumentError`. Sampling changes nothing in the engine
        (no layer is created, also for n = 0).
        """
        bkp = encode(keypath, "key path")
        harr, hptr, count = _layer_handles(layers)  # (harr: kept alive until C has read it)
        # The key path's component count, known without asking the engine (the
        # library's key-path table, see layer.KEY_PATH_COMPONENTS); a key path the
        # table lacks (a newer library) is learnt from C's BUFFER_TOO_SMALL reply.
        known = KEY_PATH_COMPONENTS.get(bkp)  # type: ignore[arg-type]
        k = known if known is not None else self._sample_components.get(bkp, 1)  # type: ignore[arg-type]
        if count * k > INT32_MAX:
            raise InvalidArgumentError(-2, message=f"the result would be {count * k} doubles (n_layers x components), "
                                                   "more than an int32 count")
        n = c_int32()
        e = self._enter()
        try:
            while True:
                cap = count * k
                if _np is not None:
                    out = _np.empty(max(cap, 1), dtype=_np.float64)
                    optr: Any = ctypes.cast(out.ctypes.data, _POINTER_DOUBLE)
                else:
                    out = (c_double * max(cap, 1))()
                    optr = out
                st = lib.cad_engine_sample(e, hptr, count, bkp, optr, cap, byref(n))
                if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                    k = max(1, -(-n.value // max(count, 1)))
                    continue
                break
        finally:
            self._exit()
        if st:
            raise_status(st)  # (an unknown key path: also with no layers, C checks it)
        total = n.value
        if count:
            k = total // count
            if known is None:
                self._sample_components[bkp] = k  # type: ignore[index]
        elif known is None and bkp not in self._sample_components:
            raise InvalidStateError(-7, message=f"key path {keypath!r} is valid, but its component count is unknown "
                                                "to this binding until a sample of at least one layer")
        if _np is not None:
            res = out[:total].reshape(count, k)
            return res.copy() if out.shape[0] > total else res
        return [tuple(out[i * k:(i + 1) * k]) for i in range(count)]


    def set(self, layers: Union[Sequence[Layer], Sequence[int], Any], keypath: str, values: Rows) -> None:
        """Sets the model value of ``keypath`` on many layers in one C call, row by row
        (the write counterpart of :meth:`sample`; ``cad_engine_set``).

        The same as ``layer.set(keypath, row)`` for each layer in order: each set runs
        the key's action unless actions are disabled (an implicit animation; inside a
        transaction block, with the block's duration and timing function), and a layer
        listed twice takes its last row. Unlike such a loop it is all or nothing:
        every handle, the count and every value are checked before anything changes,
        and a refused one raises with nothing set (the library's message names its
        index, e.g. ``layers[2]``). Only a custom transition action that finds no
        room for its animation (:class:`~cadence.OutOfMemoryError`) fails part-way;
        the layers before it keep their new values.

        ``layers``: as for :meth:`sample`: Layer objects, handles, or a numpy array
        of handles of an integer dtype (no per-item Python work then; a float array is
        a TypeError, a negative handle an :class:`~cadence.InvalidArgumentError`).

        ``values``: one row of k numbers per layer, in the layers' order, k the key
        path's component count. With numpy, an array (or anything numpy converts to
        one of a bool, integer or float dtype) of shape (n, k), (n, ...) with k numbers
        per row (``(n, 4, 4)`` transforms), or flat (n * k,), which for k = 1 is (n,);
        a C-contiguous aligned float64 array goes to C as it is, others are copied
        once. Without numpy (and for sequences numpy cannot convert): a sequence of n
        rows, each a number (k = 1) or a sequence of k numbers (a transform may be 4
        rows of 4), or a flat sequence of n * k numbers. The numbers are those
        :meth:`Layer.set` takes: ints, floats, bools (1.0 and 0.0), numpy scalars,
        Fractions; strings, None, sets and dicts are a TypeError. Any other shape (a
        transposed (k, n) array too) is a :class:`~cadence.TypeMismatchError`, as
        C's count check; a single value is not repeated for every layer.

        For ``repeatCount`` and ``repeatDuration`` a bool (Python's or numpy's, in a
        bool array too) means forever (True) or 0, as everywhere in the binding.
        ``contents`` goes through doubles, as in C: ids are whole numbers (a bool is a
        TypeError), and an integer id a double cannot hold exactly (above 2**53) is an
        :class:`~cadence.InvalidArgumentError`: set those with :attr:`Layer.contents`.

        Errors, with nothing set: a stale handle :class:`~cadence.InvalidHandleError`;
        an unknown key path :class:`~cadence.UnknownKeyPathError` (also for n = 0);
        NaN or an infinity (outside the repeat fields), a timing field's rule (a
        negative ``duration``...) or a fill mode that is none
        :class:`~cadence.InvalidArgumentError`. n and n * k are C ``int32_t`` counts:
        more than 2**31 - 1 is an :class:`~cadence.InvalidArgumentError`.
        """
        bkp = encode(keypath, "key path")
        harr, hptr, count = _layer_handles(layers)  # (harr, vbuf: kept alive until C has read them)
        kp = bkp if bkp is not None else b""
        # The key path's component count (see sample); None for one the binding does
        # not know: the values are passed as given, and C checks the key path and count.
        k = KEY_PATH_COMPONENTS.get(kp)
        if k is None:
            k = self._sample_components.get(kp)
        vbuf, vptr, n_values = _batch_values(values, count, k, kp, keypath)
        e = self._enter()
        try:
            st = lib.cad_engine_set(e, hptr, count, bkp, vptr, n_values)
        finally:
            self._exit()
        if st:
            raise_status(st)
