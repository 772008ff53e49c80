"""Layers: model values by key path, presentation values, the tree and animations.

Every property of SEMANTICS.md §2 (and the layer timing fields of §3) is an
attribute under its Core Animation key-path name (``layer.anchorPoint``) and a
snake_case alias (``layer.anchor_point``), declared in the class body with its
type (checked against :data:`PROPERTIES` at import). Values come back typed (:class:`~cadence.types.Point`,
:class:`~cadence.types.Rect`, ``bool``, :class:`~cadence.FillMode`...), and any
key path, including sub-keys, works with item access: ``layer["position.x"]``.
"""
from __future__ import annotations

import math
import numbers
import operator
import re
from ctypes import c_char as ctypes_char
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._core import (ERR_BUFFER_TOO_SMALL, ERR_NOT_FOUND, HANDLE_RANGE, NP_BOOL, BoolLike, IntLike, RealLike,
                    TypedProperty, Value, Vector, byref, c_double, c_int32, c_uint64, checked_bool, checked_finite,
                    checked_float, checked_int, checked_non_negative, checked_repeat, encode, flatten, pack,
                    raise_status, refuse_unordered, repeat_value, unpack)
from ._lib import lib
from .errors import ClosedError, InvalidArgumentError, TypeMismatchError
from .animation import Animation, AnimationView, _no_copy
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
    cls: Any = {"point": Point, "size": Size, "rect": Rect, "color": Color, "transform": Transform3D}[kind]
    return lambda b, n: cls._make(b[:n])


def _conv_in(kind: str, keypath: str = "value") -> Callable[[Any], Value]:
    if kind == "bool":
        # Numbers as in C (non-zero finite = true); NaN/inf and non-numbers such as
        # "no" are refused instead of going through Python truthiness.
        return lambda v: 1.0 if checked_bool(v, keypath) else 0.0
    if kind == "fill":
        from .enums import parse_enum
        return lambda v: float(parse_enum(FillMode, v, "fill mode"))
    if keypath in _REPEAT_KEYS:
        return repeat_value  # True: forever (as Animation.repeat_count), never 1
    return lambda v: v


#: The layer timing fields where a bool means what it means for Animation.repeat_count
#: (:func:`~cadence._core.repeat_value`): True is forever.
_REPEAT_KEYS = frozenset({"repeatCount", "repeatDuration"})
_REPEAT_BKEYS = frozenset(k.encode() for k in _REPEAT_KEYS)


def _contents_id(value: Any) -> int:
    """A contents id: an integer in [0, 2**64) (ctypes would wrap -1 or 2**64 and
    truncate 1.5 silently); the same errors as ``layer["contents"] = value``. A bool
    (Python's or numpy's) is a TypeError: ``contents=True`` is a mistake, not id 1."""
    t = type(value)
    if t is bool or t is NP_BOOL:
        raise TypeError("contents must be an integer id, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"contents must be an integer id, not {type(value).__name__}") from None
        raise InvalidArgumentError(-2, message=f"contents must be an integer id, got {value!r}") from None
    if not 0 <= v < 2 ** 64:
        raise InvalidArgumentError(-2, message=f"contents must lie in [0, 2**64), got {v}")
    return v


#: Components of each kind of property.
_COMPONENTS = {"scalar": 1, "bool": 1, "fill": 1, "point": 2, "size": 2, "rect": 4, "color": 4, "transform": 16}

#: Sub-keys of each kind of property, with their component counts (SEMANTICS.md §2,
#: §2.3: the library's key-path table).
_SUBKEYS: Dict[str, Tuple[Tuple[str, int], ...]] = {
    "point": (("x", 1), ("y", 1)),
    "size": (("width", 1), ("height", 1)),
    "rect": (("origin", 2), ("origin.x", 1), ("origin.y", 1), ("size", 2), ("size.width", 1), ("size.height", 1)),
    "color": (("r", 1), ("g", 1), ("b", 1), ("a", 1)),
    "transform": tuple((f"{part}.{axis}", 1) for part in ("rotation", "scale", "translation") for axis in "xyz")
    + (("scale", 1), ("translation", 2), ("rotation", 1))
    + tuple((f"m{row}{col}", 1) for row in range(1, 5) for col in range(1, 5)),
}


def _key_path_components() -> Dict[bytes, int]:
    """Every key path the library knows, with its component count: the properties of
    PROPERTIES and their sub-keys (``frame`` has none, nor have the timing fields),
    and ``contents``. Lets the binding know a key path's shape without asking the
    engine (``engine.sample([], kp)``); a test checks it against the library."""
    table = {"contents": 1}
    for kp, kind in PROPERTIES:
        table[kp] = _COMPONENTS[kind]
        if kp != "frame":
            for sub, n in _SUBKEYS.get(kind, ()):
                table[f"{kp}.{sub}"] = n
    return {k.encode(): n for k, n in table.items()}


#: UTF-8 key path -> component count, for every key path of the library.
KEY_PATH_COMPONENTS: Dict[bytes, int] = _key_path_components()

#: The library's rules for the layer timing fields (the other properties must be finite).
_TIMING_RULES: Dict[str, Callable[[Any, str], float]] = {
    "beginTime": checked_finite, "speed": checked_finite, "timeOffset": checked_finite,
    "duration": checked_non_negative, "repeatCount": checked_repeat, "repeatDuration": checked_repeat,
    "autoreverses": checked_finite,
}


def _check_value(name: str, value: Any) -> None:
    """Raises what setting the property ``name`` (camel or snake case, or
    ``"contents"``) to ``value`` would raise because of the value: the binding's
    conversion, then the library's checks (cad_layer_set: the number of components,
    finite values or the timing field's rule, a fill mode). Used by
    :meth:`Layer.configure` to check every value before it sets any."""
    if name == "contents":
        _contents_id(value)
        return
    prop = vars(Layer)[name]
    keypath, kind = prop.keypath, prop.kind
    flat = flatten(_conv_in(kind, keypath)(value), keypath)
    if len(flat) != _COMPONENTS[kind]:
        raise TypeMismatchError(-4, message=f"\"{keypath}\" takes {_COMPONENTS[kind]} component(s); got {len(flat)}")
    rule = _TIMING_RULES.get(keypath)
    if rule is not None:
        rule(flat[0], keypath)
    elif kind == "fill":
        if flat[0] not in set(map(float, FillMode)):
            raise InvalidArgumentError(-2, message=f"fill mode {flat[0]:g} is not a valid value")
    else:
        for x in flat:
            if not math.isfinite(x):
                raise InvalidArgumentError(-2, message=f"values for \"{keypath}\" must be finite (got {x!r})")


#: attribute name (camel and snake) -> (key path bytes, reader)
_ATTRS: Dict[str, Tuple[bytes, Callable[[Any, int], Any]]] = {}


class _LayerProperty(TypedProperty[Any, Any]):
    """A layer property: the model value of ``keypath`` (``kind`` says its shape)."""

    keypath: str
    kind: str


def _make_property(keypath: str, kind: str) -> Any:
    bkp = keypath.encode()
    out = _conv_out(kind)
    into = _conv_in(kind, keypath)
    get_fn = lib.cad_layer_get

    def fget(self: "Layer") -> Any:
        return out(*self._read(get_fn, bkp))

    def fset(self: "Layer", value: Any) -> None:
        self._write(bkp, into(value))

    prop = _LayerProperty(fget, fset, doc=f"Model value of ``{keypath}`` ({kind}).")
    prop.keypath = keypath
    prop.kind = kind
    return prop


# One factory per kind: its return type tells type checkers what the attribute reads
# (a Point...) and accepts (any sequence of numbers or array, numpy's scalars...).
_Matrix = Union[Vector, Sequence[Vector]]


def _scalar(keypath: str) -> TypedProperty[float, RealLike]:
    return _make_property(keypath, "scalar")  # type: ignore[no-any-return]


def _bool(keypath: str) -> TypedProperty[bool, BoolLike]:  # (numbers are accepted at run time, as in C)
    return _make_property(keypath, "bool")  # type: ignore[no-any-return]


def _point(keypath: str) -> TypedProperty[Point, Vector]:
    return _make_property(keypath, "point")  # type: ignore[no-any-return]


def _size(keypath: str) -> TypedProperty[Size, Vector]:
    return _make_property(keypath, "size")  # type: ignore[no-any-return]


def _rect(keypath: str) -> TypedProperty[Rect, Vector]:
    return _make_property(keypath, "rect")  # type: ignore[no-any-return]


def _color(keypath: str) -> TypedProperty[Color, Vector]:
    return _make_property(keypath, "color")  # type: ignore[no-any-return]


def _transform(keypath: str) -> TypedProperty[Transform3D, _Matrix]:
    return _make_property(keypath, "transform")  # type: ignore[no-any-return]


def _fill(keypath: str) -> TypedProperty[FillMode, Union[FillMode, IntLike, str]]:
    return _make_property(keypath, "fill")  # type: ignore[no-any-return]


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

    # The properties of PROPERTIES (checked below), under both names.
    position = _point("position")
    zPosition = z_position = _scalar("zPosition")
    anchorPoint = anchor_point = _point("anchorPoint")
    anchorPointZ = anchor_point_z = _scalar("anchorPointZ")
    bounds = _rect("bounds")
    frame = _rect("frame")
    transform = _transform("transform")
    sublayerTransform = sublayer_transform = _transform("sublayerTransform")
    opacity = _scalar("opacity")
    hidden = _bool("hidden")
    backgroundColor = background_color = _color("backgroundColor")
    borderColor = border_color = _color("borderColor")
    borderWidth = border_width = _scalar("borderWidth")
    cornerRadius = corner_radius = _scalar("cornerRadius")
    shadowColor = shadow_color = _color("shadowColor")
    shadowOpacity = shadow_opacity = _scalar("shadowOpacity")
    shadowOffset = shadow_offset = _size("shadowOffset")
    shadowRadius = shadow_radius = _scalar("shadowRadius")
    contentsRect = contents_rect = _rect("contentsRect")
    masksToBounds = masks_to_bounds = _bool("masksToBounds")
    doubleSided = double_sided = _bool("doubleSided")
    beginTime = begin_time = _scalar("beginTime")
    speed = _scalar("speed")
    timeOffset = time_offset = _scalar("timeOffset")
    duration = _scalar("duration")
    repeatCount = repeat_count = _scalar("repeatCount")
    repeatDuration = repeat_duration = _scalar("repeatDuration")
    autoreverses = _bool("autoreverses")
    fillMode = fill_mode = _fill("fillMode")

    def __init__(self, engine: "Engine", handle: Optional[IntLike] = None, **props: Any) -> None:
        self._engine = engine
        if handle is None:
            out = c_uint64()
            engine._check(lib.cad_layer_create, byref(out))
            self._handle = out.value
            if props:
                try:
                    self.configure(**props)
                except BaseException:
                    # No orphan: a layer whose properties could not be set is destroyed.
                    p = engine._try_enter()
                    if p is not None:
                        try:
                            lib.cad_layer_destroy(p, self._handle)
                        finally:
                            engine._exit()
                    raise
        else:
            if props:
                raise TypeError("properties can only be given when creating a layer")
            self._handle = _layer_handle(handle)

    def configure(self, **props: Any) -> "Layer":
        """Sets several properties (attribute names, camel or snake case, plus
        ``contents``), in the order given; each runs its action as a single
        assignment would. Returns the layer.

        Every value is checked before any is set, by the library's rules for the
        property (its number of components, finite numbers, the timing fields'
        ranges such as ``duration >= 0``, fill modes, contents ids): a refused value
        leaves the layer as it was. An error only the engine can report (the layer
        was destroyed, or the engine closed, meanwhile) is raised by the first
        property it reaches, with the properties before it already set.
        """
        for name in props:
            if name not in _ATTRS and name != "contents":
                raise TypeError(f"unknown layer property {name!r}")
        for name, value in props.items():
            _check_value(name, value)
        for name, value in props.items():
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

    # A Layer's identity (engine, handle) never changes, also after destroy() or
    # close(): its hash is fixed and equality reflexive.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layer):
            return other._handle == self._handle and other._engine is self._engine
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._handle)

    def __repr__(self) -> str:
        return f"<cadence.Layer handle={self._handle:#x}>"

    def __copy__(self) -> "Layer":
        """A Layer is a reference: a copy is another reference to the same layer."""
        return Layer(self._engine, self._handle)

    # A deep copy or a pickle would need a copy of the engine that owns the layer.
    __deepcopy__ = __reduce_ex__ = __reduce__ = _no_copy

    @property
    def alive(self) -> bool:
        """False once the layer was destroyed (or the engine closed)."""
        eng = self._engine
        p = eng._try_enter()
        if p is None:
            return False
        out = c_uint64()
        try:
            return lib.cad_layer_superlayer(p, self._handle, byref(out)) == 0  # type: ignore[no-any-return]
        finally:
            eng._exit()

    def destroy(self) -> None:
        """Destroys the layer: detaches it, makes its sublayers roots, stops its
        animations (stop events with finished = False at the next tick) and drops
        its actions."""
        self._engine._destroy_layer(self._handle)

    # ---- key-path values ---------------------------------------------------------

    # _read and _write are the hot paths: Engine._enter() and _exit() inlined (one
    # lock acquire/release per call, see Engine "calls in flight").
    def _read(self, fn: Any, keypath: bytes) -> Tuple[Any, int]:
        buf = _BUF()
        n = c_int32()
        eng = self._engine
        try:
            rec = eng._local.calls
        except AttributeError:
            rec = eng._calls()
        lock = eng._lock
        lock.acquire()
        try:
            closing = eng._closing
            if not closing:
                rec.n += 1
        finally:
            lock.release()
        if closing:
            raise ClosedError("the engine is closed")
        try:
            st = fn(eng._ptr, self._handle, keypath, buf, _CAP, byref(n))
        finally:
            rec.n -= 1
            if eng._closing:
                eng._wake()
        if st:
            raise_status(st)
        return buf, n.value

    def _write(self, keypath: bytes, value: Value) -> None:
        buf, n = pack(value, keypath)  # type: ignore[arg-type]
        eng = self._engine
        try:
            rec = eng._local.calls
        except AttributeError:
            rec = eng._calls()
        lock = eng._lock
        lock.acquire()
        try:
            closing = eng._closing
            if not closing:
                rec.n += 1
        finally:
            lock.release()
        if closing:
            raise ClosedError("the engine is closed")
        try:
            st = lib.cad_layer_set(eng._ptr, self._handle, keypath, buf, n)
        finally:
            rec.n -= 1
            if eng._closing:
                eng._wake()
        if st:
            raise_status(st)

    def get(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        """The model value of ``keypath``: a float for one component, a tuple otherwise
        (``"contents"`` reads as a float, exact up to 2**53: use :attr:`contents` for 64-bit ids)."""
        return unpack(*self._read(lib.cad_layer_get, encode(keypath, "key path")))  # type: ignore[arg-type]

    def set(self, keypath: str, value: Value) -> None:
        """Sets the model value of ``keypath`` (runs its action unless actions are disabled).

        ``"contents"`` goes through the exact 64-bit setter (as ``layer.contents = v``),
        not through a double; reading ``layer["contents"]`` returns a float, exact up
        to 2**53 (use :attr:`contents` for full 64-bit ids).

        Values are numbers (bools, numpy's too, as 1 and 0) or sequences of them;
        for ``repeatCount`` and ``repeatDuration`` True means forever, as everywhere
        in the binding."""
        bkp = encode(keypath, "key path")
        if bkp == b"contents":
            self.contents = value  # type: ignore[assignment]
            return
        t = type(value)
        if (t is bool or t is NP_BOOL) and bkp in _REPEAT_BKEYS:
            value = repeat_value(value)
        self._write(bkp, value)  # type: ignore[arg-type]

    def presentation(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        """The presentation value of ``keypath`` at the engine's now."""
        return unpack(*self._read(lib.cad_layer_presentation, encode(keypath, "key path")))  # type: ignore[arg-type]

    __getitem__ = get
    __setitem__ = set

    @property
    def presentation_layer(self) -> "PresentationLayer":
        """A read-only proxy whose attributes read presentation values (``layer.presentation_layer.position``)."""
        return PresentationLayer(self)

    @property
    def contents(self) -> int:
        """The model contents id (a host-chosen 64-bit integer, 0 = none; a bool is a
        TypeError). Setting it runs a fade transition unless actions are disabled."""
        out = c_uint64()
        self._engine._check(lib.cad_layer_get_contents, self._handle, byref(out))
        return out.value

    @contents.setter
    def contents(self, value: IntLike) -> None:
        self._engine._check(lib.cad_layer_set_contents, self._handle, _contents_id(value))

    # ---- tree ------------------------------------------------------------------------

    def add_sublayer(self, child: "Layer") -> None:
        """Appends ``child`` (removing it from its old superlayer). Adding an ancestor is
        an :class:`~cadence.InvalidArgumentError`."""
        self._engine._check(lib.cad_layer_add_sublayer, self._handle, _handle_of(child))

    def insert_sublayer(self, child: "Layer", index: IntLike) -> None:
        """Inserts ``child`` at ``index`` (0 ... count, counted without the child; an
        int32, a bool is a TypeError)."""
        # index is an int32_t in C: checked here, as ctypes would wrap 2**32 to 0.
        self._engine._check(lib.cad_layer_insert_sublayer, self._handle, _handle_of(child),
                            checked_int(index, "index"))

    def remove_from_superlayer(self) -> None:
        """Detaches the layer from its superlayer (no-op for a root)."""
        self._engine._check(lib.cad_layer_remove_from_superlayer, self._handle)

    @property
    def superlayer(self) -> Optional["Layer"]:
        """The superlayer, None for a root."""
        out = c_uint64()
        self._engine._check(lib.cad_layer_superlayer, self._handle, byref(out))
        return Layer(self._engine, out.value) if out.value else None

    @property
    def sublayers(self) -> List["Layer"]:
        """The sublayers in order (a new list)."""
        cap = 16
        n = c_int32()
        while True:
            buf = (c_uint64 * cap)()
            st = self._engine._call(lib.cad_layer_sublayers, self._handle, buf, cap, byref(n))
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
        bkey = encode(key, "animation key")
        eng = self._engine
        with eng._cb_lock:  # the description's callback id does not change meanwhile
            if animation._readonly:
                # A copy of a copy carries that copy's callback id, unknown here.
                eng._keep_callbacks_forever()
            # The attached copy carries the description's callback: keep it registered
            # until that copy's stop event (SEMANTICS.md §11: exactly one per copy),
            # counted before C attaches it (a tick on another thread may deliver it).
            uid = animation._cb_uid
            eng._callback_copied(uid)
            try:
                eng._check(lib.cad_layer_add_animation, self._handle, animation._handle, bkey)
            except BaseException:
                eng._callback_copied(uid, -1)
                raise

    def remove_animation(self, key: str) -> None:
        """Removes the animation under ``key`` (:class:`~cadence.NotFoundError` if none)."""
        self._engine._check(lib.cad_layer_remove_animation, self._handle, encode(key, "animation key"))

    def remove_all_animations(self) -> None:
        """Removes every animation of the layer."""
        self._engine._check(lib.cad_layer_remove_all_animations, self._handle)

    @property
    def animation_count(self) -> int:
        """Number of attached animations."""
        out = c_int32()
        self._engine._check(lib.cad_layer_animation_count, self._handle, byref(out))
        return out.value

    def animation_keys(self) -> List[str]:
        """The keys of the attached animations, in add order."""
        eng = self._engine
        count = c_int32()
        keys: List[str] = []
        cap = 64
        buf = (ctypes_char * cap)()
        n = c_int32()
        i = 0
        e = eng._enter()  # one call in flight for the count and the keys
        try:
            st = lib.cad_layer_animation_count(e, self._handle, byref(count))
            while not st and i < count.value:
                st = lib.cad_layer_animation_key_at(e, self._handle, i, buf, cap, byref(n))
                if st == ERR_BUFFER_TOO_SMALL and n.value > cap:
                    cap = n.value
                    buf = (ctypes_char * cap)()
                    st = 0
                    continue
                if not st:
                    keys.append(buf.raw[:n.value].decode("utf-8", "replace"))
                    i += 1
        finally:
            eng._exit()
        if st:
            raise_status(st)
        return keys

    def animation_for_key(self, key: str) -> Optional[AnimationView]:
        """A read-only view of the attached copy under ``key`` (an :class:`~cadence.AnimationView`,
        whose fields read None), or None."""
        out = c_uint64()
        st = self._engine._call(lib.cad_layer_animation_for_key, self._handle, encode(key, "animation key"), byref(out))
        if st == ERR_NOT_FOUND:
            return None
        if st:
            raise_status(st)
        return Animation._view(self._engine, out.value, key)

    # ---- actions ---------------------------------------------------------------------

    def set_action(self, key: str, animation: Optional[Animation]) -> None:
        """Sets the action for ``key``: a copy of ``animation`` runs on each change,
        or with None the "no action" marker (changes take effect at once).

        The copies call the callback ``animation`` has now (``on_event``). It is kept
        while the action is set, and after the action is replaced, cleared or the
        layer destroyed, until no copy of the action can call it any more."""
        if animation is not None:
            if not isinstance(animation, Animation):
                raise TypeError(f"expected an Animation or None, not {type(animation).__name__}")
            if animation._engine is not self._engine:
                raise ValueError("the animation belongs to another engine")
            # A closed animation has handle 0, which C reads as the "no action" marker:
            # refuse it (ClosedError) rather than silently disabling the action.
            animation._p()
        self._engine._set_action(self._handle, encode(key, "action key"), animation)  # type: ignore[arg-type]

    def clear_action(self, key: str) -> None:
        """Returns ``key`` to its default action."""
        self._engine._clear_action(self._handle, encode(key, "action key"))  # type: ignore[arg-type]

    def _no_getter(self) -> bool:
        raise AttributeError("actions_enabled is write-only (the C API has no getter)")

    def _set_actions_enabled(self, enabled: BoolLike) -> None:
        flag = 1 if checked_bool(enabled, "actions_enabled") else 0
        self._engine._check(lib.cad_layer_set_actions_enabled, self._handle, flag)

    actions_enabled = property(_no_getter, _set_actions_enabled,
                               doc="Write-only: False disables implicit actions for this layer.")

    # ---- time --------------------------------------------------------------------------

    def convert_time(self, t: RealLike, to: Optional["Layer"] = None) -> float:
        """Converts ``t`` from this layer's local time to ``to``'s (None = global time)."""
        t = checked_float(t, "t")
        out = c_double()
        self._engine._check(lib.cad_layer_convert_time, t, self._handle, _handle_of(to), byref(out))
        return out.value

    def convert_time_from(self, t: RealLike, from_: Optional["Layer"] = None) -> float:
        """Converts ``t`` from ``from_``'s local time (None = global) to this layer's."""
        t = checked_float(t, "t")
        out = c_double()
        self._engine._check(lib.cad_layer_convert_time, t, _handle_of(from_), self._handle, byref(out))
        return out.value

    # ---- geometry ----------------------------------------------------------------------

    def convert_point(self, point: Vector, to: Optional["Layer"] = None,
                      presentation: BoolLike = False) -> Point:
        """Converts ``point`` from this layer's bounds space to ``to``'s (None = world
        space, where the render list's world matrices map to), as CALayer's
        ``convert(_:to:)``; model values, or with ``presentation`` those of the last
        tick. :class:`~cadence.NotFoundError` when the point has no image there (on or
        behind the eye's plane, or ``to`` seen edge-on)."""
        return _convert_point(self._engine, point, self._handle, _handle_of(to), presentation)

    def convert_point_from(self, point: Vector, from_: Optional["Layer"] = None,
                           presentation: BoolLike = False) -> Point:
        """Converts ``point`` from ``from_``'s bounds space (None = world space) to this
        layer's, as CALayer's ``convert(_:from:)``."""
        return _convert_point(self._engine, point, _handle_of(from_), self._handle, presentation)

    def hit_test(self, point: Vector, presentation: BoolLike = False) -> Optional["Layer"]:
        """As CALayer's ``hitTest(_:)``: the frontmost layer of this layer's subtree
        (itself included) whose bounds contain ``point``, given in the superlayer's
        space (world space for a root); None when none does. Hidden layers (and, with
        ``presentation``, layers not yet begun) and their subtrees are skipped;
        sublayers are tested last to first; masksToBounds limits a layer's sublayers to
        its bounds."""
        x, y = _point_arg(point)
        out = c_uint64()
        self._engine._check(lib.cad_layer_hit_test, self._handle, x, y,
                            1 if checked_bool(presentation, "presentation") else 0, byref(out))
        return Layer(self._engine, out.value) if out.value else None

    def pause(self) -> None:
        """The pause idiom of SEMANTICS.md §3.5: freezes the layer and its subtree."""
        t = self.convert_time_from(self._engine.now)
        self.speed = 0.0
        self.timeOffset = t

    def resume(self) -> None:
        """The resume idiom of SEMANTICS.md §3.5: continues where :meth:`pause` stopped."""
        p = self.timeOffset
        self.speed = 1.0
        self.timeOffset = 0.0
        self.beginTime = 0.0
        self.beginTime = self.convert_time_from(self._engine.now) - p



def _point_arg(point: Any, what: str = "point") -> Tuple[float, float]:
    """A point argument: a sequence of two real numbers (a tuple, a Point, a numpy array)."""
    refuse_unordered(point, what, "a sequence of two numbers (x, y)")  # a dict would be indexed by key
    try:
        n = len(point)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of two numbers (x, y), not {type(point).__name__}") from None
    if isinstance(point, (str, bytes)) or n != 2:
        raise TypeError(f"{what} must be a sequence of two numbers (x, y), got {point!r}")
    return checked_float(point[0], f"{what}[0]"), checked_float(point[1], f"{what}[1]")


def _convert_point(engine: "Engine", point: Any, source: int, target: int, presentation: Any) -> Point:
    x, y = _point_arg(point)
    out = (c_double * 2)()
    engine._check(lib.cad_layer_convert_point, x, y, source, target,
                  1 if checked_bool(presentation, "presentation") else 0, out)
    return Point(out[0], out[1])


def _layer_handle(layer: Union[Layer, IntLike]) -> int:
    """The handle of a Layer, or an integer handle checked to lie in [0, 2**64)
    (ctypes would wrap 2**64 + h to h or -1 to 2**64 - 1 silently)."""
    if isinstance(layer, Layer):
        return layer._handle
    return checked_int(layer, "a layer handle", HANDLE_RANGE)


def _handle_of(layer: Optional[Union[Layer, IntLike]]) -> int:
    """Like :func:`_layer_handle`, with None as 0 (no layer: global time, no root...)."""
    if layer is None:
        return 0
    return _layer_handle(layer)


def _check_properties() -> None:
    """The class body declares exactly PROPERTIES, each under its key path and its
    snake_case name (one property object), with the right kind."""
    declared = {name: v for name, v in vars(Layer).items() if isinstance(v, _LayerProperty)}
    expected = set()
    for kp, kind in PROPERTIES:
        prop = declared.get(kp)
        if prop is None or prop.keypath != kp or prop.kind != kind or declared.get(snake_case(kp)) is not prop:
            raise AssertionError(f"cadence.Layer: property {kp!r} ({kind}) is not declared as in PROPERTIES")
        expected |= {kp, snake_case(kp)}
    if set(declared) != expected:
        raise AssertionError(f"cadence.Layer: properties not in PROPERTIES: {sorted(set(declared) - expected)}")


_check_properties()
for _kp, _kind in PROPERTIES:
    _ATTRS[_kp] = (_kp.encode(), _conv_out(_kind))
    _ATTRS[snake_case(_kp)] = _ATTRS[_kp]


class PresentationLayer:
    """Read-only view of a layer's presentation values (``CALayer.presentation()``).

    Attributes are the layer's property names (camel or snake case); item access
    takes any key path; ``contents`` is the presented contents id.
    """

    __slots__ = ("_layer",)
    _layer: Layer

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
        """The presented contents id, all 64 bits (``cad_layer_presentation_contents``;
        ``presentation_layer["contents"]`` is a float, exact up to 2**53 only)."""
        out = c_uint64()
        self._layer._engine._check(lib.cad_layer_presentation_contents, self._layer._handle, byref(out))
        return out.value

    def __getitem__(self, keypath: str) -> Union[float, Tuple[float, ...]]:
        return self._layer.presentation(keypath)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the presentation layer is read-only; set values on the layer")

    def __dir__(self) -> List[str]:
        return sorted(set(_ATTRS) | {"contents", "model_layer"})

    def __copy__(self) -> "PresentationLayer":
        return PresentationLayer(self._layer)

    __deepcopy__ = __reduce_ex__ = __reduce__ = _no_copy

    def __repr__(self) -> str:
        return f"<cadence.PresentationLayer of {self._layer!r}>"
