import Testing
@testable import CadenceCore

@Suite("Events (SEMANTICS.md §11)")
struct EventTests {
    @Test("start then stop(finished) with tags, in time order across layers")
    func order() {
        var r = Rig()
        let a = r.layer(), b = r.layer()
        var s1 = r.basic("opacity", from: [0], to: [1], duration: 0.5)
        s1.tag = 1
        var s2 = r.basic("opacity", from: [0], to: [1], duration: 0.3)
        s2.tag = 2
        r.add(a, s1, key: "one")
        r.add(b, s2, key: "two")
        r.tick(1)
        let ev = r.events()
        #expect(ev.map(\.kind) == [.start, .start, .stop, .stop])
        #expect(ev.map(\.tag) == [1, 2, 2, 1])       // b stops at 0.3 before a at 0.5
        #expect(ev.map(\.time) == [0, 0, 0.3, 0.5])
        #expect(ev[2].finished && ev[3].finished)
        #expect(ev[2].layer == b && ev[2].key == "two")
    }

    /// §3.4 + §11: an animation added with beginTime 0 begins at the add, so its start
    /// is dated at the add's `now` exactly, also under a superlayer whose time map
    /// rounds on the way back (found by a tree-mutation audit: A's start came out
    /// as 2.8100000000000005 and went after B's, against layer creation order).
    @Test("a start resolved at the add is dated at the add under any time map", arguments: [3.0, 1.0 / 3.0])
    func startAtTheAddUnderSpeed(speed: Double) {
        var r = Rig()
        let p = r.layer(["speed": [speed], "timeOffset": [1.3], "beginTime": [0.45]])
        let a = r.layer()
        try! r.e.addSublayer(p, a)
        let b = r.layer()                      // a root made after a
        r.tick(2.81)
        var s1 = r.basic("opacity", from: [0], to: [1], duration: 1)
        s1.tag = 1
        var s2 = s1
        s2.tag = 2
        r.add(a, s1, key: "k")
        r.add(b, s2, key: "k")
        r.tick(2.9)
        let ev = r.events()
        #expect(ev.map(\.kind) == [.start, .start])
        #expect(ev.map(\.tag) == [1, 2])
        #expect(ev.map(\.time) == [2.81, 2.81])
    }

    @Test("an animation added and finished within one tick interval reports start then stop")
    func startStopSameTick() {
        var r = Rig()
        let a = r.layer()
        r.add(a, r.basic("opacity", from: [0], to: [1], duration: 0.1))
        r.tick(5)
        let ev = r.events()
        #expect(ev.map(\.kind) == [.start, .stop])
    }

    @Test("removed and replaced animations stop with finished = false at the next tick")
    func unfinished() {
        var r = Rig()
        let a = r.layer()
        r.add(a, r.basic("opacity", from: [0], to: [1], duration: 5), key: "k")
        r.tick(1)
        _ = r.events()
        r.add(a, r.basic("opacity", from: [0], to: [1], duration: 5), key: "k")   // replaces
        #expect(r.events().isEmpty)          // delivered at the next tick
        r.tick(1.5)
        let ev = r.events()
        #expect(ev.count == 2)
        #expect(ev[0].kind == .stop && ev[0].finished == false)
        #expect(ev[1].kind == .start)
        try! r.e.destroyLayer(a)
        r.tick(2)
        let ev2 = r.events()
        #expect(ev2.count == 1 && ev2[0].kind == .stop && !ev2[0].finished)
    }

    @Test("events wait for their begin time; fill backwards starts at once")
    func delayed() {
        var r = Rig()
        let a = r.layer(), b = r.layer()
        r.add(a, r.basic("opacity", from: [0], to: [1], duration: 1) { s in s.timing.beginTime = 2 })
        r.add(b, r.basic("opacity", from: [0], to: [1], duration: 1) { s in s.timing.beginTime = 2; s.timing.fillMode = .backwards })
        r.tick(1)
        let ev = r.events()
        #expect(ev.count == 1 && ev[0].layer == b && ev[0].kind == .start)
        r.tick(2.5)
        let ev2 = r.events()
        #expect(ev2.count == 1 && ev2[0].layer == a && ev2[0].time == 2)
        #expect(ev[0].time == 0)                 // added at now = 0
        // The first tick after the add may already be past the begin time: the
        // backwards fill still started it when it was added (now = 2.5), not at
        // its begin (3).
        let c = r.layer()
        r.add(c, r.basic("opacity", from: [0], to: [1], duration: 1) { s in s.timing.beginTime = 3; s.timing.fillMode = .backwards })
        r.tick(5)
        let ev3 = r.events().filter { $0.layer == c }
        #expect(ev3.map(\.kind) == [.start, .stop] && ev3.first?.time == 2.5)
    }

    /// decisions.md "Event times": the exact crossing when the time map can be
    /// inverted, also for negative speeds. Hand-worked: layer speed −1 (local
    /// T = −t), animation speed −1 with begin b: a = (T − b)·(−1) = t + b.
    /// b = 0: a reaches D = 1 at t = 1. b = −1: a = t − 1 starts at t = 1 and
    /// ends at t = 2.
    @Test("stop times under negative speeds are the exact crossings")
    func negativeSpeedStopTimes() {
        for (begin, start, stop) in [(0.0, 0.0, 1.0), (-1.0, 1.0, 2.0)] {
            var r = Rig()
            let l = r.layer()
            try! r.e.set(layer: l, "speed", [-1])
            r.tick(0)
            r.add(l, r.basic("opacity", from: [0], to: [1], duration: 1) { s in
                s.timing.speed = -1
                s.timing.beginTime = begin
            })
            var ev: [Event] = []
            for t in [0.5, 1.5, 3.0, 4.0] {
                r.tick(t)
                ev += r.events()
            }
            #expect(ev.map(\.kind) == [.start, .stop], "begin \(begin)")
            #expect(ev.first?.time == start && ev.last?.time == stop, "begin \(begin): \(ev.map(\.time))")
        }
    }

    @Test("not-removed animations still report finished at their end")
    func notRemoved() {
        var r = Rig()
        let a = r.layer()
        r.add(a, r.basic("opacity", from: [0], to: [0.5], duration: 1) { s in s.removedOnCompletion = false; s.timing.fillMode = .forwards })
        r.tick(2)
        #expect(r.events().map(\.kind) == [.start, .stop])
        #expect(try! r.e.animationCount(layer: a) == 1)
        #expect(r.pres1(a, "opacity") == 0.5)
        r.tick(3)
        #expect(r.events().isEmpty)
    }

    @Test("the poll queue is bounded and counts what it dropped")
    func bounded() {
        var r = Rig()
        try! r.e.setEventCapacity(3)
        let a = r.layer()
        for k in 0..<5 { r.add(a, r.basic("opacity", from: [0], to: [1], duration: 0.1), key: "k\(k)") }
        r.tick(1)
        #expect(r.e.queuedEventCount == 3)
        #expect(r.e.droppedEventCount == 7)
        let ev = r.events()
        #expect(ev.map(\.kind) == [.stop, .stop, .stop])   // the newest are kept
    }

    @Test("the same calls give identical events in two engines (determinism)")
    func determinism() {
        func run() -> [String] {
            var r = Rig()
            var ls: [UInt64] = []
            for k in 0..<20 {
                let l = r.layer()
                ls.append(l)
                r.add(l, r.basic("opacity", from: [0], to: [1], duration: 0.05 * Double(k % 7 + 1)), key: "a\(k)")
            }
            var out: [String] = []
            for t in 1...10 {
                r.tick(Double(t) * 0.03)
                out += r.events().map { "\($0.kind) \($0.time) \($0.key) \($0.finished)" }
            }
            return out
        }
        #expect(run() == run())
    }
}
