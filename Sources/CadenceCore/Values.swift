/// Value kinds of SEMANTICS.md §2 and their component counts.
public enum ValueKind: UInt8, Sendable, BitwiseCopyable {
    case scalar, point, size, rect, color, transform, bool, id

    public var components: Int {
        switch self {
        case .scalar, .bool, .id: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform: return 16
        }
    }

    public var name: String {
        switch self {
        case .scalar: return "scalar"
        case .point: return "point"
        case .size: return "size"
        case .rect: return "rect"
        case .color: return "color"
        case .transform: return "transform"
        case .bool: return "bool"
        case .id: return "id"
        }
    }
}

/// A value of up to 16 components held inline (no heap allocation), the unit in
/// which the engine passes property values around.
public struct ValueBuffer: Sendable, Equatable {
    public var storage: SIMD16<Double>
    public private(set) var count: Int

    public static let maxComponents = 16

    @inline(__always)
    public init(count: Int) {
        storage = .zero
        self.count = max(0, min(count, ValueBuffer.maxComponents))
    }

    /// Copies up to 16 values.
    public init<C: Collection>(_ values: C) where C.Element == Double {
        storage = .zero
        var i = 0
        for v in values where i < ValueBuffer.maxComponents {
            storage[i] = v
            i += 1
        }
        count = i
    }

    public init(_ values: Double...) { self.init(values) }

    // Fixed arities without the variadic form's array (reads must not allocate).
    @inline(__always)
    public init(_ a: Double) {
        storage = .zero
        storage[0] = a
        count = 1
    }

    @inline(__always)
    public init(_ a: Double, _ b: Double) {
        storage = .zero
        storage[0] = a; storage[1] = b
        count = 2
    }

    @inline(__always)
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        storage = .zero
        storage[0] = a; storage[1] = b; storage[2] = c; storage[3] = d
        count = 4
    }

    public init(_ span: Span<Double>) {
        storage = .zero
        let n = min(span.count, ValueBuffer.maxComponents)
        for i in 0..<n { storage[i] = span[i] }
        count = n
    }

    @inline(__always)
    public subscript(i: Int) -> Double {
        get { storage[i] }
        set { storage[i] = newValue }
    }

    public var array: [Double] { (0..<count).map { storage[$0] } }

    /// Non-finite components replaced: NaN by 0, ±inf by ±DBL_MAX (what the
    /// presentation API returns when a derived value overflows).
    var saturated: ValueBuffer {
        var v = self
        for i in 0..<count { v.storage[i] = settled(v.storage[i], nan: 0) }
        return v
    }

    /// True when every component is finite.
    public var isFinite: Bool {
        for i in 0..<count where !storage[i].isFinite { return false }
        return true
    }

    public static func == (a: ValueBuffer, b: ValueBuffer) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a.storage[i] != b.storage[i] { return false }
        return true
    }

    var transform: Transform3D {
        Transform3D(storage.lowHalf.lowHalf, storage.lowHalf.highHalf, storage.highHalf.lowHalf, storage.highHalf.highHalf)
    }

    init(transform t: Transform3D) {
        storage = SIMD16(lowHalf: SIMD8(lowHalf: t.r1, highHalf: t.r2), highHalf: SIMD8(lowHalf: t.r3, highHalf: t.r4))
        count = 16
    }
}

/// Fixed-capacity inline array of 16 doubles used for scratch work in the frame
/// loop. Indices beyond the count are ignored.
extension SIMD16 where Scalar == Double {
    @inline(__always)
    static func lerp(_ a: SIMD16<Double>, _ b: SIMD16<Double>, _ t: Double) -> SIMD16<Double> {
        a + (b - a) * t
    }
}

/// The rule for a non-finite computed value (SEMANTICS.md): ±inf saturates at
/// ±DBL_MAX, NaN takes `nan` (the underlying or model value, or 0). A finite
/// value passes unchanged.
@inline(__always)
func settled(_ x: Double, nan: Double) -> Double {
    if x.isFinite { return x }
    return x.isNaN ? nan : (x > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
}

/// Every lane of `v` finite. `x - x` is 0 for a finite x and NaN for NaN and
/// ±inf, and the sum of the four differences is 0 exactly when each is (a NaN
/// lane makes it NaN): two adds and one compare, where a lane-wise compare
/// and its mask cost four extractions.
@inline(__always)
func allFinite(_ v: SIMD4<Double>) -> Bool {
    let z = v - v
    let h = z.lowHalf + z.highHalf
    return h.x + h.y == 0
}

/// `allFinite` on two lanes.
@inline(__always)
func allFinite(_ v: SIMD2<Double>) -> Bool {
    let z = v - v
    return z.x + z.y == 0
}

/// `a + (b − a)·e`, and exactly `b` at e = 1: an animation that ends (or fills
/// forwards) shows its `to` value bit for bit, where the plain formula can miss
/// it by an ulp (1 + (0.2 − 1)·1 is 0.19999999999999996). At e = 0 the formula
/// already gives `a`.
@inline(__always)
func lerp(_ a: Double, _ b: Double, _ e: Double) -> Double {
    e == 1 ? b : a + (b - a) * e
}

/// `lerp` lane by lane.
@inline(__always)
func lerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ e: Double) -> SIMD4<Double> {
    e == 1 ? b : a + (b - a) * e
}

/// `lerp` on two lanes.
@inline(__always)
func lerp(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ e: Double) -> SIMD2<Double> {
    e == 1 ? b : a + (b - a) * e
}

/// One component of a basic animation, `start + (end − start)·e` plus
/// `cycles` completed cumulative cycles of `(lerp(start, end, cycleEnd) −
/// start)` each, recomputed where the plain arithmetic gave a non-finite value
/// (the frame loop's cold path; finite results never come here, so their bits
/// are the plain formula's). docs/decisions.md, "Interpolation": endpoints
/// that overflowed (`to − by`, `from + by`, `underlying + by` beyond the
/// largest double) saturate at ±DBL_MAX first, then the formula is evaluated
/// literally; where it is undefined because `end − start` overflowed — times
/// a progress of 0 (inf·0), or an overshooting progress and the cumulative
/// term overflowing in opposite directions (inf − inf) — the value is
/// `start + (end − start)·(e + cycles·cycleEnd)`, which is `start` when that
/// total progress is 0. The result can be ±inf (the caller saturates it) and
/// is NaN only for NaN inputs (the caller keeps the underlying value).
@inline(never)
func basicOverflowed(_ start: Double, _ end: Double, _ e: Double, cycles: Double = 0, cycleEnd: Double = 1) -> Double {
    let a = settled(start, nan: start), b = settled(end, nan: end)
    var v = e == 1 ? b : a + (b - a) * e
    if cycles >= 1 { v += cycleEnd == 1 ? (b - a) * cycles : (lerp(a, b, cycleEnd) - a) * cycles }
    if v.isNaN {
        let t = e + cycles * cycleEnd
        v = t == 0 ? a : a + (b - a) * t
    }
    return v
}
