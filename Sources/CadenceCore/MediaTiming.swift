/// CAMediaTiming fill modes (SEMANTICS.md §3.3).
public enum FillMode: Int32, Sendable, CaseIterable {
    case removed = 0, forwards = 1, backwards = 2, both = 3

    @inline(__always) var fillsBackwards: Bool { self == .backwards || self == .both }
    @inline(__always) var fillsForwards: Bool { self == .forwards || self == .both }
}

/// The CAMediaTiming fields of a timed object (layer or animation), with Core
/// Animation's defaults.
public struct MediaTiming: Sendable, Equatable {
    public var beginTime: Double = 0
    public var duration: Double = 0
    public var speed: Double = 1
    public var timeOffset: Double = 0
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses: Bool = false
    public var fillMode: FillMode = .removed

    public init() {}

    /// True when local time equals parent time (beginTime 0, speed 1, timeOffset 0).
    @inline(__always)
    public var isIdentityMap: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }

    /// `t = (tp - beginTime) * speed + timeOffset` (SEMANTICS.md §3.1).
    @inline(__always)
    public func localTime(fromParent tp: Double) -> Double {
        // Paused: timeOffset for every parent time, also one that overflowed
        // to ±inf (where (tp − beginTime)·0 would be NaN).
        speed == 0 ? timeOffset : (tp - beginTime) * speed + timeOffset
    }

    /// The inverse map; nil when speed is 0 (not invertible).
    @inline(__always)
    public func parentTime(fromLocal t: Double) -> Double? {
        guard speed != 0 else { return nil }
        return (t - timeOffset) / speed + beginTime
    }

    func value(of field: TimingField) -> Double {
        switch field {
        case .beginTime: return beginTime
        case .speed: return speed
        case .timeOffset: return timeOffset
        case .duration: return duration
        case .repeatCount: return repeatCount
        case .repeatDuration: return repeatDuration
        case .autoreverses: return autoreverses ? 1 : 0
        case .fillMode: return Double(fillMode.rawValue)
        }
    }

    /// Validates and sets one field; throws without changing anything on bad input.
    mutating func set(_ field: TimingField, _ v: Double) throws(CadenceError) {
        switch field {
        case .beginTime: try requireFinite(v, "beginTime"); beginTime = v
        case .speed: try requireFinite(v, "speed"); speed = v
        case .timeOffset: try requireFinite(v, "timeOffset"); timeOffset = v
        case .duration: try requireFiniteNonNegative(v, "duration"); duration = v
        case .repeatCount: try requireNonNegativeOrInfinity(v, "repeatCount"); repeatCount = v
        case .repeatDuration: try requireNonNegativeOrInfinity(v, "repeatDuration"); repeatDuration = v
        case .autoreverses:
            try requireFinite(v, "autoreverses")
            autoreverses = v != 0
        case .fillMode:
            guard v >= 0, v <= 3, v == v.rounded(), let m = FillMode(rawValue: Int32(v)) else {
                throw .invalidArgument("fillMode must be 0 (removed), 1 (forwards), 2 (backwards) or 3 (both) (got \(v))")
            }
            fillMode = m
        }
    }
}

/// Where an animation is in its active interval at one parent time.
public enum TimingPhase: UInt8, Sendable {
    case before, active, after
}

/// The result of mapping a parent time through an animation's timing (§3.2–3.3).
public struct TimingSample: Sendable, Equatable {
    public var phase: TimingPhase
    /// True when the animation contributes a value (active, or filled before/after).
    public var hasEffect: Bool
    /// Active time without offset: `a = (tp - beginTime) * speed`.
    public var activeTime: Double
    /// Completed cycles before this one (`i`).
    public var iteration: Double
    /// Time within the simple duration after autoreverse mirroring, in seconds (`u`).
    public var cycleTime: Double
    /// `u / d` in [0, 1].
    public var progress: Double
}

/// The resolved timing of an attached animation: durations computed once.
public struct ResolvedTiming: Sendable, Equatable {
    public var beginTime: Double
    public var speed: Double
    public var timeOffset: Double
    /// Simple duration `d` (0 replaced by the default).
    public var simpleDuration: Double
    /// Cycle `c = autoreverses ? 2d : d`.
    public var cycle: Double
    /// Active duration `D` (may be +infinity).
    public var activeDuration: Double
    public var autoreverses: Bool
    public var fillMode: FillMode
    /// Iteration and cycle time at the end of the active duration (exact, from the
    /// repeat fields, so that `3 * 0.1 / 0.1` rounding cannot move the end value).
    var endIteration: Double = 0
    var endCycleTime: Double = 0

    /// Resolves §3.2: `d = duration` (or `defaultDuration` when 0), `c`, `D`.
    public init(_ t: MediaTiming, defaultDuration: Double = 0.25) {
        beginTime = t.beginTime
        speed = t.speed
        timeOffset = t.timeOffset
        let d = t.duration > 0 ? t.duration : (defaultDuration > 0 ? defaultDuration : 0.25)
        simpleDuration = d
        cycle = t.autoreverses ? 2 * d : d
        autoreverses = t.autoreverses
        fillMode = t.fillMode
        if t.repeatDuration > 0 {
            activeDuration = t.repeatDuration
        } else {
            let n = t.repeatCount > 0 ? t.repeatCount : 1
            activeDuration = n * cycle
        }
        if !(activeDuration > 0) { activeDuration = cycle }   // underflow guard
        // End of the active duration: a whole number of cycles ends at u = c.
        let n: Double
        if t.repeatDuration > 0 { n = ResolvedTiming.snap(activeDuration / cycle) } else { n = t.repeatCount > 0 ? t.repeatCount : 1 }
        if n.isFinite {
            let whole = n.rounded(.down)
            if n == whole && n >= 1 {
                endIteration = n - 1
                endCycleTime = cycle
            } else {
                endIteration = whole
                endCycleTime = min(cycle, max(0, (n - whole) * cycle))
            }
        }
    }

    /// Rounds a cycle count to the nearest whole number when it is within a few
    /// ulps of it (a cycle count computed as t / c).
    @inline(__always)
    static func snap(_ q: Double) -> Double {
        let r = fastFloor(q + 0.5)
        return abs(q - r) <= 1e-12 * max(1, abs(q)) ? r : q
    }

    /// `fastFloor(snap(q))` with one floor instead of two. When `q` snaps, the
    /// result is the whole number `r`. Otherwise, below 2^51 q + 0.5 rounds by
    /// less than 0.5 and from 2^51 to 2^52 it is exact, so r = floor(q + 0.5)
    /// is floor(q) or floor(q) + 1: floor(q) = r when q >= r, else r - 1 (from
    /// 2^52 up q is whole and r is q or q + 1). NaN stays NaN.
    ///
    /// `q` is a time over the cycle `c`: the snap also needs the time to be
    /// within `snapTime` of the boundary, so its window does not grow with the
    /// running time (at a = 1e9 s a relative 1e-12 alone is 1 ms of frames
    /// showing the next cycle early; with the cap, only rounding-level misses).
    @inline(__always)
    static func snappedFloor(_ q: Double, cycle c: Double) -> Double {
        let r = fastFloor(q + 0.5)
        let miss = abs(q - r)
        if miss <= 1e-12 * max(1, abs(q)) && miss * c <= snapTime { return r }
        return q >= r ? r : r - 1
    }

    /// `snappedFloor` for `q >= 1` (a later cycle, t >= c > 0: the simple
    /// track's steady state), the same result with no sign to handle
    /// (max(1, |q|) is q, and q + 0.5 is positive). From 2^52 - 0.5 up (and
    /// for an infinite q) it is the general function.
    @inline(__always)
    static func snappedFloorFromOne(_ q: Double, cycle c: Double) -> Double {
        let x = q + 0.5
        guard x < 4_503_599_627_370_496 else { return snappedFloor(q, cycle: c) }
        var r = (x + 4_503_599_627_370_496) - 4_503_599_627_370_496
        if r > x { r -= 1 }
        let miss = abs(q - r)
        if miss <= 1e-12 * q && miss * c <= snapTime { return r }
        return q >= r ? r : r - 1
    }

    /// The largest time (seconds of local time) by which a cycle boundary
    /// snaps (`snappedFloor`).
    static var snapTime: Double { 1e-9 }

    /// A cycle count snapped up to a whole number (`snappedFloor`) names a
    /// cycle that starts at or after the end of the active duration when `t` is
    /// a rounding below `D` (2.558 − 0.558 = 1.9999999999999998 with D = 2):
    /// there is no such cycle, so `t` is in the last one, at its end. An
    /// infinite active duration has no end: tested first, as a branch, since
    /// the steady state of every animation repeating for ever takes it. (The
    /// product below cannot reach +inf for it: a snapped `i` is within 1e-9 s
    /// of `t / c`, so `i * c` is within 1e-9 of a finite `t`.)
    @inline(__always)
    static func lastCycle(_ i: Double, cycle c: Double, activeDuration: Double) -> Double {
        guard activeDuration < .infinity else { return i }
        return i >= 1 && i * c >= activeDuration ? i - 1 : i
    }

    /// Maps parent time `tp` to a sample (SEMANTICS.md §3.3).
    @inline(__always)
    public func sample(parentTime tp: Double) -> TimingSample { sampleInline(parentTime: tp) }

    /// `sample`, always inlined (the frame loop's general evaluator: the
    /// optimizer stops inlining `@inline(__always)` functions into large ones).
    @inline(always)
    func sampleInline(parentTime tp: Double) -> TimingSample {
        var a = (tp - beginTime) * speed
        if a.isNaN { a = 0 }
        let D = activeDuration
        var phase: TimingPhase
        var effect: Bool
        var t: Double
        if a < 0 {
            phase = .before
            effect = fillMode.fillsBackwards
            t = wrap(timeOffset)
        } else if a >= D {            // never true for D = +inf
            // The end samples t = D exactly (not wrapped to 0).
            return endSample(activeTime: a)
        } else {
            phase = .active
            effect = true
            t = wrap(a + timeOffset)
        }
        let (i, u, p) = cyclePosition(t)
        return TimingSample(phase: phase, hasEffect: effect, activeTime: a, iteration: i, cycleTime: u, progress: p)
    }

    /// The sample at the end of the active duration (§3.3's end value, from
    /// the exact end fields), reporting `a` as the active time.
    @inline(__always)
    func endSample(activeTime a: Double) -> TimingSample {
        var u = endCycleTime
        if autoreverses && u > simpleDuration { u = 2 * simpleDuration - u }
        var p = u / simpleDuration
        if !(p >= 0) { p = 0 } else if p > 1 { p = 1 }
        return TimingSample(phase: .after, hasEffect: fillMode.fillsForwards, activeTime: a,
                            iteration: endIteration, cycleTime: u, progress: p)
    }

    /// `t mod D` when timeOffset ≠ 0 and D is finite (positive modulo).
    @inline(__always)
    func wrap(_ t: Double) -> Double {
        guard timeOffset != 0 else { return t }
        guard activeDuration.isFinite else { return t }
        return ResolvedTiming.wrap(t, activeDuration: activeDuration)
    }

    /// `t mod D` for a finite D, without a libm call: t - floor(t / D) * D, kept in [0, D).
    /// (Shared with the simple track's inline sampler.)
    @inline(__always)
    static func wrap(_ t: Double, activeDuration dd: Double) -> Double {
        var m = t - fastFloor(t / dd) * dd
        if !(m >= 0) { m = 0 } else if m >= dd { m -= dd; if m >= dd || m < 0 { m = 0 } }
        return m
    }

    /// Iteration, cycle time and progress for a time `t` within the active
    /// duration (§3.3): `i = floor(t / c)`, `u = t - i c`, mirrored on the way
    /// back. (The end of the active duration is handled by `sample` with the
    /// whole-cycle rule.)
    @inline(__always)
    func cyclePosition(_ t: Double) -> (Double, Double, Double) {
        ResolvedTiming.cyclePosition(t, cycle: cycle, duration: simpleDuration, activeDuration: activeDuration,
                                     autoreverses: autoreverses)
    }

    /// `cyclePosition` from the flattened timing (shared with the simple
    /// track's inline sampler, so both give bit-identical samples).
    @inline(__always)
    static func cyclePosition(_ t: Double, cycle c: Double, duration d: Double, activeDuration: Double,
                              autoreverses: Bool) -> (Double, Double, Double) {
        // The first cycle (the common case): progress is t / d, or on the way
        // back (u past d, autoreversing) (2d - t) / d. These are the general
        // steps below with i = 0 (u = t - 0 * c is t, every clamp a no-op),
        // bit for bit. (Not within the whole-number snap below the first
        // boundary, where the general steps make it the start of cycle 1, as
        // at every later boundary; not for an infinite autoreversing cycle,
        // where they give 0 * c = NaN.)
        if t < c * (1 - 2e-12) && t > 0 {
            if !autoreverses { return (0, t, t / d) }
            if c < .infinity {
                let u = t > d ? 2 * d - t : t
                return (0, u, u / d)
            }
        }
        var i: Double
        var u: Double
        if !(t > 0) || !t.isFinite {
            i = 0; u = 0
        } else {
            i = ResolvedTiming.lastCycle(ResolvedTiming.snappedFloor(t / c, cycle: c), cycle: c, activeDuration: activeDuration)
            u = t - i * c
            if u < 0 { u = 0 } else if u > c { u = c }
        }
        if autoreverses && u > d { u = 2 * d - u }
        var p = u / d
        if !(p >= 0) { p = 0 } else if p > 1 { p = 1 }
        return (i, u, p)
    }

    /// Active time at which the animation finishes, in its parent's time, or nil
    /// if it never finishes or the map is not invertible.
    public var parentEndTime: Double? {
        // a = (tp − beginTime)·speed reaches D at tp = beginTime + D / speed, for
        // either sign of speed (a negative speed reaches it going back in time).
        guard activeDuration.isFinite, speed != 0 else { return nil }
        return activeDuration / speed + beginTime
    }
}

/// `x.rounded(.down)` without a libm call on baseline x86-64 (no SSE4.1):
/// exact for every double (values of magnitude >= 2^52 are already whole).
/// For |x| < 2^52, adding and subtracting 2^52 with x's sign rounds x to a
/// nearest whole number r (exact arithmetic otherwise); floor is r, or r - 1
/// when r > x. No integer conversion (whose range checks cost more than the
/// arithmetic). Zero comes out as +0, like the integer round trip did.
@inline(__always)
func fastFloor(_ x: Double) -> Double {
    guard abs(x) < 4_503_599_627_370_496 else { return x }   // 2^52; NaN falls through
    let m = x < 0 ? -4_503_599_627_370_496.0 : 4_503_599_627_370_496.0
    let r = (x + m) - m
    return r > x ? r - 1 : r
}
