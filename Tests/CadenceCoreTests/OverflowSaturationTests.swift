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

    /// The frame loop's flat copy of a small cubic track (position, two
    /// lanes): x through −1e308, 1e308, −1e308 as above; y through 0, 5, 10
    /// (tangents 2.5, 5, 2.5): at u = ½ of segment 0, ⅛·2.5 + ½·5 − ⅛·5 = 2.1875.
    @Test("cubic position keyframes near ±1e308 in the frame loop")
    func cubicKeyframesInTheFrameLoop() {
        var r = Rig()
        let l = r.layer(["position": [7, 8]])
        var s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
        try! s.setValues([-1e308, 0, 1e308, 5, -1e308, 10], count: 3, components: 2)
        try! s.setCalculationMode(.cubic)
        s.timing.duration = 1
        r.add(l, s, key: "k")
        r.tick(0)
        #expect(r.pres(l, "position") == [-1e308, 0])
        r.tick(0.25)
        let p = r.pres(l, "position")
        #expect(abs(p[0] - 1.25e307) <= 1e-15 * 1e308 && p[1] == 2.1875, "\(p)")
        r.tick(0.5)
        #expect(r.pres(l, "position") == [1e308, 5])
    }
}
