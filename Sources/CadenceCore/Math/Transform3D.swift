import RealModule

/// A 4×4 homogeneous transform laid out like Core Animation's `CATransform3D`.
///
/// Conventions (identical to Core Animation):
/// * Elements are `m11 m12 m13 m14 m21 … m44`, row by row.
/// * Points are **row vectors** multiplied on the left: `[x y z 1] * M`.
///   Translation lives in `m41 m42 m43`, perspective in `m14 m24 m34`
///   (a typical perspective is `m34 = −1 / eyeDistance`).
/// * `a * b` means "apply `a`, then `b`": `p * (a * b) == (p * a) * b`.
///   This is `CATransform3DConcat(a, b)`.
///
/// Storage is four `SIMD4<Double>` rows, so a product is four
/// row-times-matrix SIMD multiply-adds and nothing is heap allocated.
public struct Transform3D: Sendable, Equatable {
    /// Row 1: `m11 m12 m13 m14`.
    public var r1: SIMD4<Double>
    /// Row 2: `m21 m22 m23 m24`.
    public var r2: SIMD4<Double>
    /// Row 3: `m31 m32 m33 m34`.
    public var r3: SIMD4<Double>
    /// Row 4: `m41 m42 m43 m44`.
    public var r4: SIMD4<Double>

    /// Creates a transform from its four rows.
    @inline(__always)
    public init(_ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>, _ r4: SIMD4<Double>) {
        self.r1 = r1
        self.r2 = r2
        self.r3 = r3
        self.r4 = r4
    }

    /// The identity transform.
    public init() {
        self.init(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))
    }

    /// The identity transform. (Computed, not a `static let`: a lazily initialised
    /// global costs a `swift_once` call wherever the frame loop uses it.)
    public static var identity: Transform3D { Transform3D() }

    /// Creates a transform from 16 values in `m11, m12, …, m44` order.
    /// - Precondition: `elements.count == 16` (callers validate).
    public init(_ elements: [Double]) {
        precondition(elements.count == 16, "Transform3D requires exactly 16 elements")
        self.init(
            SIMD4(elements[0], elements[1], elements[2], elements[3]),
            SIMD4(elements[4], elements[5], elements[6], elements[7]),
            SIMD4(elements[8], elements[9], elements[10], elements[11]),
            SIMD4(elements[12], elements[13], elements[14], elements[15]))
    }

    /// Element `index` in `m11, m12, …, m44` order (`0..<16`).
    public subscript(index: Int) -> Double {
        get {
            precondition(index >= 0 && index < 16, "Transform3D index out of range")
            switch index &>> 2 {
            case 0: return r1[index & 3]
            case 1: return r2[index & 3]
            case 2: return r3[index & 3]
            default: return r4[index & 3]
            }
        }
        set {
            precondition(index >= 0 && index < 16, "Transform3D index out of range")
            switch index &>> 2 {
            case 0: r1[index & 3] = newValue
            case 1: r2[index & 3] = newValue
            case 2: r3[index & 3] = newValue
            default: r4[index & 3] = newValue
            }
        }
    }

    // MARK: Named elements

    public var m11: Double { get { r1.x } set { r1.x = newValue } }
    public var m12: Double { get { r1.y } set { r1.y = newValue } }
    public var m13: Double { get { r1.z } set { r1.z = newValue } }
    public var m14: Double { get { r1.w } set { r1.w = newValue } }
    public var m21: Double { get { r2.x } set { r2.x = newValue } }
    public var m22: Double { get { r2.y } set { r2.y = newValue } }
    public var m23: Double { get { r2.z } set { r2.z = newValue } }
    public var m24: Double { get { r2.w } set { r2.w = newValue } }
    public var m31: Double { get { r3.x } set { r3.x = newValue } }
    public var m32: Double { get { r3.y } set { r3.y = newValue } }
    public var m33: Double { get { r3.z } set { r3.z = newValue } }
    public var m34: Double { get { r3.w } set { r3.w = newValue } }
    public var m41: Double { get { r4.x } set { r4.x = newValue } }
    public var m42: Double { get { r4.y } set { r4.y = newValue } }
    public var m43: Double { get { r4.z } set { r4.z = newValue } }
    public var m44: Double { get { r4.w } set { r4.w = newValue } }

    // MARK: Products

    /// Row vector `v` times `m`.
    @inline(__always)
    static func rowTimes(_ v: SIMD4<Double>, _ m: Transform3D) -> SIMD4<Double> {
        (v.x * m.r1 + v.y * m.r2) + (v.z * m.r3 + v.w * m.r4)
    }

    /// Row-vector product: the result applies `a` first, then `b`
    /// (`CATransform3DConcat(a, b)`).
    @inline(__always)
    public static func * (a: Transform3D, b: Transform3D) -> Transform3D {
        Transform3D(rowTimes(a.r1, b), rowTimes(a.r2, b), rowTimes(a.r3, b), rowTimes(a.r4, b))
    }

    /// `a * b` for `a` given by its rows, evaluated on two-lane halves: per
    /// lane the same operations in the same order as `*` (bit-identical), in
    /// a form the SSE2 code generator keeps in registers.
    @inline(__always)
    static func product(_ a1: SIMD4<Double>, _ a2: SIMD4<Double>, _ a3: SIMD4<Double>, _ a4: SIMD4<Double>,
                        _ b: Transform3D) -> Transform3D {
        let b1l = b.r1.lowHalf, b1h = b.r1.highHalf, b2l = b.r2.lowHalf, b2h = b.r2.highHalf
        let b3l = b.r3.lowHalf, b3h = b.r3.highHalf, b4l = b.r4.lowHalf, b4h = b.r4.highHalf
        @inline(__always) func row(_ v: SIMD4<Double>) -> SIMD4<Double> {
            let x = SIMD2(repeating: v.x), y = SIMD2(repeating: v.y)
            let z = SIMD2(repeating: v.z), w = SIMD2(repeating: v.w)
            let lo = (x * b1l + y * b2l) + (z * b3l + w * b4l)
            let hi = (x * b1h + y * b2h) + (z * b3h + w * b4h)
            return SIMD4(lowHalf: lo, highHalf: hi)
        }
        return Transform3D(row(a1), row(a2), row(a3), row(a4))
    }

    /// `a = a * b` (apply `b` after the current `a`).
    @inline(__always)
    public static func *= (a: inout Transform3D, b: Transform3D) {
        a = a * b
    }

    // MARK: Constructors

    /// `CATransform3DMakeTranslation(x, y, z)`.
    public static func translation(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(x, y, z, 1))
    }

    /// `CATransform3DMakeScale(x, y, z)`.
    public static func scale(_ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D(SIMD4(x, 0, 0, 0), SIMD4(0, y, 0, 0), SIMD4(0, 0, z, 0), SIMD4(0, 0, 0, 1))
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: rotation by `angle` radians about the
    /// axis `(x, y, z)` (normalised here). A zero (or non-finite) axis yields the identity.
    /// Rotation about +z by a positive angle maps `(1, 0, 0)` to `(cos, sin, 0)`.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        var x = x, y = y, z = z
        var len2 = x * x + y * y + z * z
        if !len2.isNormal {
            // Zero, subnormal, overflowing or NaN: rescale by the largest magnitude first.
            let m = Swift.max(x.magnitude, Swift.max(y.magnitude, z.magnitude))
            guard m > 0, m.isFinite else { return Transform3D() }
            x /= m; y /= m; z /= m
            len2 = x * x + y * y + z * z
            guard len2.isNormal else { return Transform3D() }
        }
        if len2 != 1 {
            let inv = 1 / len2.squareRoot()
            x *= inv; y *= inv; z *= inv
        }
        let c = Double.cos(angle), s = Double.sin(angle), t = 1 - c
        let xt = x * t, yt = y * t
        return Transform3D(
            SIMD4(x * xt + c, x * yt + z * s, x * z * t - y * s, 0),
            SIMD4(x * yt - z * s, y * yt + c, y * z * t + x * s, 0),
            SIMD4(x * z * t + y * s, y * z * t - x * s, z * z * t + c, 0),
            SIMD4(0, 0, 0, 1))
    }

    // MARK: Predicates

    /// Exactly the identity (value comparison: `-0 == 0`, NaN is not equal).
    /// Lane masks combined without branches after the first element (the
    /// frame loop asks this per layer).
    @inline(__always)
    public var isIdentity: Bool {
        // A turned or scaled matrix fails on its first element (one compare
        // instead of sixteen in the frame loop's animated transforms).
        guard r1.x == 1 else { return false }
        let m = (r1 .== SIMD4(1, 0, 0, 0)) .& (r2 .== SIMD4(0, 1, 0, 0))
            .& (r3 .== SIMD4(0, 0, 1, 0)) .& (r4 .== SIMD4(0, 0, 0, 1))
        return m[0] && m[1] && m[2] && m[3]
    }

    /// Identity except (possibly) for the translation `m41 m42 m43`.
    public var isAffine2DTranslationOnly: Bool {
        r1 == SIMD4(1, 0, 0, 0) && r2 == SIMD4(0, 1, 0, 0) && r3 == SIMD4(0, 0, 1, 0) && r4.w == 1
    }

    /// `true` when all 16 elements are finite.
    public var isFinite: Bool {
        // x - x is 0 for finite x and NaN for ±inf/NaN; NaN survives the sums.
        let z = (r1 - r1) + (r2 - r2) + (r3 - r3) + (r4 - r4)
        return z == .zero
    }

    /// The matrix with its non-finite elements replaced: ±inf by ±DBL_MAX and
    /// NaN by 0. Products of huge matrices (world matrices of deep trees, the
    /// powers of a cumulative animation) saturate after every product, so
    /// that an overflowed element meets the next product's zeros as a finite
    /// number (0·DBL_MAX = 0) rather than as inf (inf·0 = NaN). An element
    /// whose value is undefined (inf − inf: two overflowing terms of opposite
    /// sign) becomes 0, as NaN does in the render list (docs/decisions.md).
    /// The same matrix when every element is finite.
    @inline(__always)
    public var saturated: Transform3D {
        // One sum of the rows: any NaN or ±inf element makes a lane of it
        // non-finite (so does a sum of huge finite elements that overflows,
        // for which the slow path changes nothing).
        let s = (r1 + r2) + (r3 + r4)
        if s - s == .zero { return self }
        return saturatedElements()
    }

    @inline(never)
    func saturatedElements() -> Transform3D {
        @inline(__always) func sat(_ v: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4(settled(v.x, nan: 0), settled(v.y, nan: 0), settled(v.z, nan: 0), settled(v.w, nan: 0))
        }
        return Transform3D(sat(r1), sat(r2), sat(r3), sat(r4))
    }

    // MARK: Determinant and inverse

    /// The 2×2 sub-determinants shared by `determinant` and `inverted`.
    @inline(__always)
    private func subDeterminants()
        -> (s: (Double, Double, Double, Double, Double, Double),
            c: (Double, Double, Double, Double, Double, Double))
    {
        let s0 = r1.x * r2.y - r2.x * r1.y
        let s1 = r1.x * r2.z - r2.x * r1.z
        let s2 = r1.x * r2.w - r2.x * r1.w
        let s3 = r1.y * r2.z - r2.y * r1.z
        let s4 = r1.y * r2.w - r2.y * r1.w
        let s5 = r1.z * r2.w - r2.z * r1.w
        let c5 = r3.z * r4.w - r4.z * r3.w
        let c4 = r3.y * r4.w - r4.y * r3.w
        let c3 = r3.y * r4.z - r4.y * r3.z
        let c2 = r3.x * r4.w - r4.x * r3.w
        let c1 = r3.x * r4.z - r4.x * r3.z
        let c0 = r3.x * r4.y - r4.x * r3.y
        return ((s0, s1, s2, s3, s4, s5), (c0, c1, c2, c3, c4, c5))
    }

    /// The determinant of the full 4×4 matrix.
    public var determinant: Double {
        let (s, c) = subDeterminants()
        return (s.0 * c.5 - s.1 * c.4 + s.2 * c.3) + (s.3 * c.2 - s.4 * c.1 + s.5 * c.0)
    }

    /// Relative singularity threshold used by `inverted` (see there).
    static var inverseSingularityTolerance: Double { 1e-13 }

    /// The inverse, or `nil` when the matrix is singular or not finite.
    ///
    /// "Singular" is judged scale-independently: the rows and then the columns are
    /// equilibrated with max-norms (so uniform or per-axis scales, huge translations and
    /// perspective terms do not matter) and the equilibrated determinant is compared
    /// against `1e-13`. `scale(1e-6, 1e-6, 1e-6)` and `translation(1e9, 0, 0)` are
    /// invertible; `scale(1, 0, 1)` or a matrix with two proportional rows is not.
    public var inverted: Transform3D? {
        let (s, c) = subDeterminants()
        let det = (s.0 * c.5 - s.1 * c.4 + s.2 * c.3) + (s.3 * c.2 - s.4 * c.1 + s.5 * c.0)
        guard det != 0, det.isFinite else { return nil }

        // Two-sided max-norm equilibration: |det(D1 M D2)| = |det| * prod(D1) * prod(D2).
        // (Scalar code on purpose: the generic SIMD reductions are not inlined.)
        @inline(__always) func absMax(_ v: SIMD4<Double>) -> Double {
            Swift.max(Swift.max(v.x.magnitude, v.y.magnitude), Swift.max(v.z.magnitude, v.w.magnitude))
        }
        let n1 = absMax(r1), n2 = absMax(r2), n3 = absMax(r3), n4 = absMax(r4)
        guard n1 > 0, n2 > 0, n3 > 0, n4 > 0,
              (n1 + n2 + n3 + n4).isFinite else { return nil }
        let i1 = 1 / n1, i2 = 1 / n2, i3 = 1 / n3, i4 = 1 / n4
        @inline(__always) func colMax(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
            Swift.max(Swift.max(a.magnitude * i1, b.magnitude * i2), Swift.max(c.magnitude * i3, d.magnitude * i4))
        }
        let cx = colMax(r1.x, r2.x, r3.x, r4.x), cy = colMax(r1.y, r2.y, r3.y, r4.y)
        let cz = colMax(r1.z, r2.z, r3.z, r4.z), cw = colMax(r1.w, r2.w, r3.w, r4.w)
        // |det| * prod(1/rowmax) <= 24, so the partial products stay in range.
        let rel = (det.magnitude * i1 * i2 * i3 * i4) / ((cx * cy) * (cz * cw))
        guard rel > Transform3D.inverseSingularityTolerance else { return nil }

        let inv = 1 / det
        let (a00, a01, a02, a03) = (r1.x, r1.y, r1.z, r1.w)
        let (a10, a11, a12, a13) = (r2.x, r2.y, r2.z, r2.w)
        let (a20, a21, a22, a23) = (r3.x, r3.y, r3.z, r3.w)
        let (a30, a31, a32, a33) = (r4.x, r4.y, r4.z, r4.w)
        let b1 = SIMD4(
            a11 * c.5 - a12 * c.4 + a13 * c.3,
            -a01 * c.5 + a02 * c.4 - a03 * c.3,
            a31 * s.5 - a32 * s.4 + a33 * s.3,
            -a21 * s.5 + a22 * s.4 - a23 * s.3)
        let b2 = SIMD4(
            -a10 * c.5 + a12 * c.2 - a13 * c.1,
            a00 * c.5 - a02 * c.2 + a03 * c.1,
            -a30 * s.5 + a32 * s.2 - a33 * s.1,
            a20 * s.5 - a22 * s.2 + a23 * s.1)
        let b3 = SIMD4(
            a10 * c.4 - a11 * c.2 + a13 * c.0,
            -a00 * c.4 + a01 * c.2 - a03 * c.0,
            a30 * s.4 - a31 * s.2 + a33 * s.0,
            -a20 * s.4 + a21 * s.2 - a23 * s.0)
        let b4 = SIMD4(
            -a10 * c.3 + a11 * c.1 - a12 * c.0,
            a00 * c.3 - a01 * c.1 + a02 * c.0,
            -a30 * s.3 + a31 * s.1 - a32 * s.0,
            a20 * s.3 - a21 * s.1 + a22 * s.0)
        return Transform3D(b1 * inv, b2 * inv, b3 * inv, b4 * inv)
    }

    // MARK: Applying to points

    /// `[x y z 1] * M`, homogeneous (no divide by `w`).
    @inline(__always)
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        let v = (x * r1 + y * r2) + (z * r3 + r4)
        return (v.x, v.y, v.z, v.w)
    }
}

// MARK: - Small vector helpers (internal, namespaced to avoid clashes in the module)

extension Transform3D {
    @inline(__always)
    static func dot3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        a.x * b.x + a.y * b.y + a.z * b.z
    }

    @inline(__always)
    static func cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Euclidean length, without spurious under/overflow for extreme magnitudes.
    @inline(__always)
    static func length3(_ a: SIMD3<Double>) -> Double {
        let d = dot3(a, a)
        if d.isNormal { return d.squareRoot() }  // fast path: not zero/subnormal/inf/NaN
        return slowLength3(a)
    }

    @inline(never)
    static func slowLength3(_ a: SIMD3<Double>) -> Double {
        let m = Swift.max(a.x.magnitude, Swift.max(a.y.magnitude, a.z.magnitude))
        guard m > 0, m.isFinite else { return m.isNaN || a != a ? .nan : m }
        let b = a / m
        return m * dot3(b, b).squareRoot()
    }

    /// `a / n` for `n = length3(a) > 0` (reciprocal multiply unless `1/n` would overflow).
    @inline(__always)
    static func normalized(_ a: SIMD3<Double>, _ n: Double) -> SIMD3<Double> {
        n >= 0x1p-1000 ? a * (1 / n) : a / n
    }

    @inline(__always)
    static func xyz(_ v: SIMD4<Double>) -> SIMD3<Double> {
        SIMD3(v.x, v.y, v.z)
    }
}
