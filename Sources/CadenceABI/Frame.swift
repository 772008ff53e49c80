// Frame output: the render list and batch sampling.
import CadenceCore

/// Writes the render list of `root`'s subtree into `out` (`cap` items):
/// depth-first, sublayers in order, hidden and not-yet-begun subtrees left out,
/// world matrices by SEMANTICS.md §2.2, transitions as a clip container with
/// their two pictures (§8; an empty container when both pictures are hidden). `*n_out` = items written, or with `cap` too small
/// `CAD_ERR_BUFFER_TOO_SMALL` and the count needed (nothing written). Allocates
/// nothing once the scene is warm. With `cap` at least the number of live
/// layers (`cad_engine_layer_count`) plus the items of running transitions
/// (each draws a container and its outgoing picture), the list is written in
/// one walk; a smaller `cap` (a buffer sized exactly to `*n_out`) first counts
/// the subtree, about a tenth more per frame.
@c public func cad_engine_render_list(_ e: OpaquePointer?, _ root: cad_layer, _ out: cad_render_item_ptr?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_engine_render_list") { (en: inout Engine) throws(CadenceError) in
        guard cap >= 0 else { throw CadenceError(.invalidArgument, "cap must be >= 0 (got \(cap))") }
        if cap > 0 && out == nil { throw CadenceError(.invalidArgument, "out is NULL but cap = \(cap)") }
        try requireAligned(out, MemoryLayout<RenderItem>.alignment, "out")
        let raw = out?.assumingMemoryBound(to: RenderItem.self)
        let buffer = UnsafeMutableBufferPointer(start: raw, count: raw == nil ? 0 : Int(cap))
        var span = buffer.mutableSpan
        do throws(CadenceError) {
            let n = try en.renderList(root: root, into: &span)
            n_out?.pointee = Int32(n)
        } catch {
            if error.status == .bufferTooSmall { n_out?.pointee = Int32(clamping: error.needed) }
            throw error
        }
    }
}

/// Presentation values of `keypath` for `n_layers` layers, row by row
/// (`n_layers` x components doubles). With `cap` too small:
/// `CAD_ERR_BUFFER_TOO_SMALL` and `*n_out` = doubles needed
/// (`CAD_ERR_INVALID_ARGUMENT` when that count exceeds INT32_MAX). Any invalid
/// handle fails the whole call (nothing written). `out` must not overlap
/// `layers` (as with memcpy).
@c public func cad_engine_sample(_ e: OpaquePointer?, _ layers: UnsafePointer<cad_layer>?, _ n_layers: Int32, _ keypath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_engine_sample") { (en: inout Engine) throws(CadenceError) in
        let t = try keyPathTarget(keypath)
        guard n_layers >= 0 else { throw CadenceError(.invalidArgument, "n_layers must be >= 0 (got \(n_layers))") }
        if n_layers > 0 && layers == nil { throw CadenceError(.invalidArgument, "layers is NULL but n_layers = \(n_layers)") }
        // A result no int32 count can hold could never be allocated and retried.
        let needed = Int(n_layers) &* t.components
        guard needed <= Int(Int32.max) else {
            throw CadenceError(.invalidArgument, "the result would be \(needed) doubles (n_layers x components), more than an int32 count")
        }
        try checkBuffer(out, cap)
        try requireAligned(layers, MemoryLayout<cad_layer>.alignment, "layers")
        try requireAligned(out, MemoryLayout<Double>.alignment, "out")
        let ids = UnsafeBufferPointer(start: n_layers > 0 ? layers : nil, count: Int(n_layers))
        let outBuf = UnsafeMutableBufferPointer(start: cap > 0 ? out : nil, count: Int(cap))
        var span = outBuf.mutableSpan
        do throws(CadenceError) {
            let n = try en.sample(layers: ids.span, t, into: &span)
            n_out?.pointee = Int32(clamping: n)
        } catch {
            if error.status == .bufferTooSmall { n_out?.pointee = Int32(clamping: error.needed) }
            throw error
        }
    }
}

/// Spans over host memory require natural alignment (the standard library
/// checks it and traps), so a misaligned pointer is an invalid argument.
/// (Typed pointers convert to raw ones implicitly.)
@inline(__always)
func requireAligned(_ p: UnsafeRawPointer?, _ alignment: Int, _ name: StaticString) throws(CadenceError) {
    guard let p else { return }
    guard Int(bitPattern: p) & (alignment - 1) == 0 else {
        throw CadenceError(.invalidArgument, "\(name) is not aligned to \(alignment) bytes")
    }
}
