// Library-level functions and the engine's lifecycle, clock and event queue.
import CadenceCore
import Glibc

// MARK: Library

/// The library version, "MAJOR.MINOR.PATCH" (static storage, never NULL).
@c public func cad_version_string() -> UnsafePointer<CChar>? {
    cStrings.version
}

/// The ABI version; equals `CAD_ABI_VERSION` of the header the host compiled
/// against when the two match.
@c public func cad_abi_version() -> UInt32 {
    CadenceVersion.abi
}

/// The calling thread's message for its last failed call ("" when none). Never
/// NULL. Valid until this thread's next call into the library.
@c public func cad_last_error() -> UnsafePointer<CChar>? {
    if let b = errorSlot.buffer() { return UnsafePointer(b) }
    return cStrings.empty
}

/// The enumerator name of a status ("CAD_OK", "CAD_ERR_INVALID_HANDLE", ...;
/// "CAD_ERR_UNKNOWN" for other values). Static storage.
@c public func cad_status_name(_ s: cad_status) -> UnsafePointer<CChar>? {
    guard let st = Status(rawValue: s), let k = Status.allCases.firstIndex(of: st) else { return cStrings.unknownStatus }
    return cStrings.statusNames[k]
}

/// Monotonic seconds (CLOCK_MONOTONIC), like CACurrentMediaTime.
@c public func cad_media_time() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// sizeof(cad_render_item) as the library was built; compare with the header's
/// (see CAD_CHECK_LAYOUT) to catch a mismatched header.
@c public func cad_sizeof_render_item() -> UInt32 {
    UInt32(MemoryLayout<cad_render_item>.size)
}

/// sizeof(cad_event) as the library was built.
@c public func cad_sizeof_event() -> UInt32 {
    UInt32(MemoryLayout<cad_event>.size)
}

// MARK: Engine and time

/// Creates an engine. Returns NULL when 16383 engines are alive at once (each
/// live engine stamps a distinct 14-bit value into its handles, so handles of
/// one engine are never valid in another): the library's limit, its "out of
/// memory". Memory the system refuses ends the process (see the header's
/// conventions).
@c public func cad_engine_create() -> OpaquePointer? {
    guard let got = saltPool.withLock({ $0.acquire() }) else {
        errorSlot.set("cad_engine_create: 16383 engines are alive; destroy one first")
        return nil
    }
    let box = EngineBox(salt: got.salt, firstGeneration: got.firstGeneration)
    return OpaquePointer(Unmanaged.passRetained(box).toOpaque())
}

/// Destroys an engine and everything in it. NULL is a no-op. Using the pointer
/// afterwards is the host's error. Safe to call from one of the engine's own
/// callbacks: the remaining callbacks of that tick are skipped.
@c public func cad_engine_destroy(_ e: OpaquePointer?) {
    guard let box = EngineBox.from(e) else { return }
    if box.destroyed.exchange(true, ordering: .acquiringAndReleasing) { return }
    box.magic = 0
    Unmanaged.passUnretained(box).release()
}

/// Advances the engine to `now` (finite, >= the previous now; the engine starts
/// at 0, so the first tick needs now >= 0; otherwise CAD_ERR_INVALID_ARGUMENT
/// and nothing changes), updates every
/// animation, and delivers the events (callbacks run before this returns, on
/// this thread, with no lock held).
@c public func cad_engine_tick(_ e: OpaquePointer?, _ now: Double) -> cad_status {
    guard let box = EngineBox.from(e) else { return nullEngine("cad_engine_tick") }
    // Keep the box alive even if a callback destroys the engine.
    return withExtendedLifetime(box) {
        withEngineDispatching(e, "cad_engine_tick") { (en: inout Engine) throws(CadenceError) in try en.tick(now) }
    }
}

/// The `now` of the last tick (0 before the first).
@c public func cad_engine_now(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> cad_status {
    withEngine(e, "cad_engine_now") { (en: inout Engine) throws(CadenceError) in
        try requireOut(out).pointee = en.now
    }
}

/// Number of live layers in the engine.
@c public func cad_engine_layer_count(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_engine_layer_count") { (en: inout Engine) throws(CadenceError) in
        try requireOut(out).pointee = Int32(clamping: en.layerCount)
    }
}

// MARK: Events (polling)

/// Takes the oldest queued event. `CAD_ERR_NOT_FOUND` when the queue is empty.
@c public func cad_engine_poll_event(_ e: OpaquePointer?, _ out: cad_event_ptr?) -> cad_status {
    withEngine(e, "cad_engine_poll_event") { (en: inout Engine) throws(CadenceError) in
        guard let o = out?.assumingMemoryBound(to: cad_event.self) else { throw CadenceError(.invalidArgument, "out is NULL") }
        try requireAligned(o, MemoryLayout<cad_event>.alignment, "out")
        let ev = try en.pollEvent()
        o.pointee = cEvent(ev)
    }
}

/// Cadence: takes up to `cap` queued events, oldest first, into `out`;
/// `*n_out` = the number taken (0, still `CAD_OK`, when the queue is empty).
/// One call per frame instead of one per event. `n_out` may be NULL only when
/// `cap` is 0 (events taken must be counted: they leave the queue).
@c public func cad_engine_poll_events(_ e: OpaquePointer?, _ out: cad_event_ptr?, _ cap: Int32, _ n_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_engine_poll_events") { (en: inout Engine) throws(CadenceError) in
        guard cap >= 0 else { throw CadenceError(.invalidArgument, "cap must be >= 0 (got \(cap))") }
        let o = out?.assumingMemoryBound(to: cad_event.self)
        if cap > 0 && o == nil { throw CadenceError(.invalidArgument, "out is NULL but cap = \(cap)") }
        try requireAligned(o, MemoryLayout<cad_event>.alignment, "out")
        if cap > 0 && n_out == nil {
            throw CadenceError(.invalidArgument, "n_out is NULL but cap = \(cap) (the events taken could not be counted)")
        }
        let n = min(Int(cap), en.queuedEventCount)
        var taken = 0
        while taken < n, let o, let ev = try? en.pollEvent() {
            o[taken] = cEvent(ev)
            taken += 1
        }
        n_out?.pointee = Int32(taken)
    }
}

/// The C form of an event: the key truncated to at most 63 bytes at a
/// character boundary (still UTF-8), NUL-terminated.
@inline(__always)
func cEvent(_ ev: Event) -> cad_event {
    var c = cad_event(kind: ev.kind.rawValue, finished: ev.finished ? 1 : 0, layer: ev.layer, tag: ev.tag,
                      time: ev.time, key: zeroKey)
    withUnsafeMutableBytes(of: &c.key) { raw in
        var key = ev.key
        key.withUTF8 { p in
            var n = min(p.count, 63)
            // A cut inside a character moves back to its first byte (the
            // bytes after a lead byte are 0b10xxxxxx).
            if n < p.count {
                while n > 0 && p[n] & 0xC0 == 0x80 { n -= 1 }
            }
            for i in 0..<n { raw[i] = p[i] }
        }
    }
    return c
}

/// Sets the capacity of the poll queue (0 to 16777216; default 4096, 0 = keep
/// no events).
/// When the queue is full the oldest event is dropped and counted
/// (`cad_engine_events_dropped`), so an engine nobody polls stays bounded.
/// The call also returns the memory the event lists grew to in earlier
/// bursts (ticks keep it, so that later frames do not allocate): setting the
/// current capacity again after a large setup or teardown releases that peak.
@c public func cad_engine_set_event_capacity(_ e: OpaquePointer?, _ capacity: Int32) -> cad_status {
    withEngineState(e, "cad_engine_set_event_capacity") { (s: inout EngineState) throws(CadenceError) in
        try s.engine.setEventCapacity(Int(capacity))
        s.trimSpares()
    }
}

/// Sizes the engine's storage for `layers` layers and `animations` attached
/// animations in all (totals, not additions; a group counts one per
/// animation in its tree), so that building a scene up to that size does not
/// regrow and copy its arrays: a 300k-layer scene builds 2 to 4 times faster.
/// Optional: storage grows as needed without it, also past the reservation.
/// Never shrinks; counts at or below what the engine holds change nothing.
/// Each count in 0...1048576, else CAD_ERR_INVALID_ARGUMENT (the limits
/// reserve about 2.3 GB of address space, which the system commits only as
/// the scene fills it; as for any growth of the engine's storage, memory the
/// system refuses ends the process).
@c public func cad_engine_reserve(_ e: OpaquePointer?, _ layers: Int32, _ animations: Int32) -> cad_status {
    withEngine(e, "cad_engine_reserve") { (en: inout Engine) throws(CadenceError) in
        try en.reserve(layers: Int(layers), animations: Int(animations))
    }
}

/// Number of events dropped because the poll queue was full, since creation.
@c public func cad_engine_events_dropped(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> cad_status {
    withEngine(e, "cad_engine_events_dropped") { (en: inout Engine) throws(CadenceError) in
        try requireOut(out).pointee = en.droppedEventCount
    }
}

let zeroKey: CChar64 = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

// MARK: Timing functions

/// Evaluates the cubic Bézier timing function (c1x, c1y, c2x, c2y) at `n`
/// progress values `x` (clamped to [0, 1]) into `y` (accurate to 1e-7; the
/// solver the engine uses). c1x and c2x must lie in [0, 1]; the control
/// points must be finite. An `x` that is NaN is progress 0 (as the engine
/// treats a NaN progress), so it is not an error: y is the curve's value at 0.
@c public func cad_timing_eval_batch(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: UnsafePointer<Double>?, _ y: UnsafeMutablePointer<Double>?, _ n: Int32) -> cad_status {
    do throws(CadenceError) {
        let curve = try bezier(c1x, c1y, c2x, c2y)
        guard n >= 0 else { throw CadenceError(.invalidArgument, "n must be >= 0 (got \(n))") }
        guard n == 0 || (x != nil && y != nil) else { throw CadenceError(.invalidArgument, "x and y must not be NULL when n > 0") }
        guard let x, let y else { return 0 }
        for k in 0..<Int(n) { y[k] = curve.evaluate(x[k]) }
        return 0
    } catch {
        return fail(error, function: "cad_timing_eval_batch")
    }
}
