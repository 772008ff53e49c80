import Foundation
import Testing
@testable import CadenceCore

/// flip and cube transitions (SEMANTICS.md §8, Cadence's own types; formulas in
/// docs/decisions.md, Transitions). Expectations are computed here without the
/// engine's `Transform3D`: from the closed form of the products, derived by
/// hand below, and, for two cases, as literal numbers worked by hand.
///
/// Row vectors, composed left to right. For a rotation R with rows
/// r1, r2, r3 (3 x 3) and a fourth row t = (t1, t2, t3) (t = 0 for flip;
/// cube's T(0,0,e) R T(0,0,-e), e = E/2, has t = (e r31, e r32, e (r33 - 1)):
/// (0,0,e,1) R = (e r31, e r32, e r33, 1), then -e on z), times P (m34 = k =
/// -1/D: a row v becomes (v1, v2, v3, v3 k + v4)), times T(c) (a row v becomes
/// (v1 + v4 cx, v2 + v4 cy, v3, v4)):
///   row i (1..3) = (ri1 + ri3 k cx, ri2 + ri3 k cy, ri3, ri3 k)
///   row 4'       = (t1 + (t3 k + 1) cx, t2 + (t3 k + 1) cy, t3, t3 k + 1)
/// and T(-c) on the left leaves rows 1-3 and makes row 4 = -cx row1 - cy row2 + row4'.
///
/// R_y(a) = CATransform3DMakeRotation(a, 0, 1, 0) = rows (cos, 0, -sin), (0, 1, 0), (sin, 0, cos);
/// R_x(a) = CATransform3DMakeRotation(a, 1, 0, 0) = rows (1, 0, 0), (0, cos, sin), (0, -sin, cos).
///
/// Sign convention (the s of the decisions): about y, [x y z 1] R_y(a) has
/// z' = -x sin a + z cos a, so the left edge (x = -W/2 from the centre) comes
/// forward (z' > 0) when sin a > 0: flip fromLeft has s = +1 (a = pi p in the
/// first half). About x, z' = y sin a + z cos a, the top edge (y = -H/2, y
/// grows downward) comes forward when sin a < 0: flip fromTop has s = -1.
/// cube: the incoming face's centre (0, 0, E/2) from the axis is at
/// x' = (E/2) sin a about y, at p = 0 (a = -s pi/2) x' = -s E/2, on the left for
/// s = +1 (fromLeft); about x, y' = -(E/2) sin a = s E/2 at p = 0, on top for
/// s = -1 (fromTop).
struct TurningTransitionTests: PlainMatrices {
    /// The closed form above: T(-c) T(0,0,e) R T(0,0,-e) P T(c) (e = 0 for flip).
    func turned(aboutY: Bool, angle a: Double, e: Double, k: Double, cx: Double, cy: Double) -> [Double] {
        let ca = cos(a), sa = sin(a)
        let r: [[Double]] = aboutY ? [[ca, 0, -sa], [0, 1, 0], [sa, 0, ca]] : [[1, 0, 0], [0, ca, sa], [0, -sa, ca]]
        var m = [Double]()
        for i in 0..<3 { m += [r[i][0] + r[i][2] * k * cx, r[i][1] + r[i][2] * k * cy, r[i][2], r[i][2] * k] }
        let t = [e * r[2][0], e * r[2][1], e * (r[2][2] - 1)]
        let w4 = t[2] * k + 1
        let row4p = [t[0] + w4 * cx, t[1] + w4 * cy, t[2], w4]
        for j in 0..<4 { m.append(-cx * m[j] - cy * m[4 + j] + row4p[j]) }
        return m
    }

    struct Case: CustomStringConvertible, Sendable {
        var type: TransitionType
        var subtype: TransitionSubtype
        var p: Double
        var description: String { "\(type) \(subtype) p=\(p)" }
    }

    /// p = 0.05, 0.1, 0.9, 0.95: the ends of a cube turn, where one face is
    /// turned away (hidden) about y (E = 100: it shows from p ~ 0.128 to ~ 0.872)
    /// and about x only at 0.05 and 0.95 (E = 50: from p ~ 0.071 to ~ 0.929).
    static let cases: [Case] = [TransitionType.flip, .cube].flatMap { t in
        [TransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom].flatMap { s in
            [0.05, 0.1, 0.25, 0.75, 0.9, 0.95].map { Case(type: t, subtype: s, p: $0) }
        }
    }

    /// Whether the bounds (ox, oy, 100, 50) seen through the row-major world
    /// `m` keep their winding on screen (after the divide by w): a picture
    /// turned away from the viewer shows its back, whose corners wind the
    /// other way. (Independent of the engine's visibility formula.)
    func facesViewer(_ m: [Double], ox: Double, oy: Double) -> Bool {
        let corners = [(ox, oy), (ox + 100, oy), (ox + 100, oy + 50), (ox, oy + 50)]
        let screen = corners.map { (x, y) -> (Double, Double) in
            let w = x * m[3] + y * m[7] + m[15]
            return ((x * m[0] + y * m[4] + m[12]) / w, (x * m[1] + y * m[5] + m[13]) / w)
        }
        var area = 0.0
        for i in 0..<4 {
            let (a, b) = (screen[i], screen[(i + 1) % 4])
            area += a.0 * b.1 - b.0 * a.1
        }
        return area > 0   // the untransformed corners wind with a positive area (y down)
    }

    /// Layer l: bounds (ox, oy, 100, 50), position (50, 25), opacity 0.8, so
    /// its world is T(50 - (ox + 50), 25 - (oy + 25), 0) = T(-ox, -oy, 0);
    /// c = (ox + 50, oy + 25); D = 2 max(100, 50) = 200, k = -1/200 = -0.005.
    /// A linear 1 s transition read at p; sublayer m (bounds 10 x 10 at
    /// (ox + 30, oy + 20)): local T(ox + 25, oy + 15, 0) in l's bounds space.
    func run(_ c: Case, origin: (Double, Double)) throws -> (items: [RenderItem], sub: [RenderItem], expected: (out: [Double], inn: [Double], outSub: [Double], sub: [Double], outA: Double, inA: Double)) {
        var r = Rig()
        let (ox, oy) = origin
        let l = r.layer(["bounds": [ox, oy, 100, 50], "position": [50, 25], "opacity": [0.8]])
        let m = r.layer(["bounds": [0, 0, 10, 10], "position": [ox + 30, oy + 20]])
        try r.e.addSublayer(l, m)
        try r.e.setContents(layer: l, 1)
        r.tick(1)
        var t = try AnimationSpec(kind: .transition, keyPath: nil)
        try t.setTransition(c.type, c.subtype)
        t.timing.duration = 1
        t.setTimingCurve(.linear)
        r.add(l, t)
        try r.e.setActionsEnabled(layer: l, false)
        try r.e.setContents(layer: l, 2)
        r.tick(1 + c.p)
        let items = try render(&r, l)
        let sub = try render(&r, m)

        let aboutY = c.subtype == .fromLeft || c.subtype == .fromRight
        let s: Double = (c.subtype == .fromLeft || c.subtype == .fromBottom) ? 1 : -1
        let (cx, cy) = (ox + 50, oy + 25)
        let k = -0.005
        let (aOut, aIn, e): (Double, Double, Double) = c.type == .flip
            ? (s * .pi * c.p, s * .pi * (c.p - 1), 0)
            : (s * .pi / 2 * c.p, s * .pi / 2 * (c.p - 1), (aboutY ? 100 : 50) / 2)
        let world = T(-ox, -oy, 0)
        let mOut = mul(turned(aboutY: aboutY, angle: aOut, e: e, k: k, cx: cx, cy: cy), world)
        let mIn = mul(turned(aboutY: aboutY, angle: aIn, e: e, k: k, cx: cx, cy: cy), world)
        // flip: the outgoing face shows for p < 0.5, the incoming one after;
        // cube: each face while it faces the viewer (the faces that show never
        // overlap, so a host drawing in list order needs no depth buffer).
        let outA = c.type == .cube ? (facesViewer(mOut, ox: ox, oy: oy) ? 1.0 : 0.0) : (c.p < 0.5 ? 1.0 : 0.0)
        let inA = c.type == .cube ? (facesViewer(mIn, ox: ox, oy: oy) ? 1.0 : 0.0) : (c.p >= 0.5 ? 1.0 : 0.0)
        return (items, sub, (mOut, mIn, mul(T(ox + 25, oy + 15, 0), mOut), mul(T(ox + 25, oy + 15, 0), mIn), 0.8 * outA, 0.8 * inA))
    }

    @Test("flip and cube: world matrices and opacities of both pictures", arguments: cases)
    func matrices(c: Case) throws {
        for origin in [(0.0, 0.0), (10.0, 20.0)] {
            let (items, sub, x) = try run(c, origin: origin)
            // Container, outgoing l and m (the frozen subtree), incoming l and
            // m (as for the other types).
            #expect(items.count == 5)
            guard items.count == 5 else { continue }
            let container = items[0], out = items[1], inn = items[3]
            #expect(container.flags & RenderItem.transitionClip != 0)
            #expect(container.flags & RenderItem.masksToBounds == 0, "turning pictures leave the bounds")
            #expect(out.flags & RenderItem.transitionOutgoing != 0 && out.contents == 1 && out.parent == 0)
            #expect(inn.flags & RenderItem.transitionIncoming != 0 && inn.contents == 2 && inn.parent == 0)
            expectWorld(out, x.out)
            expectWorld(inn, x.inn)
            expectWorld(items[2], x.outSub)
            expectWorld(items[4], x.sub)
            #expect(items[2].parent == 1 && items[4].parent == 3)
            #expect(near(Double(out.worldOpacity), x.outA, 1e-6) && near(Double(inn.worldOpacity), x.inA, 1e-6),
                    "\(out.worldOpacity) \(inn.worldOpacity)")
            // A list rendered from inside the incoming picture turns with it.
            #expect(sub.count == 1)
            expectWorld(sub.first, x.sub)
            #expect(near(Double(sub.first?.worldOpacity ?? -1), x.inA, 1e-6))
        }
    }

    /// Literal hand-worked numbers (bounds (0, 0, 100, 50), c = (50, 25),
    /// k = -0.005, k cx = -0.25, k cy = -0.125, world of l = identity;
    /// sqrt(2)/2 = 0.70710678).
    ///
    /// flip fromLeft p = 0.25, outgoing a = pi/4, cos = sin = 0.70710678:
    ///   row1 = (cos + 0.25 sin, 0.125 sin, -sin, 0.005 sin) = (0.88388348, 0.08838835, -0.70710678, 0.00353553)
    ///   row2 = (0, 1, 0, 0)
    ///   row3 = (sin - 0.25 cos, -0.125 cos, cos, -0.005 cos) = (0.53033009, -0.08838835, 0.70710678, -0.00353553)
    ///   row4 = -50 row1 - 25 row2 + (50, 25, 0, 1) = (5.80582618, -4.41941738, 35.35533906, 0.82322330)
    /// incoming a = -3pi/4, cos = sin = -0.70710678 (opacity factor 0):
    ///   row1 = (-0.88388348, -0.08838835, 0.70710678, -0.00353553)
    ///   row3 = (-0.53033009, 0.08838835, -0.70710678, 0.00353553)
    ///   row4 = (94.19417382, 4.41941738, -35.35533906, 1.17677670)
    /// The left edge's midpoint (bounds.x, c.y, 0, 1) = (0, 25, 0, 1) times the
    /// outgoing matrix: z = 25 * 0 + 35.355 > 0 (toward the viewer), w = 0.823;
    /// the right edge (100, 25): z = 100 * (-0.70710678) + 35.355 = -35.355.
    ///
    /// cube fromLeft p = 0.25, E = W = 100, e = 50, outgoing a = pi/8,
    /// cos = 0.92387953, sin = 0.38268343; t = (50 sin, 0, 50 (cos - 1)) = (19.13417162, 0, -3.80602337):
    ///   row1 = (cos + 0.25 sin, 0.125 sin, -sin, 0.005 sin) = (1.01955039, 0.04783543, -0.38268343, 0.00191342)
    ///   row3 = (sin - 0.25 cos, -0.125 cos, cos, -0.005 cos) = (0.15171355, -0.11548494, 0.92387953, -0.00461940)
    ///   t3 k + 1 = 1.01903012; row4' = (19.13417162 + 50.95150584, 25.47575292, -3.80602337, 1.01903012)
    ///   row4 = -50 row1 - 25 row2 + row4' = (19.10815793, -1.91601853, 15.32814824, 0.92335926)
    /// The outgoing face's centre (50, 25, 0, 1): x = 50 * 1.01955039 + 19.10815793 = 70.08567743,
    /// w = 50 * 0.00191342 + 0.92335926 = 1.01903012, x / w = 68.78 > 50 (moved right).
    @Test("flip and cube fromLeft at p = 0.25: literal hand-worked values and the sign convention")
    func literal() throws {
        let flip = try run(Case(type: .flip, subtype: .fromLeft, p: 0.25), origin: (0, 0))
        let expectedOut: [Double] = [0.88388348, 0.08838835, -0.70710678, 0.00353553, 0, 1, 0, 0,
                                     0.53033009, -0.08838835, 0.70710678, -0.00353553, 5.80582618, -4.41941738, 35.35533906, 0.82322330]
        let expectedIn: [Double] = [-0.88388348, -0.08838835, 0.70710678, -0.00353553, 0, 1, 0, 0,
                                    -0.53033009, 0.08838835, -0.70710678, 0.00353553, 94.19417382, 4.41941738, -35.35533906, 1.17677670]
        #expect(near(flip.expected.out, expectedOut, 1e-7) && near(flip.expected.inn, expectedIn, 1e-7))
        let out = flip.items[1].worldElements.map(Double.init), inn = flip.items[3].worldElements.map(Double.init)
        #expect(near(out, expectedOut, 1e-5) && near(inn, expectedIn, 1e-5), "\(out) \(inn)")
        #expect(near(Double(flip.items[1].worldOpacity), 0.8, 1e-6) && flip.items[3].worldOpacity == 0)
        // Left edge forward: (0, 25, 0, 1) M has z = 25 m23 + m43 > 0; the right edge goes back.
        #expect(25 * out[6] + out[14] > 30 && 100 * out[2] + 25 * out[6] + out[14] < -30)

        // flip fromTop p = 0.25 (s = -1, a = -pi/4 about x): the top edge's
        // midpoint (c.x, bounds.y) = (50, 0, 0, 1) has z = 50 m13 + m43 with
        // m13 = 0 and m43 = -cy row2.z = -25 sin(-pi/4) = 17.678 > 0.
        let top = try run(Case(type: .flip, subtype: .fromTop, p: 0.25), origin: (0, 0))
        let t = top.items[1].worldElements.map(Double.init)
        #expect(near(50 * t[2] + t[14], 17.67766953, 1e-4), "\(t)")

        let cube = try run(Case(type: .cube, subtype: .fromLeft, p: 0.25), origin: (0, 0))
        let cubeOut: [Double] = [1.01955039, 0.04783543, -0.38268343, 0.00191342, 0, 1, 0, 0,
                                 0.15171355, -0.11548494, 0.92387953, -0.00461940, 19.10815793, -1.91601853, 15.32814824, 0.92335926]
        #expect(near(cube.expected.out, cubeOut, 1e-7))
        let co = cube.items[1].worldElements.map(Double.init)
        #expect(near(co, cubeOut, 1e-5), "\(co)")
        // The outgoing face's centre moved right; the incoming one is on the left.
        #expect((50 * co[0] + co[12]) / (50 * co[3] + co[15]) > 50)
        let ci = cube.items[3].worldElements.map(Double.init)
        #expect((50 * ci[0] + ci[12]) / (50 * ci[3] + ci[15]) < 50)
        #expect(near(Double(cube.items[1].worldOpacity), 0.8, 1e-6) && near(Double(cube.items[3].worldOpacity), 0.8, 1e-6))
    }

    /// A layer hidden while its cube transition runs still draws the container
    /// and the outgoing picture (decisions.md), turned as when visible: top
    /// (world identity) > l (bounds 100 x 50 at (50, 25): world identity) > m;
    /// cube fromLeft at p = 0.25, outgoing angle pi/8, e = 50 (the literal
    /// values of `literal()`), m's world T(25, 15, 0) times that.
    @Test("a hidden layer's turning outgoing picture")
    func hiddenLayer() throws {
        var r = Rig()
        let top = r.layer()
        let l = r.layer(["bounds": [0, 0, 100, 50], "position": [50, 25]])
        let m = r.layer(["bounds": [0, 0, 10, 10], "position": [30, 20]])
        try r.e.addSublayer(top, l)
        try r.e.addSublayer(l, m)
        r.tick(0)
        var t = try AnimationSpec(kind: .transition, keyPath: nil)
        try t.setTransition(.cube, .fromLeft)
        t.timing.duration = 1
        t.setTimingCurve(.linear)
        r.add(l, t)
        try r.e.setActionsEnabled(layer: l, false)
        try r.e.set(layer: l, "hidden", [1])
        r.tick(0.25)
        let items = try render(&r, top)
        let counted = try r.e.renderListCount(root: top)
        #expect(items.count == 4 && counted == 4)   // top, container, outgoing l and m
        guard items.count == 4 else { return }
        #expect(items[1].flags & RenderItem.transitionClip != 0 && items[1].flags & RenderItem.masksToBounds == 0)
        let expected = turned(aboutY: true, angle: .pi / 8, e: 50, k: -0.005, cx: 50, cy: 25)
        expectWorld(items[2], expected)
        expectWorld(items[3], mul(T(25, 15, 0), expected))
        #expect(items[2].worldOpacity == 1)
    }

    @Test("flip and cube are accepted with every subtype, and counted as the other types")
    func counts() throws {
        for type in [TransitionType.flip, .cube] {
            for sub in TransitionSubtype.allCases {
                let (items, _, _) = try run(Case(type: type, subtype: sub, p: 0.5), origin: (0, 0))
                #expect(items.count == 5)
            }
        }
        #expect(TransitionType(rawValue: 4) == .flip && TransitionType(rawValue: 5) == .cube && TransitionType(rawValue: 6) == nil)
    }
}
