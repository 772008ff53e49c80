/// A flat copy of a layer's only animation when it is "simple": a basic or
/// spring from/to animation on up to four ordinary components (position,
/// opacity, a colour, bounds...), at the top level, not waiting for a commit.
/// The tick evaluates these in one pass over a contiguous array — the hot path
/// of large scenes — instead of walking layer and animation records.
struct SimpleAnim {
    var timing: ResolvedTiming
    var from: SIMD4<Double>
    var to: SIMD4<Double>
    /// Index of the first component in the presentation block array.
    var presBase: Int
    var layer: Int32
    var instance: Int32
    var propBit: UInt32
    var count: UInt8
    var flags: UInt8

    static let linearCurve: UInt8 = 1
    static let spring: UInt8 = 2
    static let geometry: UInt8 = 4
    static let started: UInt8 = 8
    static let finished: UInt8 = 16
    static let removedOnCompletion: UInt8 = 32
    static let visual: UInt8 = 64
    /// One cycle, no offset, no autoreverse: progress is (tp - begin) * speed / d.
    static let singleCycle: UInt8 = 128
}

extension Engine {
    /// Puts a layer in the right evaluation list: the simple track, the general
    /// list of animated layers, or neither. Called whenever its animations change.
    func updateMembership(_ l: Int) {
        let wantSimple = simpleInstance(l)
        if let i = wantSimple {
            removeFromAnimatedLayers(l)
            let entry = makeSimpleEntry(l, i)
            if layers[l].simple >= 0 {
                simpleAnims[Int(layers[l].simple)] = entry
            } else {
                layers[l].simple = Int32(simpleAnims.count)
                simpleAnims.append(entry)
            }
        } else {
            removeFromSimpleTrack(l)
            if layers[l].animCount > 0 {
                if layers[l].animatedSlot < 0 {
                    layers[l].animatedSlot = Int32(animatedLayers.count)
                    animatedLayers.append(Int32(l))
                }
            } else {
                removeFromAnimatedLayers(l)
            }
        }
    }

    func removeFromAnimatedLayers(_ l: Int) {
        let slot = Int(layers[l].animatedSlot)
        guard slot >= 0 else { return }
        let lastLayer = animatedLayers.removeLast()
        if slot < animatedLayers.count {
            animatedLayers[slot] = lastLayer
            layers[Int(lastLayer)].animatedSlot = Int32(slot)
        }
        layers[l].animatedSlot = -1
    }

    func removeFromSimpleTrack(_ l: Int) {
        let slot = Int(layers[l].simple)
        guard slot >= 0 else { return }
        let last = simpleAnims.removeLast()
        if slot < simpleAnims.count {
            simpleAnims[slot] = last
            layers[Int(last.layer)].simple = Int32(slot)
        }
        layers[l].simple = -1
    }

    /// The layer's only animation if it qualifies for the simple track.
    func simpleInstance(_ l: Int) -> Int? {
        guard layers[l].animCount == 1, layers[l].firstAnim >= 0 else { return nil }
        let i = Int(layers[l].firstAnim)
        let it = inst.items[i]
        guard it.kind == .basic || it.kind == .spring, it.mode == .fromTo, it.interp == .linear,
              !it.additive, !it.cumulative, it.group < 0, it.prop >= 0, !it.awaitingCommit else { return nil }
        guard case let .block(off, c) = it.access, c <= 4,
              off < Engine.transformBase || off >= Engine.sublayerBase + 16 else { return nil }
        return i
    }

    func makeSimpleEntry(_ l: Int, _ i: Int) -> SimpleAnim {
        let it = inst.items[i]
        var off = 0, c = 0
        if case let .block(o, n) = it.access { off = o; c = n }
        var from = SIMD4<Double>.zero, to = SIMD4<Double>.zero
        let vb = i * InstanceStore.valueStride
        for k in 0..<c {
            from[k] = inst.values[vb + k]
            to[k] = inst.values[vb + c + k]
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
        if t.timeOffset == 0 && !t.autoreverses && t.activeDuration == t.simpleDuration && t.activeDuration.isFinite {
            flags |= SimpleAnim.singleCycle
        }
        return SimpleAnim(timing: it.timing, from: from, to: to, presBase: l * LayerProperty.stride + off,
                          layer: Int32(l), instance: Int32(i), propBit: bit, count: UInt8(c), flags: flags)
    }

    /// Evaluates one simple-track entry at `now` (the tick's hot loop).
    @inline(__always)
    func evaluateSimpleEntry(_ j: Int, events: Bool) {
        let l = Int(simpleAnims[j].layer)
        let tp = layers[l].timeIdentity ? now : localTime(l, global: now)
        let flags = simpleAnims[j].flags
        let s: TimingSample
        if flags & SimpleAnim.singleCycle != 0 {
            // §3.3 for one plain cycle, without the general bookkeeping.
            let tm = simpleAnims[j].timing
            let a = (tp - tm.beginTime) * tm.speed
            if a >= 0 && a < tm.activeDuration {
                s = TimingSample(phase: .active, hasEffect: true, activeTime: a, iteration: 0, cycleTime: a,
                                 progress: min(a / tm.simpleDuration, 1))
            } else {
                s = tm.sample(parentTime: tp)
            }
        } else {
            s = simpleAnims[j].timing.sample(parentTime: tp)
        }
        if events && (flags & SimpleAnim.started == 0 || (s.phase == .after && flags & SimpleAnim.finished == 0)) {
            let i = Int(simpleAnims[j].instance)
            updateEvents(i, s, layer: l)
            var f = flags & ~(SimpleAnim.started | SimpleAnim.finished)
            if inst.items[i].started { f |= SimpleAnim.started }
            if inst.items[i].finished { f |= SimpleAnim.finished }
            simpleAnims[j].flags = f
        }
        let base = simpleAnims[j].presBase
        let c = Int(simpleAnims[j].count)
        let effect = s.hasEffect && !(s.phase == .after && flags & SimpleAnim.removedOnCompletion != 0)
        if effect {
            let e: Double
            if flags & SimpleAnim.spring != 0 {
                e = inst.extras[Int(simpleAnims[j].instance)].spring?.progress(at: s.cycleTime) ?? 1
            } else if flags & SimpleAnim.linearCurve != 0 {
                e = s.progress
            } else {
                e = inst.curves[Int(simpleAnims[j].instance)].evaluate(s.progress)
            }
            let a = simpleAnims[j].from
            let v = a + (simpleAnims[j].to - a) * e
            for k in 0..<c {
                let x = v[k]
                pres[base &+ k] = x.isFinite ? x : (x.isNaN ? model[base &+ k] : (x > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude))
            }
        } else {
            for k in 0..<c { pres[base &+ k] = model[base &+ k] }
        }
        if layers[l].presDirty { layers[l].presDirty = false }
        if flags & SimpleAnim.geometry != 0 { layers[l].geomDirty = true }
        if flags & SimpleAnim.visual != 0 { refreshVisualCache(l, mask: simpleAnims[j].propBit) }
    }
}
