// Transactions (SEMANTICS.md §10) and Cadence's UIKit-style block extensions.
import CadenceCore

/// Opens a transaction. Transactions nest; their changes commit together at the
/// outermost commit, at the engine's current time.
@c public func cad_transaction_begin(_ e: OpaquePointer?) -> cad_status {
    withEngine(e, "cad_transaction_begin") { (en: inout Engine) throws(CadenceError) in
        guard en.transactionDepth < 1024 else { throw CadenceError(.invalidState, "transactions nest at most 1024 deep") }
        en.beginTransaction()
    }
}

/// Commits the innermost transaction (`CAD_ERR_INVALID_STATE` without a begin).
/// A transaction that added no animation completes here: its completion
/// callback runs before this returns, with no lock held.
@c public func cad_transaction_commit(_ e: OpaquePointer?) -> cad_status {
    withEngineDispatching(e, "cad_transaction_commit") { (en: inout Engine) throws(CadenceError) in try en.commitTransaction() }
}

/// Duration of the implicit animations of the current transaction (default 0.25 s).
@c public func cad_transaction_set_duration(_ e: OpaquePointer?, _ d: Double) -> cad_status {
    withEngine(e, "cad_transaction_set_duration") { (en: inout Engine) throws(CadenceError) in try en.setTransactionDuration(d) }
}

/// Timing function of the implicit animations (default: CAD_TIMING_DEFAULT).
@c public func cad_transaction_set_timing_function(_ e: OpaquePointer?, _ name: cad_timing_name) -> cad_status {
    withEngine(e, "cad_transaction_set_timing_function") { (en: inout Engine) throws(CadenceError) in
        try en.setTransactionCurve(try timingCurve(name))
    }
}

/// A cubic Bézier timing function for the implicit animations.
@c public func cad_transaction_set_timing_bezier(_ e: OpaquePointer?, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> cad_status {
    withEngine(e, "cad_transaction_set_timing_bezier") { (en: inout Engine) throws(CadenceError) in
        try en.setTransactionCurve(try bezier(c1x, c1y, c2x, c2y))
    }
}

/// 1 = changes in this transaction run no actions (take effect at once).
@c public func cad_transaction_set_disable_actions(_ e: OpaquePointer?, _ disable: Int32) -> cad_status {
    withEngine(e, "cad_transaction_set_disable_actions") { (en: inout Engine) throws(CadenceError) in try en.setTransactionDisableActions(flag(disable)) }
}

/// The completion callback: runs once every animation this transaction added
/// (implicitly or explicitly) has stopped, or at its commit if none was added.
/// Every explicit transaction also queues a CAD_EVENT_TRANSACTION_COMPLETE event
/// whose tag is its id.
@c public func cad_transaction_set_completion(_ e: OpaquePointer?, _ cb: cad_transaction_callback?, _ userdata: UnsafeMutableRawPointer?) -> cad_status {
    withEngine(e, "cad_transaction_set_completion") { (en: inout Engine) throws(CadenceError) in
        try en.setTransactionCompletion(HostCallback(function: cb.map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) } ?? 0,
                                                     userdata: UInt(bitPattern: userdata)))
    }
}

/// Cadence: the id of the innermost open transaction (the tag of its completion
/// event); 0 when none is open.
@c public func cad_transaction_id(_ e: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> cad_status {
    withEngine(e, "cad_transaction_id") { (en: inout Engine) throws(CadenceError) in
        try requireOut(out).pointee = en.currentTransactionID
    }
}

/// Cadence (UIKit-style `delay`): implicit animations of this transaction begin
/// `delay` seconds after the commit (finite, >= 0).
@c public func cad_transaction_set_delay(_ e: OpaquePointer?, _ delay: Double) -> cad_status {
    withEngine(e, "cad_transaction_set_delay") { (en: inout Engine) throws(CadenceError) in try en.setTransactionDelay(delay) }
}

/// Cadence (UIKit-style `.repeat`): repeat count of the implicit animations (INFINITY allowed).
@c public func cad_transaction_set_repeat_count(_ e: OpaquePointer?, _ n: Double) -> cad_status {
    withEngine(e, "cad_transaction_set_repeat_count") { (en: inout Engine) throws(CadenceError) in try en.setTransactionRepeatCount(n) }
}

/// Cadence (UIKit-style `.autoreverse`): implicit animations play forward then back.
@c public func cad_transaction_set_autoreverses(_ e: OpaquePointer?, _ on: Int32) -> cad_status {
    withEngine(e, "cad_transaction_set_autoreverses") { (en: inout Engine) throws(CadenceError) in try en.setTransactionAutoreverses(flag(on)) }
}

/// Cadence (UIKit's usingSpringWithDamping:initialSpringVelocity:): implicit
/// animations become springs that settle exactly at the transaction's duration.
/// `CAD_ERR_INVALID_ARGUMENT` when no representable spring does (checked again
/// by `cad_transaction_set_duration` while a spring is set).
@c public func cad_transaction_set_spring(_ e: OpaquePointer?, _ damping_ratio: Double, _ initial_velocity: Double) -> cad_status {
    withEngine(e, "cad_transaction_set_spring") { (en: inout Engine) throws(CadenceError) in
        try en.setTransactionSpring(dampingRatio: damping_ratio, initialVelocity: initial_velocity)
    }
}

/// Cadence (UIKit's addKeyframe(withRelativeStartTime:relativeDuration:)):
/// opens a keyframe window inside the current transaction, which becomes a
/// keyframe block. Changes inside the window animate from the previous value
/// to the new one over [start, start + duration] of the block's duration
/// (fractions: start >= 0, duration >= 0, start + duration <= 1);
/// values hold between windows. Close the window with `cad_transaction_commit`.
@c public func cad_transaction_begin_keyframe(_ e: OpaquePointer?, _ relative_start: Double, _ relative_duration: Double) -> cad_status {
    withEngine(e, "cad_transaction_begin_keyframe") { (en: inout Engine) throws(CadenceError) in
        try en.beginKeyframe(relativeStart: relative_start, relativeDuration: relative_duration)
    }
}
