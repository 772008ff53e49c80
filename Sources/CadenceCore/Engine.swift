/// Per-layer bookkeeping (the property values live in flat blocks, see `Engine.model`).
struct LayerRecord {
    // Hot: read every frame by the tick and the render list (first cache line).
    var parent: Int32 = -1
    /// Index of the layer's entry on the simple track (`Engine.simpleAnims`), -1 if none.
    var simple: Int32 = -1
    var firstAnim: Int32 = -1
    /// A running transition instance, -1 if none.
    var transition: Int32 = -1
    var generation: UInt32 = 1
    /// Properties written by attached animations (bits of `LayerProperty`).
    var animMask: UInt32 = 0
    /// Own and every ancestor's time map are identity: local time == global time.
    var timeIdentity = true
    /// Presentation must be recomputed before it is read.
    var presDirty = false
    /// World matrix must be recomputed (own geometry or sublayerTransform changed).
    var geomDirty = true
    /// On the simple track with a geometry property: its world changes every
    /// frame, so the render list recomputes it without the tick marking it.
    var animatesGeometry = false
    /// The presentation transform / sublayerTransform is the identity matrix
    /// (kept current by `updateIdentityFlags`; the render fast path reads them).
    var presTransformIdentity = true
    var presSublayerIdentity = true
    /// The MODEL transform / sublayerTransform is the identity matrix (`isIdentity`;
    /// kept current by `writeModel`, the only writer after `createLayer`): the
    /// evaluator then decomposes it without reading the 16 doubles.
    var modelTransformIdentity = true
    var modelSublayerIdentity = true
    /// The presentation `hidden` is set (kept by `refreshVisualCache`).
    var presHidden = false
    /// The layer has sublayers.
    var hasChildren = false
    /// The render cache's world matrix is out of date (the fast path writes
    /// translated leaves' worlds straight into the output).
    var worldStale = false
    var alive = false
    /// Start of the layer's program in `Engine.programCode`, -1 if none (LayerProgram.swift).
    var program: Int32 = -1
}

/// Per-layer bookkeeping the frame loop does not read, kept apart so the hot
/// record stays small (the render list streams through `layers`).
/// A layer's local time for one global time (`Engine.timeMemo`).
struct TimeMemo {
    var global: Double = .nan
    var local: Double = 0
    var epoch: UInt64 = 0
}

struct LayerCold {
    /// New until the first tick after creation: changes take effect without actions.
    var isNew = true
    var actionsEnabled = true
    var lastAnim: Int32 = -1
    var animCount: Int32 = 0
    /// Index in `animatedLayers`, -1 when the layer has no attached animation.
    var animatedSlot: Int32 = -1
    var creationSeq: UInt64 = 0
    var timing = MediaTiming()
    /// The layer is in `dirtyLayers` (awaiting `ensureAllPresentations`).
    var presQueued = false
    /// The layer's presentation is dirty only because a time map above it
    /// (or its own) changed (`updateTimeIdentity`); any other mark clears it.
    /// When its one animation is on the simple track, the tick's pass over
    /// the track makes it current (`clearTimeOnlyDirty`).
    var dirtyForTimeOnly = false
    /// The layer's region of `Engine.programCode` (kept while the layer has
    /// no program, for the next one that fits), -1 if none.
    var programStart: Int32 = -1
    var programCap: Int32 = 0
    /// The layer's program shape (`ProgramShapes`) and its index among the
    /// shape's members, -1 when the layer has no program.
    var shape: Int32 = -1
    var shapeSlot: Int32 = -1
    /// Entries of the layer's `sublayers` array left as -1 by removed
    /// sublayers, dropped by `liveSublayers` (`compactSublayers`), and the
    /// first of them (valid while there are some).
    var sublayerHoles: Int32 = 0
    var firstHole: Int32 = 0
}

/// A layer's public identity: `[type:2][salt:14][generation:20][index:28]`.
/// Type 1 = layer, 2 = animation description, 3 = attached animation.
public struct ObjectID {
    static let indexBits: UInt64 = 28
    static let genBits: UInt64 = 20
    static let saltBits: UInt64 = 14
    static let maxIndex = (1 << 28) - 1
    static let genMask: UInt32 = (1 << 20) - 1

    @inline(__always)
    static func make(type: UInt64, salt: UInt16, gen: UInt32, index: Int) -> UInt64 {
        (type << 62) | (UInt64(salt & 0x3FFF) << 48) | (UInt64(gen & genMask) << 28) | UInt64(index)
    }

    @inline(__always)
    static func decode(_ id: UInt64, type: UInt64, salt: UInt16) -> (index: Int, gen: UInt32)? {
        guard id >> 62 == type, UInt16((id >> 48) & 0x3FFF) == (salt & 0x3FFF) else { return nil }
        return (Int(id & UInt64(maxIndex)), UInt32((id >> 28) & UInt64(genMask)))
    }

    @inline(__always)
    static func nextGeneration(_ g: UInt32) -> UInt32 {
        let n = (g + 1) & genMask
        return n == 0 ? 1 : n
    }

    /// Whether a slot whose object of generation `g` was just destroyed is
    /// retired instead of reused: the generation would come round to the
    /// slot's first one (`first`, the engine's `firstGeneration`), and the
    /// slot's next object would get the id of a destroyed one. A retired slot
    /// stays dead (one slot per 2^20 − 1 objects created in it).
    @inline(__always)
    static func retires(_ g: UInt32, first: UInt32) -> Bool { nextGeneration(g) == first }

    /// A valid first generation: 1 ... 2^20 − 1.
    static func clampedGeneration(_ g: UInt32) -> UInt32 {
        let m = g & genMask
        return m == 0 ? 1 : m
    }
}

/// One Cadence engine: layers, animations, a clock and a transaction stack
/// (SEMANTICS.md §1). Independent engines share nothing. Not thread-safe by
/// itself: the C layer serialises calls on one engine.
public final class Engine {
    // MARK: identity and time
    /// 14-bit salt stamped into every id this engine hands out, so ids of other
    /// engines are rejected.
    public let salt: UInt16
    /// `now` of the most recent tick (0 before the first).
    public internal(set) var now: Double = 0
    var previousNow: Double = 0
    /// Keyframe timelines built recently, shared by the layers they were added to (TimelineMemo.swift).
    var timelineMemo = TimelineMemo()
    var tickCount: UInt64 = 0
    var sequence: UInt64 = 0
    /// A key the host gave may equal a generated one ("cadence.anim.<n>"):
    /// until then a generated key is unique and an add under it searches
    /// nothing (adding n animations without keys to one layer stays linear).
    var hostUsedGeneratedKeyForm = false
    /// Changes whenever some layer's animation list changes: `animationKey(at:)`
    /// continues from its last answer only while it is the same.
    var animListVersion: UInt64 = 0
    /// `animationKey(at:)`'s last answer: layer, index, instance, list version.
    var keyCursor: (layer: Int, index: Int, instance: Int, version: UInt64) = (-1, 0, -1, 0)

    // MARK: layers
    var layers: [LayerRecord] = []
    var layerCold: [LayerCold] = []
    var freeLayers: [Int32] = []
    /// Each layer's sublayers in order. Removing one leaves -1 in its place
    /// (`detachFromParent`), so that removing k of n siblings costs O(k) and
    /// not O(k·n); every reader goes through `liveSublayers`, which drops the
    /// holes first.
    var sublayers: [[Int32]] = []
    /// Where each layer sits in its superlayer's `sublayers` array (-1: a
    /// root). Apart from `layerCold`, four bytes per layer, so that
    /// renumbering the siblings after an insert reads a dense array.
    var slotInParent: [Int32] = []
    /// Model and presentation property blocks, `LayerProperty.stride` doubles per layer.
    var model: [Double] = []
    var pres: [Double] = []
    var modelContents: [UInt64] = []
    var presContents: [UInt64] = []
    /// Cached render-item fields from each layer's own presentation values.
    var cache: [CachedItem] = []
    /// The last world matrix written for each layer (valid unless `geomDirty`
    /// or `worldStale`).
    var cacheWorld: [RenderItem.Float16] = []
    /// Double-precision world matrices, kept for layers with sublayers (sparse:
    /// a leaf, most layers, costs 4 bytes instead of 128; a layer keeps its
    /// entry once it had sublayers, until it is destroyed).
    var worldD = SparseSlots<Transform3D>()
    var worldOpacity: [Double] = []
    /// Per-layer action overrides (rarely used).
    var actions: [[ActionOverride]] = []
    /// Layers with attached animations that are not on the simple track (dense).
    var animatedLayers: [Int32] = []
    /// The simple track (see `SimpleAnim`).
    var simpleAnims: [SimpleAnim] = []
    /// The simple track's pass 1 at `now` was deferred by the tick and has not
    /// run yet (`tickSimpleTrack`).
    var simplePending = false
    /// The last full pass proved later ticks event-free (`tickSimpleTrack`);
    /// every change to `simpleAnims` clears it.
    var simpleQuiet = false
    var simpleMinBegin = 0.0
    var simpleMaxSpeed = 0.0
    /// Entries the current render list evaluated inline (see `renderList`).
    var simpleFused = 0
    /// Entries the current render list only sampled for translated leaves,
    /// leaving the block to a later flush (see `emitLeafRun`).
    var simpleSampled = 0
    /// Beside each simple-track entry (same index): its layer's leaf origin,
    /// for the render list's translated-leaf run (see `LeafOrigin`).
    var simpleLeaf: [LeafOrigin] = []
    /// Lets the tick defer a quiet track (tests turn it off to compare with
    /// the eager pass).
    var allowSimpleDeferral = true
    /// Lets the simple track take animations whose end is the model value
    /// (implicit animations); tests turn it off to compare with the general path.
    var allowSimpleModelEnd = true
    /// Lets the render list use its specialised runs (`emitAffineLeafRun`,
    /// `emitPlainLeafRun`); tests turn it off to compare with the paths they
    /// specialise (`emitLayer`, `emitLeafRun`) byte for byte.
    var allowRenderRuns = true
    /// Lets the tick's pass 1 take simple-track entries of layers under a
    /// timed ancestor (on their local time) and the render list's runs take
    /// leaves under a timed superlayer; tests turn it off to compare with
    /// pass 2 and `emitLayer` byte for byte.
    var allowTimedRuns = true
    /// Some layer is marked `dirtyForTimeOnly` (until the next tick).
    var timeOnlyDirty = false
    /// Layer programs (LayerProgram.swift): flat copies of the animations of
    /// layers that qualify, run by the tick in their steady state. Tests turn
    /// them off to compare with the general code.
    var allowPrograms = true
    var programCode: [Double] = []
    /// Words of the regions of layers that have a program.
    var programLiveWords = 0
    var scratchProgram: [Double] = []
    /// The programs grouped by layout (LayerProgram.swift), the tick's lanes,
    /// and per layer whether its program declined this frame.
    var programShapes = ProgramShapes()
    var programLanes = [ProgramLane](repeating: ProgramLane(), count: ProgramLanes.width)
    var programDeclined: [UInt8] = []
    var scratchShapeKey: [UInt64] = []
    /// Layers the tick leaves to the general code this frame.
    var scratchFallback: [Int32] = []
    /// Layers whose programs wrote visual properties other than opacity.
    var scratchProgramVisual: [Int32] = []
    /// Layers created since the last tick.
    var newLayers: [Int32] = []
    var liveLayerCount = 0

    // MARK: animations
    var specs: [AnimationSpec?] = []
    var specGen: [UInt32] = []
    var freeSpecs: [Int32] = []
    var inst = InstanceStore()

    // MARK: events
    var events = EventQueue()

    // MARK: transactions
    var tx = TransactionState()

    // MARK: scratch (reused, never shrunk, so the frame loop does not allocate)
    var scratchRemove: [Int32] = []
    var scratchStack: [Int32] = []
    var scratchOutIndex: [Int32] = []
    var scratchChain: [Int32] = []
    /// Each layer's last local time computed through `localTimeSlow`: for
    /// global time `global`, valid while `timeEpoch` is `epoch`. A layer under
    /// a timed ancestor (a paused or slowed root) then costs one step per
    /// frame, from its superlayer's time, instead of a walk to the root: the
    /// tick, the render list and the reads share it. Any change of a layer's
    /// timing or of the tree moves the epoch on.
    var timeMemo: [TimeMemo] = []
    var timeEpoch: UInt64 = 1
    var scratchKF: [Double] = Array(repeating: 0, count: 16)
    var scratchWorlds: [Transform3D] = []
    var scratchFrames: [RenderFrame] = []
    var scratchHits: [HitFrame] = []
    var scratchOpacity: [Double] = []
    var scratchSnapParents: [Int32] = []
    var scratchVisual: [Int32] = []
    /// Simple-track entries left to the general per-entry code this tick.
    var scratchSimpleSlow: [Int32] = []
    var accum = LayerAccum()
    /// Layers whose presentation must be recomputed before it is read.
    var dirtyLayers: [Int32] = []
    /// Upper bound on extra render items added by running transitions.
    var transitionItemBound = 0

    /// The generation of every slot's first object. The C layer gives each
    /// engine that reuses a salt a different one, so a handle kept from a
    /// destroyed engine does not name an object of a later engine with the
    /// same salt (docs/decisions.md, "Handles stay unique").
    public let firstGeneration: UInt32

    public init(salt: UInt16 = 1, firstGeneration: UInt32 = 1) {
        self.salt = salt & 0x3FFF
        self.firstGeneration = ObjectID.clampedGeneration(firstGeneration)
        inst.firstGeneration = self.firstGeneration
        events.reserve()
    }

    // MARK: ids

    @inline(__always)
    public func layerID(_ index: Int) -> UInt64 {
        ObjectID.make(type: 1, salt: salt, gen: layers[index].generation, index: index)
    }

    /// Validates a layer id; returns its slot.
    @inline(__always)
    public func layerIndex(_ id: UInt64) -> Int? {
        guard let (i, g) = ObjectID.decode(id, type: 1, salt: salt), i < layers.count else { return nil }
        let r = layers[i]
        guard r.alive, r.generation == g else { return nil }
        return i
    }

    func requireLayer(_ id: UInt64, _ name: StaticString = "layer") throws(CadenceError) -> Int {
        guard let i = layerIndex(id) else {
            if id == 0 { throw .invalidHandle("\(name) is 0 (no layer)") }
            throw .invalidHandle("\(name) \(Engine.hex(id)) is not a live layer of this engine (destroyed, forged, or from another engine)")
        }
        return i
    }

    static func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16) }

    // MARK: layer lifecycle

    public var layerCount: Int { liveLayerCount }

    /// Most layers, and most animations, one `reserve` call sizes for (about
    /// 2.3 GB of address space at both limits, not touched until used).
    public static let maxReserve = 1 << 20

    /// Sizes the per-layer and per-animation storage for `layers` layers and
    /// `animations` attached animations in all (not more): a scene built up to
    /// that size then appends without regrowing its arrays (no copy of what is
    /// already there, no spare capacity of a doubling). Never shrinks.
    public func reserve(layers n: Int, animations a: Int) throws(CadenceError) {
        guard n >= 0, n <= Engine.maxReserve, a >= 0, a <= Engine.maxReserve else {
            throw .invalidArgument("layers and animations must be in 0...\(Engine.maxReserve) (got \(n) and \(a)); larger scenes grow as needed")
        }
        if n > layers.count {
            layers.reserveCapacity(n)
            layerCold.reserveCapacity(n)
            sublayers.reserveCapacity(n)
            slotInParent.reserveCapacity(n)
            timeMemo.reserveCapacity(n)
            model.reserveCapacity(n * LayerProperty.stride)
            pres.reserveCapacity(n * LayerProperty.stride)
            modelContents.reserveCapacity(n)
            presContents.reserveCapacity(n)
            cache.reserveCapacity(n)
            cacheWorld.reserveCapacity(n)
            worldD.reserve(slots: n)
            worldOpacity.reserveCapacity(n)
            actions.reserveCapacity(n)
            newLayers.reserveCapacity(n)
        }
        if a > inst.items.count { inst.reserve(a) }
    }

    /// Creates a root layer with every property at its default.
    public func createLayer() throws(CadenceError) -> UInt64 {
        let idx: Int
        if let f = freeLayers.popLast() {
            idx = Int(f)
        } else {
            guard layers.count < ObjectID.maxIndex else { throw CadenceError(.outOfMemory, "too many layers") }
            idx = layers.count
            var fresh = LayerRecord()
            fresh.generation = firstGeneration
            layers.append(fresh)
            layerCold.append(LayerCold())
            sublayers.append([])
            slotInParent.append(-1)
            timeMemo.append(TimeMemo())
            model.append(contentsOf: LayerProperty.defaultBlock)
            pres.append(contentsOf: LayerProperty.defaultBlock)
            modelContents.append(0)
            presContents.append(0)
            cache.append(CachedItem())
            cacheWorld.append((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
            worldD.appendSlot()
            worldOpacity.append(1)
            actions.append([])
        }
        let gen = layers[idx].generation
        sequence &+= 1
        layers[idx] = LayerRecord()
        timeEpoch &+= 1
        // The slot's program region (kept by the destroyed layer for the next
        // program that fits) stays with the slot: a layer made and destroyed
        // again and again reuses it instead of appending a region each time
        // (and compacting the store, a pass over every layer slot, every few
        // thousand words).
        let region = (layerCold[idx].programStart, layerCold[idx].programCap)
        layerCold[idx] = LayerCold()
        (layerCold[idx].programStart, layerCold[idx].programCap) = region
        layers[idx].generation = gen
        layers[idx].alive = true
        layerCold[idx].creationSeq = sequence
        sublayers[idx].removeAll(keepingCapacity: true)
        slotInParent[idx] = -1
        let base = idx * LayerProperty.stride
        for k in 0..<LayerProperty.stride {
            model[base + k] = LayerProperty.defaultBlock[k]
            pres[base + k] = LayerProperty.defaultBlock[k]
        }
        modelContents[idx] = 0
        presContents[idx] = 0
        actions[idx] = []
        if worldD.has(idx) { worldD.set(idx, nil) }
        worldOpacity[idx] = 1
        refreshVisualCache(idx)
        // The cached item carries the layer's id, so the render fast path
        // copies it without recomputing it.
        cache[idx].layer = layerID(idx)
        newLayers.append(Int32(idx))
        liveLayerCount += 1
        return layerID(idx)
    }

    /// Destroys a layer: removes it from its superlayer, detaches its sublayers
    /// (they become roots) and stops its animations (finished = false).
    public func destroyLayer(_ id: UInt64) throws(CadenceError) {
        let l = try requireLayer(id)
        removeAllInstances(layer: l, reason: .layerDestroyed)
        timeEpoch &+= 1
        detachFromParent(l)
        for c in liveSublayers(l) {
            layers[Int(c)].parent = -1
            slotInParent[Int(c)] = -1
            layerMoved(Int(c))
        }
        sublayers[l].removeAll()
        layerCold[l].sublayerHoles = 0
        layers[l].hasChildren = false
        if worldD.has(l) { worldD.set(l, nil) }
        actions[l] = []
        layers[l].alive = false
        let retired = ObjectID.retires(layers[l].generation, first: firstGeneration)
        layers[l].generation = ObjectID.nextGeneration(layers[l].generation)
        if !retired { freeLayers.append(Int32(l)) }
        liveLayerCount -= 1
    }

    // MARK: tree

    public func superlayer(of id: UInt64) throws(CadenceError) -> UInt64 {
        let l = try requireLayer(id)
        let p = layers[l].parent
        return p < 0 ? 0 : layerID(Int(p))
    }

    public func sublayerIDs(of id: UInt64) throws(CadenceError) -> [UInt64] {
        let l = try requireLayer(id)
        return liveSublayers(l).map { layerID(Int($0)) }
    }

    public func sublayerCount(of id: UInt64) throws(CadenceError) -> Int {
        let l = try requireLayer(id)
        return sublayers[l].count &- Int(layerCold[l].sublayerHoles)
    }

    public func sublayer(of id: UInt64, at i: Int) throws(CadenceError) -> UInt64 {
        let l = try requireLayer(id)
        let subs = liveSublayers(l)
        guard i >= 0 && i < subs.count else {
            throw .invalidArgument("index \(i) is out of range (the layer has \(subs.count) sublayers)")
        }
        return layerID(Int(subs[i]))
    }

    /// Layer `l`'s sublayers in order, without the holes removals left.
    @inline(__always)
    func liveSublayers(_ l: Int) -> [Int32] {
        if layerCold[l].sublayerHoles != 0 { compactSublayers(l) }
        return sublayers[l]
    }

    /// Records the place of `p`'s sublayers from position `k` on.
    func renumberSublayers(_ p: Int, from k: Int) {
        var subs: [Int32] = []
        swap(&subs, &sublayers[p])
        var slots: [Int32] = []
        swap(&slots, &slotInParent)
        do {
            let ss = subs.span
            var sl = slots.mutableSpan
            for j in Swift.max(k, 0)..<ss.count {
                let x = Int(ss[j])
                if x >= 0 && x < sl.count { sl[x] = Int32(j) }
            }
        }
        swap(&slots, &slotInParent)
        swap(&subs, &sublayers[p])
    }

    /// Drops the holes of `p`'s sublayers, keeping their order, and records
    /// each sublayer's new place.
    func compactSublayers(_ p: Int) {
        // The array and the slots moved out, so that the loop works on two
        // spans (no uniqueness check of the nested array per element).
        var subs: [Int32] = []
        swap(&subs, &sublayers[p])
        var slots: [Int32] = []
        swap(&slots, &slotInParent)
        let n = subs.count
        // Entries before the first hole stay where they are.
        var w = Swift.min(Swift.max(Int(layerCold[p].firstHole), 0), n)
        do {
            var ss = subs.mutableSpan
            var sl = slots.mutableSpan
            for r in w..<n {
                let c = Int(ss[r])
                if c >= 0 && c < sl.count {
                    ss[w] = Int32(c)
                    sl[c] = Int32(w)
                    w &+= 1
                }
            }
        }
        subs.removeLast(n &- w)
        swap(&slots, &slotInParent)
        swap(&subs, &sublayers[p])
        layerCold[p].sublayerHoles = 0
    }

    func isAncestor(_ a: Int, of l: Int) -> Bool {
        var p = Int(layers[l].parent)
        var guardCount = 0
        while p >= 0 && guardCount <= layers.count {
            if p == a { return true }
            p = Int(layers[p].parent)
            guardCount += 1
        }
        return false
    }

    public func addSublayer(_ parentID: UInt64, _ childID: UInt64) throws(CadenceError) {
        let p = try requireLayer(parentID, "parent")
        let c = try requireLayer(childID, "child")
        var count = sublayers[p].count &- Int(layerCold[p].sublayerHoles)
        if layers[c].parent == Int32(p) { count -= 1 }
        try insertSublayer(parentID, childID, at: count)
    }

    /// Inserts `child` at `index` among `parent`'s sublayers (after removing it
    /// from its current superlayer). Index in 0...count (count measured without the child).
    public func insertSublayer(_ parentID: UInt64, _ childID: UInt64, at index: Int) throws(CadenceError) {
        let p = try requireLayer(parentID, "parent")
        let c = try requireLayer(childID, "child")
        guard p != c else { throw .invalidArgument("child is the same layer as parent (a layer cannot contain itself)") }
        // (A layer without sublayers is no layer's ancestor: attaching leaves,
        // as building a deep chain does, walks nothing.)
        guard !layers[c].hasChildren || !isAncestor(c, of: p) else {
            throw .invalidArgument("child is an ancestor of parent; adding it would make a cycle in the layer tree")
        }
        var count = sublayers[p].count &- Int(layerCold[p].sublayerHoles)
        if layers[c].parent == Int32(p) { count -= 1 }
        guard index >= 0, index <= count else {
            throw .invalidArgument("index \(index) is out of range 0...\(count)")
        }
        detachFromParent(c)
        if index == count {
            // At the end (adding a sublayer): after the holes too.
            slotInParent[c] = Int32(sublayers[p].count)
            sublayers[p].append(Int32(c))
        } else {
            // Before the first hole the index is the position; past it the
            // holes go first (from the first hole on). Either way the entries
            // from the earlier of the two positions on move.
            if layerCold[p].sublayerHoles != 0 {
                if index < Int(layerCold[p].firstHole) {
                    layerCold[p].firstHole &+= 1
                } else {
                    compactSublayers(p)
                }
            }
            sublayers[p].insert(Int32(c), at: index)
            renumberSublayers(p, from: index)
        }
        layers[p].hasChildren = true
        layers[c].parent = Int32(p)
        // The parent may have been a leaf, whose world matrix is not kept.
        layers[p].geomDirty = true
        layerMoved(c)
    }

    public func removeFromSuperlayer(_ id: UInt64) throws(CadenceError) {
        let l = try requireLayer(id)
        guard layers[l].parent >= 0 else { return }
        detachFromParent(l)
        layerMoved(l)
    }

    /// Takes `l` out of its superlayer's sublayers: its entry becomes a hole
    /// (O(1)); the array is compacted when half of it is holes, or by the
    /// next reader.
    func detachFromParent(_ l: Int) {
        let p = Int(layers[l].parent)
        guard p >= 0 else { return }
        let s = Int(slotInParent[l])
        var k = -1
        if s >= 0 && s < sublayers[p].count && sublayers[p][s] == Int32(l) {
            k = s
        } else if let i = sublayers[p].firstIndex(of: Int32(l)) {
            k = i   // (not reached: the slot is kept up to date)
        }
        if k >= 0 {
            sublayers[p][k] = -1
            if layerCold[p].sublayerHoles == 0 || k < Int(layerCold[p].firstHole) { layerCold[p].firstHole = Int32(k) }
            layerCold[p].sublayerHoles &+= 1
        }
        slotInParent[l] = -1
        let n = sublayers[p].count
        let holes = Int(layerCold[p].sublayerHoles)
        if holes == n {
            sublayers[p].removeAll(keepingCapacity: true)
            layerCold[p].sublayerHoles = 0
        } else if holes > 16 && holes &* 2 > n {
            compactSublayers(p)
        }
        layers[p].hasChildren = !sublayers[p].isEmpty
        layers[l].parent = -1
    }

    /// After a change of superlayer: time and world of the subtree change.
    /// When the layer's time was global time and still is (identity maps all
    /// the way up, the common case), no time in the subtree changes: only its
    /// world moves, so the subtree is not walked (building a deep tree bottom
    /// up stays linear).
    func layerMoved(_ l: Int) {
        layers[l].geomDirty = true
        let p = Int(layers[l].parent)
        let nowIdentity = (p < 0 || layers[p].timeIdentity) && layerCold[l].timing.isIdentityMap
        if layers[l].timeIdentity && nowIdentity { return }
        updateTimeIdentity(subtree: l)
    }

    /// Recomputes `timeIdentity` for a subtree and marks its animated layers dirty.
    func updateTimeIdentity(subtree root: Int) {
        timeEpoch &+= 1
        scratchStack.removeAll(keepingCapacity: true)
        scratchStack.append(Int32(root))
        while let x = scratchStack.popLast() {
            let l = Int(x)
            let p = Int(layers[l].parent)
            let parentIdentity = p < 0 ? true : layers[p].timeIdentity
            layers[l].timeIdentity = parentIdentity && layerCold[l].timing.isIdentityMap
            let si = Int(layers[l].simple)
            if si >= 0 {
                simpleQuiet = false
                if layers[l].timeIdentity { simpleAnims[si].flags2 |= SimpleAnim.timeIdentity } else { simpleAnims[si].flags2 &= ~SimpleAnim.timeIdentity }
            }
            if layerCold[l].animCount > 0 {
                let wasDirty = layers[l].presDirty
                markPresDirty(l)
                if !wasDirty && allowTimedRuns {
                    layerCold[l].dirtyForTimeOnly = true
                    timeOnlyDirty = true
                }
            }
            // (Leaves push nothing: no array to retain and append.)
            if layers[l].hasChildren { scratchStack.append(contentsOf: liveSublayers(l)) }
        }
    }

    // MARK: time

    /// A layer's local time at global time `g` (SEMANTICS.md §3.1), composed along
    /// the tree with the exact per-layer formula (iterative: any depth is safe).
    @inline(__always)
    func localTime(_ l: Int, global g: Double) -> Double {
        if layers[l].timeIdentity { return g }
        return localTimeSlow(l, global: g)
    }

    func localTimeSlow(_ l: Int, global g: Double) -> Double {
        // The common case first: the layer's own time known for `g`, or its
        // superlayer's (an identity-timed superlayer, or one whose memo is
        // current): one step, no chain. (The same arithmetic as the walk
        // below: the same bits.)
        let epoch = timeEpoch
        let own = timeMemo[l]
        if own.epoch == epoch && own.global.bitPattern == g.bitPattern { return own.local }
        let p = Int(layers[l].parent)
        var parentTime: Double? = nil
        if p < 0 || layers[p].timeIdentity {
            parentTime = g
        } else {
            let pm = timeMemo[p]
            if pm.epoch == epoch && pm.global.bitPattern == g.bitPattern { parentTime = pm.local }
        }
        if let tp = parentTime {
            let tm = layerCold[l].timing
            let t = tm.localTime(fromParent: tp)
            // A layer with its own identity map under a timed superlayer (a
            // leaf of a paused root): its superlayer's time (up to the sign
            // of a zero, which the same arithmetic keeps), no memo to keep.
            if tm.isIdentityMap { return t }
            timeMemo[l] = TimeMemo(global: g, local: t, epoch: epoch)
            return t
        }
        return localTimeWalk(l, global: g)
    }

    /// `localTimeSlow` when no step is known: up the tree to the first layer
    /// whose time is known (an identity-timed one, or a current memo), then
    /// down again.
    @inline(never)
    func localTimeWalk(_ l: Int, global g: Double) -> Double {
        scratchChain.removeAll(keepingCapacity: true)
        var x = l
        var t = g
        let epoch = timeEpoch
        // Layers above the first identity-timed ancestor all map identically;
        // an ancestor whose time is known for `g` ends the walk too.
        while x >= 0 && !layers[x].timeIdentity && scratchChain.count <= layers.count {
            let m = timeMemo[x]
            if m.epoch == epoch && m.global.bitPattern == g.bitPattern {
                t = m.local
                break
            }
            scratchChain.append(Int32(x))
            x = Int(layers[x].parent)
        }
        // Down again, each layer's time from its superlayer's (the same
        // arithmetic in the same order as without the memo: the same bits).
        var k = scratchChain.count - 1
        while k >= 0 {
            let y = Int(scratchChain[k])
            t = layerCold[y].timing.localTime(fromParent: t)
            timeMemo[y] = TimeMemo(global: g, local: t, epoch: epoch)
            k -= 1
        }
        return t
    }

    /// Maps a layer's local time back to global time, or nil when some layer on
    /// the way is paused (speed 0).
    func globalTime(_ l: Int, local t: Double) -> Double? {
        var t = t
        var x = l
        var guardCount = 0
        while x >= 0 && guardCount <= layers.count {
            guard let tp = layerCold[x].timing.parentTime(fromLocal: t) else { return nil }
            t = tp
            x = Int(layers[x].parent)
            guardCount += 1
        }
        return t
    }

    /// `convertTime` (SEMANTICS.md §3.1): `from`/`to` 0 mean global time. The
    /// maps compose along the tree through the lowest common ancestor of the
    /// two layers (global time when they are in different trees): up from
    /// `from` by the inverse maps, down to `to` by the forward ones, so layers
    /// above the common ancestor — paused ones too — play no part, and a layer
    /// converts to itself as the identity. Out of a paused layer (speed 0) the
    /// inverse is undefined; Cadence takes that layer's beginTime (its
    /// superlayer's time) and goes on up.
    public func convertTime(_ t: Double, from: UInt64, to: UInt64) throws(CadenceError) -> Double {
        try requireFinite(t, "t")
        let f = from == 0 ? -1 : try requireLayer(from, "from")
        let d = to == 0 ? -1 : try requireLayer(to, "to")
        if f == d { return t }
        // Depths, then climb the deeper side until both sides meet (-1: global).
        func depth(_ l: Int) -> Int {
            var n = 0, x = l
            while x >= 0 && n <= layers.count { n += 1; x = Int(layers[x].parent) }
            return n
        }
        var a = f, b = d
        var da = depth(a), db = depth(b)
        while da > db { a = Int(layers[a].parent); da -= 1 }
        while db > da { b = Int(layers[b].parent); db -= 1 }
        var guardCount = 0
        while a != b && a >= 0 && b >= 0 && guardCount <= layers.count {
            a = Int(layers[a].parent); b = Int(layers[b].parent)
            guardCount += 1
        }
        let common = a == b ? a : -1
        // Up from `from` to the common ancestor.
        var g = t
        var x = f
        guardCount = 0
        while x >= 0 && x != common && guardCount <= layers.count {
            let tm = layerCold[x].timing
            g = tm.parentTime(fromLocal: g) ?? tm.beginTime
            x = Int(layers[x].parent)
            guardCount += 1
        }
        // Down to `to`: the chain from `to` up to (not including) the common ancestor, applied top down.
        scratchChain.removeAll(keepingCapacity: true)
        x = d
        while x >= 0 && x != common && scratchChain.count <= layers.count {
            scratchChain.append(Int32(x))
            x = Int(layers[x].parent)
        }
        var k = scratchChain.count - 1
        while k >= 0 {
            g = layerCold[Int(scratchChain[k])].timing.localTime(fromParent: g)
            k -= 1
        }
        // Finite inputs give a finite time (huge speeds saturate).
        return settled(g, nan: 0)
    }
}

/// A per-layer action override: an animation to run for a key, or "no action".
struct ActionOverride {
    var key: String
    var spec: AnimationSpec?
}
