"""Layers: model values by key path, presentation values, the tree and animations.

Every property of SEMANTICS.md §2 (and the layer timing fields of §3) is an
attribute under its Core Animation key-path name (``layer.anchorPoint``) and a
snake_case alias (``layer.anchor_point``); both are generated from
:data:`PROPERTIES`. Values come back typed (:class:`~cadence.types.Point`,
:class:`~cadence.types.Rect`, ``bool``, :class:`~cadence.FillMode`...), and any
key path, including sub-keys, works with item access: ``layer["position.x"]``.
"""
from __future__ import annotations

import numbers
import operator
import re
from ctypes import c_char as ctypes_char
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from ._core import (ERR_BUFFER_TOO_SMALL, ERR_NOT_FOUND, HANDLE_RANGE, Value, byref, c_double, c_int32, c_uint64,
                    check, checked_bool, checked_int, encode, pack, raise_status, unpack)
from ._lib import lib
from .errors import InvalidArgumentError
from .animation import Animation
from .enums import FillMode
from .types import Color, Point, Rect, Size, Transform3D

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Engine

__all__ = ["Layer", "PresentationLayer", "PROPERTIES", "snake_case"]

#: (key path, kind) of every layer property, SEMANTICS.md §2 and §3.
PROPERTIES: Tuple[Tuple[str, str], ...] = (
    ("position", "point"),
    ("zPosition", "scalar"),
    ("anchorPoint", "point"),
    ("anchorPointZ", "scalar"),
    ("bounds", "rect"),
    ("frame", "rect"),
    ("transform", "transform"),
    ("sublayerTransform", "transform"),
    ("opacity", "scalar"),
    ("hidden", "bool"),
    ("backgroundColor", "color"),
    ("borderColor", "color"),
    ("borderWidth", "scalar"),
    ("cornerRadius", "scalar"),
    ("shadowColor", "color"),
    ("shadowOpacity", "scalar"),
    ("shadowOffset", "size"),
    ("shadowRadius", "scalar"),
    ("contentsRect", "rect"),
    ("masksToBounds", "bool"),
    ("doubleSided", "bool"),
    # layer timing (CAMediaTiming), never animated
    ("beginTime", "scalar"),
    ("speed", "scalar"),
    ("timeOffset", "scalar"),
    ("duration", "scalar"),
    ("repeatCount", "scalar"),
    ("repeatDuration", "scalar"),
    ("autoreverses", "bool"),
    ("fillMode", "fill"),
)

_CAP = 16  # the largest value (a transform) has 16 components
_BUF = c_double * _CAP


def snake_case(name: str) -> str:
    """``anchorPointZ`` -> ``anchor_point_z``."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _conv_out(kind: str) -> Callable[[Any, int], Any]:
    if kind == "scalar":
        return lambda b, n: b[0]
    if kind == "bool":
        return lambda b, n: b[0] != 0.0
    if kind == "fill":
        return lambda b, n: FillMode(int(b[0]))
    cls = {"point": Point, "size": Size, "rect": Rect, "color": Color, "transform": Transform3D}[kind]
    return lambda b, n: cls._make(b[:n])


def _conv_in(kind: str, keypath: str = "value") -> Callable[[Any], Value]:
    if kind == "bool":
        # Numbers as in C (non-zero finite = true); NaN/inf and non-numbers such as
        # "no" are refused instead of going through Python truthiness.
        return lambda v: 1.0 if checked_bool(v, keypath) else 0.0
    if kind == "fill":
        from .enums import parse_enum
        return lambda v: float(parse_enum(FillMode, v, "fill mode"))
    return lambda v: v


#: attribute name (camel and snake) -> (key path bytes, reader)
_ATTRS: Dict[str, Tuple[bytes, Callable[[Any, int], Any]]] = {}


class Layer:
    """A layer of an engine: a handle plus its engine.

    Layers are owned by their engine (they live until :meth:`destroy` or the
    engine closes); this object is only a reference, and two ``Layer`` objects
    with the same handle are equal. ``Layer(engine, **props)`` creates a new
    root layer (as :meth:`Engine.create_layer` does); ``Layer(engine, handle)``
    wraps an existing handle.
    """

    __slots__ = ("_engine", "_handle")

    #: The property names (key-path spelling); each also has a snake_case alias.
    PROPERTIES: Tuple[str, ...] = tuple(k for k, _ in PROPERTIES)

    def __init__(self, engine: "Engine", handle: Optional[int] = None, **props: Any) -> None:
        self._engine = engine
        if handle is None:
            out = c_uint64()
            check(lib.cad_layer_create(engine._p(), byref(out)))
            self._handle = out.value
            if props:
                try:
                    self.configure(**props)
                except BaseException:
                    # No orphan: a layer whose properties could not be set is destroyed.
                    if engine._ptr is not None:
                        lib.cad_layer_destroy(engine._ptr, self._handle)
                    raise
        else:
            if props:
                raise TypeError("properties can only be given when creating a layer")
            self._handle = _layer_handle(handle)

    def configure(self, **props: Any) -> "Layer":
        """Sets several properties (attribute names, camel or snake case, plus ``contents``)."""
        for name, value in props.items():
            if name not in _ATTRS and name != "contents":
                raise TypeError(f"unknown layer property {name!r}")
            setattr(self, name, value)
        return self

    # ---- identity --------------------------------------------------------------

    @property
    def engine(self) -> "Engine":
        """The engine the layer belongs to."""
        return self._engine

    @property
    def handle(self) -> int:
        """The ``cad_layer`` handle."""
        return self._handle

    def __int__(self) -> int:
        return self._handle

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layer):
            return other._handle == self._handle and other._engine is self._engine
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._handle)

    def __repr__(self) -> str:
        return f"<cadence.Layer handle={self._handle:#x}>"

    @property
    def alive(self) -> bool:
        """False once the layer was destroyed (or the engine closed)."""
        if self._engine._ptr is None:
            return False
        out = c_uint64()
        return lib.cad_layer_superlayer(self._engine._ptr, self._handle, byref(out)) == 0

    def destroy(self) -> None:
        """Destroys the layer: detaches it, makes its sublayers roots, stops its
        animations (stop events with finished = False at the next tick)."""
        check(lib.cad_layer_destroy(self._engine._p(), self._handle))

    # ---- key-path values ---------------------------------------------------------

    def _read(self, fn: Any, keypath: bytes) -> Tuple[Any, int]:
        p = self._engine._ptr
        if p is None:
            self._engine._p()  # raises ClosedError
        buf = _BUF()
        n = c_int32()
        st = fn(p, self._handle, keypath, buf, _CAP, byref(n))
        if st:
            raise_status(st)
        return buf, n.value

    def _write(self, keypath: bytes, value: Value) -> None:
        buf, n = pack(value)
        st = lib.cad_layer_set(self._engine._p(), self._handle, keypath, buf, n)
        if st:
            raise_status(st)

    def get(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        """The model value of ``keypath``: a float for one component, a tuple otherwise
        (``"contents"`` reads as a float, exact up to 2**53: use :attr:`contents` for 64-bit ids)."""
        return unpack(*self._read(lib.cad_layer_get, encode(keypath)))  # type: ignore[arg-type]

    def set(self, keypath: str, value: Value) -> None:
        """Sets the model value of ``keypath`` (runs its action unless actions are disabled).

        ``"contents"`` goes through the exact 64-bit setter (as ``layer.contents = v``),
        not through a double; reading ``layer["contents"]`` returns a float, exact up
        to 2**53 (use :attr:`contents` for full 64-bit ids)."""
        bkp = encode(keypath)
        if bkp == b"contents":
            self.contents = value  # type: ignore[assignment]
            return
        self._write(bkp, value)  # type: ignore[arg-type]

    def presentation(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        """The presentation value of ``keypath`` at the engine's now."""
        return unpack(*self._read(lib.cad_layer_presentation, encode(keypath)))  # type: ignore[arg-type]

    __getitem__ = get
    __setitem__ = set

    @property
    def presentation_layer(self) -> "PresentationLayer":
        """A read-only proxy whose attributes read presentation values (``layer.presentation_layer.position``)."""
        return PresentationLayer(self)

    @property
    def contents(self) -> int:
        """The model contents id (a host-chosen 64-bit integer, 0 = none). Setting it
        runs a fade transition unless actions are disabled."""
        out = c_uint64()
        check(lib.cad_layer_get_contents(self._engine._p(), self._handle, byref(out)))
        return out.value

    @contents.setter
    def contents(self, value: int) -> None:
        # An integer in [0, 2**64) (ctypes would wrap -1 or 2**64 and truncate 1.5
        # silently); the same errors as ``layer["contents"] = value``.
        try:
            v = operator.index(value)
        except TypeError:
            if not isinstance(value, numbers.Real):
                raise TypeError(f"contents must be an integer id, not {type(value).__name__}") from None
            raise InvalidArgumentError(-2, message=f"contents must be an integer id, got {value!r}") from None
        if not 0 <= v < 2 ** 64:
            raise InvalidArgumentError(-2, message=f"contents must lie in [0, 2**64), got {v}")
        check(lib.cad_layer_set_contents(self._engine._p(), self._handle, v))

    # ---- tree ------------------------------------------------------------------------

    def add_sublayer(self, child: "Layer") -> None:
        """Appends ``child`` (removing it from its old superlayer). Adding an ancestor is
        an :class:`~cadence.InvalidArgumentError`."""
        check(lib.cad_layer_add_sublayer(self._engine._p(), self._handle, _handle_of(child)))

    def insert_sublayer(self, child: "Layer", index: int) -> None:
        """Inserts ``child`` at ``index`` (0 ... count, counted without the child)."""
        # index is an int32_t in C: checked here, as ctypes would wrap 2**32 to 0.
        check(lib.cad_layer_insert_sublayer(self._engine._p(), self._handle, _handle_of(child),
                                            checked_int(index, "index")))

    def remove_from_superlayer(self) -> None:
        """Detaches the layer from its superlayer (no-op for a root)."""
        check(lib.cad_layer_remove_from_superlayer(self._engine._p(), self._handle))

    @property
    def superlayer(self) -> Optional["Layer"]:
        """The superlayer, None for a root."""
        out = c_uint64()
        check(lib.cad_layer_superlayer(self._engine._p(), self._handle, byref(out)))
        return Layer(self._engine, out.value) if out.value else None

    @property
    def sublayers(self) -> List["Layer"]:
        """The sublayers in order (a new list)."""
        e = self._engine._p()
        cap = 16
        n = c_int32()
        while True:
            buf = (c_uint64 * cap)()
            st = lib.cad_layer_sublayers(e, self._handle, buf, cap, byref(n))
            if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                cap = n.value
                continue
            if st:
                raise_status(st)
            return [Layer(self._engine, h) for h in buf[:n.value]]

    def __iter__(self) -> Iterator["Layer"]:
        return iter(self.sublayers)

    # ---- animations ------------------------------------------------------------------

    def add_animation(self, animation: Animation, key: Optional[str] = None) -> None:
        """Attaches a copy of ``animation`` under ``key`` (None = a generated key;
        transitions always use "transition"). An animation under the same key is
        replaced (its stop event reports finished = False)."""
        if not isinstance(animation, Animation):
            raise TypeError(f"expected an Animation, not {type(animation).__name__}")
        if animation._engine is not self._engine:
            raise ValueError("the animation belongs to another engine")
        animation._p()  # a closed animation (handle 0) raises ClosedError
        check(lib.cad_layer_add_animation(self._engine._p(), self._handle, animation._handle, encode(key)))
        # The attached copy carries the description's callback: keep it registered
        # until that copy's stop event (SEMANTICS.md §11: exactly one per copy).
        self._engine._callback_copied(animation._cb_uid)

    def remove_animation(self, key: str) -> None:
        """Removes the animation under ``key`` (:class:`~cadence.NotFoundError` if none)."""
        check(lib.cad_layer_remove_animation(self._engine._p(), self._handle, encode(key)))

    def remove_all_animations(self) -> None:
        """Removes every animation of the layer."""
        check(lib.cad_layer_remove_all_animations(self._engine._p(), self._handle))

    @property
    def animation_count(self) -> int:
        """Number of attached animations."""
        out = c_int32()
        check(lib.cad_layer_animation_count(self._engine._p(), self._handle, byref(out)))
        return out.value

    def animation_keys(self) -> List[str]:
        """The keys of the attached animations, in add order."""
        e = self._engine._p()
        count = c_int32()
        check(lib.cad_layer_animation_count(e, self._handle, byref(count)))
        keys: List[str] = []
        cap = 64
        buf = (ctypes_char * cap)()
        n = c_int32()
        i = 0
        while i < count.value:
            st = lib.cad_layer_animation_key_at(e, self._handle, i, buf, cap, byref(n))
            if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                cap = n.value
                buf = (ctypes_char * cap)()
                continue
            if st:
                raise_status(st)
            keys.append(buf.raw[:n.value].decode("utf-8", "replace"))
            i += 1
        return keys

    def animation_for_key(self, key: str) -> Optional[Animation]:
        """A read-only view of the attached copy under ``key``, or None."""
        out = c_uint64()
        st = lib.cad_layer_animation_for_key(self._engine._p(), self._handle, encode(key), byref(out))
        if st == ERR_NOT_FOUND:
            return None
        if st:
            raise_status(st)
        return Animation._view(self._engine, out.value, key)

    # ---- actions ---------------------------------------------------------------------

    def set_action(self, key: str, animation: Optional[Animation]) -> None:
        """Sets the action for ``key``: a copy of ``animation`` runs on each change,
        or with None the "no action" marker (changes take effect at once)."""
        if animation is not None and animation._engine is not self._engine:
            raise ValueError("the animation belongs to another engine")
        # A closed animation has handle 0, which C reads as the "no action" marker:
        # refuse it (ClosedError) rather than silently disabling the action.
        h = 0
        if animation is not None:
            animation._p()
            h = animation._handle
        check(lib.cad_layer_set_action(self._engine._p(), self._handle, encode(key), h))
        if animation is not None:
            # Every change of ``key`` makes a new copy with the action's callback, and
            # those copies cannot be counted from here: keep that callback for the
            # engine's life.
            self._engine._callback_pinned(animation._cb_uid)

    def clear_action(self, key: str) -> None:
        """Returns ``key`` to its default action."""
        check(lib.cad_layer_clear_action(self._engine._p(), self._handle, encode(key)))

    def _no_getter(self) -> bool:
        raise AttributeError("actions_enabled is write-only (the C API has no getter)")

    def _set_actions_enabled(self, enabled: bool) -> None:
        check(lib.cad_layer_set_actions_enabled(self._engine._p(), self._handle, 1 if enabled else 0))

    actions_enabled = property(_no_getter, _set_actions_enabled,
                               doc="Write-only: False disables implicit actions for this layer.")

    # ---- time --------------------------------------------------------------------------

    def convert_time(self, t: float, to: Optional["Layer"] = None) -> float:
        """Converts ``t`` from this layer's local time to ``to``'s (None = global time)."""
        out = c_double()
        check(lib.cad_layer_convert_time(self._engine._p(), t, self._handle, _handle_of(to), byref(out)))
        return out.value

    def convert_time_from(self, t: float, from_: Optional["Layer"] = None) -> float:
        """Converts ``t`` from ``from_``'s local time (None = global) to this layer's."""
        out = c_double()
        check(lib.cad_layer_convert_time(self._engine._p(), t, _handle_of(from_), self._handle, byref(out)))
        return out.value

    def pause(self) -> None:
        """The pause idiom of SEMANTICS.md §3.5: freezes the layer and its subtree."""
        t = self.convert_time_from(self._engine.now)
        self.speed = 0.0  # type: ignore[attr-defined]
        self.timeOffset = t  # type: ignore[attr-defined]

    def resume(self) -> None:
        """The resume idiom of SEMANTICS.md §3.5: continues where :meth:`pause` stopped."""
        p = self.timeOffset  # type: ignore[attr-defined]
        self.speed = 1.0  # type: ignore[attr-defined]
        self.timeOffset = 0.0  # type: ignore[attr-defined]
        self.beginTime = 0.0  # type: ignore[attr-defined]
        self.beginTime = self.convert_time_from(self._engine.now) - p  # type: ignore[attr-defined]



def _layer_handle(layer: Union[Layer, int]) -> int:
    """The handle of a Layer, or an integer handle checked to lie in [0, 2**64)
    (ctypes would wrap 2**64 + h to h or -1 to 2**64 - 1 silently)."""
    if isinstance(layer, Layer):
        return layer._handle
    return checked_int(layer, "a layer handle", HANDLE_RANGE)


def _handle_of(layer: Optional[Union[Layer, int]]) -> int:
    """Like :func:`_layer_handle`, with None as 0 (no layer: global time, no root...)."""
    if layer is None:
        return 0
    return _layer_handle(layer)


def _make_property(keypath: str, kind: str) -> property:
    bkp = keypath.encode()
    out = _conv_out(kind)
    into = _conv_in(kind, keypath)
    get_fn = lib.cad_layer_get

    def fget(self: Layer) -> Any:
        return out(*self._read(get_fn, bkp))

    def fset(self: Layer, value: Any) -> None:
        self._write(bkp, into(value))

    return property(fget, fset, doc=f"Model value of ``{keypath}`` ({kind}).")


for _kp, _kind in PROPERTIES:
    _prop = _make_property(_kp, _kind)
    _ATTRS[_kp] = (_kp.encode(), _conv_out(_kind))
    setattr(Layer, _kp, _prop)
    _snake = snake_case(_kp)
    if _snake != _kp:
        _ATTRS[_snake] = _ATTRS[_kp]
        setattr(Layer, _snake, _prop)


class PresentationLayer:
    """Read-only view of a layer's presentation values (``CALayer.presentation()``).

    Attributes are the layer's property names (camel or snake case); item access
    takes any key path; ``contents`` is the presented contents id.
    """

    __slots__ = ("_layer",)

    def __init__(self, layer: Layer) -> None:
        object.__setattr__(self, "_layer", layer)

    @property
    def model_layer(self) -> Layer:
        """The layer itself."""
        return self._layer

    def __getattr__(self, name: str) -> Any:
        spec = _ATTRS.get(name)
        if spec is None:
            raise AttributeError(f"presentation layer has no attribute {name!r}")
        bkp, out = spec
        return out(*self._layer._read(lib.cad_layer_presentation, bkp))

    @property
    def contents(self) -> int:
        """The presented contents id. The C API reads presentation values as doubles,
        so this is exact up to 2**53 only; ``layer.contents`` (the model value) is
        exact for full 64-bit ids."""
        buf, _ = self._layer._read(lib.cad_layer_presentation, b"contents")
        return int(buf[0])

    def __getitem__(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        return self._layer.presentation(keypath)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the presentation layer is read-only; set values on the layer")

    def __dir__(self) -> List[str]:
        return sorted(set(_ATTRS) | {"contents", "model_layer"})

    def __repr__(self) -> str:
        return f"<cadence.PresentationLayer of {self._layer!r}>"
