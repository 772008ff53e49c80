extension Engine {
    // MARK: reading

    /// Reads a key path from a property block (model or presentation).
    @inline(__always)
    func read(_ block: [Double], contents: UInt64, layer l: Int, _ t: KeyPathTarget) -> ValueBuffer {
        var v = ValueBuffer(count: t.components)
        let base = l * LayerProperty.stride
        switch t.access {
        case let .block(off, n):
            for k in 0..<n { v[k] = block[base + off + k] }
        case .frame:
            v = Engine.frame(block, base: base)
        case let .virtual(tb, comp):
            comp.read(Engine.matrix(block, base + tb).components, into: &v)
        case .contents:
            v[0] = Double(contents)
        case let .timing(f):
            v[0] = layerCold[l].timing.value(of: f)
            return v      // INFINITY is a documented value of repeatCount and repeatDuration
        }
        return v.isFinite ? v : v.saturated
    }

    /// The model value at a key path.
    public func get(layer id: UInt64, _ t: KeyPathTarget) throws(CadenceError) -> ValueBuffer {
        let l = try requireLayer(id)
        return read(model, contents: modelContents[l], layer: l, t)
    }

    /// The presentation value at a key path at the engine's `now`.
    public func presentation(layer id: UInt64, _ t: KeyPathTarget) throws(CadenceError) -> ValueBuffer {
        let l = try requireLayer(id)
        ensurePresentation(l)
        return read(pres, contents: presContents[l], layer: l, t)
    }

    /// `get` (or `presentation`) of a block key path of at most four
    /// components — every scalar, point, size, rect and color key — without a
    /// `ValueBuffer` (whose 16 lanes were zeroed, filled by index and scanned
    /// for every read): the same values, components past `count` zero. nil for
    /// any other key path (the caller uses `get`); throws as `get` does.
    public func readSmall(layer id: UInt64, _ t: KeyPathTarget, presentation: Bool) throws(CadenceError) -> (SIMD4<Double>, Int)? {
        let l = try requireLayer(id)
        guard case let .block(off, n) = t.access, n >= 1, n <= 4, t.components == n else { return nil }
        if presentation { ensurePresentation(l) }
        let o = l &* LayerProperty.stride &+ off
        var v = SIMD4<Double>.zero
        if presentation {
            for k in 0..<n { v[k] = settled(pres[o &+ k], nan: 0) }
        } else {
            for k in 0..<n { v[k] = settled(model[o &+ k], nan: 0) }
        }
        return (v, n)
    }

    /// Convenience for Swift callers and tests.
    public func get(layer id: UInt64, _ keyPath: String) throws(CadenceError) -> [Double] {
        try get(layer: id, Engine.target(keyPath)).array
    }

    public func presentation(layer id: UInt64, _ keyPath: String) throws(CadenceError) -> [Double] {
        try presentation(layer: id, Engine.target(keyPath)).array
    }

    public func set(layer id: UInt64, _ keyPath: String, _ values: [Double]) throws(CadenceError) {
        try set(layer: id, Engine.target(keyPath), ValueBuffer(values), count: values.count)
    }

    public static func target(_ keyPath: String) throws(CadenceError) -> KeyPathTarget {
        guard let t = KeyPathTarget.lookup(keyPath) else {
            throw CadenceError(.unknownKeyPath, "unknown key path \"\(keyPath)\"")
        }
        return t
    }

    /// The transform stored at `o` in a property block. (Through a 16-element
    /// sub-span: one bounds check instead of sixteen.)
    @inline(__always)
    static func matrix(_ b: [Double], _ o: Int) -> Transform3D {
        matrix(b.span, o)
    }

    @inline(__always)
    static func matrix(_ b: borrowing Span<Double>, _ o: Int) -> Transform3D {
        let s = b.extracting(o ..< o &+ 16)
        return Transform3D(SIMD4(s[0], s[1], s[2], s[3]), SIMD4(s[4], s[5], s[6], s[7]),
                           SIMD4(s[8], s[9], s[10], s[11]), SIMD4(s[12], s[13], s[14], s[15]))
    }

    @inline(__always)
    static func store(_ m: Transform3D, _ b: inout [Double], _ o: Int) {
        var s = b.mutableSpan
        store(m, &s, o)
    }

    /// `store` into a span (the tick's layer programs write the block moved out of the engine).
    @inline(__always)
    static func store(_ m: Transform3D, _ s: inout MutableSpan<Double>, _ o: Int) {
        // One range check up front; the stores below stay inside it.
        guard o >= 0, o <= s.count &- 16 else { return }
        s[o] = m.r1.x; s[o &+ 1] = m.r1.y; s[o &+ 2] = m.r1.z; s[o &+ 3] = m.r1.w
        s[o &+ 4] = m.r2.x; s[o &+ 5] = m.r2.y; s[o &+ 6] = m.r2.z; s[o &+ 7] = m.r2.w
        s[o &+ 8] = m.r3.x; s[o &+ 9] = m.r3.y; s[o &+ 10] = m.r3.z; s[o &+ 11] = m.r3.w
        s[o &+ 12] = m.r4.x; s[o &+ 13] = m.r4.y; s[o &+ 14] = m.r4.z; s[o &+ 15] = m.r4.w
    }

    /// True when the 16 doubles at `o` are the identity matrix.
    @inline(__always)
    static func isIdentity(_ b: [Double], _ o: Int) -> Bool {
        matrix(b, o).isIdentity
    }

    /// The frame rectangle (SEMANTICS.md §2.1): with identity transform
    /// `origin = position - anchorPoint * size`; otherwise the bounding box of the
    /// transformed bounds in the superlayer's space.
    static func frame(_ b: [Double], base: Int) -> ValueBuffer {
        let px = b[base], py = b[base + 1]
        let ax = b[base + 3], ay = b[base + 4], az = b[base + 5]
        let bx = b[base + 6], by = b[base + 7], bw = b[base + 8], bh = b[base + 9]
        let m = matrix(b, base + LayerProperty.transform.offset)
        if m.isIdentity {
            return ValueBuffer(px - ax * bw, py - ay * bh, bw, bh)
        }
        let ox = bx + ax * bw, oy = by + ay * bh
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        // The four corners without an array (reads must not allocate).
        for k in 0..<4 {
            let cx = k & 1 == 0 ? bx : bx + bw
            let cy = k < 2 ? by : by + bh
            let q = m.apply(x: cx - ox, y: cy - oy, z: -az)
            var x = q.x + px * q.w, y = q.y + py * q.w
            if abs(q.w) > 1e-12 { x /= q.w; y /= q.w }
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            return ValueBuffer(px - ax * bw, py - ay * bh, bw, bh)
        }
        return ValueBuffer(minX, minY, maxX - minX, maxY - minY)
    }

    // MARK: writing

    /// Sets a model value (SEMANTICS.md §2) and runs the key's action (§10).
    /// `count` is the number of components the caller passed.
    public func set(layer id: UInt64, _ t: KeyPathTarget, _ v: ValueBuffer, count: Int) throws(CadenceError) {
        let l = try requireLayer(id)
        guard count == t.components else {
            throw .typeMismatch("\"\(t.name)\" is a \(t.kind.name) of \(t.components) component(s); got \(count)")
        }
        if case .timing = t.access {} else {
            guard v.isFinite else {
                throw .invalidArgument("values for \"\(t.name)\" must be finite (no NaN or infinity)")
            }
        }
        try setChecked(l, t, v)
    }

    /// `set(layer:)` after its checks of the handle, the count and finiteness
    /// (a timing key or contents still checks its own rule).
    func setChecked(_ l: Int, _ t: KeyPathTarget, _ v: ValueBuffer) throws(CadenceError) {
        switch t.access {
        case let .timing(f):
            var timing = layerCold[l].timing
            try timing.set(f, v[0])
            layerCold[l].timing = timing
            updateTimeIdentity(subtree: l)
            return
        case .contents:
            try setContents(layer: l, Engine.contentsValue(v[0]))
            return
        case .frame:
            let base = l * LayerProperty.stride
            let w = v[2], h = v[3]
            let ax = model[base + 3], ay = model[base + 4]
            let pos = ValueBuffer(v[0] + ax * w, v[1] + ay * h)
            // The whole bounds (origin unchanged): the "bounds" action then
            // animates all of it from what is on screen, retargeting an origin
            // that is itself animating instead of letting it jump.
            let bounds = ValueBuffer(model[base + 6], model[base + 7], w, h)
            let posT = KeyPathTarget.lookup("position")!
            let boundsT = KeyPathTarget.lookup("bounds")!
            // Validate both before changing either (both are finite already).
            try setValue(l, posT, pos, actionKey: "position")
            try setValue(l, boundsT, bounds, actionKey: "bounds")
            return
        default:
            break
        }
        var value = v
        if t.interpolation == .hidden || t.interpolation == .discreteBool {
            value[0] = value[0] != 0 ? 1 : 0
        }
        try setValue(l, t, value, actionKey: nil)
    }

    /// Model values of one key path for many layers, row by row (`values`
    /// holds `ids.count` × components doubles): as one `set(layer:)` per
    /// layer, in order, with the same implicit actions. Every handle, the
    /// count and every value are checked first, so a bad one changes
    /// nothing. After that a set can fail only when a custom transition
    /// action finds no room for its animation (`.outOfMemory`: `setAction`
    /// validated the description); the call then stops at that layer, and
    /// the layers before it keep their new values.
    public func set(layers ids: Span<UInt64>, _ t: KeyPathTarget, _ values: Span<Double>) throws(CadenceError) {
        let n = t.components
        let (needed, overflow) = ids.count.multipliedReportingOverflow(by: n)
        guard !overflow, values.count == needed else {
            throw .typeMismatch("\"\(t.name)\" takes \(n) component(s) per layer: \(ids.count) layers need \(overflow ? "more" : "\(needed)") values; got \(values.count)")
        }
        for k in ids.indices {
            guard layerIndex(ids[k]) != nil else {
                throw .invalidHandle("layers[\(k)] (\(Engine.hex(ids[k]))) is not a live layer of this engine")
            }
        }
        // The values: finite (one pass over all of them), then a timing key's
        // or contents' own rule on each row, with the messages a single set gives.
        if case .timing = t.access {} else {
            for i in values.indices where !values[i].isFinite {
                throw CadenceError(.invalidArgument, "layers[\(i / max(n, 1))]: values for \"\(t.name)\" must be finite (no NaN or infinity) (nothing was set)")
            }
        }
        switch t.access {
        case .timing, .contents:
            for k in ids.indices {
                do throws(CadenceError) {
                    try Engine.validateSet(t, row(values, k, n))
                } catch {
                    throw CadenceError(error.status, "layers[\(k)]: \(error.message) (nothing was set)")
                }
            }
        default:
            break
        }
        // A plain block key path (not frame, contents, a timing or transform
        // sub-key, or a value normalised to 0/1): a layer that runs no action
        // (actions disabled by the transaction or for the layer, or a new
        // layer) takes the model write straight from `values`, as setValue
        // does with no action plan.
        var plainBlock: (off: Int, prop: LayerProperty)?
        if case let .block(off, bn) = t.access, bn == n, let prop = t.property,
           t.interpolation != .hidden, t.interpolation != .discreteBool {
            plainBlock = (off, prop)
        }
        for k in ids.indices {
            guard let l = layerIndex(ids[k]) else { continue }   // (checked above)
            if let (off, prop) = plainBlock,
               !t.animatable || tx.disableActions || layerCold[l].isNew || !layerCold[l].actionsEnabled {
                let o = l &* LayerProperty.stride &+ off, r = k &* n
                for c in 0..<n { model[o &+ c] = values[r &+ c] }
                if off < Engine.sublayerBase + 16 && off + n > Engine.transformBase { updateModelIdentityFlags(l) }
                modelChanged(l, prop)
                continue
            }
            do throws(CadenceError) {
                try setChecked(l, t, row(values, k, n))
            } catch {
                throw CadenceError(error.status, "layers[\(k)]: \(error.message) (layers[0..<\(k)] were set)")
            }
        }
    }

    @inline(__always)
    private func row(_ values: borrowing Span<Double>, _ k: Int, _ n: Int) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        let o = k &* n
        for c in 0..<n { v[c] = values[o &+ c] }
        return v
    }

    /// The checks `set(layer:)` makes of a value before changing anything.
    static func validateSet(_ t: KeyPathTarget, _ v: ValueBuffer) throws(CadenceError) {
        switch t.access {
        case let .timing(f):
            var timing = MediaTiming()
            try timing.set(f, v[0])
        case .contents:
            guard v.isFinite else { throw .invalidArgument("values for \"\(t.name)\" must be finite (no NaN or infinity)") }
            _ = try contentsValue(v[0])
        default:
            guard v.isFinite else { throw .invalidArgument("values for \"\(t.name)\" must be finite (no NaN or infinity)") }
        }
    }

    static func contentsValue(_ x: Double) throws(CadenceError) -> UInt64 {
        guard x >= 0, x < 18446744073709551616.0, x == x.rounded() else {
            throw .invalidArgument("contents must be a non-negative whole number (an id); use cad_layer_set_contents for full 64-bit ids")
        }
        return UInt64(x)
    }

    /// Writes the model, updates the presentation and runs the action.
    /// `actionKey` nil: the key path's own name, made only where a key is
    /// needed (a change with actions off makes no string).
    func setValue(_ l: Int, _ t: KeyPathTarget, _ v: ValueBuffer, actionKey: String?) throws(CadenceError) {
        guard let prop = t.property else { return }
        let plan = t.animatable ? actionPlan(l, key: actionKey, target: t) : .none
        // The kind and target of a custom action, read in place (the spec is
        // copied once, where it runs).
        var specKind: AnimationKind?
        var specTarget: KeyPathTarget?
        if case let .spec(k) = plan { specKind = actions[l][k].spec?.kind; specTarget = actions[l][k].spec?.target }
        var captured: ValueBuffer?
        var capturedChildren: [ValueBuffer] = []
        if case .none = plan {} else {
            ensurePresentation(l)
            // The on-screen value of what the action animates: a set action may
            // target another key path than the one changed (an action for
            // "bounds" run by a frame change, "position" by a change of
            // position.x); its "from" must have that key path's components.
            var captureTarget = t
            if let k = specKind, k != .transition, tx.keyframeWindow == nil, let st = specTarget { captureTarget = st }
            captured = read(pres, contents: presContents[l], layer: l, captureTarget)
            if specKind == .group, tx.keyframeWindow == nil, case let .spec(k) = plan, let s = actions[l][k].spec {
                noneChildValues(s, layer: l, into: &capturedChildren)
            }
        }
        if specKind == .transition, case let .spec(k) = plan, var spec = actions[l][k].spec {
            applyTransactionDefaults(&spec)
            try attach(layer: l, spec: spec, key: "transition", captured: nil, defaultDuration: tx.duration, delay: tx.delay)
            writeModel(l, t, v, prop)
            return
        }
        writeModel(l, t, v, prop)
        if tx.keyframeWindow != nil, let c = captured {  // (the window first: binding `c` copies the buffer)
            recordKeyframeChange(l, t, key: actionKey ?? t.name, captured: c, value: v)
            return
        }
        switch plan {
        case .none:
            break
        case .defaultAction:
            let spec = defaultActionSpec(t)
            _ = try? attach(layer: l, spec: spec, key: actionKey ?? t.name, captured: captured, defaultDuration: tx.duration, delay: tx.delay)
        case let .spec(k):
            guard var spec = actions[l][k].spec else { break }
            applyTransactionDefaults(&spec)
            _ = try? attach(layer: l, spec: spec, key: actionKey ?? t.name, captured: captured, capturedChildren: capturedChildren,
                            defaultDuration: tx.duration, delay: tx.delay)
        }
    }

    func writeModel(_ l: Int, _ t: KeyPathTarget, _ v: ValueBuffer, _ prop: LayerProperty) {
        let base = l * LayerProperty.stride
        switch t.access {
        case let .block(off, n):
            for k in 0..<n { model[base + off + k] = v[k] }
            if off < Engine.sublayerBase + 16 && off + n > Engine.transformBase { updateModelIdentityFlags(l) }
        case let .virtual(tb, comp):
            var c = Engine.matrix(model, base + tb).components
            comp.write(v, into: &c, additive: false)
            Engine.store(Transform3D(c), &model, base + tb)
            updateModelIdentityFlags(l)
        default:
            return
        }
        modelChanged(l, prop)
    }

    /// After a model write: properties no animation touches are copied to the
    /// presentation at once; animated ones are recomputed lazily.
    func modelChanged(_ l: Int, _ prop: LayerProperty) {
        var j = Int(layers[l].simple)
        if j >= 0 && j < simpleLeaf.count { simpleLeaf[j].x = .nan }
        if j >= 0 && j < simpleAnims.count && simpleAnims[j].flags2 & SimpleAnim.toModel != 0
            && simpleAnims[j].propBit == prop.bit {
            // The entry's end is the model value: copy it again (and leave the
            // track when the difference overflows, as `simpleInstance` requires).
            let b = l &* LayerProperty.stride &+ Int(simpleAnims[j].propOffset)
            var to = SIMD4<Double>.zero
            for k in 0..<min(Int(simpleAnims[j].count), 4) { to[k] = model[b &+ k] }
            simpleAnims[j].to = to
            let d = to - simpleAnims[j].from
            if !allFinite(d) {
                updateMembership(l)
                j = Int(layers[l].simple)
            }
        }
        if layers[l].animMask & prop.bit != 0 {
            // A simple-track entry writes only its own components: when it
            // animates a sub-key (position.x), the property's other components
            // come from the model now (the general path copies the whole
            // property from the model at every evaluation).
            if j >= 0 && j < simpleAnims.count && Int(simpleAnims[j].count) < prop.count {
                resetFromModel(l, mask: prop.bit)
            }
            markPresDirty(l)
        } else {
            resetFromModel(l, mask: prop.bit)
        }
    }

    /// Copies the given properties from model to presentation and refreshes caches.
    func resetFromModel(_ l: Int, mask: UInt32) {
        guard mask != 0 else { return }
        let base = l * LayerProperty.stride
        var m = mask
        while m != 0 {
            let b = m.trailingZeroBitCount
            m &= m - 1
            guard let p = LayerProperty(rawValue: b) else { continue }
            if p == .contents {
                presContents[l] = modelContents[l]
            } else {
                let o = base + p.offset
                for k in 0..<p.count { pres[o + k] = model[o + k] }
            }
        }
        if mask & LayerProperty.geometryMask != 0 { layers[l].geomDirty = true }
        if mask & Engine.transformBits != 0 { updateIdentityFlags(l) }
        // Only the fields of what was copied: the rest of the cache already
        // matches the block (every writer refreshes what it writes; the
        // differential suites check it with `Observed.staleCaches`). A whole
        // refresh cost each retarget about 900 instructions.
        refreshVisualCache(l, mask: mask)
    }

    /// Bits of transform and sublayerTransform (a literal: no lazy global in the frame loop).
    static var transformBits: UInt32 { 0x60 }

    /// Recomputes the identity flags of a layer's model transforms (after any
    /// write to the model transform blocks).
    func updateModelIdentityFlags(_ l: Int) {
        let b = l &* LayerProperty.stride
        layers[l].modelTransformIdentity = Engine.isIdentity(model, b &+ Engine.transformBase)
        layers[l].modelSublayerIdentity = Engine.isIdentity(model, b &+ Engine.sublayerBase)
    }

    /// Recomputes the identity flags of a layer's presentation transforms.
    @inline(__always)
    func updateIdentityFlags(_ l: Int) {
        let b = l &* LayerProperty.stride
        layers[l].presTransformIdentity = Engine.isIdentity(pres, b &+ Engine.transformBase)
        layers[l].presSublayerIdentity = Engine.isIdentity(pres, b &+ Engine.sublayerBase)
    }

    @inline(__always)
    func markPresDirty(_ l: Int) {
        layers[l].presDirty = true
        layerCold[l].dirtyForTimeOnly = false
        // Queued once until the next flush (a lazy read clears presDirty but not
        // the queue entry, so set/read/set loops do not grow the list).
        if !layerCold[l].presQueued {
            layerCold[l].presQueued = true
            dirtyLayers.append(Int32(l))
        }
    }

    /// Recomputes a layer's presentation if something changed since the last evaluation.
    @inline(__always)
    func ensurePresentation(_ l: Int) {
        if simplePending && layers[l].simple >= 0 { flushSimpleTrack() }
        if layers[l].presDirty { evaluateLayer(l, events: false) }
    }

    /// Every presentation value current: a deferred simple-track pass, then
    /// the dirty layers (whose values override the pass's).
    func ensureAllPresentations() {
        flushSimpleTrack()
        ensureDirtyPresentations()
    }

    /// The dirty-layer queue only; a deferred simple-track pass stays pending
    /// (the tick's end, and the render list, which runs it inline).
    func ensureDirtyPresentations() {
        var k = 0
        while k < dirtyLayers.count {
            let l = Int(dirtyLayers[k])
            if l < layers.count {
                layerCold[l].presQueued = false
                if layers[l].alive, layers[l].presDirty { evaluateLayer(l, events: false) }
            }
            k += 1
        }
        dirtyLayers.removeAll(keepingCapacity: true)
    }

    func readPresentation(_ l: Int, _ access: KeyPathAccess, _ n: Int) -> ValueBuffer {
        var v = ValueBuffer(count: n)
        let base = l * LayerProperty.stride
        switch access {
        case let .block(off, c):
            for k in 0..<c { v[k] = pres[base + off + k] }
        case let .virtual(tb, comp):
            comp.read(Engine.matrix(pres, base + tb).components, into: &v)
        case .contents:
            v[0] = Double(presContents[l])
        default:
            break
        }
        return v
    }

    // MARK: contents

    public func contents(layer id: UInt64) throws(CadenceError) -> UInt64 {
        modelContents[try requireLayer(id)]
    }

    /// The presentation contents id, all 64 bits (`presentation(layer:_:)` of
    /// "contents" gives a double, exact up to 2^53). An animation of `contents`
    /// carries its ids as doubles.
    public func presentationContents(layer id: UInt64) throws(CadenceError) -> UInt64 {
        let l = try requireLayer(id)
        ensurePresentation(l)
        return presContents[l]
    }

    public func setContents(layer id: UInt64, _ c: UInt64) throws(CadenceError) {
        try setContents(layer: try requireLayer(id), c)
    }

    func setContents(layer l: Int, _ c: UInt64) throws(CadenceError) {
        let t = KeyPathTarget.lookup("contents")!
        let plan = actionPlan(l, key: "contents", target: t)
        switch plan {
        case .none:
            break
        case .defaultAction:
            if layers[l].transition < 0 {
                var spec = AnimationSpec(transition: .fade)
                applyTransactionDefaults(&spec)
                _ = try? attach(layer: l, spec: spec, key: "transition", captured: nil, defaultDuration: tx.duration,
                                delay: tx.delay)
            }
        case let .spec(k):
            guard var spec = actions[l][k].spec else { break }
            applyTransactionDefaults(&spec)
            if spec.kind == .transition {
                _ = try? attach(layer: l, spec: spec, key: "transition", captured: nil, defaultDuration: tx.duration,
                                delay: tx.delay)
            } else {
                ensurePresentation(l)
                let captured = read(pres, contents: presContents[l], layer: l, t)
                modelContents[l] = c
                modelChanged(l, .contents)
                _ = try? attach(layer: l, spec: spec, key: "contents", captured: captured, defaultDuration: tx.duration,
                                delay: tx.delay)
                return
            }
        }
        modelContents[l] = c
        modelChanged(l, .contents)
    }

    // MARK: actions

    public func setActionsEnabled(layer id: UInt64, _ on: Bool) throws(CadenceError) {
        layerCold[try requireLayer(id)].actionsEnabled = on
    }

    /// Sets the action for `key`: an animation (copied now, copied again each
    /// time it runs) or nil for "no action".
    public func setAction(layer id: UInt64, key: String, animation: UInt64) throws(CadenceError) {
        let l = try requireLayer(id)
        try Engine.checkActionKey(key)
        var spec: AnimationSpec?
        if animation != 0 { spec = try animationSpec(animation) }
        if let s = spec {
            // Every check cad_layer_add_animation makes (keyTimes against the
            // values, segment timing functions, TCB lists, paths, ...), now:
            // the action runs inside cad_layer_set, which cannot report it.
            try s.validateForAdd()
            _ = try compile(s, defaultDuration: 0.25)
        }
        if let k = actions[l].firstIndex(where: { $0.key == key }) {
            actions[l][k].spec = spec
        } else {
            actions[l].append(ActionOverride(key: key, spec: spec))
        }
    }

    public func clearAction(layer id: UInt64, key: String) throws(CadenceError) {
        let l = try requireLayer(id)
        try Engine.checkActionKey(key)
        actions[l].removeAll { $0.key == key }
    }

    /// Actions are looked up by the key path of the change (§10), so an action key
    /// must be an animatable key path: a misspelt key would be an action (or a "no
    /// action" marker) that never runs, a silent no-op §2 rules out.
    static func checkActionKey(_ key: String) throws(CadenceError) {
        guard let t = KeyPathTarget.lookup(key) else {
            throw CadenceError(.unknownKeyPath, "unknown key path \"\(key.prefix(80))\" (actions are looked up by the key path of the change)")
        }
        guard t.animatable else {
            throw .invalidArgument("\"\(key)\" is not animatable: no action ever runs for it" +
                                   (key == "frame" ? " (setting frame runs the actions of position and bounds)" : ""))
        }
    }

    enum ActionPlan {
        case none
        case defaultAction
        /// The layer's override at this index in `actions[l]` (its spec is
        /// set): an index, not the spec (hundreds of bytes), which every move of the
        /// plan copied.
        case spec(Int)
    }

    /// Which action runs for a change of `key` now (SEMANTICS.md §10).
    /// (`key` nil: `t`'s name, made only when the layer has overrides.)
    func actionPlan(_ l: Int, key: String?, target t: KeyPathTarget) -> ActionPlan {
        if layerCold[l].isNew || !layerCold[l].actionsEnabled || tx.disableActions { return .none }
        if !actions[l].isEmpty, case let name = key ?? t.name, let k = actions[l].firstIndex(where: { $0.key == name }) {
            return actions[l][k].spec?.kind != nil ? .spec(k) : .none
        }
        return .defaultAction
    }
}
