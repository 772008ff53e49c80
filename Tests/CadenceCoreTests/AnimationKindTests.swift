#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

@Suite("Keyframe, path, spring, group and transition animations on layers (§6–§9)")
struct AnimationKindTests {
    func keyframes(_ r: inout Rig, _ keyPath: String, _ values: [[Double]], keyTimes: [Double]? = nil,
                   mode: CalculationMode = .linear, duration: Double) -> AnimationSpec {
        var s = try! AnimationSpec(kind: .keyframe, keyPath: keyPath)
        try! s.setValues(values.flatMap { $0 }, count: values.count, components: values[0].count)
        if let keyTimes { try! s.setKeyTimes(keyTimes) }
        try! s.setCalculationMode(mode)
        s.timing.duration = duration
        return s
    }

    static let petal: [[Double]] = [[100, 0], [60, 100], [140, 200], [100, 300]]

    @Test("falling petal: four values over 8 s, evenly spaced")
    func petalEven() {
        var r = Rig()
        let l = r.layer()
        r.add(l, keyframes(&r, "position", Self.petal, duration: 8))
        // segment j spans [8j/3, 8(j+1)/3]
        r.tick(8.0 / 3)
        #expect(near(r.pres(l, "position"), Self.petal[1], 1e-9))
        r.tick(8.0 / 3 + 4.0 / 3)      // halfway through segment 1
        #expect(near(r.pres(l, "position"), [100, 150], 1e-9))
    }

    @Test("cumulative keyframes add last - first per completed cycle; additive ones add the model value")
    func cumulativeAndAdditiveKeyframes() {
        // Values (0,0) -> (10,0) -> (10,10), linear, 2 s per cycle, 3 cycles.
        // Cycle i, halfway through segment 0 (t = 2i + 0.5): (5, 0) + i (10, 10).
        var r = Rig()
        let l = r.layer(["position": [100, 50]])
        var s = keyframes(&r, "position", [[0, 0], [10, 0], [10, 10]], duration: 2)
        try! s.setCumulative(true)
        s.timing.repeatCount = 3
        r.add(l, s)
        r.tick(0.5)
        #expect(near(r.pres(l, "position"), [5, 0], 1e-12))
        r.tick(2.5)
        #expect(near(r.pres(l, "position"), [15, 10], 1e-12))
        r.tick(5.5)     // cycle 2, halfway through segment 1: (10, 5) + 2 (10, 10)
        #expect(near(r.pres(l, "position"), [30, 25], 1e-12))

        var r2 = Rig()
        let m = r2.layer(["position": [100, 50]])
        var a = keyframes(&r2, "position", [[0, 0], [10, 0], [10, 10]], duration: 2)
        try! a.setAdditive(true)
        r2.add(m, a)
        r2.tick(1.5)    // halfway through segment 1: (10, 5) on top of (100, 50)
        #expect(near(r2.pres(m, "position"), [110, 55], 1e-12))
    }

    @Test("colour keyframes interpolate all four components")
    func colourKeyframes() {
        var r = Rig()
        let l = r.layer()
        r.add(l, keyframes(&r, "backgroundColor", [[0, 0, 0, 1], [1, 0.5, 0.25, 0], [0, 1, 1, 1]], duration: 2))
        r.tick(0.25)    // a quarter through segment 0
        #expect(near(r.pres(l, "backgroundColor"), [0.25, 0.125, 0.0625, 0.75], 1e-12))
        r.tick(1.5)     // halfway through segment 1
        #expect(near(r.pres(l, "backgroundColor"), [0.5, 0.75, 0.625, 0.5], 1e-12))
    }

    @Test("falling petal with keyTimes 0, 0.5, 0.75, 1")
    func petalKeyTimes() {
        var r = Rig()
        let l = r.layer()
        r.add(l, keyframes(&r, "position", Self.petal, keyTimes: [0, 0.5, 0.75, 1], duration: 8))
        r.tick(2)       // halfway through [0, 4]
        #expect(near(r.pres(l, "position"), [80, 50], 1e-9))
        r.tick(5)       // halfway through [4, 6]
        #expect(near(r.pres(l, "position"), [100, 150], 1e-9))
        r.tick(7.999)
        #expect(near(r.pres(l, "position")[1], 300 - 100 * 0.001 / 2, 1e-9))
    }

    @Test("colour cycle in discrete mode: each colour shows for an equal share")
    func colourCycle() {
        var r = Rig()
        let l = r.layer()
        let colours: [[Double]] = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 0, 1]]
        var s = keyframes(&r, "backgroundColor", colours, mode: .discrete, duration: 4)
        s.timing.repeatCount = .infinity
        r.add(l, s)
        for (t, j) in [(0.5, 0), (1.5, 1), (2.5, 2), (3.5, 3), (4.5, 0)] {
            r.tick(t)
            #expect(r.pres(l, "backgroundColor") == colours[j], "t=\(t)")
        }
    }

    /// Spaceship: a single cubic from (0,0) via (100,0), (100,100) to (200,100) with rotationMode auto.
    func bezier(_ t: Double) -> (Double, Double) {
        let p: [(Double, Double)] = [(0, 0), (100, 0), (100, 100), (200, 100)]
        let u = 1 - t
        let b = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
        return (zip(b, p).reduce(0) { $0 + $1.0 * $1.1.0 }, zip(b, p).reduce(0) { $0 + $1.0 * $1.1.1 })
    }
    func bezierDerivative(_ t: Double) -> (Double, Double) {
        // B'(t) = 3(1-t)^2 (P1-P0) + 6(1-t)t (P2-P1) + 3t^2 (P3-P2)
        let u = 1 - t
        return (3 * u * u * 100 + 6 * u * t * 0 + 3 * t * t * 100, 3 * u * u * 0 + 6 * u * t * 100 + 3 * t * t * 0)
    }

    @Test("spaceship on a cubic Bézier path with rotationMode auto: constant speed, tangent angle")
    func spaceship() {
        var r = Rig()
        let l = r.layer()
        var s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
        try! s.appendPath(.move(0, 0))
        try! s.appendPath(.cubic(100, 0, 100, 100, 200, 100))
        try! s.setRotationMode(.auto)
        s.timing.duration = 4
        r.add(l, s)
        // Arc length table by brute-force integration in the test.
        let steps = 200_000
        var lengths = [0.0]
        var prev = bezier(0)
        for k in 1...steps {
            let q = bezier(Double(k) / Double(steps))
            lengths.append(lengths[k - 1] + ((q.0 - prev.0) * (q.0 - prev.0) + (q.1 - prev.1) * (q.1 - prev.1)).squareRoot())
            prev = q
        }
        let total = lengths[steps]
        for frac in [0.1, 0.3, 0.5, 0.8] {
            r.tick(4 * frac)
            // parameter at arc length frac * total
            let target = frac * total
            var k = 0
            while lengths[k] < target { k += 1 }
            let t = (Double(k - 1) + (target - lengths[k - 1]) / (lengths[k] - lengths[k - 1])) / Double(steps)
            let p = bezier(t)
            #expect(near(r.pres(l, "position"), [p.0, p.1], 1e-3 * total * 1e-3 + 1e-6), "frac \(frac)")
            let d = bezierDerivative(t)
            #expect(near(r.pres1(l, "transform.rotation.z"), atan2(d.1, d.0), 1e-5), "angle at \(frac)")
        }
    }

    @Test("spring with the defaults follows the closed form of §6")
    func spring() {
        var r = Rig()
        let l = r.layer()
        var s = try! AnimationSpec(kind: .spring, keyPath: "position.x")
        try! s.setEndpoint(.from, ValueBuffer(0))
        try! s.setEndpoint(.to, ValueBuffer(100))
        s.timing.duration = 3
        r.add(l, s)
        let wd = 75.0.squareRoot()
        for t in [0.1, 0.3, 0.7, 1.5] {
            r.tick(t)
            let x = exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
            #expect(near(r.pres1(l, "position.x"), 100 * (1 - x), 1e-9))
        }
    }

    /// §5.2 with §6: a cumulative spring's cycle ends where the oscillator is at
    /// t = d (not at `to`), so each completed cycle adds 100·(1 − x(d)) and the
    /// motion is continuous at the cycle boundary. Default spring, d = 0.3:
    /// x(s) = e^(−5s)(cos ωs + 5/ω sin ωs), ω = √75; one cycle adds
    /// 100(1 − x(0.3)) ≈ 112.4355.
    @Test("cumulative spring: each cycle adds its actual end value")
    func cumulativeSpring() {
        var r = Rig()
        let l = r.layer()
        var s = try! AnimationSpec(kind: .spring, keyPath: "position.x")
        try! s.setEndpoint(.from, ValueBuffer(0))
        try! s.setEndpoint(.to, ValueBuffer(100))
        try! s.setCumulative(true)
        s.timing.duration = 0.3
        s.timing.repeatCount = 2
        s.timing.fillMode = .forwards
        s.removedOnCompletion = false
        r.add(l, s)
        let wd = 75.0.squareRoot()
        func p(_ t: Double) -> Double { 100 * (1 - exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))) }
        let cycle = p(0.3)
        #expect(near(cycle, 112.4355, 1e-4))
        for (t, want) in [(0.2999999, p(0.2999999)), (0.3, cycle), (0.4, cycle + p(0.1)), (0.6, 2 * cycle), (1.0, 2 * cycle)] {
            r.tick(t)
            #expect(near(r.pres1(l, "position.x"), want, 1e-9), "t=\(t)")
        }
    }

    /// §5.2: a cycle adds its end value minus its start. With key times
    /// [0, 0, 0.5, 1] the first value (0) is never shown: the cycle runs from
    /// 10 to 30 and adds 20. Hand-worked (begin 1, duration 1, 3 cycles):
    /// t = 1 -> 10; 1.999 -> 29.98; 2 -> 10 + 20 = 30 (the next cycle's start);
    /// 3 -> 50; 4 (the end) -> 30 + 2 * 20 = 70. Discrete alike: 10 at each
    /// cycle's start, plus 20 per cycle.
    @Test("cumulative keyframes with several keys at time 0 add the change the cycle shows", arguments: [CalculationMode.linear, .discrete])
    func cumulativeKeyframesDuplicateFirstKeyTime(mode: CalculationMode) throws {
        var r = Rig()
        let l = r.layer()
        var s = try AnimationSpec(kind: .keyframe, keyPath: "position.x")
        try s.setValues([0, 10, 20, 30], count: 4, components: 1)
        try s.setKeyTimes([0, 0, 0.5, 1])
        try s.setCalculationMode(mode)
        try s.setCumulative(true)
        s.timing.duration = 1
        s.timing.repeatCount = 3
        s.timing.beginTime = 1
        s.timing.fillMode = .both
        s.removedOnCompletion = false
        r.add(l, s)
        let expected: [(Double, Double)] = mode == .linear
            ? [(1, 10), (1.999, 29.98), (2, 30), (3, 50), (4, 70), (5, 70)]
            : [(1, 10), (1.999, 20), (2, 30), (3, 50), (4, 70)]
        for (t, want) in expected {
            r.tick(t)
            #expect(near(r.pres1(l, "position.x"), want, 1e-9), "t=\(t)")
        }
    }

    @Test("spring settling durations of §6: damping 5 about 2.855 s, damping 15 just over 1 s")
    func settling() {
        #expect(near(Spring(mass: 1, stiffness: 100, damping: 5, initialVelocity: 0)!.settlingDuration, 2.855, 1e-3))
        let d15 = Spring(mass: 1, stiffness: 100, damping: 15, initialVelocity: 0)!.settlingDuration
        #expect(d15 > 1 && d15 < 1.03)
        let p = Spring.perceptual(duration: 0.5, bounce: 0.3)!
        #expect(near(p.stiffness, 157.9, 0.05) && near(p.damping, 17.6, 0.05))
    }

    @Test("group of a rotation and a path animation with a 10 s group duration")
    func group() {
        var r = Rig()
        let l = r.layer()
        var rot = r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 0)   // takes the group's duration
        rot.timing.duration = 0
        var path = try! AnimationSpec(kind: .keyframe, keyPath: "position")
        try! path.appendPath(.move(0, 0))
        try! path.appendPath(.line(100, 0))
        path.timing.duration = 4
        var g = try! AnimationSpec(kind: .group, keyPath: nil)
        try! g.setChildren([rot, path])
        g.timing.duration = 10
        var tags: [Int64] = []
        g.tag = 77
        r.add(l, g, key: "group")
        r.tick(2)
        #expect(near(r.pres1(l, "transform.rotation.z"), Double.pi * 0.2, 1e-9))
        #expect(near(r.pres(l, "position"), [50, 0], 1e-9))
        r.tick(6)
        // the path child ended at 4 s and has no fill: back to the model position
        #expect(near(r.pres(l, "position"), [0, 0], 1e-9))
        #expect(near(r.pres1(l, "transform.rotation.z"), Double.pi * 0.6, 1e-9))
        r.tick(11)
        tags = r.events().map(\.tag)
        #expect(tags == [77, 77])      // the group's start and stop only
        #expect(try! r.e.animationCount(layer: l) == 0)
    }

    @Test("an ease-in group eases its children")
    func groupTiming() {
        var r = Rig()
        let l = r.layer()
        var child = r.basic("opacity", from: [0], to: [1], duration: 0)
        child.timing.duration = 0
        var g = try! AnimationSpec(kind: .group, keyPath: nil)
        try! g.setChildren([child])
        g.timing.duration = 1
        g.setTimingCurve(.easeIn)
        r.add(l, g)
        r.tick(0.5)
        #expect(r.pres1(l, "opacity") < 0.5)
        // easeIn (0.42, 0, 1, 1) at t = 1/2: x = 3(1/4)(1/2)(0.42) + 3(1/2)(1/4) + 1/8
        // = 0.6575 and y = 3(1/2)(1/4) + 1/8 = 0.5.
        r.tick(0.6575)
        #expect(near(r.pres1(l, "opacity"), 0.5, 1e-8))
    }

    @Test("push transition: both pictures in the render list with offsets")
    func push() throws {
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 50], "position": [50, 25]])
        try r.e.setContents(layer: l, 1)
        r.tick(1)
        var t = try! AnimationSpec(kind: .transition, keyPath: nil)
        try! t.setTransition(.push, .fromLeft)
        t.timing.duration = 1
        r.add(l, t)
        try r.e.setContents(layer: l, 2)
        r.tick(1.25)
        var buf = [RenderItem](repeating: RenderItem(), count: 8)
        var span = buf.mutableSpan
        let n = try r.e.renderList(root: l, into: &span)
        #expect(n == 3)
        let container = buf[0], out = buf[1], inn = buf[2]
        #expect(container.flags & RenderItem.transitionClip != 0 && container.flags & RenderItem.masksToBounds != 0)
        #expect(out.flags & RenderItem.transitionOutgoing != 0 && out.contents == 1 && out.parent == 0)
        #expect(inn.flags & RenderItem.transitionIncoming != 0 && inn.contents == 2 && inn.parent == 0)
        // p = 0.25: outgoing x offset +W p = 25, incoming -W (1 - p) = -75
        #expect(out.world.12 == 25 && inn.world.12 == -75)
        #expect(container.world.12 == 0)
        r.tick(2.5)
        span = buf.mutableSpan
        #expect(try r.e.renderList(root: l, into: &span) == 1)
        #expect(buf[0].contents == 2)
    }

    /// §8: while a transition runs the render list draws the outgoing picture;
    /// hiding the layer after adding the transition changes only the incoming
    /// picture (nothing of it is drawn). Hand-worked: fade, linear, p = 0.25 ->
    /// the outgoing picture at opacity 0.75; push from the left, p = 0.5 -> the
    /// outgoing picture offset by +W p = +50. Counting agrees with writing.
    @Test("a layer hidden during its transition still shows the outgoing picture", arguments: [TransitionType.fade, .push])
    func hiddenDuringTransition(type: TransitionType) throws {
        var r = Rig()
        let root = r.layer(["bounds": [0, 0, 400, 400]])
        let l = r.layer(["bounds": [0, 0, 100, 50], "position": [50, 25]])
        let a = r.layer(["bounds": [0, 0, 10, 10], "position": [5, 5]])
        try r.e.addSublayer(root, l)
        try r.e.addSublayer(l, a)
        r.tick(0)
        var t = try! AnimationSpec(kind: .transition, keyPath: nil)
        try! t.setTransition(type, .fromLeft)
        t.timing.duration = 1
        r.add(l, t)
        try r.e.setActionsEnabled(layer: l, false)
        try r.e.set(layer: l, "hidden", [1])
        let p = type == .fade ? 0.25 : 0.5
        r.tick(p)
        var buf = [RenderItem](repeating: RenderItem(), count: 16)
        var span = buf.mutableSpan
        let n = try r.e.renderList(root: root, into: &span)
        #expect(n == 4)                                   // root, clip container, outgoing l and a
        #expect(try r.e.renderListCount(root: root) == n)
        let container = buf[1], outL = buf[2], outA = buf[3]
        #expect(container.layer == l && container.flags & RenderItem.transitionClip != 0 && container.parent == 0)
        #expect(outL.layer == l && outL.flags & RenderItem.transitionOutgoing != 0 && outL.parent == 1)
        #expect(outA.layer == a && outA.flags & RenderItem.transitionOutgoing != 0 && outA.parent == 2)
        #expect(buf.prefix(n).allSatisfy { $0.flags & RenderItem.transitionIncoming == 0 })
        if type == .fade {
            #expect(near(Double(outL.opacity), 0.75, 1e-6) && near(Double(outA.worldOpacity), 0.75, 1e-6))
            #expect(outL.world.12 == container.world.12)   // in place
        } else {
            #expect(outL.opacity == 1 && outL.world.12 == container.world.12 + 50)
        }
        r.tick(1.5)                                       // over: nothing of l
        span = buf.mutableSpan
        #expect(try r.e.renderList(root: root, into: &span) == 1)
    }

    /// A list rendered from inside a layer whose transition runs draws that
    /// subtree as the full list does: in the incoming picture (its offset,
    /// fade and flag). Hand-worked: r (100 x 80 at (50, 40)) > c (20 x 20 at
    /// (30, 30)); moveIn from the left, linear, p = 0.25: the incoming picture
    /// is offset by −W(1 − p) = −75, so c's world translation is
    /// (30 − 10 − 75, 30 − 10) = (−55, 20); fade at p = 0.25: c's world
    /// opacity is 0.25.
    @Test("a list rendered from inside a transitioning layer keeps the incoming picture's offset and fade",
          arguments: [TransitionType.moveIn, .fade])
    func subtreeListInsideTransition(type: TransitionType) throws {
        var r = Rig()
        let top = r.layer()
        let l = r.layer(["bounds": [0, 0, 100, 80], "position": [50, 40]])
        let c = r.layer(["bounds": [0, 0, 20, 20], "position": [30, 30]])
        try r.e.addSublayer(top, l)
        try r.e.addSublayer(l, c)
        r.tick(1)
        var t = try! AnimationSpec(kind: .transition, keyPath: nil)
        try! t.setTransition(type, .fromLeft)
        t.timing.duration = 1
        t.setTimingCurve(.linear)
        r.add(l, t)
        r.tick(1.25)
        func itemOfC(_ root: UInt64) throws -> RenderItem? {
            var buf = [RenderItem](repeating: RenderItem(), count: 16)
            var span = buf.mutableSpan
            let n = try r.e.renderList(root: root, into: &span)
            return buf.prefix(n).last { $0.layer == c && $0.flags & RenderItem.transitionOutgoing == 0 }
        }
        for root in [top, l, c] {
            guard let it = try itemOfC(root) else { Issue.record("no item for c from \(root)"); continue }
            #expect(it.flags & RenderItem.transitionIncoming != 0)
            if type == .moveIn {
                #expect(it.world.12 == -55 && it.world.13 == 20, "from \(root): \(it.world.12), \(it.world.13)")
                #expect(it.worldOpacity == 1)
            } else {
                #expect(it.world.12 == 20 && it.world.13 == 20)
                #expect(near(Double(it.worldOpacity), 0.25, 1e-6), "from \(root): \(it.worldOpacity)")
            }
        }
    }

    /// Whole-matrix keyframes interpolate by decomposition in every mode, so
    /// cubicPaced times them as paced does (16-element distances). Hand-worked:
    /// I -> T(100, 0, 0) -> T(100, 300, 0): distances 100 and 300, key times
    /// 0, 0.25, 1; at t = 0.125 the translation is (50, 0), at 0.625 (100, 150).
    /// Two keys I -> Rz(1)·T(100, 0, 0): one segment, u = t: at t = 0.1
    /// m41 = 10 and m12 = sin 0.1.
    @Test("cubicPaced whole-matrix keyframes are timed as paced", arguments: [CalculationMode.paced, .cubicPaced])
    func matrixKeyframesCubicPaced(mode: CalculationMode) throws {
        var r = Rig()
        let l = r.layer(), m = r.layer()
        func keyframes(_ values: [[Double]]) throws -> AnimationSpec {
            var s = try AnimationSpec(kind: .keyframe, keyPath: "transform")
            try s.setValues(values.flatMap { $0 }, count: values.count, components: 16)
            try s.setCalculationMode(mode)
            s.timing.duration = 1
            return s
        }
        let t100 = Transform3D.translation(100, 0, 0).elements
        r.add(l, try keyframes([Transform3D.identity.elements, t100, Transform3D.translation(100, 300, 0).elements]))
        r.add(m, try keyframes([Transform3D.identity.elements, (Transform3D.rotation(1, 0, 0, 1) * Transform3D.translation(100, 0, 0)).elements]))
        r.tick(0.1)
        let b = r.pres(m, "transform")
        #expect(near(b[12], 10, 1e-9) && near(b[1], sin(0.1), 1e-9), "\(b[12]) \(b[1])")
        r.tick(0.125)
        var a = r.pres(l, "transform")
        #expect(near(a[12], 50, 1e-9) && near(a[13], 0, 1e-9))
        r.tick(0.625)
        a = r.pres(l, "transform")
        #expect(near(a[12], 100, 1e-9) && near(a[13], 150, 1e-9))
    }

    /// §7: value j shows at keyTimes[j]; §3.3: the end samples the last value.
    /// Whole-matrix keys show as given, not recomposed from their
    /// decompositions (which divide by m44 and round): [I, B, C] with
    /// B = T(10, 0, 0) scaled by m44 = 2 and C = 2I shows B at 0.5 and C at
    /// the end and after it (fill forwards). A rotated, scaled, translated key
    /// shows bit for bit.
    @Test("whole-matrix keyframes show their key matrices exactly at key times and at the end")
    func matrixKeyframesExactKeys() throws {
        var r = Rig()
        let l = r.layer(), m = r.layer()
        func keyframes(_ values: [[Double]]) throws -> AnimationSpec {
            var s = try AnimationSpec(kind: .keyframe, keyPath: "transform")
            try s.setValues(values.flatMap { $0 }, count: values.count, components: 16)
            s.timing.duration = 1
            s.timing.fillMode = .forwards
            s.removedOnCompletion = false
            return s
        }
        let a: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let b: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 2]
        let c: [Double] = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2]
        let (c4, s4) = (cos(0.4), sin(0.4)), (c3, s3) = (cos(0.3), sin(0.3))
        let rx: [Double] = [1, 0, 0, 0, 0, c4, s4, 0, 0, -s4, c4, 0, 0, 0, 0, 1]
        let rz: [Double] = [c3, s3, 0, 0, -s3, c3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let sc: [Double] = [2, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let tr: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1]
        let k = plainProduct(plainProduct(plainProduct(sc, rx), rz), tr)
        r.add(l, try keyframes([a, b, c]))
        r.add(m, try keyframes([a, k]))
        r.tick(0.5)
        #expect(r.pres(l, "transform") == b)
        r.tick(1)
        #expect(r.pres(l, "transform") == c)
        #expect(r.pres(m, "transform") == k)
        r.tick(2)
        #expect(r.pres(l, "transform") == c)
        #expect(r.pres(m, "transform") == k)
    }

    /// A group that fills forwards holds its children's end values: a child
    /// ending with the group (default timing: the group's duration) shows its
    /// end value after the group ends, whatever its own fill (fill on the
    /// group alone keeps the final state, Core Animation's idiom; it showed the
    /// model value). A child that ended earlier keeps what its own fill keeps
    /// (removed: the model value). Nested groups likewise.
    @Test("a group filling forwards holds the children that end with it")
    func groupFillHoldsChildren() throws {
        var r = Rig()
        let l = r.layer(["opacity": [0], "cornerRadius": [0], "zPosition": [0]])
        func group(_ children: [AnimationSpec], fill: Bool) throws -> AnimationSpec {
            var g = try AnimationSpec(kind: .group, keyPath: nil)
            try g.setChildren(children)
            g.timing.duration = 1
            if fill { g.timing.fillMode = .forwards; g.removedOnCompletion = false }
            return g
        }
        let full = r.basic("opacity", from: [0.2], to: [0.8], duration: 0)        // the group's 1 s
        let short = r.basic("cornerRadius", from: [2], to: [4], duration: 0.5)    // ends at 0.5, fill removed
        let nested = try group([r.basic("zPosition", from: [1], to: [3], duration: 0)], fill: false)
        r.add(l, try group([full, short, nested], fill: true), key: "g")
        r.tick(0.75)
        #expect(r.pres1(l, "cornerRadius") == 0)        // the short child has ended: the model
        r.tick(1.5)
        #expect(r.pres1(l, "opacity") == 0.8)
        #expect(r.pres1(l, "zPosition") == 3)
        #expect(r.pres1(l, "cornerRadius") == 0)
        // Without the group's fill, nothing is held.
        let m = r.layer(["opacity": [0]])
        r.add(m, try group([full], fill: false), key: "g")
        r.tick(3)
        #expect(r.pres1(m, "opacity") == 0)
    }

    /// Children that end with the group up to a rounding are held at their
    /// exact end: "thirds" (beginTime 2/3, duration 1/3: a = 0.33333333333333337
    /// against D = 0.3333333333333333 at the group's end) and the mirror case
    /// (beginTime 0.1, duration 0.2 in a 0.3 s group: a = 0.19999999999999998)
    /// show exactly `to`. At the turning point of an autoreversing group (its
    /// progress is 1 at t = d) a child on default timing shows its end value, as
    /// the same animation outside a group does (it dropped out for that frame).
    @Test("group children ending with the group up to a rounding, and at an autoreverse turn, show their end")
    func groupHeldChildrenRounding() throws {
        var r = Rig()
        let l = r.layer(["zPosition": [0], "opacity": [0]])
        func group(_ children: [AnimationSpec], duration: Double, fill: Bool, autoreverses: Bool = false) throws -> AnimationSpec {
            var g = try AnimationSpec(kind: .group, keyPath: nil)
            try g.setChildren(children)
            g.timing.duration = duration
            g.timing.autoreverses = autoreverses
            if fill { g.timing.fillMode = .forwards; g.removedOnCompletion = false }
            return g
        }
        let third = r.basic("zPosition", from: [0], to: [10], duration: 1.0 / 3.0) { s in s.timing.beginTime = 2.0 / 3.0 }
        #expect((1 - 2.0 / 3.0) != 1.0 / 3.0)      // the rounding this is about
        r.add(l, try group([third], duration: 1, fill: true), key: "thirds")
        let mirror = r.basic("opacity", from: [0], to: [0.5], duration: 0.2) { s in s.timing.beginTime = 0.1 }
        #expect(0.3 - 0.1 < 0.2)
        r.add(l, try group([mirror], duration: 0.3, fill: true), key: "mirror")
        r.tick(2)
        #expect(r.pres1(l, "zPosition") == 10)
        #expect(r.pres1(l, "opacity") == 0.5)

        var q = Rig()
        let a = q.layer(["zPosition": [0]]), b = q.layer(["zPosition": [0]])
        let child = q.basic("zPosition", from: [0], to: [10], duration: 0)
        q.add(a, try group([child], duration: 0.5, fill: false, autoreverses: true), key: "g")
        q.add(b, q.basic("zPosition", from: [0], to: [10], duration: 0.5) { s in s.timing.autoreverses = true }, key: "plain")
        q.tick(0.5)
        #expect(q.pres1(b, "zPosition") == 10)
        #expect(q.pres1(a, "zPosition") == 10)

        // A child that never ends (repeatCount inf) is not held: at the held
        // group's time 1 it is in cycle 2 of 0.375 s, u = 0.25 (it showed its
        // start value).
        var w = Rig()
        let c = w.layer(["position": [100, 0]])
        let endless = w.basic("position.x", from: [0], to: [10], duration: 0.375) { s in s.timing.repeatCount = .infinity }
        w.add(c, try group([endless], duration: 1, fill: true), key: "g")
        w.tick(2)
        #expect(w.pres1(c, "position.x") == 10 * (0.25 / 0.375))
    }

    /// §7: per-segment timing functions apply to the progress within each
    /// segment — along a path too (they were ignored). M(0,0) L(100,0)
    /// L(100,100), linear, 1 s, [easeIn, linear]: at 0.25 segment 0 is half
    /// way, x = 100·easeIn(½) (easeIn by bisection here); at 0.75 segment 1 is
    /// half way, linear: (100, 50). A count other than the drawable segments'
    /// is refused, as for values.
    @Test("per-segment timing functions apply along a path")
    func pathSegmentTiming() throws {
        func easeIn(_ x: Double) -> Double { bezierY(0.42, 0, 1, 1, at: x) }
        var r = Rig()
        let l = r.layer()
        func pathSpec(_ curves: [TimingCurve]) throws -> AnimationSpec {
            var s = try AnimationSpec(kind: .keyframe, keyPath: "position")
            try s.appendPath(.move(0, 0))
            try s.appendPath(.line(100, 0))
            try s.appendPath(.line(100, 100))
            try s.setSegmentCurves(curves)
            s.timing.duration = 1
            return s
        }
        r.add(l, try pathSpec([.easeIn, .linear]), key: "path")
        r.tick(0.25)
        let p = r.pres(l, "position")
        #expect(near(p[0], 100 * easeIn(0.5), 1e-6) && p[1] == 0, "\(p)")
        r.tick(0.75)
        let q = r.pres(l, "position")
        #expect(near(q[0], 100, 1e-9) && near(q[1], 50, 1e-9), "\(q)")
        #expect(throws: CadenceError.self) { try r.e.addAnimation(layer: l, spec: try pathSpec([.easeIn]), key: "bad") }
    }

    /// Every item of a picture carries its flag (docs/decisions.md), also a
    /// nested transition's outgoing picture inside another's incoming one.
    @Test("a nested transition's outgoing picture inside an incoming picture carries both flags")
    func nestedTransitionFlags() throws {
        var r = Rig()
        let root = r.layer()
        let l = r.layer(["bounds": [0, 0, 100, 100]])
        let c = r.layer(["bounds": [0, 0, 50, 50]])
        let g = r.layer(["bounds": [0, 0, 10, 10]])
        try r.e.addSublayer(root, l)
        try r.e.addSublayer(l, c)
        try r.e.addSublayer(c, g)
        r.tick(0)
        for layer in [c, l] {
            var t = try! AnimationSpec(kind: .transition, keyPath: nil)
            try! t.setTransition(.push, .fromLeft)
            t.timing.duration = 1
            r.add(layer, t)
        }
        r.tick(0.25)
        var buf = [RenderItem](repeating: RenderItem(), count: 32)
        var span = buf.mutableSpan
        let n = try r.e.renderList(root: root, into: &span)
        let items = Array(buf.prefix(n))
        // l's incoming item and everything below it in the live tree.
        guard let lIn = items.firstIndex(where: { $0.layer == l && $0.flags & RenderItem.transitionIncoming != 0
                                                   && $0.flags & RenderItem.transitionClip == 0 }) else {
            Issue.record("no incoming item of l"); return
        }
        func descends(_ k: Int) -> Bool {
            var p = Int(items[k].parent)
            while p >= 0 { if p == lIn { return true }; p = Int(items[p].parent) }
            return false
        }
        let inside = items.indices.filter(descends)
        #expect(inside.count == 5)                       // c's container, c and g outgoing, c and g incoming
        for k in inside { #expect(items[k].flags & RenderItem.transitionIncoming != 0, "item \(k) flags \(items[k].flags)") }
        #expect(inside.filter { items[$0].flags & RenderItem.transitionOutgoing != 0 }.count == 2)
    }

    /// Under an overshooting timing function (e outside [0, 1]) keyframes
    /// extrapolate their end segment (docs/decisions.md): a per-segment timing
    /// function covers [0, 1] only (the identity one changes nothing), and
    /// cubicPaced continues along the spline's end tangent at the paced speed.
    /// Hand-worked: [0, 100] with Catmull-Rom tangents 50 is monotonic with
    /// length 100, so every mode shows 100·e, e from an independent bisection
    /// of the curve (0.5, −1, 0.5, 2).
    @Test("keyframes extrapolate under an overshooting timing function", arguments: [0, 1, 2])
    func keyframeOvershootExtrapolation(variant: Int) throws {
        func bez(_ t: Double, _ a: Double, _ b: Double) -> Double { 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t }
        func eased(_ x: Double) -> Double {
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 { let m = 0.5 * (lo + hi); if bez(m, 0.5, 0.5) < x { lo = m } else { hi = m } }
            return bez(0.5 * (lo + hi), -1, 2)
        }
        var r = Rig()
        let l = r.layer()
        var s = try AnimationSpec(kind: .keyframe, keyPath: "zPosition")
        try s.setValues([0, 100], count: 2, components: 1)
        switch variant {
        case 0: try s.setCalculationMode(.linear); try s.setSegmentCurves([.linear])
        case 1: try s.setCalculationMode(.linear); try s.setSegmentCurves([TimingCurve(c1x: 0, c1y: 0, c2x: 1, c2y: 1)!])
        default: try s.setCalculationMode(.cubicPaced)
        }
        s.setTimingCurve(TimingCurve(c1x: 0.5, c1y: -1, c2x: 0.5, c2y: 2)!)
        s.timing.duration = 1
        s.timing.beginTime = 1
        s.timing.fillMode = .both
        r.add(l, s)
        for x in [0.0625, 0.125, 0.875, 0.9375] {
            r.tick(1 + x)
            let e = eased(x)
            #expect(e < 0 || e > 1 || x == 0.125 || x == 0.875)
            #expect(near(r.pres1(l, "zPosition"), 100 * e, 1e-6), "variant \(variant) x \(x): \(r.pres1(l, "zPosition")) vs \(100 * e)")
        }
    }

    /// `contents` values are ids wherever they are given: animation endpoints
    /// and keyframe values take what `cad_layer_set` takes (whole numbers in
    /// [0, 2^64)) instead of converting 1.5 to 1 or −1 to 0 silently.
    @Test("contents animation values must be ids")
    func contentsAnimationValuesAreIDs() throws {
        var basic = try AnimationSpec(kind: .basic, keyPath: "contents")
        for bad in [1.5, -1, 18446744073709551616.0] {
            expectStatus(.invalidArgument) { () throws(CadenceError) in try basic.setEndpoint(.to, ValueBuffer(bad)) }
            expectStatus(.invalidArgument) { () throws(CadenceError) in try basic.setEndpoint(.from, ValueBuffer(bad)) }
        }
        try basic.setEndpoint(.to, ValueBuffer(7))
        #expect(basic.to?[0] == 7)
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "contents")
        expectStatus(.invalidArgument) { () throws(CadenceError) in try kf.setValues([1, 2.5], count: 2, components: 1) }
        try kf.setValues([1, 2], count: 2, components: 1)
    }
}

/// Keyframe details found by a keyframe audit (each fails on the code before its fix).
@Suite("Keyframes: cumulative ids and paced segment timing (SEMANTICS.md §5.2, §7)")
struct KeyframeAuditTests {
    /// §5.2's "end value minus start" has no meaning for opaque ids (§5.1: they
    /// switch discretely; additive ids replace): a cumulative animation of
    /// `contents` repeats its cycle in place. It showed id 0 from cycle 2 on.
    @Test("a cumulative animation of contents repeats in place")
    func cumulativeContentsRepeatsInPlace() throws {
        var r = Rig()
        let l = r.layer(["contents": [7]])
        r.tick(0)
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "contents")
        try kf.setValues([11, 22, 33], count: 3, components: 1)
        try kf.setCalculationMode(.discrete)
        kf.timing.duration = 1
        kf.timing.repeatCount = 3
        kf.timing.fillMode = .forwards
        kf.removedOnCompletion = false
        try kf.setCumulative(true)
        r.add(l, kf, key: "kf")
        let l2 = r.layer(["contents": [7]])
        r.add(l2, r.basic("contents", from: [11], to: [33], duration: 1) { s throws(CadenceError) in
            s.timing.repeatCount = 3
            s.timing.fillMode = .forwards
            s.removedOnCompletion = false
            try s.setCumulative(true)
        }, key: "b")
        // discrete, 3 values without keyTimes: 11 on [0, 1/3), 22 on [1/3, 2/3), 33 after.
        for (t, kfID, basicID) in [(0.5, 22, 11), (0.9, 33, 11), (1.5, 22, 11), (2.9, 33, 11), (3.5, 33, 33)] as [(Double, UInt64, UInt64)] {
            r.tick(t)
            #expect(try r.e.presentationContents(layer: l) == kfID, "keyframe at \(t)")
            #expect(try r.e.presentationContents(layer: l2) == basicID, "basic at \(t)")
        }
    }

    /// §7: paced and cubicPaced ignore per-segment timing functions, so their count
    /// is not checked (as for keyTimes in those modes); it was refused for values.
    @Test("paced modes accept any number of segment timing functions", arguments: [CalculationMode.paced, .cubicPaced])
    func pacedIgnoresSegmentCount(mode: CalculationMode) throws {
        var r = Rig()
        let l = r.layer()
        r.tick(0)
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "opacity")
        try kf.setValues([0, 0.5, 1], count: 3, components: 1)
        try kf.setCalculationMode(mode)
        try kf.setSegmentCurves([.linear])        // 1 curve for 2 segments
        kf.timing.duration = 1
        do { try r.e.addAnimation(layer: l, spec: kf, key: "kf") } catch { Issue.record("refused: \(error.message)"); return }
        r.tick(0.25)
        // Paced over equal steps (0.5 and 0.5): constant speed, 0.25 at a quarter.
        #expect(near(r.pres1(l, "opacity"), 0.25, 1e-9))
    }
}
