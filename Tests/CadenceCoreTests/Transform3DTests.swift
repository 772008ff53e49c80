import Testing
@testable import CadenceCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Independent reference helpers (deliberately not using the code under test)

/// Plain 4x4 matrix as a [[Double]] (row-major, CA element order), built by hand in tests.
private typealias M4 = [[Double]]

private func elements(_ m: M4) -> [Double] { m.flatMap { $0 } }
private func tf(_ m: M4) -> Transform3D { Transform3D(elements(m)) }
private func m4(_ t: Transform3D) -> M4 {
    (0..<4).map { i in (0..<4).map { j in t[i * 4 + j] } }
}
private let identityM4: M4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]

/// Reference product (triple loop), row-vector semantics: (a*b)[i][j] = sum_k a[i][k] b[k][j].
private func mul(_ a: M4, _ b: M4) -> M4 {
    var r = M4(repeating: [0, 0, 0, 0], count: 4)
    for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { r[i][j] += a[i][k] * b[k][j] } } }
    return r
}

private func mul(_ ms: M4...) -> M4 { ms.dropFirst().reduce(ms[0]) { mul($0, $1) } }

/// Reference: p * M for a row vector p.
private func transformPoint(_ p: [Double], _ m: M4) -> [Double] {
    (0..<4).map { j in (0..<4).reduce(0.0) { $0 + p[$1] * m[$1][j] } }
}

private func refTranslation(_ x: Double, _ y: Double, _ z: Double) -> M4 {
    [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [x, y, z, 1]]
}
private func refScale(_ x: Double, _ y: Double, _ z: Double) -> M4 {
    [[x, 0, 0, 0], [0, y, 0, 0], [0, 0, z, 0], [0, 0, 0, 1]]
}
/// CATransform3DMakeRotation formula, written out independently.
private func refRotation(_ angle: Double, _ ax: Double, _ ay: Double, _ az: Double) -> M4 {
    let len = sqrt(ax * ax + ay * ay + az * az)
    let x = ax / len, y = ay / len, z = az / len
    let c = cos(angle), s = sin(angle)
    return [
        [x * x * (1 - c) + c, x * y * (1 - c) + z * s, x * z * (1 - c) - y * s, 0],
        [x * y * (1 - c) - z * s, y * y * (1 - c) + c, y * z * (1 - c) + x * s, 0],
        [x * z * (1 - c) + y * s, y * z * (1 - c) - x * s, z * z * (1 - c) + c, 0],
        [0, 0, 0, 1],
    ]
}
/// Skew matrix K with m21 = xy, m31 = xz, m32 = yz.
private func refSkew(_ xy: Double, _ xz: Double, _ yz: Double) -> M4 {
    [[1, 0, 0, 0], [xy, 1, 0, 0], [xz, yz, 1, 0], [0, 0, 0, 1]]
}
/// Identity with column 4 replaced.
private func refPerspective(_ p: [Double]) -> M4 {
    [[1, 0, 0, p[0]], [0, 1, 0, p[1]], [0, 0, 1, p[2]], [0, 0, 0, p[3]]]
}
private func withColumn4(_ m: M4, _ c: [Double]) -> M4 {
    var r = m
    for i in 0..<4 { r[i][3] = c[i] }
    return r
}
private func scaled(_ m: M4, by f: Double) -> M4 { m.map { $0.map { $0 * f } } }

private func maxAbs(_ m: M4) -> Double { elements(m).reduce(0) { max($0, abs($1)) } }

/// Max elementwise difference relative to max(1, |expected|_max).
private func relError(_ a: M4, _ b: M4) -> Double {
    let scale = max(1, maxAbs(b))
    return zip(elements(a), elements(b)).reduce(0) { max($0, abs($1.0 - $1.1)) } / scale
}
private func close(_ a: Transform3D, _ b: M4, _ tol: Double = 1e-12) -> Bool {
    relError(m4(a), b) <= tol
}
private func close(_ a: Transform3D, _ b: Transform3D, _ tol: Double = 1e-12) -> Bool {
    relError(m4(a), m4(b)) <= tol
}
private func close(_ a: Double, _ b: Double, _ tol: Double = 1e-12) -> Bool {
    abs(a - b) <= tol * max(1, abs(b))
}

private func randomMatrix(_ rng: inout SplitMix64, _ lo: Double = -2, _ hi: Double = 2) -> M4 {
    (0..<4).map { _ in (0..<4).map { _ in rng.uniform(lo, hi) } }
}
private func randomAxis(_ rng: inout SplitMix64) -> (Double, Double, Double) {
    while true {
        let x = rng.uniform(-1, 1), y = rng.uniform(-1, 1), z = rng.uniform(-1, 1)
        let l = sqrt(x * x + y * y + z * z)
        if l > 0.1 && l <= 1 { return (x / l, y / l, z / l) }
    }
}
private func randomRotation(_ rng: inout SplitMix64) -> M4 {
    let (x, y, z) = randomAxis(&rng)
    return refRotation(rng.uniform(-Double.pi, Double.pi), x, y, z)
}

/// Reference quaternion of an axis-angle rotation: (axis * sin(θ/2), cos(θ/2)).
private func refQuaternion(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> [Double] {
    [x * sin(angle / 2), y * sin(angle / 2), z * sin(angle / 2), cos(angle / 2)]
}
/// Reference rotation matrix of a quaternion, via axis-angle and the CA rotation formula.
private func refRotation(quaternion q: [Double]) -> M4 {
    let v = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    if v == 0 { return identityM4 }
    let angle = 2 * atan2(v, q[3])
    return refRotation(angle, q[0] / v, q[1] / v, q[2] / v)
}
/// Textbook acos-based slerp, shortest arc.
private func refSlerp(_ a: [Double], _ b0: [Double], _ t: Double) -> [Double] {
    var b = b0
    var d = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
    if d < 0 { b = b.map { -$0 }; d = -d }
    let omega = acos(min(1, d))
    let wa = sin((1 - t) * omega) / sin(omega), wb = sin(t * omega) / sin(omega)
    return (0..<4).map { wa * a[$0] + wb * b[$0] }
}

private func v3close(_ a: SIMD3<Double>, _ b: [Double], _ tol: Double = 1e-12) -> Bool {
    (0..<3).allSatisfy { abs(a[$0] - b[$0]) <= tol * max(1, abs(b[$0])) }
}
private func v4close(_ a: SIMD4<Double>, _ b: [Double], _ tol: Double = 1e-12) -> Bool {
    (0..<4).allSatisfy { abs(a[$0] - b[$0]) <= tol * max(1, abs(b[$0])) }
}
private func noNaN(_ v: SIMD3<Double>) -> Bool { !v.x.isNaN && !v.y.isNaN && !v.z.isNaN }

// MARK: - Storage, accessors, product

@Suite struct Transform3DBasicsTests {
    @Test func elementOrderAndAccessors() {
        var t = Transform3D((1...16).map(Double.init))
        #expect(t.m11 == 1 && t.m12 == 2 && t.m13 == 3 && t.m14 == 4)
        #expect(t.m21 == 5 && t.m22 == 6 && t.m23 == 7 && t.m24 == 8)
        #expect(t.m31 == 9 && t.m32 == 10 && t.m33 == 11 && t.m34 == 12)
        #expect(t.m41 == 13 && t.m42 == 14 && t.m43 == 15 && t.m44 == 16)
        for i in 0..<16 { #expect(t[i] == Double(i + 1)) }
        t[11] = -0.002
        #expect(t.m34 == -0.002)
        t.m42 = 99
        #expect(t[13] == 99)
        #expect(Transform3D.identity == Transform3D(elements(identityM4)))
        #expect(Transform3D() == Transform3D.identity)
    }

    @Test func constructorsMatchCALayout() {
        #expect(Transform3D.translation(1, 2, 3) == tf(refTranslation(1, 2, 3)))
        #expect(Transform3D.scale(2, 3, 4) == tf(refScale(2, 3, 4)))
        let t = Transform3D.translation(5, 6, 7)
        #expect(t.m41 == 5 && t.m42 == 6 && t.m43 == 7 && t.m44 == 1)
    }

    @Test func productMatchesReferenceMultiply() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let a = randomMatrix(&rng), b = randomMatrix(&rng)
            #expect(close(tf(a) * tf(b), mul(a, b), 1e-14))
        }
    }

    @Test func productIdentityAndAssociativity() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<200 {
            let a = tf(randomMatrix(&rng)), b = tf(randomMatrix(&rng)), c = tf(randomMatrix(&rng))
            #expect(Transform3D.identity * a == a)
            #expect(a * Transform3D.identity == a)
            #expect(close((a * b) * c, a * (b * c), 1e-13))
        }
        var m = Transform3D.translation(1, 2, 3)
        m *= Transform3D.scale(2, 2, 2)
        #expect(m == Transform3D.translation(1, 2, 3) * Transform3D.scale(2, 2, 2))
    }

    @Test func translateThenScaleByHand() {
        // p = (1,2,3): translate by (10,20,30) -> (11,22,33); scale (2,3,4) -> (22,66,132).
        let ts = Transform3D.translation(10, 20, 30) * Transform3D.scale(2, 3, 4)
        let p = ts.apply(x: 1, y: 2, z: 3)
        #expect(p.x == 22 && p.y == 66 && p.z == 132 && p.w == 1)
        // Scale first: (2,6,12), then translate: (12,26,42).
        let st = Transform3D.scale(2, 3, 4) * Transform3D.translation(10, 20, 30)
        let q = st.apply(x: 1, y: 2, z: 3)
        #expect(q.x == 12 && q.y == 26 && q.z == 42 && q.w == 1)
        // p * (a*b) == (p*a)*b against the reference product.
        let ref = transformPoint([1, 2, 3, 1], mul(refTranslation(10, 20, 30), refScale(2, 3, 4)))
        #expect(ref == [22, 66, 132, 1])
    }

    @Test func applyIsHomogeneous() {
        var m = Transform3D.identity
        m.m34 = -1.0 / 500
        // (0,0,100,1) * M: w = 1 + 100 * (-1/500) = 0.8; no divide.
        let p = m.apply(x: 0, y: 0, z: 100)
        #expect(p.x == 0 && p.y == 0 && p.z == 100)
        #expect(abs(p.w - 0.8) < 1e-15)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let a = randomMatrix(&rng)
            let x = rng.uniform(-5, 5), y = rng.uniform(-5, 5), z = rng.uniform(-5, 5)
            let r = tf(a).apply(x: x, y: y, z: z)
            let e = transformPoint([x, y, z, 1], a)
            #expect(abs(r.x - e[0]) < 1e-12 && abs(r.y - e[1]) < 1e-12)
            #expect(abs(r.z - e[2]) < 1e-12 && abs(r.w - e[3]) < 1e-12)
        }
    }

    @Test func predicates() {
        #expect(Transform3D.identity.isIdentity)
        #expect(!Transform3D.translation(0, 0, 1).isIdentity)
        #expect(Transform3D.translation(0, 0, 0).isIdentity)
        #expect(Transform3D.translation(3, -4, 5).isAffine2DTranslationOnly)
        #expect(Transform3D.identity.isAffine2DTranslationOnly)
        #expect(!Transform3D.scale(2, 1, 1).isAffine2DTranslationOnly)
        var p = Transform3D.translation(1, 2, 0)
        p.m34 = -0.001
        #expect(!p.isAffine2DTranslationOnly)
        #expect(p.isFinite)
        var bad = Transform3D.identity
        bad.m23 = .nan
        #expect(!bad.isFinite)
        bad.m23 = -.infinity
        #expect(!bad.isFinite)
        // Large but finite values must still be finite (no overflow in the check).
        #expect(Transform3D.scale(1e308, 1e308, 1e308).isFinite)
    }
}

// MARK: - Rotation

@Suite struct Transform3DRotationTests {
    @Test func rotationMatchesCAFormula() {
        var rng = SplitMix64(seed: 10)
        for _ in 0..<300 {
            let (x, y, z) = randomAxis(&rng)
            let angle = rng.uniform(-7, 7)
            let f = rng.uniform(0.1, 10)  // unnormalised axis
            #expect(close(Transform3D.rotation(angle, x * f, y * f, z * f), refRotation(angle, x, y, z), 1e-14))
        }
    }

    @Test func rotationZByHalfPiMapsXToY() {
        let r = Transform3D.rotation(Double.pi / 2, 0, 0, 1)
        let p = r.apply(x: 1, y: 0, z: 0)
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15 && p.z == 0 && p.w == 1)
        let q = r.apply(x: 0, y: 1, z: 0)
        #expect(abs(q.x + 1) < 1e-15 && abs(q.y) < 1e-15)
        // About x: y -> z; about y: z -> x.
        let rx = Transform3D.rotation(Double.pi / 2, 1, 0, 0).apply(x: 0, y: 1, z: 0)
        #expect(abs(rx.z - 1) < 1e-15 && abs(rx.y) < 1e-15)
        let ry = Transform3D.rotation(Double.pi / 2, 0, 1, 0).apply(x: 0, y: 0, z: 1)
        #expect(abs(ry.x - 1) < 1e-15 && abs(ry.z) < 1e-15)
        let rz = Transform3D.rotation(0.3, 0, 0, 1)
        #expect(rz.m11 == cos(0.3) && rz.m12 == sin(0.3) && rz.m21 == -sin(0.3) && rz.m22 == cos(0.3))
    }

    @Test func degenerateAxis() {
        #expect(Transform3D.rotation(1, 0, 0, 0) == .identity)
        #expect(Transform3D.rotation(1, .nan, 0, 0) == .identity)
        // Tiny and huge axes are normalised without under/overflow.
        #expect(close(Transform3D.rotation(0.7, 0, 0, 1e-300), refRotation(0.7, 0, 0, 1), 1e-15))
        #expect(close(Transform3D.rotation(0.7, 1e300, 1e300, 0), refRotation(0.7, 1, 1, 0), 1e-15))
    }
}

// MARK: - Determinant and inverse

@Suite struct Transform3DInverseTests {
    @Test func determinantKnownValues() {
        #expect(Transform3D.scale(2, 3, 4).determinant == 24)
        #expect(Transform3D.translation(7, 8, 9).determinant == 1)
        // Upper triangular with diagonal 2, -3, 5, 7: det = -210.
        let tri: M4 = [[2, 9, -4, 1], [0, -3, 8, 6], [0, 0, 5, 2], [0, 0, 0, 7]]
        #expect(tf(tri).determinant == -210)
        // One row swap of the identity: det = -1.
        let swap: M4 = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        #expect(tf(swap).determinant == -1)
        var rng = SplitMix64(seed: 20)
        for _ in 0..<100 {
            #expect(abs(tf(randomRotation(&rng)).determinant - 1) < 1e-14)
            let a = tf(randomMatrix(&rng)), b = tf(randomMatrix(&rng))
            #expect(close((a * b).determinant, a.determinant * b.determinant, 1e-12))
        }
    }

    @Test func inverseOfWellConditionedMatrices() throws {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<300 {
            let m = mul(
                refScale(rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2)),
                randomRotation(&rng),
                refTranslation(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-100, 100)),
                refPerspective([rng.uniform(-0.002, 0.002), rng.uniform(-0.002, 0.002), rng.uniform(-0.002, 0.002), 1]))
            let t = tf(m)
            let inv = try #require(t.inverted)
            #expect(close(t * inv, identityM4, 1e-12))
            #expect(close(inv * t, identityM4, 1e-12))
        }
        for _ in 0..<300 {
            // Random dense matrices: diagonally dominated so they are well conditioned.
            var m = randomMatrix(&rng, -1, 1)
            for i in 0..<4 { m[i][i] += 5 }
            let inv = try #require(tf(m).inverted)
            #expect(close(tf(m) * inv, identityM4, 1e-13))
        }
    }

    @Test func inverseKnownValuesAndScaleInvariance() throws {
        let s = try #require(Transform3D.scale(1e-6, 1e-6, 1e-6).inverted)
        #expect(close(s, refScale(1e6, 1e6, 1e6), 1e-15))
        let t = try #require(Transform3D.translation(1e9, -2e9, 5).inverted)
        #expect(t == tf(refTranslation(-1e9, 2e9, -5)))
        var p = Transform3D.identity
        p.m34 = -1.0 / 500
        let pi = try #require(p.inverted)
        #expect(close(pi, withColumn4(identityM4, [0, 0, 1.0 / 500, 1]), 1e-15))
    }

    @Test func singularHasNoInverse() {
        #expect(Transform3D.scale(1, 0, 1).inverted == nil)
        #expect(Transform3D.scale(0, 0, 0).inverted == nil)
        #expect(Transform3D(Array(repeating: 0.0, count: 16)).inverted == nil)
        // Two proportional rows.
        let m: M4 = [[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 0], [5, 6, 7, 1]]
        #expect(tf(m).inverted == nil)
        // Singular after rotation/translation (rank 3 with rounding noise).
        var rng = SplitMix64(seed: 22)
        for _ in 0..<50 {
            let sing = mul(randomRotation(&rng), refScale(1, 1, 0), randomRotation(&rng), refTranslation(10, 20, 30))
            #expect(tf(sing).inverted == nil)
        }
        var nan = Transform3D.identity
        nan.m11 = .nan
        #expect(nan.inverted == nil)
        #expect(Transform3D.scale(.infinity, 1, 1).inverted == nil)
    }
}

// MARK: - CSS decomposition and interpolation

@Suite struct CSSDecompositionTests {
    @Test func knownComponents() throws {
        // S * K * R * T * P with t·p = 0 so m44 stays 1 and no normalisation happens.
        let theta = 0.8
        let (ax, ay, az) = (2.0 / 3, -1.0 / 3, 2.0 / 3)
        let m = mul(
            refScale(2, 3, 4), refSkew(0.25, -0.5, 0.75), refRotation(theta, ax, ay, az),
            refTranslation(10, 20, 0), refPerspective([0.002, -0.001, -0.004, 1]))
        #expect(m[3][3] == 1)
        let d = try #require(tf(m).decomposed())
        #expect(v3close(d.scale, [2, 3, 4]))
        #expect(v3close(d.skew, [0.25, -0.5, 0.75]))
        #expect(v3close(d.translate, [10, 20, 0]))
        #expect(v4close(d.perspective, [0.002, -0.001, -0.004, 1]))
        #expect(v4close(d.quaternion, refQuaternion(theta, ax, ay, az)))
        // Rz(θ) has quaternion (0, 0, sin(θ/2), cos(θ/2)).
        let dz = try #require(Transform3D.rotation(0.5, 0, 0, 1).decomposed())
        #expect(v4close(dz.quaternion, [0, 0, sin(0.25), cos(0.25)]))
        #expect(Transform3D.identity.decomposed() == DecomposedTransform.identity)
        #expect(Transform3D(DecomposedTransform.identity) == .identity)
    }

    @Test func roundTripRandomCompositions() throws {
        var rng = SplitMix64(seed: 30)
        for i in 0..<500 {
            let sgn = i % 3 == 0 ? -1.0 : 1.0  // include coordinate system flips
            let m = mul(
                refScale(sgn * rng.uniform(0.2, 3), rng.uniform(0.2, 3), rng.uniform(0.2, 3)),
                refSkew(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)),
                randomRotation(&rng),
                refTranslation(rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(-300, 300)),
                refPerspective([rng.uniform(-0.001, 0.001), rng.uniform(-0.001, 0.001), rng.uniform(-0.003, 0.003), 1]))
            let d = try #require(tf(m).decomposed())
            // CSS normalises by m44, so the recomposition is M / m44.
            #expect(close(Transform3D(d), scaled(m, by: 1 / m[3][3]), 1e-12))
            #expect(abs((d.quaternion * d.quaternion).sum() - 1) < 1e-14)
        }
        // Plain random matrices with m44 == 1 are reproduced exactly (not divided). Keep them
        // reasonably conditioned: the perspective column is rebuilt as A * (A⁻¹ * column),
        // whose rounding error grows with the condition number of the upper 3x3 A.
        for _ in 0..<500 {
            var m = randomMatrix(&rng, -1, 1)
            for i in 0..<3 { m[i][i] += 2 }
            m[3][3] = 1
            let d = try #require(tf(m).decomposed())
            #expect(close(Transform3D(d), m, 1e-12))
        }
        // Tiny and huge scales are still decomposable (the singularity test is scale invariant).
        let tiny = try #require(Transform3D.scale(1e-9, 2e-9, 3e-9).decomposed())
        #expect(v3close(tiny.scale, [1e-9, 2e-9, 3e-9], 1e-15))
        for f in [1e-150, 1e-120, 1e120, 1e150] {
            let m = mul(refScale(f, 2 * f, 3 * f), refRotation(0.7, 1, 2, 3), refTranslation(1, 2, 3))
            let d = try #require(tf(m).decomposed())
            #expect(v3close(d.scale / f, [1, 2, 3], 1e-14))
            #expect(v4close(d.quaternion, refQuaternion(0.7, 1 / sqrt(14), 2 / sqrt(14), 3 / sqrt(14)), 1e-14))
        }
    }

    @Test func singularCannotBeDecomposed() {
        #expect(Transform3D.scale(0, 1, 1).decomposed() == nil)
        var m = Transform3D.identity
        m.m44 = 0
        #expect(m.decomposed() == nil)
        let proportional: M4 = [[1, 2, 3, 0], [2, 4, 6, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        #expect(tf(proportional).decomposed() == nil)
        var nan = Transform3D.identity
        nan.m42 = .nan
        #expect(nan.decomposed() == nil)
    }

    @Test func identityToRz90AtHalfIsRz45() {
        let r = Transform3D.identity.interpolated(to: Transform3D.rotation(Double.pi / 2, 0, 0, 1), progress: 0.5)
        #expect(close(r, refRotation(Double.pi / 4, 0, 0, 1), 1e-14))
    }

    @Test func sameAxisRotationsInterpolateAngleLinearly() {
        let a = 0.2, b = 1.4
        for p in [0.0, 0.1, 0.25, 0.5, 0.9, 1.0, -0.3, 1.5] {
            let r = tf(refRotation(a, 1, 0, 0)).interpolated(to: tf(refRotation(b, 1, 0, 0)), progress: p)
            #expect(close(r, refRotation(a + (b - a) * p, 1, 0, 0), 1e-13))
        }
        var rng = SplitMix64(seed: 31)
        for _ in 0..<100 {
            let (x, y, z) = randomAxis(&rng)
            let a = rng.uniform(-3, 3), b = a + rng.uniform(-3, 3)  // |b - a| < π: shortest arc
            let p = rng.uniform(-0.5, 1.5)
            let r = tf(refRotation(a, x, y, z)).interpolated(to: tf(refRotation(b, x, y, z)), progress: p)
            #expect(close(r, refRotation(a + (b - a) * p, x, y, z), 1e-12))
        }
    }

    @Test func slerpAgainstTextbookSlerp() {
        var rng = SplitMix64(seed: 32)
        for _ in 0..<200 {
            let (ax, ay, az) = randomAxis(&rng), (bx, by, bz) = randomAxis(&rng)
            let ta = rng.uniform(-3, 3), tb = rng.uniform(-3, 3)
            let p = rng.uniform(-0.5, 1.5)
            let q = refSlerp(refQuaternion(ta, ax, ay, az), refQuaternion(tb, bx, by, bz), p)
            let expected = refRotation(quaternion: q)
            let r = tf(refRotation(ta, ax, ay, az)).interpolated(to: tf(refRotation(tb, bx, by, bz)), progress: p)
            #expect(close(r, expected, 1e-11))
        }
    }

    @Test func translationScalePerspectiveInterpolateLinearly() {
        let t0 = Transform3D.identity, t1 = Transform3D.translation(100, 0, 0)
        for p in [0.0, 0.25, 0.5, 1.0, -0.5, 1.5] {
            #expect(close(t0.interpolated(to: t1, progress: p), refTranslation(100 * p, 0, 0), 1e-14))
        }
        #expect(close(t0.interpolated(to: t1, progress: 1.5), refTranslation(150, 0, 0), 1e-14))
        let s = Transform3D.identity.interpolated(to: Transform3D.scale(3, 3, 3), progress: 0.5)
        #expect(close(s, refScale(2, 2, 2), 1e-14))
        var pa = Transform3D.identity, pb = Transform3D.identity
        pa.m34 = -1.0 / 500
        pb.m34 = -1.0 / 1000
        let pm = pa.interpolated(to: pb, progress: 0.5)
        #expect(close(pm, withColumn4(identityM4, [0, 0, -0.0015, 1]), 1e-15))
    }

    @Test func shortestArcThrough180() {
        let a = Transform3D.rotation(170 * Double.pi / 180, 0, 0, 1)
        let b = Transform3D.rotation(-170 * Double.pi / 180, 0, 0, 1)
        let mid = a.interpolated(to: b, progress: 0.5)
        #expect(close(mid, refRotation(Double.pi, 0, 0, 1), 1e-13))
        #expect(!close(mid, identityM4, 0.5))
        let quarter = a.interpolated(to: b, progress: 0.25)
        #expect(close(quarter, refRotation(175 * Double.pi / 180, 0, 0, 1), 1e-13))
    }

    @Test func fullTurnDoesNotMove() throws {
        let full = Transform3D.rotation(2 * Double.pi, 0, 0, 1)
        let da = try #require(Transform3D.identity.decomposed())
        let db = try #require(full.decomposed())
        #expect(v4close(db.quaternion, [0, 0, 0, 1], 1e-15) && v4close(da.quaternion, [0, 0, 0, 1], 0))
        for p in [0.25, 0.5, 0.75] {
            #expect(close(Transform3D.identity.interpolated(to: full, progress: p), identityM4, 1e-14))
        }
    }

    @Test func singularEndpointSwitchesDiscretely() {
        let a = Transform3D.translation(5, 0, 0), b = Transform3D.scale(0, 1, 1)
        #expect(a.interpolated(to: b, progress: 0) == a)
        #expect(a.interpolated(to: b, progress: 0.49) == a)
        #expect(a.interpolated(to: b, progress: 0.5) == b)
        #expect(a.interpolated(to: b, progress: 1.2) == b)
        #expect(b.interpolated(to: a, progress: 0.3) == b)
        #expect(b.interpolated(to: a, progress: -0.3) == b)
        #expect(b.interpolated(to: a, progress: 0.7) == a)
    }

    @Test func precomputedMatchesDirect() throws {
        var rng = SplitMix64(seed: 33)
        for _ in 0..<50 {
            let a = mul(refScale(rng.uniform(0.5, 2), 1, 2), randomRotation(&rng), refTranslation(1, 2, 3))
            let b = mul(randomRotation(&rng), refTranslation(-5, rng.uniform(-9, 9), 0))
            let p = rng.uniform(-0.2, 1.2)
            let da = try #require(tf(a).decomposed()), db = try #require(tf(b).decomposed())
            #expect(Transform3D.interpolate(da, db, p) == tf(a).interpolated(to: tf(b), progress: p))
            // End points reproduce the inputs.
            #expect(close(Transform3D.interpolate(da, db, 0), a, 1e-12))
            #expect(close(Transform3D.interpolate(da, db, 1), b, 1e-12))
        }
    }
}

// MARK: - Virtual key path components

@Suite struct TransformComponentsTests {
    /// S * Rx * Ry * Rz * T with column 4 replaced, built from the reference formulas.
    private func reference(_ c: TransformComponents) -> M4 {
        let m = mul(
            refScale(c.scale.x, c.scale.y, c.scale.z),
            refRotation(c.rotation.x, 1, 0, 0), refRotation(c.rotation.y, 0, 1, 0), refRotation(c.rotation.z, 0, 0, 1),
            refTranslation(c.translation.x, c.translation.y, c.translation.z))
        return withColumn4(m, [c.perspective.x, c.perspective.y, c.perspective.z, c.perspective.w])
    }

    private func randomComponents(_ rng: inout SplitMix64) -> TransformComponents {
        TransformComponents(
            translation: SIMD3(rng.uniform(-500, 500), rng.uniform(-500, 500), rng.uniform(-500, 500)),
            scale: SIMD3(rng.uniform(0.05, 5), rng.uniform(0.05, 5), rng.uniform(0.05, 5)),
            rotation: SIMD3(
                -rng.uniform(-Double.pi, Double.pi),  // (−π, π]
                rng.uniform(-Double.pi / 2, Double.pi / 2) * (1 - 1e-9),
                -rng.uniform(-Double.pi, Double.pi)),
            perspective: SIMD4(rng.uniform(-0.01, 0.01), rng.uniform(-0.01, 0.01), rng.uniform(-0.01, 0.01), rng.uniform(0.5, 2)))
    }

    @Test func recomposeMatchesReference() {
        var rng = SplitMix64(seed: 40)
        for _ in 0..<300 {
            let c = randomComponents(&rng)
            #expect(close(Transform3D(c), reference(c), 1e-13))
        }
        #expect(Transform3D(TransformComponents.identity) == .identity)
        #expect(Transform3D.identity.components == .identity)
    }

    @Test func componentsRoundTrip() {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<1000 {
            let c = randomComponents(&rng)
            let r = tf(reference(c)).components
            #expect(v3close(r.translation, [c.translation.x, c.translation.y, c.translation.z], 1e-9))
            #expect(v3close(r.scale, [c.scale.x, c.scale.y, c.scale.z], 1e-9))
            #expect(v3close(r.rotation, [c.rotation.x, c.rotation.y, c.rotation.z], 1e-9))
            #expect(r.perspective == c.perspective)
        }
    }

    @Test func matrixRoundTripForScaleRotateTranslate() {
        var rng = SplitMix64(seed: 42)
        for i in 0..<600 {
            var s = [rng.uniform(0.1, 4), rng.uniform(0.1, 4), rng.uniform(0.1, 4)]
            if i % 4 == 1 { s[i % 3] = -s[i % 3] }  // negative determinant
            if i % 4 == 2 { s[(i / 4) % 3] = 0 }  // one zero scale
            let m = withColumn4(
                mul(refScale(s[0], s[1], s[2]), randomRotation(&rng),
                    refTranslation(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-100, 100))),
                [rng.uniform(-0.01, 0.01), rng.uniform(-0.01, 0.01), rng.uniform(-0.01, 0.01), rng.uniform(0.5, 2)])
            let c = tf(m).components
            #expect(close(Transform3D(c), m, 1e-12))
        }
    }

    @Test func extremeScalesRoundTrip() {
        for f in [1e-200, 1e-160, 1e160, 1e200] {
            let c = TransformComponents(
                translation: SIMD3(1, 2, 3), scale: SIMD3(f, 2, 1 / f),
                rotation: SIMD3(0.3, -0.4, 2.5), perspective: SIMD4(0, 0, 0, 1))
            let r = Transform3D(c).components
            #expect(v3close(r.scale / SIMD3(f, 2, 1 / f), [1, 1, 1], 1e-14), "f = \(f)")
            #expect(v3close(r.rotation, [0.3, -0.4, 2.5], 1e-12), "f = \(f)")
        }
    }

    @Test func scaleThenRotateZReadsBack() {
        let c = tf(mul(refScale(2, 3, 1), refRotation(0.3, 0, 0, 1))).components
        #expect(v3close(c.scale, [2, 3, 1], 1e-14))
        #expect(v3close(c.rotation, [0, 0, 0.3], 1e-14))
        #expect(v3close(c.translation, [0, 0, 0], 0))
        #expect(c.meanScaleXY == 2.5)
        #expect(tf(mul(refScale(2, 3, 1), refRotation(0.3, 0, 0, 1))).meanScaleXY == 2.5)
    }

    @Test func rotationZReadsBackAngle() {
        var angles: [Double] = [Double.pi, Double.pi / 2, -Double.pi / 2, 0, 1e-9, -1e-9, 3, -3, -Double.pi + 1e-9]
        var rng = SplitMix64(seed: 43)
        for _ in 0..<200 { angles.append(-rng.uniform(-Double.pi, Double.pi)) }
        for theta in angles {
            let c = tf(refRotation(theta, 0, 0, 1)).components
            #expect(abs(c.rotation.z - theta) <= 1e-14, "θ = \(theta) read \(c.rotation.z)")
            #expect(c.rotation.x == 0 && c.rotation.y == 0)
            #expect(v3close(c.scale, [1, 1, 1], 1e-15))
        }
    }

    @Test func perspectiveColumnKept() {
        var base = Transform3D.identity
        base.m34 = -1.0 / 500
        var c = base.components
        #expect(c.perspective == SIMD4(0, 0, -1.0 / 500, 1))
        c.rotation.y = 0.5
        let expected = withColumn4(refRotation(0.5, 0, 1, 0), [0, 0, -1.0 / 500, 1])
        #expect(close(Transform3D(c), expected, 1e-15))
        // Translation key edits keep the perspective too.
        c.translation.y = 40
        let expected2 = withColumn4(mul(refRotation(0.5, 0, 1, 0), refTranslation(0, 40, 0)), [0, 0, -1.0 / 500, 1])
        #expect(close(Transform3D(c), expected2, 1e-15))
    }

    @Test func negativeDeterminantFlipsX() {
        let fx = Transform3D.scale(-1, 1, 1).components
        #expect(v3close(fx.scale, [-1, 1, 1], 0) && v3close(fx.rotation, [0, 0, 0], 0))
        let fy = Transform3D.scale(1, -1, 1).components
        // Row norms are (1, 1, 1); the x scale carries the sign, so R = diag(-1, -1, 1) = Rz(π).
        #expect(v3close(fy.scale, [-1, 1, 1], 0))
        #expect(v3close(fy.rotation, [0, 0, Double.pi], 1e-15))
        #expect(fy.meanScaleXY == 0)
        #expect(Transform3D.scale(-2, 4, 1).meanScaleXY == 1)
        #expect(close(Transform3D(fy), refScale(1, -1, 1), 1e-15))
    }

    @Test func gimbalLockIsDeterministic() {
        let c = tf(refRotation(Double.pi / 2, 0, 1, 0)).components
        #expect(v3close(c.rotation, [0, Double.pi / 2, 0], 1e-15))
        let m = mul(refRotation(0.4, 1, 0, 0), refRotation(Double.pi / 2, 0, 1, 0), refRotation(0.3, 0, 0, 1))
        let g = tf(m).components
        #expect(g.rotation.x == 0)
        #expect(close(g.rotation.y, Double.pi / 2, 1e-15))
        #expect(close(Transform3D(g), m, 1e-14))
        let down = mul(refRotation(0.4, 1, 0, 0), refRotation(-Double.pi / 2, 0, 1, 0))
        let gd = tf(down).components
        #expect(gd.rotation.x == 0 && close(gd.rotation.y, -Double.pi / 2, 1e-15))
        #expect(close(Transform3D(gd), down, 1e-14))
    }

    @Test func zeroScalesNeverProduceNaN() {
        for s in [[0.0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0], [0, 0, 2], [0, 3, 0], [4, 0, 0]] {
            let c = Transform3D.scale(s[0], s[1], s[2]).components
            #expect(noNaN(c.rotation) && noNaN(c.scale))
            #expect(v3close(c.rotation, [0, 0, 0], 0), "scale \(s)")
            #expect(v3close(c.scale, s, 0))
        }
        // One zero scale: the rotation is still recovered.
        let c = tf(mul(refScale(0, 1, 1), refRotation(0.3, 0, 0, 1))).components
        #expect(v3close(c.rotation, [0, 0, 0.3], 1e-14))
        // Restoring the scale restores the matrix.
        var restored = c
        restored.scale.x = 1
        #expect(close(Transform3D(restored), refRotation(0.3, 0, 0, 1), 1e-14))
        // Two zero scales with a rotated remaining row.
        let two = tf(mul(refScale(1, 0, 0), refRotation(0.3, 0, 0, 1))).components
        #expect(v3close(two.rotation, [0, 0, 0.3], 1e-14))
        var rng = SplitMix64(seed: 44)
        for _ in 0..<100 {
            let m = mul(refScale(0, 0, rng.uniform(0.5, 2)), randomRotation(&rng))
            let k = tf(m).components
            #expect(noNaN(k.rotation))
            #expect(close(Transform3D(k), m, 1e-13))
        }
    }
}
