// Cubic-Bézier and step timing functions (Core Animation's `CAMediaTimingFunction`,
// CSS Easing Level 1 `cubic-bezier()` / `steps()`).
//
// RealModule supplies `Double.sqrt`; its target also links libm on Linux, which the
// `sqrt`, `floor` and `fma` that Swift emits for these Double operations need.

import RealModule

/// A timing function: maps input progress `x` in [0, 1] to eased output progress.
///
/// **Cubic Bézier.** The curve runs from (0, 0) to (1, 1) with control points
/// P1 = (c1x, c1y) and P2 = (c2x, c2y):
///
///     x(t) = 3·c1x·t·(1−t)² + 3·c2x·t²·(1−t) + t³      t ∈ [0, 1]
///     y(t) = 3·c1y·t·(1−t)² + 3·c2y·t²·(1−t) + t³
///
/// Because c1x and c2x lie in [0, 1], x(t) is non-decreasing on [0, 1] and strictly increasing
/// apart from isolated points, so every x ∈ [0, 1] has exactly one t with x(t) = x and the curve
/// is a function `y(x) = y(t(x))`. The ordinates c1y, c2y may be any finite value; outside [0, 1]
/// they make the output overshoot.
///
/// **Steps.** `steps(n, jump-start | jump-end)` of CSS Easing Level 1 (see `init(steps:jumpAtStart:)`).
///
/// **Evaluation contract** (`evaluate(_:)`):
/// - `x` is clamped to [0, 1]; NaN is treated as 0, so NaN never propagates.
/// - `evaluate(0) == 0` and `evaluate(1) == 1` exactly, for every curve.
/// - Béziers: `|evaluate(x) − y(t(x))| ≤ 1e-7` for every valid curve and every x ∈ [0, 1],
///   where y(t(x)) is the exact mathematical value. This includes curves whose x'(t) vanishes at
///   an end (c1x = 0 or c2x = 1), at both ends, or at an interior inflection (e.g. c1x = 1, c2x = 0).
///   The solver aims at 2.5e-8 (`BezierSolver.targetError`). The guarantee assumes
///   |c1y|, |c2y| ≤ 1e6; beyond that the rounding of y(t) itself (≈ 1e-16·|c·y|) dominates.
/// - Curves with P1 = (a, a) and P2 = (b, b) — `linear` among them — satisfy y(t) = x(t) and
///   evaluate as the identity, exactly.
/// - Evaluation does not allocate and is safe to call concurrently.
public struct TimingCurve: Sendable, Equatable {
    private enum Shape: Sendable, Equatable {
        case bezier(c1x: Double, c1y: Double, c2x: Double, c2y: Double)
        case steps(count: Int, jumpAtStart: Bool)
    }

    private let shape: Shape
    /// Precomputed solver; `nil` for steps and for identity Béziers.
    private let solver: BezierSolver?

    /// A cubic Bézier timing function with control points (c1x, c1y) and (c2x, c2y).
    ///
    /// Returns `nil` unless all four values are finite and c1x, c2x ∈ [0, 1].
    /// Building a general curve solves ~200 roots for its lookup table (a few microseconds);
    /// the named curves share tables built once.
    public init?(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        guard c1x.isFinite, c1y.isFinite, c2x.isFinite, c2y.isFinite,
              (0...1).contains(c1x), (0...1).contains(c2x) else { return nil }
        shape = .bezier(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
        let isIdentity = c1x == c1y && c2x == c2y
        solver = isIdentity ? nil : BezierSolver(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
    }

    /// CSS Easing Level 1 `steps(count, jump-start)` (`jumpAtStart == true`, alias `start`)
    /// or `steps(count, jump-end)` (`false`, alias `end`). Returns `nil` unless `count ≥ 1`.
    ///
    /// With n = count and x ∈ (0, 1):
    /// - end:   `floor(x·n) / n`                 (0, 1/n, …, (n−1)/n)
    /// - start: `min(floor(x·n) + 1, n) / n`     (1/n, …, 1)
    /// and at the ends `evaluate(0) == 0`, `evaluate(1) == 1`.
    ///
    /// The CSS "before flag" is simplified: it is taken as set exactly at x = 0 (the value a
    /// timing function shows before its interval starts) and unset elsewhere. That is why a
    /// jump-start function gives 0 at x = 0 rather than 1/n, while every x > 0 follows CSS,
    /// e.g. steps(4, start) gives 0.5 at x = 0.25.
    public init?(steps count: Int, jumpAtStart: Bool) {
        guard count >= 1 else { return nil }
        shape = .steps(count: count, jumpAtStart: jumpAtStart)
        solver = nil
    }

    /// `cubic-bezier(0, 0, 1, 1)`: the identity, evaluated exactly.
    public static let linear = TimingCurve(c1x: 0, c1y: 0, c2x: 1, c2y: 1)!
    /// `cubic-bezier(0.42, 0, 1, 1)`.
    public static let easeIn = TimingCurve(c1x: 0.42, c1y: 0, c2x: 1, c2y: 1)!
    /// `cubic-bezier(0, 0, 0.58, 1)`.
    public static let easeOut = TimingCurve(c1x: 0, c1y: 0, c2x: 0.58, c2y: 1)!
    /// `cubic-bezier(0.42, 0, 0.58, 1)`; point-symmetric: y(x) + y(1 − x) = 1.
    public static let easeInEaseOut = TimingCurve(c1x: 0.42, c1y: 0, c2x: 0.58, c2y: 1)!
    /// `cubic-bezier(0.25, 0.1, 0.25, 1)`, Core Animation's `kCAMediaTimingFunctionDefault`.
    public static let `default` = TimingCurve(c1x: 0.25, c1y: 0.1, c2x: 0.25, c2y: 1)!

    /// The control points of a Bézier curve; `nil` for step functions.
    public var controlPoints: (c1x: Double, c1y: Double, c2x: Double, c2y: Double)? {
        switch shape {
        case let .bezier(c1x, c1y, c2x, c2y): return (c1x, c1y, c2x, c2y)
        case .steps: return nil
        }
    }

    /// The eased progress y for input progress `x`; see the type's evaluation contract.
    public func evaluate(_ x: Double) -> Double {
        guard x > 0 else { return 0 }  // also NaN
        guard x < 1 else { return 1 }
        if let y = solver?.evaluate(x) { return y }  // (this form avoids a retain)
        switch shape {
        case .bezier: return x  // identity curve
        case let .steps(count, jumpAtStart):
            return Self.stepValue(x, count: count, jumpAtStart: jumpAtStart)
        }
    }

    /// CSS `steps()` for x ∈ (0, 1).
    private static func stepValue(_ x: Double, count: Int, jumpAtStart: Bool) -> Double {
        let n = Double(count)
        var step = (x * n).rounded(.down)
        if jumpAtStart { step += 1 }
        return min(step, n) / n
    }

    /// Two curves are equal when they have the same definition (control points, or step count
    /// and jump position). Mathematically equal curves with different definitions
    /// (e.g. two different identity Béziers) compare unequal.
    public static func == (lhs: TimingCurve, rhs: TimingCurve) -> Bool {
        lhs.shape == rhs.shape
    }
}

// MARK: - Solver

/// Evaluates one non-identity cubic Bézier timing curve, y(t(x)).
///
/// **Table.** [0, 1] is cut into `segmentCount` equal x-segments; in each, t(x) is
/// approximated by the cubic in a local variable w ∈ [0, 1] that interpolates the exact t at
/// w = 0, ⅓, ⅔, 1. Interior segments use w = N·x − i. The first and last segments use
/// w = √(N·x) and w = √(N·(1 − x)), because t(x) behaves like √x there when x'(t) vanishes at
/// that end (c1x = 0 or c2x = 1, as in `easeOut`, `easeIn`), and is still smooth in w otherwise.
///
/// **Certified segments** (the fast path: table lookup, one cubic, y(t) — no solve). At build
/// time each interior segment gets a proven bound on |cubic(w) − t(x)|: the Lagrange remainder
/// h⁴·max|t''''(x)|/1944 (max |w(w−⅓)(w−⅔)(w−1)| = 1/81 on [0, 1], 1/81/4! = 1/1944), with
/// t'''' = (10·x'·x''·x''' − 15·x''³)/x'⁷ bounded over the segment's t-range, plus the node
/// errors (times the Lebesgue constant 1.64) and rounding. If that bound is ≤ tTolerance/2 the
/// segment's bit is set in `certified`. For everyday curves every interior segment qualifies.
///
/// **Other segments** (the two end segments, and segments where x' gets small): the table
/// value is a first guess t₀ for one Newton step, accepted only when provably within
/// tTolerance (`CubicBezier.acceptsFast`); otherwise `CubicBezier.refine` takes over.
/// So table quality affects speed only; every returned value carries a proof of accuracy.
final class BezierSolver: Sendable {
    /// Number of x-segments of the lookup table (a power of two, so x·N is exact).
    static let segmentCount = 128
    /// 1.5·2⁵²: adding it to |v| < 2⁵¹ rounds v to an integer held in the low significand bits.
    private static let roundingShift = 0x1.8p52

    let curve: CubicBezier
    /// Per segment, coefficients (a₀, a₁, a₂, a₃) of t ≈ a₀ + a₁w + a₂w² + a₃w³.
    let segments: ContiguousArray<SIMD4<Double>>
    /// Bit i is set when segment i's cubic is proven within tTolerance/2 of t(x).
    let certified: UInt128

    init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        curve = CubicBezier(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
        (segments, certified) = Self.buildTable(curve)
    }

    /// y(t(x)) for x ∈ (0, 1).
    @inline(__always)
    func evaluate(_ x: Double) -> Double {
        let n = Double(Self.segmentCount)
        let p = x * n  // in (0, N), exact
        // Segment index without a trapping Double → Int conversion: adding 1.5·2⁵² rounds
        // p − ½ to an integer k ∈ [0, N − 1] (k = ⌊p⌋, or ⌊p⌋ − 1 when p is an integer),
        // which is then the low bits of the significand; w = p − k ∈ [0, 1].
        let shifted = (p - 0.5) + Self.roundingShift
        let i = Int(truncatingIfNeeded: shifted.bitPattern) & (Self.segmentCount - 1)
        if certified & (1 << UInt128(i)) != 0 {
            let w = p - (shifted - Self.roundingShift)
            return curve.y(at: Self.cubic(segments[i], w))
        }
        return evaluateWithNewton(x, p: p, segment: i, shifted: shifted)
    }

    @inline(__always)
    private static func cubic(_ a: SIMD4<Double>, _ w: Double) -> Double {
        (a[0] + a[1] * w) + (w * w) * (a[2] + a[3] * w)
    }

    /// Table guess plus one certified Newton step; `refine` when that cannot be certified.
    @inline(never)
    private func evaluateWithNewton(_ x: Double, p: Double, segment i: Int, shifted: Double) -> Double {
        let w: Double
        if i == 0 {
            w = .sqrt(p)
        } else if i == Self.segmentCount - 1 {
            w = .sqrt(Double(Self.segmentCount) - p)
        } else {
            w = p - (shifted - Self.roundingShift)
        }
        let a = segments[i]
        let t0 = Self.cubic(a, w)
        let s = curve.slope(at: t0)
        let d = (curve.x(at: t0) - x) / s
        if curve.acceptsFast(step: d, slope: s) {
            return curve.y(at: t0 - d)
        }
        // The segment's end values approximately bracket the root; `bisect` verifies them.
        let atStart = a[0], atEnd = a[0] + a[1] + a[2] + a[3]
        let t = curve.refine(x, from: t0, lo: min(atStart, atEnd), hi: max(atStart, atEnd))
        return curve.y(at: t)
    }

    // MARK: Table construction

    /// The x at local coordinate `w` of segment `i` (see the type's documentation).
    static func sampleX(segment i: Int, w: Double) -> Double {
        let h = 1 / Double(segmentCount)
        if i == 0 { return h * w * w }
        if i == segmentCount - 1 { return 1 - h * w * w }
        return (Double(i) + w) * h
    }

    private static func buildTable(_ curve: CubicBezier) -> (ContiguousArray<SIMD4<Double>>, UInt128) {
        let n = segmentCount
        // t at the segment boundaries x = k/N.
        var boundary = [Double](repeating: 0, count: n + 1)
        boundary[n] = 1
        for k in 1..<n {
            let x = Double(k) / Double(n)
            boundary[k] = curve.polish(curve.solve(x, guess: boundary[k - 1]), for: x)
        }
        var segments = ContiguousArray<SIMD4<Double>>()
        segments.reserveCapacity(n)
        var certified: UInt128 = 0
        for i in 0..<n {
            // Local w = 0 and w = 1 are boundaries (w = 0 is x = 1 in the last segment).
            let v0 = i == n - 1 ? 1 : boundary[i]
            let v3 = i == n - 1 ? boundary[n - 1] : boundary[i + 1]
            let x1 = sampleX(segment: i, w: 1.0 / 3), x2 = sampleX(segment: i, w: 2.0 / 3)
            let v1 = curve.polish(curve.solve(x1, guess: v0), for: x1)
            let v2 = curve.polish(curve.solve(x2, guess: v1), for: x2)
            // Cubic through (0, v0), (⅓, v1), (⅔, v2), (1, v3), in monomial form.
            segments.append(SIMD4(
                v0,
                (-11 * v0 + 18 * v1 - 9 * v2 + 2 * v3) / 2,
                (18 * v0 - 45 * v1 + 36 * v2 - 9 * v3) / 2,
                (-9 * v0 + 27 * v1 - 27 * v2 + 9 * v3) / 2))
            if i > 0 && i < n - 1,
               curve.interpolationErrorBound(tFrom: v0, to: v3, segmentWidth: 1 / Double(n))
                   <= curve.tTolerance {
                certified |= 1 << UInt128(i)
            }
        }
        return (segments, certified)
    }

    /// Fraction of segments on the certified fast path (diagnostics and tests).
    var certifiedFraction: Double {
        Double(certified.nonzeroBitCount) / Double(Self.segmentCount)
    }
}

/// The polynomials of one Bézier timing curve and a certified root finder for x(t) = x.
///
/// x(t) = ((ax·t + bx)·t + cx)·t with cx = 3·c1x, bx = 3·(c2x − c1x) − cx, ax = 1 − cx − bx;
/// y likewise.
///
/// Certification of a Newton step t₁ = t₀ − d, d = (x(t₀) − x) / x'(t₀), x'(t₀) > 0:
/// - Truncation: for a cubic, t₁ − t* = d*²·x''(ξ)/(2·x'(t₀)) with d* = t₀ − t* and some
///   ξ ∈ [0, 1]; and |d*| ≤ 2|d| whenever M₂·|d|/(2·x'(t₀)) < ¼, M₂ = max|x''| on [0, 1].
///   So |t₁ − t*| ≤ 2·M₂·d²/x'(t₀), which is ≤ tTolerance/2 iff d²·acceptScale ≤ x'(t₀)
///   (and x'(t₀) ≥ convergenceSlope makes the ¼ condition hold).
/// - Rounding: the computed residual x(t₀) − x is off by at most
///   8u·(|ax|t³ + |bx|t² + |cx|t + x) ≤ 8u·(|ax| + |bx| + |cx| + 1), which moves t₁ by that
///   over x'(t₀); that must be ≤ tTolerance/2 too (the fast path checks x'(t₀) ≥ minSlope).
/// tTolerance = targetError / max|y'|, so the error in y stays ≤ targetError (+ ~1e-15 from
/// evaluating y). Where Newton cannot certify — x' tiny at an end or at a flat inflection,
/// where double rounding hides the root — `bisect` uses a double-double residual (error
/// ~1e-30), which resolves even the cube-root singularity of a zero-slope inflection.
struct CubicBezier: Sendable {
    /// Error budget for y used to derive the t tolerance (public guarantee: 1e-7).
    static let targetError = 2.5e-8
    /// Unit roundoff of Double.
    static let unitRoundoff = 0x1p-53
    /// Newton steps `refine` tries before falling back to bisection.
    static let maxRefineSteps = 12

    let ax: Double, bx: Double, cx: Double
    let ay: Double, by: Double, cy: Double
    /// x'(t) = (ax3·t + bx2)·t + cx.
    let ax3: Double, bx2: Double
    /// The control abscissae, for the exact double-double coefficients of `bisect`.
    let c1x: Double, c2x: Double
    let absAx: Double, absBx: Double, absCx: Double

    /// Required accuracy of t: targetError / max|y'(t)|.
    let tTolerance: Double
    /// Fast-path acceptance needs x'(t₀) ≥ minSlope …
    let minSlope: Double
    /// … and d²·acceptScale ≤ x'(t₀), acceptScale = 4·M₂ / tTolerance.
    let acceptScale: Double
    /// Slope below which the Newton error bound is not established: 2·M₂·tTolerance.
    let convergenceSlope: Double
    /// M₂ = max|x''| on [0, 1] (with 1 % margin).
    let maxCurvature: Double
    /// Bound on the rounding error of the computed residual x(t) − x for t ∈ [0, 1].
    let maxResidualError: Double

    init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        cx = 3 * c1x
        bx = 3 * (c2x - c1x) - cx
        ax = 1 - cx - bx
        cy = 3 * c1y
        by = 3 * (c2y - c1y) - cy
        ay = 1 - cy - by
        ax3 = 3 * ax
        bx2 = 2 * bx
        self.c1x = c1x
        self.c2x = c2x
        absAx = abs(ax)
        absBx = abs(bx)
        absCx = abs(cx)

        // max|y'| ≤ 3·max|Bernstein coefficients of y'| (convex hull); ≥ 1 since y rises by 1.
        let maxYSlope = 3 * max(abs(c1y), abs(c2y - c1y), abs(1 - c2y))
        tTolerance = Self.targetError / maxYSlope
        // x'' is linear in t, so |x''| peaks at t = 0 or 1; 1 % margin for guesses that stray
        // slightly outside [0, 1].
        maxCurvature = 1.01 * max(abs(2 * bx), abs(6 * ax + 2 * bx))
        maxResidualError = 8 * Self.unitRoundoff * (absAx + absBx + absCx + 1)
        acceptScale = 4 * maxCurvature / tTolerance
        convergenceSlope = 2 * maxCurvature * tTolerance
        minSlope = max(2 * maxResidualError / tTolerance, convergenceSlope)
    }

    // Estrin-style evaluation: shorter dependency chains than Horner, same error bounds.
    @inline(__always)
    func x(at t: Double) -> Double { cx * t + (t * t) * (bx + ax * t) }

    @inline(__always)
    func slope(at t: Double) -> Double { (cx + bx2 * t) + ax3 * (t * t) }

    @inline(__always)
    func y(at t: Double) -> Double { cy * t + (t * t) * (by + ay * t) }

    /// Whether the Newton step `step` taken with x' = `slope` is certified for every t₀.
    /// False for NaN (e.g. a zero slope).
    @inline(__always)
    func acceptsFast(step d: Double, slope s: Double) -> Bool {
        s >= minSlope && d * d * acceptScale <= s
    }

    /// The root of x(t) = x for x ∈ (0, 1), to tTolerance, without a table; `guess` ∈ [0, 1].
    func solve(_ x: Double, guess: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return refine(x, from: guess, lo: 0, hi: 1)
    }

    /// Newton steps with a t-dependent rounding bound; bisection on about [lo, hi] if they
    /// cannot certify a result.
    func refine(_ x: Double, from guess: Double, lo: Double, hi: Double) -> Double {
        var t = min(max(guess, 0), 1)
        for _ in 0..<Self.maxRefineSteps {
            let s = slope(at: t)
            guard s > convergenceSlope else { break }  // also NaN
            let d = (self.x(at: t) - x) / s
            let residualError = 8 * Self.unitRoundoff * (((absAx * t + absBx) * t + absCx) * t + x)
            if d * d * acceptScale <= s && 2 * residualError <= tTolerance * s {
                return t - d
            }
            t = min(max(t - d, 0), 1)
        }
        return bisect(x, lo: lo, hi: hi)
    }

    /// Up to two Newton steps from an already certified root `t`, each taken only if it moves t
    /// by at most tTolerance (a genuine refinement). Afterwards the error is at most
    /// `polishedError(minimumSlope:)` wherever x' ≥ that slope.
    func polish(_ t: Double, for x: Double) -> Double {
        var t = t
        for _ in 0..<2 {
            let s = slope(at: t)
            let d = (self.x(at: t) - x) / s
            guard abs(d) <= tTolerance else { break }  // also NaN
            t -= d
        }
        return t
    }

    /// Error bound of a polished root where x' ≥ `m` (> convergenceSlope): starting from
    /// ≤ tTolerance/2, each step leaves ≤ 2·M₂·e²/x' + rounding.
    func polishedError(minimumSlope m: Double) -> Double {
        let rounding = 2 * maxResidualError / m
        let afterOne = 2 * maxCurvature * (tTolerance / 2) * (tTolerance / 2) / m + rounding
        return 2 * maxCurvature * afterOne * afterOne / m + rounding
    }

    /// A proven bound on |cubic interpolant − t(x)| over an interior table segment of width
    /// `h` in x whose polished node values span [t0, t1].
    func interpolationErrorBound(tFrom t0: Double, to t1: Double, segmentWidth h: Double) -> Double {
        // Widen by the node errors, then bound x', x'' and x''' on that t-range.
        let lo = min(t0, t1) - tTolerance, hi = max(t0, t1) + tTolerance
        var minSlope = min(slope(at: lo), slope(at: hi))
        var maxSlope = max(slope(at: lo), slope(at: hi))
        if ax3 != 0 {
            let vertex = -bx2 / (2 * ax3)  // the extremum of the quadratic x'
            if lo < vertex && vertex < hi {
                minSlope = min(minSlope, slope(at: vertex))
                maxSlope = max(maxSlope, slope(at: vertex))
            }
        }
        minSlope -= 8 * Self.unitRoundoff * (abs(ax3) + abs(bx2) + absCx)  // rounding of x'
        guard minSlope > convergenceSlope else { return .infinity }
        let x2 = max(abs(2 * ax3 * lo + bx2), abs(2 * ax3 * hi + bx2))  // |x''| is linear in t
        let x3 = abs(2 * ax3)                                            // x''' = 6·ax
        let m2 = minSlope * minSlope, m4 = m2 * m2
        let fourthDerivative = (10 * maxSlope * x2 * x3 + 15 * x2 * x2 * x2) / (m4 * m2 * minSlope)
        let remainder = fourthDerivative * (h * h) * (h * h) / 1944
        let nodeError = polishedError(minimumSlope: minSlope)
        let rounding = 512 * Self.unitRoundoff  // coefficients and evaluation, |t| ≤ 1
        return remainder + 1.64 * nodeError + rounding
    }

    /// Bisection using the sign of x(t) − x computed in double-double arithmetic, until the
    /// bracket is narrower than tTolerance. A bracket end on the wrong side is widened to 0 or 1.
    func bisect(_ x: Double, lo: Double, hi: Double) -> Double {
        let residual = ExactResidual(c1x: c1x, c2x: c2x, x: x)
        var lo = max(lo, 0), hi = min(hi, 1)
        if !(lo < hi) || residual.value(at: lo) > 0 { lo = 0 }
        if residual.value(at: hi) < 0 { hi = 1 }
        while hi - lo > tTolerance {
            let mid = 0.5 * (lo + hi)
            guard lo < mid, mid < hi else { break }
            let r = residual.value(at: mid)
            if r < 0 {
                lo = mid
            } else if r > 0 {
                hi = mid
            } else {
                return mid
            }
        }
        return 0.5 * (lo + hi)
    }
}

// MARK: - Double-double residual

/// x(t) − x evaluated in double-double arithmetic (≈ 106-bit significand) from the exact
/// power-basis coefficients cx = 3·c1x, bx = 3·c2x − 6·c1x, ax = 1 + 3·c1x − 3·c2x.
/// Its absolute error is ~1e-30, so its sign is right unless |x(t) − x| is about that small.
/// Only the rare bisection fallback uses it.
struct ExactResidual {
    let ax: DoubleDouble, bx: DoubleDouble, cx: DoubleDouble
    let x: Double

    init(c1x: Double, c2x: Double, x: Double) {
        let threeC1 = DoubleDouble.product(3, c1x)
        let threeC2 = DoubleDouble.product(3, c2x)
        cx = threeC1
        bx = threeC2 - (threeC1 + threeC1)
        ax = (DoubleDouble(1) + threeC1) - threeC2
        self.x = x
    }

    /// x(t) − x, rounded to Double (the sign is that of the double-double value).
    func value(at t: Double) -> Double {
        let p = ((ax * t + bx) * t + cx) * t
        return (p - DoubleDouble(x)).hi
    }
}

/// An unevaluated sum hi + lo with |lo| ≤ ½ulp(hi).
struct DoubleDouble {
    var hi: Double
    var lo: Double

    init(_ value: Double) { (hi, lo) = (value, 0) }
    init(hi: Double, lo: Double) { (self.hi, self.lo) = (hi, lo) }

    /// a + b exactly (Knuth's TwoSum).
    static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let bb = s - a
        return DoubleDouble(hi: s, lo: (a - (s - bb)) + (b - bb))
    }

    /// a + b exactly, given |a| ≥ |b| or a == 0 (Dekker's FastTwoSum).
    static func quickSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        return DoubleDouble(hi: s, lo: b - (s - a))
    }

    /// a·b exactly (barring underflow), via a fused multiply-add.
    static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        return DoubleDouble(hi: p, lo: (-p).addingProduct(a, b))
    }

    static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let s = sum(a.hi, b.hi)
        let e = sum(a.lo, b.lo)
        let u = quickSum(s.hi, s.lo + e.hi)
        return quickSum(u.hi, u.lo + e.lo)
    }

    static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(hi: -a.hi, lo: -a.lo) }

    static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

    static func * (a: DoubleDouble, b: Double) -> DoubleDouble {
        let p = product(a.hi, b)
        return quickSum(p.hi, p.lo + a.lo * b)
    }
}

public func _debugCertified(_ c: TimingCurve) -> Double { c._solverForDebug?.certifiedFraction ?? -1 }
extension TimingCurve { var _solverForDebug: BezierSolver? { Mirror(reflecting: self).children.first { $0.label == "solver" }?.value as? BezierSolver } }
