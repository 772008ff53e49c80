import Testing
@testable import CadenceCore

/// The instance store's sized storage: value regions of 8 to 64 doubles per
/// animation (`InstanceStore.allocateValues`) and the sparse tables of
/// transitions and transform ends (`SparseSlots`). Animations of every region
/// size are added, replaced and removed in random order, and every frame each
/// layer's presentation is checked against the closed form of its own
/// animation: two animations sharing a region, or a region handed out while
/// still in use, would show another animation's values.
@Suite("Instance storage: value regions and sparse tables")
struct InstanceStorageTests {
    /// What a layer carries: one additive animation (additive, so that the
    /// general evaluator reads the value region every frame: neither the
    /// simple track nor a layer program copies it).
    enum Carried {
        case none
        /// Basic from/to on `keyPath` (`n` components), begun at `begin`.
        case basic(keyPath: String, from: [Double], to: [Double], begin: Double)
        /// Basic from/to of translation matrices T(a) → T(b).
        case transform(a: [Double], b: [Double], begin: Double)
        /// Linear keyframes on `position`, evenly spaced.
        case keyframes(values: [[Double]], begin: Double)
    }

    static let duration = 1000.0

    static func translation(_ v: [Double]) -> [Double] {
        [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, v[0], v[1], v[2], 1]
    }

    /// The presentation of the carried animation's property at `t`, worked
    /// out from §3 (progress (t − begin) / d), §5.1 (from + (to − from)·p),
    /// §5.2 (additive over the model: zero position, bounds and zPosition,
    /// identity transform) and §7 (linear keyframes: segment j = ⌊p(k − 1)⌋).
    static func expected(_ c: Carried, at t: Double) -> (String, [Double])? {
        switch c {
        case .none:
            return nil
        case let .basic(keyPath, from, to, begin):
            let p = (t - begin) / duration
            return (keyPath, zip(from, to).map { $0 + ($1 - $0) * p })
        case let .transform(a, b, begin):
            let p = (t - begin) / duration
            return ("transform", translation(zip(a, b).map { $0 + ($1 - $0) * p }))
        case let .keyframes(values, begin):
            let p = (t - begin) / duration
            let x = p * Double(values.count - 1)
            let j = min(Int(x), values.count - 2)
            let u = x - Double(j)
            return ("position", zip(values[j], values[j + 1]).map { $0 + ($1 - $0) * u })
        }
    }

    /// A random animation of one of eight region sizes (3, 6 and 12 doubles
    /// of endpoints; 48 of matrix endpoints; flat keyframe copies of 6, 9, 21
    /// and 63 doubles).
    static func make(_ g: inout SplitMix64, kind: Int, now: Double) throws -> (AnimationSpec, Carried) {
        func vals(_ n: Int) -> [Double] { (0..<n).map { _ in g.uniform(-500, 500) } }
        var s: AnimationSpec
        let carried: Carried
        switch kind {
        case 0, 1, 2:
            let (keyPath, n) = [("zPosition", 1), ("position", 2), ("bounds", 4)][kind]
            let from = vals(n), to = vals(n)
            s = try AnimationSpec(kind: .basic, keyPath: keyPath)
            try s.setEndpoint(.from, ValueBuffer(from))
            try s.setEndpoint(.to, ValueBuffer(to))
            carried = .basic(keyPath: keyPath, from: from, to: to, begin: now)
        case 3:
            let a = vals(3), b = vals(3)
            s = try AnimationSpec(kind: .basic, keyPath: "transform")
            try s.setEndpoint(.from, ValueBuffer(translation(a)))
            try s.setEndpoint(.to, ValueBuffer(translation(b)))
            carried = .transform(a: a, b: b, begin: now)
        default:
            let keys = [2, 3, 7, 21][kind - 4]
            let values = (0..<keys).map { _ in vals(2) }
            s = try AnimationSpec(kind: .keyframe, keyPath: "position")
            try s.setValues(values.flatMap { $0 }, count: keys, components: 2)
            carried = .keyframes(values: values, begin: now)
        }
        s.timing.duration = duration
        try s.setAdditive(true)
        return (s, carried)
    }

    func check(_ e: Engine, _ layers: [UInt64], _ carried: [Carried], at t: Double,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (k, l) in layers.enumerated() {
            guard let (keyPath, want) = Self.expected(carried[k], at: t) else { continue }
            let got = try e.presentation(layer: l, keyPath)
            let ok = got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) }
            #expect(ok, "layer \(k) \(keyPath) at t = \(t): \(got) vs \(want)", sourceLocation: sourceLocation)
        }
    }

    @Test("animations of every region size, replaced and removed at random, keep their own values")
    func regionsDoNotOverlap() throws {
        let e = Engine(salt: 11)
        var g = SplitMix64(seed: 0xC0FFEE)
        let layers = try (0..<40).map { _ in try e.createLayer() }
        var carried = [Carried](repeating: .none, count: layers.count)
        var t = 0.0
        try e.tick(t)
        for _ in 0..<300 {
            for _ in 0..<g.int(1...6) {
                let k = g.int(0...(layers.count - 1))
                if g.int(0...7) == 0 {
                    try? e.removeAnimation(layer: layers[k], key: "a")
                    carried[k] = .none
                } else {
                    // (Another property than before: the replaced animation's
                    // property must show its model value, not a stale region.)
                    let (s, c) = try Self.make(&g, kind: g.int(0...7), now: t)
                    try e.addAnimation(layer: layers[k], spec: s, key: "a")
                    carried[k] = c
                }
            }
            t += 0.37
            try e.tick(t)
            try check(e, layers, carried, at: t)
        }
        // Model values where nothing animates any more (additive over zero).
        for (k, l) in layers.enumerated() {
            if case .none = carried[k] { #expect(try e.presentation(layer: l, "position") == [0, 0]) }
        }
    }

    @Test("replacing animations reuses their regions: the value store does not grow")
    func regionsAreReused() throws {
        let e = Engine(salt: 12)
        var g = SplitMix64(seed: 7)
        let layers = try (0..<24).map { _ in try e.createLayer() }
        var carried = [Carried](repeating: .none, count: layers.count)
        var t = 0.0
        try e.tick(t)
        // Layer k always carries kind k % 8: each replacement frees a region
        // of the size the next one needs.
        func round() throws {
            for (k, l) in layers.enumerated() {
                let (s, c) = try Self.make(&g, kind: k % 8, now: t)
                try e.addAnimation(layer: l, spec: s, key: "a")
                carried[k] = c
            }
        }
        try round()
        let size = e.inst.values.count
        // The shared zero region (64), then per kind the smallest class of
        // 8, 16, 32 or 64 doubles that holds it, three layers each: from/to/by
        // of 1, 2 and 4 components (3, 6, 12 doubles: 8, 8, 16), of a matrix
        // (48: 64); flat keyframes of 2, 3, 7 and 21 keys of 2 components
        // (k + 2k doubles: 6, 9, 21, 63: 8, 16, 32, 64).
        #expect(size == 64 + 3 * (8 + 8 + 16 + 64 + 8 + 16 + 32 + 64))
        for _ in 0..<50 {
            try round()
            t += 0.5
            try e.tick(t)
            try check(e, layers, carried, at: t)
        }
        #expect(e.inst.values.count == size)
    }

    struct Probe: SparseSlotValue {
        var x = 0
        var payload: [Int] = []
    }

    @Test("sparse slots: values only where set, in place updates, entries reused")
    func sparseSlots() {
        var s = SparseSlots<Probe>()
        for _ in 0..<10 { s.appendSlot() }
        #expect(s.slotCount == 10 && s.presentCount == 0)
        for i in stride(from: 0, to: 10, by: 3) { s.set(i, Probe(x: i, payload: [i])) }
        #expect(s.presentCount == 4)
        for i in 0..<10 {
            #expect(s.has(i) == (i % 3 == 0))
            #expect(s[i]?.x == (i % 3 == 0 ? i : nil))
        }
        s.update(3) { $0.x = 33; $0.payload.append(4) }
        s.update(4) { $0.x = 44 }   // no value: nothing
        #expect(s[3]?.x == 33 && s[3]?.payload == [3, 4] && s[4] == nil)
        s.set(3, nil)
        s.set(6, nil)
        #expect(s.presentCount == 2 && !s.has(3) && s[6] == nil)
        // Two new values take the two freed entries.
        s.set(1, Probe(x: 1))
        s.set(2, Probe(x: 2))
        #expect(s.presentCount == 4 && s.poolCount == 4)
        #expect(s[0]?.x == 0 && s[1]?.x == 1 && s[2]?.x == 2 && s[9]?.x == 9)
        s.set(1, Probe(x: 100))   // replaces in place
        #expect(s[1]?.x == 100 && s.poolCount == 4)
    }
}
