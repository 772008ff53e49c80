/// Animation kinds (API.md `cad_anim_kind`).
public enum AnimationKind: Int32, Sendable, CaseIterable {
    case basic = 0, keyframe = 1, spring = 2, group = 3, transition = 4

    public var name: String {
        switch self {
        case .basic: return "basic"
        case .keyframe: return "keyframe"
        case .spring: return "spring"
        case .group: return "group"
        case .transition: return "transition"
        }
    }
}

public enum RotationMode: Int32, Sendable, CaseIterable {
    case none = 0, auto = 1, autoReverse = 2
}

public enum TransitionType: Int32, Sendable, CaseIterable {
    case fade = 0, moveIn = 1, push = 2, reveal = 3
    /// Cadence's own 3D types (SEMANTICS.md §8, beyond Core Animation's public
    /// API): the pictures turn (`Engine.turningMatrices`) instead of sliding.
    case flip = 4, cube = 5

    /// flip and cube: each picture gets a local 4x4 matrix instead of an offset.
    @inline(__always)
    var turns: Bool { self == .flip || self == .cube }
}

public enum TransitionSubtype: Int32, Sendable, CaseIterable {
    case fromLeft = 0, fromRight = 1, fromTop = 2, fromBottom = 3
}

/// Opaque host words carried with an animation (a callback and its userdata).
/// The core never interprets them; the C layer stores function pointers here.
public struct HostCallback: Sendable, Equatable {
    public var function: UInt
    public var userdata: UInt
    public init(function: UInt = 0, userdata: UInt = 0) {
        self.function = function
        self.userdata = userdata
    }
    public var isSet: Bool { function != 0 }
}

/// A mutable animation description (SEMANTICS.md §1). Adding it to a layer
/// attaches an immutable compiled copy; the description can then change freely.
/// Every setter validates first and changes nothing when it throws.
public struct AnimationSpec: Sendable {
    public let kind: AnimationKind
    public private(set) var target: KeyPathTarget?
    public var timing = MediaTiming()
    public var removedOnCompletion = true
    public private(set) var timingCurve: TimingCurve?
    /// from, to and by, each with a count of 0 when unset (no key path has 0
    /// components); out of line, and empty until one is set. Inline, the three
    /// 136-byte buffers made half of the description, which an action copies
    /// and stores per change: implicit animations set none.
    private(set) var endpoints: [ValueBuffer] = []
    public var from: ValueBuffer? { hasFrom ? endpoints[0] : nil }
    public var to: ValueBuffer? { hasTo ? endpoints[1] : nil }
    public var by: ValueBuffer? { hasBy ? endpoints[2] : nil }
    var hasFrom: Bool { endpoints.count == 3 && endpoints[0].count > 0 }
    var hasTo: Bool { endpoints.count == 3 && endpoints[1].count > 0 }
    var hasBy: Bool { endpoints.count == 3 && endpoints[2].count > 0 }
    public var additive = false
    public var cumulative = false
    public private(set) var spring: Spring?
    // keyframes
    public private(set) var values: [Double] = []
    public private(set) var valueCount = 0
    public private(set) var keyTimes: [Double]?
    public private(set) var segmentCurves: [TimingCurve]?
    public var calculationMode: CalculationMode = .linear
    public private(set) var tension: [Double]?
    public private(set) var continuity: [Double]?
    public private(set) var bias: [Double]?
    public private(set) var path: [PathElement] = []
    public var rotationMode: RotationMode = .none
    // group
    public private(set) var children: [AnimationSpec] = []
    /// Animations in this description's tree (1 for anything but a group) and
    /// its group nesting depth, kept so that bounds are checked in O(children).
    public private(set) var treeSize = 1
    public private(set) var treeDepth = 0

    /// Most animations a group tree may hold (children are copies, so a group
    /// of groups grows multiplicatively; this bounds memory and time).
    public static let maxTreeSize = 4096
    /// Most path elements of one path animation.
    public static let maxPathElements = 1 << 20
    // transition
    public private(set) var transitionType: TransitionType = .fade
    public private(set) var transitionSubtype: TransitionSubtype = .fromLeft
    public private(set) var startProgress: Double = 0
    public private(set) var endProgress: Double = 1
    // tagging
    public var tag: Int64 = 0
    public var callback = HostCallback()

    /// The default spring of §6: mass 1, stiffness 100, damping 10, velocity 0.
    public static let defaultSpring = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)!

    /// Creates a description. Basic, keyframe and spring animations need an
    /// animatable key path; groups and transitions take none.
    public init(kind: AnimationKind, keyPath: String?) throws(CadenceError) {
        self.kind = kind
        switch kind {
        case .group, .transition:
            if let k = keyPath, !k.isEmpty {
                throw .invalidArgument("keypath must be NULL for a \(kind.name) animation (got \"\(k)\")")
            }
        case .basic, .keyframe, .spring:
            guard let k = keyPath, !k.isEmpty else {
                throw .invalidArgument("keypath is required for a \(kind.name) animation")
            }
            guard let t = KeyPathTarget.lookup(k) else {
                throw CadenceError(.unknownKeyPath, "unknown key path \"\(k)\"")
            }
            guard t.animatable else {
                throw .invalidArgument("key path \"\(k)\" is not animatable")
            }
            target = t
            if kind == .spring { spring = AnimationSpec.defaultSpring }
        }
        if kind == .transition { timing.duration = 0 }
    }

    // MARK: timing

    public mutating func setTiming(_ field: TimingField, _ v: Double) throws(CadenceError) {
        try timing.set(field, v)
    }

    public mutating func setTimingCurve(_ c: TimingCurve?) { timingCurve = c }

    // MARK: basic / spring endpoints

    private func requireEndpoints(_ what: StaticString) throws(CadenceError) {
        guard kind == .basic || kind == .spring else {
            throw .invalidState("\(what) applies to basic and spring animations; this is a \(kind.name) animation")
        }
    }

    private func checkValue(_ v: ValueBuffer, _ what: StaticString) throws(CadenceError) {
        guard let t = target else { throw .invalidState("animation has no key path") }
        guard v.count == t.components else {
            throw .typeMismatch("\(what) for \"\(t.name)\" needs \(t.components) component(s) (\(t.kind.name)); got \(v.count)")
        }
        guard v.isFinite else { throw .invalidArgument("\(what) components must be finite") }
        if case .contents = t.access { try AnimationSpec.checkContentsID(v[0], what) }
    }

    /// `contents` values are host ids, as `cad_layer_set` requires them: whole
    /// numbers in [0, 2^64) (an animation of them switches, it never blends).
    static func checkContentsID(_ x: Double, _ what: StaticString) throws(CadenceError) {
        guard x >= 0, x < 18446744073709551616.0, x == x.rounded() else {
            throw .invalidArgument("\(what) for \"contents\" must be a non-negative whole number (an id); got \(x)")
        }
    }

    public enum Endpoint: Sendable { case from, to, by }

    /// Sets (or with nil clears) an endpoint.
    public mutating func setEndpoint(_ which: Endpoint, _ v: ValueBuffer?) throws(CadenceError) {
        try requireEndpoints("from/to/by")
        if let v {
            try checkValue(v, which == .from ? "fromValue" : which == .to ? "toValue" : "byValue")
        }
        if endpoints.count != 3 {
            if v == nil { return }
            endpoints = [ValueBuffer(count: 0), ValueBuffer(count: 0), ValueBuffer(count: 0)]
        }
        endpoints[which == .from ? 0 : which == .to ? 1 : 2] = v ?? ValueBuffer(count: 0)
    }

    public mutating func setAdditive(_ on: Bool) throws(CadenceError) {
        guard target != nil else { throw .invalidState("additive applies to property animations; this is a \(kind.name) animation") }
        additive = on
    }

    public mutating func setCumulative(_ on: Bool) throws(CadenceError) {
        guard target != nil else { throw .invalidState("cumulative applies to property animations; this is a \(kind.name) animation") }
        cumulative = on
    }

    public mutating func setSpring(_ s: Spring) throws(CadenceError) {
        guard kind == .spring else { throw .invalidState("spring parameters apply to spring animations; this is a \(kind.name) animation") }
        spring = s
    }

    // MARK: keyframes

    private func requireKeyframe(_ what: StaticString) throws(CadenceError) {
        guard kind == .keyframe else { throw .invalidState("\(what) applies to keyframe animations; this is a \(kind.name) animation") }
    }

    public mutating func setValues(_ v: [Double], count: Int, components: Int) throws(CadenceError) {
        try requireKeyframe("values")
        guard let t = target else { throw .invalidState("animation has no key path") }
        guard count >= 0, components >= 0 else { throw .invalidArgument("count and components must be >= 0") }
        guard components == t.components else {
            throw .typeMismatch("values for \"\(t.name)\" need \(t.components) component(s) per keyframe; got \(components)")
        }
        guard v.count == count * components else { throw .invalidArgument("values must hold count x components doubles") }
        for x in v where !x.isFinite { throw .invalidArgument("values must be finite (got \(x))") }
        if case .contents = t.access { for x in v { try AnimationSpec.checkContentsID(x, "values") } }
        values = v
        valueCount = count
    }

    public mutating func setKeyTimes(_ times: [Double]?) throws(CadenceError) {
        try requireKeyframe("keyTimes")
        if let times {
            guard times.count >= 1 else { throw .invalidArgument("keyTimes must hold at least one time (or pass NULL to clear)") }
            var prev = -Double.infinity
            for (i, x) in times.enumerated() {
                guard x.isFinite, x >= 0, x <= 1 else { throw .invalidArgument("keyTimes[\(i)] = \(x) must lie in [0, 1]") }
                guard x >= prev else { throw .invalidArgument("keyTimes must not decrease (keyTimes[\(i)] = \(x) < \(prev))") }
                prev = x
            }
            guard times.first == 0 else { throw .invalidArgument("keyTimes must start at 0 (got \(times[0]))") }
            guard times.last == 1 || times.count == 1 else { throw .invalidArgument("keyTimes must end at 1 (got \(times[times.count - 1]))") }
        }
        keyTimes = times
    }

    public mutating func setSegmentCurves(_ curves: [TimingCurve]?) throws(CadenceError) {
        try requireKeyframe("segment timing functions")
        segmentCurves = curves
    }

    public mutating func setCalculationMode(_ m: CalculationMode) throws(CadenceError) {
        try requireKeyframe("calculationMode")
        calculationMode = m
    }

    public mutating func setTCB(tension: [Double]?, continuity: [Double]?, bias: [Double]?) throws(CadenceError) {
        try requireKeyframe("tension/continuity/bias")
        for arr in [tension, continuity, bias] {
            if let arr { for x in arr where !x.isFinite { throw .invalidArgument("tension, continuity and bias values must be finite") } }
        }
        self.tension = tension
        self.continuity = continuity
        self.bias = bias
    }

    public mutating func appendPath(_ e: PathElement) throws(CadenceError) {
        try requireKeyframe("path elements")
        guard let t = target, t.components == 2 else {
            throw .typeMismatch("a path animates a point; key path \"\(target?.name ?? "")\" is not a point")
        }
        switch e {
        case let .move(x, y), let .line(x, y):
            try requireFinite(x, "x"); try requireFinite(y, "y")
        case let .quad(a, b, x, y):
            for v in [a, b, x, y] where !v.isFinite { throw .invalidArgument("path coordinates must be finite") }
        case let .cubic(a, b, c, d, x, y):
            for v in [a, b, c, d, x, y] where !v.isFinite { throw .invalidArgument("path coordinates must be finite") }
        case .close:
            guard !path.isEmpty else { throw .invalidState("path close needs a current subpath (add a move or line first)") }
        }
        guard path.count < AnimationSpec.maxPathElements else {
            throw .invalidArgument("a path may hold at most \(AnimationSpec.maxPathElements) elements")
        }
        path.append(e)
    }

    public mutating func setRotationMode(_ m: RotationMode) throws(CadenceError) {
        try requireKeyframe("rotationMode")
        rotationMode = m
    }

    // MARK: group and transition

    public mutating func setChildren(_ c: [AnimationSpec]) throws(CadenceError) {
        guard kind == .group else { throw .invalidState("children apply to group animations; this is a \(kind.name) animation") }
        for (i, child) in c.enumerated() where child.kind == .transition {
            throw .invalidArgument("children[\(i)] is a transition; groups hold property animations and groups")
        }
        var size = 1
        var depth = 0
        for child in c {
            size += child.treeSize
            depth = max(depth, child.treeDepth)
            guard size <= AnimationSpec.maxTreeSize else {
                throw .invalidArgument("a group tree may hold at most \(AnimationSpec.maxTreeSize) animations")
            }
        }
        children = c
        treeSize = size
        treeDepth = depth + 1
    }

    public mutating func setTransition(_ type: TransitionType, _ subtype: TransitionSubtype) throws(CadenceError) {
        guard kind == .transition else { throw .invalidState("transition type applies to transition animations; this is a \(kind.name) animation") }
        transitionType = type
        transitionSubtype = subtype
    }

    public mutating func setTransitionProgress(start: Double, end: Double) throws(CadenceError) {
        guard kind == .transition else { throw .invalidState("transition progress applies to transition animations; this is a \(kind.name) animation") }
        guard start.isFinite, end.isFinite, start >= 0, start <= 1, end >= 0, end <= 1 else {
            throw .invalidArgument("startProgress and endProgress must lie in [0, 1] (got \(start), \(end))")
        }
        startProgress = start
        endProgress = end
    }

    /// Spring settling duration (SEMANTICS.md §6).
    public func settlingDuration() throws(CadenceError) -> Double {
        guard kind == .spring, let s = spring else { throw .invalidState("settling duration applies to spring animations; this is a \(kind.name) animation") }
        return s.settlingDuration
    }

    /// Spring parameters: the ones set, or the ones a perceptual or UIKit-style
    /// spring derived (SEMANTICS.md §6).
    public func springParameters() throws(CadenceError) -> (mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
        guard kind == .spring, let s = spring else { throw .invalidState("spring parameters apply to spring animations; this is a \(kind.name) animation") }
        return (s.mass, s.stiffness, s.damping, s.initialVelocity)
    }

    /// Checks completeness for attaching (SEMANTICS.md §5.1 and §7).
    /// (Inlined: called out of line, the description was copied to be passed.)
    @inline(__always)
    func validateForAdd() throws(CadenceError) {
        switch kind {
        case .basic, .spring:
            if hasFrom && hasTo && hasBy {
                throw .invalidState("fromValue, toValue and byValue are all set; set at most two")
            }
        case .keyframe:
            if path.isEmpty && valueCount == 0 {
                throw .invalidState("keyframe animation has neither values nor a path")
            }
        case .group:
            try AnimationSpec.validateChildren(children)
        case .transition:
            break
        }
    }

    static func validateChildren(_ children: [AnimationSpec]) throws(CadenceError) {
        for c in children { try c.validateForAdd() }
    }
}

extension AnimationSpec {
    /// A property animation for an already resolved key path (used by actions).
    init(kind: AnimationKind, target: KeyPathTarget) {
        self.kind = kind
        self.target = target
        if kind == .spring { spring = AnimationSpec.defaultSpring }
    }

    /// A transition description (used by the default `contents` action).
    init(transition type: TransitionType, subtype: TransitionSubtype = .fromLeft) {
        self.kind = .transition
        self.transitionType = type
        self.transitionSubtype = subtype
    }

    mutating func setSpringUnchecked(_ s: Spring) { spring = s }
}
