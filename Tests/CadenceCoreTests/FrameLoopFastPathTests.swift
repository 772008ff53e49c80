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
        // uncachedMask: refreshing those properties' cache fields changes
        // nothing; refreshing any other property changes its field.
        let e = Engine(salt: 2)
        let l = try! e.layerIndex(e.createLayer())!
        for p in LayerProperty.allCases {
            if p == .contents {
                e.presContents[l] = 77
            } else {
                // (values unlike the defaults; doubleSided defaults to 1)
                for k in 0..<p.count { e.pres[l * LayerProperty.stride + p.offset + k] = p == .doubleSided ? 0 : 0.25 + Double(k) }
            }
            let before = String(describing: e.cache[l]) + "\(e.layers[l].presHidden)"
            e.refreshVisualCacheBody(l, mask: p.bit)
            let after = String(describing: e.cache[l]) + "\(e.layers[l].presHidden)"
            #expect((before == after) == (LayerProperty.uncachedMask & p.bit != 0), "\(p)")
        }
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

    /// A virtual component animation whose value depends on the underlying one
    /// (SEMANTICS.md §5.1 `by` only: underlying → underlying + by; §5.2 additive:
    /// underlying + value) over a model that already has that component:
    ///
    ///     model = S(2, 3, 1) * Rz(0.2) * T(5, 7, 0)     (row vectors, §2.3)
    ///
    /// so rotation.z = 0.2 + 0.5·p at progress p, and the presentation is
    ///
    ///     [  2cosθ   2sinθ  0  0 ]
    ///     [ -3sinθ   3cosθ  0  0 ]     θ = 0.2 + 0.5·p
    ///     [  0       0      1  0 ]
    ///     [  5       7      0  1 ]
    ///
    /// The decomposition must start from the model every frame: decomposing last
    /// frame's value (still in the presentation block) would add the animation
    /// on top of itself and the angle would accumulate from tick to tick.
    @Test("a virtual component animation decomposes the model transform each frame")
    func virtualOverModel() {
        func composed(_ theta: Double) -> [Double] {
            let c = cos(theta), s = sin(theta)
            return [2 * c, 2 * s, 0, 0, -3 * s, 3 * c, 0, 0, 0, 0, 1, 0, 5, 7, 0, 1]
        }
        func close(_ got: [Double], _ want: [Double]) -> Bool {
            got.count == 16 && zip(got, want).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }
        }
        var r = Rig()
        let byOnly = r.layer(["transform": composed(0.2)])
        let additive = r.layer(["transform": composed(0.2)])
        r.add(byOnly, r.basic("transform.rotation.z", by: [0.5], duration: 1), key: "spin")
        var add = r.basic("transform.rotation.z", from: [0], to: [0.5], duration: 1)
        try! add.setAdditive(true)
        r.add(additive, add, key: "spin")
        for t in [0.25, 0.5, 0.625, 0.875] {
            r.tick(t)
            let want = composed(0.2 + 0.5 * t)   // linear: progress = t
            for (name, l) in [("by", byOnly), ("additive", additive)] {
                let got = r.pres(l, "transform")
                #expect(close(got, want), "\(name), t = \(t): \(got)")
                #expect(abs(r.pres1(l, "transform.rotation.z") - (0.2 + 0.5 * t)) <= 1e-12, "\(name), t = \(t)")
            }
        }
        for l in [byOnly, additive] {
            let idx = r.e.layerIndex(l)!
            #expect(!r.e.layers[idx].presTransformIdentity)
            #expect(close(r.model(l, "transform"), composed(0.2)))   // the model is untouched
        }
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

    /// `transform.scale` replaces all three scales (SEMANTICS.md §2.3): over a
    /// model scale (2, 3, 4) the result is scale(v, v, v), v = 0.9 + 0.2 p.
    @Test("scalar virtual from/to: transform.scale over a non-uniform model scale")
    func scalarScale() {
        var r = Rig()
        let l = r.layer(["transform": Transform3D.scale(2, 3, 4).elements])
        r.add(l, r.basic("transform.scale", from: [0.9], to: [1.1], duration: 2), key: "s")
        r.tick(0.5)
        let v = 0.9 + (1.1 - 0.9) * 0.25
        #expect(near(r.pres(l, "transform"), Transform3D.scale(v, v, v).elements, 1e-15))
    }

    /// Non-finite interpolated components: ±inf saturates; an overflowing
    /// (to - from) times progress 0 is the from value (docs/decisions.md,
    /// Interpolation; it was NaN, which kept the model's translation.x = 5).
    @Test("scalar virtual from/to: overflow saturates, progress 0 is the from value")
    func scalarNonFinite() {
        var r = Rig()
        let l = r.layer(["transform": Transform3D.translation(5, 6, 0).elements])
        r.add(l, r.basic("transform.translation.x", from: [-1e308], to: [1e308], duration: 1), key: "x")
        r.tick(0)   // progress 0: (to - from) = inf, inf * 0 read as 0
        #expect(r.pres(l, "transform") == Transform3D.translation(-1e308, 6, 0).elements)
        r.tick(0.5) // -1e308 + inf = +inf: saturates
        #expect(r.pres(l, "transform") == Transform3D.translation(.greatestFiniteMagnitude, 6, 0).elements)
    }

    /// Cubic position keyframes whose x differences overflow (the tangents do
    /// not: 1e308, 0, -1e308, computed at half scale); y follows Catmull-Rom
    /// through 0, 5, 10: at u = 1/2 of the first segment, h10·2.5 + h01·5 +
    /// h11·5 = 2.1875; x there is -½e308 + ⅛e308 + ½e308 - ⅛·0 = 1.25e307.
    /// (x used to be NaN between the keys and keep the model's 7.)
    @Test("keyframes on plain components: tangents that overflow in the subtraction, lane by lane")
    func keyframeBlockNaN() {
        var r = Rig()
        let l = r.layer(["position": [7, 8]])
        var s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
        try! s.setValues([-1e308, 0, 1e308, 5, -1e308, 10], count: 3, components: 2)
        try! s.setCalculationMode(.cubic)
        s.timing.duration = 1
        r.add(l, s, key: "k")
        r.tick(0)  // the first key itself (its tangent 1e308 times h10 = 0 was NaN)
        #expect(r.pres(l, "position") == [-1e308, 0])
        r.tick(0.25)
        let p = r.pres(l, "position")
        #expect(abs(p[0] - 1.25e307) <= 1e-15 * 1e308 && p[1] == 2.1875, "\(p)")
        // At the middle key (segment 1, u = 0): the keys' values.
        r.tick(0.5)
        #expect(r.pres(l, "position") == [1e308, 5])
        r.tick(1.5)  // after the end (removed on completion) the model shows
        #expect(r.pres(l, "position") == [7, 8])
    }

    /// Interpolated values that overflow: (to - from) = ±inf, so p = 0.25
    /// gives ±inf (saturates at ±DBL_MAX) and p = 0 at the start of the
    /// second cycle gives the from value (inf * 0 read as 0; it was NaN, which
    /// kept the model value), lane by lane. Such an animation is left to the
    /// general evaluator (`simpleInstance`), whose cold path knows the
    /// endpoints; the simple track's loop saturates values that overflow with
    /// a finite difference (an overshooting timing function).
    @Test("from/to whose difference overflows: ±inf saturates, progress 0 is from, per lane; the simple track saturates")
    func simpleTrackNonFinite() {
        var r = Rig()
        let l = r.layer(["position": [7, 9]])
        r.add(l, r.basic("position", from: [-1e308, 1e308], to: [1e308, -1e308], duration: 1) { s in
            s.timing.repeatCount = 2
        })
        r.tick(0)
        #expect(r.e.layers[r.e.layerIndex(l)!].simple < 0, "left to the general evaluator")
        r.tick(0.25)
        #expect(r.pres(l, "position") == [.greatestFiniteMagnitude, -.greatestFiniteMagnitude])
        r.tick(1.0)
        #expect(r.pres(l, "position") == [-1e308, 1e308])
        r.tick(1.5)
        #expect(r.pres(l, "position") == [.greatestFiniteMagnitude, -.greatestFiniteMagnitude])
        // A finite lane next to a non-finite one is written as computed.
        let m = r.layer(["position": [7, 9]])
        r.add(m, r.basic("position", from: [-1e308, 2], to: [1e308, 6], duration: 1) { s in
            s.timing.repeatCount = 2
        })
        // (added at the engine's time 1.5: it begins there)
        r.tick(2.0)       // m starts (slow path), p = 0.5
        #expect(r.pres(m, "position") == [.greatestFiniteMagnitude, 4])
        r.tick(2.5)       // m: second cycle, p = 0
        #expect(r.pres(m, "position") == [-1e308, 2])
        r.tick(2.75)
        #expect(r.pres(m, "position") == [.greatestFiniteMagnitude, 3])
        // On the simple track: 0 -> 1e308 and 0 -> 1 under the curve (0.25, 10,
        // 0.75, 1), whose eased progress at 0.25 is about 4.509: x = 4.5e308
        // overflows and saturates, y is the eased progress itself.
        let k = r.layer(["position": [7, 9]])
        r.add(k, r.basic("position", from: [0, 0], to: [1e308, 1], duration: 1) { s in
            s.setTimingCurve(TimingCurve(c1x: 0.25, c1y: 10, c2x: 0.75, c2y: 1)!)
        })
        // (added at the engine's time 2.75: it begins there)
        r.tick(2.875)
        #expect(r.e.layers[r.e.layerIndex(k)!].simple >= 0, "on the simple track")
        r.tick(3)
        let v = r.pres(k, "position")
        #expect(v[0] == .greatestFiniteMagnitude && near(v[1], bezierY(0.25, 10, 0.75, 1, at: 0.25), 1e-7), "\(v)")
    }
}
