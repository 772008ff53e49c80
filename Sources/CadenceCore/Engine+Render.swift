/// A layer whose sublayers the render traversal is walking.
struct RenderFrame {
    var layer: Int32
    var next: Int32
    var outIndex: Int32
    var childFlags: UInt8
    /// A reveal transition whose outgoing picture is drawn after the subtree.
    var outgoing: Int32
    var outgoingParent: Int32
    /// World matrix and accumulated opacity handed to the sublayers.
    var world: Transform3D
    var opacity: Double
}

/// Flags of the render traversal.
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
    func refreshVisualCache(_ l: Int) {
        refreshVisualCacheBody(l, mask: ~0)
    }

    /// Refreshes only the render-item fields of the properties in `mask`.
    /// An opacity animation's mask (the most common one in the frame loop)
    /// alone, with one test instead of one per property.
    @inline(__always)
    func refreshVisualCache(_ l: Int, mask: UInt32) {
        if mask == LayerProperty.opacity.bit {
            cache[l].opacity = clamp01(pres[l &* LayerProperty.stride &+ LayerProperty.opacity.offset])
            return
        }
        if mask & ~LayerProperty.uncachedMask == 0 { return }   // (a change of position, transform, ...)
        refreshVisualCacheFields(l, mask: mask)
    }

    /// `refreshVisualCache(_:mask:)`, property by property.
    @inline(never)
    func refreshVisualCacheFields(_ l: Int, mask: UInt32) {
        refreshVisualCacheBody(l, mask: mask)
    }

    @inline(__always)
    func refreshVisualCacheBody(_ l: Int, mask: UInt32) {
        let b = l &* LayerProperty.stride
        if mask & LayerProperty.hidden.bit != 0 { layers[l].presHidden = pres[b &+ LayerProperty.hidden.offset] != 0 }
        if mask & (LayerProperty.masksToBounds.bit | LayerProperty.doubleSided.bit) != 0 {
            var flags: Int32 = 0
            if pres[b &+ LayerProperty.masksToBounds.offset] != 0 { flags |= RenderItem.masksToBounds }
            if pres[b &+ LayerProperty.doubleSided.offset] != 0 { flags |= RenderItem.doubleSided }
            cache[l].flags = flags
        }
        if mask & LayerProperty.bounds.bit != 0 { cache[l].bounds = float4(pres, b &+ LayerProperty.bounds.offset) }
        if mask & LayerProperty.opacity.bit != 0 { cache[l].opacity = clamp01(pres[b &+ LayerProperty.opacity.offset]) }
        if mask & LayerProperty.backgroundColor.bit != 0 { cache[l].backgroundColor = color4(pres, b &+ LayerProperty.backgroundColor.offset) }
        if mask & LayerProperty.borderColor.bit != 0 { cache[l].borderColor = color4(pres, b &+ LayerProperty.borderColor.offset) }
        if mask & LayerProperty.shadowColor.bit != 0 { cache[l].shadowColor = color4(pres, b &+ LayerProperty.shadowColor.offset) }
        if mask & LayerProperty.borderWidth.bit != 0 { cache[l].borderWidth = fsat(pres[b &+ LayerProperty.borderWidth.offset]) }
        if mask & LayerProperty.cornerRadius.bit != 0 { cache[l].cornerRadius = fsat(pres[b &+ LayerProperty.cornerRadius.offset]) }
        if mask & LayerProperty.shadowOpacity.bit != 0 { cache[l].shadowOpacity = clamp01(pres[b &+ LayerProperty.shadowOpacity.offset]) }
        if mask & LayerProperty.shadowRadius.bit != 0 { cache[l].shadowRadius = fsat(pres[b &+ LayerProperty.shadowRadius.offset]) }
        if mask & LayerProperty.shadowOffset.bit != 0 {
            cache[l].shadowOffset = (fsat(pres[b &+ LayerProperty.shadowOffset.offset]), fsat(pres[b &+ LayerProperty.shadowOffset.offset &+ 1]))
        }
        if mask & LayerProperty.contentsRect.bit != 0 { cache[l].contentsRect = float4(pres, b &+ LayerProperty.contentsRect.offset) }
        if mask & LayerProperty.contents.bit != 0 { cache[l].contents = presContents[l] }
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
        if layers[l].presTransformIdentity {
            m = .translation(px - ox, py - oy, pz)
        } else {
            let t = Engine.matrix(pres, b + Engine.transformBase)
            if t.r1.w == 0 && t.r2.w == 0 && t.r3.w == 0 && t.r4.w == 1 {
                // Affine: T(-o) * M * T(p) only moves the fourth row.
                let r4 = -ox * t.r1 - oy * t.r2 - az * t.r3 + t.r4 + SIMD4(px, py, pz + az, 0)
                m = Transform3D(t.r1, t.r2, t.r3, r4)
            } else {
                m = .translation(-ox, -oy, -az) * t * .translation(px, py, pz + az)
            }
        }
        let p = Int(layers[l].parent)
        if p >= 0 {
            let pb = p * LayerProperty.stride
            if !layers[p].presSublayerIdentity {
                let s = Engine.matrix(pres, pb + Engine.sublayerBase)
                let qx = pres[pb + 6] + pres[pb + 3] * pres[pb + 8]
                let qy = pres[pb + 7] + pres[pb + 4] * pres[pb + 9]
                let qz = pres[pb + 5]
                m = m * .translation(-qx, -qy, -qz) * s * .translation(qx, qy, qz)
            }
        }
        return m
    }

    /// `local(L) * parentWorld`, with a fast path for the common case of a
    /// layer whose local matrix is a translation (identity transform, no
    /// sublayerTransform above it): only the fourth row changes.
    @inline(__always)
    func worldMatrix(_ l: Int, parentWorld pw: Transform3D) -> Transform3D {
        let b = l &* LayerProperty.stride
        let p = Int(layers[l].parent)
        if layers[l].presTransformIdentity && (p < 0 || layers[p].presSublayerIdentity) {
            let tx = pres[b] - (pres[b &+ 6] + pres[b &+ 3] * pres[b &+ 8])
            let ty = pres[b &+ 1] - (pres[b &+ 7] + pres[b &+ 4] * pres[b &+ 9])
            let tz = pres[b &+ 2]
            return Transform3D(pw.r1, pw.r2, pw.r3, tx * pw.r1 + ty * pw.r2 + tz * pw.r3 + pw.r4)
        }
        return localMatrix(l) * pw
    }

    /// World matrix computed from scratch along the ancestor chain, as the
    /// render list draws it.
    func worldFromScratch(_ l: Int) -> Transform3D {
        worldAlongChain(l, pictures: true) { localMatrix($0) }
    }

    /// The product of `local` down the ancestor chain of `l`, saturated per
    /// level as the traversal hands worlds down (`renderList`). With
    /// `pictures`, as the full list draws it: a running transition moves (or
    /// turns) the layer's incoming picture, and with it the live subtree.
    @inline(__always)
    func worldAlongChain(_ l: Int, pictures: Bool, _ local: (Int) -> Transform3D) -> Transform3D {
        scratchChain.removeAll(keepingCapacity: true)
        var x = l
        while x >= 0 && scratchChain.count <= layers.count {
            scratchChain.append(Int32(x))
            x = Int(layers[x].parent)
        }
        var w = Transform3D.identity
        var k = scratchChain.count - 1
        while k >= 0 {
            let x = Int(scratchChain[k])
            w = (local(x) * w).saturated
            if pictures, let g = incomingPicture(x) { w = (g.matrix * w).saturated }
            k -= 1
        }
        return w
    }

    /// The local matrix (pre-multiplied onto the layer's world) and opacity
    /// factor of layer `x`'s incoming picture while a transition is showing on
    /// it (SEMANTICS.md §8), nil otherwise.
    func incomingPicture(_ x: Int) -> (matrix: Transform3D, alpha: Double)? {
        let t = Int(layers[x].transition)
        guard t >= 0, let tr = inst.transitions[t], tr.visible else { return nil }
        let b = x &* LayerProperty.stride
        let g = Engine.transitionGeometry(tr, w: pres[b &+ 8], h: pres[b &+ 9])
        return (pictureMatrices(tr, layer: x, g).incoming, g.inAlpha)
    }

    /// A layer left out of the render list (hidden, not yet begun): neither it
    /// nor its subtree is visited, so their cached worlds miss any move of an
    /// ancestor. Its world is marked stale, which makes its next visit
    /// recompute it and hand the recompute to its sublayers, and makes a list
    /// rendered from inside its subtree recompute from scratch (`renderList`).
    @inline(__always)
    func markSkipped(_ l: Int) {
        if !layers[l].worldStale { layers[l].worldStale = true }
    }

    @inline(__always)
    func isHiddenNow(_ l: Int) -> Bool {
        layers[l].presHidden
    }

    /// A layer whose parent time is still before its beginTime is not drawn
    /// unless it fills backwards (SEMANTICS.md §3.1).
    @inline(__always)
    func notYetBegun(_ l: Int) -> Bool {
        if layers[l].timeIdentity { return false }
        let tm = layerCold[l].timing
        // (A beginTime of 0 is not "always begun": the parent's time can be
        // negative, e.g. under a timeOffset < 0 or a parent filling backwards.)
        guard !tm.fillMode.fillsBackwards else { return false }
        let p = Int(layers[l].parent)
        let tp = p < 0 ? now : localTime(p, global: now)
        return tp < tm.beginTime
    }

    // MARK: transitions

    /// Freezes the presentation of a layer's subtree (the outgoing picture).
    func snapshot(_ root: Int) -> [SnapshotItem] {
        ensureAllPresentations()
        var out = inst.snapshotPool.popLast() ?? []
        out.removeAll(keepingCapacity: true)
        // (layer, parent index in the snapshot) pairs, depth first.
        scratchStack.removeAll(keepingCapacity: true)
        scratchSnapParents.removeAll(keepingCapacity: true)
        scratchStack.append(Int32(root))
        scratchSnapParents.append(-1)
        while let x = scratchStack.popLast() {
            let parent = scratchSnapParents.removeLast()
            let l = Int(x)
            if isHiddenNow(l) || notYetBegun(l) { continue }
            var item = RenderItem(cache[l], world: cacheWorld[l])
            item.layer = layerID(l)
            item.flags |= RenderItem.transitionOutgoing
            let idx = Int32(out.count)
            out.append(SnapshotItem(item: item, parent: parent, local: l == root ? .identity : localMatrix(l)))
            let subs = liveSublayers(l)
            var k = subs.count - 1
            while k >= 0 {
                scratchStack.append(subs[k])
                scratchSnapParents.append(idx)
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
        // Opacity factors stay in [0, 1] even when an overshooting timing
        // function takes p outside it (offsets may overshoot).
        let pc = p.isNaN ? 0 : min(max(p, 0), 1)
        switch tr.type {
        case .fade:
            return (0, 0, 1 - pc, 0, 0, pc)
        case .push:
            return (dx * p, dy * p, 1, -dx * (1 - p), -dy * (1 - p), 1)
        case .moveIn:
            return (0, 0, 1, -dx * (1 - p), -dy * (1 - p), 1)
        case .reveal:
            return (dx * p, dy * p, 1, 0, 0, 1)
        case .flip:
            // No offsets (the turn is in `turningMatrices`); one face shows:
            // the outgoing picture while p < 0.5, the incoming one from 0.5 on.
            let o: Double = pc < 0.5 ? 1 : 0
            return (0, 0, o, 0, 0, 1 - o)
        case .cube:
            // A face turned away from the viewer is hidden, as flip's back
            // face is (`cubeFaceShows`): the faces that show never overlap.
            let aboutY = tr.subtype == .fromLeft || tr.subtype == .fromRight
            let e = aboutY ? w : h, d = 2 * Swift.max(w, h)
            let q = p.isNaN ? 0 : p
            let outShows = Engine.cubeFaceShows(angle: Double.pi / 2 * q, edge: e, depth: d)
            let inShows = Engine.cubeFaceShows(angle: Double.pi / 2 * (q - 1), edge: e, depth: d)
            return (0, 0, outShows ? 1 : 0, 0, 0, inShows ? 1 : 0)
        }
    }

    /// Whether a cube face turned by `angle` (either sign: the test is even)
    /// faces the viewer (docs/decisions.md, Transitions). The face's centre
    /// is at (0, 0, E/2) from the cube's axis, which lies E/2 behind the
    /// layer plane; the turn takes its normal (0, 0, 1) to (sin a, 0, cos a)
    /// about y, (0, -sin a, cos a) about x, and its centre to E/2 times that
    /// minus (0, 0, E/2). The perspective P (m34 = -1/D) projects from the
    /// eye at (0, 0, D) in front of the bounds centre, so the face shows when
    /// normal · (eye - centre) = (D + E/2) cos a - E/2 > 0 (about either
    /// axis); without perspective (D <= 0 or NaN) the eye is infinitely far
    /// along +z: cos a > 0. A face at exactly the limit is edge-on: hidden.
    @inline(__always)
    static func cubeFaceShows(angle a: Double, edge e: Double, depth d: Double) -> Bool {
        let c = Double.cos(a)
        return d > 0 ? (d + e / 2) * c > e / 2 : c > 0
    }

    /// The local matrices pre-multiplied onto the worlds of the outgoing and
    /// incoming pictures of layer `l`'s transition (in its bounds space): the
    /// offsets of `g` as translations for fade, moveIn, push and reveal (the
    /// products are the ones these types always had), the 3D turn of
    /// `turningMatrices` for flip and cube.
    @inline(__always)
    func pictureMatrices(_ tr: TransitionRuntime, layer l: Int,
                         _ g: (outX: Double, outY: Double, outAlpha: Double, inX: Double, inY: Double, inAlpha: Double))
        -> (outgoing: Transform3D, incoming: Transform3D) {
        guard tr.type.turns else { return (.translation(g.outX, g.outY, 0), .translation(g.inX, g.inY, 0)) }
        let b = l &* LayerProperty.stride
        return Engine.turningMatrices(tr, x: pres[b &+ 6], y: pres[b &+ 7], w: pres[b &+ 8], h: pres[b &+ 9])
    }

    /// The local matrices of the two pictures of a flip or cube transition
    /// (Cadence's own types, SEMANTICS.md §8; docs/decisions.md, Transitions),
    /// for a layer whose bounds are (x, y, w, h). Row vectors (§2.2), composed
    /// left to right; c = (x + w/2, y + h/2) the bounds centre; P the
    /// perspective, m34 = -1/D with D = 2 max(w, h) (none when D <= 0 or NaN);
    /// R the rotation about y (fromLeft, fromRight) or x (fromTop, fromBottom).
    ///
    /// flip: out = T(-c) R(s pi p) P T(c), in = T(-c) R(s pi (p - 1)) P T(c).
    /// cube (E = w about y, h about x; the cube's centre at depth -E/2):
    /// out = T(-c) T(0,0,E/2) R(s (pi/2) p) T(0,0,-E/2) P T(c), in: angle s (pi/2) (p - 1).
    ///
    /// The sign s, from CATransform3DMakeRotation's rows (`Transform3D.rotation`):
    /// - about y, [x y z 1] R_y(a) = (x cos a + z sin a, y, -x sin a + z cos a):
    ///   a point of the left edge (x = -W/2 from the centre, z = 0) gets
    ///   z' = (W/2) sin a, toward the viewer (+z) when sin a > 0. flip fromLeft
    ///   (left edge forward in the first half, a = s pi p in (0, pi/2]): s = +1;
    ///   fromRight, the mirror: s = -1. cube: the incoming face's centre
    ///   (0, 0, E/2) from the axis goes to x' = (E/2) sin a, at p = 0
    ///   (a = -s pi/2) x' = -s E/2: on the left (fromLeft) for s = +1, and the
    ///   outgoing face (a = (pi/2) p > 0) moves right; fromRight s = -1.
    /// - about x, [x y z 1] R_x(a) = (x, y cos a - z sin a, y sin a + z cos a):
    ///   the top edge (y = -H/2, y grows downward) gets z' = -(H/2) sin a,
    ///   forward when sin a < 0: flip fromTop s = -1, fromBottom s = +1. cube:
    ///   the incoming face's centre goes to y' = -(E/2) sin a, at p = 0 s E/2:
    ///   on top (y' < 0) for s = -1 (fromTop); fromBottom s = +1.
    /// So s = +1 for fromLeft and fromBottom, -1 for fromRight and fromTop, in
    /// both types. A NaN progress turns nothing (as 0, like the fade factors).
    static func turningMatrices(_ tr: TransitionRuntime, x: Double, y: Double, w: Double, h: Double)
        -> (outgoing: Transform3D, incoming: Transform3D) {
        let p = tr.progress.isNaN ? 0 : tr.progress
        let cx = x + w / 2, cy = y + h / 2
        let d = 2 * Swift.max(w, h)
        var perspective = Transform3D.identity
        if d > 0 { perspective.r3.w = -1 / d }
        let aboutY = tr.subtype == .fromLeft || tr.subtype == .fromRight
        let s: Double = (tr.subtype == .fromLeft || tr.subtype == .fromBottom) ? 1 : -1
        @inline(__always) func turn(_ a: Double) -> Transform3D {
            aboutY ? .rotation(a, 0, 1, 0) : .rotation(a, 1, 0, 0)
        }
        let toCentre = Transform3D.translation(-cx, -cy, 0)
        let back = perspective * .translation(cx, cy, 0)
        if tr.type == .cube {
            let e = aboutY ? w : h
            let front = Transform3D.translation(0, 0, e / 2), behind = Transform3D.translation(0, 0, -e / 2)
            let q = Double.pi / 2
            return (toCentre * front * turn(s * q * p) * behind * back,
                    toCentre * front * turn(s * q * (p - 1)) * behind * back)
        }
        return (toCentre * turn(s * .pi * p) * back, toCentre * turn(s * .pi * (p - 1)) * back)
    }

    // MARK: render list

    /// Items the render list of `root` needs (exact).
    public func renderListCount(root rootID: UInt64) throws(CadenceError) -> Int {
        let r = try requireLayer(rootID, "root")
        // The count reads hidden flags and timing, never a simple-track value
        // (a visual entry keeps the track from being deferred).
        ensureDirtyPresentations()
        if ancestorLeftOut(r) { return 0 }
        return countItems(r)
    }

    /// Whether an ancestor of `r` is left out of the render list (hidden, not
    /// yet begun): then so is `r`'s whole subtree, whichever layer the list is
    /// rendered from.
    func ancestorLeftOut(_ r: Int) -> Bool {
        var x = Int(layers[r].parent)
        var guardCount = 0
        while x >= 0 && guardCount <= layers.count {
            if isHiddenNow(x) || notYetBegun(x) { return true }
            x = Int(layers[x].parent)
            guardCount += 1
        }
        return false
    }

    func countItems(_ r: Int) -> Int {
        let (own, descend) = ownItemCount(r)
        guard descend else { return own }
        var n = own
        // Parents only go on the stack; leaves are counted as their parent's
        // sublayers are scanned (hosts that size their buffer to the count
        // pay this walk every frame).
        scratchStack.removeAll(keepingCapacity: true)
        scratchStack.append(Int32(r))
        while let x = scratchStack.popLast() {
            let subs = liveSublayers(Int(x))
            for c in subs {
                let (k, d) = ownItemCount(Int(c))
                n &+= k
                if d { scratchStack.append(c) }
            }
        }
        return n
    }

    /// A layer's own items in a list (itself, and a showing transition's
    /// container and outgoing picture) and whether its sublayers are drawn.
    @inline(__always)
    func ownItemCount(_ l: Int) -> (items: Int, descend: Bool) {
        if notYetBegun(l) { return (0, false) }
        var k = 0
        let t = layers[l].transition
        // A showing transition draws its container and outgoing picture, also
        // when the layer is hidden.
        if t >= 0, let tr = inst.transitions[Int(t)], tr.visible { k = 1 &+ tr.snapshot.count }
        if isHiddenNow(l) { return (k, false) }
        return (k &+ 1, layers[l].hasChildren)
    }

    /// Writes the render list of `root`'s subtree (SEMANTICS.md §2.2, §8, API.md):
    /// depth-first, sublayers in order, hidden and not-yet-begun subtrees left
    /// out. Throws `bufferTooSmall` (with the count needed) and writes nothing
    /// when `out` is too short.
    public func renderList(root rootID: UInt64, into out: inout MutableSpan<RenderItem>) throws(CadenceError) -> Int {
        let r = try requireLayer(rootID, "root")
        // A deferred simple-track pass runs inline as the traversal reaches
        // each layer (`emitLayer`, the translated-leaf run); entries it does
        // not reach are done at the end. The root's ancestors are read from
        // scratch, so with ancestors the pass runs first.
        if layers[r].parent >= 0 { flushSimpleTrack() }
        ensureDirtyPresentations()
        simpleFused = 0
        simpleSampled = 0
        if layers[r].parent >= 0 && ancestorLeftOut(r) { return 0 }
        if out.count < liveLayerCount + transitionItemBound {
            let needed = countItems(r)
            if needed > out.count {
                // A literal message (no allocation): hosts size their buffer with this
                // every frame; the count needed goes to *n_out.
                throw CadenceError(.bufferTooSmall, "the render list needs more items than cap (the count needed is in *n_out)", needed: needed)
            }
        }
        // The root's ancestors: world matrix and opacity from scratch.
        var rootParentWorld = Transform3D.identity
        var rootParentOpacity = 1.0
        var ancestorsDirty = false
        var ancestorsIncoming = false
        let rp = Int(layers[r].parent)
        if rp >= 0 {
            rootParentWorld = worldFromScratch(rp)
            var x = rp
            var guardCount = 0
            while x >= 0 && guardCount <= layers.count {
                rootParentOpacity *= Double(cache[x].opacity)
                // (`worldStale`: an ancestor left out of a list, see `markSkipped`,
                // or one whose world changed without being cached.)
                if layers[x].geomDirty || layers[x].animatesGeometry || layers[x].worldStale { ancestorsDirty = true }
                // Inside an ancestor's incoming picture: its fade, its offset
                // (in `worldFromScratch`) and the flag, as in the full list.
                if let g = incomingPicture(x) {
                    rootParentOpacity *= g.alpha
                    ancestorsDirty = true
                    ancestorsIncoming = true
                }
                x = Int(layers[x].parent)
                guardCount += 1
            }
        }
        var n = 0
        var frames = scratchFrames
        scratchFrames = []
        frames.removeAll(keepingCapacity: true)
        var rootFrame = RenderFrame(layer: Int32(r), next: 0, outIndex: -1, childFlags: 0, outgoing: -1,
                                    outgoingParent: -1, world: rootParentWorld, opacity: rootParentOpacity)
        let rootFlags = (ancestorsDirty ? TraversalEntry.parentRecomputed : 0)
            | (ancestorsIncoming ? TraversalEntry.incoming : 0)
        if emitLayer(r, parentOut: -1, parentWorld: rootParentWorld, parentOpacity: rootParentOpacity,
                     flags: rootFlags, out: &out, n: &n, frame: &rootFrame) {
            rootFrame.world = rootFrame.world.saturated
            frames.append(rootFrame)
        }
        // Depth-first: leaves never touch the frame stack.
        var child = RenderFrame(layer: 0, next: 0, outIndex: -1, childFlags: 0, outgoing: -1,
                                outgoingParent: -1, world: .identity, opacity: 1)
        outer: while let f = frames.popLast() {
            let subs = liveSublayers(Int(f.layer))
            var k = Int(f.next)
            // Rows 1-3 of a translated child's world are the parent's (SEMANTICS.md §2.2).
            let parentSublayerIdentity = layers[Int(f.layer)].presSublayerIdentity
            let w1 = sat4(f.world.r1), w2 = sat4(f.world.r2), w3 = sat4(f.world.r3)
            let incoming = f.childFlags & TraversalEntry.incoming != 0
            let fo = Float(f.opacity)
            let affineRuns = parentSublayerIdentity && !incoming && f.childFlags & TraversalEntry.parentRecomputed != 0
                && allowRenderRuns
            // Under a timed superlayer (a paused or slowed root) that has
            // begun (its local time >= 0), a leaf whose own time map is the
            // identity has begun too and runs on that time: the runs take it
            // (`timedRun`; its animations were evaluated by the tick).
            let pl = Int(f.layer)
            let timed = allowTimedRuns && !layers[pl].timeIdentity && !(localTime(pl, global: now) < 0)
            while k < subs.count {
                // Fast path: a run of translated leaves (`emitLeafRun`).
                if parentSublayerIdentity && !incoming {
                    if isFastLeaf(Int(subs[k])) {
                        if simplePending || !allowRenderRuns {
                            emitLeafRun(subs, &k, f, w1, w2, w3, fo, &out, &n)
                        } else {
                            emitPlainLeafRun(subs, &k, f, w1, w2, w3, fo, &out, &n)
                        }
                        if k >= subs.count { break }
                    } else if timed && !simplePending && allowRenderRuns && timedRunLeaf(layers[Int(subs[k])], Int(subs[k])) {
                        // (A pending pass samples entries on global time: with
                        // one pending, timed leaves take `emitLayer`.)
                        emitTimedPlainLeafRun(subs, &k, f, w1, w2, w3, fo, &out, &n)
                        if k >= subs.count { break }
                    }
                }
                // Fast path: a run of affine leaves under a recomputed parent
                // (`emitAffineLeafRun`). Back to the top when it took some
                // (the next sublayer may begin a translated run); when it took
                // none (a perspective transform), `emitLayer` takes the layer.
                if affineRuns && isAffineRunLeaf(Int(subs[k]), pending: simplePending, timed: timed) {
                    let k0 = k
                    if timed {
                        emitTimedAffineLeafRun(subs, &k, f, &out, &n)
                    } else {
                        emitAffineLeafRun(subs, &k, f, &out, &n)
                    }
                    if k >= subs.count { break }
                    if k != k0 { continue }
                }
                let c = Int(subs[k])
                k += 1
                child.layer = Int32(c)
                if emitLayer(c, parentOut: f.outIndex, parentWorld: f.world, parentOpacity: f.opacity,
                             flags: f.childFlags, out: &out, n: &n, frame: &child) {
                    var saved = f
                    saved.next = Int32(k)
                    frames.append(saved)
                    // The world handed to the sublayers saturates at ±DBL_MAX
                    // (`Transform3D.saturated`, per level; a no-op unless an
                    // element is not finite): an element that overflowed would
                    // meet the sublayers' zeros as inf·0 = NaN, a collapsed
                    // layer two levels further down. (The layer's own item is
                    // the same either way: `sat4`.)
                    child.world = child.world.saturated
                    frames.append(child)
                    continue outer
                }
            }
            if f.outgoing >= 0 {
                emitOutgoing(Int(f.outgoing), parentOut: f.outgoingParent, out: &out, n: &n)
            }
        }
        scratchFrames = frames
        // Every entry evaluated: the pass is done or, when some were only
        // sampled into the list, stays pending for the next read of the block
        // (same time, same values). Otherwise the rest runs now.
        if simplePending {
            if simpleFused &+ simpleSampled != simpleAnims.count {
                flushSimpleTrack()
            } else if simpleSampled == 0 {
                simplePending = false
            }
        }
        return n
    }

    /// A deferred simple-track entry of layer `l` evaluated before the render
    /// list reads the layer (see `renderList`).
    @inline(never)
    func evaluatePendingEntry(_ l: Int) {
        let j = Int(layers[l].simple)
        guard j >= 0 && j < simpleAnims.count else { return }
        let t = now
        var done = false
        withTrackAndBlock { track, out in done = passOne(track, j, t, &out, visual: false) }
        if done { simpleFused &+= 1 }
    }

    /// Writes output item `m` of a leaf from its render-cache entry `c`, with
    /// its world and world opacity (the leaf runs). Field by field: the four
    /// floats from borderWidth on are read before any store, so that they move
    /// as one 16-byte unit (the output might alias the cache as far as the
    /// compiler knows).
    @inline(__always)
    static func writeLeafItem(_ out: inout MutableSpan<RenderItem>, _ m: Int, _ cs: Span<CachedItem>, _ c: Int,
                              parent: Int32, world: RenderItem.Float16, worldOpacity: Float) {
        let metrics = (cs[c].borderWidth, cs[c].cornerRadius, cs[c].shadowOpacity, cs[c].shadowRadius)
        out[m].layer = cs[c].layer
        out[m].parent = parent
        out[m].flags = cs[c].flags
        out[m].world = world
        out[m].bounds = cs[c].bounds
        out[m].opacity = cs[c].opacity
        out[m].worldOpacity = worldOpacity
        out[m].backgroundColor = cs[c].backgroundColor
        out[m].borderColor = cs[c].borderColor
        out[m].shadowColor = cs[c].shadowColor
        out[m].borderWidth = metrics.0
        out[m].cornerRadius = metrics.1
        out[m].shadowOpacity = metrics.2
        out[m].shadowRadius = metrics.3
        out[m].shadowOffset = cs[c].shadowOffset
        out[m].contentsRect = cs[c].contentsRect
        out[m].contents = cs[c].contents
    }

    /// The render list's fast path for a run of translated leaves (see
    /// `renderList`): visible leaves with identity transforms under a parent
    /// without sublayerTransform, each world a translation of the parent's,
    /// computed directly into the output; a deferred simple-track entry is
    /// evaluated as its leaf is reached. The presentation block, the render
    /// cache and the track are moved out of the engine for the run (O(1)) and
    /// read through spans. Advances `k` past the run.
    @inline(never)
    func emitLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame, _ w1: SIMD4<Float>, _ w2: SIMD4<Float>,
                     _ w3: SIMD4<Float>, _ fo: Float, _ out: inout MutableSpan<RenderItem>, _ n: inout Int) {
        var presL: [Double] = []
        swap(&presL, &pres)
        var cacheL: [CachedItem] = []
        swap(&cacheL, &cache)
        var animsL: [SimpleAnim] = []
        swap(&animsL, &simpleAnims)
        var leafL: [LeafOrigin] = []
        swap(&leafL, &simpleLeaf)
        let pending = simplePending
        let t = now
        do {
            var ps = presL.mutableSpan
            let cs = cacheL.span
            let track = animsL.span
            var origins = leafL.mutableSpan
            let r1 = f.world.r1, r2 = f.world.r2, r3 = f.world.r3, r4w = f.world.r4
            let parentOut = f.outIndex
            while k < subs.count {
                let c = Int(subs[k])
                // The record read once (one bounds check; the stores to k
                // and n below would make the compiler reload its fields).
                let rec = layers[c]
                guard Engine.isFastLeaf(rec) else { break }
                k += 1
                let stale = rec.worldStale
                if rec.presHidden {
                    markSkipped(c)
                    continue
                }
                let b = c &* LayerProperty.stride
                var tx = 0.0, ty = 0.0, tz = 0.0
                // A deferred simple-track entry, evaluated as its leaf is
                // reached. One of `position` is only sampled (the block is
                // left to a later flush, see `renderList`) and the rest of
                // the translation comes from the leaf origin: no line of the
                // block is read. Any other is written to the block, whose
                // lines are about to be read anyway.
                var done = false
                if pending {
                    let j = Int(rec.simple)
                    if j >= 0 && j < track.count && j < origins.count {
                        if track[j].propOffset == 0 && track[j].count == 2 {
                            var v = SIMD4<Double>()
                            if sampleOne(track, j, t, &v, visual: false, twoLanes: true) {
                                simpleSampled &+= 1
                                // Unknown (NaN): `x != x` is one compare
                                // (`isNaN` tests the bits).
                                if origins[j].x != origins[j].x {
                                    let p = ps.span.extracting(b ..< b &+ 10)
                                    origins[j] = LeafOrigin(x: p[6] + p[3] * p[8], y: p[7] + p[4] * p[9], z: p[2])
                                }
                                tx = v.x - origins[j].x
                                ty = v.y - origins[j].y
                                tz = origins[j].z
                                done = true
                            }
                        } else if passOne(track, j, t, &ps, visual: false) {
                            simpleFused &+= 1
                        }
                    }
                }
                if !done {
                    // One range check for the ten values read (position,
                    // anchorPoint, bounds), not one per index.
                    let p = ps.span.extracting(b ..< b &+ 10)
                    tx = p[0] - (p[6] + p[3] * p[8])
                    ty = p[1] - (p[7] + p[4] * p[9])
                    tz = p[2]
                }
                let r4 = sat4(tx * r1 + ty * r2 + tz * r3 + r4w)
                // Field by field, straight across: no staging of the whole
                // item through registers and the stack, no memcpy call.
                Engine.writeLeafItem(&out, n, cs, c, parent: parentOut,
                                     world: (w1.x, w1.y, w1.z, w1.w, w2.x, w2.y, w2.z, w2.w,
                                             w3.x, w3.y, w3.z, w3.w, r4.x, r4.y, r4.z, r4.w),
                                     worldOpacity: fo * cs[c].opacity)
                // geomDirty stays as it is (the general path clears it when it
                // next computes this layer); the cached world is now stale.
                if !stale { layers[c].worldStale = true }
                n &+= 1
            }
        }
        swap(&presL, &pres)
        swap(&cacheL, &cache)
        swap(&animsL, &simpleAnims)
        swap(&leafL, &simpleLeaf)
    }

    /// `emitLeafRun` when no deferred simple-track pass is pending (every
    /// translation comes from the block): the same items and flags from a
    /// loop with fewer live values (no track, no leaf origins), the layer
    /// table read through a span (moved out of the engine for the run too).
    /// (The span and the locals made `emitLeafRun`'s sampling loop slower:
    /// more values live across it than registers.)
    @inline(never)
    func emitPlainLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame, _ w1: SIMD4<Float>, _ w2: SIMD4<Float>,
                          _ w3: SIMD4<Float>, _ fo: Float, _ out: inout MutableSpan<RenderItem>, _ n: inout Int) {
        plainLeafRun(subs, &k, f, w1, w2, w3, fo, &out, &n, timed: false)
    }

    /// `emitPlainLeafRun` under a timed superlayer that has begun: also the
    /// leaves whose own time map is the identity (`timedRunLeaf`).
    @inline(never)
    func emitTimedPlainLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame, _ w1: SIMD4<Float>, _ w2: SIMD4<Float>,
                               _ w3: SIMD4<Float>, _ fo: Float, _ out: inout MutableSpan<RenderItem>, _ n: inout Int) {
        plainLeafRun(subs, &k, f, w1, w2, w3, fo, &out, &n, timed: true)
    }

    @inline(__always)
    func plainLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame, _ w1: SIMD4<Float>, _ w2: SIMD4<Float>,
                      _ w3: SIMD4<Float>, _ fo: Float, _ out: inout MutableSpan<RenderItem>, _ n: inout Int,
                      timed: Bool) {
        var layersL: [LayerRecord] = []
        swap(&layersL, &layers)
        var presL: [Double] = []
        swap(&presL, &pres)
        var cacheL: [CachedItem] = []
        swap(&cacheL, &cache)
        do {
            var recs = layersL.mutableSpan
            let ps = presL.span
            let cs = cacheL.span
            let r1 = f.world.r1, r2 = f.world.r2, r3 = f.world.r3, r4w = f.world.r4
            let parentOut = f.outIndex
            // k and n in locals (registers), stored back once.
            var i = k, m = n
            defer { k = i; n = m }
            while i < subs.count {
                let c = Int(subs[i])
                let r = recs[c]
                guard Engine.isFastLeaf(r) || (timed && timedRunLeaf(r, c)) else { break }
                i &+= 1
                if r.presHidden {
                    // As `markSkipped`.
                    if !r.worldStale { recs[c].worldStale = true }
                    continue
                }
                let b = c &* LayerProperty.stride
                let p = ps.extracting(b ..< b &+ 10)
                let tx = p[0] - (p[6] + p[3] * p[8])
                let ty = p[1] - (p[7] + p[4] * p[9])
                let tz = p[2]
                let r4 = sat4(tx * r1 + ty * r2 + tz * r3 + r4w)
                // Timed leaves: the world opacity as `emitLayer`, which drew
                // them before the timed runs (a product in double, one
                // rounding), not the leaf runs' float product.
                let wo = timed ? Float(f.opacity * Double(cs[c].opacity)) : fo * cs[c].opacity
                Engine.writeLeafItem(&out, m, cs, c, parent: parentOut,
                                     world: (w1.x, w1.y, w1.z, w1.w, w2.x, w2.y, w2.z, w2.w,
                                             w3.x, w3.y, w3.z, w3.w, r4.x, r4.y, r4.z, r4.w),
                                     worldOpacity: wo)
                if !r.worldStale { recs[c].worldStale = true }
                m &+= 1
            }
        }
        swap(&layersL, &layers)
        swap(&presL, &pres)
        swap(&cacheL, &cache)
    }

    /// A leaf the render list's fast path can emit: identity transform, no
    /// sublayers, no transition, identity time map. (Checked before the run
    /// moves the blocks out, so layers that never qualify skip the moves.)
    @inline(__always)
    func isFastLeaf(_ c: Int) -> Bool {
        Engine.isFastLeaf(layers[c])
    }

    /// A leaf of a run under a timed superlayer that has begun (`timed` in
    /// `renderList`): the shape the run needs (as `isFastLeaf`) and a time
    /// map of its own that is the identity — beginTime 0, so it has begun
    /// when its superlayer has. (Read from the cold record, only under timed
    /// superlayers.)
    @inline(never)
    func timedRunLeaf(_ r: LayerRecord, _ c: Int) -> Bool {
        r.presTransformIdentity && !r.hasChildren && r.transition < 0 && layerCold[c].timing.isIdentityMap
    }

    /// `isAffineRunLeaf`, also under a timed superlayer that has begun.
    @inline(__always)
    func isAffineRunLeaf(_ c: Int, pending: Bool, timed: Bool) -> Bool {
        let r = layers[c]
        if Engine.isAffineRunLeaf(r, pending: pending) { return true }
        return timed && timedAffineLeaf(r, c, pending: pending)
    }

    @inline(never)
    func timedAffineLeaf(_ r: LayerRecord, _ c: Int, pending: Bool) -> Bool {
        !r.presTransformIdentity && !r.hasChildren && r.transition < 0 && !(pending && r.simple >= 0)
            && layerCold[c].timing.isIdentityMap
    }

    @inline(__always)
    static func isFastLeaf(_ r: LayerRecord) -> Bool {
        r.presTransformIdentity && !r.hasChildren && r.transition < 0 && r.timeIdentity
    }

    /// `world(L)` when the superlayer has no sublayerTransform and L's
    /// transform is affine (last column exactly 0, 0, 0, 1): the local matrix
    /// and the product of `localMatrix(l) * pw`, fused, with the same
    /// operations in the same order (bit-identical results), reading the
    /// layer's presentation block through one sub-span. nil when the
    /// transform is not affine.
    @inline(__always)
    static func affineWorld(_ block: [Double], _ b: Int, parentWorld pw: Transform3D) -> Transform3D? {
        let all = block.span
        return affineWorld(all.extracting(b ..< b &+ (Engine.transformBase &+ 16)), parentWorld: pw)
    }

    /// `affineWorld` on the layer's first 26 presentation values (position,
    /// anchorPoint, bounds, transform).
    @inline(__always)
    static func affineWorld(_ s: Span<Double>, parentWorld pw: Transform3D) -> Transform3D? {
        guard s[13] == 0 && s[17] == 0 && s[21] == 0 && s[25] == 1 else { return nil }
        let t1l = SIMD2(s[10], s[11]), t1h = SIMD2(s[12], s[13])
        let t2l = SIMD2(s[14], s[15]), t2h = SIMD2(s[16], s[17])
        let t3l = SIMD2(s[18], s[19]), t3h = SIMD2(s[20], s[21])
        let t4l = SIMD2(s[22], s[23]), t4h = SIMD2(s[24], s[25])
        let px = s[0], py = s[1], pz = s[2]
        let ax = s[3], ay = s[4], az = s[5]
        let ox = s[6] + ax * s[8]
        let oy = s[7] + ay * s[9]
        // As localMatrix: T(-o) * M * T(p) only moves the fourth row
        // (`-ox * t1 - oy * t2 - az * t3 + t4 + (px, py, pz + az, 0)`, per half).
        let mx = SIMD2(repeating: -ox), my = SIMD2(repeating: oy), mz = SIMD2(repeating: az)
        let r4l = mx * t1l - my * t2l - mz * t3l + t4l + SIMD2(px, py)
        let r4h = mx * t1h - my * t2h - mz * t3h + t4h + SIMD2(pz + az, 0)
        return Transform3D.product(SIMD4(lowHalf: t1l, highHalf: t1h), SIMD4(lowHalf: t2l, highHalf: t2h),
                                   SIMD4(lowHalf: t3l, highHalf: t3h), SIMD4(lowHalf: r4l, highHalf: r4h), pw)
    }

    /// A world of the planar form: rows (a, 0, 0), (b, 0, 0), (0, 0, zz, 0),
    /// (t, tz, 1), with a, b, t two-lane halves (x, y). Typical of 2D scenes
    /// (translations, rotations about z, scales).
    struct PlanarWorld {
        var a: SIMD2<Double>
        var b: SIMD2<Double>
        var t: SIMD2<Double>
        var zz: Double
        var tz: Double

        /// `w` in planar form, nil when it is not (zeros compared by value).
        @inline(__always)
        init?(_ w: Transform3D) {
            guard w.r1.z == 0 && w.r1.w == 0 && w.r2.z == 0 && w.r2.w == 0
                && w.r3.x == 0 && w.r3.y == 0 && w.r3.w == 0 && w.r4.w == 1 else { return nil }
            a = w.r1.lowHalf
            b = w.r2.lowHalf
            t = w.r4.lowHalf
            zz = w.r3.z
            tz = w.r4.z
        }
    }

    /// The render-list world (float, `sat4` per element) of a layer whose
    /// transform is planar (m13 m14 m23 m24 m31 m32 m34 zero, m44 one) under
    /// a planar parent world `p` (finite: worlds are saturated when handed
    /// down) without sublayerTransform: `affineWorld`'s product with the
    /// terms that multiply a zero of either matrix left out. Returns the
    /// elements that are not constant, (m11 m12 m21 m22) and (m41 m42 m43
    /// m33); the others are 0 but m44 = 1. Nil when the transform is not
    /// planar or a result is not finite as a float (then either an input was
    /// not finite, and the general product, whose zero terms are then NaN,
    /// must decide, or the element saturates; inf or NaN times anything is
    /// inf or NaN, and so is any sum with it, so a finite result means finite
    /// inputs).
    ///
    /// Same bits as `sat4` of the general product: every term left out is a
    /// product of a zero and a finite number, a signed zero, and adding a
    /// zero to x gives x (up to the sign of a zero result); a zero element of
    /// the general product is a sum of such terms. The signs of zeros do not
    /// reach the item (`sat4` makes every zero +0, as does `+ 0` here), and
    /// the world is not kept or handed down (leaves only), so only the item
    /// matters. Finite floats need no clamping.
    @_transparent
    static func planarLeafWorld(_ s: Span<Double>, _ p: PlanarWorld) -> (SIMD4<Float>, SIMD4<Float>)? {
        guard let (w1, w2, w4, w33, w43) = planarProduct(s, p) else { return nil }
        let a = SIMD4<Float>(SIMD4(lowHalf: w1, highHalf: w2))
        let d = SIMD4<Float>(SIMD4(lowHalf: w4, highHalf: SIMD2(w43, w33)))
        // x - x is +0 for a finite x, NaN otherwise; NaN survives the sums.
        let z4 = (a - a) + (d - d)
        let z2 = z4.lowHalf + z4.highHalf
        guard z2.x + z2.y == 0 else { return nil }
        let zero = SIMD4<Float>(repeating: 0)
        return (a + zero, d + zero)
    }

    /// `planarLeafWorld`'s product in doubles: (m11 m12), (m21 m22),
    /// (m41 m42), m33, m43; nil when the transform is not planar. (Not
    /// checked for finiteness here.)
    @_transparent
    static func planarProduct(_ s: Span<Double>, _ p: PlanarWorld)
        -> (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, Double, Double)? {
        // Zero tests on the bit patterns without the sign: one branch for seven zeros.
        let zeros = s[12].bitPattern | s[13].bitPattern | s[16].bitPattern | s[17].bitPattern
            | s[18].bitPattern | s[19].bitPattern | s[21].bitPattern
        guard zeros << 1 == 0 && s[25] == 1 else { return nil }
        let t1 = SIMD2(s[10], s[11]), t2 = SIMD2(s[14], s[15]), t4 = SIMD2(s[22], s[23])
        let t33 = s[20], t43 = s[24]
        let px = s[0], py = s[1], pz = s[2]
        let ax = s[3], ay = s[4], az = s[5]
        let ox = s[6] + ax * s[8]
        let oy = s[7] + ay * s[9]
        // The local fourth row as `affineWorld` computes it, without its
        // `- az * (m31, m32)` and `-ox * m13 - oy * m23` terms (zeros).
        let mx = SIMD2(repeating: -ox), my = SIMD2(repeating: oy)
        let r4 = mx * t1 - my * t2 + t4 + SIMD2(px, py)
        let r43 = (t43 - az * t33) + (pz + az)
        // `Transform3D.product` rows, (x b1 + y b2) + (z b3 + w b4) per lane,
        // with b1, b2 = (p.a, 0, 0), (p.b, 0, 0), b3 = (0, 0, zz, 0), b4 = (p.t, tz, 1).
        let w1 = SIMD2(repeating: t1.x) * p.a + SIMD2(repeating: t1.y) * p.b
        let w2 = SIMD2(repeating: t2.x) * p.a + SIMD2(repeating: t2.y) * p.b
        let w4 = (SIMD2(repeating: r4.x) * p.a + SIMD2(repeating: r4.y) * p.b) + p.t
        let w33 = t33 * p.zz
        let w43 = r43 * p.zz + p.tz
        return (w1, w2, w4, w33, w43)
    }

    /// `affineWorld` rounded for the item (`sat4` per row), nil when the
    /// transform is not affine: the affine run's general case, out of line
    /// (its registers would crowd the run's loop).
    @inline(never)
    static func affineLeafWorld(_ s: Span<Double>, parentWorld pw: Transform3D) -> RenderItem.Float16? {
        guard let w = affineWorld(s, parentWorld: pw) else { return nil }
        let a = sat4(w.r1), b = sat4(w.r2), c = sat4(w.r3), d = sat4(w.r4)
        return (a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w)
    }

    /// The item's world from `planarLeafWorld`'s two vectors.
    @_transparent
    static func planarItemWorld(_ a: SIMD4<Float>, _ d: SIMD4<Float>) -> RenderItem.Float16 {
        (a.x, a.y, 0, 0, a.z, a.w, 0, 0, 0, 0, d.w, 0, d.x, d.y, d.z, 1)
    }

    /// A leaf the render list's affine run can emit (`emitAffineLeafRun`):
    /// a transform that is not the identity, no sublayers, no transition,
    /// identity time map, no deferred simple-track entry to evaluate first.
    @inline(__always)
    static func isAffineRunLeaf(_ r: LayerRecord, pending: Bool) -> Bool {
        !r.presTransformIdentity && !r.hasChildren && r.transition < 0 && r.timeIdentity && !(pending && r.simple >= 0)
    }

    /// The render list's fast path for a run of leaves with an affine
    /// transform under a parent that was recomputed this frame and has no
    /// sublayerTransform, outside any incoming picture (see `renderList`):
    /// what `emitLayer` does for them (world computed and written into the
    /// output, the cached world only marked stale, hidden leaves marked
    /// skipped), in one call for the run instead of one per layer, with the
    /// layer table, the presentation block and the render cache read through
    /// spans (all three moved out of the engine for the run) and, under a
    /// planar parent, the planar product (`planarLeafWorld`). Advances `k`
    /// past the run; stops at the first sublayer that does not qualify
    /// (including a transform with perspective), which the caller emits.
    @inline(never)
    func emitAffineLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame,
                           _ out: inout MutableSpan<RenderItem>, _ n: inout Int) {
        affineLeafRun(subs, &k, f, &out, &n, timed: false)
    }

    /// `emitAffineLeafRun` under a timed superlayer that has begun.
    @inline(never)
    func emitTimedAffineLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame,
                                _ out: inout MutableSpan<RenderItem>, _ n: inout Int) {
        affineLeafRun(subs, &k, f, &out, &n, timed: true)
    }

    @inline(__always)
    func affineLeafRun(_ subs: [Int32], _ k: inout Int, _ f: RenderFrame,
                       _ out: inout MutableSpan<RenderItem>, _ n: inout Int, timed: Bool) {
        var layersL: [LayerRecord] = []
        swap(&layersL, &layers)
        var presL: [Double] = []
        swap(&presL, &pres)
        var cacheL: [CachedItem] = []
        swap(&cacheL, &cache)
        let pending = simplePending
        do {
            var recs = layersL.mutableSpan
            let ps = presL.span
            let cs = cacheL.span
            let pw = f.world
            let planar = PlanarWorld(pw)
            let parentOut = f.outIndex
            let po = f.opacity
            // k and n in locals (registers), stored back once.
            var i = k, m = n
            defer { k = i; n = m }
            while i < subs.count {
                let c = Int(subs[i])
                let r = recs[c]
                guard Engine.isAffineRunLeaf(r, pending: pending) || (timed && timedAffineLeaf(r, c, pending: pending)) else { break }
                if r.presHidden {
                    // As `markSkipped`.
                    if !r.worldStale { recs[c].worldStale = true }
                    i &+= 1
                    continue
                }
                let b = c &* LayerProperty.stride
                let s = ps.extracting(b ..< b &+ (Engine.transformBase &+ 16))
                let world: RenderItem.Float16
                if let p = planar, let (a, d) = Engine.planarLeafWorld(s, p) {
                    world = Engine.planarItemWorld(a, d)
                } else if let w = Engine.affineLeafWorld(s, parentWorld: pw) {
                    world = w
                } else {
                    break
                }
                i &+= 1
                Engine.writeLeafItem(&out, m, cs, c, parent: parentOut, world: world,
                                     worldOpacity: Float(po * Double(cs[c].opacity)))
                // As `emitLayer` under a recomputed parent: the cached world
                // is not written, only marked stale.
                if !r.worldStale { recs[c].worldStale = true }
                m &+= 1
            }
        }
        swap(&layersL, &layers)
        swap(&presL, &pres)
        swap(&cacheL, &cache)
    }

    /// `local(L) * parentWorld` for the render list: the translation fast path
    /// of `worldMatrix`, then the fused affine path, then the general product.
    @inline(__always)
    func renderWorld(_ l: Int, parentWorld pw: Transform3D) -> Transform3D {
        let p = Int(layers[l].parent)
        if p < 0 || layers[p].presSublayerIdentity {
            if layers[l].presTransformIdentity { return worldMatrix(l, parentWorld: pw) }
            if let w = Engine.affineWorld(pres, l &* LayerProperty.stride, parentWorld: pw) { return w }
        }
        return localMatrix(l) * pw
    }

    /// Writes one layer's item (and, for a running transition, its clip
    /// container and outgoing picture). Returns true when the caller must
    /// descend into it (it has sublayers or a picture to draw after them),
    /// with `frame` filled in.
    @inline(__always)
    func emitLayer(_ l: Int, parentOut: Int32, parentWorld: Transform3D, parentOpacity: Double, flags: UInt8,
                   out: inout MutableSpan<RenderItem>, n: inout Int, frame: inout RenderFrame) -> Bool {
        if notYetBegun(l) {
            markSkipped(l)
            return false
        }
        if isHiddenNow(l) {
            markSkipped(l)
            if layers[l].transition >= 0 {
                emitHiddenTransition(l, parentOut: parentOut, parentWorld: parentWorld, parentOpacity: parentOpacity,
                                     flags: flags, out: &out, n: &n)
            }
            return false
        }
        if simplePending && layers[l].simple >= 0 { evaluatePendingEntry(l) }
        if layers[l].transition >= 0 {
            return emitLayerGeneral(l, parentOut: parentOut, parentWorld: parentWorld, parentOpacity: parentOpacity,
                                    flags: flags, out: &out, n: &n, frame: &frame)
        }
        // No transition: the item is the cached one with its world (when
        // recomputed), parent and world opacity, assembled in a local and
        // stored once. (The cached item already carries the layer's id.)
        let hasChildren = layers[l].hasChildren
        let recompute = layers[l].geomDirty || layers[l].worldStale || layers[l].animatesGeometry || flags & TraversalEntry.parentRecomputed != 0
        var item: RenderItem
        if recompute {
            let w = renderWorld(l, parentWorld: parentWorld)
            // Handed to the sublayers now (frame is only read when this
            // returns true), so the double matrix is dead before the copy.
            // (Saturated when the frame is pushed, `renderList`.)
            if hasChildren { frame.world = w }
            let a = sat4(w.r1), b = sat4(w.r2), c = sat4(w.r3), d = sat4(w.r4)
            let world = (a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w)
            if flags & TraversalEntry.parentRecomputed != 0 {
                // The parent moved this frame, so it (and this layer) will most
                // likely be recomputed next frame too: the cached world is not
                // written, only marked stale (as the translated-leaf fast path
                // does). geomDirty is left as it is: `worldStale` alone already
                // forces the next recompute, and skipping both writes when the
                // flag is already set spares the layer table a uniqueness check.
                if !layers[l].worldStale { layers[l].worldStale = true }
            } else {
                layers[l].geomDirty = false
                cacheWorld[l] = world
                layers[l].worldStale = false
                if hasChildren { worldD.set(l, w) }
            }
            // Read after the world is computed, so the copy goes from the
            // cache to the output without living across the product.
            item = RenderItem(cache[l], world: world)
        } else {
            item = RenderItem(cache[l], world: cacheWorld[l])
            if hasChildren { frame.world = worldD[l] ?? .identity }
        }
        item.parent = parentOut
        if flags & TraversalEntry.incoming != 0 { item.flags |= RenderItem.transitionIncoming }
        let wo = parentOpacity * Double(item.opacity)
        item.worldOpacity = Float(wo)
        out[n] = item
        let myIndex = Int32(n)
        n &+= 1
        guard hasChildren else { return false }
        frame.outgoing = -1
        frame.outIndex = myIndex
        frame.childFlags = (recompute ? TraversalEntry.parentRecomputed : 0) | (flags & TraversalEntry.incoming)
        frame.opacity = wo
        frame.next = 0
        return true
    }

    /// `emitLayer` for a layer with a transition instance (showing or not).
    @inline(never)
    func emitLayerGeneral(_ l: Int, parentOut: Int32, parentWorld: Transform3D, parentOpacity: Double, flags: UInt8,
                          out: inout MutableSpan<RenderItem>, n: inout Int, frame: inout RenderFrame) -> Bool {
        let hasChildren = layers[l].hasChildren
        var recompute = layers[l].geomDirty || layers[l].worldStale || layers[l].animatesGeometry || flags & TraversalEntry.parentRecomputed != 0
        let t = Int(layers[l].transition)
        let transitionShowing = t >= 0 && inst.transitions[t]?.visible == true
        if transitionShowing { recompute = true }
        var w = Transform3D.identity
        if recompute {
            w = worldMatrix(l, parentWorld: parentWorld).saturated
            cacheWorld[l] = w.float16
            layers[l].geomDirty = false
            layers[l].worldStale = false
            if hasChildren { worldD.set(l, w) }
        } else if hasChildren {
            w = worldD[l] ?? .identity
        }
        let ownOpacity = Double(cache[l].opacity)
        var wo = parentOpacity * ownOpacity
        var itemParent = parentOut
        var extraFlags: Int32 = (flags & TraversalEntry.incoming != 0) ? RenderItem.transitionIncoming : 0
        var childFlags: UInt8 = recompute ? TraversalEntry.parentRecomputed : 0
        childFlags |= flags & TraversalEntry.incoming
        var inAlpha = 1.0
        frame.outgoing = -1
        if transitionShowing, let tr = inst.transitions[t] {
            let b = l &* LayerProperty.stride
            let g = Engine.transitionGeometry(tr, w: pres[b &+ 8], h: pres[b &+ 9])
            let incoming = pictureMatrices(tr, layer: l, g).incoming
            let containerIndex = emitClipContainer(l, t, world: w, parentOut: parentOut, parentOpacity: parentOpacity,
                                                   flags: extraFlags, out: &out, n: &n)
            if tr.type == .reveal {
                frame.outgoing = Int32(t)        // drawn above, after the live subtree
                frame.outgoingParent = containerIndex
            } else {
                emitOutgoing(t, parentOut: containerIndex, out: &out, n: &n)
            }
            itemParent = containerIndex
            w = (incoming * w).saturated
            inAlpha = g.inAlpha
            wo = parentOpacity * ownOpacity * inAlpha
            extraFlags |= RenderItem.transitionIncoming
            childFlags |= TraversalEntry.parentRecomputed | TraversalEntry.incoming
        }
        // Assembled in a local and stored once (not field by field through the span).
        var item = RenderItem(cache[l], world: cacheWorld[l])
        item.layer = layerID(l)
        item.parent = itemParent
        if extraFlags != 0 { item.flags |= extraFlags }
        if transitionShowing {
            item.world = w.float16
            item.opacity = Float(ownOpacity * inAlpha)
        }
        item.worldOpacity = Float(wo)
        out[n] = item
        let myIndex = Int32(n)
        n += 1
        guard hasChildren || frame.outgoing >= 0 else { return false }
        frame.outIndex = myIndex
        frame.childFlags = childFlags
        frame.world = w
        frame.opacity = wo
        frame.next = 0
        return true
    }

    /// The clip container of layer `l`'s showing transition `t` (masks to the
    /// layer's bounds, except for flip and cube, whose turning pictures leave
    /// them; draws nothing itself); remembers the world and opacity the
    /// outgoing picture hangs from. Returns the container's index.
    func emitClipContainer(_ l: Int, _ t: Int, world w: Transform3D, parentOut: Int32, parentOpacity: Double,
                           flags: Int32, out: inout MutableSpan<RenderItem>, n: inout Int) -> Int32 {
        var c = RenderItem()
        c.layer = layerID(l)
        c.parent = parentOut
        let turns = inst.transitions[t]?.type.turns ?? false
        c.flags = (turns ? 0 : RenderItem.masksToBounds) | RenderItem.transitionClip | flags
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
        inst.transitions.update(t) {
            $0.lastWorld = w
            $0.lastOpacity = parentOpacity
        }
        return containerIndex
    }

    /// A hidden layer whose transition is showing (§8: the render list draws
    /// the outgoing picture while the transition runs; hiding the layer only
    /// changes the incoming one): the clip container and the outgoing picture,
    /// nothing of the live layer or its sublayers.
    @inline(never)
    func emitHiddenTransition(_ l: Int, parentOut: Int32, parentWorld: Transform3D, parentOpacity: Double,
                              flags: UInt8, out: inout MutableSpan<RenderItem>, n: inout Int) {
        let t = Int(layers[l].transition)
        guard inst.transitions[t]?.visible == true else { return }
        let w = worldMatrix(l, parentWorld: parentWorld).saturated
        let extraFlags: Int32 = (flags & TraversalEntry.incoming != 0) ? RenderItem.transitionIncoming : 0
        let containerIndex = emitClipContainer(l, t, world: w, parentOut: parentOut, parentOpacity: parentOpacity,
                                               flags: extraFlags, out: &out, n: &n)
        emitOutgoing(t, parentOut: containerIndex, out: &out, n: &n)
    }

    /// Writes a transition's frozen outgoing picture under the clip container.
    func emitOutgoing(_ t: Int, parentOut: Int32, out: inout MutableSpan<RenderItem>, n: inout Int) {
        guard let tr = inst.transitions[t] else { return }
        let l = Int(inst.items[t].layer)
        let bw = pres[l * LayerProperty.stride + 8], bh = pres[l * LayerProperty.stride + 9]
        let g = Engine.transitionGeometry(tr, w: bw, h: bh)
        let outM = pictureMatrices(tr, layer: l, g).outgoing
        let base = n
        // Inside another transition's incoming picture (the clip container
        // carries its flag), every item of this outgoing picture belongs to it too.
        let inherited = parentOut >= 0 && Int(parentOut) < n ? out[Int(parentOut)].flags & RenderItem.transitionIncoming : 0
        scratchWorlds.removeAll(keepingCapacity: true)
        scratchOpacity.removeAll(keepingCapacity: true)
        for s in tr.snapshot {
            var item = s.item
            let w: Transform3D
            let wo: Double
            if s.parent < 0 {
                w = (outM * tr.lastWorld).saturated
                item.parent = parentOut
                item.opacity = Float(Double(item.opacity) * g.outAlpha)
                wo = tr.lastOpacity * Double(item.opacity)
            } else {
                w = (s.local * scratchWorlds[Int(s.parent)]).saturated
                item.parent = Int32(base) + s.parent
                wo = scratchOpacity[Int(s.parent)] * Double(item.opacity)
            }
            scratchWorlds.append(w)
            scratchOpacity.append(wo)
            item.world = w.float16
            item.worldOpacity = Float(wo)
            item.flags |= inherited
            out[n] = item
            n += 1
        }
    }

    // MARK: batch sampling

    /// Presentation values of one key path for many layers, row by row.
    public func sample(layers ids: Span<UInt64>, _ t: KeyPathTarget, into out: inout MutableSpan<Double>) throws(CadenceError) -> Int {
        let n = t.components
        let (needed, overflow) = ids.count.multipliedReportingOverflow(by: n)
        guard !overflow else { throw .invalidArgument("n_layers x components overflows") }
        for k in ids.indices {
            guard layerIndex(ids[k]) != nil else {
                throw .invalidHandle("layers[\(k)] (\(Engine.hex(ids[k]))) is not a live layer of this engine")
            }
        }
        guard out.count >= needed else {
            throw CadenceError(.bufferTooSmall, "sampling needs more doubles than cap (the count needed is in *n_out)", needed: needed)
        }
        var o = 0
        if case let .block(off, bn) = t.access, bn == n {
            // A block key path (all but frame, contents, the transform's
            // virtual keys and the timing fields): straight from the block,
            // saturated as `read` saturates, without a ValueBuffer per layer.
            for k in ids.indices {
                guard let l = layerIndex(ids[k]) else { continue }
                ensurePresentation(l)
                let b = l &* LayerProperty.stride &+ off
                for c in 0..<n { out[o &+ c] = settled(pres[b &+ c], nan: 0) }
                o &+= n
            }
            return needed
        }
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
