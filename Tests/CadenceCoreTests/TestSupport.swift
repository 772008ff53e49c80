#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CadenceCore

/// |a - b| <= tol
func near(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool {
    abs(a - b) <= tol
}

func near(_ a: [Double], _ b: [Double], _ tol: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tol }
}

/// Expects `body` to fail with `status` (and records an issue when it succeeds).
func expectStatus(_ status: Status, sourceLocation: SourceLocation = #_sourceLocation,
                  _ body: () throws(CadenceError) -> Void) {
    do {
        try body()
        Issue.record("expected \(status), the call succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error.status == status, sourceLocation: sourceLocation)
    }
}

/// A small fluent helper around the Swift engine API for tests.
struct Rig {
    var e = Engine(salt: 7)

    init(tick t: Double? = 0) {
        if let t { try! e.tick(t) }
    }

    mutating func layer(_ props: [String: [Double]] = [:]) -> UInt64 {
        let l = try! e.createLayer()
        for (k, v) in props { try! e.set(layer: l, k, v) }
        return l
    }

    /// A basic animation description.
    mutating func basic(_ keyPath: String, from: [Double]? = nil, to: [Double]? = nil, by: [Double]? = nil,
                        duration: Double = 1, _ configure: (inout AnimationSpec) throws(CadenceError) -> Void = { _ in }) -> AnimationSpec {
        var s = try! AnimationSpec(kind: .basic, keyPath: keyPath)
        if let from { try! s.setEndpoint(.from, ValueBuffer(from)) }
        if let to { try! s.setEndpoint(.to, ValueBuffer(to)) }
        if let by { try! s.setEndpoint(.by, ValueBuffer(by)) }
        s.timing.duration = duration
        try! configure(&s)
        return s
    }

    mutating func add(_ l: UInt64, _ s: AnimationSpec, key: String? = nil) {
        try! e.addAnimation(layer: l, spec: s, key: key)
    }

    mutating func tick(_ t: Double) { try! e.tick(t) }

    mutating func pres(_ l: UInt64, _ k: String) -> [Double] { try! e.presentation(layer: l, k) }
    mutating func pres1(_ l: UInt64, _ k: String) -> Double { pres(l, k)[0] }
    func model(_ l: UInt64, _ k: String) -> [Double] { try! e.get(layer: l, k) }

    mutating func events() -> [Event] {
        var out: [Event] = []
        while let ev = try? e.pollEvent() { out.append(ev) }
        return out
    }
}

/// 4×4 matrices as 16 doubles, row vectors (SEMANTICS.md §2.2), multiplied by
/// plain loops: expectations computed without `Transform3D`.
protocol PlainMatrices {}

func plainProduct(_ a: [Double], _ b: [Double]) -> [Double] {
    var c = [Double](repeating: 0, count: 16)
    for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { c[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j] } } }
    return c
}

extension PlainMatrices {
    /// Float32 rounding of the expected doubles (~6e-8 relative), with room
    /// for the engine's own double arithmetic: each element within 4e-7 of the
    /// largest magnitude in its row of `w` (at least 1), so small terms such as
    /// a perspective m34 = -1/400 and large translations are both held tightly.
    /// (Saturated elements, beyond FLT_MAX, are checked bit for bit elsewhere.)
    func expectWorld(_ it: RenderItem?, _ w: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let it else { Issue.record("item missing", sourceLocation: sourceLocation); return }
        let got = it.worldElements.map(Double.init)
        let ok = got.count == 16 && w.count == 16 && (0..<16).allSatisfy { i in
            let row = i / 4 * 4
            let scale = max(1, w[row..<row + 4].map(abs).max()!)
            return abs(got[i] - w[i]) <= 4e-7 * scale
        }
        #expect(ok, "\(got) vs \(w)", sourceLocation: sourceLocation)
    }

    func mul(_ a: [Double], _ b: [Double]) -> [Double] { plainProduct(a, b) }
    func mul(_ ms: [Double]...) -> [Double] { ms.dropFirst().reduce(ms[0], plainProduct) }
    var I: [Double] { [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }
    func T(_ x: Double, _ y: Double, _ z: Double) -> [Double] { [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1] }
    func S(_ x: Double, _ y: Double, _ z: Double) -> [Double] { [x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1] }
    /// Rotation about +z: (1, 0, 0) -> (cos, sin, 0).
    func Rz(_ a: Double) -> [Double] { [cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }
    func Ry(_ a: Double) -> [Double] { [cos(a), 0, -sin(a), 0, 0, 1, 0, 0, sin(a), 0, cos(a), 0, 0, 0, 0, 1] }

    // Layers built from a `RenderGeo` and their §2.2 local matrices, for the render-list suites.

    /// local(L) of §2.2 (the superlayer's sublayerTransform term from `parent`).
    func local(_ g: Geo, position: [Double]? = nil, parent: Geo? = nil) -> [Double] {
        let p = position ?? g.position
        var m = mul(T(-(g.bounds[0] + g.anchor[0] * g.bounds[2]), -(g.bounds[1] + g.anchor[1] * g.bounds[3]), -g.anchorZ),
                    g.transform ?? I, T(p[0], p[1], g.z + g.anchorZ))
        if let pg = parent, let st = pg.sublayerTransform {
            let qx = pg.bounds[0] + pg.anchor[0] * pg.bounds[2], qy = pg.bounds[1] + pg.anchor[1] * pg.bounds[3]
            m = mul(m, T(-qx, -qy, -pg.anchorZ), st, T(qx, qy, pg.anchorZ))
        }
        return m
    }

    func make(_ r: inout Rig, _ g: Geo) throws -> UInt64 {
        let l = r.layer(["bounds": g.bounds, "anchorPoint": g.anchor, "anchorPointZ": [g.anchorZ],
                         "position": g.position, "zPosition": [g.z]])
        if let t = g.transform { try r.e.set(layer: l, "transform", t) }
        if let s = g.sublayerTransform { try r.e.set(layer: l, "sublayerTransform", s) }
        return l
    }

    func render(_ r: inout Rig, _ root: UInt64, cap: Int = 64) throws -> [RenderItem] {
        var buf = [RenderItem](repeating: RenderItem(), count: cap)
        var span = buf.mutableSpan
        let n = try r.e.renderList(root: root, into: &span)
        return Array(buf.prefix(n))
    }

    func item(_ items: [RenderItem], _ l: UInt64, flags: Int32 = 0) -> RenderItem? {
        items.first { $0.layer == l && ($0.flags & flags) == flags }
    }
}

/// Geometry of one layer, as set on the engine and as used by `PlainMatrices.local`.
typealias Geo = RenderGeo
struct RenderGeo {
    var bounds: [Double] = [0, 0, 0, 0]
    var anchor: [Double] = [0.5, 0.5]
    var anchorZ = 0.0
    var position: [Double] = [0, 0]
    var z = 0.0
    var transform: [Double]? = nil
    var sublayerTransform: [Double]? = nil
}

/// SplitMix64 (Steele, Lea, Flood 2014): the tests' one seeded generator for
/// reproducible random cases.
struct SplitMix64 {
    var state: UInt64
    init(state: UInt64) { self.state = state }
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform in [a, b).
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
    /// A double with a random sign, exponent in [-60, 70] and mantissa.
    mutating func anyMagnitude() -> Double {
        let e = Int(next() % 131) - 60
        let v = Double(sign: .plus, exponent: e, significand: 1 + unit())
        return next() & 1 == 0 ? v : -v
    }
}

/// y of the cubic Bézier timing curve (0,0), (c1x, c1y), (c2x, c2y), (1,1) at
/// x, by 200 bisection steps on x(s) (independent of `TimingCurve`).
func bezierY(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, at x: Double) -> Double {
    func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 {
        let m = (lo + hi) / 2
        if b(m, c1x, c2x) < x { lo = m } else { hi = m }
    }
    return b((lo + hi) / 2, c1y, c2y)
}

/// What the differential tests compare between two engines, byte for byte.
enum Observed {
    /// Layers whose render cache (`cache[l]`, `presHidden`) differs from a full
    /// recomputation from their presentation block: the invariant every writer
    /// of a visual presentation value keeps by refreshing the fields it wrote
    /// (`refreshVisualCache(_:mask:)`). Recomputing mends what it finds.
    static func staleCaches(_ e: Engine) -> [Int] {
        var stale: [Int] = []
        for l in 0..<e.layers.count where e.layers[l].alive {
            var before = e.cache[l]
            let hidden = e.layers[l].presHidden
            e.refreshVisualCache(l)
            var after = e.cache[l]
            let same = withUnsafeBytes(of: &before) { a in withUnsafeBytes(of: &after) { b in a.elementsEqual(b) } }
            if !same || hidden != e.layers[l].presHidden { stale.append(l) }
        }
        return stale
    }

    static func bytes(_ items: ArraySlice<RenderItem>) -> [UInt8] {
        var out: [UInt8] = []
        for var it in items { withUnsafeBytes(of: &it) { out.append(contentsOf: $0) } }
        return out
    }

    /// The render list from `root` as bytes.
    static func renderList(_ e: Engine, _ root: UInt64) -> [UInt8] {
        var buf = [RenderItem](repeating: RenderItem(), count: 512)
        var span = buf.mutableSpan
        let n = try! e.renderList(root: root, into: &span)
        return bytes(buf.prefix(n))
    }

    /// The queued events, drained, each as one line (time as bits).
    static func events(_ e: Engine) -> [String] {
        var out: [String] = []
        while let ev = try? e.pollEvent() {
            out.append("\(ev.kind) \(ev.finished) \(ev.layer) \(ev.tag) \(ev.time.bitPattern) \(ev.key)")
        }
        return out
    }
}

extension Engine {
    /// Model writes in one transaction with actions disabled (no implicit animations).
    func setWithoutActions(layer id: UInt64, _ writes: [(String, [Double])]) throws(CadenceError) {
        beginTransaction()
        try setTransactionDisableActions(true)
        for (key, v) in writes { try set(layer: id, key, v) }
        try commitTransaction()
    }
}

/// A random tree under a new root for the differential tests, built on both
/// engines by `both`: `count` layers with random position and bounds, the
/// first 4 and most others sublayers of the root (one in `nestOneIn` nested
/// under an earlier layer), one in `rotateOneIn` turned about z.
func randomTree(_ g: inout SplitMix64, count: Int, nestOneIn: Int, rotateOneIn: Int,
                both: ((Engine) throws(CadenceError) -> Void) -> Void) -> (root: UInt64, ids: [UInt64]) {
    var ids: [UInt64] = []
    var root: UInt64 = 0
    both { e throws(CadenceError) in root = try e.createLayer() }
    for k in 0..<count {
        var id: UInt64 = 0
        let parent = k < 4 || g.int(0...(nestOneIn - 1)) != 0 ? root : ids[g.int(0...(ids.count - 1))]
        let pos = [g.uniform(0, 500), g.uniform(0, 500)]
        let bounds = [0, 0, g.uniform(1, 50), g.uniform(1, 50)]
        let rotate = g.int(0...(rotateOneIn - 1)) == 0
        let angle = g.uniform(-1, 1)
        both { e throws(CadenceError) in
            id = try e.createLayer()
            try e.addSublayer(parent, id)
            try e.set(layer: id, "position", pos)
            try e.set(layer: id, "bounds", bounds)
            if rotate { try e.set(layer: id, "transform.rotation.z", [angle]) }
        }
        ids.append(id)
    }
    return (root, ids)
}

/// The two engines of a differential suite: the same salt (so handles agree),
/// `fast` with every fast path on, `general` with the one under test turned
/// off by `off`; `both` runs the same operations on each, `fast` first.
struct EnginePair {
    var fast: Engine
    var general: Engine

    init(salt: UInt16, off: (Engine) -> Void) {
        fast = Engine(salt: salt)
        general = Engine(salt: salt)
        off(general)
    }

    mutating func both(_ body: (Engine) throws(CadenceError) -> Void) {
        try! body(fast)
        try! body(general)
    }
}
