#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// The render list's runs of leaves (`Engine.emitAffineLeafRun` with its
/// planar product, `Engine.emitPlainLeafRun`): the planar product bit for bit
/// against the general affine product written out here lane by lane, the
/// items against SEMANTICS.md §2.2 worked with plain matrices, and random
/// scenes byte for byte against the paths the runs specialise
/// (`allowRenderRuns = false`: `emitLayer`, `emitLeafRun`).
@Suite("Render list runs of leaves (SEMANTICS.md §2.2)")
struct RenderRunTests: PlainMatrices {
    // MARK: the planar product, bit for bit

    /// The render-list rounding of one element (`sat4`): NaN 0, beyond the
    /// float range ±FLT_MAX, zeros +0.
    static func itemFloat(_ x: Double) -> Float {
        var f = Float(x)
        if f.isNaN { f = 0 }
        if f > .greatestFiniteMagnitude { f = .greatestFiniteMagnitude }
        if f < -.greatestFiniteMagnitude { f = -.greatestFiniteMagnitude }
        return f + 0
    }

    /// The general affine path for a block `s` (position, anchorPoint,
    /// bounds, transform: 26 values) under the parent world `p` (16 values):
    /// local(L) = T(-o) * M * T(p) with only the fourth row moved, in the
    /// order `Engine.affineWorld` evaluates it, then each row of local * p as
    /// (x b1 + y b2) + (z b3 + w b4) per lane, as `Transform3D.product`; then
    /// the item's rounding. Plain scalars, no engine code.
    static func referenceWorld(_ s: [Double], _ p: [Double]) -> [Float] {
        referenceProduct(s, p).map(itemFloat)
    }

    /// `referenceWorld` before the rounding (doubles).
    static func referenceProduct(_ s: [Double], _ p: [Double]) -> [Double] {
        let t = Array(s[10..<26])
        let ox = s[6] + s[3] * s[8], oy = s[7] + s[4] * s[9], az = s[5]
        let add = [s[0], s[1], s[2] + az, 0]
        var l = t
        for j in 0..<4 {
            l[12 + j] = ((((-ox) * t[j] - oy * t[4 + j]) - az * t[8 + j]) + t[12 + j]) + add[j]
        }
        var w = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                w[4 * i + j] = (l[4 * i] * p[j] + l[4 * i + 1] * p[4 + j]) + (l[4 * i + 2] * p[8 + j] + l[4 * i + 3] * p[12 + j])
            }
        }
        return w
    }

    /// `planarLeafWorld` as the run uses it (nil: the general path decides).
    static func planar(_ s: [Double], _ p: [Double]) -> [Float]? {
        guard let pw = Engine.PlanarWorld(Transform3D(p)) else { return nil }
        guard let (a, d) = Engine.planarLeafWorld(s.span, pw) else { return nil }
        let w = Engine.planarItemWorld(a, d)
        return [w.0, w.1, w.2, w.3, w.4, w.5, w.6, w.7, w.8, w.9, w.10, w.11, w.12, w.13, w.14, w.15]
    }

    /// `planarProduct` as 16 doubles (the constant elements filled in).
    static func planarDoubles(_ s: [Double], _ p: [Double]) -> [Double]? {
        guard let pw = Engine.PlanarWorld(Transform3D(p)) else { return nil }
        guard let (w1, w2, w4, w33, w43) = Engine.planarProduct(s.span, pw) else { return nil }
        return [w1.x, w1.y, 0, 0, w2.x, w2.y, 0, 0, 0, 0, w33, 0, w4.x, w4.y, w43, 1]
    }

    /// A zero of either sign.
    static func zero(_ g: inout SplitMix64) -> Double { g.int(0...1) == 0 ? 0 : -0.0 }

    /// A value of an ordinary size, or of any size, or an exact zero.
    static func value(_ g: inout SplitMix64, _ scale: Double) -> Double {
        switch g.int(0...9) {
        case 0: return zero(&g)
        case 1: return g.anyMagnitude()
        default: return g.uniform(-scale, scale)
        }
    }

    /// A random block with a planar transform (zeros of both signs where the
    /// form has them, m44 = 1).
    static func planarBlock(_ g: inout SplitMix64) -> [Double] {
        var s = [Double](repeating: 0, count: 26)
        for k in 0..<3 { s[k] = value(&g, 500) }                  // position, zPosition
        for k in 3..<5 { s[k] = g.int(0...3) == 0 ? value(&g, 2) : g.uniform(0, 1) }   // anchorPoint
        s[5] = g.int(0...2) == 0 ? value(&g, 20) : 0              // anchorPointZ
        for k in 6..<10 { s[k] = value(&g, 300) }                 // bounds
        let a = g.uniform(-4, 4), sx = value(&g, 3), sy = value(&g, 3)
        var t = [cos(a) * sx, sin(a) * sx, zero(&g), zero(&g),
                 -sin(a) * sy, cos(a) * sy, zero(&g), zero(&g),
                 zero(&g), zero(&g), value(&g, 3), zero(&g),
                 value(&g, 100), value(&g, 100), value(&g, 10), 1]
        if g.int(0...4) == 0 { t[0] = value(&g, 3); t[5] = value(&g, 3) }   // skews, zeros on the diagonal
        for k in 0..<16 { s[10 + k] = t[k] }
        return s
    }

    /// A random planar parent world (finite, as worlds handed down are).
    static func planarParent(_ g: inout SplitMix64) -> [Double] {
        let a = g.uniform(-4, 4), sx = value(&g, 3), sy = value(&g, 3)
        return [cos(a) * sx, sin(a) * sx, zero(&g), zero(&g),
                -sin(a) * sy, cos(a) * sy, zero(&g), zero(&g),
                zero(&g), zero(&g), value(&g, 3), zero(&g),
                value(&g, 1000), value(&g, 1000), value(&g, 50), 1]
    }

    @Test("the planar product equals the general affine product bit for bit", arguments: 0..<4)
    func planarBits(seed: Int) {
        var g = SplitMix64(seed: 0x91A7_0000 &+ UInt64(seed))
        var taken = 0
        for _ in 0..<5000 {
            let s = Self.planarBlock(&g), p = Self.planarParent(&g)
            let want = Self.referenceWorld(s, p)
            guard let got = Self.planar(s, p) else {
                // Only results beyond the float range go back to the general path.
                #expect(want.contains { abs($0) == .greatestFiniteMagnitude }, "\(s) under \(p)")
                continue
            }
            taken += 1
            #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "\(s) under \(p)")
            // The doubles too (a different order of operations would rarely
            // show after the rounding to float): equal, zeros of either sign.
            let d = Self.planarDoubles(s, p) ?? []
            #expect(d == Self.referenceProduct(s, p), "\(s) under \(p)")
        }
        #expect(taken > 4500)
    }

    @Test("hand-worked: rotation by 90° scaled 2 about the bounds centre, under a parent moved by (10, 20) and scaled 3")
    func planarHandWorked() throws {
        // bounds (0, 0, 4, 2), anchor (0.5, 0.5): o = (2, 1); position (5, 6);
        // M: Rz(90°) S(2, 2, 1) = rows (0 2 0 0) (-2 0 0 0) (0 0 1 0) (0 0 0 1)
        // (cos 90° rounds to 6e-17: exact values here, not cos).
        // local row 4 = -o.x M1 - o.y M2 + (5, 6, 0, 1) = (0, -4) + (2, 0) + (5, 6) = (7, 2)
        // parent: S(3, 3, 1) T(10, 20, 0): rows (3 0 0 0) (0 3 0 0) (0 0 1 0) (10 20 0 1)
        // world: (0 6 0 0) (-6 0 0 0) (0 0 1 0) (31 26 0 1)
        let s: [Double] = [5, 6, 0, 0.5, 0.5, 0, 0, 0, 4, 2,
                           0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let p: [Double] = [3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1]
        let got = try #require(Self.planar(s, p))
        #expect(got == [0, 6, 0, 0, -6, 0, 0, 0, 0, 0, 1, 0, 31, 26, 0, 1])
        #expect(got.allSatisfy { $0 != 0 || $0.sign == .plus })
    }

    @Test("a non-finite input, a non-planar transform or parent, or an overflow leaves the planar product (nil)")
    func planarRefuses() {
        var g = SplitMix64(seed: 0x91A7_1000)
        for k in 0..<26 {
            for bad in [Double.infinity, -.infinity, .nan] {
                var s = Self.planarBlock(&g)
                s[k] = bad
                // Every input reaches a result (inf or NaN times anything is
                // inf or NaN, and so is a sum with it), or is one of the zeros
                // of the planar form (compared by value) or m44.
                #expect(Self.planar(s, Self.planarParent(&g)) == nil, "s[\(k)] = \(bad)")
            }
        }
        // Not planar: each element the form requires to be 0 (or m44 = 1).
        for (k, v) in [(12, 0.5), (13, 0.001), (16, -1.0), (17, 2.0), (18, 0.25), (19, -0.5), (21, -1.0 / 400), (25, 2.0)] {
            var s = Self.planarBlock(&g)
            s[k] = v
            #expect(Self.planar(s, Self.planarParent(&g)) == nil, "s[\(k)] = \(v)")
        }
        var p = Self.planarParent(&g)
        p[11] = -1.0 / 500
        #expect(Self.planar(Self.planarBlock(&g), p) == nil)
        // A result beyond the float range: the general path saturates it.
        var s = Self.planarBlock(&g)
        s[22] = 1e39
        #expect(Self.planar(s, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) == nil)
    }

    // MARK: items against §2.2

    /// Leaves of every kind in one run, under a parent recomputed every frame.
    @Test("a run of mixed leaves under a moving parent matches §2.2, also after the parent stops")
    func mixedRun() throws {
        var r = Rig()
        let top = r.layer()
        let pg = Geo(bounds: [0, 0, 200, 100], position: [100, 50], transform: mul(S(1.5, 0.5, 1), Rz(0.3)))
        var persp = Ry(0.4)
        persp[11] = -1.0 / 400
        var negZeros = mul(Rz(-1.2), S(0.5, 2, 3))
        for k in [2, 3, 6, 7, 8, 9, 11] { negZeros[k] = -0.0 }
        let geos: [Geo] = [
            Geo(bounds: [10, 20, 8, 6], anchor: [0, 1], position: [7, 9], transform: Rz(1.1)),
            Geo(bounds: [0, 0, 30, 30], anchorZ: 4, position: [40, 10], z: 3, transform: mul(Ry(0.7), S(1, 2, 1))),
            Geo(bounds: [0, 0, 12, 12], position: [3, 3], transform: persp),                  // ends the run
            Geo(bounds: [0, 0, 5, 5], position: [60, 70]),                                    // translated leaf
            Geo(bounds: [0, 0, 10, 4], anchor: [0.2, 0.9], position: [-5, 8], z: -2, transform: negZeros),
            Geo(bounds: [-3, 4, 9, 9], position: [11, 12], transform: mul(S(-1, 1, 1), Rz(2.5))),
        ]
        let p = try make(&r, pg)
        try r.e.addSublayer(top, p)
        var ids: [UInt64] = []
        for g in geos {
            let id = try make(&r, g)
            try r.e.addSublayer(p, id)
            ids.append(id)
        }
        // A hidden rotated leaf inside the run, and one with a sublayer (not a leaf).
        let hidden = try make(&r, Geo(bounds: [0, 0, 4, 4], position: [1, 1], transform: Rz(0.2)))
        try r.e.set(layer: hidden, "hidden", [1])
        try r.e.insertSublayer(p, hidden, at: 1)
        let inner = try make(&r, Geo(bounds: [0, 0, 20, 20], position: [30, 30], transform: Rz(-0.5)))
        let innerLeaf = try make(&r, geos[0])
        try r.e.addSublayer(inner, innerLeaf)
        try r.e.addSublayer(p, inner)
        try r.e.set(layer: ids[5], "opacity", [0.7])
        try r.e.set(layer: p, "opacity", [0.9])
        try r.e.set(layer: top, "opacity", [0.8])
        r.add(p, r.basic("position", from: [100, 50], to: [300, 90], duration: 1))
        r.tick(0)
        func check(_ pos: [Double]) throws {
            let items = try render(&r, top)
            #expect(items.count == 2 + geos.count + 2)
            let wp = local(pg, position: pos)
            expectWorld(item(items, p), wp)
            for (id, g) in zip(ids, geos) { expectWorld(item(items, id), mul(local(g), wp)) }
            let wi = mul(local(Geo(bounds: [0, 0, 20, 20], position: [30, 30], transform: Rz(-0.5))), wp)
            expectWorld(item(items, inner), wi)
            expectWorld(item(items, innerLeaf), mul(local(geos[0]), wi))
            #expect(item(items, hidden) == nil)
            // Order (sublayers in order, the hidden one left out) and parents.
            #expect(items.map(\.layer) == [top, p] + ids + [inner, innerLeaf])
            #expect(items.map(\.parent) == [-1, 0] + ids.map { _ in 1 } + [1, Int32(2 + ids.count)])
            let leaf5 = try #require(item(items, ids[5]))
            #expect(leaf5.opacity == Float(0.7))
            // World opacities handed down in double, products of the float opacities.
            #expect(leaf5.worldOpacity == Float(Double(Float(0.8)) * Double(Float(0.9)) * Double(Float(0.7))))
            // The zeros of the negative-zero transform come out as +0.
            let nz = try #require(item(items, ids[4])).worldElements
            for k in [2, 3, 6, 7, 8, 9, 11] { #expect(nz[k].bitPattern == 0, "m\(k / 4 + 1)\(k % 4 + 1)") }
        }
        for t in [0.25, 0.5, 0.75] {
            r.tick(t)
            for _ in 0..<3 { try check([100 + 200 * t, 50 + 40 * t]) }
        }
        r.tick(2)   // at rest: the parent is no longer recomputed, the leaves' stale worlds are
        for _ in 0..<3 { try check([100, 50]) }
        // A list from the parent itself (its ancestors from scratch).
        let sub = try render(&r, p)
        expectWorld(item(sub, ids[0]), mul(local(geos[0]), local(pg)))
    }

    @Test("a leaf whose world overflows the float range takes the general path (saturated at ±FLT_MAX)")
    func overflowingLeaf() throws {
        var r = Rig()
        let pg = Geo(bounds: [0, 0, 100, 100], position: [50, 50], transform: Rz(0.3))
        let lg = Geo(bounds: [0, 0, 10, 10], position: [20, 20], transform: mul(S(1e300, 1e300, 1), Rz(0.6)))
        let p = try make(&r, pg), l = try make(&r, lg)
        let small = try make(&r, Geo(bounds: [0, 0, 10, 10], position: [20, 20], transform: Rz(0.6)))
        try r.e.addSublayer(p, l)
        try r.e.addSublayer(p, small)
        r.add(p, r.basic("position.x", from: [50], to: [150], duration: 1))
        r.tick(0.5)
        let wp = local(pg, position: [100, 50])
        for _ in 0..<2 {
            let items = try render(&r, p)
            let got = try #require(item(items, l)).worldElements
            // Rows 1, 2 and the translation near 1e300: ±FLT_MAX; the rest as §2.2.
            let want = mul(local(lg), wp).map(Self.itemFloat)
            #expect(want.filter { abs($0) == .greatestFiniteMagnitude }.count == 6)
            for k in 0..<16 {
                if abs(want[k]) == .greatestFiniteMagnitude {
                    #expect(got[k] == want[k], "element \(k)")
                } else {
                    #expect(abs(got[k] - want[k]) <= 1e-5 * max(1, abs(want[k])), "element \(k)")
                }
            }
            // The next leaf of the run is planar again.
            expectWorld(item(items, small), mul(local(Geo(bounds: [0, 0, 10, 10], position: [20, 20], transform: Rz(0.6))), wp))
        }
    }

    // MARK: random scenes against the general paths, byte for byte

    /// A transform of a random kind: planar (most), 3D affine, perspective,
    /// the identity, or planar with an element near the float range.
    static func transform(_ g: inout SplitMix64) -> [Double] {
        let a = g.uniform(-3, 3)
        var t = [cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        switch g.int(0...9) {
        case 0:
            t = [1, 0, 0, 0, 0, cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1]
        case 1:
            t[11] = -1 / g.uniform(100, 1000)
        case 2:
            t = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        case 3:
            t[12] = g.int(0...1) == 0 ? 3e38 : -1e300
        case 4:
            for k in [2, 3, 6, 7, 8, 9, 11] { t[k] = -0.0 }
            t[10] = g.uniform(-2, 2)
        default:
            t[0] *= g.uniform(0.2, 3); t[1] *= g.uniform(0.2, 3)
            t[12] = g.uniform(-20, 20); t[13] = g.uniform(-20, 20); t[14] = g.uniform(-5, 5)
        }
        return t
    }

    @Test("random scenes: every render list equals the general paths' byte for byte", arguments: 0..<8)
    func agreesWithGeneralPaths(seed: Int) {
        var g = SplitMix64(seed: 0xA1F1_0000 &+ UInt64(seed))
        var t = EnginePair(salt: 5) { $0.allowRenderRuns = false }
        t.both { e throws(CadenceError) in try e.tick(0) }
        var root: UInt64 = 0
        // An opacity on the root too: a world opacity is then a product of
        // several floats (in double), which rounds differently from a float
        // product.
        let rootOpacity = g.uniform(0.5, 1)
        t.both { e throws(CadenceError) in
            root = try e.createLayer()
            try e.set(layer: root, "opacity", [rootOpacity])
        }
        var ids: [UInt64] = []
        for k in 0..<60 {
            let parent = k < 6 || g.int(0...4) != 0 ? (k < 6 ? root : ids[g.int(0...5)]) : ids[g.int(0...(ids.count - 1))]
            let pos = [g.uniform(0, 500), g.uniform(0, 500)]
            let bounds = [g.uniform(-5, 5), g.uniform(-5, 5), g.uniform(1, 50), g.uniform(1, 50)]
            let anchor = [g.uniform(0, 1), g.uniform(0, 1)]
            let xf = g.int(0...5) == 0 ? nil : Self.transform(&g)
            let op = g.int(0...3) == 0 ? 1 : g.uniform(0, 1)
            var id: UInt64 = 0
            t.both { e throws(CadenceError) in
                id = try e.createLayer()
                try e.addSublayer(parent, id)
                try e.set(layer: id, "position", pos)
                try e.set(layer: id, "bounds", bounds)
                try e.set(layer: id, "anchorPoint", anchor)
                try e.set(layer: id, "opacity", [op])
                if let xf { try e.set(layer: id, "transform", xf) }
            }
            ids.append(id)
        }
        // Some of the inner layers move or turn forever (their leaves are
        // recomputed every frame), some leaves too.
        for id in ids where g.int(0...2) == 0 {
            let move = g.int(0...1) == 0
            var s = try! AnimationSpec(kind: .basic, keyPath: move ? "position" : "transform.rotation.z")
            if move {
                try! s.setEndpoint(.from, ValueBuffer([g.uniform(0, 500), g.uniform(0, 500)]))
                try! s.setEndpoint(.to, ValueBuffer([g.uniform(0, 500), g.uniform(0, 500)]))
            } else {
                try! s.setEndpoint(.from, ValueBuffer(g.uniform(-3, 3)))
                try! s.setEndpoint(.to, ValueBuffer(g.uniform(-3, 3)))
            }
            s.timing.duration = g.uniform(0.3, 2)
            s.timing.repeatCount = g.int(0...3) == 0 ? 1 : .infinity
            s.timing.autoreverses = true
            t.both { e throws(CadenceError) in try e.addAnimation(layer: id, spec: s, key: "a") }
        }
        var now = 0.0
        for step in 0..<60 {
            switch g.int(0...7) {
            case 0:
                let id = ids[g.int(0...(ids.count - 1))]
                let h = Double(g.int(0...1))
                t.both { e throws(CadenceError) in try e.set(layer: id, "hidden", [h]) }
            case 1:
                let id = ids[g.int(0...(ids.count - 1))]
                let xf = Self.transform(&g)
                t.both { e throws(CadenceError) in try e.set(layer: id, "transform", xf) }
            case 2:
                let id = ids[g.int(0...(ids.count - 1))]
                let v = [g.uniform(0, 500), g.uniform(0, 500)]
                t.both { e throws(CadenceError) in try e.setWithoutActions(layer: id, [("position", v)]) }
            case 3:
                let id = ids[g.int(0...(ids.count - 1))]
                t.both { e throws(CadenceError) in try e.removeAllAnimations(layer: id) }
            default:
                break
            }
            now += g.int(0...4) == 0 ? 0 : g.uniform(0.01, 0.2)
            let tnow = now
            t.both { e throws(CadenceError) in try e.tick(tnow) }
            for _ in 0..<g.int(1...3) {
                let from = g.int(0...3) == 0 ? ids[g.int(0...(ids.count - 1))] : root
                #expect(Observed.renderList(t.fast, from) == Observed.renderList(t.general, from), "step \(step)")
            }
        }
    }
}
