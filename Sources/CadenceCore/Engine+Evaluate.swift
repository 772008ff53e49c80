/// Running state of one transform property while a layer's animations compose.
/// Three states: `pending` — the presentation block does not hold the
/// underlying matrix yet (the model's is copied only if something reads it as a
/// matrix, or at the end); `decomposed` — `comps` holds the virtual-key
/// decomposition (SEMANTICS.md §2.3) until it is recomposed; neither — the
/// presentation block holds the matrix.
struct TransformAccum {
    var decomposed = false
    var pending = false
    var comps = TransformComponents.identity
}

struct LayerAccum {
    var xf = TransformAccum()
    var sxf = TransformAccum()
}

extension Engine {
    // Literals rather than `static let`s initialised from `LayerProperty`: a lazily
    // initialised global costs a `swift_once` call at every use in the frame loop.
    // (`KeyPathTests` checks them against `LayerProperty`.)
    static var transformBase: Int { 10 }
    static var sublayerBase: Int { 26 }

    // MARK: layer

    /// Recomputes a layer's presentation at `now`: model values, then every
    /// attached animation in add order (SEMANTICS.md §5.2). With `events`, also
    /// reports starts and stops and queues finished animations for removal.
    func evaluateLayer(_ l: Int, events: Bool) {
        let si = Int(layers[l].simple)
        if si >= 0 {
            evaluateSimpleEntry(si, events: events)
            return
        }
        let tLayer = localTime(l, global: now)
        let mask = layers[l].animMask
        // Transforms are not copied here: most layers that animate one replace it
        // through its decomposition, so copying (and re-reading) 16 doubles would
        // be wasted. The accumulator remembers that the copy is pending.
        copyModelToPres(l, mask: mask & ~Engine.transformBits)
        // The accumulator is engine scratch (evaluation never nests), so its
        // large decomposition fields are not re-initialised per layer.
        accum.xf.decomposed = false
        accum.sxf.decomposed = false
        accum.xf.pending = mask & LayerProperty.transform.bit != 0
        accum.sxf.pending = mask & LayerProperty.sublayerTransform.bit != 0
        var i = layers[l].firstAnim
        while i >= 0 {
            let next = inst.items[Int(i)].next
            evaluateInstance(Int(i), layer: l, parentTime: tLayer, topLevel: true, events: events, acc: &accum)
            i = next
        }
        let base = l &* LayerProperty.stride
        // Final transforms, and their identity flags from the value just stored.
        // (Also when an instance decomposed a transform outside the mask: its
        // write must never be lost.)
        if mask & LayerProperty.transform.bit != 0 || accum.xf.decomposed {
            layers[l].presTransformIdentity = finishTransform(base &+ Engine.transformBase, &accum.xf)
        }
        if mask & LayerProperty.sublayerTransform.bit != 0 || accum.sxf.decomposed {
            layers[l].presSublayerIdentity = finishTransform(base &+ Engine.sublayerBase, &accum.sxf)
        }
        layers[l].presDirty = false
        if mask & LayerProperty.geometryMask != 0 || layers[l].transition >= 0 { layers[l].geomDirty = true }
        let visual = mask & (~LayerProperty.geometryMask | LayerProperty.bounds.bit)
        if visual != 0 { refreshVisualCache(l, mask: visual) }
    }

    /// Writes a transform's composed value to the presentation block at `o`
    /// (recomposed, copied from the model, or already there) and returns whether
    /// it is the identity.
    @inline(__always)
    func finishTransform(_ o: Int, _ xf: inout TransformAccum) -> Bool {
        if xf.decomposed {
            xf.decomposed = false
            let m = Transform3D(xf.comps)
            Engine.store(m, &pres, o)
            return m.isIdentity
        }
        if xf.pending {
            xf.pending = false
            let m = Engine.matrix(model, o)
            Engine.store(m, &pres, o)
            return m.isIdentity
        }
        return Engine.isIdentity(pres, o)
    }

    @inline(__always)
    func copyModelToPres(_ l: Int, mask: UInt32) {
        let base = l &* LayerProperty.stride
        var m = mask
        while m != 0 {
            let b = m.trailingZeroBitCount
            m &= m - 1
            if b == LayerProperty.contents.rawValue {
                presContents[l] = modelContents[l]
            } else {
                let r = Engine.propRange(b)
                let o = base &+ r.offset
                for k in 0..<r.count { pres[o &+ k] = model[o &+ k] }
            }
        }
    }

    /// (offset, count) of a property in the block by raw value, without a lookup table.
    @inline(__always)
    static func propRange(_ raw: Int) -> (offset: Int, count: Int) {
        switch raw {
        case 0: return (0, 2)       // position
        case 1: return (2, 1)       // zPosition
        case 2: return (3, 2)       // anchorPoint
        case 3: return (5, 1)       // anchorPointZ
        case 4: return (6, 4)       // bounds
        case 5: return (10, 16)     // transform
        case 6: return (26, 16)     // sublayerTransform
        case 7: return (42, 1)      // opacity
        case 8: return (43, 1)      // hidden
        case 9: return (44, 4)      // backgroundColor
        case 10: return (48, 4)     // borderColor
        case 11: return (52, 1)     // borderWidth
        case 12: return (53, 1)     // cornerRadius
        case 13: return (54, 4)     // shadowColor
        case 14: return (58, 1)     // shadowOpacity
        case 15: return (59, 2)     // shadowOffset
        case 16: return (61, 1)     // shadowRadius
        case 17: return (62, 4)     // contentsRect
        case 18: return (66, 1)     // masksToBounds
        case 19: return (67, 1)     // doubleSided
        default: return (0, 0)
        }
    }


    // MARK: one animation

    /// `held`: the instance is a child of a group whose progress is exactly 1
    /// (its end, held by a forwards fill; the turning point of autoreverses; a
    /// timing function that reaches 1 early): the children's parent time is the
    /// group's duration.
    func evaluateInstance(_ i: Int, layer l: Int, parentTime tp: Double, topLevel: Bool, events: Bool,
                          held: Bool = false, acc: inout LayerAccum) {
        // Fields are read in place (no copy of the instance record).
        let awaiting = inst.items[i].awaitingCommit
        var s = inst.items[i].timing.sampleInline(parentTime: awaiting ? inst.items[i].timing.beginTime : tp)
        if topLevel && events && !awaiting && (!inst.items[i].started || (s.phase == .after && !inst.items[i].finished)) {
            updateEvents(i, s, layer: l)
        }
        var effect = s.hasEffect
        if topLevel && s.phase == .after && inst.items[i].removedOnCompletion { effect = false }
        // A group at its end holds the children that end with it: a child whose
        // active duration ends where the group's time is (within the 1e-12
        // snap of cycle counts: 2/3 + 1/3 is the group's 1) shows its exact end
        // value whatever its fill mode (fill on the group alone keeps the final
        // state, as in Core Animation). A child that ended earlier keeps what
        // its own fill keeps.
        if held {
            let d = inst.items[i].timing.activeDuration
            if d.isFinite && abs(s.activeTime - d) <= 1e-12 * max(1, d) {
                s = inst.items[i].timing.endSample(activeTime: s.activeTime)
                effect = true
            }
        }
        let kind = inst.items[i].kind
        if kind == .transition {
            inst.transitions.update(i) { $0.visible = effect }
        }
        guard effect else { return }
        let e = inst.items[i].linearCurve ? s.progress : inst.curves[i].evaluate(s.progress)
        switch kind {
        case .basic:
            applyBasic(i, layer: l, progress: e, iteration: s.iteration, acc: &acc)
        case .spring:
            let sp = inst.springs[i]?.progress(at: s.cycleTime) ?? 1
            // §5.2: a completed cycle adds its end value minus its start, and a
            // spring's cycle ends where the oscillator is at time d, not at `to`.
            let cycleEnd = inst.items[i].cumulative && s.iteration >= 1
                ? inst.springs[i]?.progress(at: inst.items[i].timing.simpleDuration) ?? 1 : 1
            applyBasic(i, layer: l, progress: sp, iteration: s.iteration, cycleEnd: cycleEnd, acc: &acc)
        case .keyframe:
            applyKeyframe(i, layer: l, progress: e, iteration: s.iteration, acc: &acc)
        case .group:
            let childTime = e * inst.items[i].timing.simpleDuration
            var c = inst.items[i].firstChild
            while c >= 0 {
                let next = inst.items[Int(c)].next
                evaluateInstance(Int(c), layer: l, parentTime: childTime, topLevel: false, events: false,
                                 held: e == 1, acc: &acc)
                c = next
            }
        case .transition:
            inst.transitions.update(i) { $0.progress = $0.startProgress + ($0.endProgress - $0.startProgress) * e }
        }
    }

    /// Start and stop events (SEMANTICS.md §11).
    func updateEvents(_ i: Int, _ s: TimingSample, layer l: Int) {
        if inst.items[i].started && inst.items[i].finished { return }
        if inst.items[i].started && s.phase != .after { return }
        let it = inst.items[i]
        if !it.started && (s.activeTime >= 0 || it.timing.fillMode.fillsBackwards) {
            inst.items[i].started = true
            // A backwards fill starts the animation when it is added (§11 "at
            // once"), whether or not this tick also crosses its begin time.
            let t = it.timing.fillMode.fillsBackwards ? previousNow : startTime(i, layer: l)
            emit(.start, finished: false, instance: i, layer: l, time: t)
        }
        if !it.finished && s.phase == .after {
            if !inst.items[i].started {
                inst.items[i].started = true
                emit(.start, finished: false, instance: i, layer: l, time: startTime(i, layer: l))
            }
            inst.items[i].finished = true
            let t = it.timing.parentEndTime.map { eventTime(l, local: $0) } ?? now
            emit(.stop, finished: true, instance: i, layer: l, time: t)
            instanceStopped(i, time: t, finished: true)
            if it.removedOnCompletion { scratchRemove.append(Int32(i)) }
        }
    }

    /// Global time of an instance's begin: the time of the add (or commit) that
    /// resolved it, when mapping the local begin back lands within a rounding of
    /// it (the layer's timing has not changed since), else the mapped time.
    func startTime(_ i: Int, layer l: Int) -> Double {
        let g = eventTime(l, local: inst.items[i].timing.beginTime)
        let b = inst.beginGlobal[i]
        if abs(g - b) <= max(1e-9, 16 * b.ulp), b >= previousNow, b <= now { return b }
        return g
    }

    /// Global time of a layer-local instant, clamped into the last tick interval.
    func eventTime(_ l: Int, local t: Double) -> Double {
        let g = layers[l].timeIdentity ? t : (globalTime(l, local: t) ?? now)
        if !(g >= previousNow) { return previousNow }
        if g > now { return now }
        return g
    }

    // MARK: reading and writing the composed value

    /// Makes the presentation block hold the running value of the transform at
    /// `tb` (before an animation reads or writes it as a matrix).
    @inline(__always)
    func flushTransform(_ l: Int, _ tb: Int, _ acc: inout LayerAccum) {
        let o = l &* LayerProperty.stride &+ tb
        if tb == Engine.transformBase {
            Engine.flush(&acc.xf, model, &pres, o)
        } else {
            Engine.flush(&acc.sxf, model, &pres, o)
        }
    }

    @inline(__always)
    static func flush(_ xf: inout TransformAccum, _ model: [Double], _ pres: inout [Double], _ o: Int) {
        if xf.decomposed {
            Engine.store(Transform3D(xf.comps), &pres, o)
            xf.decomposed = false
        } else if xf.pending {
            Engine.store(Engine.matrix(model, o), &pres, o)
            xf.pending = false
        }
    }

    /// Makes `comps` hold the decomposition of the running value of the transform at `tb`.
    @inline(__always)
    func decomposeTransform(_ l: Int, _ tb: Int, _ acc: inout LayerAccum) {
        let o = l &* LayerProperty.stride &+ tb
        // (Branches rather than `pending ? model : pres`, which would copy an array.)
        // A pending identity model (the common case) decomposes to the identity
        // components, as `decompose` gives for any `isIdentity` matrix, without
        // reading the block (the flag is kept by `writeModel`).
        if tb == Engine.transformBase {
            if !acc.xf.decomposed {
                if acc.xf.pending {
                    if layers[l].modelTransformIdentity { Engine.decomposedIdentity(&acc.xf) } else { Engine.decompose(&acc.xf, model, o) }
                } else {
                    Engine.decompose(&acc.xf, pres, o)
                }
            }
        } else if !acc.sxf.decomposed {
            if acc.sxf.pending {
                if layers[l].modelSublayerIdentity { Engine.decomposedIdentity(&acc.sxf) } else { Engine.decompose(&acc.sxf, model, o) }
            } else {
                Engine.decompose(&acc.sxf, pres, o)
            }
        }
    }

    @inline(__always)
    static func decomposedIdentity(_ xf: inout TransformAccum) {
        xf.comps = TransformComponents()
        xf.decomposed = true
        xf.pending = false
    }

    @inline(__always)
    static func decompose(_ xf: inout TransformAccum, _ block: [Double], _ o: Int) {
        let m = Engine.matrix(block, o)
        xf.comps = m.isIdentity ? TransformComponents() : m.components
        xf.decomposed = true
        xf.pending = false
    }

    /// The underlying value at an animation's target (§5.1): the model composed
    /// with the animations before it.
    @inline(__always)
    func underlying(_ l: Int, _ access: KeyPathAccess, _ n: Int, _ acc: inout LayerAccum) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        let base = l * LayerProperty.stride
        switch access {
        case let .block(off, c):
            if off >= Engine.transformBase && off < Engine.sublayerBase + 16 {
                flushTransform(l, off < Engine.sublayerBase ? Engine.transformBase : Engine.sublayerBase, &acc)
            }
            for k in 0..<c { v[k] = pres[base + off + k] }
        case let .virtual(tb, comp):
            decomposeTransform(l, tb, &acc)
            comp.read(tb == Engine.transformBase ? acc.xf.comps : acc.sxf.comps, into: &v)
        case .contents:
            v[0] = Double(presContents[l])
        default:
            break
        }
        return v
    }

    /// Writes a composed value; non-finite components never reach the
    /// presentation (NaN keeps the underlying component, ±inf saturates).
    @inline(__always)
    func writeComposed(_ l: Int, _ access: KeyPathAccess, _ value: ValueBuffer, underlying u: ValueBuffer, _ acc: inout LayerAccum) {
        var v = value
        for k in 0..<v.count where !v[k].isFinite { v[k] = settled(v[k], nan: u[k]) }
        let base = l * LayerProperty.stride
        switch access {
        case let .block(off, c):
            for k in 0..<c { pres[base + off + k] = v[k] }
        case let .virtual(tb, comp):
            if tb == Engine.transformBase {
                comp.write(v, into: &acc.xf.comps, additive: false)
            } else {
                comp.write(v, into: &acc.sxf.comps, additive: false)
            }
        case .contents:
            let x = v[0]
            presContents[l] = x >= 18446744073709551615.0 ? UInt64.max : (x > 0 ? UInt64(x) : 0)
        default:
            break
        }
    }

    // MARK: arithmetic of values (§2.3: transforms add by concatenation)

    @inline(__always)
    static func add(_ a: ValueBuffer, _ b: ValueBuffer, _ interp: KeyPathTarget.Interpolation) -> ValueBuffer {
        switch interp {
        case .matrix:
            // (Products of matrices saturate, see `scaled`.)
            return ValueBuffer(transform: Engine.product(a.transform, b.transform))
        case .hidden, .discreteBool:
            var r = a
            r[0] = (a[0] != 0 || b[0] != 0) ? 1 : 0
            return r
        case .id:
            return b
        case .linear:
            var r = a
            r.storage = a.storage + b.storage
            return r
        }
    }

    /// `a * b`, saturated (`Transform3D.saturated`): the value arithmetic's
    /// matrix products (additive, cumulative, from + by, to − by). Out of line:
    /// inlined into the evaluator's large functions it changed what else the
    /// optimizer inlined there.
    @inline(never)
    static func product(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
        (a * b).saturated
    }

    /// `a - b` with `(a - b) + b = a` (for `to - by`). Transforms: `a * b⁻¹`.
    @inline(__always)
    static func subtract(_ a: ValueBuffer, _ b: ValueBuffer, _ interp: KeyPathTarget.Interpolation) -> ValueBuffer {
        switch interp {
        case .matrix:
            guard let inv = b.transform.inverted else { return a }
            return ValueBuffer(transform: Engine.product(a.transform, inv))
        case .linear:
            var r = a
            r.storage = a.storage - b.storage
            return r
        default:
            return a
        }
    }

    /// The change from `a` to `b`: `d` with `a + d = b` (a cycle's end minus its
    /// start, for cumulative animations). Transforms: `a⁻¹ * b`.
    @inline(__always)
    static func delta(from a: ValueBuffer, to b: ValueBuffer, _ interp: KeyPathTarget.Interpolation) -> ValueBuffer {
        switch interp {
        case .matrix:
            guard let inv = a.transform.inverted else { return ValueBuffer(transform: .identity) }
            return ValueBuffer(transform: Engine.product(inv, b.transform))
        case .linear:
            var r = b
            r.storage = b.storage - a.storage
            return r
        default:
            return ValueBuffer(count: a.count)
        }
    }

    /// `start + (end - start) * e` for the value kind.
    @inline(__always)
    func interpolate(_ i: Int, _ a: ValueBuffer, _ b: ValueBuffer, _ e: Double, _ interp: KeyPathTarget.Interpolation, fixedEnds: Bool) -> ValueBuffer {
        switch interp {
        case .linear:
            if e == 1 { return b }      // the end value exactly (see `lerp`)
            var r = a
            let d = b.storage - a.storage
            r.storage = a.storage + d * e
            return r
        case .matrix:
            // The end matrices exactly, not recomposed from their decompositions.
            if e == 1 { return b }
            if e == 0 { return a }
            if fixedEnds {
                if let ends = inst.matrixEnds[i], let fa = ends.fromDecomp, let fb = ends.toDecomp {
                    return ValueBuffer(transform: Transform3D.interpolate(fa, fb, e))
                }
                return e < 0.5 ? a : b
            }
            return ValueBuffer(transform: a.transform.interpolated(to: b.transform, progress: e))
        case .hidden:
            let x = a[0] != 0, y = b[0] != 0
            var r = a
            if x == y { return r }
            // The layer stays visible for the whole animation.
            if !x { r[0] = e >= 1 ? 1 : 0 } else { r[0] = e > 0 ? 0 : 1 }
            return r
        case .discreteBool, .id:
            return e >= 1 ? b : a
        }
    }

    /// Whether cumulative animations of the kind add up their cycles (§5.2):
    /// numbers and matrices. Ids and booleans have no "end minus start": their
    /// cycles repeat in place.
    @inline(__always)
    static func accumulates(_ interp: KeyPathTarget.Interpolation) -> Bool {
        interp == .linear || interp == .matrix
    }

    /// `delta` added `n` times (cumulative animations, §5.2).
    static func scaled(_ delta: ValueBuffer, _ n: Double, _ interp: KeyPathTarget.Interpolation) -> ValueBuffer {
        switch interp {
        case .linear:
            var r = delta
            r.storage = delta.storage * n
            return r
        case .matrix:
            // delta^n by repeated squaring (n is a whole number of cycles).
            // Every product saturates (`Transform3D.saturated`): an element
            // that overflowed stays ±DBL_MAX through the next products
            // instead of making NaN of the zeros it meets (inf·0).
            var result = Transform3D.identity
            var base = delta.transform.saturated
            var k = n
            var guardSteps = 0
            while k >= 1 && guardSteps < 64 {
                let half = (k / 2).rounded(.down)
                if k - 2 * half >= 1 { result = Engine.product(result, base) }
                base = Engine.product(base, base)
                k = half
                guardSteps += 1
            }
            return ValueBuffer(transform: result)
        default:
            return ValueBuffer(count: delta.count)
        }
    }

    // MARK: basic and spring

    @inline(__always)
    /// `cycleEnd`: the progress at which a cycle ends (1, or a spring's
    /// progress at its duration), for the cumulative term.
    func applyBasic(_ i: Int, layer l: Int, progress e: Double, iteration: Double, cycleEnd: Double = 1,
                    acc: inout LayerAccum) {
        // Fast path: from/to on plain components (position, opacity, colours...).
        if inst.items[i].mode == .fromTo && inst.items[i].interp == .linear && !inst.items[i].additive && !inst.items[i].cumulative,
           case let .block(off, c) = inst.items[i].access,
           off < Engine.transformBase || off >= Engine.sublayerBase + 16 {
            let base = l * LayerProperty.stride + off
            let vb = inst.vbase(i)
            for k in 0..<c {
                let a = inst.values[vb + k]
                let b = inst.values[vb + c + k]
                let v = lerp(a, b, e)
                // b − a overflowed: inf·0 at e = 0 is the start (`basicOverflowed`
                // for from/to); NaN otherwise (NaN progress) keeps the underlying value.
                if !v.isNaN { pres[base + k] = settled(v, nan: v) } else if e == 0 { pres[base + k] = a }
            }
            return
        }
        // Fast path: from/to on one virtual transform component (rotation.z,
        // scale, ...): the same arithmetic as `applyBasicSmall` in one lane.
        if inst.items[i].mode == .fromTo && inst.items[i].interp == .linear && !inst.items[i].additive
            && !inst.items[i].cumulative && inst.items[i].components == 1,
           case let .virtual(tb, comp) = inst.items[i].access {
            decomposeTransform(l, tb, &acc)
            let vb = inst.vbase(i)
            let a = inst.values[vb], b = inst.values[vb &+ 1]
            if tb == Engine.transformBase {
                Engine.writeLerp(a, b, e, comp, &acc.xf.comps)
            } else {
                Engine.writeLerp(a, b, e, comp, &acc.sxf.comps)
            }
            return
        }
        if inst.items[i].interp == .linear && inst.items[i].components <= 4 {
            applyBasicSmall(i, layer: l, progress: e, iteration: iteration, cycleEnd: cycleEnd, acc: &acc)
            return
        }
        let it = inst.items[i]
        let n = Int(it.components)
        let interp = it.interp
        let u = underlying(l, it.access, n, &acc)
        let start: ValueBuffer
        let end: ValueBuffer
        switch it.mode {
        case .fromTo:
            start = inst.value(i, 0, n); end = inst.value(i, 1, n)
        case .fromBy:
            start = inst.value(i, 0, n); end = Engine.add(start, inst.value(i, 2, n), interp)
        case .byTo:
            end = inst.value(i, 1, n); start = Engine.subtract(end, inst.value(i, 2, n), interp)
        case .fromOnly:
            start = inst.value(i, 0, n); end = u
        case .toOnly:
            start = u; end = inst.value(i, 1, n)
        case .byOnly:
            start = u; end = Engine.add(u, inst.value(i, 2, n), interp)
        case .none:
            start = inst.value(i, 0, n); end = u
        }
        var v = interpolate(i, start, end, e, interp, fixedEnds: it.mode == .fromTo && inst.matrixEnds.has(i))
        if it.cumulative && iteration >= 1 && Engine.accumulates(interp) {
            let cycleEndValue = cycleEnd == 1 ? end
                : interpolate(i, start, end, cycleEnd, interp, fixedEnds: it.mode == .fromTo && inst.matrixEnds.has(i))
            let delta = Engine.delta(from: start, to: cycleEndValue, interp)
            // v + delta * i; for transforms v * delta^i, continuous at each cycle's end.
            v = Engine.add(v, Engine.scaled(delta, iteration, interp), interp)
        }
        if it.additive { v = Engine.add(u, v, interp) }
        writeComposed(l, it.access, v, underlying: u, &acc)
    }

    /// `applyBasic` for up to four linearly interpolated components, in SIMD4.
    @inline(__always)
    func applyBasicSmall(_ i: Int, layer l: Int, progress e: Double, iteration: Double, cycleEnd: Double = 1,
                         acc: inout LayerAccum) {
        let n = Int(inst.items[i].components)
        let access = inst.items[i].access
        let u = underlying4(l, access, n, &acc)
        let vb = inst.vbase(i)
        @inline(__always) func load(_ which: Int) -> SIMD4<Double> {
            var r = SIMD4<Double>.zero
            let o = vb &+ which &* n
            for k in 0..<n { r[k] = inst.values[o &+ k] }
            return r
        }
        let start: SIMD4<Double>
        let end: SIMD4<Double>
        switch inst.items[i].mode {
        case .fromTo: start = load(0); end = load(1)
        case .fromBy: start = load(0); end = start + load(2)
        case .byTo: end = load(1); start = end - load(2)
        case .fromOnly: start = load(0); end = u
        case .toOnly: start = u; end = load(1)
        case .byOnly: start = u; end = u + load(2)
        case .none: start = load(0); end = u
        }
        var v = lerp(start, end, e)
        let cumulative = inst.items[i].cumulative && iteration >= 1
        if cumulative {
            v += cycleEnd == 1 ? (end - start) * iteration : (lerp(start, end, cycleEnd) - start) * iteration
        }
        let additive = inst.items[i].additive
        if additive { v += u }
        // A non-finite lane (an endpoint or end − start overflowed, or the
        // result did) is recomputed from the endpoints, out of line. (Unused
        // lanes are 0.)
        if !allFinite(v) {
            v = Engine.basicOverflowed4(v, start, end, e, n, cycles: cumulative ? iteration : 0, cycleEnd: cycleEnd,
                                        additive: additive, u)
        }
        write4(l, access, v, underlying: u, n, &acc)
    }

    /// `applyBasicSmall`'s value with its non-finite lanes recomputed by
    /// `basicOverflowed` (plus the underlying value when additive); ±inf is
    /// left to `write4` to saturate.
    @inline(never)
    static func basicOverflowed4(_ value: SIMD4<Double>, _ start: SIMD4<Double>, _ end: SIMD4<Double>, _ e: Double,
                                 _ n: Int, cycles: Double, cycleEnd: Double, additive: Bool,
                                 _ u: SIMD4<Double>) -> SIMD4<Double> {
        var v = value
        for k in 0..<min(n, 4) where !v[k].isFinite {
            v[k] = basicOverflowed(start[k], end[k], e, cycles: cycles, cycleEnd: cycleEnd)
            if additive { v[k] += u[k] }
        }
        return v
    }

    /// `write4` of one component, `lerp(a, b, e)`: a non-finite value is
    /// recomputed by `basicOverflowed` (start at e = 0 when b − a overflows)
    /// and saturates; NaN (NaN progress only) keeps the underlying value (written
    /// back, as `write4` does: for `scale` that sets all three scales to their mean).
    @inline(__always)
    static func writeLerp(_ a: Double, _ b: Double, _ e: Double, _ comp: VirtualComponent, _ c: inout TransformComponents) {
        var v = lerp(a, b, e)
        // (`basicOverflowed` for from/to: inf·0 at e = 0 is the start.)
        if !v.isFinite { v = settled(v.isNaN && e == 0 ? a : v, nan: comp.read4(c).x) }
        comp.write4(SIMD4(v, 0, 0, 0), into: &c)
    }

    /// Writes the first `n` (≤ 4) lanes of `v` over `block[o ..< o + n]`: a NaN lane
    /// keeps the value there, ±inf saturates (as `write4` on a block).
    @inline(__always)
    static func writeReplacing(_ v: SIMD4<Double>, _ n: Int, _ block: inout [Double], _ o: Int) {
        var s = block.mutableSpan
        for k in 0..<min(n, 4) {
            let x = v[k]
            if !x.isNaN { s[o &+ k] = settled(x, nan: x) }
        }
    }

    @inline(__always)
    func underlying4(_ l: Int, _ access: KeyPathAccess, _ n: Int, _ acc: inout LayerAccum) -> SIMD4<Double> {
        var v = SIMD4<Double>.zero
        switch access {
        case let .block(off, c):
            if off >= Engine.transformBase && off < Engine.sublayerBase + 16 {
                flushTransform(l, off < Engine.sublayerBase ? Engine.transformBase : Engine.sublayerBase, &acc)
            }
            let b = l &* LayerProperty.stride &+ off
            for k in 0..<min(c, 4) { v[k] = pres[b &+ k] }
        case let .virtual(tb, comp):
            decomposeTransform(l, tb, &acc)
            v = comp.read4(tb == Engine.transformBase ? acc.xf.comps : acc.sxf.comps)
        default:
            break
        }
        return v
    }

    @inline(__always)
    func write4(_ l: Int, _ access: KeyPathAccess, _ value: SIMD4<Double>, underlying u: SIMD4<Double>, _ n: Int, _ acc: inout LayerAccum) {
        var v = value
        for k in 0..<n where !v[k].isFinite { v[k] = settled(v[k], nan: u[k]) }
        switch access {
        case let .block(off, c):
            let b = l &* LayerProperty.stride &+ off
            for k in 0..<min(c, 4) { pres[b &+ k] = v[k] }
        case let .virtual(tb, comp):
            if tb == Engine.transformBase {
                comp.write4(v, into: &acc.xf.comps)
            } else {
                comp.write4(v, into: &acc.sxf.comps)
            }
        default:
            break
        }
    }

    // MARK: keyframes and paths

    func applyKeyframe(_ i: Int, layer l: Int, progress e: Double, iteration: Double, acc: inout LayerAccum) {
        // Fast path: values (no path) of up to four linearly interpolated
        // components, in SIMD4 — the same arithmetic as below without buffers.
        // (Called on the array element in place: binding the runtime object to a
        // local first would retain and release it.)
        let n = Int(inst.items[i].components)
        let hint = Int(inst.items[i].kfSegment)
        var seg = hint
        let cumulative = inst.items[i].cumulative
        var fast: SIMD4<Double>? = nil
        if inst.items[i].interp == .linear && n <= 4 {
            if inst.items[i].kfCount != 0 {
                fast = flatKeyframe4(i, progress: e, components: n, cumulative: cumulative,
                                     iteration: iteration, segmentHint: &seg)
            }
            if fast == nil {
                fast = inst.keyframes[i]?.value4(progress: e, components: n, cumulative: cumulative,
                                                 iteration: iteration, segmentHint: &seg)
            }
        }
        if var v = fast {
            if seg != hint { inst.items[i].kfSegment = Int32(truncatingIfNeeded: seg) }
            let access = inst.items[i].access
            let additive = inst.items[i].additive
            // Plain components outside the transforms (position, colours, ...),
            // replaced: the underlying value matters only where v is not finite,
            // and there it is what the block already holds (`write4` keeps it).
            if !additive, case let .block(off, c) = access, c == n,
               off < Engine.transformBase || off >= Engine.sublayerBase + 16 {
                Engine.writeReplacing(v, n, &pres, l &* LayerProperty.stride &+ off)
                return
            }
            let u = underlying4(l, access, n, &acc)
            if additive { v += u }
            write4(l, access, v, underlying: u, n, &acc)
            return
        }
        guard let kf = inst.keyframes[i] else { return }
        let it = inst.items[i]
        let interp = it.interp
        let u = underlying(l, it.access, n, &acc)
        var v = ValueBuffer(count: n)
        var angle = 0.0
        if let path = kf.path {
            let p = path.sample(e, segmentCurves: kf.segmentCurves)
            v[0] = p.x
            v[1] = p.y
            angle = p.angle
            if it.cumulative && iteration >= 1 {
                let a = path.sample(0), b = path.sample(1)
                v[0] += iteration * (b.x - a.x)
                v[1] += iteration * (b.y - a.y)
            }
        } else {
            let loc = kf.track.locate(e)
            var local = loc.local
            let j = loc.segment
            // (Outside [0, 1] — an overshooting timing function — the end
            // segment extrapolates linearly; its own timing function covers [0, 1].)
            if j < kf.segmentCurves.count && kf.track.usesSegmentTiming && local >= 0 && local <= 1 {
                local = kf.segmentCurves[j].evaluate(local)
            }
            let count = kf.track.count
            switch interp {
            case .linear:
                // A local buffer (swapped with the engine's scratch, no allocation).
                var buf: [Double] = []
                swap(&buf, &scratchKF)
                kf.track.value(segment: j, local: local, into: &buf, at: 0)
                for k in 0..<n { v[k] = buf[k] }
                swap(&buf, &scratchKF)
            case .matrix:
                if kf.discrete || j + 1 >= count {
                    v = kf.value(min(j, count - 1), n)
                } else if local == 0 || local == 1 {
                    // The key matrices themselves at their key times and at the
                    // end (§7), not recomposed from their decompositions (which
                    // normalise m44 and round).
                    v = kf.value(local == 0 ? j : j + 1, n)
                } else if let a = kf.keyDecomp[j], let b = kf.keyDecomp[j + 1] {
                    v = ValueBuffer(transform: Transform3D.interpolate(a, b, local))
                } else {
                    v = kf.value(local < 0.5 ? j : j + 1, n)
                }
            case .hidden, .discreteBool, .id:
                let a = kf.value(min(j, count - 1), n)
                let b = j + 1 < count && !kf.discrete ? kf.value(j + 1, n) : a
                v = interpolate(i, a, b, local, interp, fixedEnds: false)
            }
            if it.cumulative && iteration >= 1 && count > 1 && Engine.accumulates(interp) {
                let delta = Engine.delta(from: kf.value(kf.track.cycleStartKey, n), to: kf.value(count - 1, n), interp)
                v = Engine.add(v, Engine.scaled(delta, iteration, interp), interp)
            }
        }
        if it.additive { v = Engine.add(u, v, interp) }
        writeComposed(l, it.access, v, underlying: u, &acc)
        let mode = kf.rotationMode
        if mode != .none {
            decomposeTransform(l, Engine.transformBase, &acc)
            acc.xf.comps.rotation.z += mode == .autoReverse ? angle + Double.pi : angle
        }
    }

    /// `KeyframeRuntime.value4` from the flat copy in the value slots
    /// (`InstanceStore.setFlatKeyframes`) when the previous frame's segment or
    /// the next holds `e`; nil otherwise (then the runtime object answers).
    /// The same shared arithmetic (`KeyframeTrack.locateNear`, `value4`), so the
    /// same bits.
    @inline(always)
    func flatKeyframe4(_ i: Int, progress e: Double, components n: Int, cumulative: Bool, iteration: Double,
                       segmentHint: inout Int) -> SIMD4<Double>? {
        let vb = inst.vbase(i)
        let count = Int(inst.items[i].kfCount)
        guard let loc = KeyframeTrack.locateNear(e, count: count, hint: &segmentHint,
                                                 time: { inst.values[vb &+ $0] }) else { return nil }
        let vo = vb &+ count
        let to = vo &+ count &* n
        let v = KeyframeTrack.value4(segment: loc.segment, local: loc.local, count: count, components: n,
                                     cubic: inst.items[i].kfCubic,
                                     value: { inst.values[vo &+ $0] }, tangent: { inst.values[to &+ $0] })
        return KeyframeTrack.cumulated(v, count: count, components: n, cumulative: cumulative, iteration: iteration,
                                       startKey: 0,   // flat copies are made only of tracks whose cycle starts at key 0
                                       available: count &* n) { inst.values[vo &+ $0] }
    }

    // MARK: tick

    /// Advances the engine to `t` (SEMANTICS.md §3, §11): every animated layer is
    /// evaluated, finished animations report and are removed, and events are
    /// queued in order.
    public func tick(_ t: Double) throws(CadenceError) {
        guard t.isFinite else { throw .invalidArgument("now must be a finite number of seconds (got \(t))") }
        guard t >= now else { throw .invalidArgument("now (\(t)) must not be earlier than the previous tick's now (\(now))") }
        previousNow = now
        now = t
        tickCount &+= 1
        scratchRemove.removeAll(keepingCapacity: true)
        // Plain from/to animations: one tight pass over a flat array (or, for
        // a quiet track, deferred to the first read: `tickSimpleTrack`).
        tickSimpleTrack()
        if timeOnlyDirty { clearTimeOnlyDirty() }
        // Everything else, layer by layer in add order (programs first when
        // some layers have one: LayerProgram.swift).
        if allowPrograms && programLiveWords > 0 {
            evaluateAnimatedLayers()
        } else {
            var k = 0
            while k < animatedLayers.count {
                evaluateLayer(Int(animatedLayers[k]), events: true)
                k += 1
            }
        }
        // Finished animations, once per layer after the last of its run (a
        // layer's are next to each other: layers are evaluated one by one).
        // One at a time, each removal walked the layer's remaining list: a
        // layer with k animations ending together cost O(k²).
        var k = 0
        while k < scratchRemove.count {
            let i = Int(scratchRemove[k])
            k &+= 1
            guard inst.items[i].alive && inst.items[i].group < 0 else { continue }
            let l = Int(inst.items[i].layer)
            let oldMask = layers[l].animMask
            removeInstance(i, reason: .finished, membership: false, recomputeMask: false)
            while k < scratchRemove.count {
                let j = Int(scratchRemove[k])
                guard inst.items[j].alive, inst.items[j].group < 0, Int(inst.items[j].layer) == l else { break }
                removeInstance(j, reason: .finished, membership: false, recomputeMask: false)
                k &+= 1
            }
            afterRemovals(l, oldMask: oldMask)
        }
        ensureDirtyPresentations()
        for x in newLayers where Int(x) < layers.count { layerCold[Int(x)].isNew = false }
        newLayers.removeAll(keepingCapacity: true)
        events.deliver()
    }
}
