#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// Round 3 of the render-list work: `sat4` rounds first and saturates on the
/// floats; the lean emit path leaves `geomDirty` alone under a recomputed
/// parent (only `worldStale` is set, and only when not already set); the
/// translated-leaf fast path reads its presentation values through one
/// sub-span. Expected worlds are worked independently from SEMANTICS.md §2.2
/// (row vectors, plain loops below, not Transform3D):
///
///     local(L) = T(-(b.x + a.x*b.w), -(b.y + a.y*b.h), -aZ) * L.transform * T(pos.x, pos.y, z + aZ)
///     world(L) = local(L) * world(P)
@Suite("Render list round 3 (saturation, stale hand-over, leaf sub-span)")
struct RenderListRound3Tests: PlainMatrices {
    // (independent matrix and geometry helpers, `expectWorld`: `PlainMatrices` in TestSupport.swift)

    // MARK: sat4

    /// FLT_MAX = (2 - 2^-23) * 2^127, bit pattern 0x7F7FFFFF.
    let fltMaxBits: UInt32 = 0x7F7F_FFFF

    func bits(_ v: SIMD4<Float>) -> [UInt32] { [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern, v.w.bitPattern] }

    @Test("sat4: in-range values round to nearest float; NaN is 0; beyond ±FLT_MAX (and ±inf) is ±FLT_MAX; zeros are +0")
    func sat4Values() {
        // 1/3 = 0.0101...b: the 24-bit significand 1.0101...01|0101... rounds up
        // to 0x3EAAAAAB; -2.5 and 0.75 are exact.
        #expect(bits(sat4(SIMD4(1.0 / 3.0, -2.5, 0.75, 1))) == [0x3EAA_AAAB, 0xC020_0000, 0x3F40_0000, 0x3F80_0000])
        // NaN -> +0; ±inf -> ±FLT_MAX; -0 -> +0 (the list's bytes must not depend on
        // the sign a product path gave a zero).
        #expect(bits(sat4(SIMD4(.nan, .infinity, -.infinity, -0.0))) == [0, fltMaxBits, 0x8000_0000 | fltMaxBits, 0])
        // FLT_MAX exactly; just above it (below the half-ulp point 2^128 - 2^103,
        // so it rounds down to FLT_MAX); the half-ulp point itself (a tie that
        // rounds to even, i.e. to 2^128 = inf, then saturated); far beyond.
        let fltMax = Double(sign: .plus, exponent: 127, significand: 2 - 0x1p-23)
        let half = 0x1p128 - 0x1p103
        #expect(fltMax == 3.4028234663852886e38)
        #expect(bits(sat4(SIMD4(fltMax, fltMax + 0x1p102, half, 1e300))) == [fltMaxBits, fltMaxBits, fltMaxBits, fltMaxBits])
        #expect(bits(sat4(SIMD4(-fltMax, -(fltMax + 0x1p102), -half, -1e39)))
                == [UInt32](repeating: 0x8000_0000 | fltMaxBits, count: 4))
        // Smallest float subnormal 2^-149 (bit pattern 1); 2^-151 rounds to +0;
        // -2^-151 to -0, then +0.
        #expect(bits(sat4(SIMD4(0x1p-149, 0x1p-151, -0x1p-151, 0x1p-126))) == [1, 0, 0, 0x0080_0000])
    }

    @Test("float16 (general and transition paths) saturates each row like sat4")
    func float16Saturates() {
        let m = Transform3D(SIMD4(.nan, 1e39, -1e39, 0.5), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(.infinity, -0.0, 2, 1))
        let f = m.float16
        let got = [f.0, f.1, f.2, f.3, f.12, f.13, f.14, f.15].map(\.bitPattern)
        #expect(got == [0, fltMaxBits, 0x8000_0000 | fltMaxBits, 0x3F00_0000, fltMaxBits, 0, 0x4000_0000, 0x3F80_0000])
    }

    @Test("huge positions saturate in the translated-leaf path and in the affine emit path, under a moving parent")
    func hugePositionsSaturate() throws {
        var r = Rig()
        let top = r.layer()
        let parentG = Geo(bounds: [0, 0, 20, 10], position: [10, 5])
        let parent = try make(&r, parentG)
        // Translated leaf (identity transform, fast path) and an affine leaf
        // (scale 2: lean emit path with the fused product), both far away.
        let fast = try make(&r, Geo(bounds: [0, 0, 2, 2], position: [1e39, -1e300]))
        let affineG = Geo(bounds: [0, 0, 2, 2], position: [-1e39, 3], transform: S(2, 2, 1))
        let affine = try make(&r, affineG)
        try r.e.addSublayer(top, parent)
        try r.e.addSublayer(parent, fast)
        try r.e.addSublayer(parent, affine)
        r.add(parent, r.basic("position", from: [10, 5], to: [110, 5], duration: 1))
        r.tick(0)
        r.tick(0.5)
        // linear x 10 -> 110 over 0...1 s: 60 at 0.5
        let px = 60.0
        #expect(near(r.pres(parent, "position"), [px, 5]))
        for _ in 0..<3 {
            let items = try render(&r, top)
            #expect(items.count == 4)
            expectWorld(item(items, top), I)
            expectWorld(item(items, parent), T(px - 10, 0, 0))
            // world(parent) = T(px - 10, 0, 0); fast: T(1e39 - 1, -1e300 - 1, 0) * that.
            let fw = try #require(item(items, fast)).world
            #expect(fw.12.bitPattern == fltMaxBits)
            #expect(fw.13.bitPattern == 0x8000_0000 | fltMaxBits)
            #expect([fw.0, fw.5, fw.10, fw.14, fw.15] == [1, 1, 1, 0, 1])
            // affine: T(-1, -1, 0) * S(2, 2, 1) * T(-1e39, 3, 0) * T(px - 10, 0, 0):
            // row 4 = (-2 - 1e39 + px - 10, -2 + 3, 0, 1).
            let aw = try #require(item(items, affine)).world
            #expect([aw.0, aw.5, aw.10] == [2, 2, 1])
            #expect(aw.12.bitPattern == 0x8000_0000 | fltMaxBits)
            #expect([aw.13, aw.14, aw.15] == [1, 0, 1])
        }
    }

    // MARK: stale hand-over

    // top -> root (position animated) -> mid (affine) -> sub (affine, has a child)
    //   -> leaf (affine) and leaf2 (translated leaf)
    var rootG: Geo { Geo(bounds: [0, 0, 200, 100], position: [100, 50], transform: mul(S(1.5, 0.5, 1), Rz(0.3))) }
    var midG: Geo {
        var t = mul(Rz(-0.7), S(2, 2, 1))
        t[12] = 5; t[13] = -4
        return Geo(bounds: [0, 0, 50, 40], anchor: [0.25, 0.75], position: [60, 20], transform: t)
    }
    var subG: Geo { Geo(bounds: [4, 2, 30, 20], anchor: [0, 0], position: [-8, 12], transform: Rz(0.4)) }
    var leafG: Geo { Geo(bounds: [10, 20, 8, 6], anchor: [0, 1], position: [7, 9], transform: Rz(1.1)) }
    var leaf2G: Geo { Geo(bounds: [0, 0, 4, 4], position: [-3, 2]) }

    @Test("under a moving parent, then at rest: full renders, subtree renders (root below the moving layer) and model changes all match §2.2")
    func staleHandOver() throws {
        var r = Rig()
        let top = r.layer()
        let root = try make(&r, rootG), mid = try make(&r, midG), sub = try make(&r, subG)
        let leaf = try make(&r, leafG), leaf2 = try make(&r, leaf2G)
        try r.e.addSublayer(top, root)
        try r.e.addSublayer(root, mid)
        try r.e.addSublayer(mid, sub)
        try r.e.addSublayer(sub, leaf)
        try r.e.addSublayer(sub, leaf2)
        r.add(root, r.basic("position", from: [100, 50], to: [300, 90], duration: 1))
        r.tick(0)

        var mid_ = midG, sub_ = subG, leaf_ = leafG, leaf2_ = leaf2G
        func worlds(_ rootPos: [Double]) -> (root: [Double], mid: [Double], sub: [Double], leaf: [Double], leaf2: [Double]) {
            let wRoot = local(rootG, position: rootPos)
            let wMid = mul(local(mid_), wRoot)
            let wSub = mul(local(sub_), wMid)
            return (wRoot, wMid, wSub, mul(local(leaf_), wSub), mul(local(leaf2_), wSub))
        }
        func checkAll(_ rootPos: [Double]) throws {
            let w = worlds(rootPos)
            let items = try render(&r, top)
            #expect(items.count == 6)
            #expect(items.map(\.parent) == [-1, 0, 1, 2, 3, 3])
            expectWorld(item(items, top), I)
            expectWorld(item(items, root), w.root)
            expectWorld(item(items, mid), w.mid)
            expectWorld(item(items, sub), w.sub)
            expectWorld(item(items, leaf), w.leaf)
            expectWorld(item(items, leaf2), w.leaf2)
        }
        func checkSub(_ rootPos: [Double]) throws {
            let w = worlds(rootPos)
            let items = try render(&r, sub)
            #expect(items.count == 3)
            #expect(items.map(\.parent) == [-1, 0, 0])
            expectWorld(item(items, sub), w.sub)
            expectWorld(item(items, leaf), w.leaf)
            expectWorld(item(items, leaf2), w.leaf2)
        }
        func checkMid(_ rootPos: [Double]) throws {
            let w = worlds(rootPos)
            let items = try render(&r, mid)
            #expect(items.count == 4)
            expectWorld(item(items, mid), w.mid)
            expectWorld(item(items, sub), w.sub)
            expectWorld(item(items, leaf), w.leaf)
        }

        // Moving: full renders mark everything below root stale; subtree renders
        // in between (ancestors stale, not themselves animated) and again.
        // linear [100, 50] -> [300, 90] over 0...1 s: [100 + 200 t, 50 + 40 t]
        // ([140, 58] at 0.2, [220, 74] at 0.6, [260, 82] at 0.8).
        for t in [0.2, 0.6] {
            r.tick(t)
            let p = [100 + 200 * t, 50 + 40 * t]
            #expect(near(r.pres(root, "position"), p))
            try checkAll(p)
            try checkSub(p)
            try checkAll(p)
            try checkMid(p)
            try checkSub(p)
            try checkAll(p)
        }
        // Subtree first after a tick (the full tree not rendered at this time).
        r.tick(0.8)
        let p8 = [260.0, 82]
        #expect(near(r.pres(root, "position"), p8))
        try checkSub(p8)
        try checkMid(p8)
        try checkAll(p8)

        // Finished: back at the model position; the stale layers hand over to
        // the cached path (renders repeated, subtree renders in between).
        r.tick(2)
        try checkSub([100, 50])
        for _ in 0..<3 { try checkAll([100, 50]) }
        try checkSub([100, 50])
        r.tick(3)
        try checkAll([100, 50])
        try checkMid([100, 50])

        // Model changes at rest: a leaf's position, then the transform of mid
        // seen first through a render of the subtree below it.
        try r.e.set(layer: leaf2, "position", [11, -6])
        leaf2_.position = [11, -6]
        r.tick(4)
        try checkAll([100, 50])
        let newMid = mul(Rz(0.9), S(0.5, 3, 1))
        try r.e.set(layer: mid, "transform", newMid)
        mid_.transform = newMid
        r.tick(5)
        try checkSub([100, 50])
        try checkAll([100, 50])
        try r.e.set(layer: sub, "position", [20, -30])
        sub_.position = [20, -30]
        try r.e.set(layer: leaf, "transform", S(3, 1, 1))
        leaf_.transform = S(3, 1, 1)
        r.tick(6)
        try checkMid([100, 50])
        try checkAll([100, 50])

        // Moving again after the rest (added at time 6, so it begins then):
        // stale marking resumes.
        r.add(root, r.basic("position", from: [0, 0], to: [40, 80], duration: 1))
        r.tick(6.5)
        // linear [0, 0] -> [40, 80] over 6...7 s: half way at 6.5
        let p75 = [20.0, 40]
        #expect(near(r.pres(root, "position"), p75))
        for _ in 0..<2 { try checkAll(p75); try checkSub(p75) }
    }

    @Test("translated-leaf fast path: leaves with bounds origins and anchors, hidden ones skipped, under a moving affine parent")
    func translatedLeavesSubSpan() throws {
        var r = Rig()
        let top = r.layer()
        let parentG = Geo(bounds: [0, 0, 40, 30], anchor: [0.2, 0.6], position: [15, 25], transform: mul(Rz(0.5), S(1, 2, 1)))
        let parent = try make(&r, parentG)
        try r.e.addSublayer(top, parent)
        let geos = [Geo(bounds: [3, -4, 10, 6], anchor: [0.3, 0.9], position: [5, 7]),
                    Geo(bounds: [0, 0, 8, 8], anchor: [1, 0], position: [-2, 1.5]),
                    Geo(bounds: [-6, 2, 5, 12], anchor: [0.5, 0.25], position: [12, -9]),
                    Geo(bounds: [1, 1, 2, 2], anchor: [0, 0], position: [0.25, 0.5])]
        var leaves: [UInt64] = []
        for g in geos {
            let l = try make(&r, g)
            try r.e.addSublayer(parent, l)
            leaves.append(l)
        }
        try r.e.set(layer: leaves[1], "hidden", [1])
        r.add(parent, r.basic("position", from: [15, 25], to: [55, -15], duration: 1))
        r.tick(0)
        // linear [15, 25] -> [55, -15] over 0...1 s: [25, 15] at 0.25, [35, 5] at 0.5
        for (t, pp) in [(0.25, [25.0, 15]), (0.5, [35.0, 5])] {
            r.tick(t)
            #expect(near(r.pres(parent, "position"), pp))
            let wp = local(parentG, position: pp)
            for _ in 0..<2 {
                let items = try render(&r, top)
                #expect(items.count == 5)
                #expect(items.map(\.parent) == [-1, 0, 1, 1, 1])
                #expect(items.map(\.layer) == [top, parent, leaves[0], leaves[2], leaves[3]])
                expectWorld(item(items, parent), wp)
                // local = T(p - (origin + anchor * size)), hand-expanded:
                //   leaf 0: (5 - (3 + 0.3*10), 7 - (-4 + 0.9*6)) = (-1, 5.6)
                //   leaf 2: (12 - (-6 + 0.5*5), -9 - (2 + 0.25*12)) = (15.5, -14)
                //   leaf 3: (0.25 - 1, 0.5 - 1) = (-0.75, -0.5)
                for (k, tx, ty) in [(0, -1.0, 5.6), (2, 15.5, -14), (3, -0.75, -0.5)] {
                    expectWorld(item(items, leaves[k]), mul(T(tx, ty, 0), wp))
                }
            }
        }
    }

    // MARK: the count of a list

    /// The count of a list (`renderListCount`, and the pre-count a buffer
    /// smaller than the engine's bound triggers) on random trees with hidden
    /// layers, layers not yet begun (with and without a backwards fill) and
    /// push transitions (some hidden after the add), against a count worked
    /// here from SEMANTICS.md §2.2, §3.1, §8 and docs/decisions.md: a layer
    /// whose parent time is before its beginTime is left out with its subtree
    /// unless it fills backwards; a hidden layer draws nothing of its own, but
    /// a showing transition still draws its container and its outgoing
    /// picture (the subtree as drawn when the transition was added); a drawn
    /// layer is one item, plus its transition's container and outgoing
    /// picture. The list from a layer with a left-out ancestor is empty. A
    /// buffer of exactly that many items gets the list; one item fewer is
    /// `bufferTooSmall` with that count.
    @Test("the count of a list matches an independent count; an exact buffer works, one less reports the count")
    func countMatchesTheList() throws {
        var rng = SplitMix64(seed: 0xC0FFEE)
        for round in 0..<30 {
            var r = Rig()
            r.tick(1)
            let n = rng.int(2...40)
            var parent = [Int](repeating: -1, count: n)
            var begin = [Double](repeating: 0, count: n), back = [Bool](repeating: false, count: n)
            var hidden = [Bool](repeating: false, count: n)
            var snap = [Int?](repeating: nil, count: n)     // outgoing picture size, when a transition runs
            var ids: [UInt64] = []
            for k in 0..<n {
                ids.append(r.layer(["bounds": [0, 0, 10, 10], "position": [Double(k), 1]]))
                if k > 0 && rng.unit() < 0.8 {
                    parent[k] = rng.int(0...(k - 1))
                    try r.e.addSublayer(ids[parent[k]], ids[k])
                }
            }
            func children(_ l: Int) -> [Int] { (0..<n).filter { parent[$0] == l } }
            // Parent time of `l` at global time g (speed 1, offset 0: local = parent time − beginTime).
            func parentTime(_ l: Int, _ g: Double) -> Double {
                parent[l] < 0 ? g : parentTime(parent[l], g) - begin[parent[l]]
            }
            func begun(_ l: Int, _ tp: Double) -> Bool { tp >= begin[l] || back[l] }
            func count(_ l: Int, _ tp: Double, transitions: Bool) -> Int {
                guard begun(l, tp) else { return 0 }
                let own = transitions ? snap[l].map { 1 + $0 } ?? 0 : 0
                if hidden[l] { return own }
                return 1 + own + children(l).reduce(0) { $0 + count($1, tp - begin[l], transitions: transitions) }
            }
            func leftOut(_ l: Int, _ g: Double) -> Bool {
                var x = parent[l]
                while x >= 0 {
                    if hidden[x] || !begun(x, parentTime(x, g)) { return true }
                    x = parent[x]
                }
                return false
            }
            for l in 0..<n {
                let u = rng.unit()
                if u < 0.15 { hidden[l] = true; try r.e.set(layer: ids[l], "hidden", [1]) }
                else if u < 0.25 {
                    begin[l] = rng.unit() < 0.5 ? 100 : -100
                    try r.e.set(layer: ids[l], "beginTime", [begin[l]])
                    if rng.unit() < 0.5 { back[l] = true; try r.e.set(layer: ids[l], "fillMode", [2]) }
                }
            }
            r.tick(2)
            // Transitions on drawn layers with no transition above or below them
            // (so no outgoing picture holds another transition).
            func related(_ a: Int, _ b: Int) -> Bool {
                var x = a; while x >= 0 { if x == b { return true }; x = parent[x] }
                x = b; while x >= 0 { if x == a { return true }; x = parent[x] }
                return false
            }
            var withTransition: [Int] = []
            for l in 0..<n where rng.unit() < 0.2 && !leftOut(l, 2) && begun(l, parentTime(l, 2))
                && !withTransition.contains(where: { related($0, l) }) {
                snap[l] = count(l, parentTime(l, 2), transitions: false)
                var t = try AnimationSpec(kind: .transition, keyPath: nil)
                try t.setTransition(.push, .fromLeft)
                t.timing.duration = 10
                r.add(ids[l], t)
                withTransition.append(l)
            }
            for l in withTransition where rng.unit() < 0.5 {
                hidden[l] = true
                try r.e.set(layer: ids[l], "hidden", [1])
            }
            r.tick(3)
            for root in 0..<n {
                let want = leftOut(root, 3) ? 0 : count(root, parentTime(root, 3), transitions: true)
                #expect(try r.e.renderListCount(root: ids[root]) == want, "round \(round) root \(root)")
                var exact = [RenderItem](repeating: RenderItem(), count: want)
                var es = exact.mutableSpan
                #expect(try r.e.renderList(root: ids[root], into: &es) == want, "round \(round) root \(root)")
                if want > 0 {
                    var short = [RenderItem](repeating: RenderItem(), count: want - 1)
                    var ss = short.mutableSpan
                    do {
                        _ = try r.e.renderList(root: ids[root], into: &ss)
                        Issue.record("round \(round): a buffer of \(want - 1) items was accepted for \(want)")
                    } catch {
                        #expect(error.status == .bufferTooSmall && error.needed == want, "round \(round)")
                    }
                }
            }
        }
    }
}
