import Testing
@testable import CadenceCore

/// Edits whose cost must not grow with the size of what they edit: sublayer
/// removal (holes in the sublayer array, `detachFromParent`), attaching a
/// leaf (no ancestor walk), adding animations without keys (no key search),
/// removing all of a layer's animations at once, and listing keys by index
/// (`animationKey(at:)` continuing from its last answer). These check that
/// the results are what a plain model of the tree and the lists says.
@Suite("Tree and animation-list edits agree with a plain model")
struct TreeAndListEditTests {
    /// The tree as a host would keep it: parents and ordered children.
    struct PlainTree {
        var parent: [UInt64: UInt64] = [:]
        var children: [UInt64: [UInt64]] = [:]
        var live: [UInt64] = []

        func isAncestor(_ a: UInt64, of l: UInt64) -> Bool {
            var p = parent[l]
            while let x = p {
                if x == a { return true }
                p = parent[x]
            }
            return false
        }

        mutating func detach(_ c: UInt64) {
            if let p = parent[c] {
                children[p]?.removeAll { $0 == c }
                parent[c] = nil
            }
        }

        func preorder(_ r: UInt64) -> [UInt64] {
            var out: [UInt64] = [r]
            for c in children[r] ?? [] { out += preorder(c) }
            return out
        }
    }

    func expectSame(_ e: Engine, _ t: PlainTree, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for l in t.live {
            #expect(try e.superlayer(of: l) == (t.parent[l] ?? 0), sourceLocation: sourceLocation)
            let want = t.children[l] ?? []
            #expect(try e.sublayerCount(of: l) == want.count, sourceLocation: sourceLocation)
            #expect(try e.sublayerIDs(of: l) == want, sourceLocation: sourceLocation)
            for (i, c) in want.enumerated() where i % 7 == 0 {
                #expect(try e.sublayer(of: l, at: i) == c, sourceLocation: sourceLocation)
            }
        }
    }

    func renderOrder(_ e: Engine, _ root: UInt64) throws -> [UInt64] {
        var buf = [RenderItem](repeating: RenderItem(), count: 1024)
        var span = buf.mutableSpan
        let n = try e.renderList(root: root, into: &span)
        return buf.prefix(n).map(\.layer)
    }

    @Test("random inserts, moves, removals and destructions: sublayers, superlayers and render order as the plain tree")
    func sublayerEdits() throws {
        let e = Engine(salt: 21)
        var g = SplitMix64(seed: 0x5EED)
        var t = PlainTree()
        try e.tick(0)
        // A few wide parents (holes, compaction), the rest joining and leaving them.
        for _ in 0..<240 {
            let l = try e.createLayer()
            t.live.append(l)
            t.children[l] = []
        }
        let hubs = Array(t.live.prefix(4))
        for (k, l) in t.live.enumerated() where k >= 4 {
            let p = hubs[k % 4]
            try e.addSublayer(p, l)
            t.parent[l] = p
            t.children[p]!.append(l)
        }
        try expectSame(e, t)
        for step in 0..<1500 {
            let c = t.live[g.int(0...(t.live.count - 1))]
            switch g.int(0...9) {
            case 0...2:
                // Remove from its superlayer.
                try e.removeFromSuperlayer(c)
                t.detach(c)
            case 3:
                // Destroy; its sublayers become roots; a new layer joins a hub.
                try e.destroyLayer(c)
                t.detach(c)
                for s in t.children[c] ?? [] { t.parent[s] = nil }
                t.children[c] = nil
                t.live.removeAll { $0 == c }
                let n = try e.createLayer()
                t.live.append(n)
                t.children[n] = []
                let p = hubs[g.int(0...3)]
                if t.live.contains(p) {
                    try e.addSublayer(p, n)
                    t.parent[n] = p
                    t.children[p]!.append(n)
                }
            case 4...6:
                // Add at the end of a hub or of any layer (a cycle is refused).
                let p = g.int(0...1) == 0 ? hubs[g.int(0...3)] : t.live[g.int(0...(t.live.count - 1))]
                guard t.live.contains(p) else { continue }
                if p == c || t.isAncestor(c, of: p) {
                    expectStatus(.invalidArgument) { () throws(CadenceError) in try e.addSublayer(p, c) }
                } else {
                    try e.addSublayer(p, c)
                    t.detach(c)
                    t.parent[c] = p
                    t.children[p]!.append(c)
                }
            default:
                // Insert at an index (counted without c when it is already there).
                let p = hubs[g.int(0...3)]
                guard t.live.contains(p), p != c, !t.isAncestor(c, of: p) else { continue }
                let count = (t.children[p] ?? []).filter { $0 != c }.count
                let i = g.int(0...count)
                try e.insertSublayer(p, c, at: i)
                t.detach(c)
                t.parent[c] = p
                t.children[p]!.insert(c, at: i)
            }
            if step % 25 == 0 {
                try expectSame(e, t)
                for r in t.live where t.parent[r] == nil {
                    #expect(try renderOrder(e, r) == t.preorder(r), "step \(step)")
                }
            }
        }
        try expectSame(e, t)
    }

    @Test("a chain built top down and bottom up, and a cycle refused at any depth")
    func chains() throws {
        let e = Engine(salt: 22)
        var down: [UInt64] = [try e.createLayer()]
        for _ in 0..<300 {
            let l = try e.createLayer()
            try e.addSublayer(down.last!, l)
            down.append(l)
        }
        var up: [UInt64] = [try e.createLayer()]
        for _ in 0..<300 {
            let l = try e.createLayer()
            try e.addSublayer(l, up.last!)
            up.append(l)
        }
        for k in [1, 150, 300] {
            #expect(try e.superlayer(of: down[k]) == down[k - 1])
            #expect(try e.superlayer(of: up[k - 1]) == up[k])
            // The top of each chain under its bottom: a cycle.
            expectStatus(.invalidArgument) { () throws(CadenceError) in try e.addSublayer(down[k], down[0]) }
            expectStatus(.invalidArgument) { () throws(CadenceError) in try e.addSublayer(up[300 - k], up[300]) }
        }
        // A leaf under another chain's leaf: allowed.
        try e.addSublayer(up[0], down[300])
        #expect(try e.superlayer(of: down[300]) == up[0])
        #expect(try renderOrder(e, up[300]).count == 301 + 1)
    }

    @Test("animations without keys get distinct keys, listed in order by index; remove all stops them in add order")
    func anonymousAnimations() throws {
        let e = Engine(salt: 23)
        try e.tick(0)
        let l = try e.createLayer()
        try e.set(layer: l, "zPosition", [5])
        try e.tick(1)
        _ = Observed.events(e)
        let n = 600
        for k in 0..<n {
            let x = Double(k)
            let s = k % 2 == 0 ? try fromTo("zPosition", [x], [x + 100], duration: 10, tag: Int64(k))
                               : try fromTo("position", [x, 0], [x, 200], duration: 10, tag: Int64(k))
            try e.addAnimation(layer: l, spec: s, key: nil)
        }
        let keys = try e.animationKeys(layer: l)
        #expect(keys.count == n && Set(keys).count == n)
        #expect(keys.allSatisfy { $0.hasPrefix(Engine.generatedKeyPrefix) })
        // By index, in order (the cursor), then backwards and at random (from the start).
        for i in 0..<n { #expect(try e.animationKey(layer: l, at: i) == keys[i]) }
        for i in stride(from: n - 1, through: 0, by: -37) { #expect(try e.animationKey(layer: l, at: i) == keys[i]) }
        // After a change to the list the cursor is not used.
        _ = try e.animationKey(layer: l, at: 10)
        try e.removeAnimation(layer: l, key: keys[3])
        #expect(try e.animationKey(layer: l, at: 10) == keys[11])
        #expect(try e.animationKey(layer: l, at: 2) == keys[2])
        // Half way at t = 1 + 5, the last added of each property wins (§5.2,
        // replacing): zPosition 598 + 100/2, position (599, 200/2).
        try e.tick(6)
        #expect(near(try e.presentation(layer: l, "zPosition")[0], 648))
        #expect(near(try e.presentation(layer: l, "position"), [599, 100]))
        _ = Observed.events(e)
        try e.removeAllAnimations(layer: l)
        #expect(try e.animationCount(layer: l) == 0)
        #expect(try e.presentation(layer: l, "zPosition") == [5])
        #expect(try e.presentation(layer: l, "position") == [0, 0])
        try e.tick(7)
        var tags: [Int64] = []
        while let ev = try? e.pollEvent() {
            #expect(ev.kind == .stop && !ev.finished)
            tags.append(ev.tag)
        }
        #expect(tags == (0..<n).filter { $0 != 3 }.map(Int64.init))
        // The layer animates again afterwards (its place on the tracks was updated).
        try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [10], duration: 2), key: nil)
        try e.tick(8)
        #expect(near(try e.presentation(layer: l, "zPosition")[0], 5))
    }

    @Test("a host key of the generated form is still replaced by the animation generated under it")
    func hostKeyInGeneratedForm() throws {
        let e = Engine(salt: 24)
        try e.tick(0)
        let l = try e.createLayer()
        try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [10], duration: 1, tag: 1), key: nil)
        // The key the next add without a key will make: the prefix and the
        // sequence number after this add's own (each add takes one number for
        // its add order, and a generated key one more).
        let next = Engine.generatedKeyPrefix + "\(e.sequence + 2)"
        try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [20], duration: 1, tag: 2), key: next)
        #expect(try e.animationCount(layer: l) == 2)
        try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [40], duration: 1, tag: 3), key: nil)
        // Replaced: two animations, the last under the host's key, and a stop
        // (not finished) for the one it replaced.
        #expect(try e.animationCount(layer: l) == 2)
        #expect(try e.animationKeys(layer: l).last == next)
        try e.tick(0.5)
        var stopped: [Int64] = []
        while let ev = try? e.pollEvent() {
            if ev.kind == .stop { stopped.append(ev.tag) }
        }
        #expect(stopped == [2])
        #expect(near(try e.presentation(layer: l, "zPosition")[0], 20))
    }

    func fromTo(_ keyPath: String, _ from: [Double], _ to: [Double], duration: Double, tag: Int64 = 0) throws -> AnimationSpec {
        var s = try AnimationSpec(kind: .basic, keyPath: keyPath)
        try s.setEndpoint(.from, ValueBuffer(from))
        try s.setEndpoint(.to, ValueBuffer(to))
        s.timing.duration = duration
        s.tag = tag
        return s
    }

    @Test("many animations of one layer ending in one tick: removed together, events in add order, model values back")
    func manyEndTogether() throws {
        let e = Engine(salt: 25)
        try e.tick(0)
        let l = try e.createLayer()
        try e.set(layer: l, "zPosition", [7])
        try e.set(layer: l, "opacity", [0.25])
        try e.tick(1)
        _ = Observed.events(e)
        // 120 animations of zPosition ending at t = 2, one of position ending
        // at t = 3, one of opacity ending at t = 2 (its property returns to the model).
        for k in 0..<120 {
            try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [Double(k)], duration: 1, tag: Int64(k)), key: nil)
        }
        try e.addAnimation(layer: l, spec: try fromTo("position", [0, 0], [30, 60], duration: 2, tag: 500), key: "p")
        try e.addAnimation(layer: l, spec: try fromTo("opacity", [1], [0], duration: 1, tag: 501), key: "o")
        try e.tick(1.5)
        #expect(near(try e.presentation(layer: l, "zPosition")[0], 119 * 0.5))
        #expect(near(try e.presentation(layer: l, "opacity")[0], 0.5))
        _ = Observed.events(e)
        try e.tick(2.5)
        #expect(try e.animationCount(layer: l) == 1)
        #expect(try e.presentation(layer: l, "zPosition") == [7])
        #expect(try e.presentation(layer: l, "opacity") == [0.25])
        // position: 1.5 s into 2 s from (0, 0) to (30, 60).
        #expect(near(try e.presentation(layer: l, "position"), [22.5, 45]))
        var stops: [Int64] = []
        while let ev = try? e.pollEvent() {
            #expect(ev.kind == .stop && ev.finished)
            stops.append(ev.tag)
        }
        #expect(stops == (0..<120).map(Int64.init) + [501])
        // The layer is on the simple track now (its only animation), and keeps going.
        #expect(e.layers[try e.requireLayer(l)].simple >= 0)
        try e.tick(3.5)
        #expect(try e.presentation(layer: l, "position") == [0, 0])
    }

    @Test("removals and replacements inside an open transaction: the commit starts what is left, once")
    func removedBeforeCommit() throws {
        let e = Engine(salt: 26)
        try e.tick(0)
        let layers = try (0..<100).map { _ in try e.createLayer() }
        try e.tick(1)
        e.beginTransaction()
        for (k, l) in layers.enumerated() {
            try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [Double(k)], duration: 4, tag: Int64(k)), key: "z")
            try e.addAnimation(layer: l, spec: try fromTo("position", [0, 0], [4, 8], duration: 4, tag: 1000 + Int64(k)), key: "p")
        }
        // Remove position from the odd layers (newest first, the order that
        // searched the whole pending list), replace zPosition on every third.
        for k in stride(from: 99, through: 0, by: -1) where k % 2 == 1 {
            try e.removeAnimation(layer: layers[k], key: "p")
        }
        for k in stride(from: 0, to: 100, by: 3) {
            try e.addAnimation(layer: layers[k], spec: try fromTo("zPosition", [0], [-Double(k)], duration: 4, tag: 2000 + Int64(k)), key: "z")
        }
        #expect(e.tx.awaitingLive == 100 + 50)
        // Time passes before the commit: everything begins at the commit.
        try e.tick(2)
        try e.commitTransaction()
        try e.tick(3)
        for (k, l) in layers.enumerated() {
            let z = k % 3 == 0 ? -Double(k) : Double(k)
            #expect(near(try e.presentation(layer: l, "zPosition")[0], z / 4), "layer \(k)")
            #expect(near(try e.presentation(layer: l, "position"), k % 2 == 1 ? [0, 0] : [1, 2]), "layer \(k)")
            #expect(try e.animationCount(layer: l) == (k % 2 == 1 ? 1 : 2))
        }
        var started: [Int64] = []
        while let ev = try? e.pollEvent() {
            if ev.kind == .start { started.append(ev.tag) }
        }
        #expect(started.count == 150 && Set(started).count == 150)
        #expect(e.tx.awaiting.isEmpty && e.tx.awaitingLive == 0)
    }

    @Test("short-lived animated layers reuse their slot's program region")
    func programChurn() throws {
        let e = Engine(salt: 27)
        try e.tick(0)
        let keep = try e.createLayer()
        try e.addAnimation(layer: keep, spec: try fromTo("zPosition", [0], [10], duration: 100), key: "z")
        try e.addAnimation(layer: keep, spec: try fromTo("opacity", [0], [1], duration: 100), key: "o")
        var t = 0.0
        var size = 0
        for round in 0..<300 {
            let l = try e.createLayer()
            // Begun at t (the engine's time), 0.125 s in at the second tick.
            try e.addAnimation(layer: l, spec: try fromTo("zPosition", [0], [Double(round)], duration: 1), key: "z")
            try e.addAnimation(layer: l, spec: try fromTo("position", [0, 0], [10, 20], duration: 1), key: "p")
            try e.tick(t + 0.0625)
            t += 0.125
            try e.tick(t)   // in its steady state: run by its program
            #expect(e.layers[try e.requireLayer(l)].program >= 0)
            #expect(near(try e.presentation(layer: l, "zPosition")[0], Double(round) * 0.125))
            #expect(near(try e.presentation(layer: l, "position"), [1.25, 2.5]))
            try e.destroyLayer(l)
            if round == 10 { size = e.programCode.count }
        }
        #expect(e.programCode.count == size)
        #expect(near(try e.presentation(layer: keep, "zPosition")[0], 10 * t / 100))
    }

    @Test("keyframe windows over many layers: each layer's key has its own entry, block after block")
    func keyframeWindowsManyLayers() throws {
        let e = Engine(salt: 28)
        try e.tick(0)
        let layers = try (0..<120).map { _ in try e.createLayer() }
        try e.tick(1)   // no longer new: changes animate
        // Two blocks one after the other, on layers 0..<60 and 30..<90 (the
        // second block's animation replaces the first's on 30..<60); in the
        // first window each key is set twice (the second replaces the first).
        for (b, range) in [(0, Array(0..<60)), (1, Array((30..<90).reversed()))] {
            e.beginTransaction()
            try e.setTransactionDuration(4)
            try e.beginKeyframe(relativeStart: 0, relativeDuration: 0.25)
            for k in range { try e.set(layer: layers[k], "position.x", [Double(100 + k)]) }
            for k in range { try e.set(layer: layers[k], "position.x", [Double(200 + k)]) }
            try e.commitTransaction()
            try e.beginKeyframe(relativeStart: 0.5, relativeDuration: 0.5)
            for k in range { try e.set(layer: layers[k], "position.x", [Double(b)]) }
            try e.commitTransaction()
            try e.commitTransaction()
        }
        #expect(e.tx.keyframeEntries.isEmpty && e.tx.keyframeIndex.isEmpty)
        // Both blocks begin at t = 1 and last 4 s: linear from 0 to 200 + k over
        // the first second, held, then to the block's last value over the last two.
        try e.tick(1.5)
        for k in 0..<90 { #expect(near(try e.presentation(layer: layers[k], "position.x")[0], Double(200 + k) / 2), "layer \(k)") }
        try e.tick(2.5)
        for k in 0..<90 { #expect(near(try e.presentation(layer: layers[k], "position.x")[0], Double(200 + k)), "layer \(k)") }
        try e.tick(4)
        for k in 0..<90 {
            let last = k < 30 ? 0.0 : 1.0
            #expect(near(try e.presentation(layer: layers[k], "position.x")[0], (Double(200 + k) + last) / 2), "layer \(k)")
            #expect(try e.animationCount(layer: layers[k]) == 1)
        }
        for k in 90..<120 { #expect(try e.animationCount(layer: layers[k]) == 0) }
    }

    @Test("local times under timed ancestors follow every timing and tree change (one walk per frame)")
    func localTimesThroughTimedChains() throws {
        let e = Engine(salt: 29)
        try e.tick(0)
        // A chain of 30 layers under a root of speed 2; layer 10 has timeOffset 1,
        // layer 20 speed 0.5: the leaf's time is ((2g) + 1) * 0.5 = g + 0.5 (§3.1).
        let root = try e.createLayer()
        var chain: [UInt64] = []
        var parent = root
        for k in 1...30 {
            let l = try e.createLayer()
            try e.addSublayer(parent, l)
            if k == 10 { try e.set(layer: l, "timeOffset", [1]) }
            if k == 20 { try e.set(layer: l, "speed", [0.5]) }
            chain.append(l)
            parent = l
        }
        try e.set(layer: root, "speed", [2])
        let leaf = chain.last!
        // Two animations (not the simple track: the general path and programs
        // read the time too), begun at the leaf's time at g = 0: 0.5.
        try e.addAnimation(layer: leaf, spec: try fromTo("position.x", [0], [1000], duration: 1000), key: "x")
        try e.addAnimation(layer: leaf, spec: try fromTo("zPosition", [0], [1000], duration: 1000), key: "z")
        // A second animated layer half way down, read first (its walk leaves
        // the upper part of the chain known): its time is 2g + 1 from layer 10 on.
        let mid = chain[14]
        try e.addAnimation(layer: mid, spec: try fromTo("zPosition", [0], [1000], duration: 1000), key: "z")
        for g in [1.0, 2.0, 3.5] {
            try e.tick(g)
            #expect(near(try e.presentation(layer: mid, "zPosition")[0], 2 * g))   // begun at 1
            #expect(near(try e.presentation(layer: leaf, "position.x")[0], g))
            #expect(near(try e.presentation(layer: leaf, "zPosition")[0], g))
        }
        // The root's speed changes between frames: read at once, ((4g) + 1) * 0.5 − 0.5.
        try e.set(layer: root, "speed", [4])
        #expect(near(try e.presentation(layer: leaf, "position.x")[0], 2 * 3.5))
        try e.tick(4)
        #expect(near(try e.presentation(layer: leaf, "position.x")[0], 8))
        #expect(near(try e.presentation(layer: mid, "zPosition")[0], 4 * 4 + 1 - 1))
        // Out of the chain (a root: its time is g), then back under layer 25.
        try e.removeFromSuperlayer(leaf)
        #expect(near(try e.presentation(layer: leaf, "position.x")[0], 4 - 0.5))
        try e.addSublayer(chain[24], leaf)
        #expect(near(try e.presentation(layer: leaf, "position.x")[0], 8))
        // Layer 20 destroyed: 21..25 become a chain of their own under no
        // timed layer (speed 1 roots): the leaf's time is g again.
        try e.destroyLayer(chain[19])
        #expect(near(try e.presentation(layer: leaf, "zPosition")[0], 4 - 0.5))
        try e.tick(5)
        #expect(near(try e.presentation(layer: leaf, "zPosition")[0], 5 - 0.5))
        let items = try renderOrder(e, chain[20])
        #expect(items.count == 9 + 1)   // layers 21 to 29 and the leaf (under 25)
    }

    @Test("a slot freed and reused inside one transaction: commits in add order, and the pending list stays short")
    func reusedSlotInsideTransaction() throws {
        let e = Engine(salt: 30)
        try e.tick(0)
        let l1 = try e.createLayer(), l2 = try e.createLayer(), l3 = try e.createLayer()
        try e.tick(0)
        // (Found in review: the removed animation's pending entry was taken for
        // the later animation in its slot, which then began at the entry's place:
        // the two inner transactions, ending together, completed in the wrong order.)
        e.beginTransaction()
        try e.addAnimation(layer: l1, spec: try fromTo("opacity", [0], [1], duration: 1), key: "x")
        e.beginTransaction()
        let t1 = e.currentTransactionID
        try e.addAnimation(layer: l2, spec: try fromTo("opacity", [0], [1], duration: 1), key: "b")
        try e.commitTransaction()
        try e.removeAnimation(layer: l1, key: "x")
        e.beginTransaction()
        let t2 = e.currentTransactionID
        try e.addAnimation(layer: l3, spec: try fromTo("opacity", [0], [1], duration: 1), key: "c")
        try e.commitTransaction()
        try e.commitTransaction()
        try e.tick(0.5)
        #expect(near(try e.presentation(layer: l3, "opacity")[0], 0.5))
        _ = Observed.events(e)
        try e.tick(2)
        var completed: [Int64] = []
        while let ev = try? e.pollEvent() {
            if ev.kind == .transactionComplete { completed.append(ev.tag) }
        }
        #expect(completed.prefix(2) == [t1, t2])
        // One key replaced again and again in one transaction: each replaced
        // animation's slot is taken by the next at once; the stale entries go.
        e.beginTransaction()
        for k in 0..<1000 {
            try e.addAnimation(layer: l1, spec: try fromTo("opacity", [0], [Double(k)], duration: 1), key: "o")
        }
        #expect(e.tx.awaitingLive == 1 && e.tx.awaiting.count <= 66)
        try e.commitTransaction()
        try e.tick(2.25)
        #expect(near(try e.presentation(layer: l1, "opacity")[0], 999 * 0.25))   // the last, begun at the commit (t = 2)
        #expect(try e.animationCount(layer: l1) == 1)
    }
}
