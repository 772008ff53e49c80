#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// `set(layers:_:_:)` (cad_engine_set): one key path's model value on many
/// layers, row by row, as one `set(layer:)` per layer; every argument is
/// checked before anything changes.
@Suite("Batch model sets")
struct BatchSetTests {
    static func target(_ k: String) -> KeyPathTarget { KeyPathTarget.lookup(k)! }

    static func set(_ e: Engine, _ ls: [UInt64], _ k: String, _ v: [Double]) throws(CadenceError) {
        try e.set(layers: ls.span, target(k), v.span)
    }

    @Test("rows go to the layers in order; a layer listed twice takes its last row")
    func rows() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<3).map { _ in try e.createLayer() }
        try Self.set(e, ls, "position", [1, 2, 3, 4, 5, 6])
        #expect(try e.get(layer: ls[0], "position") == [1, 2])
        #expect(try e.get(layer: ls[1], "position") == [3, 4])
        #expect(try e.get(layer: ls[2], "position") == [5, 6])
        try Self.set(e, [ls[0], ls[1], ls[0]], "opacity", [0.1, 0.2, 0.3])
        #expect(try e.get(layer: ls[0], "opacity") == [0.3])
        #expect(try e.get(layer: ls[1], "opacity") == [0.2])
        try Self.set(e, [], "opacity", [])
    }

    @Test("each set runs the key's implicit action, as a single set does")
    func actions() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<2).map { _ in try e.createLayer() }
        try e.tick(0)   // no longer new (§10)
        e.beginTransaction()
        try e.setTransactionCurve(.linear)
        try Self.set(e, ls, "opacity", [0, 0.5])
        try e.commitTransaction()
        // The default action: the transaction's 0.25 s and curve, from the value on screen (1).
        try e.tick(0.125)
        #expect(near(try e.presentation(layer: ls[0], "opacity")[0], 0.5, 1e-12))
        #expect(near(try e.presentation(layer: ls[1], "opacity")[0], 0.75, 1e-12))
        #expect(try e.animationKeys(layer: ls[0]) == ["opacity"])
        // Inside a transaction with actions disabled, no animation.
        e.beginTransaction()
        try e.setTransactionDisableActions(true)
        try Self.set(e, ls, "position", [5, 5, 6, 6])
        try e.commitTransaction()
        #expect(try e.animationKeys(layer: ls[1]) == ["opacity"])
        #expect(try e.presentation(layer: ls[1], "position") == [6, 6])
    }

    @Test("a bad handle, count or value anywhere changes nothing", arguments: 0..<5)
    func refusedUpFront(which: Int) throws {
        let e = Engine(salt: 5)
        let ls = try (0..<3).map { _ in try e.createLayer() }
        let gone = try e.createLayer()
        try e.destroyLayer(gone)
        var layers = ls, key = "position", values: [Double] = [1, 2, 3, 4, 5, 6], status = Status.invalidArgument
        switch which {
        case 0: layers[2] = gone; status = .invalidHandle
        case 1: values.removeLast(); status = .typeMismatch
        case 2: values[5] = .nan
        case 3: key = "duration"; values = [1, 2, -1]   // a timing key: negative durations are refused
        default: key = "contents"; values = [7, 8, 1.5] // contents must be whole ids
        }
        let before = try ls.map { try e.get(layer: $0, key) }
        do {
            try Self.set(e, layers, key, values)
            Issue.record("the batch was accepted")
        } catch {
            #expect(error.status == status)
            // The message names the refused row (a count has no row).
            #expect(error.message.contains("layers[2]") == (which != 1), "\(error.message)")
        }
        #expect(try ls.map { try e.get(layer: $0, key) } == before)
    }

    @Test("a whole transform set without actions under a running sub-key animation is the model it animates on")
    func transformUnderSubKeyAnimation() throws {
        let e = Engine(salt: 5)
        let l = try e.createLayer()
        try e.tick(0)
        // rotation.z from 0 to π/2 over 1 s (linear, no timing function).
        var spin = try AnimationSpec(kind: .basic, keyPath: "transform.rotation.z")
        try spin.setEndpoint(.from, ValueBuffer([0]))
        try spin.setEndpoint(.to, ValueBuffer([Double.pi / 2]))
        spin.timing.duration = 1
        try e.addAnimation(layer: l, spec: spin, key: "spin")
        e.beginTransaction()
        try e.setTransactionDisableActions(true)
        try Self.set(e, [l], "transform", Transform3D.translation(10, 0, 0).elements)
        try e.commitTransaction()
        try e.tick(0.5)
        // The animated angle, π/4, on the new model's other components: a
        // translation by 10 (§2.3: the sub-key replaces its component).
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        let m = try e.presentation(layer: l, "transform")
        #expect(near(m, [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1], 1e-12), "\(m)")
    }

    @Test("timing keys and frame take the single set's paths")
    func timingAndFrame() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<2).map { _ in try e.createLayer() }
        try Self.set(e, ls, "speed", [2, 0.5])
        #expect(try e.get(layer: ls[0], "speed") == [2])
        #expect(try e.get(layer: ls[1], "speed") == [0.5])
        try Self.set(e, ls, "bounds", [0, 0, 10, 20, 0, 0, 4, 4])
        // frame (0, 0, 10, 20) with the default anchor (0.5, 0.5): position (5, 10).
        try Self.set(e, ls, "frame", [0, 0, 10, 20, 2, 2, 4, 4])
        #expect(try e.get(layer: ls[0], "position") == [5, 10])
        #expect(try e.get(layer: ls[1], "position") == [4, 4])
    }
}

/// A batch against the loop of single sets it stands for, on twin engines
/// built alike: random key paths (timing keys, frame, contents, sub-keys,
/// booleans included), duplicate layers, layers with actions off or with a
/// custom keyframe action, inside and outside transactions and keyframe
/// windows. Presentation values and events must agree bit for bit.
@Suite("Batch sets against single sets")
struct BatchSetDifferentialTests {
    static let keys: [(String, @Sendable (inout SplitMix64) -> [Double])] = [
        ("position", { r in [r.uniform(-100, 100), r.uniform(-100, 100)] }),
        ("opacity", { r in [r.unit()] }),
        ("bounds", { r in [0, 0, r.uniform(1, 50), r.uniform(1, 50)] }),
        ("frame", { r in [r.uniform(-10, 10), r.uniform(-10, 10), r.uniform(1, 30), r.uniform(1, 30)] }),
        ("transform.rotation.z", { r in [r.uniform(-3, 3)] }),
        ("backgroundColor", { r in [r.unit(), r.unit(), r.unit(), 1] }),
        ("hidden", { r in [Double(r.int(0...1))] }),
        ("speed", { r in [r.uniform(0.5, 2)] }),
        ("timeOffset", { r in [r.uniform(-1, 1)] }),
        ("contents", { r in [Double(r.int(0...3))] }),
        ("zPosition", { r in [r.uniform(-5, 5)] }),
        ("anchorPoint", { r in [r.unit(), r.unit()] }),
        ("transform", { r in
            let a = r.uniform(-3, 3), s = r.uniform(0.5, 2)
            return r.int(0...3) == 0 ? Transform3D.identity.elements
                : [s * cos(a), s * sin(a), 0, 0, -s * sin(a), s * cos(a), 0, 0, 0, 0, 1, 0, r.uniform(-9, 9), 0, 0, 1]
        }),
    ]
    static let readKeys = ["position", "opacity", "bounds", "transform", "backgroundColor", "hidden", "zPosition",
                           "anchorPoint"]

    @Test("a batch equals its loop of single sets", arguments: 0..<16)
    func differential(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        let a = Engine(salt: 9), b = Engine(salt: 9)
        var ls: [UInt64] = [], root: UInt64 = 0
        for e in [a, b] {
            ls = []
            root = try e.createLayer()
            for i in 0..<10 {
                let l = try e.createLayer()
                try e.addSublayer(i < 5 ? root : ls[i - 5], l)
                ls.append(l)
            }
            try e.tick(0)
            try e.setActionsEnabled(layer: ls[3], false)
            // A custom keyframe action for opacity on layer 1.
            let kf = try e.createAnimation(kind: .keyframe, keyPath: "opacity")
            try e.modifyAnimation(kf) { (s: inout AnimationSpec) throws(CadenceError) in
                try s.setValues([0, 1, 0.5], count: 3, components: 1)
                s.timing.duration = 0.3
            }
            try e.setAction(layer: ls[1], key: "opacity", animation: kf)
        }
        var now = 0.0
        for _ in 0..<25 {
            let (key, gen) = Self.keys[rng.int(0...(Self.keys.count - 1))]
            let m = rng.int(0...6)
            var batch: [UInt64] = [], values: [Double] = []
            for _ in 0..<m {
                batch.append(ls[rng.int(0...(ls.count - 1))])
                values += gen(&rng)
            }
            let wrap = rng.int(0...4)   // 0, 1: none; 2: a transaction; 3: a keyframe window; 4: actions disabled
            let d = rng.uniform(0.05, 0.5)
            for e in [a, b] {
                if wrap >= 2 {
                    e.beginTransaction()
                    try e.setTransactionDuration(d)
                    if wrap == 3 { try e.beginKeyframe(relativeStart: 0.25, relativeDuration: 0.5) }
                    if wrap == 4 { try e.setTransactionDisableActions(true) }
                }
                if e === a {
                    try e.set(layers: batch.span, KeyPathTarget.lookup(key)!, values.span)
                } else {
                    let n = KeyPathTarget.lookup(key)!.components
                    for (k, l) in batch.enumerated() { try e.set(layer: l, key, Array(values[(k * n)..<((k + 1) * n)])) }
                }
                if wrap >= 2 { try e.commitTransaction() }
            }
            now += rng.uniform(0, 0.2)
            try a.tick(now)
            try b.tick(now)
            for k in Self.readKeys {
                let t = KeyPathTarget.lookup(k)!
                var oa = [Double](repeating: 0, count: ls.count * t.components), ob = oa
                var sa = oa.mutableSpan, sb = ob.mutableSpan
                _ = try a.sample(layers: ls.span, t, into: &sa)
                _ = try b.sample(layers: ls.span, t, into: &sb)
                #expect(oa.map(\.bitPattern) == ob.map(\.bitPattern), "\(k) after \(key) on \(batch.count) layers")
            }
            // The render lists byte for byte (identity flags, world matrices,
            // cached fields), every render cache up to date, and the events.
            #expect(Observed.renderList(a, root) == Observed.renderList(b, root), "render list after \(key)")
            #expect(Observed.staleCaches(a).isEmpty, "stale caches after a batch of \(key)")
            #expect(Observed.events(a) == Observed.events(b))
        }
    }
}
