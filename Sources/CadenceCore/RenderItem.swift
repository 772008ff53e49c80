/// One entry of the render list, laid out exactly like the C `cad_render_item`
/// (field order and natural alignment; 200 bytes). The C layer checks the size
/// and offsets against the header at start-up and in its tests.
public struct RenderItem: Sendable {
    public typealias Float4 = (Float, Float, Float, Float)
    public typealias Float16 = (Float, Float, Float, Float, Float, Float, Float, Float,
                                Float, Float, Float, Float, Float, Float, Float, Float)

    public var layer: UInt64 = 0
    /// Index of the parent item in the same list, -1 for the first item.
    public var parent: Int32 = -1
    public var flags: Int32 = 0
    /// World transform, SEMANTICS.md §2.2 layout (row vectors, m11 ... m44).
    public var world: Float16 = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    public var bounds: Float4 = (0, 0, 0, 0)
    public var opacity: Float = 1
    public var worldOpacity: Float = 1
    public var backgroundColor: Float4 = (0, 0, 0, 0)
    public var borderColor: Float4 = (0, 0, 0, 1)
    public var shadowColor: Float4 = (0, 0, 0, 1)
    public var borderWidth: Float = 0
    public var cornerRadius: Float = 0
    public var shadowOpacity: Float = 0
    public var shadowRadius: Float = 3
    public var shadowOffset: (Float, Float) = (0, -3)
    public var contentsRect: Float4 = (0, 0, 1, 1)
    public var contents: UInt64 = 0

    public init() {}

    /// Flags (API.md).
    public static let masksToBounds: Int32 = 1
    public static let doubleSided: Int32 = 2
    public static let transitionOutgoing: Int32 = 4
    public static let transitionIncoming: Int32 = 8
    /// Cadence: the invisible container that clips a transition's two pictures
    /// to the layer's bounds (it also carries `masksToBounds`).
    public static let transitionClip: Int32 = 16

    /// World matrix element `k` (0..<16).
    public var worldElements: [Float] {
        let w = world
        return [w.0, w.1, w.2, w.3, w.4, w.5, w.6, w.7, w.8, w.9, w.10, w.11, w.12, w.13, w.14, w.15]
    }

    /// Byte offsets of every field, for the layout check against the C header.
    public static var fieldOffsets: [Int] {
        [\RenderItem.layer, \RenderItem.parent, \RenderItem.flags].map { MemoryLayout<RenderItem>.offset(of: $0)! } + [
            MemoryLayout<RenderItem>.offset(of: \RenderItem.world)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.bounds)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.opacity)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.worldOpacity)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.backgroundColor)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.borderColor)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.shadowColor)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.borderWidth)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.cornerRadius)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.shadowOpacity)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.shadowRadius)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.shadowOffset)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.contentsRect)!,
            MemoryLayout<RenderItem>.offset(of: \RenderItem.contents)!,
        ]
    }
}

/// The render cache's entry for one layer: the render-item fields that come
/// from the layer's own presentation values, in 128 bytes (the world matrix,
/// parent and world opacity, which the render list writes per frame, are not
/// here; the last world is `Engine.cacheWorld`). The translated-leaf fast
/// path streams through these, so every byte counts.
struct CachedItem {
    var layer: UInt64 = 0
    var flags: Int32 = 0
    var opacity: Float = 1
    var bounds: RenderItem.Float4 = (0, 0, 0, 0)
    var backgroundColor: RenderItem.Float4 = (0, 0, 0, 0)
    var borderColor: RenderItem.Float4 = (0, 0, 0, 1)
    var shadowColor: RenderItem.Float4 = (0, 0, 0, 1)
    var borderWidth: Float = 0
    var cornerRadius: Float = 0
    var shadowOpacity: Float = 0
    var shadowRadius: Float = 3
    var shadowOffset: (Float, Float) = (0, -3)
    var contentsRect: RenderItem.Float4 = (0, 0, 1, 1)
    var contents: UInt64 = 0
}

extension RenderItem {
    /// The item of a cached entry with its world matrix (parent -1, world
    /// opacity 1 until the caller sets them).
    @inline(__always)
    init(_ c: CachedItem, world: Float16) {
        self.init()
        layer = c.layer
        flags = c.flags
        self.world = world
        bounds = c.bounds
        opacity = c.opacity
        backgroundColor = c.backgroundColor
        borderColor = c.borderColor
        shadowColor = c.shadowColor
        borderWidth = c.borderWidth
        cornerRadius = c.cornerRadius
        shadowOpacity = c.shadowOpacity
        shadowRadius = c.shadowRadius
        shadowOffset = c.shadowOffset
        contentsRect = c.contentsRect
        contents = c.contents
    }
}

/// Double to float32 for the render list: NaN becomes 0, magnitudes beyond
/// float's range saturate at ±FLT_MAX (never ±inf), so a host never reads a
/// non-finite value even for model values near 1e300.
@inline(__always)
func fsat(_ x: Double) -> Float {
    if x.isNaN { return 0 }
    return Float(max(-3.4028234663852886e38, min(x, 3.4028234663852886e38)))
}

/// Rounded first, then fixed up on the four floats (one vector instead of two
/// double halves): the same result as clamping the doubles at ±FLT_MAX and
/// rounding, since a double within range rounds within range, a double
/// beyond ±FLT_MAX rounds to ±FLT_MAX or ±inf (both then ±FLT_MAX), and NaN
/// stays NaN (then 0). Zeros come out as +0: the sign of a zero in a world
/// matrix depends on the order of the products that made it (a full list and
/// a subtree list reach a layer by different paths), and the list's bytes must
/// not depend on which list ran before (x + 0 is x except that -0 becomes +0).
@inline(__always)
func sat4(_ v: SIMD4<Double>) -> SIMD4<Float> {
    let lim = SIMD4<Float>(repeating: .greatestFiniteMagnitude)
    var x = SIMD4<Float>(v) + SIMD4<Float>(repeating: 0)
    x.replace(with: 0, where: x .!= x)
    x.replace(with: lim, where: x .> lim)
    x.replace(with: -lim, where: x .< -lim)
    return x
}

@inline(__always)
func float4(_ b: [Double], _ o: Int) -> RenderItem.Float4 {
    (fsat(b[o]), fsat(b[o + 1]), fsat(b[o + 2]), fsat(b[o + 3]))
}

@inline(__always)
func clamp01(_ x: Double) -> Float {
    x >= 1 ? 1 : (x > 0 ? Float(x) : 0)
}

@inline(__always)
func color4(_ b: [Double], _ o: Int) -> RenderItem.Float4 {
    (clamp01(b[o]), clamp01(b[o + 1]), clamp01(b[o + 2]), clamp01(b[o + 3]))
}

extension Transform3D {
    /// Rounds to float32 in the render list's layout.
    @inline(__always)
    var float16: RenderItem.Float16 {
        let a = sat4(r1), b = sat4(r2), c = sat4(r3), d = sat4(r4)
        return (a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w)
    }
}
