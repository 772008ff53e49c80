// Animations: descriptions, their setters, and attaching them to layers.
import CadenceCore

/// Runs a setter on a mutable description (read-only handles: CAD_ERR_INVALID_STATE).
@inline(__always)
func modify(_ e: OpaquePointer?, _ a: cad_anim, _ function: StaticString,
            _ body: (inout AnimationSpec) throws(CadenceError) -> Void) -> cad_status {
    withEngine(e, function) { (en: inout Engine) throws(CadenceError) in
        try en.modifyAnimation(a) { (s: inout AnimationSpec) throws(CadenceError) in try body(&s) }
    }
}

/// Creates an animation description of `kind` for `keypath` (NULL or "" for
/// groups and transitions; a key path there is CAD_ERR_INVALID_ARGUMENT). Adding it to a layer attaches a copy; the description can
/// be changed and added again. Destroy it with `cad_anim_destroy`.
@c public func cad_anim_create(_ e: OpaquePointer?, _ kind: cad_anim_kind, _ keypath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<cad_anim>?) -> cad_status {
    withEngine(e, "cad_anim_create") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        let k = try enumValue(kind, AnimationKind.self, "kind")
        let path: String?
        if k == .group || k == .transition {
            path = keyPathString(keypath)
        } else {
            _ = try keyPathTarget(keypath)   // unknown key paths: CAD_ERR_UNKNOWN_KEYPATH
            path = keyPathString(keypath)
        }
        o.pointee = try en.createAnimation(kind: k, keyPath: path)
    }
}

/// Destroys a description. Copies already attached to layers live on.
@c public func cad_anim_destroy(_ e: OpaquePointer?, _ a: cad_anim) -> cad_status {
    withEngine(e, "cad_anim_destroy") { (en: inout Engine) throws(CadenceError) in try en.destroyAnimation(a) }
}

// MARK: timing (SEMANTICS.md §3)

/// beginTime in the layer's local time; 0 means "now" when added.
@c public func cad_anim_set_begin_time(_ e: OpaquePointer?, _ a: cad_anim, _ t: Double) -> cad_status {
    modify(e, a, "cad_anim_set_begin_time") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.beginTime, t) }
}

/// Simple duration in seconds (>= 0; 0 means the default: 0.25 s for an
/// animation added to a layer, the group's duration for a group's child
/// (SEMANTICS.md §3.2), the transaction's duration for an action).
@c public func cad_anim_set_duration(_ e: OpaquePointer?, _ a: cad_anim, _ d: Double) -> cad_status {
    modify(e, a, "cad_anim_set_duration") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.duration, d) }
}

/// Speed (finite; 0 freezes the animation at its timeOffset).
@c public func cad_anim_set_speed(_ e: OpaquePointer?, _ a: cad_anim, _ s: Double) -> cad_status {
    modify(e, a, "cad_anim_set_speed") { (sp: inout AnimationSpec) throws(CadenceError) in try sp.setTiming(.speed, s) }
}

/// timeOffset (finite): shifts the phase; the animation wraps around its active duration.
@c public func cad_anim_set_time_offset(_ e: OpaquePointer?, _ a: cad_anim, _ t: Double) -> cad_status {
    modify(e, a, "cad_anim_set_time_offset") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.timeOffset, t) }
}

/// repeatCount in cycles (>= 0, fractional allowed, INFINITY allowed).
@c public func cad_anim_set_repeat_count(_ e: OpaquePointer?, _ a: cad_anim, _ n: Double) -> cad_status {
    modify(e, a, "cad_anim_set_repeat_count") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.repeatCount, n) }
}

/// repeatDuration in seconds (>= 0, INFINITY allowed); wins over repeatCount.
@c public func cad_anim_set_repeat_duration(_ e: OpaquePointer?, _ a: cad_anim, _ d: Double) -> cad_status {
    modify(e, a, "cad_anim_set_repeat_duration") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.repeatDuration, d) }
}

/// autoreverses: each cycle plays forward then back.
@c public func cad_anim_set_autoreverses(_ e: OpaquePointer?, _ a: cad_anim, _ on: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_autoreverses") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTiming(.autoreverses, on != 0 ? 1 : 0) }
}

/// fillMode (SEMANTICS.md §3.3).
@c public func cad_anim_set_fill_mode(_ e: OpaquePointer?, _ a: cad_anim, _ m: cad_fill_mode) -> cad_status {
    modify(e, a, "cad_anim_set_fill_mode") { (s: inout AnimationSpec) throws(CadenceError) in
        let f = try enumValue(m, FillMode.self, "m")
        s.timing.fillMode = f
    }
}

/// removedOnCompletion (default 1): remove the animation when it finishes.
@c public func cad_anim_set_removed_on_completion(_ e: OpaquePointer?, _ a: cad_anim, _ on: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_removed_on_completion") { (s: inout AnimationSpec) throws(CadenceError) in s.removedOnCompletion = flag(on) }
}

/// A named timing function (the animation's whole progress).
@c public func cad_anim_set_timing_function(_ e: OpaquePointer?, _ a: cad_anim, _ name: cad_timing_name) -> cad_status {
    modify(e, a, "cad_anim_set_timing_function") { (s: inout AnimationSpec) throws(CadenceError) in s.setTimingCurve(try timingCurve(name)) }
}

/// A cubic Bézier timing function; c1x and c2x must lie in [0, 1], c1y and c2y
/// may overshoot. Solved to 1e-7.
@c public func cad_anim_set_timing_bezier(_ e: OpaquePointer?, _ a: cad_anim, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> cad_status {
    modify(e, a, "cad_anim_set_timing_bezier") { (s: inout AnimationSpec) throws(CadenceError) in s.setTimingCurve(try bezier(c1x, c1y, c2x, c2y)) }
}

/// Cadence extension: a `steps(n, start|end)` jump timing function (CSS Easing);
/// `steps` >= 1; `jump_at_start` nonzero = start, 0 = end.
@c public func cad_anim_set_timing_steps(_ e: OpaquePointer?, _ a: cad_anim, _ steps: Int32, _ jump_at_start: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_timing_steps") { (s: inout AnimationSpec) throws(CadenceError) in
        guard let c = TimingCurve(steps: Int(steps), jumpAtStart: flag(jump_at_start)) else {
            throw CadenceError(.invalidArgument, "steps must be >= 1 (got \(steps))")
        }
        s.setTimingCurve(c)
    }
}

// MARK: basic and spring (SEMANTICS.md §5, §6)

/// fromValue (`n` components of the key path). `v` = NULL with `n` = 0
/// clears it (unset, as on a new description); the same for toValue and
/// byValue. Springs take from/to/by as basic animations do.
@c public func cad_anim_set_from(_ e: OpaquePointer?, _ a: cad_anim, _ v: UnsafePointer<Double>?, _ n: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_from") { (s: inout AnimationSpec) throws(CadenceError) in try setEndpoint(&s, .from, v, n) }
}

/// toValue (NULL, 0 clears it).
@c public func cad_anim_set_to(_ e: OpaquePointer?, _ a: cad_anim, _ v: UnsafePointer<Double>?, _ n: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_to") { (s: inout AnimationSpec) throws(CadenceError) in try setEndpoint(&s, .to, v, n) }
}

/// byValue (NULL, 0 clears it).
@c public func cad_anim_set_by(_ e: OpaquePointer?, _ a: cad_anim, _ v: UnsafePointer<Double>?, _ n: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_by") { (s: inout AnimationSpec) throws(CadenceError) in try setEndpoint(&s, .by, v, n) }
}

func setEndpoint(_ s: inout AnimationSpec, _ which: AnimationSpec.Endpoint, _ v: UnsafePointer<Double>?, _ n: Int32) throws(CadenceError) {
    if v == nil && n == 0 {
        try s.setEndpoint(which, nil)   // clears it
        return
    }
    guard let t = s.target, s.kind == .basic || s.kind == .spring else {
        throw CadenceError(.invalidState, "from/to/by apply to basic and spring animations; this is a \(s.kind.name) animation")
    }
    let buf = try values(v, n, expected: t.components, keyPath: t.name)
    try s.setEndpoint(which, buf)
}

/// additive: the value is added to the underlying value (transforms concatenate).
@c public func cad_anim_set_additive(_ e: OpaquePointer?, _ a: cad_anim, _ on: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_additive") { (s: inout AnimationSpec) throws(CadenceError) in try s.setAdditive(flag(on)) }
}

/// cumulative: each completed cycle adds its end value (minus its start) to the next.
@c public func cad_anim_set_cumulative(_ e: OpaquePointer?, _ a: cad_anim, _ on: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_cumulative") { (s: inout AnimationSpec) throws(CadenceError) in try s.setCumulative(flag(on)) }
}

/// Spring parameters (spring animations): mass > 0, stiffness > 0, damping >= 0,
/// initial velocity in distances per second toward the target; the natural
/// frequency sqrt(stiffness / mass) and the damping ratio must come out finite
/// (and the frequency non-zero) in doubles.
@c public func cad_anim_set_spring(_ e: OpaquePointer?, _ a: cad_anim, _ mass: Double, _ stiffness: Double, _ damping: Double, _ initial_velocity: Double) -> cad_status {
    modify(e, a, "cad_anim_set_spring") { (s: inout AnimationSpec) throws(CadenceError) in
        guard let sp = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initial_velocity) else {
            if mass.isFinite && stiffness.isFinite && damping.isFinite && initial_velocity.isFinite
                && mass > 0 && stiffness > 0 && damping >= 0 {
                throw CadenceError(.invalidArgument, "the natural frequency sqrt(stiffness / mass) or the damping ratio damping / (2 sqrt(stiffness mass)) is not a finite non-zero double (got \(mass), \(stiffness), \(damping), \(initial_velocity))")
            }
            throw CadenceError(.invalidArgument, "spring needs finite mass > 0, stiffness > 0, damping >= 0 and initial_velocity (got \(mass), \(stiffness), \(damping), \(initial_velocity))")
        }
        try s.setSpring(sp)
    }
}

/// The settling duration of a spring animation (SEMANTICS.md §6).
@c public func cad_anim_spring_settling_duration(_ e: OpaquePointer?, _ a: cad_anim, _ out: UnsafeMutablePointer<Double>?) -> cad_status {
    withEngine(e, "cad_anim_spring_settling_duration") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.animationSpec(a).settlingDuration()
    }
}

/// Cadence extension: reads a spring animation's mass, stiffness, damping and
/// initial velocity — after `cad_anim_set_spring_perceptual` or
/// `cad_anim_set_spring_uikit`, the values they derived. Any out pointer may be
/// NULL (that value is not written); CAD_ERR_INVALID_STATE for other kinds.
@c public func cad_anim_get_spring(_ e: OpaquePointer?, _ a: cad_anim, _ mass: UnsafeMutablePointer<Double>?, _ stiffness: UnsafeMutablePointer<Double>?, _ damping: UnsafeMutablePointer<Double>?, _ initial_velocity: UnsafeMutablePointer<Double>?) -> cad_status {
    withEngine(e, "cad_anim_get_spring") { (en: inout Engine) throws(CadenceError) in
        let p = try en.animationSpec(a).springParameters()
        mass?.pointee = p.mass
        stiffness?.pointee = p.stiffness
        damping?.pointee = p.damping
        initial_velocity?.pointee = p.initialVelocity
    }
}

/// Cadence extension: the perceptual spring (SEMANTICS.md §6): `duration` > 0
/// (between about 4.7e-154 and 4e162, so that the stiffness is a finite non-zero
/// double) and `bounce` in (-1, 1). Sets mass 1, stiffness (2 pi / duration)^2, the
/// damping for the bounce, and the animation's duration to the settling duration.
@c public func cad_anim_set_spring_perceptual(_ e: OpaquePointer?, _ a: cad_anim, _ duration: Double, _ bounce: Double) -> cad_status {
    modify(e, a, "cad_anim_set_spring_perceptual") { (s: inout AnimationSpec) throws(CadenceError) in
        guard let sp = Spring.perceptual(duration: duration, bounce: bounce) else {
            if duration.isFinite && duration > 0 && bounce > -1 && bounce < 1 {
                throw CadenceError(.invalidArgument, "the stiffness (2 pi / duration)^2 is not a finite non-zero double: duration must be between about 4.7e-154 and 4e162 (got \(duration))")
            }
            throw CadenceError(.invalidArgument, "duration must be finite and > 0 and bounce in (-1, 1) (got \(duration), \(bounce))")
        }
        try s.setSpring(sp)
        let d = sp.settlingDuration
        if d.isFinite { try s.setTiming(.duration, d) }
    }
}

/// Cadence extension: the UIKit-style spring: it settles exactly at `duration`
/// with `damping_ratio` in (0, 1] and `initial_velocity`; sets the duration too.
/// CAD_ERR_INVALID_ARGUMENT also when no such spring has a natural frequency
/// representable in doubles (extreme ratios such as damping_ratio 1e-300 or
/// |initial_velocity| near 1e300).
@c public func cad_anim_set_spring_uikit(_ e: OpaquePointer?, _ a: cad_anim, _ duration: Double, _ damping_ratio: Double, _ initial_velocity: Double) -> cad_status {
    modify(e, a, "cad_anim_set_spring_uikit") { (s: inout AnimationSpec) throws(CadenceError) in
        guard let sp = Spring.uikit(duration: duration, dampingRatio: damping_ratio, initialVelocity: initial_velocity) else {
            if duration.isFinite && duration > 0 && damping_ratio > 0 && damping_ratio <= 1 && initial_velocity.isFinite {
                throw CadenceError(.invalidArgument, "no spring with a representable natural frequency settles in exactly duration with this damping_ratio and initial_velocity (got \(duration), \(damping_ratio), \(initial_velocity))")
            }
            throw CadenceError(.invalidArgument, "duration must be finite and > 0, damping_ratio in (0, 1], initial_velocity finite (got \(duration), \(damping_ratio), \(initial_velocity))")
        }
        try s.setSpring(sp)
        try s.setTiming(.duration, duration)
    }
}

// MARK: keyframes (SEMANTICS.md §7)

/// Keyframe values: `count` rows of `components` doubles (the key path's count).
@c public func cad_anim_set_values(_ e: OpaquePointer?, _ a: cad_anim, _ values: UnsafePointer<Double>?, _ count: Int32, _ components: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_values") { (s: inout AnimationSpec) throws(CadenceError) in
        guard count >= 0, components >= 0 else { throw CadenceError(.invalidArgument, "count and components must be >= 0 (got \(count), \(components))") }
        let (total, overflow) = Int(count).multipliedReportingOverflow(by: Int(components))
        guard !overflow, total <= 1 << 20 else { throw CadenceError(.invalidArgument, "count x components must be at most \(1 << 20) doubles") }
        if total > 0 && values == nil { throw CadenceError(.invalidArgument, "values is NULL but count x components = \(total)") }
        let arr = total > 0 ? Array(UnsafeBufferPointer(start: values, count: total)) : []
        try s.setValues(arr, count: Int(count), components: Int(components))
    }
}

/// keyTimes: `count` times, 0 = first <= ... <= last = 1 (NULL clears them).
@c public func cad_anim_set_key_times(_ e: OpaquePointer?, _ a: cad_anim, _ times: UnsafePointer<Double>?, _ count: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_key_times") { (s: inout AnimationSpec) throws(CadenceError) in
        guard count >= 0, count <= 1 << 24 else { throw CadenceError(.invalidArgument, "count must be in 0...\(1 << 24) (got \(count))") }
        if times == nil {
            guard count == 0 else { throw CadenceError(.invalidArgument, "times is NULL but count = \(count)") }
            try s.setKeyTimes(nil)
            return
        }
        try s.setKeyTimes(Array(UnsafeBufferPointer(start: times, count: Int(count))))
    }
}

/// Most different curves one keyframe animation may use (identical ones are shared).
let maxDistinctSegmentCurves = 1024

/// Per-segment timing functions: `segments` cubic Béziers of 4 doubles each
/// (c1x, c1y, c2x, c2y), applied within each segment after the animation's own.
@c public func cad_anim_set_segment_timing(_ e: OpaquePointer?, _ a: cad_anim, _ bezier4: UnsafePointer<Double>?, _ segments: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_segment_timing") { (s: inout AnimationSpec) throws(CadenceError) in
        guard segments >= 0, segments <= 1 << 20 else { throw CadenceError(.invalidArgument, "segments must be in 0...\(1 << 20) (got \(segments))") }
        guard let b = bezier4 else {
            guard segments == 0 else { throw CadenceError(.invalidArgument, "bezier4 is NULL but segments = \(segments)") }
            try s.setSegmentCurves(nil)
            return
        }
        // Identical curves share one solver table (each costs ~8 KB to build).
        var curves: [TimingCurve] = []
        curves.reserveCapacity(Int(segments))
        var distinct: [SIMD4<Double>: TimingCurve] = [:]
        for k in 0..<Int(segments) {
            let key = SIMD4(b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3])
            if let c = distinct[key] {
                curves.append(c)
                continue
            }
            guard distinct.count < maxDistinctSegmentCurves else {
                throw CadenceError(.invalidArgument, "more than \(maxDistinctSegmentCurves) different segment timing functions")
            }
            let c = try bezier(key.x, key.y, key.z, key.w)
            distinct[key] = c
            curves.append(c)
        }
        try s.setSegmentCurves(curves)
    }
}

/// The calculation mode.
@c public func cad_anim_set_calculation_mode(_ e: OpaquePointer?, _ a: cad_anim, _ m: cad_calc_mode) -> cad_status {
    modify(e, a, "cad_anim_set_calculation_mode") { (s: inout AnimationSpec) throws(CadenceError) in
        try s.setCalculationMode(try enumValue(m, CalculationMode.self, "m"))
    }
}

/// Kochanek–Bartels tension, continuity and bias per keyframe (`count` each;
/// any may be NULL for zeros). Used by the cubic modes.
@c public func cad_anim_set_tcb(_ e: OpaquePointer?, _ a: cad_anim, _ tension: UnsafePointer<Double>?, _ continuity: UnsafePointer<Double>?, _ bias: UnsafePointer<Double>?, _ count: Int32) -> cad_status {
    modify(e, a, "cad_anim_set_tcb") { (s: inout AnimationSpec) throws(CadenceError) in
        guard count >= 0, count <= 1 << 24 else { throw CadenceError(.invalidArgument, "count must be in 0...\(1 << 24) (got \(count))") }
        func arr(_ p: UnsafePointer<Double>?) -> [Double]? {
            guard let p else { return nil }
            return Array(UnsafeBufferPointer(start: p, count: Int(count)))
        }
        try s.setTCB(tension: arr(tension), continuity: arr(continuity), bias: arr(bias))
    }
}

/// Path: starts a subpath at (x, y). Paths animate points (e.g. "position") and replace values.
@c public func cad_anim_path_move_to(_ e: OpaquePointer?, _ a: cad_anim, _ x: Double, _ y: Double) -> cad_status {
    modify(e, a, "cad_anim_path_move_to") { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.move(x, y)) }
}

/// Path: a line to (x, y).
@c public func cad_anim_path_line_to(_ e: OpaquePointer?, _ a: cad_anim, _ x: Double, _ y: Double) -> cad_status {
    modify(e, a, "cad_anim_path_line_to") { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.line(x, y)) }
}

/// Path: a quadratic Bézier with control point (cx, cy) to (x, y).
@c public func cad_anim_path_quad_to(_ e: OpaquePointer?, _ a: cad_anim, _ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> cad_status {
    modify(e, a, "cad_anim_path_quad_to") { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.quad(cx, cy, x, y)) }
}

/// Path: a cubic Bézier with control points (c1x, c1y), (c2x, c2y) to (x, y).
@c public func cad_anim_path_cubic_to(_ e: OpaquePointer?, _ a: cad_anim, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) -> cad_status {
    modify(e, a, "cad_anim_path_cubic_to") { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.cubic(c1x, c1y, c2x, c2y, x, y)) }
}

/// Path: a line back to the start of the current subpath.
@c public func cad_anim_path_close(_ e: OpaquePointer?, _ a: cad_anim) -> cad_status {
    modify(e, a, "cad_anim_path_close") { (s: inout AnimationSpec) throws(CadenceError) in try s.appendPath(.close) }
}

/// Rotation mode of a path animation.
@c public func cad_anim_set_rotation_mode(_ e: OpaquePointer?, _ a: cad_anim, _ m: cad_rotation_mode) -> cad_status {
    modify(e, a, "cad_anim_set_rotation_mode") { (s: inout AnimationSpec) throws(CadenceError) in
        try s.setRotationMode(try enumValue(m, RotationMode.self, "m"))
    }
}

// MARK: group and transition (SEMANTICS.md §8, §9)

/// Sets a group's children (copies of `count` animations; groups nest up to 32 deep).
@c public func cad_anim_group_set_children(_ e: OpaquePointer?, _ group: cad_anim, _ children: UnsafePointer<cad_anim>?, _ count: Int32) -> cad_status {
    withEngine(e, "cad_anim_group_set_children") { (en: inout Engine) throws(CadenceError) in
        guard count >= 0, count <= 1 << 20 else { throw CadenceError(.invalidArgument, "count must be in 0...\(1 << 20) (got \(count))") }
        if count > 0 && children == nil { throw CadenceError(.invalidArgument, "children is NULL but count = \(count)") }
        let ids = count > 0 ? Array(UnsafeBufferPointer(start: children, count: Int(count))) : []
        try en.setChildren(group, ids)
    }
}

/// A transition's type and subtype.
@c public func cad_anim_set_transition(_ e: OpaquePointer?, _ a: cad_anim, _ type: cad_transition_type, _ subtype: cad_transition_subtype) -> cad_status {
    modify(e, a, "cad_anim_set_transition") { (s: inout AnimationSpec) throws(CadenceError) in
        try s.setTransition(try enumValue(type, TransitionType.self, "type"), try enumValue(subtype, TransitionSubtype.self, "subtype"))
    }
}

/// A transition's startProgress and endProgress, both in [0, 1]. start > end is
/// allowed: the transition runs backwards (Core Animation requires start <= end).
@c public func cad_anim_set_transition_progress(_ e: OpaquePointer?, _ a: cad_anim, _ start: Double, _ end: Double) -> cad_status {
    modify(e, a, "cad_anim_set_transition_progress") { (s: inout AnimationSpec) throws(CadenceError) in try s.setTransitionProgress(start: start, end: end) }
}

// MARK: tagging and callbacks (SEMANTICS.md §5.4, §11)

/// A host tag reported with the animation's events.
@c public func cad_anim_set_tag(_ e: OpaquePointer?, _ a: cad_anim, _ tag: Int64) -> cad_status {
    modify(e, a, "cad_anim_set_tag") { (s: inout AnimationSpec) throws(CadenceError) in s.tag = tag }
}

/// The callback for the animation's start and stop events (NULL removes it).
@c public func cad_anim_set_callback(_ e: OpaquePointer?, _ a: cad_anim, _ cb: cad_anim_callback?, _ userdata: UnsafeMutableRawPointer?) -> cad_status {
    modify(e, a, "cad_anim_set_callback") { (s: inout AnimationSpec) throws(CadenceError) in
        s.callback = HostCallback(function: cb.map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) } ?? 0,
                                  userdata: UInt(bitPattern: userdata))
    }
}

// MARK: attaching

/// Attaches a copy of `a` to layer `l` under `key` (NULL or "" = a generated
/// unique key; transitions always use "transition"; a key that is not UTF-8 is
/// CAD_ERR_INVALID_ARGUMENT, here and wherever a key is named). An animation already under
/// the key is removed first (stop event, finished = 0). A beginTime of 0 becomes
/// the layer's local time at the engine's now.
@c public func cad_layer_add_animation(_ e: OpaquePointer?, _ l: cad_layer, _ a: cad_anim, _ key: UnsafePointer<CChar>?) -> cad_status {
    withEngine(e, "cad_layer_add_animation") { (en: inout Engine) throws(CadenceError) in
        try en.addAnimation(layer: l, animation: a, key: optionalString(key, "key"))
    }
}

/// Removes the animation under `key` (`CAD_ERR_NOT_FOUND` if none); the
/// presentation returns to what remains at once.
@c public func cad_layer_remove_animation(_ e: OpaquePointer?, _ l: cad_layer, _ key: UnsafePointer<CChar>?) -> cad_status {
    withEngine(e, "cad_layer_remove_animation") { (en: inout Engine) throws(CadenceError) in
        try en.removeAnimation(layer: l, key: try string(key, "key"))
    }
}

/// Removes every animation of the layer.
@c public func cad_layer_remove_all_animations(_ e: OpaquePointer?, _ l: cad_layer) -> cad_status {
    withEngine(e, "cad_layer_remove_all_animations") { (en: inout Engine) throws(CadenceError) in try en.removeAllAnimations(layer: l) }
}

/// Number of animations attached to the layer.
@c public func cad_layer_animation_count(_ e: OpaquePointer?, _ l: cad_layer, _ out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_layer_animation_count") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = Int32(try en.animationCount(layer: l))
    }
}

/// The key of the animation at `index` (in add order), NUL-terminated into `buf`.
/// On success `*len_out` is the key's length in bytes (without the NUL); with
/// `cap` < length + 1: `CAD_ERR_BUFFER_TOO_SMALL` and `*len_out` = length + 1,
/// the bytes needed.
@c public func cad_layer_animation_key_at(_ e: OpaquePointer?, _ l: cad_layer, _ index: Int32, _ buf: UnsafeMutablePointer<CChar>?, _ cap: Int32, _ len_out: UnsafeMutablePointer<Int32>?) -> cad_status {
    withEngine(e, "cad_layer_animation_key_at") { (en: inout Engine) throws(CadenceError) in
        try checkBuffer(buf, cap, "buf")
        let key = try en.animationKey(layer: l, at: Int(index))
        let bytes = Array(key.utf8)
        guard bytes.count + 1 <= Int(cap), let buf else {
            len_out?.pointee = Int32(clamping: bytes.count + 1)
            throw CadenceError(.bufferTooSmall, "the key needs more bytes than cap (with its NUL; the count needed is in *len_out)", needed: bytes.count + 1)
        }
        for (k, b) in bytes.enumerated() { buf[k] = CChar(bitPattern: b) }
        buf[bytes.count] = 0
        len_out?.pointee = Int32(clamping: bytes.count)
    }
}

/// A read-only handle to the attached copy under `key` (setters on it give
/// `CAD_ERR_INVALID_STATE`; it may be added to other layers, which copies it).
@c public func cad_layer_animation_for_key(_ e: OpaquePointer?, _ l: cad_layer, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<cad_anim>?) -> cad_status {
    withEngine(e, "cad_layer_animation_for_key") { (en: inout Engine) throws(CadenceError) in
        let o = try requireOut(out)
        o.pointee = try en.animation(layer: l, key: try string(key, "key"))
    }
}
