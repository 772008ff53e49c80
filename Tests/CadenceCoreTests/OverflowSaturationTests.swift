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
}
