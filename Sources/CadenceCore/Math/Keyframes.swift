// Keyframes.swift — value timelines of keyframe animations (SEMANTICS.md §7).
//
// A track holds n values of `components` doubles each and maps the animation's
// (already eased) progress p to a segment and a local progress within it
// (`locate`), then to a value (`value`). The engine applies per-segment timing
// functions to the local progress in between when `usesSegmentTiming` is true.
//
// Calculation modes:
// - linear: key times (given, or j/(n−1)); within segment j the value is
//   (1 − u) v_j + u v_(j+1), u = (p − t_j) / (t_(j+1) − t_j).
// - discrete: value j shows from t_j until t_(j+1) (n + 1 key times, the last is
//   the end) or, with n key times, the last value shows from t_(n−1) = 1; default
//   t_j = j / n.
// - paced: t_j = (Σ_(i<j) |v_(i+1) − v_i|) / (Σ |v_(i+1) − v_i|), Euclidean in
//   component space, then linear (all values equal: evenly spaced).
// - cubic: Kochanek–Bartels spline, per component, timed like linear. With
//   tension t, continuity c, bias b of keyframe i, Δin = v_i − v_(i−1),
//   Δout = v_(i+1) − v_i (v_(−1) = v_0, v_n = v_(n−1)):
//       outgoing tangent  d_i⁺ = (1−t)(1+b)(1−c)/2 · Δin + (1−t)(1−b)(1+c)/2 · Δout
//       incoming tangent  d_i⁻ = (1−t)(1+b)(1+c)/2 · Δin + (1−t)(1−b)(1−c)/2 · Δout
//   and segment j is the cubic Hermite curve from v_j to v_(j+1) with tangents
//   d_j⁺ and d_(j+1)⁻ (per unit of u). t = c = b = 0 gives Catmull-Rom.
// - cubicPaced: the same spline, re-timed so that the point moves at constant
//   speed by arc length in component space (arc-length table built once).

import RealModule

/// How a keyframe animation interpolates between its values (`cad_calc_mode`).
public enum CalculationMode: Int32, Sendable {
    case linear = 0, discrete = 1, paced = 2, cubic = 3, cubicPaced = 4
}

/// Why a keyframe track cannot be built; the strings say what is wrong in words.
public enum KeyframeError: Error, Equatable, Sendable {
    /// No values.
    case tooFewValues
    /// `components` < 1, or the value count is not a multiple of it.
    case componentMismatch
    /// The key times do not fit the values or the mode.
    case invalidKeyTimes(String)
    /// A tension, continuity or bias list has the wrong count or a non-finite entry.
    case invalidTCB(String)
}

/// The value timeline of one keyframe animation: built once when the animation
/// is attached, sampled every frame. `locate` and `value` allocate nothing.
public final class KeyframeTrack: Sendable {
    /// Number of values n (≥ 1).
    public let count: Int
    /// Doubles per value (≥ 1).
    public let components: Int
    /// The calculation mode the track was built for.
    public let mode: CalculationMode

    private let spline: HermiteSpline
    /// Linear, paced, cubic: n entries. Discrete: n or n + 1 entries.
    /// cubicPaced: n evenly spaced entries (used only if the spline has no length).
    private let keyTimes: [Double]
    /// First and last segment of positive duration (extrapolation targets).
    private let firstLive: Int, lastLive: Int
    /// The key shown at progress 0, where a cycle starts: 0, or the last of
    /// several keys at key time 0 (the earlier ones are never shown). A cycle
    /// ends at the last key. The cumulative change per cycle is their
    /// difference (SEMANTICS.md §5.2).
    public let cycleStartKey: Int
    /// cubicPaced only: arc length of the spline.
    private let arc: ArcLengthTable?

    /// Relative accuracy of the cubicPaced arc-length quadrature (of each segment's length).
    static let arcLengthTolerance = 1e-12

    /// Builds a track.
    ///
    /// - Parameters:
    ///   - values: n × `components` doubles, value by value.
    ///   - keyTimes: used by linear and cubic (n entries) and discrete (n or n + 1):
    ///     finite, first 0, last 1, non-decreasing. Ignored (not validated) by paced
    ///     and cubicPaced, and when n = 1.
    ///   - tension, continuity, bias: per keyframe (n entries, finite), used by cubic
    ///     and cubicPaced; nil means zeros. Ignored (not validated) by other modes
    ///     and when n = 1.
    /// - Throws: `KeyframeError` describing the first problem found.
    public init(values: [Double], components: Int, keyTimes: [Double]?, mode: CalculationMode,
                tension: [Double]?, continuity: [Double]?, bias: [Double]?) throws(KeyframeError) {
        guard components >= 1 else { throw .componentMismatch }
        guard !values.isEmpty else { throw .tooFewValues }
        guard values.count % components == 0 else { throw .componentMismatch }
        let n = values.count / components
        self.count = n
        self.components = components
        self.mode = mode

        let isCubic = mode == .cubic || mode == .cubicPaced
        if isCubic && n >= 2 {
            for (name, list) in [("tension", tension), ("continuity", continuity), ("bias", bias)] {
                guard let list else { continue }
                guard list.count == n else {
                    throw .invalidTCB("expected \(n) \(name) values (one per keyframe), got \(list.count)")
                }
                if let i = list.firstIndex(where: { !$0.isFinite }) {
                    throw .invalidTCB("\(name) value \(i) is not finite (\(list[i]))")
                }
            }
        }
        let spline = HermiteSpline(values: values, components: components, count: n, cubic: isCubic,
                                   tension: tension, continuity: continuity, bias: bias)
        self.spline = spline

        let even = n >= 2 ? (0..<n).map { Double($0) / Double(n - 1) } : [0]
        var times: [Double]
        var arc: ArcLengthTable? = nil
        switch mode {
        case .linear, .cubic:
            if let keyTimes, n >= 2 {
                if let problem = CurveSupport.keyTimesProblem(keyTimes, allowedCounts: [n],
                                                              countDescription: "\(n) (one per value)") {
                    throw .invalidKeyTimes(problem)
                }
                times = keyTimes
            } else {
                times = even
            }
        case .discrete:
            if let keyTimes, n >= 2 {
                if let problem = CurveSupport.keyTimesProblem(
                    keyTimes, allowedCounts: [n, n + 1],
                    countDescription: "\(n) or \(n + 1) (values + 1, the last being the end)") {
                    throw .invalidKeyTimes(problem)
                }
                times = keyTimes
            } else {
                times = (0...n).map { Double($0) / Double(n) }
            }
        case .paced:
            times = KeyframeTrack.pacedKeyTimes(values: values, components: components, count: n) ?? even
        case .cubicPaced:
            times = even
            if n >= 2 {
                let table = ArcLengthTable(curve: spline, relativeTolerance: KeyframeTrack.arcLengthTolerance)
                if table.totalLength > 0 && table.totalLength.isFinite { arc = table }
            }
        }
        self.keyTimes = times
        self.arc = arc

        // Segments of positive duration (by time, or by arc length for cubicPaced).
        var first = 0, last = max(n - 2, 0)
        if n >= 2 && mode != .discrete {
            let width: (Int) -> Double = arc.map { table in { table.segmentLength($0) } }
                ?? { times[$0 + 1] - times[$0] }
            first = (0..<(n - 1)).first { width($0) > 0 } ?? 0
            last = (0..<(n - 1)).last { width($0) > 0 } ?? max(n - 2, 0)
        }
        firstLive = first
        lastLive = last
        cycleStartKey = n >= 2 ? min(max(CurveSupport.lastIndex(in: times, notAfter: 0), 0), mode == .discrete ? n - 1 : n - 2) : 0
    }

    /// The one-value linear track `[value]`: what the throwing initialiser
    /// builds for it, without validation (nothing to validate).
    init(constant value: Double) {
        count = 1
        components = 1
        mode = .linear
        spline = HermiteSpline(values: [value], components: 1, count: 1, cubic: false,
                               tension: nil, continuity: nil, bias: nil)
        keyTimes = [0]
        arc = nil
        firstLive = 0
        lastLive = 0
        cycleStartKey = 0
    }

    /// Whether per-segment timing functions apply: true for linear and cubic;
    /// false for paced, cubicPaced (constant speed) and discrete (no in-between).
    @inline(__always)
    public var usesSegmentTiming: Bool { mode == .linear || mode == .cubic }

    /// Maps overall progress p (already eased by the animation's own timing
    /// function) to a segment j in 0 ..< max(count − 1, 1) and the local progress u
    /// within it.
    ///
    /// - For p in [0, 1], u ∈ [0, 1]; at a key time the later segment is chosen
    ///   (u = 0), except at p = 1 (last segment, u = 1). A zero-duration segment is
    ///   never chosen except at p = 1, where it gives u = 1.
    /// - For p outside [0, 1] (overshooting timing curves) the first/last segment of
    ///   positive duration is chosen and u extrapolates linearly (linear, paced,
    ///   cubic) or by the spline's end speed (cubicPaced).
    /// - discrete: j is the index of the value to show (0 ..< count), u = 0.
    /// - cubicPaced: (segment, spline parameter) at arc-length fraction p, to ~1e-12
    ///   of the total length.
    /// - NaN is treated as 0; a single value gives (0, 0).
    public func locate(_ p: Double) -> (segment: Int, local: Double) {
        let n = count
        let p = p.isNaN ? 0 : p
        if n == 1 { return (0, 0) }
        if mode == .discrete {
            let j = CurveSupport.lastIndex(in: keyTimes, notAfter: p)
            return (min(max(j, 0), n - 1), 0)
        }
        if let arc {
            let total = arc.totalLength
            if p < 0 || p > 1 {
                let j = p < 0 ? firstLive : lastLive
                let end: Double = p < 0 ? 0 : 1
                let speed = spline.speed(segment: j, at: end)
                guard speed > 0, p.isFinite else { return (j, end) }
                return (j, end + (p - end) * total / speed)
            }
            let located = arc.locate(spline, arcLength: p * total)
            return (located.segment, located.u)
        }
        let kt = keyTimes
        if p < 0 || p > 1 {
            let j = p < 0 ? firstLive : lastLive
            let width = kt[j + 1] - kt[j]
            guard width > 0, p.isFinite else { return (j, p < 0 ? 0 : 1) }
            return (j, (p - kt[j]) / width)
        }
        let j = min(max(CurveSupport.lastIndex(in: kt, notAfter: p), 0), n - 2)
        let width = kt[j + 1] - kt[j]
        let u = width > 0 ? min(max((p - kt[j]) / width, 0), 1) : 1
        return (j, u)
    }

    /// `locate(_:)` trying segment `hint` (and the one after it) first: the
    /// same result, found in O(1) when progress stays in or just past the
    /// segment of the previous frame. `hint` is updated to the segment found.
    /// Only key-time tracks (linear, cubic, paced; not discrete or cubicPaced)
    /// with `p` in [0, 1] take the shortcut; everything else is `locate(_:)`.
    @inline(__always)
    func locate(_ p: Double, hint: inout Int) -> (segment: Int, local: Double) {
        if let r = locateNear(p, hint: &hint) { return r }
        let r = locate(p)
        hint = r.segment
        return r
    }

    /// The shortcut of `locate(_:hint:)` alone: nil (and `hint` unchanged)
    /// when it does not apply or neither segment tried holds `p`.
    @inline(__always)
    func locateNear(_ p: Double, hint: inout Int) -> (segment: Int, local: Double)? {
        guard mode != .discrete && arc == nil else { return nil }
        let kt = keyTimes
        guard kt.count == count else { return nil }
        return KeyframeTrack.locateNear(p, count: count, hint: &hint) { kt[$0] }
    }

    /// The shortcut of `locate(_:hint:)` for a key-time track (linear, cubic,
    /// paced) of `n` key times read through `time`: tries segment `hint`, then
    /// the one after it (wrapping to 0). Shared with the instance store's flat
    /// copy of small tracks, so both give bit-identical results.
    @inline(always)
    static func locateNear(_ p: Double, count n: Int, hint: inout Int,
                           time kt: (Int) -> Double) -> (segment: Int, local: Double)? {
        // `p >= 0 && p <= 1` is false for NaN.
        guard n >= 2 && p >= 0 && p <= 1 else { return nil }
        let last = n &- 2
        var h = hint
        var k = 0
        // Sorted key times (checked at creation): j is the largest index with
        // kt[j] <= p, clamped to n - 2, exactly when kt[j] <= p < kt[j + 1]
        // (or j = n - 2 and kt[j] <= p).
        while k < 2 && h >= 0 && h <= last {
            if kt(h) <= p && (h == last || p < kt(h &+ 1)) {
                hint = h
                let width = kt(h &+ 1) - kt(h)
                let u = width > 0 ? min(max((p - kt(h)) / width, 0), 1) : 1
                return (h, u)
            }
            h = h < last ? h &+ 1 : 0
            k &+= 1
        }
        return nil
    }

    /// The flat form of a small track for the frame loop (`InstanceStore`):
    /// key times, then values, then (cubic) tangents, in one array; nil when
    /// the track is not a key-time track of 2 or more values of at most four
    /// components, or the whole does not fit in `capacity` doubles.
    func flatLayout(capacity: Int) -> (data: [Double], cubic: Bool)? {
        guard count >= 2, components <= 4, arc == nil, keyTimes.count == count else { return nil }
        let cubic: Bool
        switch mode {
        case .linear, .paced: cubic = false
        case .cubic: cubic = true
        case .discrete, .cubicPaced: return nil
        }
        let data = keyTimes + spline.values + (cubic ? spline.tangents : [])
        guard spline.values.count == count * components,
              !cubic || spline.tangents.count == 2 * (count - 1) * components,
              data.count <= capacity else { return nil }
        return (data, cubic)
    }

    /// Writes the value at (segment, local) into `out[offset ..< offset + components]`:
    /// the lerp (1 − u) v_j + u v_(j+1) (linear, paced), the Kochanek–Bartels
    /// Hermite curve (cubic, cubicPaced; u outside [0, 1] evaluates the segment's
    /// cubic beyond its ends), or value j (discrete, and any mode with one value).
    /// `segment` is clamped to the valid range. Exact at u = 0 and u = 1.
    public func value(segment: Int, local: Double, into out: inout [Double], at offset: Int) {
        precondition(offset >= 0 && offset + components <= out.count,
                     "KeyframeTrack.value: output buffer too small")
        let d = components
        let values = spline.values
        if count == 1 || mode == .discrete {
            let j = min(max(segment, 0), count - 1)
            for c in 0..<d { out[offset + c] = values[j * d + c] }
            return
        }
        let j = min(max(segment, 0), count - 2)
        let u = local.isNaN ? 0 : local
        let a = j * d, b = a + d
        if mode == .cubicPaced && !(u >= 0 && u <= 1) {
            for c in 0..<d { out[offset + c] = pacedExtrapolation(segment: j, local: u, component: c) }
            return
        }
        switch mode {
        case .cubic, .cubicPaced:
            spline.evaluate(segment: j, at: u, into: &out, at: offset)
        default:
            let w = 1 - u
            for c in 0..<d { out[offset + c] = w * values[a + c] + u * values[b + c] }
        }
    }

    /// `value(segment:local:into:at:)` for tracks of at most four components,
    /// returned in a SIMD4 (no buffer). Components beyond `components` are 0.
    @inline(__always)
    func value4(segment: Int, local: Double) -> SIMD4<Double> {
        let d = components
        var r = SIMD4<Double>.zero
        guard d <= 4 else { return r }
        let values = spline.values
        if count == 1 || mode == .discrete {
            let j = min(max(segment, 0), count - 1)
            for c in 0..<d { r[c] = values[j &* d &+ c] }
            return r
        }
        if mode == .cubicPaced && !(local >= 0 && local <= 1) && !local.isNaN {
            let j = min(max(segment, 0), count - 2)
            for c in 0..<d { r[c] = pacedExtrapolation(segment: j, local: local, component: c) }
            return r
        }
        let tangents = spline.tangents
        return KeyframeTrack.value4(segment: segment, local: local, count: count, components: d,
                                    cubic: mode == .cubic || mode == .cubicPaced,
                                    value: { values[$0] }, tangent: { tangents[$0] })
    }

    /// cubicPaced beyond the spline's ends (an overshooting timing function,
    /// `locate` gives u outside [0, 1] of the end segment): along the end's
    /// tangent, v(end) + (u − end)·H'(end), so the value keeps moving at the
    /// paced speed in a straight line instead of following the cubic past its end.
    private func pacedExtrapolation(segment j: Int, local u: Double, component c: Int) -> Double {
        let d = components
        let values = spline.values, tangents = spline.tangents
        let m = 2 * (j * d + c)
        guard m + 1 < tangents.count else { return values[(u < 0 ? j : j + 1) * d + c] }
        if u < 0 { return values[j * d + c] + u * tangents[m] }
        return values[(j + 1) * d + c] + (u - 1) * tangents[m + 1]
    }

    /// The value of segment `segment` (clamped) of a track of `n` ≥ 2 values of
    /// `d` ≤ 4 components at `local`: the Kochanek–Bartels Hermite curve
    /// (`cubic`) or the lerp. `value(k)` is component k of the values row by
    /// row, `tangent(k)` of the tangents (outgoing, incoming per segment and
    /// component). Shared with the instance store's flat copy of small tracks.
    @inline(always)
    static func value4(segment: Int, local: Double, count n: Int, components d: Int, cubic: Bool,
                       value: (Int) -> Double, tangent: (Int) -> Double) -> SIMD4<Double> {
        var r = SIMD4<Double>.zero
        let j = min(max(segment, 0), n - 2)
        let u = local.isNaN ? 0 : local
        let a = j &* d, b = a &+ d
        if cubic {
            let u2 = u * u, u3 = u2 * u
            let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u
            let h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
            for c in 0..<min(d, 4) {
                let m = 2 &* (a &+ c)
                r[c] = h00 * value(a &+ c) + h10 * tangent(m) + h01 * value(b &+ c) + h11 * tangent(m &+ 1)
            }
        } else {
            let w = 1 - u
            for c in 0..<min(d, 4) { r[c] = w * value(a &+ c) + u * value(b &+ c) }
        }
        return r
    }

    /// `v` plus (last key − first key) per completed cycle when `cumulative`
    /// (SEMANTICS.md §7), the keys as given, read through `value` (row by
    /// row; `available` doubles). Shared with the instance store's flat copy.
    @inline(always)
    static func cumulated(_ v: SIMD4<Double>, count: Int, components n: Int, cumulative: Bool, iteration: Double,
                          startKey: Int, available: Int, value: (Int) -> Double) -> SIMD4<Double> {
        guard cumulative && iteration >= 1 && count > 1 else { return v }
        // The change over one cycle: the last key minus the key shown at
        // progress 0 (`cycleStartKey`), as given.
        var first = SIMD4<Double>.zero, last = SIMD4<Double>.zero
        let lastRow = (count &- 1) &* n
        let firstRow = min(max(startKey, 0), count &- 1) &* n
        if lastRow &+ n <= available {
            for k in 0..<min(n, 4) {
                first[k] = value(firstRow &+ k)
                last[k] = value(lastRow &+ k)
            }
        }
        return v + (last - first) * iteration
    }

    /// Paced key times: cumulative Euclidean distance / total; nil when the total
    /// is 0 or not finite (then the caller spaces key times evenly).
    private static func pacedKeyTimes(values: [Double], components d: Int, count n: Int) -> [Double]? {
        guard n >= 2 else { return nil }
        // Distances are measured on the values scaled by a power of two that
        // brings the largest magnitude into [1, 2): differences near ±1e308 and
        // squares of differences beyond 1e154 or below 1e-154 would overflow or
        // underflow. The scaling is exact and the key times are ratios, so
        // values of ordinary size get the same bits as without it.
        var largest = 0.0
        for k in 0..<(n * d) where values[k].isFinite { largest = max(largest, abs(values[k])) }
        // (The exponent is clamped so that the unit stays finite for subnormal
        // values, whose exponents reach −1074.)
        let unit = largest > 0 ? Double(sign: .plus, exponent: min(max(-largest.exponent, -1000), 1000), significand: 1) : 1
        var cumulative = [0.0]
        var total = 0.0
        for j in 0..<(n - 1) {
            var sum = 0.0
            for c in 0..<d {
                let delta = values[(j + 1) * d + c] * unit - values[j * d + c] * unit
                sum += delta * delta
            }
            total += sum.squareRoot()
            cumulative.append(total)
        }
        guard total > 0, total.isFinite else { return nil }
        var times = cumulative.map { $0 / total }
        times[n - 1] = 1
        return times
    }
}

// MARK: - Kochanek–Bartels spline

/// The values of a track with, for cubic modes, the Hermite tangents of each
/// segment; an `ArcLengthCurve` over the segments for cubicPaced.
struct HermiteSpline: Sendable, ArcLengthCurve {
    let values: [Double]
    let components: Int
    let count: Int
    /// For segment j and component c: outgoing tangent at v_j at [2 (j d + c)],
    /// incoming tangent at v_(j+1) at [2 (j d + c) + 1]. Empty unless cubic.
    let tangents: [Double]

    init(values: [Double], components d: Int, count n: Int, cubic: Bool,
         tension: [Double]?, continuity: [Double]?, bias: [Double]?) {
        self.values = values
        self.components = d
        self.count = n
        guard cubic, n >= 2 else { tangents = []; return }
        var tangents = [Double](repeating: 0, count: 2 * (n - 1) * d)
        for i in 0..<n {
            let t = tension?[i] ?? 0, c = continuity?[i] ?? 0, b = bias?[i] ?? 0
            // Weights of Δin and Δout in the outgoing (+) and incoming (−) tangents.
            let outIn = (1 - t) * (1 + b) * (1 - c) / 2, outOut = (1 - t) * (1 - b) * (1 + c) / 2
            let inIn = (1 - t) * (1 + b) * (1 + c) / 2, inOut = (1 - t) * (1 - b) * (1 - c) / 2
            let previous = max(i - 1, 0), next = min(i + 1, n - 1)  // duplicated end points
            for k in 0..<d {
                let p = values[previous * d + k], v = values[i * d + k], q = values[next * d + k]
                if i < n - 1 { tangents[2 * (i * d + k)] = HermiteSpline.tangent(p, v, q, outIn, outOut) }
                if i > 0 { tangents[2 * ((i - 1) * d + k) + 1] = HermiteSpline.tangent(p, v, q, inIn, inOut) }
            }
        }
        self.tangents = tangents
    }

    /// `wIn·(v − p) + wOut·(q − v)`. Where that overflows on the way (values
    /// near ±1e308: a difference beyond the largest double although the
    /// tangent itself is not) it is computed at half scale, `2·(wIn·(v/2 − p/2)
    /// + wOut·(q/2 − v/2))`: the same roundings, halving being exact for all
    /// but subnormal values, and a tangent beyond the largest double
    /// saturates at ±DBL_MAX (so that the Hermite form, which multiplies it by
    /// 0 at the keys, stays finite). Finite results are the plain form's bits.
    static func tangent(_ p: Double, _ v: Double, _ q: Double, _ wIn: Double, _ wOut: Double) -> Double {
        let plain = wIn * (v - p) + wOut * (q - v)
        if plain.isFinite { return plain }
        let half = wIn * (v / 2 - p / 2) + wOut * (q / 2 - v / 2)
        return settled(half * 2, nan: 0)
    }

    /// Cubic Hermite value of segment j at u (Hermite basis form: exact at u = 0, 1):
    /// h00 v_j + h10 m0 + h01 v_(j+1) + h11 m1.
    @inline(__always)
    func evaluate(segment j: Int, at u: Double, into out: inout [Double], at offset: Int) {
        let d = components
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u
        let h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        let a = j * d, b = a + d
        for c in 0..<d {
            let m = 2 * (a + c)
            out[offset + c] = h00 * values[a + c] + h10 * tangents[m]
                + h01 * values[b + c] + h11 * tangents[m + 1]
        }
    }

    var arcSegmentCount: Int { count - 1 }

    func isStraight(segment: Int) -> Bool { false }

    /// |dP/du| of segment j: h01' (v_(j+1) − v_j) + h10' m0 + h11' m1, with
    /// h01' = 6u − 6u², h10' = 3u² − 4u + 1, h11' = 3u² − 2u.
    func speed(segment j: Int, at u: Double) -> Double {
        let d = components
        let u2 = u * u
        let g01 = 6 * u - 6 * u2, g10 = 3 * u2 - 4 * u + 1, g11 = 3 * u2 - 2 * u
        let a = j * d, b = a + d
        var sum = 0.0, scale = 0.0
        for c in 0..<d {
            let m = 2 * (a + c)
            let v = g01 * (values[b + c] - values[a + c]) + g10 * tangents[m] + g11 * tangents[m + 1]
            // Scaled sum of squares (no overflow): scale = max |v| so far.
            let av = abs(v)
            if av > scale {
                sum = 1 + sum * (scale / av) * (scale / av)
                scale = av
            } else if av > 0 {
                sum += (av / scale) * (av / scale)
            }
        }
        let result = scale * sum.squareRoot()
        return result.isFinite ? result : 0
    }
}
