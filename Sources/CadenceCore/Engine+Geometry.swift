/// Point conversion between layers and hit testing (CALayer's
/// `convert(_:from:)`, `convert(_:to:)` and `hitTest(_:)`), through the same
/// world matrices the render list hands out (SEMANTICS.md §2.2): a point of a
/// layer's plane (z = 0) maps into world space by its world matrix and is seen
/// along z there (x/w, y/w), as a host draws the item; the way back is the
/// plane point with that image. Transitions are pictures, not geometry: they
/// play no part. docs/decisions.md, "Points and hit testing".
struct HitFrame {
    var layer: Int32
    /// The next sublayer to test, counting down (sublayers are tested last to
    /// first: the one drawn last is in front).
    var next: Int32
    var inside: Bool
    var world: Transform3D
}

extension Engine {
    // MARK: world matrices of either tree

    /// The world matrix of `l` from model values (`presentation` false) or
    /// from presentation values at the last tick (per level saturated, as the
    /// render list hands worlds down). A running transition's pictures are
    /// not geometry: their offsets and turns play no part (as in Core
    /// Animation, whose presentation layers do not see transitions).
    func geometryWorld(_ l: Int, presentation: Bool) -> Transform3D {
        if presentation { return worldAlongChain(l, pictures: false) { localMatrix($0) } }
        return worldAlongChain(l, pictures: false) { modelLocalMatrix($0) }
    }

    /// `local(L)` (SEMANTICS.md §2.2) from the model values.
    func modelLocalMatrix(_ l: Int) -> Transform3D {
        let b = l &* LayerProperty.stride
        let ox = model[b + 6] + model[b + 3] * model[b + 8]
        let oy = model[b + 7] + model[b + 4] * model[b + 9]
        let az = model[b + 5]
        let t = Engine.matrix(model, b + Engine.transformBase)
        var m = .translation(-ox, -oy, -az) * t * .translation(model[b], model[b + 1], model[b + 2] + az)
        let p = Int(layers[l].parent)
        if p >= 0 {
            let pb = p &* LayerProperty.stride
            let st = Engine.matrix(model, pb + Engine.sublayerBase)
            if !st.isIdentity {
                let qx = model[pb + 6] + model[pb + 3] * model[pb + 8]
                let qy = model[pb + 7] + model[pb + 4] * model[pb + 9]
                let qz = model[pb + 5]
                m = m * .translation(-qx, -qy, -qz) * st * .translation(qx, qy, qz)
            }
        }
        return m
    }

    // MARK: plane <-> world

    /// The world point (x/w, y/w) of the plane point (x, y, 0) under `w`; nil
    /// when it lies on or behind the eye's plane (w <= 0) or is not finite.
    static func project(_ x: Double, _ y: Double, _ w: Transform3D) -> SIMD2<Double>? {
        let q = x * w.r1 + y * w.r2 + w.r4
        guard q.w > 0 else { return nil }
        let p = SIMD2(q.x / q.w, q.y / q.w)
        guard p.x.isFinite && p.y.isFinite else { return nil }
        return p
    }

    /// How close to edge-on a plane may be seen: the sine of the angle
    /// between the plane and the line of sight, about (see `unproject`). A
    /// quarter turn's cos(π/2) = 6.1e-17 residue is edge-on.
    static let edgeOnTolerance = 1e-12

    /// The plane point (x, y, 0) whose image under `w` is the world point
    /// (X, Y): the solution of `(x, y, 0, 1) * w = λ (X, Y, ·, 1)` with λ > 0.
    /// nil when the plane is seen edge-on (no single solution), the point is
    /// behind the eye (λ <= 0), or the solution is not finite. Edge-on is
    /// judged scale-free: each unknown's column of the 2×2 system is divided
    /// by the size of the plane's axis it stands for (its x, y and z
    /// components), so the determinant is about the sine of the angle between
    /// the plane and the line of sight, the same for a layer scaled by 1e-200
    /// or by 1e200; within `edgeOnTolerance` of 0 there is no image.
    static func unproject(_ px: Double, _ py: Double, _ w: Transform3D) -> SIMD2<Double>? {
        // x (m11 - X m14) + y (m21 - X m24) = X m44 - m41, and the same for Y.
        let a = w.r1.x - px * w.r1.w, b = w.r2.x - px * w.r2.w
        let c = w.r1.y - py * w.r1.w, d = w.r2.y - py * w.r2.w
        let e = px * w.r4.w - w.r4.x, f = py * w.r4.w - w.r4.y
        let n1 = max(abs(a), abs(c), abs(w.r1.z)), n2 = max(abs(b), abs(d), abs(w.r2.z))
        guard n1 > 0 && n1.isFinite && n2 > 0 && n2.isFinite else { return nil }
        let an = a / n1, cn = c / n1, bn = b / n2, dn = d / n2
        let detn = an * dn - bn * cn
        guard abs(detn) > edgeOnTolerance else { return nil }
        var x: Double, y: Double
        let det = a * d - b * c
        if det != 0 && det.isFinite {
            // The plain solution (exact where the values are, as a host
            // would compute it), unless the scale makes it overflow.
            x = (e * d - b * f) / det
            y = (a * f - e * c) / det
        } else {
            x = .nan; y = .nan
        }
        if !(x.isFinite && y.isFinite) {
            x = (e * dn - bn * f) / detn / n1
            y = (an * f - e * cn) / detn / n2
        }
        guard x.isFinite && y.isFinite else { return nil }
        guard x * w.r1.w + y * w.r2.w + w.r4.w > 0 else { return nil }
        return SIMD2(x, y)
    }

    /// Whether `w` shows the front of the plane z = 0 (the orientation of
    /// its image: the determinant of the 3×3 of rows 1, 2, 4 and columns x,
    /// y, w, positive where the image has w > 0). A layer that is not
    /// doubleSided shows nothing from behind.
    static func showsFront(_ w: Transform3D) -> Bool {
        let det = w.r1.x * (w.r2.y * w.r4.w - w.r2.w * w.r4.y)
            - w.r1.y * (w.r2.x * w.r4.w - w.r2.w * w.r4.x)
            + w.r1.w * (w.r2.x * w.r4.y - w.r2.y * w.r4.x)
        return det > 0 || !det.isFinite
    }

    /// CGRect's `contains`: the rectangle standardized, min edges in, max edges out.
    static func boundsContain(_ blk: [Double], _ b: Int, _ p: SIMD2<Double>) -> Bool {
        let bx = blk[b + 6], by = blk[b + 7], bw = blk[b + 8], bh = blk[b + 9]
        let x0 = min(bx, bx + bw), x1 = max(bx, bx + bw)
        let y0 = min(by, by + bh), y1 = max(by, by + bh)
        return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1
    }

    // MARK: public

    /// Converts the point (x, y) from layer `from`'s bounds space to layer
    /// `to`'s (0 on either side = world space, the space the render list's
    /// world matrices map into). Model values, or with `presentation` the
    /// presentation values at the last tick. Throws `notFound` when the point
    /// has no image: on or behind the eye's plane, or `to`'s plane seen
    /// edge-on. A layer converts to itself (and world space to world space)
    /// unchanged, as in Core Animation, without these checks.
    public func convertPoint(_ x: Double, _ y: Double, from: UInt64, to: UInt64,
                             presentation: Bool) throws(CadenceError) -> SIMD2<Double> {
        try requireFinite(x, "x")
        try requireFinite(y, "y")
        let f = from == 0 ? -1 : try requireLayer(from, "from")
        let d = to == 0 ? -1 : try requireLayer(to, "to")
        if f == d { return SIMD2(x, y) }
        if presentation { ensureAllPresentations() }
        var p = SIMD2(x, y)
        if f >= 0 {
            guard let q = Engine.project(x, y, geometryWorld(f, presentation: presentation)) else {
                throw .notFound("the point (\(x), \(y)) of the from layer lies on or behind the eye's plane (w <= 0): it has no image")
            }
            p = q
        }
        if d >= 0 {
            guard let q = Engine.unproject(p.x, p.y, geometryWorld(d, presentation: presentation)) else {
                throw .notFound("the point has no image in the to layer's plane (seen edge-on, or the point is behind the eye)")
            }
            p = q
        }
        return p
    }

    /// As CALayer's `hitTest(_:)`: the frontmost layer of `root`'s subtree
    /// (root included) whose bounds contain the point (x, y), given in the
    /// space of root's superlayer (world space when root has none); 0 when
    /// none does. Hidden layers and their subtrees are skipped (with
    /// `presentation`, also those not yet begun: what the render list leaves
    /// out); a layer with masksToBounds has its sublayers tested only inside
    /// its bounds; sublayers are tested last to first, before their layer.
    public func hitTest(root rootID: UInt64, _ x: Double, _ y: Double, presentation: Bool) throws(CadenceError) -> UInt64 {
        try requireFinite(x, "x")
        try requireFinite(y, "y")
        let r = try requireLayer(rootID, "root")
        if presentation { ensureAllPresentations() }
        var pw = SIMD2(x, y)
        var parentWorld = Transform3D.identity
        let rp = Int(layers[r].parent)
        if rp >= 0 {
            parentWorld = geometryWorld(rp, presentation: presentation)
            guard let q = Engine.project(x, y, parentWorld) else { return 0 }
            pw = q
        }
        var stack: [HitFrame] = []
        swap(&stack, &scratchHits)
        defer {
            stack.removeAll(keepingCapacity: true)
            swap(&stack, &scratchHits)
        }
        if let top = hitFrame(r, parentWorld: parentWorld, pw, presentation: presentation) { stack.append(top) }
        while let top = stack.last {
            let l = Int(top.layer)
            let subs = liveSublayers(l)
            let k = Int(top.next)
            if k >= 0 && k < subs.count {
                stack[stack.count &- 1].next = Int32(k &- 1)
                if let f = hitFrame(Int(subs[k]), parentWorld: top.world, pw, presentation: presentation) {
                    stack.append(f)
                }
                continue
            }
            stack.removeLast()
            if top.inside { return layerID(l) }
        }
        return 0
    }

    /// The traversal frame of layer `l` under a superlayer of world
    /// `parentWorld`, or nil when neither it nor its subtree can be hit
    /// (hidden, not yet begun, or masking with the point outside).
    func hitFrame(_ l: Int, parentWorld: Transform3D, _ pw: SIMD2<Double>, presentation: Bool) -> HitFrame? {
        let b = l &* LayerProperty.stride
        let masks: Bool
        let w: Transform3D
        let inside: Bool
        if presentation {
            if isHiddenNow(l) || notYetBegun(l) { return nil }
            w = (localMatrix(l) * parentWorld).saturated
            masks = pres[b &+ LayerProperty.masksToBounds.offset] != 0
            let p = Engine.unproject(pw.x, pw.y, w)
            inside = p.map { Engine.boundsContain(pres, b, $0) } ?? false
                && (pres[b &+ LayerProperty.doubleSided.offset] != 0 || Engine.showsFront(w))
        } else {
            if model[b &+ LayerProperty.hidden.offset] != 0 { return nil }
            w = (modelLocalMatrix(l) * parentWorld).saturated
            masks = model[b &+ LayerProperty.masksToBounds.offset] != 0
            let p = Engine.unproject(pw.x, pw.y, w)
            inside = p.map { Engine.boundsContain(model, b, $0) } ?? false
                && (model[b &+ LayerProperty.doubleSided.offset] != 0 || Engine.showsFront(w))
        }
        if masks && !inside { return nil }
        let n = liveSublayers(l).count
        return HitFrame(layer: Int32(l), next: Int32(truncatingIfNeeded: n &- 1), inside: inside, world: w)
    }
}
