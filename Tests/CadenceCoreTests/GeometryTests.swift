#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

@Suite("Layer properties and geometry (SEMANTICS.md §2)")
struct GeometryTests {
    @Test("every property has its documented default")
    func defaults() {
        var r = Rig()
        let l = r.layer()
        let expected: [String: [Double]] = [
            "position": [0, 0], "zPosition": [0], "anchorPoint": [0.5, 0.5], "anchorPointZ": [0],
            "bounds": [0, 0, 0, 0], "opacity": [1], "hidden": [0], "backgroundColor": [0, 0, 0, 0],
            "borderColor": [0, 0, 0, 1], "borderWidth": [0], "cornerRadius": [0], "shadowColor": [0, 0, 0, 1],
            "shadowOpacity": [0], "shadowOffset": [0, -3], "shadowRadius": [3], "contentsRect": [0, 0, 1, 1],
            "masksToBounds": [0], "doubleSided": [1], "contents": [0],
            "transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            "sublayerTransform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            "beginTime": [0], "speed": [1], "timeOffset": [0], "duration": [0], "repeatCount": [0],
            "repeatDuration": [0], "autoreverses": [0], "fillMode": [0],
        ]
        for (k, v) in expected {
            #expect(r.model(l, k) == v, "\(k)")
            #expect(r.pres(l, k) == v, "presentation \(k)")
        }
    }

    @Test("frame examples of §2.1", arguments: [
        ([0.5, 0.5], [0.0, 0.0]), ([0.0, 0.0], [50.0, 50.0]), ([1.0, 1.0], [-50.0, -50.0]),
    ])
    func frameExamples(anchor: [Double], origin: [Double]) {
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 100], "position": [50, 50], "anchorPoint": anchor])
        #expect(r.model(l, "frame") == origin + [100, 100])
    }

    @Test("setting frame sets position and bounds.size, not bounds.origin")
    func setFrame() {
        var r = Rig()
        let l = r.layer(["bounds": [5, 6, 1, 1], "anchorPoint": [0.25, 0.5]])
        try! r.e.set(layer: l, "frame", [10, 20, 40, 60])
        // position = origin + anchor * size = (10 + 10, 20 + 30)
        #expect(r.model(l, "position") == [20, 50])
        #expect(r.model(l, "bounds") == [5, 6, 40, 60])
        #expect(r.model(l, "frame") == [10, 20, 40, 60])
    }

    @Test("frame with a rotation is the bounding box of the rotated bounds")
    func frameRotated() {
        var r = Rig()
        let l = r.layer(["bounds": [0, 0, 100, 50], "position": [200, 100]])
        try! r.e.set(layer: l, "transform.rotation.z", [Double.pi / 2])
        // A 100x50 box turned a quarter turn about its centre: 50 wide, 100 tall.
        let f = r.model(l, "frame")
        #expect(near(f, [175, 50, 50, 100], 1e-9))
    }

    @Test("sub-key paths change one component")
    func subKeys() {
        var r = Rig()
        let l = r.layer(["bounds": [1, 2, 3, 4], "position": [5, 6], "backgroundColor": [0.1, 0.2, 0.3, 0.4]])
        try! r.e.set(layer: l, "position.y", [9])
        try! r.e.set(layer: l, "bounds.size.width", [30])
        try! r.e.set(layer: l, "bounds.origin", [10, 20])
        try! r.e.set(layer: l, "backgroundColor.a", [1])
        try! r.e.set(layer: l, "shadowOffset.height", [7])
        #expect(r.model(l, "position") == [5, 9])
        #expect(r.model(l, "bounds") == [10, 20, 30, 4])
        #expect(r.model(l, "bounds.size") == [30, 4])
        #expect(r.model(l, "backgroundColor") == [0.1, 0.2, 0.3, 1])
        #expect(r.model(l, "shadowOffset") == [0, 7])
        #expect(r.model(l, "anchorPoint.x") == [0.5])
    }

    @Test("unknown key paths, wrong counts and non-finite values are errors that change nothing")
    func errors() {
        var r = Rig()
        let l = r.layer(["position": [1, 2]])
        #expect(throws: CadenceError.self) { try r.e.set(layer: l, "positon", [1, 2]) }
        expectStatus(.unknownKeyPath) { () throws(CadenceError) in try r.e.set(layer: l, "positon", [1, 2]) }
        expectStatus(.typeMismatch) { () throws(CadenceError) in try r.e.set(layer: l, "position", [1, 2, 3]) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.set(layer: l, "position", [1, .nan]) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.set(layer: l, "opacity", [.infinity]) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.set(layer: l, "fillMode", [7]) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.set(layer: l, "duration", [-1]) }
        #expect(r.model(l, "position") == [1, 2])
        // repeatCount documents infinity
        try! r.e.set(layer: l, "repeatCount", [.infinity])
        #expect(r.model(l, "repeatCount") == [.infinity])
    }

    @Test("transform virtual keys decompose and recompose (§2.3)")
    func virtualKeys() {
        var r = Rig()
        let l = r.layer()
        try! r.e.set(layer: l, "transform.scale", [2])
        try! r.e.set(layer: l, "transform.rotation.z", [0.5])
        try! r.e.set(layer: l, "transform.translation", [10, 20])
        // S(2) * Rz(0.5) * T(10, 20, 0), built by hand (row vectors)
        let c = cos(0.5), s = sin(0.5)
        let expected: [Double] = [2 * c, 2 * s, 0, 0, -2 * s, 2 * c, 0, 0, 0, 0, 2, 0, 10, 20, 0, 1]
        #expect(near(r.model(l, "transform"), expected, 1e-12))
        #expect(near(r.model(l, "transform.rotation.z")[0], 0.5, 1e-12))
        #expect(near(r.model(l, "transform.scale")[0], 2, 1e-12))
        #expect(near(r.model(l, "transform.translation"), [10, 20], 1e-12))
        #expect(r.model(l, "transform.rotation") == r.model(l, "transform.rotation.z"))
        // matrix elements are plain components
        try! r.e.set(layer: l, "sublayerTransform.m34", [-1.0 / 500])
        #expect(r.model(l, "sublayerTransform")[11] == -1.0 / 500)
        #expect(r.model(l, "sublayerTransform.m34") == [-1.0 / 500])
    }

    @Test("every key path in the table resolves to its own name")
    func table() {
        for n in KeyPathTarget.allNames {
            #expect(KeyPathTarget.lookup(n)?.name == n)
            // Near misses (a byte more, a byte less, the last byte changed)
            // are other keys or none, never this one.
            for m in [n + "x", String(n.dropLast()), String(n.dropLast()) + "#"] {
                #expect(KeyPathTarget.lookup(m)?.name != n, "\(m) found \(n)")
                if let t = KeyPathTarget.lookup(m) { #expect(t.name == m) }
            }
        }
        #expect(KeyPathTarget.lookup("") == nil)
        #expect(KeyPathTarget.lookup("position.z") == nil)
        #expect(KeyPathTarget.lookup("transform.rotation.w") == nil)
    }

    @Test("the layer tree rejects cycles and keeps order")
    func tree() {
        var r = Rig()
        let a = r.layer(), b = r.layer(), c = r.layer(), d = r.layer()
        try! r.e.addSublayer(a, b)
        try! r.e.addSublayer(b, c)
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.addSublayer(c, a) }
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.addSublayer(a, a) }
        try! r.e.insertSublayer(a, d, at: 0)
        #expect(try! r.e.sublayerIDs(of: a) == [d, b])
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.insertSublayer(a, c, at: 5) }
        #expect(try! r.e.superlayer(of: c) == b)
        try! r.e.destroyLayer(b)
        #expect(try! r.e.superlayer(of: c) == 0)
        #expect(try! r.e.sublayerIDs(of: a) == [d])
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.superlayer(of: b) }
        // ids of another engine are rejected
        let other = Engine(salt: 8)
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try other.superlayer(of: a) }
        _ = try! other.createLayer()
    }

    /// A slot whose 20-bit generation would wrap is retired: the next object
    /// made there would carry the id of a destroyed one. (The generation is set
    /// near its end directly rather than by a million create/destroy cycles.)
    @Test("slots are retired instead of reusing a destroyed object's id")
    func generationWrapRetiresTheSlot() throws {
        var r = Rig()
        let a = r.layer()
        let idx = Int(a & UInt64(ObjectID.maxIndex))
        // Second-to-last generation: destroyed, the slot is reused with the last one.
        r.e.layers[idx].generation = ObjectID.genMask - 1
        let nextToLast = r.e.layerID(idx)
        try r.e.destroyLayer(nextToLast)
        let last = try r.e.createLayer()
        #expect(Int(last & UInt64(ObjectID.maxIndex)) == idx)
        // The last generation: destroyed, the slot is never handed out again.
        try r.e.destroyLayer(last)
        for _ in 0..<3 {
            let fresh = try r.e.createLayer()
            #expect(Int(fresh & UInt64(ObjectID.maxIndex)) != idx)
            #expect(fresh != nextToLast && fresh != last)
        }
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.superlayer(of: last) }
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try r.e.superlayer(of: nextToLast) }

        // Animation descriptions alike.
        let d = try r.e.createAnimation(kind: .basic, keyPath: "opacity")
        let di = Int(d & UInt64(ObjectID.maxIndex))
        r.e.specGen[di] = ObjectID.genMask
        let lastSpec = ObjectID.make(type: 2, salt: r.e.salt, gen: ObjectID.genMask, index: di)
        try r.e.destroyAnimation(lastSpec)
        let d2 = try r.e.createAnimation(kind: .basic, keyPath: "opacity")
        #expect(Int(d2 & UInt64(ObjectID.maxIndex)) != di)

        // Attached animations alike.
        let l = r.layer()
        try r.e.addAnimation(layer: l, animation: d2, key: "k")
        let h = try r.e.animation(layer: l, key: "k")
        let hi = Int(h & UInt64(ObjectID.maxIndex))
        r.e.inst.items[hi].generation = ObjectID.genMask
        try r.e.removeAllAnimations(layer: l)
        try r.e.addAnimation(layer: l, animation: d2, key: "k")
        let h2 = try r.e.animation(layer: l, key: "k")
        #expect(Int(h2 & UInt64(ObjectID.maxIndex)) != hi)
    }

    /// An engine whose objects start at generation G (the C layer gives each
    /// engine that reuses a salt another G): its first handles differ from
    /// those of an engine with the same salt that started at 1, a slot goes
    /// G, ..., 2^20 − 1, 1, ..., G − 1 (0 is skipped), and it retires the
    /// slot only when the next generation would be G again.
    @Test("a later engine with the same salt starts at another generation")
    func firstGenerationMovesHandles() throws {
        let g: UInt32 = ObjectID.genMask - 1
        let old = Engine(salt: 9)
        let new = Engine(salt: 9, firstGeneration: g)
        let a = try old.createLayer(), b = try new.createLayer()
        #expect(a & UInt64(ObjectID.maxIndex) == b & UInt64(ObjectID.maxIndex))   // same slot
        #expect(a != b)
        expectStatus(.invalidHandle) { () throws(CadenceError) in _ = try new.superlayer(of: a) }
        #expect(Engine(salt: 9, firstGeneration: 0).firstGeneration == 1)           // 0 is never a generation
        // One slot's generations: g, g + 1 = 2^20 − 1, then 1, 2, ... (0 skipped).
        let idx = Int(b & UInt64(ObjectID.maxIndex))
        var seen: [UInt32] = []
        var h = b
        for _ in 0..<4 {
            seen.append(UInt32((h >> 28) & UInt64(ObjectID.genMask)))
            try new.destroyLayer(h)
            h = try new.createLayer()
            #expect(Int(h & UInt64(ObjectID.maxIndex)) == idx)
        }
        #expect(seen == [g, ObjectID.genMask, 1, 2])
        // Just before the generation comes round to g: destroyed, the slot retires.
        new.layers[idx].generation = g - 1
        try new.destroyLayer(new.layerID(idx))
        let fresh = try new.createLayer()
        #expect(Int(fresh & UInt64(ObjectID.maxIndex)) != idx)
        #expect(UInt32((fresh >> 28) & UInt64(ObjectID.genMask)) == g)               // a new slot starts at g
        // Descriptions and attached animations start at g as well.
        let d = try new.createAnimation(kind: .basic, keyPath: "opacity")
        #expect(UInt32((d >> 28) & UInt64(ObjectID.genMask)) == g)
        try new.addAnimation(layer: fresh, animation: d, key: "k")
        let i = try new.animation(layer: fresh, key: "k")
        #expect(UInt32((i >> 28) & UInt64(ObjectID.genMask)) == g)
    }
}

@Suite("Regressions found by fuzzing")
struct FuzzRegressionTests {
    @Test("fillMode far outside the enum range is an invalid argument, not a trap", arguments: [2147483648.0, -2147483649.0, 1e10, 1e308, -1e308, 3.5, 4, -1])
    func fillModeRange(v: Double) {
        var r = Rig()
        let l = r.layer()
        expectStatus(.invalidArgument) { () throws(CadenceError) in try r.e.set(layer: l, "fillMode", [v]); Issue.record("accepted \(v)") }
    }
}

@Suite("Block layout")
struct BlockLayoutTests {
    @Test("the evaluator's property ranges match the layout of LayerProperty")
    func ranges() {
        for p in LayerProperty.allCases where p != .contents {
            let r = Engine.propRange(p.rawValue)
            #expect(r.offset == p.offset && r.count == p.count, "\(p)")
        }
    }
}
