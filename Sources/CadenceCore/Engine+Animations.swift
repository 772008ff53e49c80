/// A compiled animation ready to attach (built before anything is mutated, so a
/// failing add leaves the engine unchanged).
struct CompiledAnimation {
    var item = Instance()
    var keyframes: KeyframeRuntime?
    /// Endpoints with a count of 0 when unset (as in `AnimationSpec`).
    var from = ValueBuffer(count: 0)
    var to = ValueBuffer(count: 0)
    var by = ValueBuffer(count: 0)
    var curve: TimingCurve = .linear
    /// Set for from/to transform animations.
    var matrixEnds: MatrixEnds?
    var spring: Spring?
    var transition: TransitionRuntime?
    var children: [CompiledAnimation] = []
    var mask: UInt32 = 0
}

extension Engine {
    static let maxGroupDepth = 32
    /// Keys made for animations added without one: the prefix, then a number.
    static let generatedKeyPrefix = "cadence.anim."

    // MARK: descriptions (cad_anim handles)

    public func createAnimation(kind: AnimationKind, keyPath: String?) throws(CadenceError) -> UInt64 {
        let spec = try AnimationSpec(kind: kind, keyPath: keyPath)
        return try storeSpec(spec)
    }

    /// Stores a description and returns its handle.
    public func storeSpec(_ spec: AnimationSpec) throws(CadenceError) -> UInt64 {
        let idx: Int
        if let f = freeSpecs.popLast() {
            idx = Int(f)
        } else {
            guard specs.count < ObjectID.maxIndex else { throw CadenceError(.outOfMemory, "too many animations") }
            specs.append(nil)
            specGen.append(firstGeneration)
            idx = specs.count - 1
        }
        specs[idx] = spec
        return ObjectID.make(type: 2, salt: salt, gen: specGen[idx], index: idx)
    }

    public func destroyAnimation(_ id: UInt64) throws(CadenceError) {
        if let (i, g) = ObjectID.decode(id, type: 2, salt: salt), i < specs.count, specGen[i] == g, specs[i] != nil {
            specs[i] = nil
            timelineMemo.dropUnused()
            let retired = ObjectID.retires(specGen[i], first: firstGeneration)
            specGen[i] = ObjectID.nextGeneration(specGen[i])
            if !retired { freeSpecs.append(Int32(i)) }
            return
        }
        if instanceIndex(id) != nil {
            throw .invalidState("animation \(Engine.hex(id)) is attached to a layer (a read-only handle); remove it with cad_layer_remove_animation")
        }
        throw invalidAnimation(id)
    }

    func invalidAnimation(_ id: UInt64) -> CadenceError {
        if id == 0 { return .invalidHandle("animation is 0 (no animation)") }
        return .invalidHandle("animation \(Engine.hex(id)) is not a live animation of this engine (destroyed, forged, or from another engine)")
    }

    @inline(__always)
    func specIndex(_ id: UInt64) -> Int? {
        guard let (i, g) = ObjectID.decode(id, type: 2, salt: salt), i < specs.count, specGen[i] == g, specs[i] != nil else { return nil }
        return i
    }

    @inline(__always)
    func instanceIndex(_ id: UInt64) -> Int? {
        guard let (i, g) = ObjectID.decode(id, type: 3, salt: salt), i < inst.items.count else { return nil }
        let it = inst.items[i]
        guard it.alive, it.generation == g, it.group < 0 else { return nil }
        return i
    }

    func instanceID(_ i: Int) -> UInt64 {
        ObjectID.make(type: 3, salt: salt, gen: inst.items[i].generation, index: i)
    }

    /// Reads a description: a mutable one, or the copy behind a read-only handle.
    public func animationSpec(_ id: UInt64) throws(CadenceError) -> AnimationSpec {
        if let i = specIndex(id), let s = specs[i] { return s }
        if let i = instanceIndex(id), let s = inst.specs[i] { return s }
        throw invalidAnimation(id)
    }

    /// Mutates a description in place; read-only handles give `invalidState`.
    public func modifyAnimation<R>(_ id: UInt64, _ body: (inout AnimationSpec) throws(CadenceError) -> R) throws(CadenceError) -> R {
        guard let i = specIndex(id) else {
            if instanceIndex(id) != nil {
                throw .invalidState("animation \(Engine.hex(id)) is attached to a layer and read-only; change the original and add it again")
            }
            throw invalidAnimation(id)
        }
        // Mutate a copy so a throwing body leaves the stored description unchanged.
        var s = specs[i]!
        specs[i] = nil
        defer { if specs[i] == nil { specs[i] = s } }
        let r = try body(&s)
        specs[i] = s
        return r
    }

    public func setChildren(_ group: UInt64, _ children: [UInt64]) throws(CadenceError) {
        var copies: [AnimationSpec] = []
        copies.reserveCapacity(children.count)
        for (k, c) in children.enumerated() {
            guard let s = try? animationSpec(c) else {
                throw .invalidHandle("children[\(k)] (\(Engine.hex(c))) is not a live animation of this engine")
            }
            copies.append(s)
        }
        let depth = 1 + (copies.map(\.treeDepth).max() ?? 0)
        guard depth <= Engine.maxGroupDepth else {
            throw .invalidArgument("groups nest at most \(Engine.maxGroupDepth) deep (this would be \(depth))")
        }
        try modifyAnimation(group) { (s: inout AnimationSpec) throws(CadenceError) in try s.setChildren(copies) }
    }

    // MARK: compile

    func compile(_ spec: AnimationSpec, defaultDuration: Double) throws(CadenceError) -> CompiledAnimation {
        var c = CompiledAnimation()
        try compile(spec, defaultDuration: defaultDuration, into: &c)
        return c
    }

    /// Compiles into `c`, a fresh `CompiledAnimation()`: the form `attach`
    /// uses, where returning the 1.3 KB result copied it more than once.
    func compile(_ spec: AnimationSpec, defaultDuration: Double, into c: inout CompiledAnimation) throws(CadenceError) {
        c.item.kind = spec.kind
        c.item.timing = ResolvedTiming(spec.timing, defaultDuration: defaultDuration)
        c.item.removedOnCompletion = spec.removedOnCompletion
        c.item.additive = spec.additive
        // §5.2: each completed cycle adds its end value minus its start; a
        // cycle that autoreverses ends where it started, so it adds nothing.
        c.item.cumulative = spec.cumulative && !spec.timing.autoreverses
        if let tc = spec.timingCurve, tc != .linear {
            c.curve = tc
            c.item.linearCurve = false
        }
        if let t = spec.target {
            c.item.access = t.access
            c.item.components = Int8(t.components)
            c.item.interp = t.interpolation
            c.item.prop = Int8(t.property?.rawValue ?? -1)
            if let p = t.property { c.mask |= p.bit }
        }
        switch spec.kind {
        case .basic, .spring:
            if spec.endpoints.count == 3 {
                c.from = spec.endpoints[0]
                c.to = spec.endpoints[1]
                c.by = spec.endpoints[2]
            }
            switch (spec.hasFrom, spec.hasTo, spec.hasBy) {
            case (true, true, false): c.item.mode = .fromTo
            case (true, false, true): c.item.mode = .fromBy
            case (false, true, true): c.item.mode = .byTo
            case (true, false, false): c.item.mode = .fromOnly
            case (false, true, false): c.item.mode = .toOnly
            case (false, false, true): c.item.mode = .byOnly
            case (false, false, false): c.item.mode = .none
            case (true, true, true):
                throw .invalidState("fromValue, toValue and byValue are all set; set at most two")
            }
            if spec.kind == .spring { c.spring = spec.spring ?? AnimationSpec.defaultSpring }
            if c.item.interp == .matrix, c.item.mode == .fromTo {
                c.matrixEnds = MatrixEnds(fromDecomp: c.from.transform.decomposed(),
                                          toDecomp: c.to.transform.decomposed())
            }
        case .keyframe:
            if !spec.path.isEmpty {
                let path: PathTimeline
                do {
                    path = try timelineMemo.path(.init(elements: spec.path, mode: spec.calculationMode,
                                                           keyTimes: spec.keyTimes)) { () throws(PathError) in
                        try PathTimeline(elements: spec.path, mode: spec.calculationMode, keyTimes: spec.keyTimes)
                    }
                } catch {
                    throw .invalidArgument("path: \(Engine.describe(error))")
                }
                if spec.rotationMode != .none { c.mask |= LayerProperty.transform.bit }
                // Per-segment timing functions: one per drawable segment in the
                // modes that time segments (linear, cubic); paced and discrete
                // ignore them, as for values.
                var curves: [TimingCurve] = []
                if let sc = spec.segmentCurves, spec.calculationMode == .linear || spec.calculationMode == .cubic {
                    guard sc.count == path.segmentCount else {
                        throw .invalidArgument("\(sc.count) segment timing functions given; the path has \(path.segmentCount) drawable segments")
                    }
                    curves = sc
                }
                c.keyframes = KeyframeRuntime(track: nil, path: path, segmentCurves: curves, keyDecomp: [], values: [],
                                              components: 2, discrete: false, rotationMode: spec.rotationMode)
            } else {
                let n = spec.valueCount
                let comps = Int(c.item.components)
                if let kt = spec.keyTimes {
                    let ok = kt.count == n || (spec.calculationMode == .discrete && kt.count == n + 1)
                    guard ok || spec.calculationMode == .paced || spec.calculationMode == .cubicPaced else {
                        throw .invalidArgument("keyTimes has \(kt.count) entries; \(n) values need \(n)\(spec.calculationMode == .discrete ? " or \(n + 1)" : "")")
                    }
                }
                let track: KeyframeTrack
                let d: [DecomposedTransform?]
                do {
                    // Whole matrices interpolate between successive keys by
                    // decomposition in every mode (docs/decisions.md), so
                    // cubicPaced times them as paced does: a spline parameter
                    // would re-time a path the matrices do not follow.
                    let matrix = c.item.interp == .matrix
                    let mode: CalculationMode = matrix && spec.calculationMode == .cubicPaced
                        ? .paced : spec.calculationMode
                    let key = TimelineMemo.TrackKey(values: spec.values, components: comps, keyTimes: spec.keyTimes,
                                                    mode: mode, tension: spec.tension, continuity: spec.continuity,
                                                    bias: spec.bias, matrix: matrix)
                    (track, d) = try timelineMemo.track(key) { () throws(KeyframeError) in
                        let t = try KeyframeTrack(values: spec.values, components: comps, keyTimes: spec.keyTimes,
                                                  mode: mode, tension: spec.tension,
                                                  continuity: spec.continuity, bias: spec.bias)
                        var d: [DecomposedTransform?] = []
                        if matrix {
                            d.reserveCapacity(n)
                            for k in 0..<n {
                                var m = Transform3D.identity
                                for e in 0..<16 { m[e] = spec.values[k * 16 + e] }
                                d.append(m.decomposed())
                            }
                        }
                        return (t, d)
                    }
                } catch {
                    throw .invalidArgument("keyframes: \(Engine.describe(error))")
                }
                var curves: [TimingCurve] = []
                // Paced modes ignore per-segment timing functions (§7), whatever their count.
                let paced = spec.calculationMode == .paced || spec.calculationMode == .cubicPaced
                if let sc = spec.segmentCurves, !paced {
                    guard sc.count == max(n - 1, 0) || (spec.calculationMode == .discrete) else {
                        throw .invalidArgument("\(sc.count) segment timing functions given; \(n) values have \(max(n - 1, 0)) segments")
                    }
                    curves = sc
                }
                c.keyframes = KeyframeRuntime(track: track, path: nil, segmentCurves: curves, keyDecomp: d,
                                              values: spec.values, components: comps,
                                              discrete: spec.calculationMode == .discrete, rotationMode: .none)
            }
        case .group:
            let d = c.item.timing.simpleDuration
            for child in spec.children {
                let cc = try compile(child, defaultDuration: d)
                c.mask |= cc.mask
                c.children.append(cc)
            }
        case .transition:
            var tr = TransitionRuntime()
            tr.type = spec.transitionType
            tr.subtype = spec.transitionSubtype
            tr.startProgress = spec.startProgress
            tr.endProgress = spec.endProgress
            c.transition = tr
        }
    }

    /// §5.1's "none" row inside groups: a basic or spring child without from,
    /// to and by starts from the presentation value of its key path when the
    /// group is added, or — for an action — from `captured`, read before the
    /// change (`noneChildValues`, the same depth-first order).
    func captureNoneChildren(_ c: inout CompiledAnimation, layer l: Int, captured: [ValueBuffer], next: inout Int) {
        for k in c.children.indices {
            let kind = c.children[k].item.kind
            if c.children[k].item.mode == .none && (kind == .basic || kind == .spring) {
                c.children[k].from = next < captured.count ? captured[next]
                    : readPresentation(l, c.children[k].item.access, Int(c.children[k].item.components))
                next += 1
            }
            if !c.children[k].children.isEmpty {
                captureNoneChildren(&c.children[k], layer: l, captured: captured, next: &next)
            }
        }
    }

    /// The on-screen values `captureNoneChildren` takes for a group's children
    /// without from, to and by, read now (before a change runs the group as an
    /// action), depth-first.
    func noneChildValues(_ s: AnimationSpec, layer l: Int, into out: inout [ValueBuffer]) {
        for child in s.children {
            if child.kind == .basic || child.kind == .spring, !child.hasFrom, !child.hasTo, !child.hasBy,
               let t = child.target {
                out.append(read(pres, contents: presContents[l], layer: l, t))
            }
            if child.kind == .group { noneChildValues(child, layer: l, into: &out) }
        }
    }

    static func describe(_ e: any Error) -> String {
        if let k = e as? KeyframeError {
            switch k {
            case .tooFewValues: return "at least one value is needed"
            case .componentMismatch: return "values do not match the key path's component count"
            case .invalidKeyTimes(let m): return "invalid keyTimes: \(m)"
            case .invalidTCB(let m): return "invalid tension/continuity/bias: \(m)"
            }
        }
        if let p = e as? PathError {
            switch p {
            case .empty: return "the path is empty"
            case .noDrawableSegment: return "the path has no drawable segment (add a line, quad or cubic after the move)"
            case .invalidKeyTimes(let m): return "invalid keyTimes: \(m)"
            }
        }
        return "\(e)"
    }

    // MARK: attach

    /// Adds a copy of an animation to a layer under `key` (SEMANTICS.md §3.4, §5.3).
    public func addAnimation(layer layerID: UInt64, animation: UInt64, key: String?) throws(CadenceError) {
        let l = try requireLayer(layerID)
        let spec = try animationSpec(animation)
        try attach(layer: l, spec: spec, key: key, captured: nil)
    }

    /// Adds a description directly (used by actions and the Swift API).
    public func addAnimation(layer layerID: UInt64, spec: AnimationSpec, key: String?) throws(CadenceError) {
        let l = try requireLayer(layerID)
        try attach(layer: l, spec: spec, key: key, captured: nil)
    }

    @discardableResult
    func attach(layer l: Int, spec: consuming AnimationSpec, key rawKey: String?, captured: ValueBuffer?,
                         capturedChildren: [ValueBuffer] = [],
                         defaultDuration: Double = 0.25, delay: Double = 0, register: Bool = true) throws(CadenceError) -> Int {
        try spec.validateForAdd()
        var compiled = CompiledAnimation()
        try compile(spec, defaultDuration: defaultDuration, into: &compiled)
        let nodes = compiled.children.isEmpty ? 1 : Engine.countNodes(compiled)
        guard inst.free.count + (ObjectID.maxIndex - inst.items.count) >= nodes else {
            throw CadenceError(.outOfMemory, "too many attached animations")
        }
        // Room for each node's value region (`allocateValues` indexes with Int32).
        guard inst.values.count <= Int(Int32.max) &- (nodes &+ 1) &* InstanceStore.valueStride else {
            throw CadenceError(.outOfMemory, "the attached animations' values fill the engine's value store")
        }
        let key: String
        var generated = false
        if spec.kind == .transition {
            key = "transition"
        } else if let k = rawKey, !k.isEmpty {
            key = k
            if !hostUsedGeneratedKeyForm && k.utf8.count > Engine.generatedKeyPrefix.utf8.count
                && k.utf8.first == UInt8(ascii: "c") && k.hasPrefix(Engine.generatedKeyPrefix) {
                hostUsedGeneratedKeyForm = true
            }
        } else {
            sequence &+= 1
            key = Engine.generatedKeyPrefix + "\(sequence)"
            generated = true
        }

        // Capture the on-screen value before anything changes (the "none" row of §5.1).
        // Only then is the layer evaluated here: evaluating it at every add made
        // adding n animations to one layer cost O(n²).
        let capturesOwn = compiled.item.mode == .none && (spec.kind == .basic || spec.kind == .spring)
        if (capturesOwn && captured == nil) || !compiled.children.isEmpty {
            ensurePresentation(l)
        } else if simplePending && layers[l].simple >= 0 {
            flushSimpleTrack()  // as ensurePresentation does: the entry may leave the track below
        }
        if capturesOwn {
            compiled.from = captured ?? readPresentation(l, compiled.item.access, Int(compiled.item.components))
        }
        if !compiled.children.isEmpty {
            var next = 0
            captureNoneChildren(&compiled, layer: l, captured: capturedChildren, next: &next)
        }

        // Resolve beginTime (§3.4); inside an open transaction it resolves at commit.
        let inTx = !tx.stack.isEmpty
        if spec.timing.beginTime == 0 {
            if inTx {
                compiled.item.beginAtCommit = true
            } else {
                compiled.item.timing.beginTime = localTime(l, global: now)
            }
        }
        compiled.item.awaitingCommit = inTx
        compiled.item.beginDelay = inTx ? delay : 0
        if !inTx && delay != 0 { compiled.item.timing.beginTime += delay }

        // Replace an animation under the same key.
        let keyHash = key.hashValue  // once: also stored below
        if !(generated && !hostUsedGeneratedKeyForm), let old = findInstance(layer: l, key: key, hash: keyHash) {
            // Membership and the dirty mark once, for the new animation, below;
            // but a transition's snapshot (below) evaluates every layer first,
            // which must not meet the layer's track entry of the animation
            // removed here (a host may add any animation under "transition").
            removeInstance(old, reason: .replaced, membership: spec.kind == .transition)
        }

        sequence &+= 1
        let i = materialize(&compiled, layer: l, group: -1)
        inst.items[i].addSeq = sequence
        inst.keys[i] = key
        inst.keyHashes[i] = keyHash
        inst.tags[i] = spec.tag
        inst.callbacks[i] = spec.callback
        let kind = spec.kind
        if spec.timing.beginTime == 0 && !inTx {
            if delay == 0 { inst.beginGlobal[i] = now }
            // The attached copy carries its resolved beginTime (read back through
            // animationForKey and added elsewhere, it runs in step: Core Animation's copy).
            spec.timing.beginTime = inst.items[i].timing.beginTime
        }
        // (Consumed: the description moves into the store, not copied.)
        inst.specs[i] = consume spec

        // Link at the end of the layer's list.
        animListVersion &+= 1
        let last = layerCold[l].lastAnim
        inst.items[i].prev = last
        if last >= 0 { inst.items[Int(last)].next = Int32(i) } else { layers[l].firstAnim = Int32(i) }
        layerCold[l].lastAnim = Int32(i)
        layerCold[l].animCount += 1
        layers[l].animMask |= compiled.mask
        if kind == .transition {
            layers[l].transition = Int32(i)
            let snap = snapshot(l)
            transitionItemBound += snap.count + 1
            inst.transitions.update(i) { $0.snapshot = snap }
            layers[l].geomDirty = true
        }
        if inTx {
            if tx.awaiting.count > 64 && tx.awaiting.count > 2 &* tx.awaitingLive {
                tx.awaiting.removeAll { !isAwaiting($0) }
            }
            tx.awaiting.append(AwaitingEntry(slot: Int32(i), generation: inst.items[i].generation))
            tx.awaitingLive += 1
        }
        if register { registerWithTransaction(i) }
        updateMembership(l)
        markPresDirty(l)
        return i
    }

    static func countNodes(_ c: CompiledAnimation) -> Int {
        1 + c.children.reduce(0) { $0 + countNodes($1) }
    }

    /// Allocates slots for a compiled animation and its children.
    /// (`inout` only so that the 1.3 KB `c` is passed in place, not copied:
    /// it is not changed.)
    func materialize(_ c: inout CompiledAnimation, layer l: Int, group: Int) -> Int {
        let i = inst.allocate()!   // capacity checked by the caller
        let gen = inst.items[i].generation
        inst.items[i] = c.item
        inst.items[i].alive = true
        inst.items[i].generation = gen
        inst.items[i].layer = Int32(l)
        inst.items[i].group = Int32(group)
        inst.items[i].prev = -1
        inst.items[i].next = -1
        inst.items[i].firstChild = -1
        inst.items[i].lastChild = -1
        inst.curves[i] = c.curve
        inst.beginGlobal[i] = .nan
        // (A fresh slot has no matrix ends or transition.)
        if c.matrixEnds != nil { inst.matrixEnds.set(i, c.matrixEnds) }
        inst.springs[i] = c.spring
        if c.item.kind == .transition && c.transition != nil { inst.transitions.set(i, c.transition) }
        inst.keyframes[i] = c.keyframes
        let n = Int(c.item.components)
        let ends = Swift.max(c.from.count, c.to.count, c.by.count)
        if n > 0 && ends > 0 {
            // (At most 16 components: 48 doubles, within a region.)
            inst.allocateValues(i, words: 3 &* Swift.max(n, ends))
            if c.from.count > 0 { inst.setValue(i, 0, c.from) }
            if c.to.count > 0 { inst.setValue(i, 1, c.to) }
            if c.by.count > 0 { inst.setValue(i, 2, c.by) }
        }
        if c.keyframes != nil { inst.setFlatKeyframes(i) }
        for k in c.children.indices {
            let ci = materialize(&c.children[k], layer: l, group: i)
            let last = inst.items[i].lastChild
            inst.items[ci].prev = last
            if last >= 0 { inst.items[Int(last)].next = Int32(ci) } else { inst.items[i].firstChild = Int32(ci) }
            inst.items[i].lastChild = Int32(ci)
        }
        return i
    }

    func findInstance(layer l: Int, key: String, hash: Int? = nil) -> Int? {
        let h = hash ?? key.hashValue
        var i = layers[l].firstAnim
        while i >= 0 {
            if inst.keyHashes[Int(i)] == h && inst.keys[Int(i)] == key { return Int(i) }
            i = inst.items[Int(i)].next
        }
        return nil
    }

    // MARK: remove

    /// Detaches a top-level instance. Emits stop(finished: false) unless it
    /// already reported its stop. `membership: false` leaves the layer's
    /// place on the simple track (or the animated list) and its program as
    /// they are, for a caller that recomputes them next: `attach` replacing
    /// the animation under a key. (The round trip moved the layer's track
    /// entry to the end at every retarget, shuffling the track, and cost a
    /// second membership pass.)
    func removeInstance(_ i: Int, reason: StopReason, membership: Bool = true, recomputeMask: Bool = true) {
        let l = Int(inst.items[i].layer)
        animListVersion &+= 1
        if !inst.items[i].finished {
            inst.items[i].finished = true
            emit(.stop, finished: false, instance: i, layer: l, time: now)
            // Replaced before its transaction committed (the same key set twice
            // in one transaction): the transaction's own change, not an interruption.
            instanceStopped(i, time: now, finished: reason == .replaced && inst.items[i].awaitingCommit)
        }
        let prev = inst.items[i].prev
        let next = inst.items[i].next
        if prev >= 0 { inst.items[Int(prev)].next = next } else { layers[l].firstAnim = next }
        if next >= 0 { inst.items[Int(next)].prev = prev } else { layerCold[l].lastAnim = prev }
        layerCold[l].animCount -= 1
        if layers[l].transition == Int32(i) {
            layers[l].transition = -1
            layers[l].geomDirty = true
            transitionItemBound -= (inst.transitions[i]?.snapshot.count ?? 0) + 1
        }
        if inst.items[i].awaitingCommit {
            // Its entry in `tx.awaiting` stays (removing it cost O(pending) per
            // removal): the commit skips it by its generation (`isAwaiting`),
            // also when a later add in the same slot has an entry of its own
            // further on. `attach` drops the stale entries when they are most
            // of the list.
            inst.items[i].awaitingCommit = false
            tx.awaitingLive -= 1
        }
        releaseTree(i)
        // (`removeAllInstances` and the tick's removal of finished animations
        // do the rest once per layer: `afterRemovals`.)
        guard recomputeMask else { return }
        afterRemovals(l, oldMask: layers[l].animMask, membership: membership)
    }

    /// After animations of layer `l` were removed (`oldMask`: its animated
    /// properties before): the mask of those left, the properties no longer
    /// animated back to their model values, the layer's place on the tracks.
    func afterRemovals(_ l: Int, oldMask: UInt32, membership: Bool = true) {
        var m: UInt32 = 0
        var j = layers[l].firstAnim
        while j >= 0 {
            m |= instanceMask(Int(j))
            j = inst.items[Int(j)].next
        }
        layers[l].animMask = m
        // Every property the removed animation could have written goes back to
        // the model, also those other animations still animate: they are evaluated
        // again over it (markPresDirty), and a layer left with one sub-key animation
        // (position.y) moves to the simple track, which writes only its components.
        resetFromModel(l, mask: oldMask)
        if membership {
            updateMembership(l)
            markPresDirty(l)
        }
    }

    func releaseTree(_ i: Int) {
        var c = inst.items[i].firstChild
        while c >= 0 {
            let n = inst.items[Int(c)].next
            releaseTree(Int(c))
            c = n
        }
        let timeline = inst.keyframes[i] != nil
        inst.release(i)
        // A timeline no instance holds any more leaves the memo with its
        // last user, so its memory comes back (TimelineMemo.swift).
        if timeline && !timelineMemo.entries.isEmpty { timelineMemo.dropUnused() }
    }

    func instanceMask(_ i: Int) -> UInt32 {
        let it = inst.items[i]
        var m: UInt32 = 0
        if it.prop >= 0 { m |= 1 << UInt32(it.prop) }
        if it.kind == .keyframe, let kf = inst.keyframes[i], kf.rotationMode != .none { m |= LayerProperty.transform.bit }
        var c = it.firstChild
        while c >= 0 {
            m |= instanceMask(Int(c))
            c = inst.items[Int(c)].next
        }
        return m
    }

    /// Removes every animation of layer `l`, in add order (their stop events
    /// in that order), then does what `removeInstance` does after each once:
    /// the properties they animated back to the model, the layer's place on
    /// the tracks. (Once per animation, it walked the rest of the list each
    /// time: O(n²) for n animations.)
    func removeAllInstances(layer l: Int, reason: StopReason) {
        guard layers[l].firstAnim >= 0 else { return }
        let oldMask = layers[l].animMask
        while layers[l].firstAnim >= 0 {
            removeInstance(Int(layers[l].firstAnim), reason: reason, membership: false, recomputeMask: false)
        }
        afterRemovals(l, oldMask: oldMask)
    }

    public func removeAnimation(layer layerID: UInt64, key: String) throws(CadenceError) {
        let l = try requireLayer(layerID)
        guard let i = findInstance(layer: l, key: key) else {
            throw .notFound("no animation with key \"\(key)\" on layer \(Engine.hex(layerID))")
        }
        removeInstance(i, reason: .removed)
    }

    public func removeAllAnimations(layer layerID: UInt64) throws(CadenceError) {
        let l = try requireLayer(layerID)
        removeAllInstances(layer: l, reason: .removed)
    }

    public func animationCount(layer layerID: UInt64) throws(CadenceError) -> Int {
        Int(layerCold[try requireLayer(layerID)].animCount)
    }

    public func animationKey(layer layerID: UInt64, at index: Int) throws(CadenceError) -> String {
        let l = try requireLayer(layerID)
        let n = Int(layerCold[l].animCount)
        guard index >= 0, index < n else { throw .invalidArgument("index \(index) is out of range 0..<\(n)") }
        // From the last answer when the list has not changed since and it is
        // at or before `index` (a host listing keys 0, 1, 2, ... walks the
        // list once), else from the start.
        var i = layers[l].firstAnim
        var k = 0
        let c = keyCursor
        if c.layer == l && c.version == animListVersion && c.index <= index && c.instance >= 0 {
            i = Int32(c.instance)
            k = c.index
        }
        while k < index && i >= 0 {
            i = inst.items[Int(i)].next
            k += 1
        }
        guard i >= 0 else { throw .invalidArgument("index \(index) is out of range 0..<\(n)") }
        keyCursor = (l, index, Int(i), animListVersion)
        return inst.keys[Int(i)]
    }

    public func animationKeys(layer layerID: UInt64) throws(CadenceError) -> [String] {
        let l = try requireLayer(layerID)
        var out: [String] = []
        var i = layers[l].firstAnim
        while i >= 0 {
            out.append(inst.keys[Int(i)])
            i = inst.items[Int(i)].next
        }
        return out
    }

    /// A read-only handle to the attached copy under `key`.
    public func animation(layer layerID: UInt64, key: String) throws(CadenceError) -> UInt64 {
        let l = try requireLayer(layerID)
        guard let i = findInstance(layer: l, key: key) else {
            throw .notFound("no animation with key \"\(key)\" on layer \(Engine.hex(layerID))")
        }
        return instanceID(i)
    }
}
