#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// Layer programs (LayerProgram.swift): the tick's flat copy of a layer's
/// animations must be unobservable. Random scenes are played on two engines,
/// one with programs turned off (`allowPrograms = false`: the general
/// evaluator), and every observable — events, render lists byte for byte,
/// presentation values — is compared after every tick; the programs must
/// have run for most layers. Hand-worked values check the arithmetic itself.
@Suite("Layer programs agree with the general evaluator")
struct LayerProgramTests {
    static func timing(_ g: inout SplitMix64, _ s: inout AnimationSpec, finite: Bool) {
        s.timing.duration = g.uniform(0.2, 3)
        s.timing.repeatCount = finite ? Double(g.int(1...3)) : .infinity
        s.timing.autoreverses = g.int(0...1) == 0
        s.timing.timeOffset = g.int(0...2) == 0 ? 0 : g.uniform(0, 2)
        s.timing.speed = g.int(0...3) == 0 ? g.uniform(0.3, 3) : 1
        if g.int(0...4) == 0 { s.timing.beginTime = g.uniform(0.1, 1.5) }   // relative begin: later
        if g.int(0...4) == 0 { s.timing.fillMode = FillMode(rawValue: Int32(g.int(0...3)))! }
        if g.int(0...5) == 0 { s.removedOnCompletion = false }
    }

    static func curve(_ g: inout SplitMix64) -> TimingCurve? {
        switch g.int(0...5) {
        case 0: return .easeInEaseOut
        case 1: return .easeIn
        case 2: return TimingCurve(c1x: 0.3, c1y: -0.6, c2x: 0.7, c2y: 1.6)   // overshoots [0, 1]
        default: return nil
        }
    }

    /// One leaf of the forms a program takes (and a few it does not).
    static func leaf(_ g: inout SplitMix64, finite: Bool, inGroup: Bool) -> AnimationSpec {
        var s: AnimationSpec
        switch g.int(0...9) {
        case 0, 1:
            // Keyframes on position (linear or cubic, key times or not).
            s = try! AnimationSpec(kind: .keyframe, keyPath: "position")
            let n = g.int(2...6)
            var v: [Double] = []
            for _ in 0..<n { v += [g.uniform(-300, 300), g.uniform(-300, 300)] }
            try! s.setValues(v, count: n, components: 2)
            if g.int(0...1) == 0 { try! s.setCalculationMode(.cubic) }
            if g.int(0...2) == 0 {
                var kt = [0.0]
                for k in 1..<(n - 1) { kt.append(Double(k) / Double(n - 1) + g.uniform(-0.05, 0.05)) }
                kt.append(1)
                try! s.setKeyTimes(kt)
            }
        case 2:
            s = try! AnimationSpec(kind: .keyframe, keyPath: "opacity")
            try! s.setValues([g.unit(), g.unit(), g.unit()], count: 3, components: 1)
        case 3:
            s = try! AnimationSpec(kind: .spring, keyPath: "opacity")
            try! s.setEndpoint(.from, ValueBuffer(g.unit()))
            try! s.setEndpoint(.to, ValueBuffer(g.unit()))
            try! s.setSpring(Spring.perceptual(duration: g.uniform(0.3, 1.5), bounce: g.uniform(0, 0.6))!)
        case 4:
            s = try! AnimationSpec(kind: .basic, keyPath: "backgroundColor")
            try! s.setEndpoint(.from, ValueBuffer([g.unit(), g.unit(), g.unit(), 1]))
            try! s.setEndpoint(.to, ValueBuffer([g.unit(), g.unit(), g.unit(), g.unit()]))
        case 5:
            s = try! AnimationSpec(kind: .basic, keyPath: "transform.rotation.z")
            try! s.setEndpoint(.from, ValueBuffer(g.uniform(-4, 4)))
            try! s.setEndpoint(.to, ValueBuffer(g.uniform(-4, 4)))
        case 6:
            s = try! AnimationSpec(kind: g.int(0...2) == 0 ? .spring : .basic, keyPath: "transform.scale")
            try! s.setEndpoint(.from, ValueBuffer(g.uniform(0.2, 2)))
            try! s.setEndpoint(.to, ValueBuffer(g.uniform(0.2, 2)))
        case 7:
            s = try! AnimationSpec(kind: .basic, keyPath: "bounds")
            try! s.setEndpoint(.from, ValueBuffer([0, 0, g.uniform(1, 80), g.uniform(1, 80)]))
            try! s.setEndpoint(.to, ValueBuffer([0, 0, g.uniform(1, 80), g.uniform(1, 80)]))
        case 8:
            // Not a program form: additive, or a sub-key of a plain property.
            s = try! AnimationSpec(kind: .basic, keyPath: g.int(0...1) == 0 ? "position.x" : "zPosition")
            try! s.setEndpoint(.from, ValueBuffer(g.uniform(-50, 50)))
            try! s.setEndpoint(.to, ValueBuffer(g.uniform(-50, 50)))
            if g.int(0...1) == 0 { try! s.setAdditive(true) }
        default:
            s = try! AnimationSpec(kind: .basic, keyPath: "transform.translation.x")
            try! s.setEndpoint(.from, ValueBuffer(g.uniform(-50, 50)))
            try! s.setEndpoint(.to, ValueBuffer(g.uniform(-50, 50)))
        }
        timing(&g, &s, finite: finite)
        if inGroup {
            // Children mostly fill their group's duration (scene B's shape).
            s.timing.repeatCount = 1
            if g.int(0...2) != 0 { s.timing.timeOffset = 0; s.timing.beginTime = 0 }
        }
        if s.kind != .spring, let c = curve(&g) { s.setTimingCurve(c) }
        return s
    }

    static func animation(_ g: inout SplitMix64, finite: Bool) -> AnimationSpec {
        guard g.int(0...3) == 0 else { return leaf(&g, finite: finite, inGroup: false) }
        var grp = try! AnimationSpec(kind: .group, keyPath: nil)
        var kids: [AnimationSpec] = []
        for _ in 0..<g.int(1...3) {
            var k = leaf(&g, finite: true, inGroup: true)
            k.timing.duration = g.uniform(0.5, 3)
            kids.append(k)
        }
        try! grp.setChildren(kids)
        timing(&g, &grp, finite: finite)
        grp.timing.duration = g.uniform(1, 3)
        if let c = curve(&g) { grp.setTimingCurve(c) }
        return grp
    }

    @Test("random scenes: events, render lists and presentation values agree bit for bit", arguments: 0..<10)
    func agreesWithGeneralEvaluator(seed: Int) {
        var g = SplitMix64(seed: 0x9A0B_0000 &+ UInt64(seed))
        var t = EnginePair(salt: 9) { $0.allowPrograms = false }
        var now = 0.0
        t.both { e throws(CadenceError) in try e.tick(0) }
        let (root, ids) = randomTree(&g, count: 30, nestOneIn: 3, rotateOneIn: 5) { body in t.both(body) }
        let keys = ["a", "b", "c", "d"]
        for id in ids {
            for k in 0..<g.int(0...4) {
                let s = Self.animation(&g, finite: g.int(0...3) == 0)
                t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: keys[k]) }
            }
        }
        var ran = 0
        for step in 0..<90 {
            switch g.int(0...15) {
            case 0:
                let id = ids[g.int(0...(ids.count - 1))]
                let s = Self.animation(&g, finite: g.int(0...1) == 0)
                let key = keys[g.int(0...3)]
                t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: key) }
            case 1:
                let id = ids[g.int(0...(ids.count - 1))]
                t.both { e throws(CadenceError) in try e.removeAllAnimations(layer: id) }
            case 2:
                // A model write under running animations (transform: the programs decompose the model's).
                let id = ids[g.int(0...(ids.count - 1))]
                let a = g.uniform(-2, 2), sc = g.uniform(0.5, 2), x = g.uniform(0, 400)
                t.both { e throws(CadenceError) in
                    try e.setWithoutActions(layer: id, [("transform.rotation.z", [a]), ("transform.scale.x", [sc]),
                                                        ("position", [x, x])])
                }
            case 3:
                let id = ids[g.int(0...(ids.count - 1))]
                let sp = g.int(0...1) == 0 ? 1 : g.uniform(0.5, 2)
                t.both { e throws(CadenceError) in try e.set(layer: id, "speed", [sp]) }
            case 4:
                // Added inside a transaction: the program waits for the commit.
                let id = ids[g.int(0...(ids.count - 1))]
                let s = Self.animation(&g, finite: false)
                t.both { e throws(CadenceError) in
                    e.beginTransaction()
                    try e.addAnimation(layer: id, spec: s, key: "tx")
                    try e.commitTransaction()
                }
            case 5:
                let id = ids[g.int(0...(ids.count - 1))]
                var s = try! AnimationSpec(kind: .transition, keyPath: nil)
                try! s.setTransition(.fade, .fromLeft)
                s.timing.duration = 0.4
                t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: "transition") }
            default:
                break
            }
            now += g.int(0...7) == 0 ? 0 : g.uniform(0.001, 0.25)
            let tnow = now
            t.both { e throws(CadenceError) in try e.tick(tnow) }
            // Layers whose program ran this tick.
            let fallback = Set(t.fast.scratchFallback)
            for x in t.fast.animatedLayers where t.fast.layers[Int(x)].program >= 0 && !fallback.contains(x) { ran += 1 }
            #expect(Observed.staleCaches(t.fast).isEmpty, "render cache out of date, step \(step)")
            #expect(Observed.events(t.fast) == Observed.events(t.general), "events, step \(step)")
            #expect(Observed.renderList(t.fast, root) == Observed.renderList(t.general, root), "render list, step \(step)")
            for id in ids where g.int(0...3) == 0 {
                for key in ["position", "transform", "bounds", "opacity", "backgroundColor"] {
                    let a = try! t.fast.presentation(layer: id, key), b = try! t.general.presentation(layer: id, key)
                    #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(key), step \(step)")
                }
            }
        }
        #expect(ran >= 300, "layer-ticks run by programs: \(ran)")
        #expect(t.general.programLiveWords == 0)
    }

    /// Scene B's shape by hand: keyframes on position (linear, three values),
    /// opacity from/to, and a group of rotation.z and scale, each linear.
    /// §3.3 and §7 worked here; the transform is Rz(θ)·S(s) (§2.3).
    @Test("a layer of keyframes, opacity and a group of rotation and scale: the values of §3.3, §7 and §2.3")
    func handWorked() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let root = try e.createLayer()
        let l = try e.createLayer()
        try e.addSublayer(root, l)
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "position")
        try kf.setValues([0, 0, 100, 0, 100, 50], count: 3, components: 2)
        kf.timing.duration = 2
        kf.timing.repeatCount = .infinity
        var op = try AnimationSpec(kind: .basic, keyPath: "opacity")
        try op.setEndpoint(.from, ValueBuffer(0.2))
        try op.setEndpoint(.to, ValueBuffer(1))
        op.timing.duration = 4
        op.timing.autoreverses = true
        op.timing.repeatCount = .infinity
        var rot = try AnimationSpec(kind: .basic, keyPath: "transform.rotation.z")
        try rot.setEndpoint(.from, ValueBuffer(0))
        try rot.setEndpoint(.to, ValueBuffer(3))
        rot.timing.duration = 3
        var scl = try AnimationSpec(kind: .basic, keyPath: "transform.scale")
        try scl.setEndpoint(.from, ValueBuffer(1))
        try scl.setEndpoint(.to, ValueBuffer(2))
        scl.timing.duration = 1.5
        var grp = try AnimationSpec(kind: .group, keyPath: nil)
        try grp.setChildren([rot, scl])
        grp.timing.duration = 3
        grp.timing.repeatCount = .infinity
        try e.addAnimation(layer: l, spec: kf, key: "kf")
        try e.addAnimation(layer: l, spec: op, key: "op")
        try e.addAnimation(layer: l, spec: grp, key: "grp")
        try e.tick(0.01)   // the starts are reported by the general code
        #expect(e.layers[Int(l & 0xFFF_FFFF)].program >= 0)
        for (time, want) in [(0.5, (50.0, 0.0, 0.3, 0.5, 4.0 / 3)), (1.2, (100.0, 10.0, 0.44, 1.2, 1.8)),
                             (3.25, (100.0, 12.5, 0.85, 0.25, 1 + 0.25 / 1.5)), (6.5, (50.0, 0.0, 0.5, 0.5, 4.0 / 3))] {
            try e.tick(time)
            // Run by the program, not handed to the general code.
            #expect(e.scratchFallback.isEmpty, "t = \(time)")
            let pos = try e.presentation(layer: l, "position")
            #expect(near(pos, [want.0, want.1], 1e-12), "position at \(time): \(pos)")
            #expect(near(try e.presentation(layer: l, "opacity")[0], want.2, 1e-12), "opacity at \(time)")
            // Group time t mod 3 (3.25: 0.25): rotation = group time (0 → 3 in
            // 3 s), scale 1 + group time / 1.5 (1 → 2 in 1.5 s).
            let theta = want.3
            let s = want.4
            let m = try e.presentation(layer: l, "transform")
            let expect = [s * cos(theta), s * sin(theta), 0, 0, -s * sin(theta), s * cos(theta), 0, 0,
                          0, 0, s, 0, 0, 0, 0, 1]
            #expect(near(m, expect, 1e-12), "transform at \(time): \(m)")
        }
    }

    /// §6: a group whose progress is exactly 1 (here the turning point of an
    /// autoreversing group) holds a child that ends there — within the
    /// 1e-12 snap — at its end value, whatever its fill mode. The child's
    /// duration is 1 + 1e-13 s, so a plain sample at group time 1 would give
    /// 100 / (1 + 1e-13), not 100.
    @Test("a group at its turning point holds the children that end there (the 1e-12 snap)")
    func groupTurningPointHolds() throws {
        let e = Engine(salt: 6)
        try e.tick(0)
        let l = try e.createLayer()
        var x = try AnimationSpec(kind: .basic, keyPath: "position")
        try x.setEndpoint(.from, ValueBuffer([0, 0]))
        try x.setEndpoint(.to, ValueBuffer([100, 50]))
        x.timing.duration = 1 + 1e-13
        var o = try AnimationSpec(kind: .basic, keyPath: "opacity")
        try o.setEndpoint(.from, ValueBuffer(0))
        try o.setEndpoint(.to, ValueBuffer(1))
        o.timing.duration = 4
        var grp = try AnimationSpec(kind: .group, keyPath: nil)
        try grp.setChildren([x, o])
        grp.timing.duration = 1
        grp.timing.autoreverses = true
        grp.timing.repeatCount = .infinity
        try e.addAnimation(layer: l, spec: grp, key: "g")
        try e.tick(0.5)
        try e.tick(0.75)
        #expect(e.layers[Int(l & 0xFFF_FFFF)].program >= 0 && e.scratchFallback.isEmpty)
        try e.tick(1)
        #expect(try e.presentation(layer: l, "position") == [100, 50])
        #expect(try e.presentation(layer: l, "opacity") == [0.25])
    }

    @Test("layers leave and join programs as their animations change; regions are reused")
    func membership() throws {
        let e = Engine(salt: 4)
        try e.tick(0)
        let l = try e.createLayer()
        let li = Int(l & 0xFFF_FFFF)
        var a = try AnimationSpec(kind: .basic, keyPath: "opacity")
        try a.setEndpoint(.from, ValueBuffer(0))
        try a.setEndpoint(.to, ValueBuffer(1))
        a.timing.repeatCount = .infinity
        var b = try AnimationSpec(kind: .basic, keyPath: "position")
        try b.setEndpoint(.from, ValueBuffer([0, 0]))
        try b.setEndpoint(.to, ValueBuffer([10, 10]))
        b.timing.repeatCount = .infinity
        try e.addAnimation(layer: l, spec: a, key: "a")
        // One plain animation: the simple track, no program.
        #expect(e.layers[li].program < 0 && e.layers[li].simple >= 0)
        try e.addAnimation(layer: l, spec: b, key: "b")
        #expect(e.layers[li].program >= 0 && e.layers[li].simple < 0)
        let start = e.layers[li].program
        // An additive animation has no program form: the layer leaves.
        var c = b
        try c.setAdditive(true)
        try e.addAnimation(layer: l, spec: c, key: "c")
        #expect(e.layers[li].program < 0)
        #expect(e.programLiveWords == 0)
        try e.removeAnimation(layer: l, key: "c")
        // Back, in the same region.
        #expect(e.layers[li].program == start)
        #expect(e.programLiveWords == Int(e.layerCold[li].programCap))
        try e.removeAllAnimations(layer: l)
        #expect(e.layers[li].program < 0 && e.programLiveWords == 0)
    }

    /// Every layer with a program is a member of exactly one shape, at its
    /// slot; the index holds exactly the live shapes (empty ones included,
    /// counted by `emptyCount`); recycled slots have no members, no key.
    static func checkShapes(_ e: Engine, _ what: String) {
        let sh = e.programShapes
        var members = 0, empty = 0
        for s in 0..<sh.plans.count {
            members += sh.members[s].count
            if sh.live[s] {
                #expect(!sh.free.contains(s) && sh.index[sh.keys[s]] == s, "shape \(s), \(what)")
                if sh.members[s].isEmpty { empty += 1 }
            } else {
                #expect(sh.free.contains(s) && sh.members[s].isEmpty && sh.keys[s].isEmpty,
                        "recycled shape \(s) in use, \(what)")
            }
        }
        #expect(empty == sh.emptyCount, "\(empty) empty shapes, counted \(sh.emptyCount), \(what)")
        var programs = 0
        for l in 0..<e.layers.count where e.layers[l].program >= 0 {
            programs += 1
            let s = Int(e.layerCold[l].shape), k = Int(e.layerCold[l].shapeSlot)
            #expect(s >= 0 && k >= 0 && sh.members[s][k] == Int32(l), "layer \(l) not at its slot, \(what)")
        }
        #expect(members == programs, "\(members) members for \(programs) programs, \(what)")
        #expect(sh.index.count == sh.plans.count - sh.free.count, "\(what)")
    }

    /// Scene B's mix on 150 layers in a few shapes, so that shapes span several
    /// chunks of `ProgramLanes.width` lanes and members come and go (transitions,
    /// removals, new animations move layers between shapes, empty ones are
    /// recycled): still bit for bit the general evaluator's.
    @Test("shapes of many members, across chunks, as layers join and leave them", arguments: 0..<3)
    func shapesAcrossChunks(seed: Int) {
        var g = SplitMix64(seed: 0x5A9E_0000 &+ UInt64(seed))
        var t = EnginePair(salt: 9) { $0.allowPrograms = false }
        t.both { e throws(CadenceError) in try e.tick(0) }
        let (root, ids) = randomTree(&g, count: 150, nestOneIn: 4, rotateOneIn: 6) { body in t.both(body) }
        // Three variants of one mix: the shapes differ by the keyframe count and the group's curve.
        func mix(_ v: Int, _ g: inout SplitMix64) -> [(String, AnimationSpec)] {
            var kf = try! AnimationSpec(kind: .keyframe, keyPath: "position")
            let n = 3 + v
            var vals: [Double] = []
            for _ in 0..<n { vals += [g.uniform(0, 300), g.uniform(0, 300)] }
            try! kf.setValues(vals, count: n, components: 2)
            try! kf.setCalculationMode(.cubic)
            kf.timing.duration = 2
            kf.timing.repeatCount = .infinity
            kf.timing.timeOffset = g.uniform(0, 1.3)
            var sp = try! AnimationSpec(kind: .spring, keyPath: "opacity")
            try! sp.setEndpoint(.from, ValueBuffer(0.35))
            try! sp.setEndpoint(.to, ValueBuffer(1))
            try! sp.setSpring(Spring.perceptual(duration: 0.8, bounce: 0.3)!)
            sp.timing.autoreverses = true
            sp.timing.repeatCount = .infinity
            sp.timing.timeOffset = g.uniform(0, 1)
            var rot = try! AnimationSpec(kind: .basic, keyPath: "transform.rotation.z")
            try! rot.setEndpoint(.from, ValueBuffer(0))
            try! rot.setEndpoint(.to, ValueBuffer(2 * Double.pi))
            rot.timing.duration = 3
            var scl = try! AnimationSpec(kind: .basic, keyPath: "transform.scale")
            try! scl.setEndpoint(.from, ValueBuffer(0.9))
            try! scl.setEndpoint(.to, ValueBuffer(1.1))
            scl.timing.duration = 1.5
            scl.timing.autoreverses = true
            scl.setTimingCurve(.easeInEaseOut)
            var grp = try! AnimationSpec(kind: .group, keyPath: nil)
            try! grp.setChildren([rot, scl])
            grp.timing.duration = 3
            grp.timing.repeatCount = .infinity
            grp.timing.timeOffset = g.uniform(0, 1.4)
            if v == 2 { grp.setTimingCurve(.easeIn) }
            return [("path", kf), ("fade", sp), ("spin", grp)]
        }
        for id in ids {
            for (key, s) in mix(g.int(0...3) == 0 ? 1 + g.int(0...1) : 0, &g) {
                t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: key) }
            }
        }
        var transition = try! AnimationSpec(kind: .transition, keyPath: nil)
        try! transition.setTransition(.push, .fromLeft)
        transition.timing.duration = 0.5
        var now = 0.0
        var ran = 0
        for step in 0..<60 {
            for _ in 0..<g.int(0...6) {
                let id = ids[g.int(0...(ids.count - 1))]
                switch g.int(0...3) {
                case 0: t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: transition, key: "transition") }
                case 1: t.both { e throws(CadenceError) in _ = try? e.removeAnimation(layer: id, key: "fade") }
                case 2:
                    let m = mix(g.int(0...2), &g)
                    t.both { e throws(CadenceError) in
                        for (key, s) in m { try e.addAnimation(layer: id, spec: s, key: key) }
                    }
                default:
                    let sp = g.uniform(0.5, 2)
                    t.both { e throws(CadenceError) in try e.set(layer: id, "speed", [sp]) }
                }
            }
            now += g.uniform(0.005, 0.2)
            let tnow = now
            t.both { e throws(CadenceError) in try e.tick(tnow) }
            Self.checkShapes(t.fast, "step \(step)")
            let fallback = Set(t.fast.scratchFallback)
            for x in t.fast.animatedLayers where t.fast.layers[Int(x)].program >= 0 && !fallback.contains(x) { ran += 1 }
            #expect(Observed.staleCaches(t.fast).isEmpty, "render cache out of date, step \(step)")
            #expect(Observed.events(t.fast) == Observed.events(t.general), "events, step \(step)")
            #expect(Observed.renderList(t.fast, root) == Observed.renderList(t.general, root), "render list, step \(step)")
        }
        #expect(t.fast.programShapes.plans.count >= 3)
        #expect(t.fast.programShapes.members.map(\.count).max()! > 2 * ProgramLanes.width)
        #expect(ran >= 60 * 100, "layer-ticks run by programs: \(ran)")
    }

    /// 120 layouts (opacity keyframes of 2 to 31 values, linear or eased,
    /// beside a position animation, linear or eased): emptied shapes stay
    /// indexed until they outnumber 64 and the shapes in use, then are
    /// recycled together, and new layouts reuse their slots.
    @Test("empty shapes stay indexed, then are recycled together")
    func shapesAreRecycled() throws {
        let e = Engine(salt: 8)
        try e.tick(0)
        var ids: [UInt64] = []
        func addPair(_ id: UInt64, _ v: Int) throws {
            var kf = try AnimationSpec(kind: .keyframe, keyPath: "opacity")
            let n = 2 + v % 30
            try kf.setValues((0..<n).map { Double($0 % 2) }, count: n, components: 1)
            kf.timing.repeatCount = .infinity
            if (v / 30) & 1 != 0 { kf.setTimingCurve(.easeIn) }
            var mv = try AnimationSpec(kind: .basic, keyPath: "position")
            try mv.setEndpoint(.from, ValueBuffer([0, 0]))
            try mv.setEndpoint(.to, ValueBuffer([10, 10]))
            mv.timing.repeatCount = .infinity
            if (v / 30) & 2 != 0 { mv.setTimingCurve(.easeOut) }
            // The position first: alone it is on the simple track (no program),
            // so the only layout built is the pair's.
            try e.addAnimation(layer: id, spec: mv, key: "mv")
            try e.addAnimation(layer: id, spec: kf, key: "kf")
        }
        // The keyframes first: the position left alone goes to the simple track.
        func removePair(_ id: UInt64) throws {
            try e.removeAnimation(layer: id, key: "kf")
            try e.removeAnimation(layer: id, key: "mv")
        }
        for v in 0..<120 {
            let id = try e.createLayer()
            ids.append(id)
            try addPair(id, v)
        }
        try e.tick(0.1)
        Self.checkShapes(e, "built")
        #expect(e.programShapes.index.count == 120 && e.programShapes.free.isEmpty, "\(e.programShapes.index.count) shapes, \(ids.filter { e.layers[Int($0 & 0xFFF_FFFF)].program >= 0 }.count) programs")
        // Empty the first 60: they stay indexed (not more than 64 empty).
        for id in ids.prefix(60) { try removePair(id) }
        Self.checkShapes(e, "60 emptied")
        #expect(e.programShapes.emptyCount == 60 && e.programShapes.free.isEmpty)
        // Back on the same layouts: the same shapes, nothing created.
        for (v, id) in ids.prefix(60).enumerated() { try addPair(id, v) }
        Self.checkShapes(e, "refilled")
        #expect(e.programShapes.emptyCount == 0 && e.programShapes.plans.count == 120)
        // Empty 100: at the 65th, past 64 and past the 55 in use, the 65 empty ones go at once.
        for id in ids.prefix(100) { try removePair(id) }
        Self.checkShapes(e, "100 emptied")
        #expect(e.programShapes.free.count == 65 && e.programShapes.emptyCount == 35)
        // New layouts take the recycled slots.
        for (v, id) in ids.prefix(100).enumerated() { try addPair(id, v) }
        try e.tick(0.2)
        Self.checkShapes(e, "rebuilt")
        #expect(e.programShapes.plans.count == 120 && e.programShapes.index.count == 120 && e.programShapes.free.isEmpty)
    }
}
