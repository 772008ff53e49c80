import Foundation
import Testing
@testable import CadenceCore

/// The frame loop's shortcuts (literal constants, the deferred model → presentation
/// copy of transforms, scalar fast paths) against values worked out by hand.
@Suite("Frame-loop fast paths agree with closed forms")
struct FrameLoopFastPathTests {
    @Test("literal constants match the property table")
    func literals() {
        var geometry: UInt32 = 0
        for p in LayerProperty.allCases where p.isGeometry { geometry |= p.bit }
        #expect(LayerProperty.geometryMask == geometry)
        #expect(Engine.transformBase == LayerProperty.transform.offset)
        #expect(Engine.sublayerBase == LayerProperty.sublayerTransform.offset)
        #expect(Engine.transformBits == LayerProperty.transform.bit | LayerProperty.sublayerTransform.bit)
        #expect(Transform3D.identity == Transform3D(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)))
        #expect(TransformComponents.identity == TransformComponents(translation: .zero, scale: .one, rotation: .zero,
                                                                    perspective: SIMD4(0, 0, 0, 1)))
    }

    @Test("isIdentity: every element is checked, -0 counts as 0, NaN does not")
    func identityCheck() {
        #expect(Transform3D.identity.isIdentity)
        for k in 0..<16 {
            var m = Transform3D.identity
            m[k] += 0.5
            #expect(!m.isIdentity, "element \(k)")
            var n = Transform3D.identity
            n[k] = .nan
            #expect(!n.isIdentity, "element \(k) NaN")
        }
        var z = Transform3D.identity
        z.m12 = -0.0
        #expect(z.isIdentity)
    }

    /// A whole-matrix animation that starts from the underlying value (`to` only)
    /// reads the model transform through the presentation block: the deferred copy
    /// must happen every frame, not only the first (the previous frame's result is
    /// still in the block).
    @Test("a to-only transform animation starts from the model every frame")
    func toOnlyTransformReadsModel() {
        var r = Rig()
        let l = r.layer(["transform": Transform3D.translation(10, 0, 0).elements])
        let s = r.basic("transform", to: Transform3D.translation(20, 0, 0).elements, duration: 1)
        r.add(l, s, key: "m")
        for (t, x) in [(0.5, 15.0), (0.75, 17.5), (0.875, 18.75)] {
            r.tick(t)
            let m = r.pres(l, "transform")
            #expect(near(m, Transform3D.translation(x, 0, 0).elements, 1e-12), "t = \(t)")
        }
    }

    /// rotation.z over a non-identity model transform: the decomposition starts
    /// from the model (scale 2, translation (5, 7)), not from last frame's value.
    @Test("a virtual component animation decomposes the model transform each frame")
    func virtualOverModel() {
        var r = Rig()
        let model = Transform3D.scale(2, 2, 1) * Transform3D.translation(5, 7, 0)
        let l = r.layer(["transform": model.elements])
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [1], duration: 1), key: "spin")
        for t in [0.25, 0.5, 0.625] {
            r.tick(t)
            let a = t  // linear: angle = progress
            let c = cos(a), s = sin(a)
            let expected: [Double] = [2 * c, 2 * s, 0, 0, -2 * s, 2 * c, 0, 0, 0, 0, 1, 0, 5, 7, 0, 1]
            #expect(near(r.pres(l, "transform"), expected, 1e-12), "t = \(t)")
        }
        let idx = r.e.layerIndex(l)!
        #expect(!r.e.layers[idx].presTransformIdentity)
    }

    /// The identity flag comes from the value stored: a rotation of 0 over an
    /// identity model leaves the identity (the render fast path relies on it);
    /// a non-zero angle does not.
    @Test("identity flags follow the composed transform")
    func identityFlags() {
        var r = Rig()
        let a = r.layer()
        let b = r.layer()
        r.add(a, r.basic("transform.rotation.z", from: [0], to: [0], duration: 1), key: "zero")
        r.add(b, r.basic("transform.rotation.z", from: [0], to: [1], duration: 1), key: "spin")
        r.tick(0.5)
        let ia = r.e.layerIndex(a)!, ib = r.e.layerIndex(b)!
        #expect(r.e.layers[ia].presTransformIdentity)
        #expect(!r.e.layers[ib].presTransformIdentity)
        #expect(r.e.layers[ib].presSublayerIdentity)
        #expect(near(r.pres(b, "transform.rotation.z")[0], 0.5, 1e-15))
    }
}
