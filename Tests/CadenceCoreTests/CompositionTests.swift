#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

@Suite("Property animations: endpoints and composition (SEMANTICS.md §5)")
struct CompositionTests {
    /// Value of a 0.5-progress linear animation of opacity on a layer whose model is 0.2,
    /// with another animation below it pinning the underlying value to 0.4.
    @Test("the endpoint table of §5.1, at progress 0.5 over an underlying value 0.4", arguments: [
        // (from, to, by, expected)
        ([0.0], [1.0], nil, 0.5),            // from, to
        ([0.0], nil, [0.6], 0.3),            // from, by: 0 -> 0.6
        (nil, [1.0], [0.6], 0.7),            // by, to: 0.4 -> 1
        ([0.0], nil, nil, 0.2),              // from: 0 -> underlying 0.4
        (nil, [1.0], nil, 0.7),              // to: 0.4 -> 1
        (nil, nil, [0.2], 0.5),              // by: 0.4 -> 0.6
    ] as [([Double]?, [Double]?, [Double]?, Double)])
    func endpoints(from: [Double]?, to: [Double]?, by: [Double]?, expected: Double) {
        var r = Rig()
        let l = r.layer(["opacity": [0.2]])
        // An animation that holds opacity at 0.4 (underlying for the next one).
        r.add(l, r.basic("opacity", from: [0.4], to: [0.4], duration: 10), key: "below")
        r.add(l, r.basic("opacity", from: from, to: to, by: by, duration: 2), key: "test")
        r.tick(1)
        #expect(near(r.pres1(l, "opacity"), expected, 1e-12))
    }

    @Test("no endpoints: from the presentation value when added to the underlying value")
    func noEndpoints() {
        var r = Rig()
        let l = r.layer(["opacity": [1]])
        r.add(l, r.basic("opacity", from: [0], to: [1], duration: 4), key: "a")
        r.tick(1)   // on screen 0.25
        try! r.e.set(layer: l, "opacity", [0.5])   // model 0.5 (new layer: no action)
        r.add(l, r.basic("opacity", duration: 2), key: "b")
        // b runs from the captured 0.25 to the underlying value (a's output, replaced below).
        r.tick(2)
        // underlying = a at t=2: 0.5; b at progress 0.5: 0.25 + (0.5 - 0.25) * 0.5
        #expect(near(r.pres1(l, "opacity"), 0.375, 1e-12))
    }

    /// §5.3: removing an animation returns the presentation to what remains, at once,
    /// also for the components of a property another animation still animates
    /// (found by an audit: x stayed at the removed animation's last value while the
    /// remaining position.y animation ran).
    @Test("removing a sub-key animation while another animates the same property", arguments: [
        // (removed key path, its from/to, remaining key path, its from/to, property, expected at 0.9)
        ("position.x", [28.0, 30.0], "position.y", [3.0, 8.0], "position", [0.0, 7.5]),
        ("position", [10.0, 20.0, 30.0, 40.0], "position.y", [3.0, 8.0], "position", [0.0, 7.5]),
        ("bounds", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], "bounds.size.width", [10.0, 20.0], "bounds", [0.0, 0.0, 19.0, 0.0]),
    ] as [(String, [Double], String, [Double], String, [Double])])
    func removeKeepsOtherComponentsCurrent(removed: String, rv: [Double], remaining: String, kv: [Double],
                                           property: String, expected: [Double]) {
        var r = Rig()
        let l = r.layer()   // model position (0, 0), bounds (0, 0, 0, 0)
        let n = rv.count / 2
        r.tick(0)
        r.add(l, r.basic(remaining, from: Array(kv[0..<1]), to: Array(kv[1..<2]), duration: 1), key: "a")
        r.add(l, r.basic(removed, from: Array(rv[0..<n]), to: Array(rv[n...]), duration: 1), key: "b")
        r.tick(0.5)
        _ = r.pres(l, property)   // the removed animation was on screen
        try! r.e.removeAnimation(layer: l, key: "b")
        r.tick(0.9)
        // The model everywhere except the remaining animation's component: 10 + 10 * 0.9
        // for the width, 3 + 5 * 0.9 for y.
        let got = r.pres(l, property)
        #expect(got.count == expected.count)
        for (g, x) in zip(got, expected) { #expect(near(g, x, 1e-12), "\(property): got \(got), expected \(expected)") }
    }

    /// §2: setting a sub-key changes only that component. A sibling component set
    /// while a sub-key animation awaits its transaction's commit must show after the
    /// commit, whether or not anything read the presentation in between (found by a
    /// read-independence audit: y stayed 0 unless a read came between the set and
    /// the commit).
    @Test("a sibling component set before a sub-key animation commits shows", arguments: [false, true])
    func siblingSetBeforeCommit(read: Bool) throws {
        for (animKey, from, to, setKey, setValue, prop, expected) in [
            ("position.x", [0.0], [10.0], "position.y", [6.0], "position", [1.0, 6.0]),
            ("bounds.origin", [0.0, 0.0], [10.0, 10.0], "bounds.size", [20.0, 30.0], "bounds", [1.0, 1.0, 20.0, 30.0]),
        ] as [(String, [Double], [Double], String, [Double], String, [Double])] {
            var r = Rig()
            let l = r.layer(["bounds": [0, 0, 80, 60]])
            r.tick(1)
            r.e.beginTransaction()
            try r.e.setTransactionDisableActions(true)
            r.add(l, r.basic(animKey, from: from, to: to, duration: 10), key: "k")
            try r.e.set(layer: l, setKey, setValue)
            if read { _ = r.pres(l, "opacity") }
            try r.e.commitTransaction()
            r.tick(2)   // the animation began at the commit (1): progress 0.1
            let got = r.pres(l, prop)
            for (g, x) in zip(got, expected) { #expect(near(g, x, 1e-12), "\(animKey) + \(setKey): got \(got), expected \(expected)") }
        }
    }

    /// §3.4: a beginTime of 0 is set to the layer's local time when the animation is
    /// added (at the outermost commit inside a transaction), and the attached copy
    /// carries it, as Core Animation's animationForKey: does: adding that copy to
    /// another layer runs it in step (found by an audit: the copy restarted).
    @Test("the attached copy carries its resolved beginTime", arguments: [false, true])
    func attachedCopyCarriesBeginTime(inTransaction: Bool) {
        var r = Rig()
        let l1 = r.layer(), l2 = r.layer()
        r.tick(1.0)
        if inTransaction { r.e.beginTransaction() }
        r.add(l1, r.basic("opacity", from: [0], to: [1], duration: 1), key: "a")
        if inTransaction {
            r.tick(1.25)   // not yet committed: the copy begins at the commit (1.25)
            try! r.e.commitTransaction()
        }
        r.tick(1.5)
        let begin = inTransaction ? 1.25 : 1.0
        #expect(near(r.pres1(l1, "opacity"), 1.5 - begin, 1e-12))
        let copy = try! r.e.animationSpec(try! r.e.animation(layer: l1, key: "a"))
        #expect(copy.timing.beginTime == begin)
        r.add(l2, copy, key: "a")
        r.tick(1.75)
        #expect(near(r.pres1(l2, "opacity"), 1.75 - begin, 1e-12))
        #expect(near(r.pres1(l1, "opacity"), 1.75 - begin, 1e-12))
    }

    @Test("from, to and by together are an invalid state at add time")
    func allThree() {
        var r = Rig()
        let l = r.layer()
        let s = r.basic("opacity", from: [0], to: [1], by: [1])
        expectStatus(.invalidState) { () throws(CadenceError) in try r.e.addAnimation(layer: l, spec: s, key: nil) }
        #expect(try! r.e.animationCount(layer: l) == 0)
    }

    /// Endpoints are held out of line and created on the first set: clearing
    /// one (nil, the C API's NULL with 0) leaves the others, and a description
    /// that never set any reads back none and runs §5.1's "none" row.
    @Test("setting and clearing from, to and by picks §5.1's row from what is left")
    func endpointsSetAndCleared() {
        var r = Rig()
        // Model opacity 0.6 (a new layer's first value is not animated).
        let l = r.layer(["opacity": [0.6]])
        var s = r.basic("opacity", from: [0.2], to: [1.0], by: [0.3])
        #expect(s.from?[0] == 0.2 && s.to?[0] == 1.0 && s.by?[0] == 0.3)
        try! s.setEndpoint(.by, nil)                   // from 0.2 to 1.0
        #expect(s.by == nil && s.from?[0] == 0.2)
        r.add(l, s, key: "a")
        r.tick(0.25)
        #expect(near(r.pres1(l, "opacity"), 0.2 + 0.8 * 0.25, 1e-12))   // 0.4
        try! s.setEndpoint(.from, nil)                 // to only: from the underlying 0.6
        #expect(s.from == nil && s.to?[0] == 1.0)
        r.add(l, s, key: "a")                          // replaces, begins at 0.25
        r.tick(0.75)
        #expect(near(r.pres1(l, "opacity"), 0.6 + (1.0 - 0.6) * 0.5, 1e-12))   // 0.8
        try! s.setEndpoint(.to, nil)
        try! s.setEndpoint(.by, ValueBuffer(-0.4))     // by only: 0.6 -> 0.2
        #expect(s.from == nil && s.to == nil && s.by?[0] == -0.4)
        r.add(l, s, key: "a")                          // begins at 0.75
        r.tick(1.0)
        #expect(near(r.pres1(l, "opacity"), 0.6 - 0.4 * 0.25, 1e-12))   // 0.5
        // Never set: no endpoints; clearing one of them keeps it so.
        var none = r.basic("opacity")
        try! none.setEndpoint(.to, nil)
        #expect(none.from == nil && none.to == nil && none.by == nil)
        #expect(none.endpoints.isEmpty)
        // The attached copy reads back the endpoints it was added with.
        let copy = try! r.e.animationSpec(try! r.e.animation(layer: l, key: "a"))
        #expect(copy.from == nil && copy.to == nil && copy.by?[0] == -0.4)
    }

    @Test("additive animations add to the underlying value; later animations see earlier ones")
    func additive() {
        var r = Rig()
        let l = r.layer(["position": [100, 50]])
        r.add(l, r.basic("position", from: [0, 0], to: [10, 20], duration: 1) { s throws(CadenceError) in try s.setAdditive(true) })
        r.add(l, r.basic("position.x", from: [1], to: [3], duration: 1) { s throws(CadenceError) in try s.setAdditive(true) })
        r.tick(0.5)
        let expected: [Double] = [107, 60]   // 100 + 5 + 2, 50 + 10
        #expect(r.pres(l, "position") == expected)
    }

    @Test("cumulative: 0 -> 10 repeated 3 times ends at 30")
    func cumulative() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("position.x", from: [0], to: [10], duration: 1) { s throws(CadenceError) in
            try s.setCumulative(true)
            s.timing.repeatCount = 3
            s.timing.fillMode = .forwards
            s.removedOnCompletion = false
        })
        r.tick(1.5)
        #expect(near(r.pres1(l, "position.x"), 15))
        r.tick(2.5)
        #expect(near(r.pres1(l, "position.x"), 25))
        r.tick(5)
        #expect(near(r.pres1(l, "position.x"), 30))
    }

    @Test("hidden stays visible for the whole animation (Cadence)")
    func hidden() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("hidden", from: [0], to: [1], duration: 1), key: "show-then-hide")
        r.tick(0.99)
        #expect(r.pres1(l, "hidden") == 0)
        let l2 = r.layer(["hidden": [1]])
        r.add(l2, r.basic("hidden", from: [1], to: [0], duration: 1))
        r.tick(0.995)
        #expect(r.pres1(l2, "hidden") == 0)
    }

    @Test("removing an animation returns the presentation to what remains, at once")
    func removal() {
        var r = Rig()
        let l = r.layer(["opacity": [0.3]])
        r.add(l, r.basic("opacity", from: [1], to: [1], duration: 5), key: "k")
        r.tick(1)
        #expect(r.pres1(l, "opacity") == 1)
        try! r.e.removeAnimation(layer: l, key: "k")
        #expect(r.pres1(l, "opacity") == 0.3)
        expectStatus(.notFound) { () throws(CadenceError) in try r.e.removeAnimation(layer: l, key: "k") }
    }

    @Test("a key in use is replaced and the new animation goes last")
    func keys() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("opacity", from: [0], to: [1]), key: "a")
        r.add(l, r.basic("zPosition", from: [0], to: [1]), key: "b")
        r.add(l, r.basic("opacity", from: [1], to: [0]), key: "a")
        #expect(try! r.e.animationKeys(layer: l) == ["b", "a"])
        r.add(l, r.basic("opacity", from: [1], to: [0]), key: nil)
        let keys = try! r.e.animationKeys(layer: l)
        #expect(keys.count == 3 && !keys[2].isEmpty && keys[2] != "a")
        // animation_for_key gives a read-only handle
        let h = try! r.e.animation(layer: l, key: "a")
        expectStatus(.invalidState) { () throws(CadenceError) in try r.e.modifyAnimation(h) { s throws(CadenceError) in s.timing.duration = 3 } }
        #expect(try! r.e.animationSpec(h).kind == .basic)
    }

    @Test("virtual transform keys compose: rotation.z and scale give S * Rz (§2.3)")
    func virtualCompose() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("transform.rotation.z", from: [0], to: [Double.pi], duration: 1))
        r.add(l, r.basic("transform.scale", from: [1], to: [3], duration: 1))
        r.tick(0.5)
        let c = cos(Double.pi / 2), s = sin(Double.pi / 2)
        let expected: [Double] = [2 * c, 2 * s, 0, 0, -2 * s, 2 * c, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]
        #expect(near(r.pres(l, "transform"), expected, 1e-12))
    }

    @Test("a virtual rotation is not wrapped; a whole-matrix one to 2π does not move")
    func fullTurn() {
        var r = Rig()
        let a = r.layer(), b = r.layer()
        r.add(a, r.basic("transform.rotation.z", from: [0], to: [2 * Double.pi], duration: 1))
        var m = [Double](repeating: 0, count: 16)
        let t = Transform3D.rotation(2 * Double.pi, 0, 0, 1)
        for k in 0..<16 { m[k] = t[k] }
        r.add(b, r.basic("transform", from: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], to: m, duration: 1))
        r.tick(0.25)
        #expect(near(r.pres1(a, "transform.rotation.z"), Double.pi / 2, 1e-12))
        #expect(near(r.pres(b, "transform"), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-9))
    }

    @Test("whole-matrix interpolation of a quarter turn passes through an eighth turn")
    func matrixSlerp() {
        var r = Rig()
        let l = r.layer()
        let q = Transform3D.rotation(Double.pi / 2, 0, 0, 1)
        r.add(l, r.basic("transform", from: Transform3D.identity.elements, to: q.elements, duration: 1))
        r.tick(0.5)
        // Rz(pi/4), row vectors: m11 = m22 = cos, m12 = sin, m21 = -sin.
        let h = 0.5.squareRoot()
        #expect(near(r.pres(l, "transform"), [h, h, 0, 0, -h, h, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-12))
    }

    @Test("additive transforms concatenate: underlying * value")
    func additiveTransform() {
        var r = Rig()
        let l = r.layer()
        try! r.e.set(layer: l, "transform", Transform3D.translation(10, 0, 0).elements)
        var s = r.basic("transform", from: Transform3D.identity.elements, to: Transform3D.scale(3, 3, 1).elements, duration: 1)
        try! s.setAdditive(true)
        r.add(l, s)
        r.tick(1.0 / 2)
        // underlying T(10) * S(2) (row vectors: the translation row is scaled too)
        #expect(near(r.pres(l, "transform"), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 20, 0, 0, 1], 1e-12))
    }

    @Test("presentation values never become non-finite with huge values")
    func huge() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("position.x", from: [-1.7e308], to: [1.7e308], duration: 1))
        r.tick(0.5)
        #expect(r.pres1(l, "position.x").isFinite)
    }
}

extension Transform3D {
    var elements: [Double] { (0..<16).map { self[$0] } }
}

@Suite("Transform arithmetic that does not commute (§2.3, §5.1, §5.2)")
struct TransformArithmeticTests {
    func mul(_ a: [Double], _ b: [Double]) -> [Double] {
        var c = [Double](repeating: 0, count: 16)
        for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { c[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j] } } }
        return c
    }

    @Test("by/to on transforms starts where start * by = to")
    func byTo() {
        var r = Rig()
        let l = r.layer()
        let to = Transform3D.rotation(Double.pi / 2, 0, 0, 1).elements
        let by = Transform3D.translation(10, 0, 0).elements
        r.add(l, r.basic("transform", to: to, by: by, duration: 1))
        let start = r.pres(l, "transform")          // progress 0
        #expect(near(mul(start, by), to, 1e-12))
    }

    /// §5.2 + §3.2: with autoreverses a cycle is forward and back, so it ends at
    /// its start value and adds nothing. Hand-worked (d = 1, c = 2, D = 4):
    /// t = 1.5 -> 5; t = 1.999999 -> 1e-5 (mirrored); t = 2 -> 0 (the second
    /// cycle starts where the first ended); t = 2.5 -> 5; t = 4 (the end, a whole
    /// cycle) -> the start value 0. Whole transforms alike: m41 is 0.1 at 1.99,
    /// 0 at 2, 0.1 at 2.01.
    @Test("cumulative with autoreverses: each cycle ends where it started, nothing accumulates")
    func cumulativeAutoreverses() {
        var r = Rig()
        let l = r.layer()
        r.add(l, r.basic("position.x", from: [0], to: [10], duration: 1) { s throws(CadenceError) in
            try s.setCumulative(true)
            s.timing.autoreverses = true
            s.timing.repeatCount = 2
            s.timing.fillMode = .forwards
            s.removedOnCompletion = false
        })
        for (t, want) in [(1.5, 5.0), (1.999999, 1e-5), (2.0, 0.0), (2.5, 5.0), (4.0, 0.0), (5.0, 0.0)] {
            r.tick(t)
            #expect(abs(r.pres1(l, "position.x") - want) <= 1e-9, "t=\(t)")
        }
        var m = Rig()
        let k = m.layer()
        var s = m.basic("transform", from: Transform3D.identity.elements,
                        to: Transform3D.translation(10, 0, 0).elements, duration: 1)
        try! s.setCumulative(true)
        s.timing.autoreverses = true
        s.timing.repeatCount = 3
        m.add(k, s)
        for (t, want) in [(1.99, 0.1), (2.0, 0.0), (2.01, 0.1)] {
            m.tick(t)
            #expect(abs(m.pres(k, "transform")[12] - want) <= 1e-9, "t=\(t)")
        }
    }

    /// At the end of its active duration an animation shows its `to` value
    /// exactly: 1 + (0.2 − 1)·1 is 0.19999999999999996 in doubles, so the
    /// plain formula would miss 0.2. Every evaluation path: the simple track
    /// (position), the block fast path (opacity with a timing function), one
    /// virtual component, the SIMD path (from + by), and whole matrices
    /// (not recomposed from their decomposition).
    @Test("an ended animation shows its to value bit for bit")
    func exactEndValues() {
        #expect(1 + (0.2 - 1) * 1.0 != 0.2)       // what the test guards against
        var r = Rig()
        let l = r.layer(), m = r.layer(), n = r.layer(), o = r.layer(), q = r.layer()
        func hold(_ s: inout AnimationSpec) { s.timing.fillMode = .forwards; s.removedOnCompletion = false }
        var a = r.basic("position", from: [1, 1], to: [0.2, 0.2], duration: 1); hold(&a); r.add(l, a)
        var b = r.basic("opacity", from: [1], to: [0.2], duration: 1); hold(&b)
        b.setTimingCurve(.easeIn); r.add(m, b)
        var c = r.basic("transform.translation.x", from: [1], to: [0.2], duration: 1); hold(&c); r.add(n, c)
        var d = r.basic("position", from: [1, 1], by: [-0.8, -0.8], duration: 1); hold(&d); r.add(o, d)
        let m0 = Transform3D.rotation(0.3, 0, 0, 1).elements
        let m1 = mul(Transform3D.rotation(1.1, 0, 0, 1).elements, Transform3D.translation(0.1, 0.7, 0).elements)
        var x = r.basic("transform", from: m0, to: m1, duration: 1); hold(&x); r.add(q, x)
        r.tick(0.5)
        r.tick(1)
        #expect(r.pres(l, "position") == [0.2, 0.2])
        #expect(r.pres1(m, "opacity") == 0.2)
        #expect(r.pres1(n, "transform.translation.x") == 0.2)
        #expect(r.pres(o, "position") == [1 + -0.8, 1 + -0.8])   // from + by, as §5.1 defines the end
        #expect(r.pres(q, "transform") == m1)
        r.tick(3)
        #expect(r.pres(l, "position") == [0.2, 0.2] && r.pres1(m, "opacity") == 0.2 && r.pres(q, "transform") == m1)
    }

    @Test("cumulative transforms continue from each cycle's end")
    func cumulativeContinuity() {
        var r = Rig()
        let l = r.layer()
        let from = Transform3D.rotation(0.3, 0, 0, 1).elements
        let to = mul(from, Transform3D.translation(10, 0, 0).elements)
        var s = r.basic("transform", from: from, to: to, duration: 1)
        try! s.setCumulative(true)
        s.timing.repeatCount = 3
        r.add(l, s)
        r.tick(0.999999)
        let endOfFirst = r.pres(l, "transform")
        r.tick(1.000001)
        let startOfSecond = r.pres(l, "transform")
        #expect(near(endOfFirst, startOfSecond, 1e-4))
        #expect(near(endOfFirst, to, 1e-4))
    }
}
