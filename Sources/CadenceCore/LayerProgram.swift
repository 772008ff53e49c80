/// Layer programs: a layer's animations compiled into one flat run of doubles.
///
/// A layer with several animations (scene B's keyframe + spring + group of
/// rotation and scale) is evaluated by the general code instance by instance:
/// five 160-byte instance records, five 512-byte value slots, the enum
/// dispatch of `evaluateInstance`, the general timing sampler with its fill
/// modes. When every animation of the layer is of a plain form (listed in
/// `appendLeaf`), `updateMembership` copies what the frame loop needs — each
/// animation's resolved timing, its endpoints or keyframes, where it writes —
/// into a contiguous region of `programCode`, and the tick runs that region
/// (`runProgram`) instead: one stream of doubles per layer, read in order.
///
/// A program covers only the steady state: every animation inside its active
/// interval, every top-level animation's start already reported, no group
/// holding its children at its end. Any other frame (and a keyframe that has
/// no flat copy) hands the layer to the general code (`evaluateLayer`), which
/// also reports events; the program's copy of the start flags is refreshed
/// after it. The arithmetic is the general code's own (`activeSample`, the
/// timing curves, `Spring.progress`, `KeyframeTrack.value4`, `writeLerp`,
/// `Transform3D(components)`), so the values are the same bits
/// (`LayerProgramTests` compares both paths byte for byte).
///
/// Layout of a program (every word a Double; headers are bit patterns):
///
///     [layer header: top-level op count (bits 0-15), length (16-47), has transform ops (48)]
///     op*: [op header][begin, speed, timeOffset, duration, cycle, activeDuration][payload]
///
/// Op header: kind (bits 0-7), components or child count (8-15), block
/// offset or `VirtualComponent` raw value (16-23), flags (24-31), keyframe
/// count (32-39), instance slot (40-63). Payloads: from and to (block and
/// virtual ops); the segment hint then the flat keyframes (`flatLayout`:
/// times, values, tangents) of a keyframe op; none for a group, whose
/// children follow it.
/// What the ops need of a timing sample (`Engine.programSample`).
struct ProgramSample {
    var progress: Double
    var cycleTime: Double
    var iteration: Double
}

enum ProgramOp {
    static let basicBlock: UInt64 = 1
    static let springBlock: UInt64 = 2
    static let keyframe: UInt64 = 3
    static let basicVirtual: UInt64 = 4
    static let springVirtual: UInt64 = 5
    static let group: UInt64 = 6
    // flags (bits 24-31); autoreverses and wraps are `SimpleAnim`'s flags2 bits
    static let linearCurve: UInt64 = 1
    static let autoreverses: UInt64 = 2
    static let wraps: UInt64 = 4
    static let started: UInt64 = 8
    static let cubic: UInt64 = 16
    /// Words before an op's payload: the header and six timing fields.
    static var headWords: Int { 7 }
    static var maxInstance: Int { 1 << 24 }
    /// Layers with more top-level animations (or groups with more children) have no program.
    static var maxAnimations: Int32 { 16 }

    @inline(__always) static func kind(_ h: UInt64) -> UInt64 { h & 0xFF }
    @inline(__always) static func count(_ h: UInt64) -> Int { Int(truncatingIfNeeded: (h >> 8) & 0xFF) }
    @inline(__always) static func target(_ h: UInt64) -> Int { Int(truncatingIfNeeded: (h >> 16) & 0xFF) }
    @inline(__always) static func flags(_ h: UInt64) -> UInt64 { (h >> 24) & 0xFF }
    @inline(__always) static func keyCount(_ h: UInt64) -> Int { Int(truncatingIfNeeded: (h >> 32) & 0xFF) }
    @inline(__always) static func instance(_ h: UInt64) -> Int { Int(truncatingIfNeeded: h >> 40) }

    /// Doubles of a keyframe op's flat data (times, values, tangents).
    @inline(__always)
    static func keyframeWords(keys kc: Int, components n: Int, cubic: Bool) -> Int {
        kc &+ kc &* n &+ (cubic ? 2 &* (kc &- 1) &* n : 0)
    }

    /// Words of the op whose header is `h`, children of a group excluded.
    @inline(__always)
    static func length(_ h: UInt64) -> Int {
        switch kind(h) {
        case basicBlock, springBlock: return headWords &+ 2 &* count(h)
        case basicVirtual, springVirtual: return headWords &+ 2
        case keyframe:
            return headWords &+ 1 &+ keyframeWords(keys: keyCount(h), components: count(h), cubic: flags(h) & cubic != 0)
        default: return headWords
        }
    }
}

extension Engine {
    // MARK: building

    /// Compiles layer `l`'s animations into its program region, or drops its
    /// program when they do not qualify. Called by `updateMembership`.
    func rebuildProgram(_ l: Int) {
        let wasActive = layers[l].program >= 0
        let oldCap = Int(layerCold[l].programCap)
        leaveShape(l)
        layers[l].program = -1
        if wasActive { programLiveWords -= oldCap }
        guard allowPrograms, buildProgram(l) else { return }
        let need = scratchProgram.count
        var start = Int(layerCold[l].programStart)
        if start < 0 || need > oldCap {
            if programCode.count &+ need > 2 &* (programLiveWords &+ need) &+ 4096 { compactPrograms() }
            start = programCode.count
            guard start &+ need < Int(Int32.max) else { return }
            programCode.append(contentsOf: scratchProgram)
            layerCold[l].programStart = Int32(start)
            layerCold[l].programCap = Int32(need)
        } else {
            for k in 0..<need { programCode[start &+ k] = scratchProgram[k] }
        }
        programLiveWords += Int(layerCold[l].programCap)
        layers[l].program = Int32(start)
        joinShape(l)
    }

    /// Drops the regions of layers without a program (they are built again
    /// when their layer qualifies again).
    func compactPrograms() {
        var fresh: [Double] = []
        fresh.reserveCapacity(programLiveWords &+ 4096)
        for l in 0..<layers.count {
            let s = Int(layerCold[l].programStart)
            if layers[l].program >= 0 && s >= 0 {
                let c = Int(layerCold[l].programCap)
                let ns = fresh.count
                fresh.append(contentsOf: programCode[s ..< s &+ c])
                layerCold[l].programStart = Int32(ns)
                layers[l].program = Int32(ns)
            } else {
                layers[l].program = -1
                layerCold[l].programStart = -1
                layerCold[l].programCap = 0
            }
        }
        programLiveWords = fresh.count
        programCode = fresh
    }

    /// Writes layer `l`'s program into `scratchProgram`; false when one of its
    /// animations has no program form.
    func buildProgram(_ l: Int) -> Bool {
        scratchProgram.removeAll(keepingCapacity: true)
        // At most `maxAnimations` top-level animations: a program is rebuilt at
        // every add and remove, which must stay O(1) per layer (adding n
        // animations to one layer must not cost O(n²)).
        guard layers[l].transition < 0, layers[l].simple < 0, layers[l].firstAnim >= 0,
              layerCold[l].animCount <= ProgramOp.maxAnimations else { return false }
        scratchProgram.append(0)
        var written: UInt32 = 0
        var hasVirtual = false
        var top = 0
        var i = Int(layers[l].firstAnim)
        while i >= 0 {
            guard i < inst.items.count, inst.items[i].alive, !inst.items[i].awaitingCommit, top < Int(ProgramOp.maxAnimations) else { return false }
            if inst.items[i].kind == .group {
                guard appendGroup(i, &written, &hasVirtual) else { return false }
            } else {
                guard appendLeaf(i, &written, &hasVirtual) else { return false }
            }
            top += 1
            i = Int(inst.items[i].next)
        }
        // The program must write exactly what the layer's animations write.
        let covered = written | (hasVirtual ? LayerProperty.transform.bit : 0)
        guard covered == layers[l].animMask, scratchProgram.count < 1 << 31 else { return false }
        let head = UInt64(top) | UInt64(scratchProgram.count) << 16 | (hasVirtual ? UInt64(1) << 48 : 0)
        scratchProgram[0] = Double(bitPattern: head)
        return true
    }

    func appendHead(_ i: Int, kind: UInt64, count: Int, target: Int, flags extra: UInt64 = 0, keys: Int = 0) {
        let t = inst.items[i].timing
        var f = extra
        if inst.items[i].linearCurve { f |= ProgramOp.linearCurve }
        if t.autoreverses { f |= ProgramOp.autoreverses }
        if t.timeOffset != 0 && t.activeDuration.isFinite { f |= ProgramOp.wraps }
        if inst.items[i].started { f |= ProgramOp.started }
        let h = kind | UInt64(count & 0xFF) << 8 | UInt64(target & 0xFF) << 16 | (f & 0xFF) << 24
            | UInt64(keys & 0xFF) << 32 | UInt64(i) << 40
        scratchProgram.append(Double(bitPattern: h))
        scratchProgram.append(t.beginTime)
        scratchProgram.append(t.speed)
        scratchProgram.append(t.timeOffset)
        scratchProgram.append(t.simpleDuration)
        scratchProgram.append(t.cycle)
        scratchProgram.append(t.activeDuration)
    }

    /// A whole plain property of the block (not a transform), written once.
    func programBlockTarget(_ i: Int, _ off: Int, _ c: Int, _ written: inout UInt32) -> Bool {
        let p = Int(inst.items[i].prop)
        guard p >= 0, p < 32, c >= 1, c <= 4, off < Engine.transformBase || off >= Engine.sublayerBase + 16 else { return false }
        let r = Engine.propRange(p)
        let bit = UInt32(1) << UInt32(p)
        guard r.offset == off, r.count == c, written & bit == 0 else { return false }
        written |= bit
        return true
    }

    /// Basic and spring from/to animations of linear values, replacing, not
    /// cumulative, on a whole plain property or one transform component;
    /// keyframe animations with a flat copy (`setFlatKeyframes`) on a whole
    /// plain property, replacing, not cumulative.
    func appendLeaf(_ i: Int, _ written: inout UInt32, _ hasVirtual: inout Bool) -> Bool {
        guard i < ProgramOp.maxInstance else { return false }
        let it = inst.items[i]
        guard it.interp == .linear, !it.additive, !it.cumulative else { return false }
        let vb = inst.vbase(i)
        switch it.kind {
        case .basic, .spring:
            guard it.mode == .fromTo else { return false }
            let spring = it.kind == .spring
            switch it.access {
            case let .block(off, c):
                guard programBlockTarget(i, off, c, &written) else { return false }
                appendHead(i, kind: spring ? ProgramOp.springBlock : ProgramOp.basicBlock, count: c, target: off)
                for k in 0..<(2 * c) { scratchProgram.append(inst.values[vb &+ k]) }
            case let .virtual(tb, comp):
                guard tb == Engine.transformBase, it.components == 1, comp.components == 1 else { return false }
                hasVirtual = true
                appendHead(i, kind: spring ? ProgramOp.springVirtual : ProgramOp.basicVirtual, count: 1, target: comp.rawValue)
                scratchProgram.append(inst.values[vb])
                scratchProgram.append(inst.values[vb &+ 1])
            default:
                return false
            }
        case .keyframe:
            let n = Int(it.components), kc = Int(it.kfCount)
            guard kc >= 2, case let .block(off, c) = it.access, c == n,
                  programBlockTarget(i, off, c, &written) else { return false }
            let words = ProgramOp.keyframeWords(keys: kc, components: n, cubic: it.kfCubic)
            guard words <= InstanceStore.valueStride, vb &+ words <= inst.values.count else { return false }
            appendHead(i, kind: ProgramOp.keyframe, count: n, target: off,
                       flags: it.kfCubic ? ProgramOp.cubic : 0, keys: kc)
            scratchProgram.append(Double(bitPattern: UInt64(truncatingIfNeeded: Int(it.kfSegment))))
            for k in 0..<words { scratchProgram.append(inst.values[vb &+ k]) }
        default:
            return false
        }
        return true
    }

    /// A top-level group whose children are all leaves (`appendLeaf`).
    func appendGroup(_ i: Int, _ written: inout UInt32, _ hasVirtual: inout Bool) -> Bool {
        guard i < ProgramOp.maxInstance else { return false }
        var n = 0
        var c = Int(inst.items[i].firstChild)
        while c >= 0 && n <= Int(ProgramOp.maxAnimations) {
            n += 1
            c = Int(inst.items[c].next)
        }
        guard n >= 1, n <= Int(ProgramOp.maxAnimations) else { return false }
        appendHead(i, kind: ProgramOp.group, count: n, target: 0)
        c = Int(inst.items[i].firstChild)
        while c >= 0 {
            guard inst.items[c].kind != .group, inst.items[c].kind != .transition,
                  appendLeaf(c, &written, &hasVirtual) else { return false }
            c = Int(inst.items[c].next)
        }
        return true
    }

    /// Copies the instances' start flags into layer `l`'s program (after the
    /// general code evaluated the layer and may have reported starts).
    func refreshProgramFlags(_ l: Int) {
        let p0 = Int(layers[l].program)
        guard p0 >= 0, p0 < programCode.count else { return }
        let head = programCode[p0].bitPattern
        let top = Int(head & 0xFFFF)
        let end = p0 &+ Int(truncatingIfNeeded: (head >> 16) & 0xFFFF_FFFF)
        guard end <= programCode.count else { return }
        var p = p0 &+ 1
        var k = 0
        while k < top && p < end {
            let h = programCode[p].bitPattern
            let i = ProgramOp.instance(h)
            let started = i < inst.items.count && inst.items[i].started
            let bit = ProgramOp.started << 24
            programCode[p] = Double(bitPattern: started ? h | bit : h & ~bit)
            p &+= ProgramOp.length(h)
            if ProgramOp.kind(h) == ProgramOp.group {
                for _ in 0..<ProgramOp.count(h) where p < end { p &+= ProgramOp.length(programCode[p].bitPattern) }
            }
            k &+= 1
        }
    }

    // MARK: shapes

    /// Adds layer `l` (whose program was just written from `scratchProgram`)
    /// to the members of its shape, creating the shape if it is new.
    func joinShape(_ l: Int) {
        scratchShapeKey.removeAll(keepingCapacity: true)
        scratchShapeKey.append(scratchProgram[0].bitPattern)
        // Headers without the start flag and the instance: what fixes the layout.
        let keep = ~(ProgramOp.started << 24) & ((1 << 40) &- 1)
        var p = 1
        while p < scratchProgram.count {
            let h = scratchProgram[p].bitPattern
            scratchShapeKey.append(h & keep)
            p &+= ProgramOp.length(h)   // a group's children follow it
        }
        let (s, created) = programShapes.shape(for: scratchShapeKey)
        if !created && programShapes.members[s].isEmpty { programShapes.emptyCount -= 1 }
        layerCold[l].shape = Int32(s)
        layerCold[l].shapeSlot = Int32(programShapes.members[s].count)
        programShapes.members[s].append(Int32(l))
    }

    /// Removes layer `l` from its shape's members (the last member takes its slot).
    func leaveShape(_ l: Int) {
        let s = Int(layerCold[l].shape)
        guard s >= 0, s < programShapes.members.count else { return }
        let k = Int(layerCold[l].shapeSlot)
        layerCold[l].shape = -1
        layerCold[l].shapeSlot = -1
        guard k >= 0, k < programShapes.members[s].count else { return }
        let last = programShapes.members[s].removeLast()
        if k < programShapes.members[s].count {
            programShapes.members[s][k] = last
            layerCold[Int(last)].shapeSlot = Int32(k)
        }
        if programShapes.members[s].isEmpty { programShapes.emptied(s) }
    }

    // MARK: running

    /// The tick's pass over the animated layers when some have programs: the
    /// programs first, shape by shape (`runShape`) over the presentation
    /// block (moved out of the engine, as the simple track does), then, in
    /// order, the layers the general code evaluates (no program, or not in
    /// their steady state) — the only ones that report events, so events keep
    /// their order.
    func evaluateAnimatedLayers() {
        scratchFallback.removeAll(keepingCapacity: true)
        scratchProgramVisual.removeAll(keepingCapacity: true)
        if programDeclined.count < layers.count {
            // (Grows with the layer table only: no allocation in a warm frame.)
            programDeclined.append(contentsOf: repeatElement(0, count: layers.count &- programDeclined.count))
        }
        var code: [Double] = []
        var shapes = ProgramShapes()
        var lanes: [ProgramLane] = []
        var declined: [UInt8] = []
        swap(&code, &programCode)
        swap(&shapes, &programShapes)
        swap(&lanes, &programLanes)
        swap(&declined, &programDeclined)
        withBlock { out in
            var cs = code.mutableSpan
            var ds = declined.mutableSpan
            var ls = lanes.mutableSpan
            for s in 0..<shapes.plans.count where !shapes.members[s].isEmpty {
                runShape(shapes.plans[s], shapes.members[s], shapes.hasVirtual[s], &cs, &out, &ls, &ds)
            }
        }
        swap(&code, &programCode)
        swap(&shapes, &programShapes)
        swap(&lanes, &programLanes)
        swap(&declined, &programDeclined)
        var k = 0
        while k < animatedLayers.count {
            let x = animatedLayers[k]
            let l = Int(x)
            if layers[l].program < 0 {
                scratchFallback.append(x)
            } else if programDeclined[l] != 0 {
                programDeclined[l] = 0
                scratchFallback.append(x)
            }
            k &+= 1
        }
        for x in scratchFallback {
            let l = Int(x)
            evaluateLayer(l, events: true)
            if layers[l].program >= 0 { refreshProgramFlags(l) }
        }
        for x in scratchProgramVisual {
            let l = Int(x)
            refreshVisualCache(l, mask: layers[l].animMask & (~LayerProperty.geometryMask | LayerProperty.bounds.bit))
        }
    }

    /// The sample of the op at `p` at parent time `t` when inside its active
    /// interval (`activeSample`, the general sampler's steady state): progress,
    /// cycle time and iteration, in registers; progress NaN outside (an active
    /// sample's progress is never NaN), and for a top-level op (`top`) whose
    /// start is not reported yet.
    @inline(__always)
    static func programSample(_ code: borrowing MutableSpan<Double>, _ p: Int, _ h: UInt64, _ t: Double,
                              top: Bool) -> ProgramSample {
        guard !top || ProgramOp.flags(h) & ProgramOp.started != 0 else {
            return ProgramSample(progress: .nan, cycleTime: 0, iteration: 0)
        }
        let a = (t - code[p &+ 1]) * code[p &+ 2]
        let d = code[p &+ 6]
        guard a >= 0 && a < d else { return ProgramSample(progress: .nan, cycleTime: 0, iteration: 0) }
        let s = Engine.activeSample(a, offset: code[p &+ 3], cycle: code[p &+ 5], duration: code[p &+ 4],
                                    activeDuration: d, flags2: UInt8(truncatingIfNeeded: ProgramOp.flags(h) & 6))
        return ProgramSample(progress: s.progress, cycleTime: s.cycleTime, iteration: s.iteration)
    }

    /// Runs the programs of one shape's `members` (`evaluateLayer`'s steady
    /// state), `ProgramLanes.width` layers at a time: each op of the plan for
    /// every layer of the chunk, then each layer's transform and flags. A
    /// layer that needs the general code this frame is marked in `declined`
    /// (whatever its program wrote is then overwritten by the general code).
    func runShape(_ plan: [PlanOp], _ members: [Int32], _ hasVirtual: Bool,
                  _ code: inout MutableSpan<Double>, _ out: inout MutableSpan<Double>,
                  _ lanes: inout MutableSpan<ProgramLane>, _ declined: inout MutableSpan<UInt8>) {
        var c0 = 0
        while c0 < members.count {
            let n = Swift.min(ProgramLanes.width, members.count &- c0)
            for m in 0..<n {
                let l = Int(members[c0 &+ m])
                lanes[m].layer = l
                lanes[m].start = Int(layers[l].program)
                lanes[m].dead = layers[l].program < 0
                lanes[m].time = layers[l].timeIdentity ? now : localTime(l, global: now)
                if hasVirtual {
                    // `decomposeTransform` of a pending transform: from the model.
                    var comps = TransformComponents()
                    if !layers[l].modelTransformIdentity {
                        let mt = Engine.matrix(model, l &* LayerProperty.stride &+ Engine.transformBase)
                        if !mt.isIdentity { comps = mt.components }
                    }
                    lanes[m].comps = comps
                }
            }
            for op in plan {
                if op.kind == ProgramOp.group {
                    runGroupOp(op, n, &code, &lanes)
                } else {
                    runLeafOp(op, n, &code, &out, &lanes)
                }
            }
            for m in 0..<n {
                let l = lanes[m].layer
                if lanes[m].dead {
                    declined[l] = 1
                } else {
                    finishProgram(l, hasVirtual, lanes[m].comps, &out)
                }
            }
            c0 &+= n
        }
    }

    /// A top-level group: its eased progress times its duration is its
    /// children's parent time. At its end a group holds its children
    /// (`evaluateInstance`'s `held`): the general code's business.
    func runGroupOp(_ op: PlanOp, _ n: Int, _ code: inout MutableSpan<Double>, _ lanes: inout MutableSpan<ProgramLane>) {
        let linear = op.flags & ProgramOp.linearCurve != 0
        for m in 0..<n where !lanes[m].dead {
            let q = lanes[m].start &+ op.off
            let h = code[q].bitPattern
            let s = Engine.programSample(code, q, h, lanes[m].time, top: true)
            guard !s.progress.isNaN else { lanes[m].dead = true; continue }
            let e = linear ? s.progress : inst.curves[ProgramOp.instance(h)].evaluate(s.progress)
            if e == 1 {
                lanes[m].dead = true
            } else {
                lanes[m].childTime = e * code[q &+ 4]
            }
        }
    }

    /// One leaf op for every live lane: top-level ops sample the layer's
    /// time and need their start reported, a group's children sample the
    /// group's `childTime`.
    func runLeafOp(_ op: PlanOp, _ n: Int, _ code: inout MutableSpan<Double>, _ out: inout MutableSpan<Double>,
                   _ lanes: inout MutableSpan<ProgramLane>) {
        let c = op.count
        let v0 = op.off &+ ProgramOp.headWords
        let linear = op.flags & ProgramOp.linearCurve != 0
        switch op.kind {
        case ProgramOp.basicBlock, ProgramOp.springBlock, ProgramOp.basicVirtual, ProgramOp.springVirtual:
            let spring = op.kind == ProgramOp.springBlock || op.kind == ProgramOp.springVirtual
            let virtual = op.kind == ProgramOp.basicVirtual || op.kind == ProgramOp.springVirtual
            let comp = virtual ? VirtualComponent(rawValue: op.target) : nil
            guard !virtual || comp != nil else {
                for m in 0..<n { lanes[m].dead = true }
                return
            }
            for m in 0..<n where !lanes[m].dead {
                let q = lanes[m].start &+ op.off
                let h = code[q].bitPattern
                let s = Engine.programSample(code, q, h, op.top ? lanes[m].time : lanes[m].childTime, top: op.top)
                guard !s.progress.isNaN else { lanes[m].dead = true; continue }
                let k = ProgramOp.instance(h)
                let e = spring ? inst.springs[k]?.progress(at: s.cycleTime) ?? 1
                               : linear ? s.progress : inst.curves[k].evaluate(s.progress)
                let a0 = lanes[m].start &+ v0
                if let comp {
                    Engine.writeLerp(code[a0], code[a0 &+ 1], e, comp, &lanes[m].comps)
                    continue
                }
                // `applyBasic`'s from/to fast path; NaN keeps the underlying value,
                // which is the model's (the layer's only writer of the property).
                let o = lanes[m].layer &* LayerProperty.stride &+ op.target
                for j in 0..<c {
                    let a = code[a0 &+ j], b = code[a0 &+ c &+ j]
                    let v = lerp(a, b, e)
                    out[o &+ j] = !v.isNaN ? settled(v, nan: v) : (e == 0 ? a : model[o &+ j])
                }
            }
        case ProgramOp.keyframe:
            // `applyKeyframe`'s flat path (`flatKeyframe4`), then `writeReplacing`.
            let kc = op.keyCount
            let cubic = op.flags & ProgramOp.cubic != 0
            for m in 0..<n where !lanes[m].dead {
                let q = lanes[m].start &+ op.off
                let h = code[q].bitPattern
                let s = Engine.programSample(code, q, h, op.top ? lanes[m].time : lanes[m].childTime, top: op.top)
                guard !s.progress.isNaN else { lanes[m].dead = true; continue }
                let e = linear ? s.progress : inst.curves[ProgramOp.instance(h)].evaluate(s.progress)
                let a0 = lanes[m].start &+ v0
                var seg = Int(truncatingIfNeeded: code[a0].bitPattern)
                let tb = a0 &+ 1
                let vo = tb &+ kc
                let to = vo &+ kc &* c
                var v: SIMD4<Double>
                if let loc = KeyframeTrack.locateNear(e, count: kc, hint: &seg, time: { code[tb &+ $0] }) {
                    v = KeyframeTrack.value4(segment: loc.segment, local: loc.local, count: kc, components: c, cubic: cubic,
                                             value: { code[vo &+ $0] }, tangent: { code[to &+ $0] })
                } else if let w = inst.keyframes[ProgramOp.instance(h)]?.value4(progress: e, components: c, cumulative: false,
                                                                                 iteration: s.iteration, segmentHint: &seg) {
                    v = w
                } else {
                    lanes[m].dead = true
                    continue
                }
                code[a0] = Double(bitPattern: UInt64(truncatingIfNeeded: seg))
                let o = lanes[m].layer &* LayerProperty.stride &+ op.target
                for j in 0..<c {
                    let x = v[j]
                    out[o &+ j] = !x.isNaN ? settled(x, nan: x) : model[o &+ j]
                }
            }
        default:
            for m in 0..<n { lanes[m].dead = true }
        }
    }

    /// The end of a layer's program: its recomposed transform, then the
    /// flags and the render cache, as `evaluateLayer` leaves them.
    @inline(__always)
    func finishProgram(_ l: Int, _ hasVirtual: Bool, _ comps: TransformComponents, _ out: inout MutableSpan<Double>) {
        let base = l &* LayerProperty.stride
        if hasVirtual {
            let m = Transform3D(comps)
            Engine.store(m, &out, base &+ Engine.transformBase)
            // (Each store to the layer table checks its uniqueness: only what changed.)
            let identity = m.isIdentity
            if layers[l].presTransformIdentity != identity { layers[l].presTransformIdentity = identity }
        }
        let mask = layers[l].animMask
        if layers[l].presDirty { layers[l].presDirty = false }
        if (mask & LayerProperty.geometryMask != 0 || layers[l].transition >= 0) && !layers[l].geomDirty {
            layers[l].geomDirty = true
        }
        let visual = mask & (~LayerProperty.geometryMask | LayerProperty.bounds.bit)
        if visual == LayerProperty.opacity.bit {
            cache[l].opacity = clamp01(out[base &+ LayerProperty.opacity.offset])
        } else if visual != 0 {
            scratchProgramVisual.append(Int32(l))
        }
    }
}

/// One op of a shape's plan: where it sits in each member's region and what
/// its header says (the start flag and the instance vary by layer).
struct PlanOp {
    var off: Int
    var kind: UInt64
    var count: Int
    var target: Int
    var flags: UInt64
    var keyCount: Int
    /// A top-level op (not a group's child).
    var top: Bool
}

/// Layers whose programs have the same layout — the same ops with the same
/// counts, targets, curves' linearity and flags, in the same order — share
/// a shape, run together by the tick (`runShape`): the plan is decoded once
/// per shape rather than once per layer, and each op's loop over the layers
/// is small enough to stay in registers. Shapes are looked up by their key
/// (the layer header and the op headers without start flag and instance)
/// at build time only. A shape that loses its last member stays indexed
/// (a layer that leaves and joins it again every few frames, as a short
/// animation added and finished over a running one does, must not allocate
/// its plan again); empty shapes are recycled together once they outnumber
/// both 64 and the shapes in use.
struct ProgramShapes {
    var plans: [[PlanOp]] = []
    var members: [[Int32]] = []
    var hasVirtual: [Bool] = []
    var keys: [[UInt64]] = []
    /// The slot holds a shape (in `index`); false for recycled slots (in `free`).
    var live: [Bool] = []
    var index: [[UInt64]: Int] = [:]
    var free: [Int] = []
    /// Live shapes without members.
    var emptyCount = 0

    /// The shape of `key`, and whether it was created now.
    mutating func shape(for key: [UInt64]) -> (Int, Bool) {
        if let s = index[key] { return (s, false) }
        let s: Int
        if let f = free.popLast() {
            s = f
        } else {
            s = plans.count
            plans.append([])
            members.append([])
            hasVirtual.append(false)
            keys.append([])
            live.append(false)
        }
        // A copy of its own: the caller's key is a scratch array it reuses.
        let own = key.map { $0 }
        plans[s] = ProgramShapes.plan(own)
        hasVirtual[s] = own[0] >> 48 & 1 != 0
        keys[s] = own
        live[s] = true
        index[own] = s
        return (s, true)
    }

    /// Shape `s` lost its last member.
    mutating func emptied(_ s: Int) {
        emptyCount += 1
        guard emptyCount > 64 && emptyCount > plans.count - free.count - emptyCount else { return }
        for k in 0..<plans.count where live[k] && members[k].isEmpty { retire(k) }
        emptyCount = 0
    }

    mutating func retire(_ s: Int) {
        index[keys[s]] = nil
        keys[s] = []
        plans[s] = []
        live[s] = false
        free.append(s)
    }

    /// The ops of a key, with their offsets in a region.
    static func plan(_ key: [UInt64]) -> [PlanOp] {
        var plan: [PlanOp] = []
        var p = 1
        var children = 0
        for h in key.dropFirst() {
            let top = children == 0
            if !top { children -= 1 }
            let kind = ProgramOp.kind(h)
            plan.append(PlanOp(off: p, kind: kind, count: ProgramOp.count(h), target: ProgramOp.target(h),
                               flags: ProgramOp.flags(h), keyCount: ProgramOp.keyCount(h), top: top))
            if kind == ProgramOp.group { children = ProgramOp.count(h) }
            p += ProgramOp.length(h)
        }
        return plan
    }
}

/// The tick's registers of one layer of a chunk of a shape's members.
struct ProgramLane {
    var layer = 0
    var start = 0
    var time = 0.0
    var childTime = 0.0
    var dead = false
    var comps = TransformComponents()
}

enum ProgramLanes {
    static var width: Int { 32 }
}
