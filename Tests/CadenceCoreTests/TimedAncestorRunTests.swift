#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// Layers under a timed ancestor (a slowed or paused root, SEMANTICS.md §3.1,
/// §3.5) on the fast paths: the tick's pass 1 evaluates their simple-track
/// entries on their local time, and the render list's runs take leaves whose
/// own time map is the identity under a superlayer that has begun. Checked
/// against hand-worked values and, byte for byte, against pass 2 and
/// `emitLayer` (`allowTimedRuns = false`).
@Suite("Layers under a timed ancestor on the fast paths")
struct TimedAncestorRunTests {
    /// The translation row of a leaf's item (world row 4: x, y).
    static func translation(_ e: Engine, _ root: UInt64, _ l: UInt64) -> [Double]? {
        var buf = [RenderItem](repeating: RenderItem(), count: 16)
        var span = buf.mutableSpan
        let n = try! e.renderList(root: root, into: &span)
        for it in buf[0..<n] where it.layer == l { return [Double(it.world.12), Double(it.world.13)] }
        return nil
    }

    /// Root R (world = identity) at speed 2; under it, leaves of bounds
    /// 10x10 (anchor offset 5, 5), each with position.x from 0 to 100 over 4 s
    /// (linear), added at global time 1, when R's time is (1 - 0) * 2 = 2:
    /// - A: own identity time map (a translated run);
    /// - B: the same with a transform of scale 2 (an affine run): its item's
    ///   translation is position - 2 * (5, 5);
    /// - C: own beginTime 0.5 (general path): its time is R's - 0.5, so its
    ///   animation begins at 1.5 of its time and reads the same progress.
    /// At global 1.5: R's time 3, progress (3 - 2) / 4 = 0.25, x = 25.
    /// Then R is paused with the idiom (speed 0, timeOffset = its time at
    /// 1.5 = 3): at any later global time x stays 25.
    @Test func slowedAndPausedRootClosedForm() {
        for timedRuns in [true, false] {
            var r = Rig()
            r.e.allowTimedRuns = timedRuns
            let root = r.layer(["bounds": [0, 0, 1000, 1000], "position": [500, 500], "speed": [2]])
            let a = r.layer(["bounds": [0, 0, 10, 10], "position": [0, 50]])
            let b = r.layer(["bounds": [0, 0, 10, 10], "position": [0, 80],
                             "transform": [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]])
            let c = r.layer(["bounds": [0, 0, 10, 10], "position": [0, 110], "beginTime": [0.5]])
            for l in [a, b, c] { try! r.e.addSublayer(root, l) }
            r.tick(1)
            for l in [a, b, c] { r.add(l, r.basic("position.x", from: [0], to: [100], duration: 4)) }
            r.tick(1.5)
            #expect(Self.translation(r.e, root, a) == [20, 45], "timedRuns \(timedRuns)")
            #expect(Self.translation(r.e, root, b) == [15, 70])
            #expect(Self.translation(r.e, root, c) == [20, 105])
            #expect(r.pres1(a, "position.x") == 25)
            // pause (SEMANTICS.md §3.5): time stands at 3
            try! r.e.set(layer: root, "speed", [0])
            try! r.e.set(layer: root, "timeOffset", [3])
            for now in [1.5, 2.0, 7.25] {
                r.tick(now)
                #expect(Self.translation(r.e, root, a) == [20, 45], "now \(now)")
                #expect(Self.translation(r.e, root, b) == [15, 70])
                #expect(Self.translation(r.e, root, c) == [20, 105])
            }
            // R's time before 0 (timeOffset -10): its leaves have not begun
            // (beginTime 0, no backwards fill) and are not drawn; R is.
            try! r.e.set(layer: root, "timeOffset", [-10])
            r.tick(8)
            var buf = [RenderItem](repeating: RenderItem(), count: 16)
            var span = buf.mutableSpan
            #expect(try! r.e.renderList(root: root, into: &span) == 1)
        }
    }

    /// Random trees under timed layers (speeds 0, 0.5, 2, -1, offsets,
    /// beginTimes, backwards fills), animated leaves and inner layers, timing
    /// edits between frames (sometimes read before the next tick): every
    /// render list and every presentation position equals, byte for byte,
    /// what pass 2, `emitLayer` and the dirty-layer pass give.
    @Test("random timed scenes agree with the general paths", arguments: 0..<12)
    func agreesWithGeneralPaths(seed: Int) {
        var g = SplitMix64(seed: 0x71AE_0000 &+ UInt64(seed))
        var t = EnginePair(salt: 6) { $0.allowTimedRuns = false }
        t.both { e throws(CadenceError) in try e.tick(0) }
        var root: UInt64 = 0
        let rootOpacity = g.uniform(0.5, 1)
        t.both { e throws(CadenceError) in
            root = try e.createLayer()
            try e.set(layer: root, "speed", [2])
            try e.set(layer: root, "opacity", [rootOpacity])
        }
        var ids: [UInt64] = [root]
        for k in 0..<50 {
            let parent = k < 5 ? root : ids[g.int(0...min(ids.count - 1, 5))]
            let pos = [g.uniform(0, 500), g.uniform(0, 500)]
            let bounds = [0, 0, g.uniform(1, 50), g.uniform(1, 50)]
            let turned = g.int(0...3) == 0
            let a = g.uniform(-3, 3)
            let xf = [cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
            let ownTime = g.int(0...4) == 0
            let begin = g.uniform(-1, 1)
            // Opacities below 1: a world opacity is then a product that
            // rounds differently in float and in double.
            let op = g.int(0...2) == 0 ? 1 : g.uniform(0.05, 1)
            var id: UInt64 = 0
            t.both { e throws(CadenceError) in
                id = try e.createLayer()
                try e.addSublayer(parent, id)
                try e.set(layer: id, "position", pos)
                try e.set(layer: id, "bounds", bounds)
                if turned { try e.set(layer: id, "transform", xf) }
                if ownTime { try e.set(layer: id, "beginTime", [begin]) }
                try e.set(layer: id, "opacity", [op])
            }
            ids.append(id)
        }
        var now = 0.0
        for step in 0..<50 {
            switch g.int(0...9) {
            case 0, 1:
                // a timing edit on the root or an inner layer
                let id = ids[g.int(0...5)]
                let key = ["speed", "timeOffset", "beginTime", "fillMode"][g.int(0...3)]
                let v: Double
                switch key {
                case "speed": v = [0, 0.5, 2, -1, 1][g.int(0...4)]
                case "timeOffset" where g.int(0...3) == 0: v = -0.0   // a zero with a sign
                case "fillMode": v = Double(g.int(0...3))
                default: v = g.uniform(-3, 3)
                }
                t.both { e throws(CadenceError) in try e.set(layer: id, key, [v]) }
                // Sometimes a read before the next tick (the change shows at
                // once, at the same global time).
                if g.int(0...2) == 0 {
                    let probe = ids[g.int(1...(ids.count - 1))]
                    let p = try! t.fast.presentation(layer: probe, "position")
                    let q = try! t.general.presentation(layer: probe, "position")
                    #expect(p.map(\.bitPattern) == q.map(\.bitPattern), "seed \(seed) step \(step) read after a timing edit")
                }
            case 2, 3:
                // an animation added on a random layer, on the layer's time
                let id = ids[g.int(1...(ids.count - 1))]
                let move = g.int(0...1) == 0
                var s = try! AnimationSpec(kind: .basic, keyPath: move ? "position" : "transform.rotation.z")
                if move {
                    try! s.setEndpoint(.from, ValueBuffer([g.uniform(0, 500), g.uniform(0, 500)]))
                    try! s.setEndpoint(.to, ValueBuffer([g.uniform(0, 500), g.uniform(0, 500)]))
                } else {
                    try! s.setEndpoint(.to, ValueBuffer(g.uniform(-3, 3)))
                }
                s.timing.duration = g.uniform(0.2, 2)
                s.timing.repeatCount = g.int(0...2) == 0 ? 1 : .infinity
                s.timing.autoreverses = g.int(0...1) == 0
                if g.int(0...3) == 0 { s.timing.fillMode = .both; s.removedOnCompletion = false }
                let key = g.int(0...1) == 0 ? "a" : "b"   // up to two animations per layer
                t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: key) }
            case 4:
                let id = ids[g.int(1...(ids.count - 1))]
                let h = Double(g.int(0...1))
                t.both { e throws(CadenceError) in try e.set(layer: id, "hidden", [h]) }
            default:
                break
            }
            now += g.int(0...4) == 0 ? 0 : g.uniform(0.01, 0.3)
            let tnow = now
            t.both { e throws(CadenceError) in try e.tick(tnow) }
            let from = g.int(0...3) == 0 ? ids[g.int(1...5)] : root
            #expect(Observed.renderList(t.fast, from) == Observed.renderList(t.general, from), "seed \(seed) step \(step)")
            for id in ids {
                let p = try! t.fast.presentation(layer: id, "position")
                let q = try! t.general.presentation(layer: id, "position")
                #expect(p.map(\.bitPattern) == q.map(\.bitPattern), "seed \(seed) step \(step)")
            }
        }
    }
}
