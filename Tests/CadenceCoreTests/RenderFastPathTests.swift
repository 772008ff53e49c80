#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// The render list's fast paths (fused affine local * parentWorld, cached
/// worlds marked stale under a moving parent, the lean no-transition emit)
/// against world matrices worked out independently from SEMANTICS.md §2.2:
///
///     local(L) = T(-(b.x + a.x*b.w), -(b.y + a.y*b.h), -aZ) * L.transform * T(pos.x, pos.y, z + aZ)
///                * T(-q) * P.sublayerTransform * T(q)
///     world(L) = local(L) * world(P)
///
/// (row vectors; the products below are plain loops, not Transform3D.)
@Suite("Render list fast paths (SEMANTICS.md §2.2)")
struct RenderFastPathTests: PlainMatrices {
    // (independent matrix and geometry helpers, `expectWorld`: `PlainMatrices` in TestSupport.swift)

    // A 3-level tree whose transforms are all affine (rotation + scale + translation).
    var rootG: Geo {
        Geo(bounds: [0, 0, 200, 100], position: [100, 50], transform: mul(S(1.5, 0.5, 1), Rz(0.3)))
    }
    var midG: Geo {
        var t = mul(Rz(-0.7), S(2, 2, 1))
        t[12] = 5; t[13] = -4; t[14] = 1
        return Geo(bounds: [0, 0, 50, 40], anchor: [0.25, 0.75], anchorZ: 3, position: [60, 20], z: 2, transform: t)
    }
    var leafG: Geo {
        Geo(bounds: [10, 20, 8, 6], anchor: [0, 1], position: [7, 9], transform: Rz(1.1))
    }

    @Test("affine transforms down a moving tree: every render matches §2.2, also the renders without a tick and after the animation ends")
    func affineTreeMovingThenAtRest() throws {
        var r = Rig()
        let root = try make(&r, rootG), mid = try make(&r, midG), leaf = try make(&r, leafG)
        let leaf2 = try make(&r, Geo(bounds: [0, 0, 4, 4], position: [-3, 2]))   // identity transform
        try r.e.addSublayer(root, mid)
        try r.e.addSublayer(mid, leaf)
        try r.e.addSublayer(mid, leaf2)
        let top = r.layer()   // the root's superlayer: identity world
        try r.e.addSublayer(top, root)
        r.add(root, r.basic("position", from: [100, 50], to: [300, 90], duration: 1))
        r.tick(0)
        func check(_ rootPos: [Double]) throws {
            let items = try render(&r, top)
            #expect(items.count == 5)
            let wRoot = local(rootG, position: rootPos)
            let wMid = mul(local(midG), wRoot)
            expectWorld(item(items, root), wRoot)
            expectWorld(item(items, mid), wMid)
            expectWorld(item(items, leaf), mul(local(leafG), wMid))
            expectWorld(item(items, leaf2), mul(T(-2 - 3, -2 + 2, 0), wMid))
            #expect(items.map(\.parent) == [-1, 0, 1, 2, 2])
        }
        for t in [0.25, 0.5, 0.75] {
            r.tick(t)
            // linear [100, 50] -> [300, 90] over 0...1 s
            let p = [100 + 200 * t, 50 + 40 * t]
            #expect(near(r.pres(root, "position"), p))
            // Rendered several times per tick: the first computes under a moved
            // parent (cached worlds marked stale), the next ones recompute the
            // stale layers once and then read the cache.
            for _ in 0..<4 { try check(p) }
        }
        r.tick(2)   // finished and removed: back at the model position
        for _ in 0..<4 { try check([100, 50]) }
        r.tick(3)
        try check([100, 50])
    }

    @Test("a perspective or non-unit m44 transform takes the general path")
    func nonAffineTransforms() throws {
        var r = Rig()
        var persp = Ry(0.5)
        persp[11] = -1.0 / 400
        var pg = Geo(bounds: [0, 0, 100, 80], position: [40, 30], transform: persp)
        var w44 = mul(Rz(0.2), S(1, 2, 1))
        w44[15] = 2
        let cg = Geo(bounds: [0, 0, 10, 10], position: [5, 6], z: 1, transform: w44)
        let lg = leafG
        let p = try make(&r, pg), c = try make(&r, cg), l = try make(&r, lg)
        try r.e.addSublayer(p, c)
        try r.e.addSublayer(c, l)
        r.add(p, r.basic("position.x", from: [40], to: [140], duration: 1))
        r.tick(0.5)
        // linear x 40 -> 140 over 0...1 s: 90 at 0.5; y stays at the model 30
        pg.position = [90, 30]
        #expect(near(r.pres(p, "position"), pg.position))
        for _ in 0..<3 {
            let items = try render(&r, p)
            let wp = local(pg)
            let wc = mul(local(cg), wp)
            expectWorld(item(items, p), wp)
            expectWorld(item(items, c), wc)
            expectWorld(item(items, l), mul(local(lg), wc))
        }
    }

    @Test("a sublayerTransform on the superlayer takes the general path, about the superlayer's anchor")
    func sublayerTransformOnParent() throws {
        var r = Rig()
        var st = mul(S(0.5, 2, 1), Rz(0.4))
        st[11] = -1.0 / 800
        let pg = Geo(bounds: [0, 0, 120, 60], anchor: [0.3, 0.6], anchorZ: 2, position: [60, 30], sublayerTransform: st)
        let p = try make(&r, pg), a = try make(&r, midG), b = try make(&r, Geo(bounds: [0, 0, 4, 4], position: [9, 8]))
        try r.e.addSublayer(p, a)
        try r.e.addSublayer(p, b)
        // Recomputed every frame (a geometry animation that holds the model value).
        r.add(a, r.basic("position.x", from: [60], to: [60], duration: 1))
        r.tick(0)
        for k in 0..<4 {
            if k == 2 { r.tick(0.5) }
            let items = try render(&r, p)
            let wp = local(pg)
            expectWorld(item(items, p), wp)
            expectWorld(item(items, a), mul(local(midG, parent: pg), wp))
            expectWorld(item(items, b), mul(local(Geo(bounds: [0, 0, 4, 4], position: [9, 8]), parent: pg), wp))
        }
    }

    @Test("hidden layers under a moving parent are left out; unhidden and reparented layers get their new world")
    func hiddenAndReparented() throws {
        var r = Rig()
        let ag = Geo(bounds: [0, 0, 100, 100], position: [50, 50], transform: Rz(0.9))
        let bg = Geo(bounds: [0, 0, 80, 40], position: [200, 20], transform: S(3, 0.5, 1))
        let top = r.layer()
        let a = try make(&r, ag), b = try make(&r, bg), c = try make(&r, leafG), d = try make(&r, midG)
        try r.e.addSublayer(top, a)
        try r.e.addSublayer(top, b)
        try r.e.addSublayer(a, c)
        try r.e.addSublayer(a, d)
        try r.e.set(layer: d, "hidden", [1])
        r.add(a, r.basic("position.y", from: [50], to: [150], duration: 1))
        r.add(b, r.basic("position.y", from: [20], to: [60], duration: 1))
        r.tick(0.5)
        var items = try render(&r, top)
        // linear a.y 50 -> 150 and b.y 20 -> 60 over 0...1 s, at 0.5
        #expect(near(r.pres(a, "position"), [50, 100]) && near(r.pres(b, "position"), [200, 40]))
        var wa = local(ag, position: [50, 100]), wb = local(bg, position: [200, 40])
        #expect(items.count == 4 && item(items, d) == nil)
        expectWorld(item(items, c), mul(local(leafG), wa))
        try r.e.set(layer: d, "hidden", [0])
        try r.e.removeFromSuperlayer(c)
        try r.e.addSublayer(b, c)
        r.tick(0.75)
        // ... and at 0.75
        #expect(near(r.pres(a, "position"), [50, 125]) && near(r.pres(b, "position"), [200, 50]))
        wa = local(ag, position: [50, 125])
        wb = local(bg, position: [200, 50])
        for _ in 0..<3 {
            items = try render(&r, top)
            #expect(items.count == 5)
            expectWorld(item(items, d), mul(local(midG), wa))
            expectWorld(item(items, c), mul(local(leafG), wb))
            #expect(item(items, c)?.parent == Int32(items.firstIndex { $0.layer == b } ?? -2))
        }
        // at rest: moved back under a without animations running
        r.tick(2)
        try r.e.removeFromSuperlayer(c)
        try r.e.addSublayer(a, c)
        for _ in 0..<3 {
            items = try render(&r, top)
            expectWorld(item(items, c), mul(local(leafG), local(ag)))
        }
    }

    @Test("a push transition under a moving rotated parent: container, incoming layer and its rotated sublayer")
    func transitionUnderMovingParent() throws {
        var r = Rig()
        let pg = Geo(bounds: [0, 0, 300, 300], position: [150, 150], transform: Rz(0.25))
        let lg = Geo(bounds: [0, 0, 100, 50], position: [80, 60], transform: mul(S(1.2, 1.2, 1), Rz(-0.3)))
        let cg = leafG
        let p = try make(&r, pg), l = try make(&r, lg), c = try make(&r, cg)
        try r.e.addSublayer(p, l)
        try r.e.addSublayer(l, c)
        r.add(p, r.basic("position.x", from: [150], to: [250], duration: 4))
        r.tick(1)
        var t = try AnimationSpec(kind: .transition, keyPath: nil)
        try t.setTransition(.push, .fromLeft)
        t.timing.duration = 1
        r.add(l, t)
        r.tick(1.25)
        let items = try render(&r, p)
        // linear x 150 -> 250 over 0...4 s: 150 + 25 * 1.25 at 1.25
        #expect(near(r.pres(p, "position"), [181.25, 150]))
        let wp = local(pg, position: [181.25, 150])
        let wl = mul(local(lg), wp)
        // p = 0.25: the incoming picture is offset by -W (1 - p) = -75 in l's bounds space.
        let wIn = mul(T(-75, 0, 0), wl)
        expectWorld(item(items, p), wp)
        expectWorld(item(items, l, flags: RenderItem.transitionClip), wl)
        expectWorld(item(items, l, flags: RenderItem.transitionIncoming), wIn)
        let inC = item(items, c, flags: RenderItem.transitionIncoming)
        expectWorld(inC, mul(local(cg), wIn))
        // outgoing picture: offset +W p = +25
        let outC = items.first { $0.layer == c && $0.flags & RenderItem.transitionOutgoing != 0 }
        expectWorld(outC, mul(local(cg), T(25, 0, 0), wl))
        r.tick(3)   // transition over: plain layers again, still under the moving parent
        #expect(near(r.pres(p, "position"), [225, 150]))   // 150 + 25 * 3
        let wp2 = local(pg, position: [225, 150])
        for _ in 0..<3 {
            let after = try render(&r, p)
            #expect(after.count == 3)
            expectWorld(item(after, p), wp2)
            expectWorld(item(after, c), mul(local(cg), local(lg), wp2))
            #expect(after.allSatisfy { $0.flags & (RenderItem.transitionIncoming | RenderItem.transitionClip) == 0 })
        }
    }

    @Test("an opacity-only animation refreshes the item's opacity, clamped to [0, 1], on the simple track and in the evaluator")
    func opacityOnlyRefresh() throws {
        var r = Rig()
        let top = r.layer(["opacity": [0.5]])
        // A basic from/to (the simple track) and keyframes (the evaluator):
        // both refresh the render cache with the opacity bit alone.
        let a = r.layer(["bounds": [0, 0, 10, 10]]), b = r.layer(["bounds": [0, 0, 10, 10]])
        try r.e.addSublayer(top, a)
        try r.e.addSublayer(top, b)
        r.add(a, r.basic("opacity", from: [-0.5], to: [1.5], duration: 1))
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "opacity")
        try kf.setValues([1.5, -0.5], count: 2, components: 1)
        kf.timing.duration = 1
        r.add(b, kf)
        // linear: a = -0.5 + 2t, b = 1.5 - 2t
        for (t, va, vb) in [(0.1, -0.3, 1.3), (0.25, 0.0, 1.0), (0.4, 0.3, 0.7), (0.9, 1.3, -0.3)] {
            r.tick(t)
            #expect(near(r.pres1(a, "opacity"), va) && near(r.pres1(b, "opacity"), vb))
            let items = try render(&r, top)
            func clamped(_ v: Double) -> Float { v >= 1 ? 1 : (v > 0 ? Float(v) : 0) }
            // Expected from the closed form (not from the engine's own
            // presentation value), to float precision.
            for (l, v) in [(a, va), (b, vb)] {
                let it = try #require(item(items, l))
                #expect(abs(it.opacity - clamped(v)) <= 1e-6, "t = \(t)")
                #expect(abs(it.worldOpacity - 0.5 * clamped(v)) <= 1e-6, "t = \(t)")
            }
        }
    }
}
