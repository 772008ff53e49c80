import Testing
@testable import CadenceCore

/// The engine's memo of built keyframe timelines (TimelineMemo.swift): layers
/// that get the same keyframe inputs share one timeline, and any change of
/// the inputs builds a new one. Expected values are hand-worked from §7.
@Suite("Keyframe timeline memo")
struct TimelineMemoTests {
    static func keyframes(_ e: Engine, _ values: [Double], components: Int = 1, mode: CalculationMode = .linear,
                          keyTimes: [Double]? = nil, keyPath: String = "opacity") throws -> UInt64 {
        let a = try e.createAnimation(kind: .keyframe, keyPath: keyPath)
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in
            try s.setValues(values, count: values.count / components, components: components)
            try s.setCalculationMode(mode)
            if let keyTimes { try s.setKeyTimes(keyTimes) }
            s.timing.duration = 1
        }
        return a
    }

    @Test("one animation added to many layers builds its timeline once; they all follow it")
    func sharedAcrossLayers() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 100, 40, 60, 0, 50, 20, 10], components: 2, mode: .cubicPaced,
                                   keyPath: "position")
        var layers: [UInt64] = []
        for _ in 0..<50 {
            let l = try e.createLayer()
            try e.addAnimation(layer: l, animation: a, key: "k")
            layers.append(l)
        }
        #expect(e.timelineMemo.hits == 49)
        #expect(e.timelineMemo.entries.count == 1)
        try e.tick(0.5)
        // Every layer shows what a single add in a fresh engine shows, bit for bit.
        let f = Engine(salt: 4)
        try f.tick(0)
        let b = try Self.keyframes(f, [0, 100, 40, 60, 0, 50, 20, 10], components: 2, mode: .cubicPaced,
                                   keyPath: "position")
        let lf = try f.createLayer()
        try f.addAnimation(layer: lf, animation: b, key: "k")
        try f.tick(0.5)
        #expect(f.timelineMemo.hits == 0)
        let expected = try f.presentation(layer: lf, "position")
        for l in layers { #expect(try e.presentation(layer: l, "position") == expected) }
    }

    @Test("changing the values, key times or mode after an add builds a new timeline for the next add",
          arguments: 0..<4)
    func changedInputs(change: Int) throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 0.5, 1])
        let l1 = try e.createLayer(), l2 = try e.createLayer()
        try e.addAnimation(layer: l1, animation: a, key: "k")
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in
            switch change {
            case 0: try s.setValues([0, 0.25, 1], count: 3, components: 1)
            case 1: try s.setKeyTimes([0, 0.75, 1])
            case 2: try s.setCalculationMode(.discrete)
            default: try s.setValues([-0.0, 0.5, 1], count: 3, components: 1)   // -0: a different input bit for bit
            }
        }
        try e.addAnimation(layer: l2, animation: a, key: "k")
        #expect(e.timelineMemo.hits == 0)
        #expect(e.timelineMemo.entries.count == 2)
        try e.tick(0.25)
        // Layer 1: linear 0 → 0.5 over the first half: 0.25.
        #expect(near(try e.presentation(layer: l1, "opacity")[0], 0.25, 1e-12))
        let expected: Double
        switch change {
        case 0: expected = 0.125          // 0 → 0.25 over the first half
        case 1: expected = 0.5 / 3        // 0 → 0.5 over [0, 0.75]: a third of the way
        case 2: expected = 0              // discrete: the first value for the first third
        default: expected = 0.25
        }
        #expect(near(try e.presentation(layer: l2, "opacity")[0], expected, 1e-12))
    }

    @Test("tension, continuity and bias are part of the inputs")
    func tcbInputs() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 1, 2], mode: .cubic)
        let l1 = try e.createLayer(), l2 = try e.createLayer()
        try e.addAnimation(layer: l1, animation: a, key: "k")
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in
            try s.setTCB(tension: [1, 1, 1], continuity: nil, bias: nil)
        }
        try e.addAnimation(layer: l2, animation: a, key: "k")
        #expect(e.timelineMemo.hits == 0)
        // Halfway through segment 0 (Hermite weights 1/2 for the end value,
        // ±1/8 for the tangents). Catmull-Rom: tangents (1 - 0)/2 at the
        // first key (end point duplicated) and (2 - 0)/2 at the middle one:
        // 0.5 + 0.5/8 - 1/8 = 0.4375. Tension 1 makes every tangent 0: 0.5.
        try e.tick(0.25)
        #expect(near(try e.presentation(layer: l1, "opacity")[0], 0.4375, 1e-6))
        #expect(near(try e.presentation(layer: l2, "opacity")[0], 0.5, 1e-6))
    }

    @Test("path timelines are shared too, and a changed path is not")
    func paths() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try e.createAnimation(kind: .keyframe, keyPath: "position")
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in
            try s.appendPath(.move(0, 0))
            try s.appendPath(.line(100, 0))
            s.timing.duration = 1
        }
        let l1 = try e.createLayer(), l2 = try e.createLayer(), l3 = try e.createLayer()
        try e.addAnimation(layer: l1, animation: a, key: "k")
        try e.addAnimation(layer: l2, animation: a, key: "k")
        #expect(e.timelineMemo.hits == 1)
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.line(100, 100)) }
        try e.addAnimation(layer: l3, animation: a, key: "k")
        #expect(e.timelineMemo.hits == 1)
        try e.tick(0.75)
        #expect(near(try e.presentation(layer: l1, "position"), [75, 0], 1e-9))
        #expect(near(try e.presentation(layer: l2, "position"), [75, 0], 1e-9))
        // Two equal segments, linear by segment: 0.75 is halfway down the second.
        #expect(near(try e.presentation(layer: l3, "position"), [100, 50], 1e-9))
    }

    @Test("whole-matrix keys share their decompositions")
    func matrices() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let t = Transform3D.translation(100, 0, 0).elements
        let a = try Self.keyframes(e, Transform3D.identity.elements + t, components: 16, keyPath: "transform")
        let l1 = try e.createLayer(), l2 = try e.createLayer()
        try e.addAnimation(layer: l1, animation: a, key: "k")
        try e.addAnimation(layer: l2, animation: a, key: "k")
        #expect(e.timelineMemo.hits == 1)
        try e.tick(0.5)
        for l in [l1, l2] {
            let m = try e.presentation(layer: l, "transform")
            #expect(near(m[12], 50, 1e-9) && near(m[0], 1, 1e-12))
        }
    }

    @Test("a full memo replaces an entry no running animation uses; destroying an animation drops unused entries")
    func evictionAndRelease() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let l = try e.createLayer()
        var anims: [UInt64] = []
        for i in 0..<(TimelineMemo.capacity + 1) {
            let a = try Self.keyframes(e, [0, Double(i + 1) / 10])
            anims.append(a)
            try e.addAnimation(layer: l, animation: a, key: "k\(i)")
        }
        #expect(e.timelineMemo.entries.count == TimelineMemo.capacity)
        // All in use: the oldest went; re-adding the newest hits, the oldest builds again.
        try e.addAnimation(layer: l, animation: anims.last!, key: "again")
        #expect(e.timelineMemo.hits == 1)
        try e.addAnimation(layer: l, animation: anims[0], key: "again0")
        #expect(e.timelineMemo.hits == 1)
        // Finished animations leave the layer, and their timelines the memo.
        try e.tick(2)
        #expect(try e.animationCount(layer: l) == 0)
        #expect(e.timelineMemo.entries.isEmpty)
    }

    @Test("a timeline leaves the memo with the last instance holding it, however that instance goes",
          arguments: 0..<4)
    func releasedWithLastUser(how: Int) throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 0.25, 1], mode: .cubicPaced)
        let l1 = try e.createLayer(), l2 = try e.createLayer()
        try e.addAnimation(layer: l1, animation: a, key: "k")
        try e.addAnimation(layer: l2, animation: a, key: "k")
        try e.destroyAnimation(a)   // the object goes first: its layers still hold the timeline
        #expect(e.timelineMemo.entries.count == 1)
        try e.removeAnimation(layer: l1, key: "k")
        #expect(e.timelineMemo.entries.count == 1)   // l2 still runs it
        switch how {
        case 0: try e.removeAnimation(layer: l2, key: "k")
        case 1: try e.addAnimation(layer: l2, spec: try AnimationSpec(kind: .basic, keyPath: "opacity"), key: "k")
        case 2: try e.destroyLayer(l2)
        default: try e.tick(5)   // ends, removed on completion
        }
        #expect(e.timelineMemo.entries.isEmpty)
    }

    @Test("a build made only to check an action's description is dropped at the next release")
    func actionValidation() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 1])
        let b = try Self.keyframes(e, [1, 0])
        let l = try e.createLayer()
        try e.setAction(layer: l, key: "opacity", animation: a)
        #expect(e.timelineMemo.entries.count == 1)
        try e.addAnimation(layer: l, animation: b, key: "k")
        try e.removeAnimation(layer: l, key: "k")
        #expect(e.timelineMemo.entries.isEmpty)
    }

    @Test("a build that fails stores nothing and fails again")
    func failedBuild() throws {
        let e = Engine(salt: 3)
        try e.tick(0)
        let a = try Self.keyframes(e, [0, 0.5, 1])
        try e.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in try s.setKeyTimes([0, 1]) }
        let l = try e.createLayer()
        expectStatus(.invalidArgument) { () throws(CadenceError) in try e.addAnimation(layer: l, animation: a, key: "k") }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try e.addAnimation(layer: l, animation: a, key: "k") }
        #expect(e.timelineMemo.entries.isEmpty)
    }
}
