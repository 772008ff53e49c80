"""Cadence: Core Animation's model (layers, presentation values, CAMediaTiming,
basic/keyframe/spring/group/transition animations, transactions, implicit
actions, render list) for any render loop, over libcadence's C ABI.

Quick start::

    import cadence
    with cadence.Engine() as engine:
        layer = engine.create_layer(bounds=(0, 0, 100, 100), position=(50, 50))
        engine.tick(0.0)                       # the layer is no longer "new"
        with engine.animate(duration=1, curve="linear"):
            layer.position = (150, 50)         # implicit animation
        engine.tick(0.5)
        print(layer.presentation_layer.position)   # Point(x=100.0, y=50.0)

Low level: :data:`lib` holds every C function of the generated table, bound once
at import (``cadence.lib.cad_layer_get(...)``), returning raw ``cad_status`` codes.
"""
from __future__ import annotations

from . import _abi
from ._lib import Lib, cad_anim_callback, cad_event, cad_render_item, cad_transaction_callback, lib
from .animation import (NAMED_CURVES, Animation, AnimationView, BezierTimingFunction, Path, TimingFunction,
                        evaluate_timing, timing_bezier)
from .engine import EVENT_DTYPE, RENDER_ITEM_DTYPE, Engine, Event, Transaction, media_time
from .enums import (AnimKind, CalcMode, EventKind, FillMode, ItemFlag, RotationMode, Status, TimingName,
                    TransitionSubtype, TransitionType)
from .errors import (BufferTooSmallError, CadenceError, ClosedError, EngineClosedError, InvalidArgumentError,
                     InvalidHandleError, InvalidStateError, LibraryMismatchError, LibraryNotFoundError,
                     MissingFunctionError, NotFoundError, OutOfMemoryError, TypeMismatchError, UnknownKeyPathError)
from .layer import PROPERTIES, Layer, PresentationLayer
from .types import IDENTITY, Color, Point, Rect, Size, Transform3D

#: Version of this binding (the library version it was generated for).
__version__ = _abi.VERSION
#: ABI version this binding needs (checked against ``cad_abi_version()`` at import).
ABI_VERSION = _abi.ABI_VERSION
#: Version string of the loaded library.
LIBRARY_VERSION: str = lib.cad_version_string().decode("ascii")
#: Path of the loaded library.
LIBRARY_PATH: str = lib.path

__all__ = [
    "lib", "Lib", "cad_event", "cad_render_item", "cad_anim_callback", "cad_transaction_callback",
    "Engine", "Event", "Transaction", "media_time", "RENDER_ITEM_DTYPE", "EVENT_DTYPE",
    "Layer", "PresentationLayer", "PROPERTIES",
    "Animation", "AnimationView", "Path", "TimingFunction", "BezierTimingFunction", "NAMED_CURVES",
    "evaluate_timing", "timing_bezier",
    "AnimKind", "CalcMode", "EventKind", "FillMode", "ItemFlag", "RotationMode", "Status", "TimingName",
    "TransitionSubtype", "TransitionType",
    "CadenceError", "InvalidHandleError", "InvalidArgumentError", "UnknownKeyPathError", "TypeMismatchError",
    "BufferTooSmallError", "NotFoundError", "InvalidStateError", "OutOfMemoryError", "ClosedError",
    "EngineClosedError", "LibraryNotFoundError", "LibraryMismatchError", "MissingFunctionError",
    "Point", "Size", "Rect", "Color", "Transform3D", "IDENTITY",
    "__version__", "ABI_VERSION", "LIBRARY_VERSION", "LIBRARY_PATH",
]
