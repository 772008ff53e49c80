import Foundation
import Testing
@testable import CadenceCore

/// `convertPoint` and `hitTest` (CALayer's `convert(_:from:)` and `hitTest(_:)`)
/// against closed forms worked from SEMANTICS.md §2.1-2.2 by hand.
@Suite("Points and hit testing")
struct PointAndHitTestTests {
    /// A root of bounds (0, 0, 200, 200) at (100, 100): its world is the identity.
    static func root(_ r: inout Rig) -> UInt64 {
        r.layer(["bounds": [0, 0, 200, 200], "position": [100, 100]])
    }

    func convert(_ r: inout Rig, _ x: Double, _ y: Double, from: UInt64, to: UInt64,
                 presentation: Bool = false) -> [Double]? {
        guard let p = try? r.e.convertPoint(x, y, from: from, to: to, presentation: presentation) else { return nil }
        return [p.x, p.y]
    }

    /// Child bounds (10, 20, 50, 40), anchor (0.5, 0.5) so the anchor is the
    /// bounds point (35, 40), position (60, 70), transform = scale 2 then a
    /// quarter turn (rows (0, 2), (-2, 0)): the bounds point (x, y) goes to
    /// (u, v) = (x - 35, y - 40), then to (-2v, 2u), then + (60, 70).
    @Test func affineClosedForm() {
        var r = Rig()
        let root = Self.root(&r)
        let c = r.layer(["bounds": [10, 20, 50, 40], "position": [60, 70],
                         "transform": [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]])
        try! r.e.addSublayer(root, c)
        func world(_ x: Double, _ y: Double) -> [Double] { [60 - 2 * (y - 40), 70 + 2 * (x - 35)] }
        for (x, y) in [(35.0, 40.0), (45, 40), (35, 50), (10, 20), (60, 60), (-3.5, 7.25)] {
            #expect(near(convert(&r, x, y, from: c, to: 0)!, world(x, y), 1e-12))
            #expect(near(convert(&r, x, y, from: c, to: root)!, world(x, y), 1e-12))
            // and back: world -> child is the inverse map
            let w = world(x, y)
            #expect(near(convert(&r, w[0], w[1], from: 0, to: c)!, [x, y], 1e-12))
        }
        // a layer to itself and world to world: unchanged
        #expect(convert(&r, 1.5, -2, from: c, to: c) == [1.5, -2])
        #expect(convert(&r, 1.5, -2, from: 0, to: 0) == [1.5, -2])
    }

    /// Between siblings and through a sublayerTransform: the superlayer P has
    /// bounds (0, 0, 100, 100), anchor (0, 0) (anchor point (0, 0) in its
    /// bounds), sublayerTransform = scale 3 (about that anchor). Sublayer A at
    /// position (10, 0) and B at (0, 20), both of bounds (0, 0, 10, 10) with
    /// anchor (0, 0): a point (x, y) of A is (3(x + 10), 3y) in P, of B (3x, 3(y + 20)).
    @Test func siblingsThroughSublayerTransform() {
        var r = Rig()
        let p = r.layer(["bounds": [0, 0, 100, 100], "anchorPoint": [0, 0], "position": [0, 0],
                         "sublayerTransform": [3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]])
        let a = r.layer(["bounds": [0, 0, 10, 10], "anchorPoint": [0, 0], "position": [10, 0]])
        let b = r.layer(["bounds": [0, 0, 10, 10], "anchorPoint": [0, 0], "position": [0, 20]])
        try! r.e.addSublayer(p, a)
        try! r.e.addSublayer(p, b)
        // A (x, y) -> P (3x + 30, 3y) -> B ((3x + 30) / 3, 3y / 3 - 20) = (x + 10, y - 20)
        #expect(near(convert(&r, 2, 5, from: a, to: p)!, [36, 15], 1e-12))
        #expect(near(convert(&r, 2, 5, from: a, to: b)!, [12, -15], 1e-12))
        #expect(near(convert(&r, 12, -15, from: b, to: a)!, [2, 5], 1e-12))
    }

    /// Perspective: transform = Ry(θ) with m34 = -1/d (rows (c, 0, -s, 0),
    /// (0, 1, 0, 0), (s, 0, c, -c/d), (0, 0, 0, 1)... on the plane z = 0 only the
    /// first two rows and the last matter: (u, v, 0, 1) goes to
    /// (u c, v, -u s, 1 + u s / d) with the m14 term -s * (-1/d)). With the
    /// anchor at the bounds' centre (50, 50) and position (200, 100) the world
    /// point of (x, y) is (u c / w + 200, v / w + 100), w = 1 + u s / d,
    /// u = x - 50, v = y - 50.
    @Test func perspectiveClosedForm() {
        let theta = 0.5, d = 300.0
        let c = cos(theta), s = sin(theta)
        // Ry (row vectors): m11 = c, m13 = -s, m31 = s, m33 = c; times P (m34 = -1/d).
        let m: [Double] = [c, 0, -s, s / d,
                           0, 1, 0, 0,
                           s, 0, c, -c / d,
                           0, 0, 0, 1]
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 100], "position": [200, 100], "transform": m])
        for (x, y) in [(50.0, 50.0), (0, 0), (100, 100), (90, 10), (-200, 30)] {
            let u = x - 50, v = y - 50, w = 1 + u * s / d
            let expected = [u * c / w + 200, v / w + 100]
            #expect(near(convert(&r, x, y, from: l, to: 0)!, expected, 1e-10))
            #expect(near(convert(&r, expected[0], expected[1], from: 0, to: l)!, [x, y], 1e-9))
        }
        // w = 1 + u s / d <= 0 from u = -d / s on: the point is behind the eye.
        let behind = 50 - d / s - 1
        #expect(convert(&r, behind, 50, from: l, to: 0) == nil)
        expectStatus(.notFound) { () throws(CadenceError) in
            _ = try r.e.convertPoint(behind, 50, from: l, to: 0, presentation: false)
        }
    }

    /// A plane seen edge-on (a quarter turn about y, exact zeros): no point of
    /// world space has a single image on it.
    @Test func edgeOnPlaneHasNoImage() {
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50],
                         "transform": [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]])
        #expect(convert(&r, 50, 50, from: 0, to: l) == nil)
        // out of it is fine: (x, y) -> (0 * u + 50, v + 50)
        #expect(near(convert(&r, 80, 70, from: l, to: 0)!, [50, 70], 1e-12))
    }

    @Test func argumentErrors() {
        var r = Rig()
        let l = r.layer()
        expectStatus(.invalidArgument) { () throws(CadenceError) in _ = try r.e.convertPoint(.nan, 0, from: l, to: 0, presentation: false) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in _ = try r.e.convertPoint(0, .infinity, from: l, to: 0, presentation: false) }
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.convertPoint(0, 0, from: l &+ 1, to: 0, presentation: false) }
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.convertPoint(0, 0, from: 0, to: 12345, presentation: false) }
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.hitTest(root: 0, 0, 0, presentation: false) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in _ = try r.e.hitTest(root: l, .nan, 0, presentation: true) }
    }

    /// Root (0, 0, 200, 200) with A = frame (0, 0, 100, 100) and B = frame
    /// (50, 50, 100, 100) added after A (in front of it), and C under B at
    /// B-space position (150, 50), bounds 20x20: world frame (190, 90, 20, 20),
    /// outside B and partly outside the root.
    @Test func hitTestOrderHiddenAndMasks() {
        var r = Rig()
        let root = Self.root(&r)
        let a = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50]])
        let b = r.layer(["bounds": [0, 0, 100, 100], "position": [100, 100]])
        let c = r.layer(["bounds": [0, 0, 20, 20], "position": [150, 50]])
        try! r.e.addSublayer(root, a)
        try! r.e.addSublayer(root, b)
        try! r.e.addSublayer(b, c)
        func hit(_ x: Double, _ y: Double, _ top: UInt64? = nil) -> UInt64 {
            try! r.e.hitTest(root: top ?? root, x, y, presentation: false)
        }
        #expect(hit(75, 75) == b)          // both A and B: B is in front
        #expect(hit(25, 25) == a)
        #expect(hit(140, 140) == b)
        #expect(hit(160, 140) == root)
        #expect(hit(190, 10) == root)
        #expect(hit(195, 100) == c)        // a sublayer before its layer
        #expect(hit(205, 100) == c)        // outside the root, which does not mask
        #expect(hit(250, 250) == 0)
        // min edges in, max edges out (CGRect's contains)
        #expect(hit(0, 150) == root)
        #expect(hit(200, 0) == 0)
        #expect(hit(199.999, 0) == root)
        #expect(hit(100, 40) == root)      // A's max edge x = 100 is out, B starts at y = 50
        #expect(hit(50, 50) == b)
        // B masks: C is hit only inside B (nowhere: C lies outside B)
        try! r.e.set(layer: b, "masksToBounds", [1])
        #expect(hit(195, 100) == root)
        #expect(hit(205, 100) == 0)
        try! r.e.set(layer: b, "masksToBounds", [0])
        // hidden layers and their subtrees are skipped
        try! r.e.set(layer: b, "hidden", [1])
        #expect(hit(75, 75) == a)
        #expect(hit(195, 100) == root)
        try! r.e.set(layer: b, "hidden", [0])
        // a subtree root: the point is in its superlayer's space (the root's = world)
        #expect(hit(75, 75, b) == b)
        #expect(hit(25, 25, b) == 0)
        #expect(hit(195, 100, b) == c)
        // a point in B's space, tested from C: C's frame in B is (140, 40, 20, 20)
        #expect(hit(145, 45, c) == c)
        #expect(hit(45, 45, c) == 0)
        // zero-size bounds contain nothing, but their sublayers are still tested
        try! r.e.set(layer: b, "bounds", [0, 0, 0, 0])
        #expect(hit(75, 75) == a)
        #expect(hit(140, 140) == root)
        #expect(hit(250, 150) == c)        // C moved with B's bounds origin: frame (240, 140, 20, 20)
    }

    /// Model values and presentation values: A moves from position (50, 50)
    /// to (250, 50) over 2 s (linear) while its model is already (250, 50);
    /// at t = 0.5 it is drawn at position 100, frame (50, 0, 100, 100).
    @Test func presentationFollowsTheAnimation() {
        var r = Rig()
        let root = r.layer(["bounds": [0, 0, 400, 200], "position": [200, 100]])
        let a = r.layer(["bounds": [0, 0, 100, 100], "position": [250, 50]])
        try! r.e.addSublayer(root, a)
        r.tick(0.01)
        r.add(a, r.basic("position.x", from: [50], to: [250], duration: 2))
        r.tick(0.51)
        // presentation: frame x from 50 to 150
        #expect(try! r.e.hitTest(root: root, 60, 10, presentation: true) == a)
        #expect(try! r.e.hitTest(root: root, 160, 10, presentation: true) == root)
        // model: frame x from 200 to 300
        #expect(try! r.e.hitTest(root: root, 60, 10, presentation: false) == root)
        #expect(try! r.e.hitTest(root: root, 210, 10, presentation: false) == a)
        #expect(near(convert(&r, 0, 0, from: a, to: root, presentation: true)!, [50, 0], 1e-9))
        #expect(near(convert(&r, 0, 0, from: a, to: root, presentation: false)!, [200, 0], 1e-12))
    }

    /// A layer whose beginTime lies ahead is not drawn (SEMANTICS.md §3.1) and
    /// is not hit in the presentation; the model tree still has it.
    @Test func notYetBegunIsNotHitInThePresentation() {
        var r = Rig()
        let root = Self.root(&r)
        let a = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50], "beginTime": [5]])
        try! r.e.addSublayer(root, a)
        r.tick(1)
        #expect(try! r.e.hitTest(root: root, 10, 10, presentation: true) == root)
        #expect(try! r.e.hitTest(root: root, 10, 10, presentation: false) == a)
        r.tick(6)
        #expect(try! r.e.hitTest(root: root, 10, 10, presentation: true) == a)
    }

    /// A push transition from the left at p = 0.25 draws the incoming picture
    /// 75 to the left (SEMANTICS.md §8), but pictures are not geometry: the
    /// layer is converted and hit where its presentation values put it.
    @Test func transitionsAreNotGeometry() {
        var r = Rig()
        let root = r.layer(["bounds": [0, 0, 400, 200], "position": [200, 100]])
        let l = r.layer(["bounds": [0, 0, 100, 50], "position": [150, 25]])
        try! r.e.addSublayer(root, l)
        r.tick(1)
        var t = try! AnimationSpec(kind: .transition, keyPath: nil)
        try! t.setTransition(.push, .fromLeft)
        t.timing.duration = 1
        r.add(l, t)
        try! r.e.setContents(layer: l, 2)
        r.tick(1.25)
        #expect(near(convert(&r, 0, 0, from: l, to: 0, presentation: true)!, [100, 0], 1e-12))
        #expect(try! r.e.hitTest(root: root, 110, 10, presentation: true) == l)
        #expect(try! r.e.hitTest(root: root, 40, 10, presentation: true) == root)
    }

    /// Edge-on is judged on the scaled system: a quarter turn about y through
    /// the virtual key (its matrix keeps cos(π/2) = 6.1e-17) has no image,
    /// while a layer scaled uniformly by 1e-200 or 1e200 converts and is hit
    /// as one scaled by 1: bounds (0, 0, 10, 10), anchor (0, 0), position
    /// (0, 0), scale s: the world point (5s, 5s) is the bounds point (5, 5).
    @Test func edgeOnIsScaleFree() {
        var r = Rig()
        let q = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50], "transform.rotation.y": [Double.pi / 2]])
        #expect(convert(&r, 49.9, 70, from: 0, to: q) == nil)
        #expect(convert(&r, 50.000001, 70, from: 0, to: q) == nil)
        for s in [1e-200, 1e-170, 1.0, 1e160, 1e200] {
            let l = r.layer(["bounds": [0, 0, 10, 10], "anchorPoint": [0, 0], "position": [0, 0],
                             "transform": [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]])
            let p = convert(&r, 5 * s, 5 * s, from: 0, to: l)
            #expect(p != nil && near(p!, [5, 5], 1e-12), "scale \(s)")
            #expect(try! r.e.hitTest(root: l, 5 * s, 5 * s, presentation: false) == l, "scale \(s)")
            #expect(try! r.e.hitTest(root: l, 11 * s, 5 * s, presentation: false) == 0, "scale \(s)")
        }
    }

    /// A layer converts to itself unchanged, without the image checks (as
    /// Core Animation): a point behind the eye stays where it is.
    @Test func aLayerConvertsToItselfUnchanged() {
        let theta = 0.5, d = 300.0
        let c = cos(theta), s = sin(theta)
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 100], "position": [200, 100],
                         "transform": [c, 0, -s, s / d, 0, 1, 0, 0, s, 0, c, -c / d, 0, 0, 0, 1]])
        let behind = 50 - d / s - 1
        #expect(convert(&r, behind, 50, from: l, to: 0) == nil)
        #expect(convert(&r, behind, 50, from: l, to: l) == [behind, 50])
    }

    /// A layer turned half about y shows its back: (x, y) of its bounds goes
    /// to (100 - x, y) for bounds (0, 0, 100, 100) at (50, 50). With
    /// doubleSided (the default) the world point (40, 50) hits it at (60, 50);
    /// with doubleSided 0 a host culls it and the point falls through to the
    /// root, while its sublayer, turned back to face front, is still hit.
    @Test func oneSidedBackIsNotHit() {
        var r = Rig()
        let root = Self.root(&r)
        let l = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50],
                         "transform": [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]])
        // the sublayer: frame (0, 0, 20, 20) in l, turned back: world x from 100 - 20 to 100
        let sub = r.layer(["bounds": [0, 0, 20, 20], "position": [10, 10], "doubleSided": [0],
                           "transform": [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]])
        try! r.e.addSublayer(root, l)
        try! r.e.addSublayer(l, sub)
        #expect(near(convert(&r, 40, 50, from: 0, to: l)!, [60, 50], 1e-12))
        #expect(try! r.e.hitTest(root: root, 40, 50, presentation: false) == l)
        try! r.e.set(layer: l, "doubleSided", [0])
        #expect(try! r.e.hitTest(root: root, 40, 50, presentation: false) == root)
        #expect(try! r.e.hitTest(root: root, 95, 5, presentation: false) == sub)
        try! r.e.set(layer: sub, "transform", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(try! r.e.hitTest(root: root, 95, 5, presentation: false) == root)   // now it shows its back
    }
}
