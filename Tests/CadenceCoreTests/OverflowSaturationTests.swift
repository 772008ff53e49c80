#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// Overflow on the way to a result (audit 45). docs/decisions.md promises that
/// values saturate at ±DBL_MAX and render-list floats at ±FLT_MAX; an
/// intermediate that overflowed to ±inf used to meet a zero (inf·0) or its
/// opposite (inf − inf) and make NaN, which the engine reads as "keep the
/// underlying value": the host saw the model value, or a zero world matrix.
/// Expected values are worked by hand below (M = DBL_MAX =
/// 1.7976931348623157e308, F = FLT_MAX).
@Suite("Overflow on the way to a result saturates (audit 45)")
struct OverflowSaturationTests: PlainMatrices {
    let M = Double.greatestFiniteMagnitude
    let F = Float.greatestFiniteMagnitude

    // MARK: D1, basic interpolation (§5.1 start + (end − start)·e, literally)

    /// from −1e308 to 1e308: end − start = 2e308 overflows to +inf. At e = 0
    /// the value is the start, −1e308 (inf·0 read as 0), also in a backwards
    /// fill; inside the animation −1e308 + inf saturates at +M; at the end
    /// (e = 1, forwards fill) it is `to`. A single from/to on a plain
    /// component (the simple track's kind) and the same animation beside a
    /// second one (the general evaluator) agree.
    @Test("from/to whose difference overflows: start at e = 0, saturated inside, end at e = 1")
    func fromToOverflow() {
        var r = Rig()
        let single = r.layer(["position": [7, 9]])
        let general = r.layer(["position": [7, 9]])
        let spec = r.basic("position.x", from: [-1e308], to: [1e308], duration: 1) { s in
            s.timing.beginTime = 1
            s.timing.fillMode = .both
            s.removedOnCompletion = false
        }
        r.add(single, spec, key: "x")
        r.add(general, spec, key: "x")
        r.add(general, r.basic("opacity", from: [0], to: [1], duration: 10), key: "o")
        // (t, expected x): backwards fill (e = 0), begin (e = 0), middle, forwards fill (e = 1).
        for (t, x) in [(0.5, -1e308), (1.0, -1e308), (1.5, M), (2.5, 1e308)] {
            r.tick(t)
            #expect(r.pres(single, "position") == [x, 9], "t = \(t)")
            #expect(r.pres(general, "position") == [x, 9], "t = \(t)")
        }
    }

    /// The same for a spring (progress 0 at its start), two components, a
    /// colour and a virtual transform component (scalar and two-lane): at the
    /// start every lane shows its `from`.
    @Test("springs, points, colours and transform components start at their from value")
    func otherKindsStartAtFrom() {
        var r = Rig()
        let a = r.layer(["position": [7, 9]])
        var sp = try! AnimationSpec(kind: .spring, keyPath: "position.x")
        try! sp.setEndpoint(.from, ValueBuffer(-M))
        try! sp.setEndpoint(.to, ValueBuffer(M))
        sp.timing.duration = 1
        r.add(a, sp, key: "s")
        let b = r.layer(["position": [7, 9]])
        r.add(b, r.basic("position", from: [-M, 1], to: [M, 2], duration: 1), key: "p")
        let c = r.layer(["backgroundColor": [0.7, 0.7, 0.7, 0.7]])
        r.add(c, r.basic("backgroundColor", from: [-M, 0, 0, 0], to: [M, 1, 1, 1], duration: 1), key: "c")
        let d = r.layer(["transform": Transform3D.translation(5, 6, 0).elements])
        r.add(d, r.basic("transform.translation", from: [-M, 1], to: [M, 2], duration: 1), key: "t")
        r.tick(0)
        #expect(r.pres(a, "position") == [-M, 9])
        #expect(r.pres(b, "position") == [-M, 1])
        #expect(r.pres(c, "backgroundColor") == [-M, 0, 0, 0])
        #expect(r.pres(d, "transform") == Transform3D.translation(-M, 1, 0).elements)
        r.tick(0.5)
        // −M + inf = +inf saturates; the other lanes interpolate: 1 + (2 − 1)·0.5.
        #expect(r.pres(b, "position") == [M, 1.5])
        #expect(r.pres(d, "transform") == Transform3D.translation(M, 1.5, 0).elements)
    }

    /// Endpoints that overflow saturate first. by 1e308, to −1e308: start =
    /// to − by = −2e308 → −M; then start + (end − start)·e with end − start =
    /// −1e308 + M = 7.976931348623157e307 (finite):
    ///   e = 0: −M;  e = 0.5: −M + 3.9884656743115785e307 = −1.398846567431158e308;  e = 1: −1e308.
    /// from 1e308, by 1e308: end = 2e308 → M; e = 0: 1e308; e = 0.5:
    /// 1e308 + (M − 1e308)·0.5 = 1.398846567431158e308; e = 1: M.
    @Test("to − by and from + by beyond the largest double saturate before interpolating")
    func overflowingEndpointsSaturate() {
        var r = Rig()
        let a = r.layer(["position": [7, 9]])
        r.add(a, r.basic("position.x", to: [-1e308], by: [1e308], duration: 1) { s in s.timing.fillMode = .forwards; s.removedOnCompletion = false })
        let b = r.layer(["position": [7, 9]])
        r.add(b, r.basic("position.x", from: [1e308], by: [1e308], duration: 1) { s in s.timing.fillMode = .forwards; s.removedOnCompletion = false })
        r.tick(0)
        #expect(r.pres1(a, "position.x") == -M)
        #expect(r.pres1(b, "position.x") == 1e308)
        r.tick(0.5)
        #expect(r.pres1(a, "position.x") == -1.398846567431158e308)
        #expect(r.pres1(b, "position.x") == 1.398846567431158e308)
        r.tick(1)
        #expect(r.pres1(a, "position.x") == -1e308)
        #expect(r.pres1(b, "position.x") == M)
    }

    /// Cumulative from −1e308 to 1e308, 3 cycles: cycle 1 starts at −1e308;
    /// cycle 2 at from + (to − from)·1 = −1e308 + inf, which saturates at +M
    /// (§5.2 evaluated literally, as the interpolation is). Additive: the
    /// underlying 7 is added to the start, −1e308 + 7 = −1e308.
    @Test("cumulative and additive animations whose difference overflows")
    func cumulativeAndAdditive() {
        var r = Rig()
        let a = r.layer(["position": [7, 9]])
        r.add(a, r.basic("position.x", from: [-1e308], to: [1e308], duration: 1) { s in
            s.timing.repeatCount = 3
            s.cumulative = true
        }, key: "c")
        let b = r.layer(["position": [7, 9]])
        r.add(b, r.basic("position.x", from: [-1e308], to: [1e308], duration: 1) { s in s.additive = true }, key: "a")
        r.tick(0)
        #expect(r.pres1(a, "position.x") == -1e308)
        #expect(r.pres1(b, "position.x") == -1e308)
        r.tick(1)
        #expect(r.pres1(a, "position.x") == M)
    }

    // MARK: D2, cubic keyframes near ±1e308

    func cubicTrack(_ v: [Double], mode: CalculationMode = .cubic, tension: [Double]? = nil) -> KeyframeTrack {
        try! KeyframeTrack(values: v, components: 1, keyTimes: nil, mode: mode, tension: tension, continuity: nil, bias: nil)
    }

    func value(_ t: KeyframeTrack, _ p: Double) -> Double {
        let loc = t.locate(p)
        var out = [0.0]
        t.value(segment: loc.segment, local: loc.local, into: &out, at: 0)
        return out[0]
    }

    /// Catmull-Rom through −1e308, 1e308 (ends duplicated): both tangents are
    /// (1e308 − (−1e308))/2 = 1e308, representable although the difference is
    /// not. Hermite at u: h00 p0 + h10 m0 + h01 p1 + h11 m1 with
    /// u = 1/4: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = −0.046875:
    /// (−0.84375 + 0.140625 + 0.15625 − 0.046875)·1e308 = −0.59375e308.
    /// Through −1e308, 1e308, −1e308: tangents 1e308, 0 (½·2e308 + ½·(−2e308)),
    /// −1e308; segment 0 at u = ½ (h = ½, ⅛, ½, −⅛): −½e308 + ⅛e308 + ½e308 = 1.25e307.
    @Test("cubic tangents of values near ±1e308 are exact; the spline is finite")
    func cubicTangentsNearTheLimit() {
        let two = cubicTrack([-1e308, 1e308])
        #expect(value(two, 0) == -1e308)
        #expect(abs(value(two, 0.25) - -5.9375e307) <= 1e-15 * 1e308)
        #expect(value(two, 0.5) == 0)
        #expect(value(two, 1) == 1e308)
        let three = cubicTrack([-1e308, 1e308, -1e308])
        #expect(abs(value(three, 0.25) - 1.25e307) <= 1e-15 * 1e308)
        #expect(value(three, 0.5) == 1e308)
        #expect(value(three, 1) == -1e308)
        // cubicPaced over them: the arc length overflows, so the keys are
        // spaced evenly (the cubic curve above).
        let paced = cubicTrack([-1e308, 1e308, -1e308], mode: .cubicPaced)
        #expect(abs(value(paced, 0.25) - 1.25e307) <= 1e-15 * 1e308)
        #expect(value(paced, 0.5) == 1e308)
    }

    /// A tangent beyond the largest double saturates: tension −3 gives weights
    /// (1 − t)/2 = 2, so m0 = 2·0 + 2·2e308 = 4e308 → M. The curve still passes
    /// through its keys (h10 = 0 there: 0·M = 0, where 0·inf was NaN).
    @Test("a cubic tangent beyond the largest double saturates; keys are exact")
    func cubicTangentSaturates() {
        let t = cubicTrack([-1e308, 1e308], tension: [-3, -3])
        #expect(value(t, 0) == -1e308)
        #expect(value(t, 1) == 1e308)
        #expect(value(t, 0.5).isFinite)
    }

    // (The frame loop's flat copy of such a track: FrameLoopFastPathTests,
    // "keyframes on plain components".)

    // MARK: D3, cumulative whole-matrix animations

    /// from I to S(2, 2, 2), cumulative, repeating: cycle i at e = ½ is
    /// S(1.5)·S(2)^i (§5.2, transforms accumulate by concatenation). i = 1000:
    /// 1.5·2^1000 = 1.607262910779401e301 on the diagonal; i = 1100: 1.5·2^1100
    /// is beyond M, so the diagonal saturates at M; off-diagonal stays 0, m44 1.
    @Test("a cumulative scale whose accumulated value overflows saturates")
    func cumulativeScaleSaturates() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("transform", from: I, to: S(2, 2, 2), duration: 1) { s in
            s.timing.repeatCount = .infinity
            s.cumulative = true
        }, key: "k")
        r.tick(1000.5)
        let d = 1.5 * 0x1p1000
        #expect(r.pres(l, "transform") == S(d, d, d))
        r.tick(1100.5)
        #expect(r.pres(l, "transform") == S(M, M, M))
    }

    /// from I to T(1e308, 0, 0), cumulative: cycle 2 at e = ½ translates by
    /// 0.5e308 + 2·1e308 = 2.5e308 → M.
    @Test("a cumulative translation whose accumulated value overflows saturates")
    func cumulativeTranslationSaturates() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("transform", from: I, to: T(1e308, 0, 0), duration: 1) { s in
            s.timing.repeatCount = .infinity
            s.cumulative = true
        }, key: "k")
        r.tick(2.5)
        #expect(r.pres(l, "transform") == T(M, 0, 0))
    }

    // MARK: D4, world matrices of deep trees

    func floats(_ it: RenderItem?) -> [Float] { it?.worldElements ?? [] }

    /// A chain of four layers with transform.scale 1e300 (zero bounds, zero
    /// positions: local = S(1e300)): world scale 1e300, 1e600, 1e900, 1e1200.
    /// Every level beyond float range shows F on the diagonal, m44 = 1, zeros
    /// elsewhere (the fourth used to be all zero: inf·0 = NaN two levels down).
    /// A list rendered from the third layer gives the same bytes for it.
    @Test("deep huge scales: every level saturates at FLT_MAX, in full and subtree lists")
    func deepScalesSaturate() throws {
        var r = Rig()
        var ls: [UInt64] = []
        for _ in 0..<4 {
            let l = r.layer()
            try r.e.set(layer: l, "transform.scale", [1e300])
            if let p = ls.last { try r.e.addSublayer(p, l) }
            ls.append(l)
        }
        r.tick(0)
        let want: [Float] = [F, 0, 0, 0, 0, F, 0, 0, 0, 0, F, 0, 0, 0, 0, 1]
        for _ in 0..<2 {   // the first list computes every world, the second reads cached ones
            let items = try render(&r, ls[0])
            #expect(items.count == 4)
            for l in ls { #expect(floats(item(items, l)) == want) }
        }
        let sub = try render(&r, ls[2])
        #expect(sub.count == 2)
        for l in ls[2...] { #expect(floats(item(sub, l)) == want) }
    }

    /// An element whose value is undefined after saturation becomes 0 (as NaN
    /// does in the render list), without spreading to the rest of the matrix.
    /// W0 = R0 = rows (1e300, 1e300, 0, 0), e2, e3, e4.
    /// W1 = S(1e300, 1e300, 1)·W0: r1 = (1e600, 1e600) → (M, M, 0, 0); r2 = (0, 1e300, 0, 0).
    /// W2 = R2·W1, R2 r1 = (1e300, −1e300, 0, 0): r1 = (1e300·M, 1e300·M − 1e300·1e300)
    /// = (inf, inf − inf) → (M, 0, 0, 0); r2 = (0, 1e300, 0, 0); r3, r4 = e3, e4.
    /// W3 = S(1, 1, 2)·W2: r1 = (M, 0, 0, 0), r2 = (0, 1e300, 0, 0), r3 = (0, 0, 2, 0).
    /// (The true m12 of W2 is about 1e900: "undefined" is the saturated
    /// matrices' view, docs/decisions.md.)
    @Test("an element undefined after saturation (inf − inf) is 0; the rest of the matrix survives")
    func undefinedElementIsZero() throws {
        var r = Rig()
        let l0 = r.layer(), l1 = r.layer(), l2 = r.layer(), l3 = r.layer()
        try r.e.set(layer: l0, "transform", [1e300, 1e300, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        try r.e.set(layer: l1, "transform", S(1e300, 1e300, 1))
        try r.e.set(layer: l2, "transform", [1e300, -1e300, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        try r.e.set(layer: l3, "transform", S(1, 1, 2))
        try r.e.addSublayer(l0, l1)
        try r.e.addSublayer(l1, l2)
        try r.e.addSublayer(l2, l3)
        r.tick(0)
        let items = try render(&r, l0)
        #expect(floats(item(items, l1)) == [F, F, 0, 0, 0, F, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(floats(item(items, l2)) == [F, 0, 0, 0, 0, F, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(floats(item(items, l3)) == [F, 0, 0, 0, 0, F, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1])
        let sub = try render(&r, l3)
        #expect(floats(item(sub, l3)) == [F, 0, 0, 0, 0, F, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1])
    }
}
