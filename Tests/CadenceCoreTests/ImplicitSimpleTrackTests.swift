import Testing
@testable import CadenceCore

/// Implicit animations (no `from`, no `to`: from the presentation value at the
/// change to the model value, SEMANTICS.md §5.1 and §10) and `from`-only
/// animations run on the simple track when they are a layer's only
/// animation, with the model's value copied as their end and copied again at
/// every model write. Nothing a host can observe may differ from the general
/// evaluator: random UI-like scenes (retargets with actions, model writes
/// without actions under running animations, sub-keys, transactions with
/// durations, curves, delays and springs, layer speeds, reads between writes) are
/// played on two engines, one with `allowSimpleModelEnd` off, and events,
/// render lists (byte for byte) and presentation values (bit for bit) are
/// compared after every step.
@Suite("Implicit animations on the simple track agree with the general evaluator")
struct ImplicitSimpleTrackTests {
    static let keys: [(String, Int)] = [("position", 2), ("position.x", 1), ("position.y", 1), ("opacity", 1),
                                        ("bounds", 4), ("bounds.size.width", 1), ("backgroundColor", 4),
                                        ("zPosition", 1), ("cornerRadius", 1)]

    static func value(_ g: inout SplitMix64, _ key: String, _ n: Int) -> [Double] {
        switch key {
        case "opacity": return [g.unit()]
        case "backgroundColor": return [g.unit(), g.unit(), g.unit(), g.unit()]
        case "bounds": return [0, 0, g.uniform(1, 80), g.uniform(1, 80)]
        case "bounds.size.width", "cornerRadius": return [g.uniform(0, 60)]
        default: return (0..<n).map { _ in g.uniform(-400, 400) }
        }
    }

    @Test("random retargets, model writes and reads: events, render lists and values agree bit for bit",
          arguments: 0..<12)
    func agreesWithGeneralEvaluator(seed: Int) {
        var g = SplitMix64(seed: 0x1A9C_0000 &+ UInt64(seed))
        var t = EnginePair(salt: 21) { $0.allowSimpleModelEnd = false }
        t.both { e throws(CadenceError) in try e.tick(0) }
        let (root, ids) = randomTree(&g, count: 40, nestOneIn: 4, rotateOneIn: 6) { body in t.both(body) }
        var now = 0.01
        t.both { e throws(CadenceError) in try e.tick(0.01) }   // the layers are no longer new
        var onTrack = 0
        for step in 0..<120 {
            for _ in 0..<g.int(1...8) {
                let id = ids[g.int(0...(ids.count - 1))]
                let (key, n) = Self.keys[g.int(0...(Self.keys.count - 1))]
                let v = Self.value(&g, key, n)
                switch g.int(0...9) {
                case 0, 1:
                    // A model write without actions under a running animation:
                    // the animation's end follows it.
                    t.both { e throws(CadenceError) in try e.setWithoutActions(layer: id, [(key, v)]) }
                case 2:
                    // A transaction with its own duration, curve and delay.
                    let d = g.uniform(0.05, 1), delay = g.int(0...2) == 0 ? g.uniform(0, 0.3) : 0
                    let curve: TimingCurve = g.int(0...1) == 0 ? .easeInEaseOut : .linear
                    let spring = g.int(0...3) == 0   // implicit springs (UIKit-style)
                    t.both { e throws(CadenceError) in
                        e.beginTransaction()
                        try e.setTransactionDuration(d)
                        try e.setTransactionCurve(curve)
                        try e.setTransactionDelay(delay)
                        if spring { try e.setTransactionSpring(dampingRatio: 0.6, initialVelocity: 0) }
                        try e.set(layer: id, key, v)
                        try e.commitTransaction()
                    }
                case 3:
                    // A from-only animation (its end is the model value too).
                    var s = try! AnimationSpec(kind: .basic, keyPath: key)
                    try! s.setEndpoint(.from, ValueBuffer(Self.value(&g, key, n)))
                    s.timing.duration = g.uniform(0.1, 1)
                    s.timing.autoreverses = g.int(0...3) == 0
                    s.timing.repeatCount = g.int(0...3) == 0 ? 2 : 1
                    if g.int(0...2) == 0 { s.timing.fillMode = .both; s.removedOnCompletion = false }
                    t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: key) }
                case 4:
                    let sp = g.int(0...1) == 0 ? 1 : g.uniform(0.5, 2)
                    t.both { e throws(CadenceError) in try e.set(layer: id, "speed", [sp]) }
                case 5:
                    // A read between writes (the presentation is computed lazily).
                    let a = try! t.fast.presentation(layer: id, key), b = try! t.general.presentation(layer: id, key)
                    #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(key) read, step \(step)")
                default:
                    // A retarget: the default action, from where the layer is now.
                    t.both { e throws(CadenceError) in try e.set(layer: id, key, v) }
                }
            }
            now += g.int(0...6) == 0 ? 0 : g.uniform(0.004, 0.12)
            let tnow = now
            t.both { e throws(CadenceError) in try e.tick(tnow) }
            onTrack += t.fast.simpleAnims.filter { $0.flags2 & SimpleAnim.toModel != 0 }.count
            #expect(t.general.simpleAnims.allSatisfy { $0.flags2 & SimpleAnim.toModel == 0 })
            #expect(Observed.staleCaches(t.fast).isEmpty, "render cache out of date, step \(step)")
            #expect(Observed.events(t.fast) == Observed.events(t.general), "events, step \(step)")
            #expect(Observed.renderList(t.fast, root) == Observed.renderList(t.general, root), "render list, step \(step)")
            for id in ids where g.int(0...2) == 0 {
                for (key, _) in Self.keys {
                    let a = try! t.fast.presentation(layer: id, key), b = try! t.general.presentation(layer: id, key)
                    #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "\(key), step \(step)")
                }
            }
        }
        #expect(onTrack >= 400, "entries with the model's end on the track, summed over steps: \(onTrack)")
    }

    /// §5.1 by hand: opacity 0.2 → 1 implicitly (default 0.25 s, `default`
    /// curve not involved: a linear transaction), then the model set to 0.6
    /// without actions half-way: the animation now ends at 0.6.
    /// A retarget outside a transaction replaces the key's animation in
    /// place: the layer keeps its entry on the track (the replaced
    /// animation's removal no longer takes the layer off the track to put it
    /// back at the end), so the track keeps the order it was built in; the
    /// values are §5.1's. (The layers' action: a linear 1 s opacity animation.)
    @Test("a retarget keeps the layer's slot on the simple track (hand-worked)")
    func retargetKeepsTheSlot() throws {
        let e = Engine(salt: 5)
        try e.tick(0)
        var spec = try AnimationSpec(kind: .basic, keyPath: "opacity")
        spec.timing.duration = 1
        spec.setTimingCurve(.linear)
        let action = try e.storeSpec(spec)
        let ids = try (0..<3).map { _ in try e.createLayer() }
        for id in ids {
            try e.set(layer: id, "opacity", [0.2])
            try e.setAction(layer: id, key: "opacity", animation: action)
        }
        try e.tick(1)                                   // no longer new
        for id in ids { try e.set(layer: id, "opacity", [1]) }
        let slots = ids.map { e.layers[Int($0 & 0xFFF_FFFF)].simple }
        #expect(slots == [0, 1, 2])
        try e.tick(1.5)                                 // halfway: 0.6
        _ = try (0..<8).compactMap { _ in try? e.pollEvent() }
        try e.set(layer: ids[0], "opacity", [0])        // from 0.6 (on screen) to 0 over 1 s
        #expect(ids.map { e.layers[Int($0 & 0xFFF_FFFF)].simple } == slots)
        #expect(e.simpleAnims.count == 3)
        try e.tick(1.75)
        #expect(abs(try e.presentation(layer: ids[0], "opacity")[0] - (0.6 - 0.6 * 0.25)) < 1e-15)
        #expect(abs(try e.presentation(layer: ids[1], "opacity")[0] - (0.2 + 0.8 * 0.75)) < 1e-15)
        let events = try (0..<8).compactMap { _ in try? e.pollEvent() }
        let stops = events.filter { $0.kind == .stop }, starts = events.filter { $0.kind == .start }
        #expect(stops.count == 1 && stops[0].layer == ids[0] && !stops[0].finished)
        #expect(starts.count == 1 && starts[0].layer == ids[0])
    }

    @Test("the end follows a model write without actions (hand-worked)")
    func endFollowsTheModel() throws {
        let e = Engine(salt: 5)
        try e.tick(0)
        let l = try e.createLayer()
        try e.set(layer: l, "opacity", [0.2])
        try e.tick(1)                                   // no longer new
        e.beginTransaction()
        try e.setTransactionDuration(1)
        try e.setTransactionCurve(.linear)
        try e.set(layer: l, "opacity", [1])
        try e.commitTransaction()
        let li = Int(l & 0xFFF_FFFF)
        #expect(e.layers[li].simple >= 0, "on the simple track")
        try e.tick(1.25)
        #expect(abs(try e.presentation(layer: l, "opacity")[0] - (0.2 + 0.8 * 0.25)) < 1e-15)
        try e.setWithoutActions(layer: l, [("opacity", [0.6])])
        try e.tick(1.5)
        #expect(abs(try e.presentation(layer: l, "opacity")[0] - (0.2 + 0.4 * 0.5)) < 1e-15)
        try e.tick(1.75)
        #expect(abs(try e.presentation(layer: l, "opacity")[0] - (0.2 + 0.4 * 0.75)) < 1e-15)
        // An end whose difference overflows leaves the track for the general path.
        try e.setWithoutActions(layer: l, [("opacity", [1])])
        var z = try AnimationSpec(kind: .basic, keyPath: "zPosition")
        try z.setEndpoint(.from, ValueBuffer(-1e308))
        z.timing.duration = 1
        try e.addAnimation(layer: l, spec: z, key: "opacity")   // replaces the opacity animation
        #expect(e.layers[li].simple >= 0)
        try e.setWithoutActions(layer: l, [("zPosition", [1e308])])
        #expect(e.layers[li].simple < 0, "1e308 − (−1e308) overflows: the general path")
        try e.tick(1.8)
        #expect(try e.presentation(layer: l, "zPosition")[0].isFinite)
    }
}
