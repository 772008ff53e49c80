#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// The examples of the Core Animation texts Cadence is built on (issue 4).
@Suite("Seed examples")
struct SeedExampleTests {
    static let red: [Double] = [1, 0, 0, 1]
    static let blue: [Double] = [0, 0, 1, 1]

    func colourLayer(_ r: inout Rig) -> UInt64 {
        let l = r.layer(["bounds": [0, 0, 100, 100], "backgroundColor": Self.red])
        r.tick(r.e.now + 0.01)   // no longer new
        return l
    }

    @Test("the colour-changing layer snaps back when only an animation is added")
    func snapBack() {
        var r = Rig(tick: 0)
        let l = colourLayer(&r)
        let t0 = r.e.now
        r.add(l, r.basic("backgroundColor", from: Self.red, to: Self.blue, duration: 1), key: "colour")
        r.tick(t0 + 0.5)
        #expect(near(r.pres(l, "backgroundColor"), [0.5, 0, 0.5, 1], 1e-12))
        r.tick(t0 + 1.5)
        #expect(r.pres(l, "backgroundColor") == Self.red)          // snapped back to the model
        #expect(r.model(l, "backgroundColor") == Self.red)
    }

    @Test("fix 1: update the model first with actions disabled, then animate")
    func fixModelFirst() {
        var r = Rig(tick: 0)
        let l = colourLayer(&r)
        let t0 = r.e.now
        let from = r.pres(l, "backgroundColor")
        r.e.beginTransaction()
        try! r.e.setTransactionDisableActions(true)
        try! r.e.set(layer: l, "backgroundColor", Self.blue)
        try! r.e.commitTransaction()
        #expect(try! r.e.animationCount(layer: l) == 0)             // no implicit animation
        r.add(l, r.basic("backgroundColor", from: from, duration: 1), key: "colour")   // from -> model
        r.tick(t0 + 0.5)
        #expect(near(r.pres(l, "backgroundColor"), [0.5, 0, 0.5, 1], 1e-12))
        r.tick(t0 + 1.5)
        #expect(r.pres(l, "backgroundColor") == Self.blue)
    }

    @Test("fix 2: fill forwards and keep the animation")
    func fixFillForwards() {
        var r = Rig(tick: 0)
        let l = colourLayer(&r)
        let t0 = r.e.now
        var s = r.basic("backgroundColor", from: Self.red, to: Self.blue, duration: 1)
        s.timing.fillMode = .forwards
        s.removedOnCompletion = false
        r.add(l, s, key: "colour")
        r.tick(t0 + 1.5)
        #expect(r.pres(l, "backgroundColor") == Self.blue)
        #expect(r.model(l, "backgroundColor") == Self.red)          // the model never changed
        #expect(try! r.e.animationCount(layer: l) == 1)
    }

    @Test("clock hands: tags and keys tell which animation stopped")
    func clockHands() {
        var r = Rig(tick: 0)
        let hands = ["hour": (r.layer(), 3.0, Int64(1)), "minute": (r.layer(), 2.0, Int64(2)), "second": (r.layer(), 1.0, Int64(3))]
        for (key, (l, d, tag)) in hands {
            var s = r.basic("transform.rotation.z", from: [0], to: [2 * Double.pi], duration: d)
            s.tag = tag
            r.add(l, s, key: key + "Hand")
        }
        r.tick(10)
        let stops = r.events().filter { $0.kind == .stop }
        #expect(stops.map(\.key) == ["secondHand", "minuteHand", "hourHand"])   // by time
        #expect(stops.map(\.tag) == [3, 2, 1])
        #expect(stops.map(\.time) == [1, 2, 3])
        #expect(stops.allSatisfy { $0.finished })
        #expect(stops[0].layer == hands["second"]!.0)
    }

    @Test("the door with perspective swung by transform.rotation.y: the render list matches the §2.2 product")
    func door() throws {
        var r = Rig(tick: 0)
        let frame = r.layer(["bounds": [0, 0, 300, 200], "position": [150, 100]])
        try r.e.set(layer: frame, "sublayerTransform.m34", [-1.0 / 500])
        let door = r.layer(["bounds": [0, 0, 100, 200], "position": [100, 100], "anchorPoint": [0, 0.5]])
        try r.e.addSublayer(frame, door)
        r.add(door, r.basic("transform.rotation.y", from: [0], to: [-Double.pi / 2], duration: 2))
        r.tick(1)       // -π/4
        let a = -Double.pi / 4
        var buf = [RenderItem](repeating: RenderItem(), count: 4)
        var span = buf.mutableSpan
        let count = try r.e.renderList(root: frame, into: &span)
        #expect(count == 2)
        func mul(_ x: [Double], _ y: [Double]) -> [Double] {
            var c = [Double](repeating: 0, count: 16)
            for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { c[i * 4 + j] += x[i * 4 + k] * y[k * 4 + j] } } }
            return c
        }
        func T(_ x: Double, _ y: Double, _ z: Double) -> [Double] { [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1] }
        let ry: [Double] = [cos(a), 0, -sin(a), 0, 0, 1, 0, 0, sin(a), 0, cos(a), 0, 0, 0, 0, 1]
        var p = T(0, 0, 0); p[11] = -1.0 / 500
        let sub = mul(mul(T(-150, -100, 0), p), T(150, 100, 0))
        let expected = mul(mul(mul(mul(T(0, -100, 0), ry), T(100, 100, 0)), sub), mul(T(-150, -100, 0), T(150, 100, 0)))
        #expect(near(buf[1].worldElements.map(Double.init), expected, 1e-4))
        // the free edge (x = 100 in the door's bounds) comes toward the viewer: w < 1 there
        let w = 100 * expected[3] + 100 * expected[7] + expected[15]
        #expect(w < 1)
    }

    @Test("image switcher: a contents change fades by default, and a push transition slides")
    func imageSwitcher() throws {
        var r = Rig(tick: 0)
        let l = r.layer(["bounds": [0, 0, 200, 100], "position": [100, 50]])
        try r.e.setContents(layer: l, 1)
        r.tick(1)
        try r.e.setContents(layer: l, 2)              // default action: 0.25 s fade
        r.tick(1.125)
        var buf = [RenderItem](repeating: RenderItem(), count: 8)
        var span = buf.mutableSpan
        let count3 = try r.e.renderList(root: l, into: &span)
        #expect(count3 == 3)
        // p = default curve at 0.5 for both pictures: opacities sum to 1
        #expect(buf[1].contents == 1 && buf[2].contents == 2)
        #expect(abs(buf[1].opacity + buf[2].opacity - 1) < 1e-6)
        #expect(buf[2].opacity > 0.5)                  // the default curve is past halfway at 0.5
        r.tick(2)
        var t = try AnimationSpec(kind: .transition, keyPath: nil)
        try t.setTransition(.push, .fromRight)
        t.timing.duration = 1
        r.add(l, t)
        try r.e.setContents(layer: l, 3)
        r.tick(2.5)
        span = buf.mutableSpan
        let count4 = try r.e.renderList(root: l, into: &span)
        #expect(count4 == 3)
        // fromRight: outgoing moves to -x by W p = -100, incoming comes from +W (1 - p) = +100
        #expect(buf[1].contents == 2 && buf[1].world.12 == -100)
        #expect(buf[2].contents == 3 && buf[2].world.12 == 100)
    }
}
