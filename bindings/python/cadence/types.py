"""Small value types returned by the typed layer properties.

They are :class:`typing.NamedTuple` subclasses, so they compare equal to plain
tuples (``layer.position == (10, 20)``) and can be passed back wherever a value
is accepted.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Tuple

__all__ = ["Point", "Size", "Rect", "Color", "Transform3D", "IDENTITY"]


class Point(NamedTuple):
    """A point (``position``, ``anchorPoint``)."""

    x: float
    y: float


class Size(NamedTuple):
    """A size (``shadowOffset``, ``bounds.size``)."""

    width: float
    height: float


class Rect(NamedTuple):
    """A rectangle (``bounds``, ``frame``, ``contentsRect``)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def origin(self) -> Point:
        return Point(self.x, self.y)

    @property
    def size(self) -> Size:
        return Size(self.width, self.height)


class Color(NamedTuple):
    """A straight-alpha RGBA colour, components in 0..1."""

    r: float
    g: float
    b: float
    a: float


class Transform3D(NamedTuple):
    """A CATransform3D: 16 doubles m11 ... m44, row-vector convention
    (translation in m41 m42 m43, perspective in m34)."""

    m11: float
    m12: float
    m13: float
    m14: float
    m21: float
    m22: float
    m23: float
    m24: float
    m31: float
    m32: float
    m33: float
    m34: float
    m41: float
    m42: float
    m43: float
    m44: float

    @classmethod
    def identity(cls) -> "Transform3D":
        return IDENTITY

    @classmethod
    def translation(cls, tx: float, ty: float, tz: float = 0.0) -> "Transform3D":
        """CATransform3DMakeTranslation."""
        return cls(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, tx, ty, tz, 1.0)

    @classmethod
    def scale(cls, sx: float, sy: float, sz: float = 1.0) -> "Transform3D":
        """CATransform3DMakeScale."""
        return cls(sx, 0.0, 0.0, 0.0, 0.0, sy, 0.0, 0.0, 0.0, 0.0, sz, 0.0, 0.0, 0.0, 0.0, 1.0)

    @classmethod
    def rotation(cls, angle: float, x: float = 0.0, y: float = 0.0, z: float = 1.0) -> "Transform3D":
        """CATransform3DMakeRotation (radians about the axis (x, y, z))."""
        n = math.sqrt(x * x + y * y + z * z)
        if n == 0.0:
            return IDENTITY
        x, y, z = x / n, y / n, z / n
        c, s = math.cos(angle), math.sin(angle)
        t = 1.0 - c
        return cls(
            t * x * x + c, t * x * y + z * s, t * x * z - y * s, 0.0,
            t * x * y - z * s, t * y * y + c, t * y * z + x * s, 0.0,
            t * x * z + y * s, t * y * z - x * s, t * z * z + c, 0.0,
            0.0, 0.0, 0.0, 1.0,
        )

    def concat(self, other: "Transform3D") -> "Transform3D":
        """CATransform3DConcat(self, other): ``self`` applied first (row vectors: self * other)."""
        a, b = self, other
        return Transform3D(*[
            sum(a[r * 4 + k] * b[k * 4 + c] for k in range(4)) for r in range(4) for c in range(4)
        ])

    def rows(self) -> Tuple[Tuple[float, ...], ...]:
        """The matrix as four rows."""
        return tuple(tuple(self[r * 4:(r + 1) * 4]) for r in range(4))


IDENTITY = Transform3D(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
