import Testing
@testable import CadenceCore

/// `Engine.readSmall`, the reader of `cad_layer_get` and
/// `cad_layer_presentation` for block key paths of up to four components,
/// against the general reader (`get`, `presentation`: a `ValueBuffer`,
/// saturated as a whole when a component is not finite), key path by key
/// path, over model values, running animations and presentation values that
/// overflow.
@Suite("readSmall agrees with the general reader")
struct ReadSmallTests {
    /// A layer with a value of its own in every block property, under animations
    /// of position (overflowing to ±inf, which saturates), opacity and
    /// backgroundColor.
    static func rig() -> (Rig, UInt64) {
        var r = Rig()
        let l = r.layer([
            "position": [3, -4], "zPosition": [2.5], "anchorPoint": [0.25, 0.75], "bounds": [1, 2, 30, 40],
            "opacity": [0.5], "backgroundColor": [0.1, 0.2, 0.3, 0.4], "borderWidth": [1.5],
            "shadowOffset": [2, 3], "contentsRect": [0.1, 0.2, 0.5, 0.6], "hidden": [1],
        ])
        r.tick(0)
        r.add(l, r.basic("position", from: [-1e308, 1e308], to: [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude],
                         duration: 1), key: "p")
        r.add(l, r.basic("opacity", from: [0], to: [1], duration: 2), key: "o")
        r.add(l, r.basic("backgroundColor", to: [1, 1, 1, 1], duration: 4), key: "c")
        r.tick(0.5)
        return (r, l)
    }

    @Test("every key path: nil, or the general reader's count and bits")
    func everyKeyPath() throws {
        var (r, l) = ReadSmallTests.rig()
        var small = Set<String>()
        for name in KeyPathTarget.allNames {
            let t = try Engine.target(name)
            for presentation in [false, true] {
                guard let (v, n) = try r.e.readSmall(layer: l, t, presentation: presentation) else { continue }
                small.insert(name)
                let want = presentation ? try r.e.presentation(layer: l, t) : try r.e.get(layer: l, t)
                #expect(n == want.count, "\(name) presentation \(presentation)")
                for k in 0..<4 {
                    let w = k < want.count ? want[k] : 0
                    #expect(v[k].bitPattern == w.bitPattern, "\(name)[\(k)] presentation \(presentation): \(v[k]) vs \(w)")
                }
            }
        }
        // Not vacuous: the keys hosts read most take this path; the others do not.
        for name in ["position", "position.x", "opacity", "bounds", "bounds.size", "backgroundColor", "backgroundColor.a",
                     "zPosition", "hidden", "transform.m41"] {
            #expect(small.contains(name), "\(name)")
        }
        for name in ["transform", "frame", "contents", "transform.rotation.z", "speed", "repeatCount"] {
            #expect(!small.contains(name), "\(name)")
        }
        // The presentation of the overflowing position saturates (hand-worked:
        // halfway, -1e308 + (DBL_MAX + 1e308) / 2 overflows in the difference).
        let p = try #require(try r.e.readSmall(layer: l, Engine.target("position"), presentation: true))
        #expect(p.0[0] == .greatestFiniteMagnitude && p.0[1] == -.greatestFiniteMagnitude)
        // And opacity, linear from 0 to 1 over 2 s, at 0.5 s.
        let o = try #require(try r.e.readSmall(layer: l, Engine.target("opacity"), presentation: true))
        #expect(o.0[0] == 0.25 && o.1 == 1)
    }

    /// The engine never stores a non-finite value (model writes are checked,
    /// evaluations saturate), so the readers' saturation is a safety net: it is
    /// exercised here by writing ±inf and NaN into the blocks directly.
    @Test("non-finite stored values read as the general reader saturates them")
    func nonFiniteStored() throws {
        var (r, l) = ReadSmallTests.rig()
        let i = try r.e.requireLayer(l)
        let base = i * LayerProperty.stride
        let pos = LayerProperty.position.offset, color = LayerProperty.backgroundColor.offset
        r.e.ensurePresentation(i)
        r.e.pres[base + pos] = .infinity
        r.e.pres[base + pos + 1] = .nan
        r.e.model[base + color + 2] = -.infinity
        r.e.model[base + color + 3] = .nan
        let cases: [(String, Bool, [Double])] = [
            ("position", true, [.greatestFiniteMagnitude, 0]),
            ("position.y", true, [0]),
            ("backgroundColor", false, [0.1, 0.2, -.greatestFiniteMagnitude, 0]),
            ("backgroundColor.b", false, [-.greatestFiniteMagnitude]),
        ]
        for (name, presentation, want) in cases {
            let t = try Engine.target(name)
            let (v, n) = try #require(try r.e.readSmall(layer: l, t, presentation: presentation))
            let general = presentation ? try r.e.presentation(layer: l, t) : try r.e.get(layer: l, t)
            #expect(n == want.count && general.array == want, "\(name)")
            for k in 0..<n { #expect(v[k] == want[k], "\(name)[\(k)]") }
        }
    }

    /// `sample` (`cad_engine_sample`) reads block key paths straight from the
    /// block too: every key path of three layers (one of them with ±inf and
    /// NaN poked into its block) against `presentation`, layer by layer.
    @Test("sample agrees with presentation for every key path")
    func sampleAgrees() throws {
        var (r, l) = ReadSmallTests.rig()
        let other = r.layer(["position": [7, 8], "transform": Transform3D.translation(1, 2, 3).elements])
        let i = try r.e.requireLayer(l)
        r.e.ensurePresentation(i)
        r.e.pres[i * LayerProperty.stride + LayerProperty.transform.offset + 13] = .infinity
        r.e.pres[i * LayerProperty.stride + LayerProperty.opacity.offset] = .nan
        let ids: [UInt64] = [l, other, l]
        for name in KeyPathTarget.allNames {
            let t = try Engine.target(name)
            var buf = [Double](repeating: -7, count: ids.count * t.components)
            var span = buf.mutableSpan
            let n = try r.e.sample(layers: ids.span, t, into: &span)
            _ = consume span
            #expect(n == ids.count * t.components, "\(name)")
            var want: [Double] = []
            for id in ids { want += try r.e.presentation(layer: id, t).array }
            #expect(buf.map(\.bitPattern) == want.map(\.bitPattern), "\(name): \(buf) vs \(want)")
        }
        // Hand-worked: the poked values saturate.
        let t = try Engine.target("opacity")
        var one = [0.0]
        var span = one.mutableSpan
        let single: [UInt64] = [l]
        _ = try r.e.sample(layers: single.span, t, into: &span)
        _ = consume span
        #expect(one == [0])
    }

    @Test("a stale layer handle throws as get does")
    func staleHandle() throws {
        var (r, l) = ReadSmallTests.rig()
        try r.e.destroyLayer(l)
        let t = try Engine.target("opacity")
        #expect(throws: CadenceError.self) { _ = try r.e.readSmall(layer: l, t, presentation: false) }
        #expect(throws: CadenceError.self) { _ = try r.e.readSmall(layer: l, t, presentation: true) }
        #expect(throws: CadenceError.self) { _ = try r.e.readSmall(layer: 0, t, presentation: true) }
    }
}
