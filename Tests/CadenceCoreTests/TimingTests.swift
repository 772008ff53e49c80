#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

@Suite("Timing model (SEMANTICS.md §3)")
struct TimingTests {
    /// Resolved timing from fields.
    func timing(duration: Double = 1, speed: Double = 1, offset: Double = 0, repeatCount: Double = 0,
                repeatDuration: Double = 0, autoreverses: Bool = false, fill: FillMode = .removed, begin: Double = 0) -> ResolvedTiming {
        var t = MediaTiming()
        t.duration = duration; t.speed = speed; t.timeOffset = offset; t.repeatCount = repeatCount
        t.repeatDuration = repeatDuration; t.autoreverses = autoreverses; t.fillMode = fill; t.beginTime = begin
        return ResolvedTiming(t)
    }

    @Test("active duration examples of §3.2")
    func activeDuration() {
        #expect(timing(duration: 2, repeatCount: 3.5).activeDuration == 7)
        #expect(timing(duration: 2, repeatCount: 3.5, autoreverses: true).activeDuration == 14)
        #expect(timing(duration: 0).activeDuration == 0.25)          // default duration
        #expect(timing(duration: 2, repeatCount: 3, repeatDuration: 5).activeDuration == 5)   // repeatDuration wins
        #expect(timing(duration: 1, repeatCount: .infinity).activeDuration == .infinity)
        #expect(timing(duration: 1, repeatDuration: .infinity).activeDuration == .infinity)
    }

    @Test("progress within cycles, autoreverse and the end value rules of §3.3")
    func progress() {
        let t = timing(duration: 2, repeatCount: 3.5)
        #expect(t.sample(parentTime: 1).progress == 0.5)
        #expect(t.sample(parentTime: 3).progress == 0.5)
        #expect(t.sample(parentTime: 3).iteration == 1)
        // within the active duration a whole cycle starts the next one (i = floor(t / c))
        #expect(t.sample(parentTime: 2).progress == 0)
        #expect(t.sample(parentTime: 2).iteration == 1)
        #expect(t.sample(parentTime: 6).progress == 0)
        // fractional repeat: ends at the fractional point, progress 0.5 of iteration 3
        let end = t.sample(parentTime: 7)
        #expect(end.phase == .after)
        #expect(end.progress == 0.5 && end.iteration == 3)
        // whole repeat count ends at the end value
        let whole = timing(duration: 0.1, repeatCount: 3)
        let e = whole.sample(parentTime: 0.3000000001)
        #expect(e.phase == .after && e.progress == 1 && e.iteration == 2)
        // autoreverses: the way back, and a whole number of cycles ends at the start
        let ar = timing(duration: 2, repeatCount: 2, autoreverses: true)
        #expect(ar.sample(parentTime: 1).progress == 0.5)
        #expect(ar.sample(parentTime: 3).progress == 0.5)
        #expect(ar.sample(parentTime: 3.5).progress == 0.25)
        #expect(ar.sample(parentTime: 8).progress == 0)
        #expect(ar.sample(parentTime: 8).phase == .after)
    }

    @Test("the first cycle of an autoreversing timing, there and back, up to the snap below its end")
    func firstAutoreversingCycle() {
        // d = 2, c = 4, repeating for ever: there over [0, 2), back over [2, 4).
        let ar = timing(duration: 2, repeatCount: .infinity, autoreverses: true)
        let back = ar.sample(parentTime: 3.5)
        #expect(back.iteration == 0 && back.cycleTime == 0.5 && back.progress == 0.25)
        let there = ar.sample(parentTime: 0.5)
        #expect(there.iteration == 0 && there.cycleTime == 0.5 && there.progress == 0.25)
        #expect(ar.sample(parentTime: 2).progress == 1)
        // 4 - 2e-12 is within the whole-number snap of the boundary (t / c
        // misses 1 by 5e-13): the start of cycle 1, as at every later boundary.
        let snapped = ar.sample(parentTime: 4 - 2e-12)
        #expect(snapped.iteration == 1 && snapped.progress == 0)
        // 4 - 1e-11 is not: still on the way back, 1e-11 / 2 from the start.
        let near = ar.sample(parentTime: 4 - 1e-11)
        #expect(near.iteration == 0 && abs(near.progress - 5e-12) <= 1e-15)
        // An infinite duration never turns back: progress 0 throughout.
        let endless = timing(duration: .infinity, autoreverses: true)
        #expect(endless.sample(parentTime: 5).progress == 0)
        #expect(endless.sample(parentTime: 5).iteration == 0)
    }

    @Test("lastCycle steps back only from a cycle that starts at or after a finite end")
    func lastCycleRule() {
        // c = 2: cycle 3 starts at 6.
        #expect(ResolvedTiming.lastCycle(3, cycle: 2, activeDuration: 6) == 2)
        #expect(ResolvedTiming.lastCycle(3, cycle: 2, activeDuration: 5.5) == 2)
        #expect(ResolvedTiming.lastCycle(3, cycle: 2, activeDuration: 6.5) == 3)
        #expect(ResolvedTiming.lastCycle(0, cycle: 2, activeDuration: 0) == 0)
        #expect(ResolvedTiming.lastCycle(3, cycle: 2, activeDuration: .infinity) == 3)
        #expect(ResolvedTiming.lastCycle(1e15, cycle: 0.3, activeDuration: .infinity) == 1e15)
    }

    @Test("a time a rounding below the end of the active duration is in the last cycle, at its end")
    func roundingBelowTheEnd() {
        // 2.558 - 0.558 is 1.9999999999999998, one ulp below D = 2: t / c is
        // within the whole-number snap of 2, but there is no third cycle
        // (D = 2 cycles): i = 1, u = a - 1.
        let a = 2.558 - 0.558
        #expect(a < 2)
        let t = timing(duration: 1, repeatCount: 2, begin: 0.558)
        let s = t.sample(parentTime: 2.558)
        #expect(s.phase == .active)
        #expect(s.iteration == 1)
        #expect(s.progress == a - 1)
        // autoreverses: c = 2, D = 4; 0.1 + 4 - 0.1 is 3.9999999999999996, on
        // the way back of cycle 1, a hair after its start value: p = (4 - a) / 1.
        let ar = timing(duration: 1, repeatCount: 2, autoreverses: true, begin: 0.1)
        let b = (0.1 + 4) - 0.1
        #expect(b < 4)
        let r = ar.sample(parentTime: 0.1 + 4)
        #expect(r.phase == .active && r.iteration == 1)
        #expect(r.progress == 2 - (b - 2))
        // repeatDuration a whole number of cycles: the same rule.
        let rd = timing(duration: 1, repeatDuration: 3, begin: 1.1)
        #expect(rd.sample(parentTime: 1.1 + 3).iteration == 2)
        #expect(rd.sample(parentTime: 1.1 + 3).progress == ((1.1 + 3) - 1.1) - 2)
        // Inside the active duration a snapped whole cycle still starts the next one.
        let mid = timing(duration: 0.1, repeatCount: 10)
        #expect(mid.sample(parentTime: 0.7).iteration == 7)
        #expect(mid.sample(parentTime: 0.7).progress == 0)
    }

    /// The whole-number snap of cycle counts is for rounding, so its window must not
    /// grow with the running time (found by a long-running-host audit: with
    /// `now` in epoch seconds a 0.3 s repeating animation showed its next cycle's
    /// start for the last millisecond of every cycle). A frame 1 ms before a
    /// boundary at a ≈ 1.7e9 s shows 1 − 0.001 / 0.3, to the rounding of `now`
    /// (ulp 2.4e-7 s, 8e-7 of progress).
    @Test("cycle boundaries at large running times snap only at rounding level", arguments: [false, true])
    func noEarlyCycleAtLargeTimes(general: Bool) {
        let k = 5_666_666_667.0                   // cycles of 0.3 s: a ≈ 1.7e9 s
        for miss in [1e-3, 5e-4, 1e-4, 1e-6] {
            var r = Rig()
            let l = r.layer()
            r.tick(0)
            r.add(l, r.basic("opacity", from: [0], to: [1], duration: 0.3) { s throws(CadenceError) in
                s.timing.repeatCount = .infinity
            }, key: "a")
            // A second animation puts the layer on the general evaluator.
            if general { r.add(l, r.basic("position.x", from: [0], to: [1], duration: 1e12), key: "b") }
            let now = k * 0.3 - miss
            r.tick(now)
            #expect(abs(r.pres1(l, "opacity") - (1 - miss / 0.3)) <= 1e-5, "miss \(miss): \(r.pres1(l, "opacity"))")
        }
        // The engine's sampler itself, on both sides of a boundary.
        let t = timing(duration: 0.3, repeatCount: .infinity)
        let before = t.sample(parentTime: k * 0.3 - 1e-3), after = t.sample(parentTime: k * 0.3 + 1e-3)
        #expect(before.iteration == k - 1 && abs(before.progress - (1 - 1e-3 / 0.3)) <= 1e-5)
        #expect(after.iteration == k && abs(after.progress - 1e-3 / 0.3) <= 1e-5)
    }

    @Test("fill modes decide the effect before and after")
    func fill() {
        for (mode, before, after) in [(FillMode.removed, false, false), (.forwards, false, true), (.backwards, true, false), (.both, true, true)] {
            let t = timing(duration: 1, fill: mode, begin: 5)
            #expect(t.sample(parentTime: 4).hasEffect == before)
            #expect(t.sample(parentTime: 4).progress == 0)
            #expect(t.sample(parentTime: 7).hasEffect == after)
            #expect(t.sample(parentTime: 7).progress == 1)
            #expect(t.sample(parentTime: 5.5).hasEffect)
        }
    }

    @Test("worked example: speed 2, timeOffset 0.5, duration 1")
    func speedOffsetExample() {
        let t = timing(duration: 1, speed: 2, offset: 0.5, begin: 10)
        #expect(t.sample(parentTime: 10).progress == 0.5)
        #expect(t.sample(parentTime: 10.25).progress == 0)
        #expect(t.sample(parentTime: 10.125).progress == 0.75)
        #expect(t.sample(parentTime: 10.4999).phase == .active)
        #expect(t.sample(parentTime: 10.5).phase == .after)
    }

    @Test("speed 0 holds the offset for ever")
    func speedZero() {
        let t = timing(duration: 1, speed: 0, offset: 0.25, begin: 3)
        for tp in [0.0, 3, 100, 1e9] {
            let s = t.sample(parentTime: tp)
            #expect(s.phase == .active && s.progress == 0.25)
        }
    }

    @Test("an animation on a layer: linear 0 -> 100 over 1 s")
    func basicLinear() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("position.x", from: [0], to: [100], duration: 1))
        for k in 0...3 {
            r.tick(Double(k) * 0.25)
            #expect(near(r.pres1(l, "position.x"), Double(k) * 25))
        }
        r.tick(1)
        #expect(r.pres1(l, "position.x") == 0)   // removed, back to the model
        #expect(try! r.e.animationCount(layer: l) == 0)
    }

    @Test("added animations begin at the layer's local time now (§3.4)")
    func beginNow() {
        var r = Rig(tick: 10)
        let l = r.layer()
        r.add(l, r.basic("opacity", from: [0], to: [1], duration: 2))
        r.tick(11)
        #expect(near(r.pres1(l, "opacity"), 0.5))
        // an explicit beginTime is taken as given (root layer: global time)
        r.add(l, r.basic("zPosition", from: [0], to: [10], duration: 1) { s in s.timing.beginTime = 13 })
        r.tick(12)
        #expect(r.pres1(l, "zPosition") == 0)
        r.tick(13.5)
        #expect(near(r.pres1(l, "zPosition"), 5))
    }

    @Test("worked example: a paused scrub (§3.3)")
    func pausedScrub() {
        var r = Rig()
        let l = r.layer()
        try! r.e.set(layer: l, "speed", [0])
        // added when the layer's local time is 0
        r.add(l, r.basic("transform.rotation.y", from: [0], to: [-Double.pi / 2], duration: 1))
        try! r.e.set(layer: l, "timeOffset", [0.25])
        r.tick(5)
        #expect(near(r.pres1(l, "transform.rotation.y"), -Double.pi / 8, 1e-12))
        try! r.e.set(layer: l, "timeOffset", [0.5])
        #expect(near(r.pres1(l, "transform.rotation.y"), -Double.pi / 4, 1e-12))
    }

    @Test("pause and resume idiom (§3.5): continuous, and animations resume where they stopped")
    func pauseResume() {
        var r = Rig(tick: 100)
        let parent = r.layer(), child = r.layer()
        try! r.e.addSublayer(parent, child)
        r.add(parent, r.basic("position.x", from: [0], to: [100], duration: 10))
        r.add(child, r.basic("opacity", from: [0], to: [1], duration: 10))
        r.tick(103)
        #expect(near(r.pres1(parent, "position.x"), 30))
        // pause
        let t = try! r.e.convertTime(r.e.now, from: 0, to: parent)
        try! r.e.set(layer: parent, "speed", [0])
        try! r.e.set(layer: parent, "timeOffset", [t])
        #expect(near(r.pres1(parent, "position.x"), 30, 1e-9))
        #expect(near(r.pres1(child, "opacity"), 0.3, 1e-9))
        r.tick(200)
        #expect(near(r.pres1(parent, "position.x"), 30, 1e-9))
        #expect(near(r.pres1(child, "opacity"), 0.3, 1e-9))
        // resume
        let p = r.model(parent, "timeOffset")[0]
        try! r.e.set(layer: parent, "speed", [1])
        try! r.e.set(layer: parent, "timeOffset", [0])
        try! r.e.set(layer: parent, "beginTime", [0])
        let b = try! r.e.convertTime(r.e.now, from: 0, to: parent) - p
        try! r.e.set(layer: parent, "beginTime", [b])
        #expect(near(r.pres1(parent, "position.x"), 30, 1e-9))
        #expect(near(r.pres1(child, "opacity"), 0.3, 1e-9))
        r.tick(202)
        #expect(near(r.pres1(parent, "position.x"), 50, 1e-9))
        #expect(near(r.pres1(child, "opacity"), 0.5, 1e-9))
    }

    @Test("hierarchical time: a sublayer at speed 2 under a parent at speed 0.5 runs at speed 1")
    func hierarchy() {
        var r = Rig()
        let a = r.layer(), b = r.layer()
        try! r.e.addSublayer(a, b)
        try! r.e.set(layer: a, "speed", [0.5])
        try! r.e.set(layer: b, "speed", [2])
        #expect(near(try! r.e.convertTime(10, from: 0, to: b), 10))
        #expect(near(try! r.e.convertTime(10, from: 0, to: a), 5))
        #expect(near(try! r.e.convertTime(5, from: a, to: 0), 10))
        r.add(b, r.basic("opacity", from: [0], to: [1], duration: 4))
        r.tick(2)
        #expect(near(r.pres1(b, "opacity"), 0.5))
        // converting out of a paused layer gives its beginTime (Cadence)
        try! r.e.set(layer: a, "speed", [0])
        try! r.e.set(layer: a, "beginTime", [3])
        #expect(try! r.e.convertTime(123, from: a, to: 0) == 3)
    }

    @Test("convertTime composes the maps through the lowest common ancestor: a paused ancestor plays no part")
    func convertThroughCommonAncestor() throws {
        var r = Rig()
        // P paused (speed 0, timeOffset 5); C1 (begin 2, speed 0.5, offset 0.125)
        // and C2 (begin -1, speed 4, offset 2) under it.
        let p = r.layer(["speed": [0], "timeOffset": [5]])
        let c1 = r.layer(["beginTime": [2], "speed": [0.5], "timeOffset": [0.125]])
        let c2 = r.layer(["beginTime": [-1], "speed": [4], "timeOffset": [2]])
        try r.e.addSublayer(p, c1)
        try r.e.addSublayer(p, c2)
        // C1 -> P: C1's inverse only, (t - 0.125) / 0.5 + 2.
        #expect(try r.e.convertTime(3, from: c1, to: p) == 7.75)
        #expect(try r.e.convertTime(4, from: c1, to: p) == 9.75)
        // C1 -> C2: up to P, then C2's map (tp + 1) * 4 + 2.
        #expect(try r.e.convertTime(3, from: c1, to: c2) == 37)
        #expect(try r.e.convertTime(4, from: c1, to: c2) == 45)
        // P -> C1: C1's forward map, (9.75 - 2) * 0.5 + 0.125.
        #expect(try r.e.convertTime(9.75, from: p, to: c1) == 4)
        // A layer to itself: the identity, paused or not.
        #expect(try r.e.convertTime(3, from: p, to: p) == 3)
        #expect(try r.e.convertTime(-8.5, from: c2, to: c2) == -8.5)
        // Through global (different trees): out of the paused P gives its beginTime 0, into C1 from global goes through P (offset 5).
        let other = r.layer(["speed": [2]])
        #expect(try r.e.convertTime(6, from: other, to: c1) == (5 - 2) * 0.5 + 0.125)
        // A child with identity timing under a fast parent: only the child's map, exactly.
        let q = r.layer(["beginTime": [1e6], "speed": [1e9]])
        let k = r.layer()
        try r.e.addSublayer(q, k)
        #expect(try r.e.convertTime(1, from: k, to: q) == 1)
        #expect(try r.e.convertTime(1, from: q, to: k) == 1)
    }

    @Test("a paused layer's time is its timeOffset even when its superlayer's time overflows")
    func pausedUnderOverflow() throws {
        var r = Rig()
        let p = r.layer(["speed": [1e300], "beginTime": [-1e300]])
        let k = r.layer(["speed": [0], "timeOffset": [7]])
        try r.e.addSublayer(p, k)
        #expect(try r.e.convertTime(1, from: 0, to: k) == 7)
        r.add(k, r.basic("position.x", from: [0], to: [100], duration: 10) { s in
            s.timing.beginTime = 2
            s.timing.fillMode = .both
            s.removedOnCompletion = false
        })
        r.tick(1)
        // local time 7: (7 - 2) / 10 of the way.
        #expect(r.pres1(k, "position.x") == 50)
    }

    @Test("a layer with a future beginTime is left out of the render list unless it fills backwards")
    func futureLayer() {
        var r = Rig()
        let root = r.layer(), c = r.layer()
        try! r.e.addSublayer(root, c)
        try! r.e.set(layer: c, "beginTime", [5])
        var buf = [RenderItem](repeating: RenderItem(), count: 4)
        func count(_ r: inout Rig) -> Int {
            var span = buf.mutableSpan
            return try! r.e.renderList(root: root, into: &span)
        }
        #expect(count(&r) == 1)
        try! r.e.set(layer: c, "fillMode", [2])
        #expect(count(&r) == 2)
        try! r.e.set(layer: c, "fillMode", [0])
        r.tick(6)
        #expect(count(&r) == 2)
    }
}

@Suite("The simple track agrees with the general timing model")
struct SimpleTrackAgreementTests {

    /// SEMANTICS.md §3.2/§3.3 written out independently of the engine, for an
    /// animation with a positive speed and no repeatDuration, on a root layer with
    /// default timing (its parent time is global time): the progress it shows at
    /// `tp`, or nil when it has no effect.
    static func referenceProgress(_ m: MediaTiming, at tp: Double) -> Double? {
        let d = m.duration, c = m.autoreverses ? 2 * d : d
        let n = m.repeatCount == 0 ? 1 : m.repeatCount
        let D = c * n
        let a = (tp - m.beginTime) * m.speed
        func mirrored(_ u: Double) -> Double {
            let v = m.autoreverses && u > d ? 2 * d - u : u
            return min(max(v / d, 0), 1)
        }
        func active(_ t0: Double) -> Double {
            var t = t0
            if m.timeOffset != 0 && D.isFinite { t -= (t / D).rounded(.down) * D }
            let i = (t / c).rounded(.down)
            return mirrored(t - i * c)
        }
        // Before: with backwards/both fill, the value at active time 0 with the
        // offset applied (t = 0 + timeOffset, wrapped like any active time).
        if a < 0 { return m.fillMode == .backwards || m.fillMode == .both ? active(m.timeOffset) : nil }
        if a >= D {
            guard m.fillMode == .forwards || m.fillMode == .both else { return nil }
            // The end value: a whole number of cycles ends at u = c, a fractional
            // repeat count at its fractional point.
            let f = n - n.rounded(.down)
            return mirrored(f == 0 ? c : f * c)
        }
        return active(a + m.timeOffset)
    }

    /// opacity 0 → 0.5 over a model opacity of 1: the presentation is 0.5 · progress
    /// while the animation has an effect (at most 0.5) and 1 when it has none, so
    /// "no effect" cannot pass for progress 1. Half of the animations begin in the
    /// future (an explicit beginTime is taken as given, §3.4), so samples fall in
    /// the before phase, where only backwards/both fill shows the value at active
    /// time 0.
    @Test("random timings, random times: presentation == from + (to - from) * progress (reference §3.3)")
    func agreement() {
        var rng = SplitMix64(state: 42)
        var phases = (before: 0, beforeFilled: 0, active: 0, after: 0, noEffect: 0)
        for _ in 0..<300 {
            var r = Rig()
            let l = r.layer()
            var t = MediaTiming()
            t.duration = 0.1 + rng.unit() * 3
            t.speed = [1, 2, 0.5, 1.5][Int(rng.next() % 4)]
            t.timeOffset = rng.unit() < 0.5 ? 0 : rng.unit() * 5
            t.autoreverses = rng.unit() < 0.5
            t.repeatCount = [0, 1, 2.5, 3, .infinity][Int(rng.next() % 5)]
            t.fillMode = FillMode(rawValue: Int32(rng.next() % 4))!
            // 0: begins now (the engine's now is 0, §3.4); else 0.5 ..< 3.5 s ahead.
            t.beginTime = rng.unit() < 0.5 ? 0 : 0.5 + rng.unit() * 3
            var s = r.basic("opacity", from: [0], to: [0.5], duration: t.duration)
            s.timing = t
            s.removedOnCompletion = false
            r.add(l, s)
            for _ in 0..<10 {
                let now = r.e.now + rng.unit() * 2
                r.tick(now)
                let a = (now - t.beginTime) * t.speed
                let progress = Self.referenceProgress(t, at: now)
                if a < 0 {
                    phases.before += 1
                    if progress != nil { phases.beforeFilled += 1 }
                } else if a >= t.duration * (t.autoreverses ? 2 : 1) * (t.repeatCount == 0 ? 1 : t.repeatCount) {
                    phases.after += 1
                } else {
                    phases.active += 1
                }
                if progress == nil { phases.noEffect += 1 }
                let expected = progress.map { 0.5 * $0 } ?? 1   // no effect: the model opacity, 1
                #expect(near(r.pres1(l, "opacity"), expected, 1e-9), "timing \(t) at \(now)")
            }
        }
        // Every branch of the reference was exercised, the before phase with and
        // without a backwards fill.
        #expect(phases.before > 50 && phases.beforeFilled > 20 && phases.before - phases.beforeFilled > 20, "\(phases)")
        #expect(phases.active > 200 && phases.after > 200 && phases.noEffect > 50, "\(phases)")
    }
}
