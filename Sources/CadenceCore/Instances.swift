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

/// The decompositions of a transform animation's fixed from/to matrices
/// (present, in `InstanceStore.matrixEnds`, only for from/to animations of
/// `transform` or `sublayerTransform`; nil decompositions are singular).
struct MatrixEnds: SparseSlotValue {
    var fromDecomp: DecomposedTransform?
    var toDecomp: DecomposedTransform?
}

extension TransitionRuntime: SparseSlotValue {}
extension Transform3D: SparseSlotValue {}

/// A value that a `SparseSlots` table holds for a few slots only.
protocol SparseSlotValue {
    init()
}

/// Per-slot data that only some slots have (transitions, matrix ends): a
/// 4-byte index per slot into a pool of the values present, whose entries
/// are reused through a free list. (A dense array of optionals costs the full
/// record for every slot: 192 bytes per attached animation for transitions.)
struct SparseSlots<Value: SparseSlotValue> {
    private var index: [Int32] = []
    private var pool: [Value] = []
    private var free: [Int32] = []

    var slotCount: Int { index.count }
    var slotCapacity: Int { index.capacity }
    /// Entries present.
    var presentCount: Int { pool.count - free.count }
    /// Entries made (present or free for reuse).
    var poolCount: Int { pool.count }

    mutating func reserve(slots n: Int) { index.reserveCapacity(n) }

    /// Adds a slot (without a value) at the end.
    mutating func appendSlot() { index.append(-1) }

    @inline(__always)
    func has(_ i: Int) -> Bool { index[i] >= 0 }

    @inline(__always)
    subscript(i: Int) -> Value? {
        let k = Int(index[i])
        return k >= 0 ? pool[k] : nil
    }

    /// Gives slot `i` the value `v` (nil: none).
    mutating func set(_ i: Int, _ v: Value?) {
        let k = Int(index[i])
        if let v {
            if k >= 0 {
                pool[k] = v
            } else if let f = free.popLast() {
                pool[Int(f)] = v
                index[i] = f
            } else {
                index[i] = Int32(pool.count)
                pool.append(v)
            }
        } else if k >= 0 {
            pool[k] = Value()   // (drops what the value held)
            free.append(Int32(k))
            index[i] = -1
        }
    }

    /// Changes slot `i`'s value in place; nothing when it has none.
    @inline(__always)
    mutating func update(_ i: Int, _ body: (inout Value) -> Void) {
        let k = Int(index[i])
        if k >= 0 { body(&pool[k]) }
    }
}

/// Pool of attached animations with a free list (slots are reused, so a warm
/// engine adds and removes animations without allocating).
struct InstanceStore {
    /// The generation of every slot's first instance (`Engine.firstGeneration`).
    var firstGeneration: UInt32 = 1
    var items: [Instance] = []
    var free: [Int32] = []
    /// Endpoint values (from, to, by packed by component count) of basic and
    /// spring animations, or a small keyframe track's flat copy: a region of
    /// 8, 16, 32 or 64 doubles for each slot that has values, starting at
    /// `valueBase[i]`, of size class `valueClass[i]` (`allocateValues`).
    /// Slots without values point at the first region, which is never handed
    /// out and stays zero.
    var values: [Double] = Array(repeating: 0, count: InstanceStore.valueStride)
    var valueBase: [Int32] = []
    var valueClass: [UInt8] = []
    /// Per size class (`regionClass`), the start of the first free region
    /// (0: none); each free region's first word holds the next one's start.
    var freeRegion = SIMD4<Int32>(repeating: 0)
    var curves: [TimingCurve] = []
    var keys: [String] = []
    /// `keys[i].hashValue`, compared first when a layer's animations are
    /// searched by key (a string comparison per attached animation made adding
    /// to a layer with thousands of them slow).
    var keyHashes: [Int] = []
    var tags: [Int64] = []
    var callbacks: [HostCallback] = []
    var specs: [AnimationSpec?] = []
    /// The global time of the add (or of the commit) when the begin time was
    /// resolved there with no delay (NaN otherwise): the start's crossing, which
    /// mapping the local begin time back through the layer's timing only
    /// approximates (to a rounding).
    var beginGlobal: [Double] = []
    /// Fixed from/to matrices' decompositions (transform from/to animations).
    var matrixEnds = SparseSlots<MatrixEnds>()
    var liveCount = 0
    /// Emptied snapshot arrays of finished transitions, reused by the next one
    /// (so re-adding transitions in a warm scene does not allocate).
    var snapshotPool: [[SnapshotItem]] = []
    /// Largest snapshot (in items) whose storage is kept for reuse.
    static let pooledSnapshotCapacity = 4096
    /// Run-time data of keyframe animations, by instance slot (nil for others).
    var keyframes: [KeyframeRuntime?] = []
    /// Springs of spring animations, by instance slot (nil for others): the
    /// frame loop steps through 88 bytes per slot to reach them.
    var springs: [Spring?] = []
    /// Transitions' run-time state (transition animations only).
    var transitions = SparseSlots<TransitionRuntime>()

    /// The largest value region, in doubles (a 16-component transform's from,
    /// to and by; a flat keyframe copy fits in it or is not made).
    static let valueStride = 64

    /// The size class of a region of `words` doubles (0: 8, 1: 16, 2: 32,
    /// 3: 64); nil above `valueStride`.
    @inline(__always)
    static func regionClass(_ words: Int) -> Int? {
        words <= 8 ? 0 : words <= 16 ? 1 : words <= 32 ? 2 : words <= 64 ? 3 : nil
    }

    /// Gives slot `i` a value region of at least `words` doubles in place of
    /// the one it had (none for 0); false, leaving the slot without values,
    /// when `words` is above `valueStride` or the store is full. A reused
    /// region keeps its old contents: only what is written is read (as when
    /// a slot is reused).
    @discardableResult
    mutating func allocateValues(_ i: Int, words: Int) -> Bool {
        releaseValues(i)
        guard words > 0 else { return true }
        guard let c = InstanceStore.regionClass(words) else { return false }
        let size = 8 << c
        let base: Int
        let f = Int(freeRegion[c])
        if f > 0 && f < values.count {
            // The free regions of a class are linked through their first word.
            base = f
            freeRegion[c] = Int32(truncatingIfNeeded: Int64(bitPattern: values[f].bitPattern))
        } else {
            guard values.count &+ size < Int(Int32.max) else { return false }
            base = values.count
            values.append(contentsOf: repeatElement(0, count: size))
        }
        valueBase[i] = Int32(base)
        valueClass[i] = UInt8(c)
        return true
    }

    /// Returns slot `i`'s value region (if any) to its class's free list.
    mutating func releaseValues(_ i: Int) {
        let b = valueBase[i]
        guard b > 0 else { return }
        valueBase[i] = 0
        let c = Int(valueClass[i] & 3)
        values[Int(b)] = Double(bitPattern: UInt64(bitPattern: Int64(freeRegion[c])))
        freeRegion[c] = b
    }

    /// The start of slot `i`'s value region.
    @inline(__always)
    func vbase(_ i: Int) -> Int { Int(valueBase[i]) }

    /// Capacity for `n` slots in every per-slot array.
    mutating func reserve(_ n: Int) {
        items.reserveCapacity(n)
        // (16 doubles per animation: the region of endpoints of up to five
        // components; larger ones may still grow the array.)
        values.reserveCapacity(InstanceStore.valueStride &+ n &* 16)
        valueBase.reserveCapacity(n)
        valueClass.reserveCapacity(n)
        curves.reserveCapacity(n)
        keys.reserveCapacity(n)
        keyHashes.reserveCapacity(n)
        tags.reserveCapacity(n)
        callbacks.reserveCapacity(n)
        specs.reserveCapacity(n)
        beginGlobal.reserveCapacity(n)
        matrixEnds.reserve(slots: n)
        springs.reserveCapacity(n)
        transitions.reserve(slots: n)
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
        items[items.count - 1].generation = firstGeneration
        valueBase.append(0)
        valueClass.append(0)
        curves.append(.linear)
        keys.append("")
        keyHashes.append(0)
        tags.append(0)
        callbacks.append(HostCallback())
        specs.append(nil)
        beginGlobal.append(.nan)
        matrixEnds.appendSlot()
        springs.append(nil)
        transitions.appendSlot()
        keyframes.append(nil)
        liveCount += 1
        return items.count - 1
    }

    mutating func release(_ i: Int) {
        items[i].alive = false
        let retired = ObjectID.retires(items[i].generation, first: firstGeneration)
        items[i].generation = ObjectID.nextGeneration(items[i].generation)
        specs[i] = nil
        keys[i] = ""
        keyHashes[i] = 0
        curves[i] = .linear
        callbacks[i] = HostCallback()
        if items[i].kind == .transition, var snap = transitions[i]?.snapshot {
            transitions.set(i, nil)
            snap.removeAll(keepingCapacity: true)
            // Small pictures are reused; one transition of a huge subtree does
            // not keep its memory for the engine's lifetime.
            if snapshotPool.count < 64 && snap.capacity <= InstanceStore.pooledSnapshotCapacity { snapshotPool.append(snap) }
        }
        keyframes[i] = nil
        // (Whatever the kind: no pool entry outlives its slot.)
        if transitions.has(i) { transitions.set(i, nil) }
        if matrixEnds.has(i) { matrixEnds.set(i, nil) }
        if items[i].kind != .basic { springs[i] = nil }
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
              let flat = kf.track.flatLayout(capacity: InstanceStore.valueStride),
              allocateValues(i, words: flat.data.count) else { return }
        let base = vbase(i)
        for (k, x) in flat.data.enumerated() { values[base &+ k] = x }
        items[i].kfCount = UInt8(kf.track.count)
        items[i].kfCubic = flat.cubic
    }

    @inline(__always)
    func value(_ i: Int, _ which: Int, _ n: Int) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        let base = vbase(i) &+ which &* n
        for k in 0..<n { v[k] = values[base &+ k] }
        return v
    }

    @inline(__always)
    mutating func setValue(_ i: Int, _ which: Int, _ v: ValueBuffer) {
        let n = v.count
        let base = vbase(i) &+ which &* n
        // (Never into the shared zero region of slots without values.)
        guard base >= InstanceStore.valueStride, base &+ n <= values.count else { return }
        for k in 0..<n { values[base &+ k] = v[k] }
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
