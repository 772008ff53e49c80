/// An entry of the render traversal stack.
struct TraversalEntry {
    var layer: Int32
    var parentOut: Int32
    var flags: UInt8

    static let parentRecomputed: UInt8 = 1
    static let incoming: UInt8 = 2
    /// `layer` is a transition instance whose outgoing picture is drawn now.
    static let outgoingMarker: UInt8 = 4
}

extension Engine {
    // MARK: cache

    /// Refreshes the render-item fields that come from the layer's own
    /// presentation values (everything but identity, parent, world and world opacity).
    mutating func refreshVisualCache(_ l: Int) {
        let b = l * LayerProperty.stride
        var flags: Int32 = 0
        if pres[b + LayerProperty.masksToBounds.offset] != 0 { flags |= RenderItem.masksToBounds }
        if pres[b + LayerProperty.doubleSided.offset] != 0 { flags |= RenderItem.doubleSided }
        cache[l].flags = flags
        cache[l].bounds = float4(pres, b + LayerProperty.bounds.offset)
        cache[l].opacity = clamp01(pres[b + LayerProperty.opacity.offset])
        cache[l].backgroundColor = color4(pres, b + LayerProperty.backgroundColor.offset)
        cache[l].borderColor = color4(pres, b + LayerProperty.borderColor.offset)
        cache[l].shadowColor = color4(pres, b + LayerProperty.shadowColor.offset)
        cache[l].borderWidth = Float(pres[b + LayerProperty.borderWidth.offset])
        cache[l].cornerRadius = Float(pres[b + LayerProperty.cornerRadius.offset])
        cache[l].shadowOpacity = clamp01(pres[b + LayerProperty.shadowOpacity.offset])
        cache[l].shadowRadius = Float(pres[b + LayerProperty.shadowRadius.offset])
        cache[l].shadowOffset = (Float(pres[b + LayerProperty.shadowOffset.offset]), Float(pres[b + LayerProperty.shadowOffset.offset + 1]))
        cache[l].contentsRect = float4(pres, b + LayerProperty.contentsRect.offset)
        cache[l].contents = presContents[l]
    }

    // MARK: matrices (SEMANTICS.md §2.2)

    /// `local(L)`: bounds space to the superlayer's bounds space, including the
    /// superlayer's sublayerTransform about its anchor.
    func localMatrix(_ l: Int) -> Transform3D {
        let b = l * LayerProperty.stride
        let px = pres[b], py = pres[b + 1], pz = pres[b + 2]
        let ax = pres[b + 3], ay = pres[b + 4], az = pres[b + 5]
        let ox = pres[b + 6] + ax * pres[b + 8]
        let oy = pres[b + 7] + ay * pres[b + 9]
        var m: Transform3D
        let t = Engine.matrix(pres, b + Engine.transformBase)
        if t.isIdentity {
            m = .translation(px - ox, py - oy, pz)
        } else {
            m = .translation(-ox, -oy, -az) * t * .translation(px, py, pz + az)
        }
        let p = Int(layers[l].parent)
        if p >= 0 {
            let pb = p * LayerProperty.stride
            let s = Engine.matrix(pres, pb + Engine.sublayerBase)
            if !s.isIdentity {
                let qx = pres[pb + 6] + pres[pb + 3] * pres[pb + 8]
                let qy = pres[pb + 7] + pres[pb + 4] * pres[pb + 9]
                let qz = pres[pb + 5]
                m = m * .translation(-qx, -qy, -qz) * s * .translation(qx, qy, qz)
            }
        }
        return m
    }

    /// World matrix computed from scratch along the ancestor chain.
    mutating func worldFromScratch(_ l: Int) -> Transform3D {
        scratchChain.removeAll(keepingCapacity: true)
        var x = l
        while x >= 0 && scratchChain.count <= layers.count {
            scratchChain.append(Int32(x))
            x = Int(layers[x].parent)
        }
        var w = Transform3D.identity
        var k = scratchChain.count - 1
        while k >= 0 {
            w = localMatrix(Int(scratchChain[k])) * w
            k -= 1
        }
        return w
    }

    @inline(__always)
    func isHiddenNow(_ l: Int) -> Bool {
        pres[l * LayerProperty.stride + LayerProperty.hidden.offset] != 0
    }

    /// A layer whose parent time is still before its beginTime is not drawn
    /// unless it fills backwards (SEMANTICS.md §3.1).
    @inline(__always)
    mutating func notYetBegun(_ l: Int) -> Bool {
        if layers[l].timeIdentity { return false }
        let tm = layers[l].timing
        guard tm.beginTime != 0, !tm.fillMode.fillsBackwards else { return false }
        let p = Int(layers[l].parent)
        let tp = p < 0 ? now : localTime(p, global: now)
        return tp < tm.beginTime
    }

    // MARK: transitions

    /// Freezes the presentation of a layer's subtree (the outgoing picture).
    mutating func snapshot(_ root: Int) -> [SnapshotItem] {
        ensureAllPresentations()
        var out: [SnapshotItem] = []
        var stack: [(Int32, Int32)] = [(Int32(root), -1)]
        while let (x, parent) = stack.popLast() {
            let l = Int(x)
            if isHiddenNow(l) || notYetBegun(l) { continue }
            var item = cache[l]
            item.layer = layerID(l)
            item.flags |= RenderItem.transitionOutgoing
            let idx = Int32(out.count)
            out.append(SnapshotItem(item: item, parent: parent, local: l == root ? .identity : localMatrix(l)))
            let subs = sublayers[l]
            var k = subs.count - 1
            while k >= 0 {
                stack.append((subs[k], idx))
                k -= 1
            }
        }
        return out
    }

    /// Offsets (in the layer's bounds space) and opacity factors of the two
    /// pictures at progress p (SEMANTICS.md §8).
    static func transitionGeometry(_ tr: TransitionRuntime, w: Double, h: Double)
        -> (outX: Double, outY: Double, outAlpha: Double, inX: Double, inY: Double, inAlpha: Double) {
        let p = tr.progress
        var dx = 0.0, dy = 0.0
        switch tr.subtype {
        case .fromLeft: dx = w
        case .fromRight: dx = -w
        case .fromTop: dy = h
        case .fromBottom: dy = -h
        }
        switch tr.type {
        case .fade:
            return (0, 0, 1 - p, 0, 0, p)
        case .push:
            return (dx * p, dy * p, 1, -dx * (1 - p), -dy * (1 - p), 1)
        case .moveIn:
            return (0, 0, 1, -dx * (1 - p), -dy * (1 - p), 1)
        case .reveal:
            return (dx * p, dy * p, 1, 0, 0, 1)
        }
    }

    // MARK: render list

    /// Items the render list of `root` needs (exact).
    public mutating func renderListCount(root rootID: UInt64) throws(CadenceError) -> Int {
        let r = try requireLayer(rootID, "root")
        ensureAllPresentations()
        return countItems(r)
    }

    mutating func countItems(_ r: Int) -> Int {
        var n = 0
        scratchStack.removeAll(keepingCapacity: true)
        scratchStack.append(Int32(r))
        while let x = scratchStack.popLast() {
            let l = Int(x)
            if isHiddenNow(l) || notYetBegun(l) { continue }
            n += 1
            let t = layers[l].transition
            if t >= 0, let tr = inst.extras[Int(t)].transition, tr.visible {
                n += 1 + tr.snapshot.count
            }
            scratchStack.append(contentsOf: sublayers[l])
        }
        return n
    }

    /// Writes the render list of `root`'s subtree (SEMANTICS.md §2.2, §8, API.md):
    /// depth-first, sublayers in order, hidden and not-yet-begun subtrees left
    /// out. Throws `bufferTooSmall` (with the count needed) and writes nothing
    /// when `out` is too short.
    public mutating func renderList(root rootID: UInt64, into out: inout MutableSpan<RenderItem>) throws(CadenceError) -> Int {
        let r = try requireLayer(rootID, "root")
        ensureAllPresentations()
        if out.count < liveLayerCount + transitionItemBound {
            let needed = countItems(r)
            if needed > out.count {
                throw CadenceError(.bufferTooSmall, "the render list needs \(needed) items; the buffer holds \(out.count)", needed: needed)
            }
        }
        // The root's ancestors: world matrix and opacity from scratch.
        var rootParentWorld = Transform3D.identity
        var rootParentOpacity = 1.0
        var ancestorsDirty = false
        let rp = Int(layers[r].parent)
        if rp >= 0 {
            rootParentWorld = worldFromScratch(rp)
            var x = rp
            var guardCount = 0
            while x >= 0 && guardCount <= layers.count {
                rootParentOpacity *= Double(cache[x].opacity)
                if layers[x].geomDirty { ancestorsDirty = true }
                x = Int(layers[x].parent)
                guardCount += 1
            }
        }
        var n = 0
        var stack = scratchTraversal
        scratchTraversal = []
        stack.removeAll(keepingCapacity: true)
        stack.append(TraversalEntry(layer: Int32(r), parentOut: -1, flags: ancestorsDirty ? TraversalEntry.parentRecomputed : 0))
        while let entry = stack.popLast() {
            if entry.flags & TraversalEntry.outgoingMarker != 0 {
                emitOutgoing(Int(entry.layer), parentOut: entry.parentOut, out: &out, n: &n)
                continue
            }
            let l = Int(entry.layer)
            if isHiddenNow(l) || notYetBegun(l) { continue }
            let p = Int(layers[l].parent)
            let isRoot = l == r
            let parentWorld = isRoot ? rootParentWorld : worldD[p]
            let parentOpacity = isRoot ? rootParentOpacity : worldOpacity[p]
            var recompute = layers[l].geomDirty || entry.flags & TraversalEntry.parentRecomputed != 0
            let t = Int(layers[l].transition)
            let transitionShowing = t >= 0 && inst.extras[t].transition?.visible == true
            if transitionShowing { recompute = true }
            var w: Transform3D
            if recompute {
                w = localMatrix(l) * parentWorld
                worldD[l] = w
                cache[l].world = w.float16
                layers[l].geomDirty = false
            } else {
                w = worldD[l]
            }
            let ownOpacity = Double(cache[l].opacity)
            var wo = parentOpacity * ownOpacity
            var parentOut = entry.parentOut
            var extraFlags: Int32 = (entry.flags & TraversalEntry.incoming != 0) ? RenderItem.transitionIncoming : 0
            var childFlags: UInt8 = recompute ? TraversalEntry.parentRecomputed : 0
            childFlags |= entry.flags & TraversalEntry.incoming
            var revealMarker = false
            var inAlpha = 1.0
            if transitionShowing, let tr = inst.extras[t].transition {
                let bw = pres[l * LayerProperty.stride + 8], bh = pres[l * LayerProperty.stride + 9]
                let g = Engine.transitionGeometry(tr, w: bw, h: bh)
                // The clip container: masks to the layer's bounds, draws nothing itself.
                var c = RenderItem()
                c.layer = layerID(l)
                c.parent = parentOut
                c.flags = RenderItem.masksToBounds | RenderItem.transitionClip | extraFlags
                c.world = w.float16
                c.bounds = cache[l].bounds
                c.opacity = 1
                c.worldOpacity = Float(parentOpacity)
                c.borderColor = (0, 0, 0, 0)
                c.shadowColor = (0, 0, 0, 0)
                c.shadowOpacity = 0
                out[n] = c
                let containerIndex = Int32(n)
                n += 1
                inst.extras[t].transition!.lastWorld = w
                inst.extras[t].transition!.lastOpacity = parentOpacity
                if tr.type == .reveal {
                    revealMarker = true
                } else {
                    emitOutgoing(t, parentOut: containerIndex, out: &out, n: &n)
                }
                parentOut = containerIndex
                w = .translation(g.inX, g.inY, 0) * w
                worldD[l] = w
                inAlpha = g.inAlpha
                wo = parentOpacity * ownOpacity * inAlpha
                extraFlags |= RenderItem.transitionIncoming
                childFlags |= TraversalEntry.parentRecomputed | TraversalEntry.incoming
                if revealMarker {
                    stack.append(TraversalEntry(layer: Int32(t), parentOut: containerIndex, flags: TraversalEntry.outgoingMarker))
                }
            }
            worldOpacity[l] = wo
            var item = cache[l]
            item.layer = layerID(l)
            item.parent = parentOut
            item.flags |= extraFlags
            if transitionShowing {
                item.world = w.float16
                item.opacity = Float(ownOpacity * inAlpha)
            }
            item.worldOpacity = Float(wo)
            out[n] = item
            let myIndex = Int32(n)
            n += 1
            let subs = sublayers[l]
            var k = subs.count - 1
            while k >= 0 {
                stack.append(TraversalEntry(layer: subs[k], parentOut: myIndex, flags: childFlags))
                k -= 1
            }
        }
        scratchTraversal = stack
        return n
    }

    /// Writes a transition's frozen outgoing picture under the clip container.
    mutating func emitOutgoing(_ t: Int, parentOut: Int32, out: inout MutableSpan<RenderItem>, n: inout Int) {
        guard let tr = inst.extras[t].transition else { return }
        let l = Int(inst.items[t].layer)
        let bw = pres[l * LayerProperty.stride + 8], bh = pres[l * LayerProperty.stride + 9]
        let g = Engine.transitionGeometry(tr, w: bw, h: bh)
        let base = n
        scratchWorlds.removeAll(keepingCapacity: true)
        scratchOpacity.removeAll(keepingCapacity: true)
        for s in tr.snapshot {
            var item = s.item
            let w: Transform3D
            let wo: Double
            if s.parent < 0 {
                w = .translation(g.outX, g.outY, 0) * tr.lastWorld
                item.parent = parentOut
                item.opacity = Float(Double(item.opacity) * g.outAlpha)
                wo = tr.lastOpacity * Double(item.opacity)
            } else {
                w = s.local * scratchWorlds[Int(s.parent)]
                item.parent = Int32(base) + s.parent
                wo = scratchOpacity[Int(s.parent)] * Double(item.opacity)
            }
            scratchWorlds.append(w)
            scratchOpacity.append(wo)
            item.world = w.float16
            item.worldOpacity = Float(wo)
            out[n] = item
            n += 1
        }
    }

    // MARK: batch sampling

    /// Presentation values of one key path for many layers, row by row.
    public mutating func sample(layers ids: Span<UInt64>, _ t: KeyPathTarget, into out: inout MutableSpan<Double>) throws(CadenceError) -> Int {
        let n = t.components
        let (needed, overflow) = ids.count.multipliedReportingOverflow(by: n)
        guard !overflow else { throw .invalidArgument("n_layers x components overflows") }
        for k in ids.indices {
            guard layerIndex(ids[k]) != nil else {
                throw .invalidHandle("layers[\(k)] (\(Engine.hex(ids[k]))) is not a live layer of this engine")
            }
        }
        guard out.count >= needed else {
            throw CadenceError(.bufferTooSmall, "sampling \(ids.count) layers of \"\(t.name)\" needs \(needed) doubles; the buffer holds \(out.count)", needed: needed)
        }
        var o = 0
        for k in ids.indices {
            guard let l = layerIndex(ids[k]) else { continue }
            ensurePresentation(l)
            let v = read(pres, contents: presContents[l], layer: l, t)
            for c in 0..<n { out[o + c] = v[c] }
            o += n
        }
        return needed
    }
}
