import Foundation
import Testing
@testable import CadenceCore

/// The evaluator's transform shortcuts (an identity MODEL transform decomposed
/// from a per-layer flag instead of its 16 doubles) against matrices worked out
/// by hand from SEMANTICS.md §2.3:
///
///     M = S(sx, sy, sz) * Rz(θ) * T(tx, ty, tz)     (row vectors)
///       = [ sx·cosθ   sx·sinθ  0   0 ]
///         [ -sy·sinθ  sy·cosθ  0   0 ]
///         [ 0         0        sz  0 ]
///         [ tx        ty       tz  1 ]
///
/// including the hand-over cases: a non-identity model, a model changed while
/// the animation runs (both ways, through the whole matrix and through a
/// virtual key), a reused layer slot, huge and non-finite values, and the
/// sublayerTransform.
@Suite("Transform fast paths agree with hand-worked matrices")
struct TransformFastPathTests {
    func M(s: (Double, Double, Double) = (1, 1, 1), theta: Double = 0, t: (Double, Double, Double) = (0, 0, 0)) -> [Double] {
        let c = cos(theta), n = sin(theta)
        return [s.0 * c, s.0 * n, 0, 0, -s.1 * n, s.1 * c, 0, 0, 0, 0, s.2, 0, t.0, t.1, t.2, 1]
    }
    let I: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    /// A layer whose model changes apply at once (no implicit animations).
    func quietLayer(_ r: inout Rig) -> UInt64 {
        let l = r.layer()
        try! r.e.setActionsEnabled(layer: l, false)
        return l
    }

    @Test("the identity decomposes to the identity components and recomposes to the identity")
    func identityDecomposition() {
        let c = Transform3D.identity.components
        #expect(c == TransformComponents.identity)
        #expect(c.translation == .zero && c.scale == .one && c.perspective == SIMD4(0, 0, 0, 1))
        #expect(c.rotation.x == 0 && c.rotation.y == 0 && c.rotation.z == 0)
        // Both readings recompose to the identity. The sign of a zero element is
        // not specified (an expansion may give -0.0, e.g. s.x * -sin(0)): `==`
        // treats ±0 as equal, as `isIdentity` does.
        for comps in [c, TransformComponents.identity] {
            let m = Transform3D(comps)
            #expect(m.isIdentity)
            for k in 0..<16 { #expect(m[k] == I[k], "element \(k): \(m[k])") }
        }
    }

    @Test("identity model: rotation.z and scale animations give S * Rz")
    func identityModel() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.add(l, r.basic("transform.scale", from: [0.5], to: [1.5], duration: 1))
        for t in [0.25, 0.5, 0.75] {
            r.tick(t)
            let s = 0.5 + t
            #expect(near(r.pres(l, "transform"), M(s: (s, s, s), theta: Double.pi * t), 1e-12), "t = \(t)")
        }
    }

    @Test("non-identity model: the animation replaces only its component")
    func nonIdentityModel() throws {
        var r = Rig()
        let l = quietLayer(&r)
        try r.e.set(layer: l, "transform", M(s: (2, 3, 4), t: (5, 7, 9)))
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.tick(0.5)
        #expect(near(r.pres(l, "transform"), M(s: (2, 3, 4), theta: Double.pi / 2, t: (5, 7, 9)), 1e-12))
        // The model itself is untouched.
        #expect(near(r.model(l, "transform"), M(s: (2, 3, 4), t: (5, 7, 9)), 0))
    }

    @Test("model changed while the animation runs: the next frame uses the new model")
    func modelChangedDuringAnimation() throws {
        var r = Rig()
        let l = quietLayer(&r)
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [2 * Double.pi], duration: 2))
        r.tick(0.25)
        #expect(near(r.pres(l, "transform"), M(theta: Double.pi / 4), 1e-12))
        // Identity -> translated (whole matrix).
        try r.e.set(layer: l, "transform", M(t: (10, 0, 0)))
        r.tick(0.5)
        #expect(near(r.pres(l, "transform"), M(theta: Double.pi / 2, t: (10, 0, 0)), 1e-12))
        // Back to the identity.
        try r.e.set(layer: l, "transform", I)
        r.tick(0.75)
        #expect(near(r.pres(l, "transform"), M(theta: 3 * Double.pi / 4), 1e-12))
        // Through a virtual key on the model (the other writer), and back.
        try r.e.set(layer: l, "transform.scale.x", [3])
        r.tick(1)
        #expect(near(r.pres(l, "transform"), M(s: (3, 1, 1), theta: Double.pi), 1e-12))
        try r.e.set(layer: l, "transform.scale.x", [1])
        r.tick(1.25)
        #expect(near(r.pres(l, "transform"), M(theta: 5 * Double.pi / 4), 1e-12))
        // A matrix that is the identity except for one element (m44 = 1 ± 0 is
        // still the identity; m34 is not).
        var p = I
        p[11] = -0.5
        try r.e.set(layer: l, "transform", p)
        r.tick(1.5)
        var expected = M(theta: 3 * Double.pi / 2)
        expected[11] = -0.5
        #expect(near(r.pres(l, "transform"), expected, 1e-12))
    }

    @Test("a reused layer slot starts from the identity model again")
    func reusedSlot() throws {
        var r = Rig()
        let a = quietLayer(&r)
        try r.e.set(layer: a, "transform", M(s: (2, 2, 2)))
        r.tick(0)   // the slot's presentation block holds the scale too
        #expect(near(r.pres(a, "transform"), M(s: (2, 2, 2)), 0))
        let slot = try #require(r.e.layerIndex(a))
        try r.e.destroyLayer(a)
        let b = r.layer()
        // The new layer really is in the destroyed layer's slot (else this test
        // checks nothing about reuse), under a new id.
        #expect(r.e.layerIndex(b) == slot)
        #expect(b != a && r.e.layerIndex(a) == nil)
        #expect(near(r.model(b, "transform"), I, 0))
        r.add(b, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.tick(0.5)
        #expect(near(r.pres(b, "transform"), M(theta: Double.pi / 2), 1e-12))
    }

    @Test("huge and non-finite values through the identity shortcut")
    func hugeAndNonFinite() throws {
        var r = Rig()
        // From -g to g (g the largest finite double): half way, -g + (g - -g) * 0.5
        // = -g + inf = +inf, which saturates at g (docs/decisions.md, Interpolation:
        // "Non-finite results never reach the presentation: ... an infinite one
        // saturates at ±DBL_MAX"; SEMANTICS.md is silent on it).
        let g = Double.greatestFiniteMagnitude
        let a = r.layer()
        r.add(a, r.basic("transform.scale", from: [-g], to: [g], duration: 1))
        let b = r.layer()
        r.add(b, r.basic("transform.rotation.z", from: [-g], to: [g], duration: 1))
        // A huge model scale under a rotation.
        let c = quietLayer(&r)
        try r.e.set(layer: c, "transform", M(s: (1e300, 1e300, 1e300)))
        r.add(c, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.tick(0.5)
        #expect(near(r.pres(a, "transform"), [g, 0, 0, 0, 0, g, 0, 0, 0, 0, g, 0, 0, 0, 0, 1], 0))
        #expect(near(r.pres(b, "transform"), M(theta: g), 1e-12))
        let got = r.pres(c, "transform"), want = M(s: (1e300, 1e300, 1e300), theta: Double.pi / 2)
        #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }, "\(got)")
    }

    @Test("sublayerTransform: identity and non-identity model, changed while running")
    func sublayerTransform() throws {
        var r = Rig()
        let l = quietLayer(&r)
        r.add(l, r.basic("sublayerTransform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.add(l, r.basic("sublayerTransform.scale", from: [1], to: [2], duration: 1))
        r.tick(0.5)
        #expect(near(r.pres(l, "sublayerTransform"), M(s: (1.5, 1.5, 1.5), theta: Double.pi / 2), 1e-12))
        #expect(near(r.pres(l, "transform"), I, 0))
        try r.e.set(layer: l, "sublayerTransform", M(t: (0, 4, 0)))
        r.tick(0.75)
        #expect(near(r.pres(l, "sublayerTransform"), M(s: (1.75, 1.75, 1.75), theta: 3 * Double.pi / 4, t: (0, 4, 0)), 1e-12))
        // The transform's own flag is independent of the sublayerTransform's.
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        try r.e.set(layer: l, "sublayerTransform", I)
        r.tick(1.25)
        // (Begun at 0.75, the time of the add: half way at 1.25.)
        #expect(near(r.pres(l, "transform"), M(theta: Double.pi / 2), 1e-12))
        #expect(near(r.pres(l, "sublayerTransform"), I, 0))
    }
}
