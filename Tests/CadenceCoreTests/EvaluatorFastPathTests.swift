import Foundation
import Testing
@testable import CadenceCore

/// The evaluator's shortcuts (the cached keyframe segment, ...) against values
/// worked out by hand, including the points where the shortcut must hand over
/// to the general code.
@Suite("Evaluator fast paths agree with hand-worked values")
struct EvaluatorFastPathTests {
    /// (p, segment, local) by hand for key times [0, 0.25, 0.5, 1]:
    /// segment j has kt[j] <= p < kt[j+1] (the later segment at a key time, the
    /// last one at p = 1); local = (p - kt[j]) / (kt[j+1] - kt[j]); outside [0, 1]
    /// the end segments extrapolate; NaN is 0.
    static let handWorked: [(Double, Int, Double)] = [
        (0, 0, 0), (0.1, 0, 0.4), (0.25, 1, 0), (0.375, 1, 0.5), (0.5, 2, 0),
        (0.75, 2, 0.5), (1, 2, 1), (1.5, 2, 2), (-0.5, 0, -2), (.nan, 0, 0),
    ]

    @Test("locate with a segment hint: same result for every hint, hint updated")
    func hintedLocate() throws {
        let track = try KeyframeTrack(values: [0, 1, 2, 3], components: 1, keyTimes: [0, 0.25, 0.5, 1], mode: .linear,
                                      tension: nil, continuity: nil, bias: nil)
        for (p, seg, local) in Self.handWorked {
            #expect(track.locate(p).segment == seg, "unhinted p = \(p)")
            for h in [-7, -1, 0, 1, 2, 3, 4, 99] {
                var hint = h
                let r = track.locate(p, hint: &hint)
                #expect(r.segment == seg, "p = \(p), hint \(h)")
                #expect(r.local == local, "p = \(p), hint \(h): \(r.local)")
                #expect(hint == seg, "p = \(p), hint \(h) -> \(hint)")
            }
        }
    }

    /// Zero-width segments: at a repeated key time the last segment starting
    /// there is chosen (u = 0); a zero-width last segment is chosen only at
    /// p = 1 with u = 1... here [0, 0.5, 1, 1] clamps p = 1 to segment 2, u = 1.
    @Test("locate with a hint across zero-width segments")
    func hintedLocateZeroWidth() throws {
        let a = try KeyframeTrack(values: [0, 1, 2, 3], components: 1, keyTimes: [0, 0.5, 0.5, 1], mode: .linear,
                                  tension: nil, continuity: nil, bias: nil)
        let b = try KeyframeTrack(values: [0, 1, 2, 3], components: 1, keyTimes: [0, 0.5, 1, 1], mode: .linear,
                                  tension: nil, continuity: nil, bias: nil)
        let cases: [(KeyframeTrack, Double, Int, Double)] = [
            (a, 0.25, 0, 0.5), (a, 0.5, 2, 0), (a, 0.75, 2, 0.5), (a, 1, 2, 1),
            (b, 0.25, 0, 0.5), (b, 0.75, 1, 0.5), (b, 1, 2, 1), (b, 0.5, 1, 0),
        ]
        for (track, p, seg, local) in cases {
            for h in [0, 1, 2, 3] {
                var hint = h
                let r = track.locate(p, hint: &hint)
                #expect(r.segment == seg && r.local == local, "p = \(p), hint \(h): \(r)")
                #expect(hint == seg)
            }
        }
    }

    /// Tracks the shortcut does not cover (discrete) give the plain answer.
    @Test("locate with a hint on a discrete track")
    func hintedLocateDiscrete() throws {
        let track = try KeyframeTrack(values: [5, 6, 7], components: 1, keyTimes: [0, 0.4, 1], mode: .discrete,
                                      tension: nil, continuity: nil, bias: nil)
        for (p, j) in [(0.0, 0), (0.39, 0), (0.4, 1), (0.99, 1), (1.0, 2)] {
            for h in [0, 1, 2] {
                var hint = h
                #expect(track.locate(p, hint: &hint).segment == j, "p = \(p), hint \(h)")
            }
        }
    }

    /// A repeating keyframe animation moves forward through its segments, then
    /// wraps back to segment 0 at each repeat; with autoreverses it also walks
    /// backwards. Values: x = [0, 10, 30, 60, 100] at even key times, y = -x.
    @Test("keyframe animation values across segments, repeats and reversal")
    func keyframeAcrossSegments() {
        let xs: [Double] = [0, 10, 30, 60, 100]
        func expected(_ p: Double) -> Double {
            // Segment j = floor(4p) (clamped to 3), local = 4p - j, linear.
            let j = min(Int((4 * p).rounded(.down)), 3)
            let u = 4 * p - Double(j)
            return xs[j] + (xs[j + 1] - xs[j]) * u
        }
        for reverses in [false, true] {
            var r = Rig()
            let l = r.layer()
            var s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
            try! s.setValues(xs.flatMap { [$0, -$0] }, count: 5, components: 2)
            s.timing.duration = 1
            s.timing.repeatCount = .infinity
            s.timing.autoreverses = reverses
            r.add(l, s, key: "k")
            let times: [Double] = [0.1, 0.25, 0.3, 0.6, 0.75, 0.9, 0.99, 1.05, 1.25, 1.6, 2.5, 2.75, 3.4, 3.55]
            var now = 0.0
            for t in times where t > now {
                now = t
                r.tick(t)
                // Progress: t mod 1, mirrored on odd cycles when reversing.
                let cycle = (t).rounded(.down)
                var p = t - cycle
                if reverses && Int(cycle) % 2 == 1 { p = 1 - p }
                let v = r.pres(l, "position")
                #expect(near(v, [expected(p), -expected(p)], 1e-9), "reverses \(reverses), t = \(t): \(v)")
            }
        }
    }

    /// The first animation record of a layer.
    static func firstInstance(_ r: Rig, _ l: UInt64) -> Instance {
        r.e.inst.items[Int(r.e.layers[r.e.layerIndex(l)!].firstAnim)]
    }

    /// Small keyframe tracks are copied flat into the instance's value slots
    /// and evaluated from there. By hand, Catmull-Rom x = [0, 10, 30, 60] at
    /// even key times (segments of 1/3): tangents (Δin + Δout) / 2 with
    /// duplicated ends = [5, 15, 25, 15]; value = h00 v_j + h10 m_j + h01 v_j+1
    /// + h11 m_j+1. p = 0.1: j = 0, u = 0.3, h = (0.784, 0.147, 0.216, -0.063)
    /// -> 1.95; p = 0.5: j = 1, u = 0.5, h = (0.5, 0.125, 0.5, -0.125) -> 18.75;
    /// p = 0.9: j = 2, u = 0.7, h = (0.216, 0.063, 0.784, -0.147) ->
    /// 6.48 + 1.575 + 47.04 - 2.205 = 52.89. y = 2x. Cumulative: + 60 (and
    /// + 120 for y) per completed cycle. Times jump over whole segments (the
    /// flat shortcut misses and the runtime object answers) and walk through
    /// them (the shortcut answers).
    @Test("small keyframe tracks evaluated from the flat copy: cubic, cumulative, jumps")
    func flatCubicKeyframes() {
        var r = Rig()
        let l = r.layer()
        var s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
        let xs: [Double] = [0, 10, 30, 60]
        try! s.setValues(xs.flatMap { [$0, 2 * $0] }, count: 4, components: 2)
        try! s.setCalculationMode(.cubic)
        s.timing.duration = 1
        s.timing.repeatCount = .infinity
        try! s.setCumulative(true)
        r.add(l, s, key: "k")
        let it = Self.firstInstance(r, l)
        #expect(it.kfCount == 4 && it.kfCubic, "flat copy of the track")
        let byHand: [(Double, Double)] = [
            (0.1, 1.95), (0.5, 18.75), (0.9, 52.89),        // walking through
            (1.1, 61.95), (2.9, 172.89), (3.5, 198.75),     // jumps over segments
            (3.9, 232.89), (4.1, 241.95),
        ]
        for (t, x) in byHand {
            r.tick(t)
            let v = r.pres(l, "position")
            #expect(near(v, [x, 2 * x], 1e-9), "t = \(t): \(v), expected \([x, 2 * x])")
        }
    }

    /// Paced key times by distance: x = [0, 10, 40] -> [0, 0.25, 1]; p = 0.5:
    /// segment 1, u = 1/3 -> 20; p = 0.125 -> 5. A track with a segment timing
    /// function in effect, and one too large for the value slots (20 values of
    /// 4 components), are not copied and still give the hand-worked values.
    @Test("flat copy: paced tracks; segment timing and large tracks keep the runtime object")
    func flatKeyframeEligibility() {
        var r = Rig()
        let paced = r.layer()
        var s = try! AnimationSpec(kind: .keyframe, keyPath: "opacity")
        try! s.setValues([0, 10, 40], count: 3, components: 1)
        try! s.setCalculationMode(.paced)
        s.timing.duration = 1
        r.add(paced, s, key: "p")
        #expect(Self.firstInstance(r, paced).kfCount == 3 && !Self.firstInstance(r, paced).kfCubic)

        // easeIn on the only segment: x(t) solved by bisection here, y = bezier y.
        let timed = r.layer()
        var s2 = try! AnimationSpec(kind: .keyframe, keyPath: "opacity")
        try! s2.setValues([0, 8], count: 2, components: 1)
        try! s2.setSegmentCurves([.easeIn])
        s2.timing.duration = 1
        r.add(timed, s2, key: "e")
        #expect(Self.firstInstance(r, timed).kfCount == 0)

        // 20 values x 4 components = 100 doubles > 64 value slots: x_k = k, (k, 2k, 3k, 4k).
        let large = r.layer()
        var s3 = try! AnimationSpec(kind: .keyframe, keyPath: "backgroundColor")
        try! s3.setValues((0..<20).flatMap { k in [1, 2, 3, 4].map { Double(k * $0) / 100 } }, count: 20, components: 4)
        s3.timing.duration = 1
        r.add(large, s3, key: "c")
        #expect(Self.firstInstance(r, large).kfCount == 0)

        func easeInAt(_ x: Double) -> Double {
            // Bezier (0.42, 0, 1, 1): x(s) = 3(1-s)^2 s 0.42 + 3(1-s) s^2 + s^3, y(s) = 3(1-s)s^2 + s^3.
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 {
                let m = (lo + hi) / 2
                let xm = 3 * (1 - m) * (1 - m) * m * 0.42 + 3 * (1 - m) * m * m + m * m * m
                if xm < x { lo = m } else { hi = m }
            }
            let m = (lo + hi) / 2
            return 3 * (1 - m) * m * m + m * m * m
        }
        for (t, pacedValue) in [(0.125, 5.0), (0.5, 20.0), (0.75, 30.0)] {
            r.tick(t)
            #expect(near(r.pres1(paced, "opacity"), pacedValue, 1e-12), "paced at \(t)")
            #expect(near(r.pres1(timed, "opacity"), 8 * easeInAt(t), 1e-7), "segment timing at \(t)")
            // 19 segments of 1/19: p = t -> j = floor(19 t), value = 19 t * (1, 2, 3, 4) / 100.
            let c = r.pres(large, "backgroundColor")
            #expect(near(c, [1, 2, 3, 4].map { 19 * t * $0 / 100 }, 1e-12), "large at \(t): \(c)")
        }
    }

    /// §3.3's iteration is floor(snap(t / c)): a time within 1e-12 (relative)
    /// of a cycle boundary belongs to the next cycle. With autoreverses the
    /// cycle is 2d, and just before its end the general sampler says
    /// (iteration 1, cycle time 0, progress 0), i.e. exactly `from`. The simple
    /// track (one from/to animation on the layer) must say the same, not a
    /// mirrored progress of about 1e-13.
    @Test func simpleTrackSnapsAtTheCycleEndLikeTheGeneralSampler() {
        let d = 0.75
        let t = 2 * d * (1 - 1e-13)           // within the snap of the cycle end 2d
        var r = Rig()
        let l = r.layer(["opacity": [1]])
        r.add(l, r.basic("opacity", from: [0.25], to: [0.75], duration: d) { s in
            s.timing.autoreverses = true
            s.timing.repeatCount = .infinity
        }, key: "pulse")
        #expect(r.e.layers[r.e.layerIndex(l)!].simple >= 0, "the animation is on the simple track")
        r.tick(t)
        #expect(r.pres1(l, "opacity") == 0.25, "at \(t): \(r.pres1(l, "opacity"))")
    }

    /// Both samplers: a tick a rounding below the end of a whole repeat count
    /// (2.558 − 0.558 = 1.9999999999999998, D = 2) shows the end of the last
    /// cycle, not the start of a cycle that does not exist.
    @Test func bothSamplersKeepTheLastCycleAtARoundingBelowTheEnd() {
        var r = Rig()
        r.tick(0.558)
        let simple = r.layer(["opacity": [1]])
        let general = r.layer(["opacity": [1]])
        let spec = r.basic("opacity", from: [0], to: [1], duration: 1) { s in s.timing.repeatCount = 2 }
        r.add(simple, spec, key: "fade")
        r.add(general, spec, key: "fade")
        r.add(general, r.basic("zPosition", from: [0], to: [1], duration: 10), key: "other")
        #expect(r.e.layers[r.e.layerIndex(simple)!].simple >= 0, "one animation: the simple track")
        #expect(r.e.layers[r.e.layerIndex(general)!].simple < 0, "two animations: the general path")
        r.tick(2.558)
        let a = 2.558 - 0.558          // active time, one ulp below 2
        #expect(r.pres1(simple, "opacity") == a - 1)
        #expect(r.pres1(general, "opacity") == a - 1)
    }

    /// §5.1: the underlying value is the model value at every sample, and §2:
    /// animating a sub-key changes only that component. While a simple-track
    /// entry animates position.x, a model change of position.y shows at once,
    /// before and after the next tick, in the presentation and the render list.
    @Test func aSubKeyEntryLetsModelChangesOfTheOtherComponentsThrough() throws {
        var r = Rig()
        r.tick(1)
        let l = r.layer(["position": [18, 9], "backgroundColor": [0.5, 0.5, 0.5, 1]])
        try r.e.setActionsEnabled(layer: l, false)
        r.add(l, r.basic("position.x", from: [-50], to: [-20], duration: 2), key: "px")
        #expect(r.e.layers[r.e.layerIndex(l)!].simple >= 0, "one animation: the simple track")
        r.tick(1.5)
        try r.e.set(layer: l, "position.y", [94])
        // x = -50 + 30 * 0.25 at 1.5; y is the model's.
        #expect(r.pres(l, "position") == [-42.5, 94])
        r.tick(2)
        #expect(r.pres(l, "position") == [-35, 94])
        var buf = [RenderItem](repeating: RenderItem(), count: 2)
        var span = buf.mutableSpan
        #expect(try r.e.renderList(root: l, into: &span) == 1)
        #expect(buf[0].world.12 == -35 && buf[0].world.13 == 94)
        try r.e.set(layer: l, "position", [0, 7])
        r.tick(2.5)
        #expect(r.pres(l, "position") == [-27.5, 7])

        // The same for a colour component (a visual property: the render cache too).
        let c = r.layer(["backgroundColor": [0.5, 0.5, 0.5, 1]])
        try r.e.setActionsEnabled(layer: c, false)
        r.add(c, r.basic("backgroundColor.r", from: [0], to: [1], duration: 2), key: "red")
        r.tick(3)
        try r.e.set(layer: c, "backgroundColor.g", [0.25])
        r.tick(3.5)
        // Added at 2.5: r = 1 / 2 at 3.5; g is the model's.
        #expect(r.pres(c, "backgroundColor") == [0.5, 0.25, 0.5, 1])
        span = buf.mutableSpan
        #expect(try r.e.renderList(root: c, into: &span) == 1)
        #expect(buf[0].backgroundColor.0 == 0.5 && buf[0].backgroundColor.1 == 0.25)
    }

    /// docs/decisions.md "Cycle boundaries": a time within 1e-12 (relative) of
    /// a whole number of cycles is at that boundary — the first one too.
    /// Duration 0.5, repeating for ever, begun at 0.01: at 0.5099999999999999
    /// the active time is 0.4999999999999999 (t / c = 0.9999999999999998), the
    /// start of cycle 1: the from value, as one ulp below the later boundaries.
    @Test func theFirstCycleBoundarySnapsLikeTheOthers() {
        var r = Rig()
        r.tick(0.01)
        let simple = r.layer(["position": [0, 0]])
        let general = r.layer(["position": [0, 0]])
        let spec = r.basic("position.x", from: [0], to: [100], duration: 0.5) { s in s.timing.repeatCount = .infinity }
        r.add(simple, spec, key: "x")
        r.add(general, spec, key: "x")
        r.add(general, r.basic("zPosition", from: [0], to: [1], duration: 10), key: "other")
        #expect(r.e.layers[r.e.layerIndex(simple)!].simple >= 0)
        #expect(r.e.layers[r.e.layerIndex(general)!].simple < 0)
        // Outside the snap (1e-9 before the boundary) the cycle is still the first.
        let t2 = 0.51 - 1e-9
        r.tick(t2)
        #expect(r.pres1(simple, "position.x") == 100 * ((t2 - 0.01) / 0.5))
        #expect(r.pres1(general, "position.x") == 100 * ((t2 - 0.01) / 0.5))
        let t1 = 0.5099999999999999
        #expect((t1 - 0.01) / 0.5 < 1 && 1 - (t1 - 0.01) / 0.5 < 1e-12)
        r.tick(t1)
        #expect(r.pres1(simple, "position.x") == 0)
        #expect(r.pres1(general, "position.x") == 0)
    }
}
