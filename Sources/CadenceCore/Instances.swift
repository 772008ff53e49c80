/// How a basic or spring animation picks its endpoints (SEMANTICS.md §5.1).
enum ValueMode: UInt8 {
    case fromTo, fromBy, byTo, fromOnly, toOnly, byOnly, none
}

/// Why an attached animation stopped.
enum StopReason {
    case finished      // reached the end (event already sent)
    case removed       // removed by the host
    case replaced      // another animation was added under its key
    case layerDestroyed
}

/// The hot part of an attached (compiled, immutable) animation.
struct Instance {
    // Hot: what a frame reads (timing first, then how to apply the value).
    var timing = ResolvedTiming(MediaTiming())
    var access: KeyPathAccess = .block(offset: 0, count: 0)
    var kind: AnimationKind = .basic
    var prop: Int8 = -1
    var components: Int8 = 0
    var interp: KeyPathTarget.Interpolation = .linear
    var mode: ValueMode = .none
    var additive = false
    var cumulative = false
    var removedOnCompletion = true
    var started = false
    var finished = false
    /// Added inside an open transaction: begins at the outermost commit.
    var awaitingCommit = false
    var linearCurve = true
    /// Keyframes held flat in the instance's value slots (`InstanceStore.setFlatKeyframes`):
    /// the number of values (0: not flat) and whether the track is cubic.
    var kfCount: UInt8 = 0
    var kfCubic = false
    /// Links in the layer's animation list (top level) or the group's child list.
    var next: Int32 = -1
    var firstChild: Int32 = -1
    // Cold.
    var alive = false
    /// Begin time was 0 and is resolved at commit.
    var beginAtCommit = false
    var generation: UInt32 = 1
    var layer: Int32 = -1
    var prev: Int32 = -1
    /// Enclosing group instance, -1 at top level.
    var group: Int32 = -1
    var lastChild: Int32 = -1
    var addSeq: UInt64 = 0
    /// Innermost transaction record this animation counts toward, -1 if none.
    var tx: Int32 = -1
    /// Keyframe segment found at the last evaluation (a hint for the next).
    var kfSegment: Int32 = 0
    /// Added to the begin time resolved at commit (UIKit-style delay).
    var beginDelay: Double = 0
}

/// A frozen render item of a transition's outgoing picture.
struct SnapshotItem {
    var item: RenderItem
    /// Parent index within the snapshot (-1 for the root).
    var parent: Int32
    /// Local matrix relative to the snapshot parent (unused for the root).
    var local: Transform3D
}

/// Run-time state of a transition.
struct TransitionRuntime {
    var type: TransitionType = .fade
    var subtype: TransitionSubtype = .fromLeft
    var startProgress: Double = 0
    var endProgress: Double = 1
    var snapshot: [SnapshotItem] = []
    /// Mapped progress at the last evaluation and whether it showed.
    var progress: Double = 0
    var visible = false
    /// The layer's world matrix and parent opacity at the last render.
    var lastWorld = Transform3D.identity
    var lastOpacity: Double = 1
}

/// Cold and kind-specific parts of an attached animation, indexed by instance slot.
struct InstanceExtra {
    /// Precomputed decompositions of fixed from/to matrices.
    var fromDecomp: DecomposedTransform?
    var toDecomp: DecomposedTransform?
    var fixedMatrixEnds = false
    /// The global time of the add (or of the commit) when the begin time was
    /// resolved there with no delay (NaN otherwise): the start's crossing, which
    /// mapping the local begin time back through the layer's timing only
    /// approximates (to a rounding).
    var beginGlobal: Double = .nan
}

/// Pool of attached animations with a free list (slots are reused, so a warm
/// engine adds and removes animations without allocating).
struct InstanceStore {
    var items: [Instance] = []
    var free: [Int32] = []
    /// Endpoint values, `valueStride` doubles per slot: from, to, by, captured
    /// packed by component count.
    var values: [Double] = []
    var curves: [TimingCurve] = []
    var keys: [String] = []
    /// `keys[i].hashValue`, compared first when a layer's animations are
    /// searched by key (a string comparison per attached animation made adding
    /// to a layer with thousands of them slow).
    var keyHashes: [Int] = []
    var tags: [Int64] = []
    var callbacks: [HostCallback] = []
    var specs: [AnimationSpec?] = []
    var extras: [InstanceExtra] = []
    var liveCount = 0
    /// Emptied snapshot arrays of finished transitions, reused by the next one
    /// (so re-adding transitions in a warm scene does not allocate).
    var snapshotPool: [[SnapshotItem]] = []
    /// Largest snapshot (in items) whose storage is kept for reuse.
    static let pooledSnapshotCapacity = 4096
    /// Run-time data of keyframe animations, by instance slot (nil for others).
    var keyframes: [KeyframeRuntime?] = []
    /// Springs of spring animations, by instance slot (nil for others): apart
    /// from the larger `extras` records, so the frame loop steps through 88
    /// bytes per slot to reach them.
    var springs: [Spring?] = []
    /// Transitions' run-time state, by instance slot (nil for others): apart
    /// from `extras`, which then hold no reference and copy as plain bytes.
    var transitions: [TransitionRuntime?] = []

    static let valueStride = 64

    /// Capacity for `n` slots in every per-slot array.
    mutating func reserve(_ n: Int) {
        items.reserveCapacity(n)
        values.reserveCapacity(n * InstanceStore.valueStride)
        curves.reserveCapacity(n)
        keys.reserveCapacity(n)
        keyHashes.reserveCapacity(n)
        tags.reserveCapacity(n)
        callbacks.reserveCapacity(n)
        specs.reserveCapacity(n)
        extras.reserveCapacity(n)
        springs.reserveCapacity(n)
        transitions.reserveCapacity(n)
        keyframes.reserveCapacity(n)
    }

    mutating func allocate() -> Int? {
        if let f = free.popLast() {
            let i = Int(f)
            let g = items[i].generation
            items[i] = Instance()
            items[i].generation = g
            items[i].alive = true
            liveCount += 1
            return i
        }
        guard items.count < ObjectID.maxIndex else { return nil }
        items.append(Instance())
        items[items.count - 1].alive = true
        values.append(contentsOf: repeatElement(0, count: InstanceStore.valueStride))
        curves.append(.linear)
        keys.append("")
        keyHashes.append(0)
        tags.append(0)
        callbacks.append(HostCallback())
        specs.append(nil)
        extras.append(InstanceExtra())
        springs.append(nil)
        transitions.append(nil)
        keyframes.append(nil)
        liveCount += 1
        return items.count - 1
    }

    mutating func release(_ i: Int) {
        items[i].alive = false
        let retired = ObjectID.retires(items[i].generation)
        items[i].generation = ObjectID.nextGeneration(items[i].generation)
        specs[i] = nil
        keys[i] = ""
        keyHashes[i] = 0
        curves[i] = .linear
        callbacks[i] = HostCallback()
        if items[i].kind == .transition, var snap = transitions[i]?.snapshot {
            transitions[i] = nil
            snap.removeAll(keepingCapacity: true)
            // Small pictures are reused; one transition of a huge subtree does
            // not keep its memory for the engine's lifetime.
            if snapshotPool.count < 64 && snap.capacity <= InstanceStore.pooledSnapshotCapacity { snapshotPool.append(snap) }
        }
        keyframes[i] = nil
        if items[i].kind != .basic {
            extras[i] = InstanceExtra()
            springs[i] = nil
        }
        if !retired { free.append(Int32(i)) }
        liveCount -= 1
    }

    /// Copies a small keyframe track into instance `i`'s value slots (unused by
    /// keyframe animations), so that the frame loop reads flat doubles instead
    /// of the runtime object (whose every use costs a retain and a release):
    /// key times, values, then tangents (`KeyframeTrack.flatLayout`). Only
    /// value-based tracks of linear components with no per-segment timing
    /// function in effect; others keep `kfCount` 0.
    mutating func setFlatKeyframes(_ i: Int) {
        items[i].kfCount = 0
        items[i].kfCubic = false
        guard let kf = keyframes[i], kf.path == nil, kf.rotationMode == .none,
              items[i].interp == .linear, Int(items[i].components) == kf.track.components,
              kf.segmentCurves.isEmpty || !kf.track.usesSegmentTiming,
              kf.track.count <= Int(UInt8.max), kf.track.cycleStartKey == 0,
              let flat = kf.track.flatLayout(capacity: InstanceStore.valueStride) else { return }
        let base = i &* InstanceStore.valueStride
        for (k, x) in flat.data.enumerated() { values[base &+ k] = x }
        items[i].kfCount = UInt8(kf.track.count)
        items[i].kfCubic = flat.cubic
    }

    @inline(__always)
    func value(_ i: Int, _ which: Int, _ n: Int) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        let base = i * InstanceStore.valueStride + which * n
        for k in 0..<n { v[k] = values[base + k] }
        return v
    }

    @inline(__always)
    mutating func setValue(_ i: Int, _ which: Int, _ v: ValueBuffer) {
        let n = v.count
        let base = i * InstanceStore.valueStride + which * n
        for k in 0..<n { values[base + k] = v[k] }
    }
}

/// Immutable run-time data of an attached keyframe or path animation. A class,
/// so the frame loop reads it in place instead of copying its arrays.
final class KeyframeRuntime {
    let track: KeyframeTrack
    let path: PathTimeline?
    /// Per-segment timing functions (empty when none).
    let segmentCurves: [TimingCurve]
    /// Decompositions of transform keyframes (nil entries are singular).
    let keyDecomp: [DecomposedTransform?]
    /// The keyframe values as given, row by row.
    let values: [Double]
    let components: Int
    let discrete: Bool
    let rotationMode: RotationMode

    static let placeholderTrack = KeyframeTrack(constant: 0)

    init(track: KeyframeTrack?, path: PathTimeline?, segmentCurves: [TimingCurve], keyDecomp: [DecomposedTransform?],
         values: [Double], components: Int, discrete: Bool, rotationMode: RotationMode) {
        self.track = track ?? KeyframeRuntime.placeholderTrack
        self.path = path
        self.segmentCurves = segmentCurves
        self.keyDecomp = keyDecomp
        self.values = values
        self.components = components
        self.discrete = discrete
        self.rotationMode = rotationMode
    }

    /// `v` plus (last key − first key) per completed cycle when `cumulative`.
    @inline(__always)
    func withCumulation(_ v: SIMD4<Double>, components n: Int, cumulative: Bool, iteration: Double) -> SIMD4<Double> {
        let values = self.values
        return KeyframeTrack.cumulated(v, count: track.count, components: n, cumulative: cumulative,
                                       iteration: iteration, startKey: track.cycleStartKey,
                                       available: values.count) { values[$0] }
    }

    /// The value of a values-based (no path, no rotation) animation of `n` ≤ 4
    /// linear components at progress `e`, in SIMD4 (lanes beyond `n` are 0); with
    /// `cumulative`, plus (last key − first key) per completed cycle. Nil when
    /// the animation is not of that form.
    @inline(__always)
    func value4(progress e: Double, components n: Int, cumulative: Bool, iteration: Double,
                segmentHint: inout Int) -> SIMD4<Double>? {
        guard path == nil && rotationMode == .none && track.components == n else { return nil }
        let loc = track.locate(e, hint: &segmentHint)
        var local = loc.local
        let j = loc.segment
        // (Outside [0, 1] the end segment extrapolates linearly, as above.)
        if j < segmentCurves.count && track.usesSegmentTiming && local >= 0 && local <= 1 {
            local = segmentCurves[j].evaluate(local)
        }
        return withCumulation(track.value4(segment: j, local: local), components: n,
                              cumulative: cumulative, iteration: iteration)
    }

    /// Keyframe value `j`.
    @inline(__always)
    func value(_ j: Int, _ n: Int) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        guard j >= 0, (j + 1) * n <= values.count else { return v }
        for k in 0..<n { v[k] = values[j * n + k] }
        return v
    }
}
