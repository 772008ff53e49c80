/// The animatable and settable properties of a layer (SEMANTICS.md §2), stored in
/// one flat block of doubles per layer. `offset` and `count` locate a property
/// in that block; sub-key paths are sub-ranges of it.
public enum LayerProperty: Int, Sendable, CaseIterable, BitwiseCopyable {
    case position, zPosition, anchorPoint, anchorPointZ, bounds, transform, sublayerTransform
    case opacity, hidden, backgroundColor, borderColor, borderWidth, cornerRadius
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, contentsRect
    case masksToBounds, doubleSided
    /// Not in the block: a host id (UInt64). Listed so masks and actions can name it.
    case contents

    /// Doubles per layer in the property block.
    public static let stride = 68

    public var offset: Int {
        switch self {
        case .position: return 0
        case .zPosition: return 2
        case .anchorPoint: return 3
        case .anchorPointZ: return 5
        case .bounds: return 6
        case .transform: return 10
        case .sublayerTransform: return 26
        case .opacity: return 42
        case .hidden: return 43
        case .backgroundColor: return 44
        case .borderColor: return 48
        case .borderWidth: return 52
        case .cornerRadius: return 53
        case .shadowColor: return 54
        case .shadowOpacity: return 58
        case .shadowOffset: return 59
        case .shadowRadius: return 61
        case .contentsRect: return 62
        case .masksToBounds: return 66
        case .doubleSided: return 67
        case .contents: return -1
        }
    }

    public var kind: ValueKind {
        switch self {
        case .position, .anchorPoint: return .point
        case .shadowOffset: return .size
        case .bounds, .contentsRect: return .rect
        case .transform, .sublayerTransform: return .transform
        case .backgroundColor, .borderColor, .shadowColor: return .color
        case .hidden, .masksToBounds, .doubleSided: return .bool
        case .contents: return .id
        default: return .scalar
        }
    }

    public var count: Int { kind.components }

    public var animatable: Bool {
        switch self {
        case .masksToBounds, .doubleSided: return false
        default: return true
        }
    }

    /// Changes to these move the layer or its sublayers (world matrices).
    public var isGeometry: Bool {
        switch self {
        case .position, .zPosition, .anchorPoint, .anchorPointZ, .bounds, .transform, .sublayerTransform:
            return true
        default:
            return false
        }
    }

    public var name: String {
        switch self {
        case .position: return "position"
        case .zPosition: return "zPosition"
        case .anchorPoint: return "anchorPoint"
        case .anchorPointZ: return "anchorPointZ"
        case .bounds: return "bounds"
        case .transform: return "transform"
        case .sublayerTransform: return "sublayerTransform"
        case .opacity: return "opacity"
        case .hidden: return "hidden"
        case .backgroundColor: return "backgroundColor"
        case .borderColor: return "borderColor"
        case .borderWidth: return "borderWidth"
        case .cornerRadius: return "cornerRadius"
        case .shadowColor: return "shadowColor"
        case .shadowOpacity: return "shadowOpacity"
        case .shadowOffset: return "shadowOffset"
        case .shadowRadius: return "shadowRadius"
        case .contentsRect: return "contentsRect"
        case .masksToBounds: return "masksToBounds"
        case .doubleSided: return "doubleSided"
        case .contents: return "contents"
        }
    }

    /// Default values (SEMANTICS.md §2).
    public var defaultValue: [Double] {
        switch self {
        case .position: return [0, 0]
        case .zPosition, .anchorPointZ, .borderWidth, .cornerRadius, .shadowOpacity: return [0]
        case .anchorPoint: return [0.5, 0.5]
        case .bounds: return [0, 0, 0, 0]
        case .transform, .sublayerTransform: return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        case .opacity: return [1]
        case .hidden, .masksToBounds: return [0]
        case .doubleSided: return [1]
        case .backgroundColor: return [0, 0, 0, 0]
        case .borderColor, .shadowColor: return [0, 0, 0, 1]
        case .shadowOffset: return [0, -3]
        case .shadowRadius: return [3]
        case .contentsRect: return [0, 0, 1, 1]
        case .contents: return [0]
        }
    }

    @inline(__always)
    public var bit: UInt32 { 1 << UInt32(rawValue) }

    /// A block of doubles holding every default, in layout order.
    public static let defaultBlock: [Double] = {
        var b = [Double](repeating: 0, count: stride)
        for p in allCases where p != .contents {
            for (i, v) in p.defaultValue.enumerated() { b[p.offset + i] = v }
        }
        return b
    }()

    /// Properties whose presentation lands in the render list's visual fields:
    /// the bits of position … sublayerTransform (those with `isGeometry`). A
    /// literal, not a lazily initialised `static let` (a `swift_once` call per use
    /// in the frame loop); a test checks it against `isGeometry`.
    public static var geometryMask: UInt32 { 0x7F }

    /// Properties with no field in the render cache (`CachedItem`, `presHidden`):
    /// position, zPosition, anchorPoint, anchorPointZ, transform and
    /// sublayerTransform (the render list computes geometry). A literal; a test
    /// checks that refreshing them leaves the cache as it was.
    static var uncachedMask: UInt32 { 0x6F }
}

/// Timing fields of a layer, reachable through key paths (never animated).
public enum TimingField: Int, Sendable, CaseIterable, BitwiseCopyable {
    case beginTime, speed, timeOffset, duration, repeatCount, repeatDuration, autoreverses, fillMode

    public var name: String {
        switch self {
        case .beginTime: return "beginTime"
        case .speed: return "speed"
        case .timeOffset: return "timeOffset"
        case .duration: return "duration"
        case .repeatCount: return "repeatCount"
        case .repeatDuration: return "repeatDuration"
        case .autoreverses: return "autoreverses"
        case .fillMode: return "fillMode"
        }
    }
}

/// Virtual components of a transform (SEMANTICS.md §2.3).
public enum VirtualComponent: Int, Sendable, CaseIterable, BitwiseCopyable {
    case rotationX, rotationY, rotationZ, scaleX, scaleY, scaleZ, scale, translationX, translationY, translationZ, translation

    public var components: Int { self == .translation ? 2 : 1 }

    var suffix: String {
        switch self {
        case .rotationX: return "rotation.x"
        case .rotationY: return "rotation.y"
        case .rotationZ: return "rotation.z"
        case .scaleX: return "scale.x"
        case .scaleY: return "scale.y"
        case .scaleZ: return "scale.z"
        case .scale: return "scale"
        case .translationX: return "translation.x"
        case .translationY: return "translation.y"
        case .translationZ: return "translation.z"
        case .translation: return "translation"
        }
    }

    /// Read this component from a decomposition.
    @inline(__always)
    func read(_ c: TransformComponents, into v: inout ValueBuffer) {
        switch self {
        case .rotationX: v[0] = c.rotation.x
        case .rotationY: v[0] = c.rotation.y
        case .rotationZ: v[0] = c.rotation.z
        case .scaleX: v[0] = c.scale.x
        case .scaleY: v[0] = c.scale.y
        case .scaleZ: v[0] = c.scale.z
        case .scale: v[0] = (c.scale.x + c.scale.y) / 2
        case .translationX: v[0] = c.translation.x
        case .translationY: v[0] = c.translation.y
        case .translationZ: v[0] = c.translation.z
        case .translation: v[0] = c.translation.x; v[1] = c.translation.y
        }
    }

    /// This component in the first lanes of a SIMD4.
    @inline(__always)
    func read4(_ c: TransformComponents) -> SIMD4<Double> {
        switch self {
        case .rotationX: return SIMD4(c.rotation.x, 0, 0, 0)
        case .rotationY: return SIMD4(c.rotation.y, 0, 0, 0)
        case .rotationZ: return SIMD4(c.rotation.z, 0, 0, 0)
        case .scaleX: return SIMD4(c.scale.x, 0, 0, 0)
        case .scaleY: return SIMD4(c.scale.y, 0, 0, 0)
        case .scaleZ: return SIMD4(c.scale.z, 0, 0, 0)
        case .scale: return SIMD4((c.scale.x + c.scale.y) / 2, 0, 0, 0)
        case .translationX: return SIMD4(c.translation.x, 0, 0, 0)
        case .translationY: return SIMD4(c.translation.y, 0, 0, 0)
        case .translationZ: return SIMD4(c.translation.z, 0, 0, 0)
        case .translation: return SIMD4(c.translation.x, c.translation.y, 0, 0)
        }
    }

    /// Replaces this component from the first lanes of a SIMD4.
    @inline(__always)
    func write4(_ v: SIMD4<Double>, into c: inout TransformComponents) {
        switch self {
        case .rotationX: c.rotation.x = v.x
        case .rotationY: c.rotation.y = v.x
        case .rotationZ: c.rotation.z = v.x
        case .scaleX: c.scale.x = v.x
        case .scaleY: c.scale.y = v.x
        case .scaleZ: c.scale.z = v.x
        case .scale: c.scale = SIMD3(repeating: v.x)
        case .translationX: c.translation.x = v.x
        case .translationY: c.translation.y = v.x
        case .translationZ: c.translation.z = v.x
        case .translation: c.translation.x = v.x; c.translation.y = v.y
        }
    }

    /// Replace (additive == false) or add to this component.
    @inline(__always)
    func write(_ v: ValueBuffer, into c: inout TransformComponents, additive: Bool) {
        if additive {
            switch self {
            case .rotationX: c.rotation.x += v[0]
            case .rotationY: c.rotation.y += v[0]
            case .rotationZ: c.rotation.z += v[0]
            case .scaleX: c.scale.x += v[0]
            case .scaleY: c.scale.y += v[0]
            case .scaleZ: c.scale.z += v[0]
            case .scale: c.scale.x += v[0]; c.scale.y += v[0]; c.scale.z += v[0]
            case .translationX: c.translation.x += v[0]
            case .translationY: c.translation.y += v[0]
            case .translationZ: c.translation.z += v[0]
            case .translation: c.translation.x += v[0]; c.translation.y += v[1]
            }
        } else {
            switch self {
            case .rotationX: c.rotation.x = v[0]
            case .rotationY: c.rotation.y = v[0]
            case .rotationZ: c.rotation.z = v[0]
            case .scaleX: c.scale.x = v[0]
            case .scaleY: c.scale.y = v[0]
            case .scaleZ: c.scale.z = v[0]
            case .scale: c.scale = SIMD3(repeating: v[0])
            case .translationX: c.translation.x = v[0]
            case .translationY: c.translation.y = v[0]
            case .translationZ: c.translation.z = v[0]
            case .translation: c.translation.x = v[0]; c.translation.y = v[1]
            }
        }
    }
}

/// Where a key path reads and writes.
public enum KeyPathAccess: Sendable, Equatable, BitwiseCopyable {
    /// A range of the property block.
    case block(offset: Int, count: Int)
    /// The derived frame rectangle.
    case frame
    /// A virtual transform component; `base` is the block offset of the transform.
    case virtual(base: Int, component: VirtualComponent)
    /// The contents id.
    case contents
    /// A layer timing field.
    case timing(TimingField)
}

/// A resolved key path: what it reaches and how values behave there.
public struct KeyPathTarget: Sendable, Equatable, BitwiseCopyable {
    /// Index of the key path in the table (`name` reads it back). Not a
    /// `String`: a trivial type copies as plain bytes, without reference
    /// counting, on every property read and write through the C API.
    let nameIndex: UInt16
    /// The key path itself.
    public var name: String { KeyPathTable.shared.names[Int(nameIndex)] }
    public var access: KeyPathAccess
    /// The kind of the value at this key path (for sub-keys, the sub-value's kind).
    public var kind: ValueKind
    /// Component count of values at this key path.
    public var components: Int
    /// The layer property this key path belongs to (nil for timing fields).
    public var property: LayerProperty?
    /// Whether animations may target it.
    public var animatable: Bool
    /// Interpolation rule: whole-matrix (decomposition), discrete bool, discrete id, or linear.
    public var interpolation: Interpolation

    public enum Interpolation: UInt8, Sendable, BitwiseCopyable {
        case linear, matrix, hidden, discreteBool, id
    }

    /// Looks a key path up by its UTF-8 bytes (no allocation).
    public static func lookup(_ bytes: Span<UInt8>) -> KeyPathTarget? {
        KeyPathTable.shared.lookup(bytes)
    }

    public static func lookup(_ name: String) -> KeyPathTarget? {
        KeyPathTable.shared.lookup(name.utf8.span)
    }

    /// Every valid key path (for documentation and tests).
    public static var allNames: [String] { KeyPathTable.shared.names }
}

/// Open-addressing table of every valid key path, keyed by FNV-1a of the bytes.
struct KeyPathTable: Sendable {
    static let shared = KeyPathTable()

    private let slots: [Int32]          // index into entries, -1 empty
    private let hashes: [UInt64]
    private let keyBytes: [UInt8]
    /// Key i's bytes are keyBytes[keyStart[i] ..< keyStart[i + 1]].
    private let keyStart: [Int32]
    private let entries: [KeyPathTarget]
    let names: [String]
    private let mask: Int

    @inline(__always)
    static func fnv1a(_ s: Span<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in s.indices { h = (h ^ UInt64(s[i])) &* 0x0000_0100_0000_01b3 }
        return h
    }

    private init() {
        var list: [KeyPathTarget] = []
        var names: [String] = []
        func add(_ name: String, _ access: KeyPathAccess, _ kind: ValueKind, _ count: Int, _ prop: LayerProperty?, _ animatable: Bool, _ interp: KeyPathTarget.Interpolation = .linear) {
            list.append(KeyPathTarget(nameIndex: UInt16(list.count), access: access, kind: kind, components: count, property: prop, animatable: animatable, interpolation: interp))
            names.append(name)
        }
        for p in LayerProperty.allCases {
            switch p {
            case .contents:
                add("contents", .contents, .id, 1, p, true, .id)
            case .transform, .sublayerTransform:
                add(p.name, .block(offset: p.offset, count: 16), .transform, 16, p, true, .matrix)
                for c in VirtualComponent.allCases {
                    add(p.name + "." + c.suffix, .virtual(base: p.offset, component: c), c == .translation ? .size : .scalar, c.components, p, true)
                }
                // `rotation` is rotation.z
                add(p.name + ".rotation", .virtual(base: p.offset, component: .rotationZ), .scalar, 1, p, true)
                for r in 1...4 {
                    for col in 1...4 {
                        add(p.name + ".m\(r)\(col)", .block(offset: p.offset + (r - 1) * 4 + (col - 1), count: 1), .scalar, 1, p, true)
                    }
                }
            case .hidden:
                add(p.name, .block(offset: p.offset, count: 1), .bool, 1, p, true, .hidden)
            case .masksToBounds, .doubleSided:
                add(p.name, .block(offset: p.offset, count: 1), .bool, 1, p, false, .discreteBool)
            default:
                add(p.name, .block(offset: p.offset, count: p.count), p.kind, p.count, p, true)
            }
            switch p.kind {
            case .point:
                add(p.name + ".x", .block(offset: p.offset, count: 1), .scalar, 1, p, true)
                add(p.name + ".y", .block(offset: p.offset + 1, count: 1), .scalar, 1, p, true)
            case .size:
                add(p.name + ".width", .block(offset: p.offset, count: 1), .scalar, 1, p, true)
                add(p.name + ".height", .block(offset: p.offset + 1, count: 1), .scalar, 1, p, true)
            case .rect:
                add(p.name + ".origin", .block(offset: p.offset, count: 2), .point, 2, p, true)
                add(p.name + ".origin.x", .block(offset: p.offset, count: 1), .scalar, 1, p, true)
                add(p.name + ".origin.y", .block(offset: p.offset + 1, count: 1), .scalar, 1, p, true)
                add(p.name + ".size", .block(offset: p.offset + 2, count: 2), .size, 2, p, true)
                add(p.name + ".size.width", .block(offset: p.offset + 2, count: 1), .scalar, 1, p, true)
                add(p.name + ".size.height", .block(offset: p.offset + 3, count: 1), .scalar, 1, p, true)
            case .color:
                for (i, c) in ["r", "g", "b", "a"].enumerated() {
                    add(p.name + "." + c, .block(offset: p.offset + i, count: 1), .scalar, 1, p, true)
                }
            default:
                break
            }
        }
        add("frame", .frame, .rect, 4, nil, false)
        for f in TimingField.allCases {
            add(f.name, .timing(f), (f == .autoreverses) ? .bool : .scalar, 1, nil, false)
        }

        var size = 1
        while size < list.count * 4 { size <<= 1 }
        var slots = [Int32](repeating: -1, count: size)
        var hashes = [UInt64](repeating: 0, count: size)
        var keyBytes: [UInt8] = []
        var keyStart: [Int32] = []
        for (i, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            keyStart.append(Int32(keyBytes.count))
            keyBytes += bytes
            let h = KeyPathTable.fnv1a(bytes.span)
            var s = Int(truncatingIfNeeded: h) & (size - 1)
            while slots[s] >= 0 { s = (s + 1) & (size - 1) }
            slots[s] = Int32(i)
            hashes[s] = h
        }
        keyStart.append(Int32(keyBytes.count))
        self.slots = slots
        self.hashes = hashes
        self.keyBytes = keyBytes
        self.keyStart = keyStart
        self.entries = list
        self.names = names
        self.mask = size - 1
    }

    /// Open addressing on the FNV-1a hash; the bytes of every key live in one
    /// flat array, read through spans (no reference counting, one bounds
    /// check per span).
    func lookup(_ bytes: Span<UInt8>) -> KeyPathTarget? {
        guard bytes.count > 0, bytes.count < 64 else { return nil }
        let h = KeyPathTable.fnv1a(bytes)
        let slots = self.slots.span, hashes = self.hashes.span, starts = keyStart.span
        let all = keyBytes.span
        var s = Int(truncatingIfNeeded: h) & mask
        var probes = 0
        while probes < slots.count {
            let e = Int(slots[s])
            if e < 0 || e &+ 1 >= starts.count { return nil }
            if hashes[s] == h {
                let a = Int(starts[e]), b = Int(starts[e &+ 1])
                if b &- a == bytes.count && a >= 0 && b <= all.count {
                    let k = all.extracting(a ..< b)
                    var same = true
                    for i in 0..<k.count where k[i] != bytes[i] { same = false; break }
                    if same { return entries.span[e] }
                }
            }
            s = (s &+ 1) & mask
            probes &+= 1
        }
        return nil
    }
}
