// Layers: tree, key-path properties, contents, actions and time conversion.
import CadenceCore

/// Creates a root layer with every property at its default (SEMANTICS.md §2).
/// A new layer takes its values without animation until the first tick.
@c public func cad_layer_create(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<cad_layer>?) -> cad_status {
    withEngine(e, "cad_layer_create") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.createLayer()
    }
}

/// Destroys a layer: removes it from its superlayer, detaches its sublayers
/// (they become roots) and stops its animations (finished = 0).
@c public func cad_layer_destroy(_ e: OpaquePointer?, _ l: cad_layer) -> cad_status {
    withEngine(e, "cad_layer_destroy") { (en: inout Engine) throws(CadenceError) in try en.destroyLayer(l) }
}

/// Appends `child` to `parent`'s sublayers (removing it from its old superlayer).
/// Adding an ancestor (a cycle) is `CAD_ERR_INVALID_ARGUMENT`.
@c public func cad_layer_add_sublayer(_ e: OpaquePointer?, _ parent: cad_layer, _ child: cad_layer) -> cad_status {
    withEngine(e, "cad_layer_add_sublayer") { (en: inout Engine) throws(CadenceError) in try en.addSublayer(parent, child) }
}

/// Inserts `child` at `index` (0...count, counted without the child) of `parent`'s sublayers.
@c public func cad_layer_insert_sublayer(_ e: OpaquePointer?, _ parent: cad_layer, _ child: cad_layer, _ index: Int32) -> cad_status {
    withEngine(e, "cad_layer_insert_sublayer") { (en: inout Engine) throws(CadenceError) in
        try en.insertSublayer(parent, child, at: Int(index))
    }
}

/// Detaches a layer from its superlayer (no-op for a root).
@c public func cad_layer_remove_from_superlayer(_ e: OpaquePointer?, _ l: cad_layer) -> cad_status {
    withEngine(e, "cad_layer_remove_from_superlayer") { (en: inout Engine) throws(CadenceError) in try en.removeFromSuperlayer(l) }
}

/// The superlayer, 0 for a root.
@c public func cad_layer_superlayer(_ e: OpaquePointer?, _ l: cad_layer, _ out: UnsafeMutablePointer<cad_layer>?) -> cad_status {
    withEngine(e, "cad_layer_superlayer") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.superlayer(of: l)
    }
}

/// The sublayers in order. With `cap` too small: `CAD_ERR_BUFFER_TOO_SMALL` and
/// `*n_out` = the count needed. `out` may be NULL when `cap` is 0.
@c public func cad_layer_sublayers(_ e: OpaquePointer?, _ l: cad_layer, _ out: UnsafeMutablePointer<cad_layer>?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_layer_sublayers") { (en: inout Engine) throws(CadenceError) in
        try checkBuffer(out, cap)
        let n = try en.sublayerCount(of: l)
        if n > Int(cap) {
            n_out?.pointee = Int32(n)
            throw CadenceError(.bufferTooSmall, "the layer has more sublayers than cap (the count needed is in *n_out)", needed: n)
        }
        for k in 0..<n { out?[k] = try en.sublayer(of: l, at: k) }
        n_out?.pointee = Int32(n)
    }
}

/// Sets a model value by key path (SEMANTICS.md §2): `n` must equal the key
/// path's component count (`CAD_ERR_TYPE_MISMATCH`), components must be finite.
/// Runs the key's action (an implicit animation) unless actions are disabled.
@c public func cad_layer_set(_ e: OpaquePointer?, _ l: cad_layer, _ keypath: UnsafePointer<CChar>?, _ v: UnsafePointer<Double>?, _ n: Int32) -> cad_status {
    withEngineKeyPath(e, "cad_layer_set", keypath) { (en: inout Engine, t: KeyPathTarget) throws(CadenceError) in
        let buf = try values(v, n, expected: t.components, keyPath: t.name)
        try en.set(layer: l, t, buf, count: Int(n))
    }
}

/// Sets the model value of `keypath` on `n_layers` layers, row by row:
/// `values` holds `n_layers` x components doubles (`n_values` must equal that
/// product: `CAD_ERR_TYPE_MISMATCH`). The same as one `cad_layer_set` per
/// layer in order (each runs the key's action; a layer listed twice takes
/// its last row), with the key path looked up once. Every handle, the count
/// and every value are checked before anything changes: an invalid one
/// fails the whole call with nothing set (the message names its index).
/// After those checks a set fails only when a custom transition action finds
/// no room for its animation (`CAD_ERR_OUT_OF_MEMORY`); the call then stops
/// there, and the layers before it keep their new values.
@c public func cad_engine_set(_ e: OpaquePointer?, _ layers: UnsafePointer<cad_layer>?, _ n_layers: Int32, _ keypath: UnsafePointer<CChar>?, _ values: UnsafePointer<Double>?, _ n_values: Int32) -> cad_status {
    withEngineKeyPath(e, "cad_engine_set", keypath) { (en: inout Engine, t: KeyPathTarget) throws(CadenceError) in
        guard n_layers >= 0 else { throw CadenceError(.invalidArgument, "n_layers must be >= 0 (got \(n_layers))") }
        guard n_values >= 0 else { throw CadenceError(.invalidArgument, "n_values must be >= 0 (got \(n_values))") }
        if n_layers > 0 && layers == nil { throw CadenceError(.invalidArgument, "layers is NULL but n_layers = \(n_layers)") }
        if n_values > 0 && values == nil { throw CadenceError(.invalidArgument, "values is NULL but n_values = \(n_values)") }
        try requireAligned(layers, MemoryLayout<cad_layer>.alignment, "layers")
        try requireAligned(values, MemoryLayout<Double>.alignment, "values")
        let ids = UnsafeBufferPointer(start: n_layers > 0 ? layers : nil, count: Int(n_layers))
        let vs = UnsafeBufferPointer(start: n_values > 0 ? values : nil, count: Int(n_values))
        try en.set(layers: ids.span, t, vs.span)
    }
}

/// Reads a model value by key path into `out` (`cap` doubles); `*n_out` = components.
@c public func cad_layer_get(_ e: OpaquePointer?, _ l: cad_layer, _ keypath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngineKeyPath(e, "cad_layer_get", keypath) { (en: inout Engine, t: KeyPathTarget) throws(CadenceError) in
        try checkBuffer(out, cap)
        if let (v, n) = try en.readSmall(layer: l, t, presentation: false) {
            try writeSmall(v, n, out, cap, n_out)
            return
        }
        let v = try en.get(layer: l, t)
        try writeValue(v, out, cap, n_out)
    }
}

/// Reads a presentation value (model plus running animations at the engine's now).
@c public func cad_layer_presentation(_ e: OpaquePointer?, _ l: cad_layer, _ keypath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngineKeyPath(e, "cad_layer_presentation", keypath) { (en: inout Engine, t: KeyPathTarget) throws(CadenceError) in
        try checkBuffer(out, cap)
        if let (v, n) = try en.readSmall(layer: l, t, presentation: true) {
            try writeSmall(v, n, out, cap, n_out)
            return
        }
        let v = try en.presentation(layer: l, t)
        try writeValue(v, out, cap, n_out)
    }
}

/// Sets the contents id (a host-chosen 64-bit value; 0 = none). Outside a
/// disabled-actions transaction the change runs the `contents` action, a fade
/// transition by default; none runs when the layer's actions are disabled,
/// the layer is new (before its first tick), its `contents` action is the
/// "no action" marker, or a transition is already running on it.
@c public func cad_layer_set_contents(_ e: OpaquePointer?, _ l: cad_layer, _ contents: UInt64) -> cad_status {
    withEngine(e, "cad_layer_set_contents") { (en: inout Engine) throws(CadenceError) in try en.setContents(layer: l, contents) }
}

/// The model contents id.
@c public func cad_layer_get_contents(_ e: OpaquePointer?, _ l: cad_layer, _ out: UnsafeMutablePointer<UInt64>?) -> cad_status {
    withEngine(e, "cad_layer_get_contents") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.contents(layer: l)
    }
}

/// Cadence extension: the presentation contents id, all 64 bits
/// (`cad_layer_presentation` of "contents" returns a double, exact only up to
/// 2^53). Ids animated by a basic or keyframe animation of `contents` are
/// carried as doubles while it runs.
@c public func cad_layer_presentation_contents(_ e: OpaquePointer?, _ l: cad_layer, _ out: UnsafeMutablePointer<UInt64>?) -> cad_status {
    withEngine(e, "cad_layer_presentation_contents") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.presentationContents(layer: l)
    }
}

/// Enables (1) or disables (0) implicit actions for one layer.
@c public func cad_layer_set_actions_enabled(_ e: OpaquePointer?, _ l: cad_layer, _ enabled: Int32) -> cad_status {
    withEngine(e, "cad_layer_set_actions_enabled") { (en: inout Engine) throws(CadenceError) in try en.setActionsEnabled(layer: l, flag(enabled)) }
}

/// Sets the action for `key`: animation `a` (copied now and each time it runs)
/// or, with `a` = 0, the "no action" marker. `key` is the animatable key path
/// whose changes run it ("position", "position.x", "contents", ...):
/// `CAD_ERR_UNKNOWN_KEYPATH` for an unknown (or empty) one, `CAD_ERR_INVALID_ARGUMENT` for
/// a key path no action runs for (not animatable, or "frame").
@c public func cad_layer_set_action(_ e: OpaquePointer?, _ l: cad_layer, _ key: UnsafePointer<CChar>?, _ a: cad_anim) -> cad_status {
    withEngine(e, "cad_layer_set_action") { (en: inout Engine) throws(CadenceError) in
        let k = try keyPathArgument(key, "key")
        try en.setAction(layer: l, key: k, animation: a)
    }
}

/// Returns `key` to its default action (`key` checked as in `cad_layer_set_action`).
@c public func cad_layer_clear_action(_ e: OpaquePointer?, _ l: cad_layer, _ key: UnsafePointer<CChar>?) -> cad_status {
    withEngine(e, "cad_layer_clear_action") { (en: inout Engine) throws(CadenceError) in
        let k = try keyPathArgument(key, "key")
        try en.clearAction(layer: l, key: k)
    }
}

/// Converts time `t` from layer `from`'s local time to layer `to`'s (0 = global
/// time), through the layers' lowest common ancestor (global time for layers
/// in different trees); a layer converts to itself unchanged. Out of a paused
/// layer (speed 0) the map goes on from that layer's beginTime (in its
/// superlayer's time); into one it gives the layer's timeOffset.
@c public func cad_layer_convert_time(_ e: OpaquePointer?, _ t: Double, _ from: cad_layer, _ to: cad_layer, _ out: UnsafeMutablePointer<Double>?) -> cad_status {
    withEngine(e, "cad_layer_convert_time") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.convertTime(t, from: from, to: to)
    }
}

/// Converts the point (x, y) from layer `from`'s bounds space to layer `to`'s
/// (0 on either side = world space, the space the render list's world
/// matrices map into) and writes it to out[0], out[1]. `presentation` 1 uses
/// the presentation values of the last tick, 0 the model values; a running
/// transition's pictures are not geometry and play no part. The point goes
/// through the world matrices (SEMANTICS.md sec. 2.2): from `from`'s plane
/// (z = 0) into world space, seen along z there (x/w, y/w), then back to the
/// point of `to`'s plane with that image. CAD_ERR_NOT_FOUND when it has none:
/// the point is on or behind the eye's plane (w <= 0), or `to`'s plane is
/// seen edge-on (to within about 1e-12, whatever the layer's scale). A layer
/// converts to itself (and world space to world space) unchanged, as in Core
/// Animation, without these checks.
@c public func cad_layer_convert_point(_ e: OpaquePointer?, _ x: Double, _ y: Double, _ from: cad_layer, _ to: cad_layer, _ presentation: Int32, _ out: UnsafeMutablePointer<Double>?) -> cad_status {
    withEngine(e, "cad_layer_convert_point") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        let p = try en.convertPoint(x, y, from: from, to: to, presentation: flag(presentation))
        o[0] = p.x
        o[1] = p.y
    }
}

/// As CALayer's hitTest: writes the frontmost layer of `root`'s subtree (root
/// included) whose bounds contain the point (x, y), given in the space of
/// root's superlayer (world space when root has none), or 0 when none does
/// (CAD_OK either way). Sublayers are tested last to first (the one drawn
/// last is in front; zPosition plays no part), before their layer; hidden
/// layers and their subtrees are skipped, and so, with `presentation` 1, are
/// layers not yet begun (what the render list leaves out); a layer with
/// masksToBounds has its sublayers tested only inside its bounds; a layer
/// with doubleSided 0 turned to show its back is not hit (its sublayers are
/// still tested). Bounds contain their min edges, not their max edges. `presentation` as in
/// `cad_layer_convert_point`.
@c public func cad_layer_hit_test(_ e: OpaquePointer?, _ root: cad_layer, _ x: Double, _ y: Double, _ presentation: Int32, _ out: UnsafeMutablePointer<cad_layer>?) -> cad_status {
    withEngine(e, "cad_layer_hit_test") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.hitTest(root: root, x, y, presentation: flag(presentation))
    }
}
