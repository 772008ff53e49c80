import RealModule

// MARK: - CSS whole-matrix decomposition

/// The decomposition of a 4×4 matrix used by CSS Transforms Level 2 to interpolate
/// whole matrices ("decomposing a 3D matrix").
///
/// In Core Animation's row-vector layout the matrix `M / m44` equals
/// `S * K * R * T * P` ("apply S first … P last"), where
/// * `S = scale(scale.x, scale.y, scale.z)`;
/// * `K` is the unit lower-triangular skew matrix with `m21 = skew.x` (XY),
///   `m31 = skew.y` (XZ), `m32 = skew.z` (YZ);
/// * `R` is the rotation of the unit quaternion `quaternion = (x, y, z, w)`; the rotation
///   `Transform3D.rotation(θ, ax, ay, az)` has quaternion `(a·sin(θ/2), cos(θ/2))`, `w ≥ 0`;
/// * `T = translation(translate)`;
/// * `P` is the identity with its fourth column replaced by `perspective`
///   (`m14 m24 m34 m44`).
public struct DecomposedTransform: Sendable, Equatable {
    public var translate: SIMD3<Double>
    public var scale: SIMD3<Double>
    /// Skew factors XY, XZ, YZ.
    public var skew: SIMD3<Double>
    public var perspective: SIMD4<Double>
    /// Unit quaternion `(x, y, z, w)`.
    public var quaternion: SIMD4<Double>

    public init(
        translate: SIMD3<Double> = .zero,
        scale: SIMD3<Double> = .one,
        skew: SIMD3<Double> = .zero,
        perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1),
        quaternion: SIMD4<Double> = SIMD4(0, 0, 0, 1)
    ) {
        self.translate = translate
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// The decomposition of the identity.
    public static let identity = DecomposedTransform()

    /// CSS "interpolation of decomposed 3D matrix values": translate, scale, skew and
    /// perspective are interpolated linearly, the quaternion by spherical linear
    /// interpolation along the shortest arc (normalised lerp when nearly parallel).
    /// `progress` may lie outside `[0, 1]`; all parts extrapolate.
    public func interpolated(to b: DecomposedTransform, progress p: Double) -> DecomposedTransform {
        let q = 1 - p
        return DecomposedTransform(
            translate: q * translate + p * b.translate,
            scale: q * scale + p * b.scale,
            skew: q * skew + p * b.skew,
            perspective: q * perspective + p * b.perspective,
            quaternion: DecomposedTransform.slerp(quaternion, b.quaternion, p))
    }

    /// Spherical linear interpolation along the shortest arc.
    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ p: Double) -> SIMD4<Double> {
        var b = b
        if (a * b).sum() < 0 { b = -b }
        // Angle between the two 4-vectors, accurate also when they are close.
        let d = a - b, s = a + b
        let dn = (d * d).sum().squareRoot(), sn = (s * s).sum().squareRoot()
        let theta = 2 * Double.atan2(y: dn, x: sn)
        if theta < 1e-7 {
            // Nearly parallel: normalised lerp (error O(theta^3)).
            let r = (1 - p) * a + p * b
            let n = (r * r).sum().squareRoot()
            return n > 0 ? r / n : a
        }
        // For equal-norm a, b: |a-b| = 2r·sin(θ/2), |a+b| = 2r·cos(θ/2), so this is sin θ.
        let sinTheta = 2 * dn * sn / (dn * dn + sn * sn)
        let wa = Double.sin((1 - p) * theta) / sinTheta
        let wb = Double.sin(p * theta) / sinTheta
        return wa * a + wb * b
    }
}

extension Transform3D {
    /// Relative singularity threshold for the upper 3×3 block in `decomposed()`:
    /// `|det| / (|row1| |row2| |row3|)` (1 for orthogonal rows, 0 for dependent ones)
    /// must exceed this.
    static var decompositionSingularityTolerance: Double { 1e-13 }

    /// CSS Transforms Level 2 "decomposing a 3D matrix", adapted to the row-vector layout
    /// (the CSS pseudo-code's `matrix[i][j]` is exactly `m(i+1)(j+1)` here).
    ///
    /// Returns `nil` when `m44 == 0`, when the matrix is not finite, or when the upper 3×3
    /// block is singular (rows linearly dependent up to a relative `1e-13`).
    ///
    /// As in CSS the matrix is first normalised by `m44`, so `Transform3D(d)` reproduces
    /// `self` divided by `m44` (identical when `m44 == 1`; otherwise the same projective
    /// transform).
    public func decomposed() -> DecomposedTransform? {
        let w = r4.w
        guard w != 0, w.isFinite else { return nil }
        var a0 = Transform3D.xyz(r1), a1 = Transform3D.xyz(r2), a2 = Transform3D.xyz(r3)
        var t = Transform3D.xyz(r4)
        var pc = SIMD3(r1.w, r2.w, r3.w)
        if w != 1 {
            // CSS divides every element by m44.
            a0 /= w; a1 /= w; a2 /= w; t /= w; pc /= w
        }

        // Singularity test on the upper 3x3 (CSS: determinant(perspectiveMatrix) == 0), made
        // scale-independent by using the row-normalised matrix U: det(U) = det(A)/(n0 n1 n2).
        let n0 = Transform3D.length3(a0), n1 = Transform3D.length3(a1), n2 = Transform3D.length3(a2)
        guard n0 > 0, n1 > 0, n2 > 0, n0.isFinite, n1.isFinite, n2.isFinite,
              t.x.isFinite, t.y.isFinite, t.z.isFinite,
              pc.x.isFinite, pc.y.isFinite, pc.z.isFinite
        else { return nil }
        let u0 = Transform3D.normalized(a0, n0)
        let u1 = Transform3D.normalized(a1, n1)
        let u2 = Transform3D.normalized(a2, n2)
        let c12 = Transform3D.cross3(u1, u2)
        let detU = Transform3D.dot3(u0, c12)
        guard detU.magnitude > Transform3D.decompositionSingularityTolerance else { return nil }

        // Perspective: solve N * p = (m14, m24, m34, 1)^T with N = [A 0; t 1], i.e.
        // p = A⁻¹ (m14, m24, m34) and p.w = 1 − t·p. With A's rows a_i = n_i u_i the
        // adjugate columns are cross(u1,u2)/n0, cross(u2,u0)/n1, cross(u0,u1)/n2 over det(U).
        var perspective = SIMD4<Double>(0, 0, 0, 1)
        if pc != .zero {
            let p = (c12 * (pc.x / n0) + Transform3D.cross3(u2, u0) * (pc.y / n1)
                + Transform3D.cross3(u0, u1) * (pc.z / n2)) * (1 / detU)
            perspective = SIMD4(p.x, p.y, p.z, 1 - Transform3D.dot3(t, p))
        }

        // Scale and skew by Gram-Schmidt on the rows: A = S * K * R.
        var scale = SIMD3<Double>(n0, 0, 0)
        var skew = SIMD3<Double>.zero
        var row0 = u0
        skew.x = Transform3D.dot3(row0, a1)
        var row1 = a1 - skew.x * row0
        scale.y = Transform3D.length3(row1)
        row1 = Transform3D.normalized(row1, scale.y)
        skew.x /= scale.y
        skew.y = Transform3D.dot3(row0, a2)
        var row2 = a2 - skew.y * row0
        skew.z = Transform3D.dot3(row1, row2)
        row2 -= skew.z * row1
        scale.z = Transform3D.length3(row2)
        row2 = Transform3D.normalized(row2, scale.z)
        skew.y /= scale.z
        skew.z /= scale.z

        // Coordinate system flip: negate the scales and the rotation rows.
        if detU < 0 {
            scale = -scale
            row0 = -row0; row1 = -row1; row2 = -row2
        }

        let quaternion = Transform3D.quaternion(row0, row1, row2)
        return DecomposedTransform(
            translate: t, scale: scale, skew: skew, perspective: perspective, quaternion: quaternion)
    }

    /// Unit quaternion (w ≥ 0) of the proper rotation whose CA-layout rows are r0, r1, r2.
    /// Same quaternion as the CSS formula, computed with Shepperd's method for accuracy.
    static func quaternion(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) -> SIMD4<Double> {
        let trace = r0.x + r1.y + r2.z
        var q: SIMD4<Double>
        if trace > 0 {
            let s = 2 * (trace + 1).squareRoot()  // 4w
            q = SIMD4((r1.z - r2.y) / s, (r2.x - r0.z) / s, (r0.y - r1.x) / s, 0.25 * s)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = 2 * (1 + r0.x - r1.y - r2.z).squareRoot()  // 4x
            q = SIMD4(0.25 * s, (r1.x + r0.y) / s, (r2.x + r0.z) / s, (r1.z - r2.y) / s)
        } else if r1.y > r2.z {
            let s = 2 * (1 + r1.y - r0.x - r2.z).squareRoot()  // 4y
            q = SIMD4((r0.y + r1.x) / s, 0.25 * s, (r1.z + r2.y) / s, (r2.x - r0.z) / s)
        } else {
            let s = 2 * (1 + r2.z - r0.x - r1.y).squareRoot()  // 4z
            q = SIMD4((r0.z + r2.x) / s, (r1.z + r2.y) / s, 0.25 * s, (r0.y - r1.x) / s)
        }
        if q.w < 0 { q = -q }
        let n = (q * q).sum().squareRoot()
        return q / n
    }

    /// CSS "recomposing to a 3D matrix": `S * K * R * T * P` in row-vector order
    /// (see `DecomposedTransform`). The quaternion need not be normalised
    /// (a zero quaternion means no rotation).
    public init(_ d: DecomposedTransform) {
        let q = d.quaternion
        let n2 = (q * q).sum()
        let f = n2 > 0 ? 2 / n2 : 0
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        let xx = x * x * f, yy = y * y * f, zz = z * z * f
        let xy = x * y * f, xz = x * z * f, yz = y * z * f
        let xw = x * w * f, yw = y * w * f, zw = z * w * f
        let rot0 = SIMD3(1 - (yy + zz), xy + zw, xz - yw)
        let rot1 = SIMD3(xy - zw, 1 - (xx + zz), yz + xw)
        let rot2 = SIMD3(xz + yw, yz - xw, 1 - (xx + yy))
        let k = d.skew, s = d.scale
        let a0 = s.x * rot0
        let a1 = s.y * (rot1 + k.x * rot0)
        let a2 = s.z * (rot2 + k.y * rot0 + k.z * rot1)
        let p = d.perspective
        let p3 = SIMD3(p.x, p.y, p.z)
        let t = d.translate
        self.init(
            SIMD4(a0, Transform3D.dot3(a0, p3)),
            SIMD4(a1, Transform3D.dot3(a1, p3)),
            SIMD4(a2, Transform3D.dot3(a2, p3)),
            SIMD4(t, Transform3D.dot3(t, p3) + p.w))
    }

    /// CSS whole-matrix interpolation from `self` to `to` at `progress` (may be outside
    /// `[0, 1]`). If either end cannot be decomposed the result is discrete:
    /// `self` for `p < 0.5`, `to` otherwise.
    public func interpolated(to: Transform3D, progress p: Double) -> Transform3D {
        guard let a = decomposed(), let b = to.decomposed() else {
            return p < 0.5 ? self : to
        }
        return Transform3D.interpolate(a, b, p)
    }

    /// Interpolates precomputed decompositions (see `interpolated(to:progress:)`).
    public static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, _ p: Double) -> Transform3D {
        Transform3D(a.interpolated(to: b, progress: p))
    }
}

// MARK: - Virtual key path components

/// The decomposition behind Core Animation's virtual key paths
/// (`transform.rotation.z`, `transform.scale.x`, `transform.translation.y`, …).
///
/// The matrix is `S(scale) * Rx(rotation.x) * Ry(rotation.y) * Rz(rotation.z) * T(translation)`
/// (row-vector order: scale first, then rotate about x, y, z, then translate) with its
/// fourth column (`m14 m24 m34 m44`) replaced by `perspective`.
public struct TransformComponents: Sendable, Equatable {
    public var translation: SIMD3<Double>
    public var scale: SIMD3<Double>
    /// Euler angles in radians, applied x first, then y, then z.
    public var rotation: SIMD3<Double>
    /// `m14, m24, m34, m44` of the matrix.
    public var perspective: SIMD4<Double>

    public init(
        translation: SIMD3<Double> = .zero,
        scale: SIMD3<Double> = .one,
        rotation: SIMD3<Double> = .zero,
        perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1)
    ) {
        self.translation = translation
        self.scale = scale
        self.rotation = rotation
        self.perspective = perspective
    }

    /// (Computed, not a `static let`: no `swift_once` call in the frame loop.)
    public static var identity: TransformComponents { TransformComponents() }

    /// `(scale.x + scale.y) / 2`, the value of the `transform.scale` virtual key.
    public var meanScaleXY: Double { (scale.x + scale.y) / 2 }
}

extension Transform3D {
    /// Below this `cos(rotation.y)` the Euler decomposition is treated as gimbal locked.
    static var gimbalLockTolerance: Double { 1e-12 }

    /// Decomposes into `TransformComponents`.
    ///
    /// * `translation = (m41, m42, m43)`, `perspective = (m14, m24, m34, m44)`.
    /// * `scale` = the norms of the upper 3×3 rows. If the upper 3×3 determinant is
    ///   negative, **`scale.x` is negated** (and row 1 with it) so the rotation is proper;
    ///   e.g. `scale(-1, 1, 1)` reads back as scale `(-1, 1, 1)`, rotation 0, and
    ///   `scale(1, -1, 1)` as scale `(-1, 1, 1)`, rotation.z = π (both recompose exactly).
    /// * `rotation` = Euler angles of `R = Rx * Ry * Rz`, `rotation.y ∈ [−π/2, π/2]`,
    ///   `rotation.x, rotation.z ∈ (−π, π]`. At gimbal lock (`cos y < 1e-12`)
    ///   **`rotation.x = 0`** and the combined angle goes to `rotation.z`.
    /// * Zero-scale rows never produce NaN: one zero row is reconstructed from the
    ///   other two (so the rotation is still recovered exactly), with two or three zero
    ///   rows the missing directions are completed from the identity axes (an unrotated
    ///   choice: `scale(0, 0, 0)` reads rotation 0).
    public var components: TransformComponents {
        let a0 = Transform3D.xyz(r1), a1 = Transform3D.xyz(r2), a2 = Transform3D.xyz(r3)
        let n0 = Transform3D.length3(a0), n1 = Transform3D.length3(a1), n2 = Transform3D.length3(a2)
        var u0 = n0 > 0 ? Transform3D.normalized(a0, n0) : .zero
        var u1 = n1 > 0 ? Transform3D.normalized(a1, n1) : .zero
        var u2 = n2 > 0 ? Transform3D.normalized(a2, n2) : .zero
        var scale = SIMD3(n0, n1, n2)
        let mask = (n0 > 0 ? 1 : 0) | (n1 > 0 ? 2 : 0) | (n2 > 0 ? 4 : 0)
        if mask == 7 {
            if Transform3D.dot3(u0, Transform3D.cross3(u1, u2)) < 0 {
                scale.x = -scale.x
                u0 = -u0
            }
        } else {
            Transform3D.completeRotationRows(&u0, &u1, &u2, mask)
        }
        return TransformComponents(
            translation: Transform3D.xyz(r4),
            scale: scale,
            rotation: Transform3D.eulerXYZ(u0, u1, u2),
            perspective: SIMD4(r1.w, r2.w, r3.w, r4.w))
    }

    /// `(scale.x + scale.y) / 2` of `components`, computed without the Euler angles.
    public var meanScaleXY: Double {
        let a0 = Transform3D.xyz(r1), a1 = Transform3D.xyz(r2), a2 = Transform3D.xyz(r3)
        let n0 = Transform3D.length3(a0), n1 = Transform3D.length3(a1), n2 = Transform3D.length3(a2)
        var sx = n0
        if n0 > 0, n1 > 0, n2 > 0,
           Transform3D.dot3(Transform3D.normalized(a0, n0),
                            Transform3D.cross3(Transform3D.normalized(a1, n1), Transform3D.normalized(a2, n2))) < 0 {
            sx = -sx
        }
        return (sx + n1) / 2
    }

    /// Recomposes `S * Rx * Ry * Rz * T` with column 4 set to `c.perspective`.
    public init(_ c: TransformComponents) {
        // (`sinCos`: both from one reduction, see Elementary.swift.)
        @inline(__always) func pair(_ a: Double) -> (Double, Double) {
            a == 0 ? (0, 1) : sinCos(a)
        }
        let (sa, ca) = pair(c.rotation.x)
        let (sb, cb) = pair(c.rotation.y)
        let (sc, cc) = pair(c.rotation.z)
        let s = c.scale, p = c.perspective, t = c.translation
        let sasb = sa * sb, casb = ca * sb
        self.init(
            SIMD4(s.x * (cb * cc), s.x * (cb * sc), s.x * -sb, p.x),
            SIMD4(s.y * (sasb * cc - ca * sc), s.y * (ca * cc + sasb * sc), s.y * (sa * cb), p.y),
            SIMD4(s.z * (sa * sc + casb * cc), s.z * (casb * sc - sa * cc), s.z * (ca * cb), p.z),
            SIMD4(t, p.w))
    }

    /// Euler angles (x, y, z) with R = Rx(x) * Ry(y) * Rz(z) for CA-layout rows u0, u1, u2.
    ///
    /// With R rows
    ///   [cy·cz,              cy·sz,              −sy  ]
    ///   [sx·sy·cz − cx·sz,   cx·cz + sx·sy·sz,   sx·cy]
    ///   [cx·sy·cz + sx·sz,   cx·sy·sz − sx·cz,   cx·cy]
    /// x comes from (m23, m33) and z from combinations of rows 2 and 3 that stay well
    /// conditioned near gimbal lock (sx·m31 − cx·m21 = sz, cx·m22 − sx·m32 = cz).
    static func eulerXYZ(_ u0: SIMD3<Double>, _ u1: SIMD3<Double>, _ u2: SIMD3<Double>) -> SIMD3<Double> {
        // Rows are unit (or zero) vectors: plain sqrt cannot overflow here.
        let cy = (u0.x * u0.x + u0.y * u0.y).squareRoot()
        let y = Double.atan2(y: -u0.z, x: cy)
        var x = 0.0, sx = 0.0, cx = 1.0
        if cy >= gimbalLockTolerance {
            let h = (u1.z * u1.z + u2.z * u2.z).squareRoot()
            if h > 0 {
                x = Double.atan2(y: u1.z, x: u2.z)
                sx = u1.z / h
                cx = u2.z / h
            }
        }
        var z = Double.atan2(y: sx * u2.x - cx * u1.x, x: cx * u1.y - sx * u2.y)
        // Report angles in (−π, π] (atan2 gives −π for a −0 numerator).
        if x == -Double.pi { x = Double.pi }
        if z == -Double.pi { z = Double.pi }
        return SIMD3(x, y, z)
    }

    /// Fills rotation rows whose scale was zero (bit i of `mask` set = row i known).
    static func completeRotationRows(
        _ u0: inout SIMD3<Double>, _ u1: inout SIMD3<Double>, _ u2: inout SIMD3<Double>, _ mask: Int
    ) {
        var mask = mask
        // Exactly one row missing: it is the cross product of the other two (cyclic order).
        if mask == 6 || mask == 5 || mask == 3 {
            let c: SIMD3<Double>
            switch mask {
            case 6: c = cross3(u1, u2)
            case 5: c = cross3(u2, u0)
            default: c = cross3(u0, u1)
            }
            let l = length3(c)
            if l > 1e-9 {
                switch mask {
                case 6: u0 = c / l
                case 5: u1 = c / l
                default: u2 = c / l
                }
                return
            }
            // The two known rows are parallel: keep only the first known one.
            mask = mask == 6 ? 2 : 1
        }
        if mask == 0 {
            u0 = SIMD3(1, 0, 0); u1 = SIMD3(0, 1, 0); u2 = SIMD3(0, 0, 1)
            return
        }
        // Exactly one known row k; complete with the cyclically next axes.
        @inline(__always) func complete(_ uk: SIMD3<Double>, _ j: Int, _ l: Int) -> (SIMD3<Double>, SIMD3<Double>) {
            var ej = SIMD3<Double>.zero; ej[j] = 1
            var v = ej - uk[j] * uk
            var len = length3(v)
            if len < 0.5 {
                var el = SIMD3<Double>.zero; el[l] = 1
                v = el - uk[l] * uk
                len = length3(v)
            }
            let uj = v / len
            return (uj, cross3(uk, uj))
        }
        switch mask {
        case 1: (u1, u2) = complete(u0, 1, 2)
        case 2: (u2, u0) = complete(u1, 2, 0)
        default: (u0, u1) = complete(u2, 0, 1)
        }
    }
}
