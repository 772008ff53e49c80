/// A flat copy of a layer's only animation when it is "simple": a basic or
/// spring from/to animation on up to four ordinary components (position,
/// opacity, a colour, bounds...), at the top level, not waiting for a commit.
/// The tick evaluates these in one pass over a contiguous array — the hot path
/// of large scenes — instead of walking layer and animation records.
struct SimpleAnim {
    // 128 bytes: the tick streams through these, so every byte counts.
    var from: SIMD4<Double>
    var to: SIMD4<Double>
    /// The resolved timing, flattened for the inline sampler (§3.3). Divisions,
    /// not stored reciprocals, so the result is bit-identical to the general
    /// sampler's.
    var begin: Double
    var speed: Double
    var offset: Double
    var duration: Double
    var cycle: Double
    var activeDuration: Double
    var layer: Int32
    var instance: Int32
    var propBit: UInt32
    /// Offset of the first component in the layer's property block.
    var propOffset: UInt8
    var count: UInt8
    var flags: UInt8
    var flags2: UInt8

    /// Index of the first component in the presentation block array.
    @inline(__always) var presBase: Int { Int(layer) &* LayerProperty.stride &+ Int(propOffset) }

    static let linearCurve: UInt8 = 1
    static let spring: UInt8 = 2
    static let geometry: UInt8 = 4
    static let started: UInt8 = 8
    static let finished: UInt8 = 16
    static let removedOnCompletion: UInt8 = 32
    static let visual: UInt8 = 64
    // flags2
    /// The layer's time is global time (mirrors `LayerRecord.timeIdentity`).
    static let timeIdentity: UInt8 = 1
    static let autoreverses: UInt8 = 2
    /// timeOffset ≠ 0 and a finite active duration: the time wraps (t mod D).
    static let wraps: UInt8 = 4
    /// The end is the model value (an animation with no `to`: an implicit
    /// animation, or `from` only; SEMANTICS.md §5.1): `to` holds a copy of the
    /// model's components, refreshed by every model write to the property
    /// (`modelChanged`).
    static let toModel: UInt8 = 8
}

/// What a translated leaf's world needs of its presentation block besides
/// `position`: `bounds.x + anchorPoint.x * bounds.w`, the same for y, and
/// `zPosition`, kept beside the layer's simple-track entry so that the render
/// list's leaf run with a deferred `position` entry reads no line of the
/// block (24 bytes instead of two lines). Computed from the block by the leaf
/// run when unknown (`x` NaN); the layer's only animation is the entry, so
/// these come from the model, and every model write to the layer forgets
/// them (`modelChanged`); a new or replaced entry starts unknown.
struct LeafOrigin {
    var x: Double
    var y: Double
    var z: Double
    static let unknown = LeafOrigin(x: .nan, y: .nan, z: .nan)
}

extension Engine {
    /// Puts a layer in the right evaluation list: the simple track, the general
    /// list of animated layers, or neither. Called whenever its animations change.
    func updateMembership(_ l: Int) {
        let wantSimple = simpleInstance(l)
        if let i = wantSimple {
            removeFromAnimatedLayers(l)
            let entry = makeSimpleEntry(l, i)
            // The entry writes only its components (position.x): the rest of the
            // property must be the model's, which the presentation may not hold
            // when the layer joins the track (a sibling component set while the
            // layer was evaluated by the general path, or not at all: an
            // animation awaiting its commit). Every caller marks it dirty next.
            resetFromModel(l, mask: entry.propBit)
            layers[l].animatesGeometry = entry.flags & SimpleAnim.geometry != 0
            simpleQuiet = false
            if layers[l].simple >= 0 {
                let j = Int(layers[l].simple)
                simpleAnims[j] = entry
                if j < simpleLeaf.count { simpleLeaf[j] = .unknown }
            } else {
                layers[l].simple = Int32(simpleAnims.count)
                simpleAnims.append(entry)
                simpleLeaf.append(.unknown)
            }
        } else {
            removeFromSimpleTrack(l)
            if layers[l].animatesGeometry {
                layers[l].animatesGeometry = false
                layers[l].geomDirty = true
            }
            if layerCold[l].animCount > 0 {
                if layerCold[l].animatedSlot < 0 {
                    layerCold[l].animatedSlot = Int32(animatedLayers.count)
                    animatedLayers.append(Int32(l))
                }
            } else {
                removeFromAnimatedLayers(l)
            }
        }
        rebuildProgram(l)
    }

    func removeFromAnimatedLayers(_ l: Int) {
        let slot = Int(layerCold[l].animatedSlot)
        guard slot >= 0 else { return }
        let lastLayer = animatedLayers.removeLast()
        if slot < animatedLayers.count {
            animatedLayers[slot] = lastLayer
            layerCold[Int(lastLayer)].animatedSlot = Int32(slot)
        }
        layerCold[l].animatedSlot = -1
    }

    func removeFromSimpleTrack(_ l: Int) {
        let slot = Int(layers[l].simple)
        guard slot >= 0 else { return }
        simpleQuiet = false
        let last = simpleAnims.removeLast()
        let lastLeaf = simpleLeaf.popLast() ?? .unknown
        if slot < simpleAnims.count {
            simpleAnims[slot] = last
            if slot < simpleLeaf.count { simpleLeaf[slot] = lastLeaf }
            layers[Int(last.layer)].simple = Int32(slot)
        }
        layers[l].simple = -1
    }

    /// The layer's only animation if it qualifies for the simple track.
    func simpleInstance(_ l: Int) -> Int? {
        guard layerCold[l].animCount == 1, layers[l].firstAnim >= 0 else { return nil }
        let i = Int(layers[l].firstAnim)
        let it = inst.items[i]
        // From/to, or from to the model value (`none`: from captured at the
        // add; `fromOnly`): the end is the underlying value, which is the
        // model's for a layer's only animation.
        let toModel = allowSimpleModelEnd && (it.mode == .none || it.mode == .fromOnly)
        guard it.kind == .basic || it.kind == .spring, it.mode == .fromTo || toModel, it.interp == .linear,
              !it.additive, !it.cumulative, it.group < 0, it.prop >= 0, !it.awaitingCommit else { return nil }
        guard case let .block(off, c) = it.access, c <= 4,
              off < Engine.transformBase || off >= Engine.sublayerBase + 16 else { return nil }
        // Endpoints whose difference overflows (from -1e308 to 1e308) take the
        // general path, which shows `from` at progress 0 where the plain
        // formula gives inf·0 (`basicOverflowed`). The track's loop only ever
        // sees values that overflow with a finite difference (an overshooting
        // timing function), which saturate; this keeps its cold branch small.
        let vb = inst.vbase(i)
        let mb = l &* LayerProperty.stride &+ off
        for k in 0..<c where !((toModel ? model[mb &+ k] : inst.values[vb &+ c &+ k]) - inst.values[vb &+ k]).isFinite {
            return nil
        }
        return i
    }

    func makeSimpleEntry(_ l: Int, _ i: Int) -> SimpleAnim {
        let it = inst.items[i]
        var off = 0, c = 0
        if case let .block(o, n) = it.access { off = o; c = n }
        var from = SIMD4<Double>.zero, to = SIMD4<Double>.zero
        let vb = inst.vbase(i)
        let toModel = it.mode != .fromTo
        let mb = l &* LayerProperty.stride &+ off
        for k in 0..<c {
            from[k] = inst.values[vb + k]
            to[k] = toModel ? model[mb + k] : inst.values[vb + c + k]
        }
        let bit = UInt32(1) << UInt32(it.prop)
        var flags: UInt8 = 0
        if it.linearCurve { flags |= SimpleAnim.linearCurve }
        if it.kind == .spring { flags |= SimpleAnim.spring }
        if bit & LayerProperty.geometryMask != 0 { flags |= SimpleAnim.geometry }
        if bit & (~LayerProperty.geometryMask | LayerProperty.bounds.bit) != 0 { flags |= SimpleAnim.visual }
        if it.started { flags |= SimpleAnim.started }
        if it.finished { flags |= SimpleAnim.finished }
        if it.removedOnCompletion { flags |= SimpleAnim.removedOnCompletion }
        let t = it.timing
        var flags2: UInt8 = layers[l].timeIdentity ? SimpleAnim.timeIdentity : 0
        if t.autoreverses { flags2 |= SimpleAnim.autoreverses }
        if t.timeOffset != 0 && t.activeDuration.isFinite { flags2 |= SimpleAnim.wraps }
        if toModel { flags2 |= SimpleAnim.toModel }
        return SimpleAnim(from: from, to: to, begin: t.beginTime, speed: t.speed, offset: t.timeOffset,
                          duration: t.simpleDuration, cycle: t.cycle, activeDuration: t.activeDuration,
                          layer: Int32(l), instance: Int32(i), propBit: bit, propOffset: UInt8(off),
                          count: UInt8(c), flags: flags, flags2: flags2)
    }

    /// Evaluates the whole simple track at `now` (the tick's hot loop).
    ///
    /// Pass 1 walks the flat array through spans (one bounds check per entry,
    /// no reloads of engine storage) and finishes every entry that is inside
    /// its active duration, on global time, with its start already reported —
    /// the steady state of a large scene. Everything else (before/after the
    /// active interval, fills, events, layers with their own time map) is
    /// queued and done by pass 2 with the general per-entry code; entries are
    /// independent (one per layer), so the order does not matter.
    func evaluateSimpleTrack() {
        guard !simpleAnims.isEmpty else { return }
        scratchVisual.removeAll(keepingCapacity: true)
        scratchSimpleSlow.removeAll(keepingCapacity: true)
        let t = now
        // Whether the next ticks can defer the pass (`tickSimpleTrack`).
        var quiet = true
        var minBegin = Double.infinity, maxSpeed = 0.0
        let timedRuns = allowTimedRuns
        withTrackAndBlock { track, out in
            var j = 0
            while j < track.count {
                // An entry under a timed ancestor (a paused or slowed root) at
                // its layer's local time: one step from its superlayer's,
                // memoised (`localTime`), instead of pass 2's general code.
                let timed = track[j].flags2 & SimpleAnim.timeIdentity == 0
                let tj = timed ? localTime(Int(track[j].layer), global: t) : t
                guard !timed || timedRuns, passOne(track, j, tj, &out, visual: true, layerTime: true) else {
                    scratchSimpleSlow.append(Int32(j))
                    j &+= 1
                    continue
                }
                if quiet {
                    let sp = track[j].speed
                    // (Deferred passes run on global time: an entry on a
                    // layer's own time keeps the pass in the tick.)
                    quiet = !timed && track[j].activeDuration == .infinity && sp > 0 && track[j].flags & SimpleAnim.visual == 0
                    minBegin = min(minBegin, track[j].begin)
                    maxSpeed = max(maxSpeed, sp)
                }
                j &+= 1
            }
        }
        if !scratchSimpleSlow.isEmpty {
            quiet = false
            var slow: [Int32] = []
            swap(&slow, &scratchSimpleSlow)
            withBlock { out in for x in slow { evaluateSimpleEntry(Int(x), events: true, pres: &out) } }
            swap(&slow, &scratchSimpleSlow)
        }
        flushVisual()
        simpleQuiet = quiet
        simpleMinBegin = minBegin
        simpleMaxSpeed = maxSpeed
    }

    /// Runs `body` on the track and the presentation block moved out of the
    /// engine (O(1) swaps, no copy), so the loop reads them through spans with
    /// no reloads of engine storage. `body` must not use `self.pres` or
    /// `self.simpleAnims`.
    @inline(__always)
    func withTrackAndBlock(_ body: (Span<SimpleAnim>, inout MutableSpan<Double>) -> Void) {
        var anims: [SimpleAnim] = []
        swap(&anims, &simpleAnims)
        withBlock { out in body(anims.span, &out) }
        swap(&anims, &simpleAnims)
    }

    /// Runs `body` on the presentation block moved out of the engine (an O(1)
    /// swap). `body` must not use `self.pres`.
    @inline(__always)
    func withBlock(_ body: (inout MutableSpan<Double>) -> Void) {
        var block: [Double] = []
        swap(&block, &pres)
        do {
            var out = block.mutableSpan
            body(&out)
        }
        swap(&block, &pres)
    }

    /// Pass 1 for entry `j` at time `t` (global time): when the entry is inside
    /// its active interval, on global time, with its start reported (and, unless
    /// `visual`, not a visual property), writes its value into `out` and returns
    /// true; otherwise writes nothing and returns false (the general per-entry
    /// code's business). Fields are read through the span in place (a copy of
    /// the 128-byte entry would be a memcpy per entry).
    @_transparent
    func passOne(_ track: Span<SimpleAnim>, _ j: Int, _ t: Double, _ out: inout MutableSpan<Double>, visual: Bool,
                 layerTime: Bool = false) -> Bool {
        var v = SIMD4<Double>()
        guard sampleOne(track, j, t, &v, visual: visual, layerTime: layerTime) else { return false }
        let base = track[j].presBase
        let c = Int(track[j].count)
        if c > 0 {
            out[base] = v[0]
            if c > 1 {
                out[base &+ 1] = v[1]
                if c > 2 {
                    out[base &+ 2] = v[2]
                    if c > 3 { out[base &+ 3] = v[3] }
                }
            }
        }
        if track[j].flags & SimpleAnim.visual != 0 { simpleVisual(track[j], j, v) }
        return true
    }

    /// Pass 1's value of entry `j` at time `t` (see `passOne`) into `v`,
    /// without writing it anywhere; false when the entry is not in pass 1.
    /// `twoLanes`: the entry has two components (the caller knows), and only
    /// `v.x` and `v.y` are computed (the rest of `v` is left as it is).
    /// `layerTime`: `t` is the entry's layer's local time (the tick's pass,
    /// which maps it for layers under a timed ancestor); otherwise `t` is
    /// global time and only entries of identity-timed layers are taken.
    @_transparent
    func sampleOne(_ track: Span<SimpleAnim>, _ j: Int, _ t: Double, _ v: inout SIMD4<Double>, visual: Bool,
                   twoLanes: Bool = false, layerTime: Bool = false) -> Bool {
        let a = (t - track[j].begin) * track[j].speed
        let flags = track[j].flags
        guard layerTime || track[j].flags2 & SimpleAnim.timeIdentity != 0, a >= 0, a < track[j].activeDuration,
              flags & SimpleAnim.started != 0, visual || flags & SimpleAnim.visual == 0 else { return false }
        let s = Engine.activeSample(a, offset: track[j].offset, cycle: track[j].cycle,
                                    duration: track[j].duration, activeDuration: track[j].activeDuration,
                                    flags2: track[j].flags2)
        let p: Double
        if flags & (SimpleAnim.linearCurve | SimpleAnim.spring) == SimpleAnim.linearCurve {
            p = s.progress
        } else {
            p = simpleEase(flags: flags, instance: track[j].instance, cycleTime: s.cycleTime, progress: s.progress)
        }
        if twoLanes {
            let w = lerp(track[j].from.lowHalf, track[j].to.lowHalf, p)
            v.lowHalf = w
            if !allFinite(w) {
                let base = track[j].presBase
                for k in 0..<2 { v[k] = settled(v[k], nan: model[base &+ k]) }
            }
            return true
        }
        let from = track[j].from
        v = lerp(from, track[j].to, p)
        // All four lanes finite (unused lanes are 0): one vector test, the
        // per-lane rule only when it fails.
        if !allFinite(v) {
            let base = track[j].presBase
            for k in 0..<Int(track[j].count) { v[k] = settled(v[k], nan: model[base &+ k]) }
        }
        return true
    }

    /// The tick's simple-track step. A quiet track (the last full pass took
    /// every entry through pass 1, each with an infinite active duration, a
    /// positive speed and no visual property, and nothing on the track changed
    /// since) cannot start, finish or leave pass 1 as time moves forward: every
    /// local time stays >= 0 and is finite while (now - min begin) * max speed
    /// is finite. Its pass then waits (`simplePending`) until a presentation
    /// value is read: the render list runs it inline, leaf by leaf, and
    /// `flushSimpleTrack` runs it before any other read. The values are the
    /// ones the tick would have written (same time, same code).
    func tickSimpleTrack() {
        if allowSimpleDeferral && simpleQuiet && !simpleAnims.isEmpty && ((now - simpleMinBegin) * simpleMaxSpeed).isFinite {
            simplePending = true
            return
        }
        simplePending = false
        evaluateSimpleTrack()
    }

    /// After the tick's pass over the track: a layer whose presentation is
    /// dirty only because a time map changed (`dirtyForTimeOnly`), and whose
    /// one animation is its simple-track entry, is current again — the pass
    /// evaluated the entry at the new time, and nothing else of the layer
    /// depends on time — so the dirty-layer pass need not evaluate it a
    /// second time (a container's speed changed every frame: 100k leaves,
    /// about 260 instructions less each). A deferred pass (pending) keeps
    /// them dirty: it has not run yet.
    func clearTimeOnlyDirty() {
        timeOnlyDirty = false
        let evaluated = !simplePending
        for x in dirtyLayers {
            let l = Int(x)
            guard l < layers.count, layerCold[l].dirtyForTimeOnly else { continue }
            layerCold[l].dirtyForTimeOnly = false
            if evaluated && layers[l].presDirty && layers[l].alive && layers[l].simple >= 0
                && layerCold[l].animCount == 1 {
                layers[l].presDirty = false
            }
        }
    }

    /// Runs a deferred pass 1 (see `tickSimpleTrack`). Entries that changed
    /// since the tick and no longer qualify are skipped: a change to an
    /// entry marks its layer's presentation dirty, which the caller's
    /// dirty-layer pass recomputes after this.
    func flushSimpleTrack() {
        guard simplePending else { return }
        simplePending = false
        let t = now
        withTrackAndBlock { track, out in
            var j = 0
            while j < track.count {
                _ = passOne(track, j, t, &out, visual: false)
                j &+= 1
            }
        }
    }

    /// §3.3 inside the active duration (`0 <= a < activeDuration`), inline.
    /// (Scalars, not the entry: a borrowed span element is copied to the
    /// stack for the call, 128 bytes per entry.)
    @inline(always)
    static func activeSample(_ a: Double, offset: Double, cycle c: Double, duration d: Double,
                             activeDuration: Double, flags2: UInt8) -> TimingSample {
        var t = a + offset
        if flags2 & SimpleAnim.wraps != 0 { t = ResolvedTiming.wrap(t, activeDuration: activeDuration) }
        // The steady state of a repeating animation first (a later cycle): the
        // same steps as `ResolvedTiming.cyclePosition`, written out here because
        // the call costs the tick's hot loop ~60 instructions per entry in
        // register spills. `simpleTrackSnapsAtTheCycleEndLikeTheGeneralSampler`
        // and `SimpleTrackAgreementTests` keep the two in step.
        guard t >= c && t > 0 && t < .infinity else {
            let (i, u, p) = ResolvedTiming.cyclePosition(t, cycle: c, duration: d, activeDuration: activeDuration,
                                                         autoreverses: flags2 & SimpleAnim.autoreverses != 0)
            return TimingSample(phase: .active, hasEffect: true, activeTime: a, iteration: i, cycleTime: u, progress: p)
        }
        let i = ResolvedTiming.lastCycle(ResolvedTiming.snappedFloorFromOne(t / c, cycle: c), cycle: c,
                                         activeDuration: activeDuration)
        var u = t - i * c
        if u < 0 { u = 0 } else if u > c { u = c }
        if flags2 & SimpleAnim.autoreverses != 0 && u > d { u = 2 * d - u }
        var p = u / d
        if !(p >= 0) { p = 0 } else if p > 1 { p = 1 }
        return TimingSample(phase: .active, hasEffect: true, activeTime: a, iteration: i, cycleTime: u, progress: p)
    }

    /// Eased progress of a spring or a curved entry (its flags and instance).
    /// Scalars, in registers: an entry or a sample passed whole is copied to
    /// the stack for the call, and the stores were scheduled before the
    /// linear entries' branch too.
    @inline(never)
    func simpleEase(flags: UInt8, instance: Int32, cycleTime: Double, progress: Double) -> Double {
        if flags & SimpleAnim.spring != 0 {
            return inst.springs[Int(instance)]?.progress(at: cycleTime) ?? 1
        } else if flags & SimpleAnim.linearCurve != 0 {
            return progress
        }
        return inst.curves[Int(instance)].evaluate(progress)
    }

    /// Whole opacity and colours go straight to the render cache; the rest
    /// after the loop (`flushVisual`, which needs the presentation block).
    @inline(__always)
    func simpleVisual(_ e: borrowing SimpleAnim, _ j: Int, _ v: SIMD4<Double>) {
        let l = Int(e.layer)
        let c = Int(e.count)
        switch e.propBit {
        case LayerProperty.opacity.bit where c == 1:
            cache[l].opacity = clamp01(v[0])
        case LayerProperty.backgroundColor.bit where c == 4:
            cache[l].backgroundColor = (clamp01(v[0]), clamp01(v[1]), clamp01(v[2]), clamp01(v[3]))
        default:
            scratchVisual.append(Int32(j))
        }
    }

    /// Evaluates one entry outside the tick (a lazy presentation read).
    func evaluateSimpleEntry(_ j: Int, events: Bool) {
        scratchVisual.removeAll(keepingCapacity: true)
        withBlock { out in evaluateSimpleEntry(j, events: events, pres: &out) }
        flushVisual()
    }

    /// Render-cache updates that need the presentation block (done once the span is gone).
    func flushVisual() {
        for x in scratchVisual {
            let j = Int(x)
            refreshVisualCache(Int(simpleAnims[j].layer), mask: simpleAnims[j].propBit)
        }
        scratchVisual.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func evaluateSimpleEntry(_ j: Int, events: Bool, pres out: inout MutableSpan<Double>) {
        let l = Int(simpleAnims[j].layer)
        let tp = simpleAnims[j].flags2 & SimpleAnim.timeIdentity != 0 ? now : localTime(l, global: now)
        let flags = simpleAnims[j].flags
        let s: TimingSample
        let a = (tp - simpleAnims[j].begin) * simpleAnims[j].speed
        if a >= 0 && a < simpleAnims[j].activeDuration {
            s = Engine.activeSample(a, offset: simpleAnims[j].offset, cycle: simpleAnims[j].cycle,
                                    duration: simpleAnims[j].duration, activeDuration: simpleAnims[j].activeDuration,
                                    flags2: simpleAnims[j].flags2)
        } else {
            s = inst.items[Int(simpleAnims[j].instance)].timing.sample(parentTime: tp)
        }
        if events && (flags & SimpleAnim.started == 0 || (s.phase == .after && flags & SimpleAnim.finished == 0)) {
            let i = Int(simpleAnims[j].instance)
            updateEvents(i, s, layer: l)
            var f = flags & ~(SimpleAnim.started | SimpleAnim.finished)
            if inst.items[i].started { f |= SimpleAnim.started }
            if inst.items[i].finished { f |= SimpleAnim.finished }
            simpleAnims[j].flags = f
            simpleQuiet = false
        }
        let base = simpleAnims[j].presBase
        let c = Int(simpleAnims[j].count)
        let effect = s.hasEffect && !(s.phase == .after && flags & SimpleAnim.removedOnCompletion != 0)
        var v = SIMD4<Double>.zero
        if effect {
            let e = simpleEase(flags: flags, instance: simpleAnims[j].instance, cycleTime: s.cycleTime,
                               progress: s.progress)
            let from = simpleAnims[j].from
            v = lerp(from, simpleAnims[j].to, e)
            for k in 0..<c {
                v[k] = settled(v[k], nan: model[base &+ k])
                out[base &+ k] = v[k]
            }
        } else {
            for k in 0..<c {
                v[k] = model[base &+ k]
                out[base &+ k] = v[k]
            }
        }
        // The layer record is not touched: `animatesGeometry` tells the render
        // list this layer moves, and a pending presDirty is cleared by the lazy
        // path (`ensureAllPresentations` at the end of the tick).
        if !events && layers[l].presDirty { layers[l].presDirty = false }
        if flags & SimpleAnim.visual != 0 { simpleVisual(simpleAnims[j], j, v) }
    }
}
