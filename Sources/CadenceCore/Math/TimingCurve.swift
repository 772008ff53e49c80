// Cubic-Bézier and step timing functions (Core Animation's `CAMediaTimingFunction`,
// CSS Easing Level 1 `cubic-bezier()` / `steps()`).
//
// RealModule supplies `Double.sqrt`; its target also links libm on Linux, which the
// `sqrt`, `floor` and `fma` calls that Swift emits for these Double operations need.

import RealModule

/// A timing function: maps input progress `x` in [0, 1] to eased output progress.
///
/// **Cubic Bézier.** The curve runs from (0, 0) to (1, 1) with control points
/// P1 = (c1x, c1y) and P2 = (c2x, c2y):
///
///     x(t) = 3·c1x·t·(1−t)² + 3·c2x·t²·(1−t) + t³      t ∈ [0, 1]
///     y(t) = 3·c1y·t·(1−t)² + 3·c2y·t²·(1−t) + t³
///
/// Because c1x and c2x lie in [0, 1], x'(t) ≥ 0 on [0, 1], vanishing at most at isolated
/// points, so x(t) is strictly increasing: every x ∈ [0, 1] has exactly one t with x(t) = x and
/// the curve is a function y(x) = y(t(x)). The ordinates c1y, c2y may be any finite value; outside
/// [0, 1] they make the output overshoot.
///
/// **Steps.** CSS Easing Level 1 `steps(n, jump-start | jump-end)`; see `init(steps:jumpAtStart:)`.
///
/// **Evaluation contract** (`evaluate(_:)`):
/// - `x` is clamped to [0, 1]; NaN is treated as 0, so NaN never propagates.
/// - `evaluate(0) == 0` and `evaluate(1) == 1` exactly, for every curve.
/// - Béziers: |evaluate(x) − y(t(x))| ≤ 1e-7 for every valid curve and every x ∈ [0, 1], where
///   y(t(x)) is the exact mathematical value. That includes curves whose x'(t) vanishes at an
///   end (c1x = 0 or c2x = 1), at both ends, or at an interior inflection (c1x = 1, c2x = 0).
///   The solver works to 2.5e-8 (`CubicBezier.targetError`); the guarantee assumes
///   |c1y|, |c2y| ≤ 1e6, beyond which the rounding of y(t) itself (≈ 1e-16·|c1y, c2y|) dominates.
/// - Curves with P1 = (a, a) and P2 = (b, b), `linear` among them, have y(t) = x(t) and
///   evaluate as the identity, exactly.
/// - Evaluation does not allocate, takes no locks and is safe to call concurrently.
public struct TimingCurve: Sendable, Equatable {
    private enum Shape: Sendable, Equatable {
        case bezier(c1x: Double, c1y: Double, c2x: Double, c2y: Double)
        case steps(count: Int, jumpAtStart: Bool)
    }

    private let shape: Shape
    /// The precomputed solver; `nil` for steps and for identity Béziers.
    private let solver: BezierSolver?

    /// A cubic Bézier timing function with control points (c1x, c1y) and (c2x, c2y).
    ///
    /// Returns `nil` unless all four values are finite and c1x, c2x ∈ [0, 1].
    /// A non-identity curve builds an 8 KB lookup table from 769 certified root solves (about
    /// 25 µs); the named curves share tables built once.
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
    /// The CSS "before flag" is simplified: it counts as set exactly at x = 0 (the value shown
    /// before the interval starts) and unset everywhere else. So a jump-start function gives 0
    /// at x = 0 rather than 1/n, while every x > 0 follows CSS: steps(4, start) is 0.5 at 0.25.
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

    /// The eased progress for input progress `x`; see the type's evaluation contract.
    /// (Inlined: called per animation per frame, where a call would also copy the
    /// curve out of its array and retain its solver.)
    @inline(__always)
    public func evaluate(_ x: Double) -> Double {
        guard x > 0 else { return 0 }  // also NaN
        guard x < 1 else { return 1 }
        if let y = solver?.evaluate(x) { return y }  // this form does not retain the solver
        switch shape {
        case .bezier: return x  // identity curve
        case let .steps(count, jumpAtStart):
            let n = Double(count)
            let step = (x * n).rounded(.down) + (jumpAtStart ? 1 : 0)
            return min(step, n) / n
        }
    }

    /// The Bézier solver, for tests; `nil` for steps and identity curves.
    var solverForTesting: BezierSolver? { solver }

    /// Curves are equal when their definitions are (control points, or step count and jump
    /// position); different definitions of the same function, such as two identity Béziers,
    /// are not equal.
    public static func == (lhs: TimingCurve, rhs: TimingCurve) -> Bool {
        lhs.shape == rhs.shape
    }
}

// MARK: - Table-driven solver

/// Evaluates one non-identity cubic Bézier timing curve, y(t(x)).
///
/// **Table.** [0, 1] is cut into `segmentCount` equal x-segments of width h; in each, t(x) is
/// approximated by the cubic in a local variable w ∈ [0, 1] that interpolates the exact t at
/// w = 0, ⅓, ⅔, 1. Interior segments use w = x/h − i. The first and last segments use
/// w = √(x/h) and w = √((1 − x)/h): where x'(t) vanishes at an end (c1x = 0 or c2x = 1, as in
/// `easeOut`, `easeIn`) t(x) behaves like √x there, and t is smooth in w either way.
///
/// **Certified segments — the fast path: index, one cubic, y(t); no root finding.** At build
/// time each interior segment gets a proven bound on |cubic(w) − t(x)| (see
/// `CubicBezier.interpolationErrorBound`). If the bound is within the t tolerance the segment
/// is certified. For the named curves 96–99 % of the segments are (measured).
///
/// **Other segments** (both end segments, and where x' is small): the cubic gives a first
/// guess t₀ for one Newton step, which is accepted only when provably within the tolerance
/// (`CubicBezier.acceptsFast`); otherwise `CubicBezier.root` takes over (more Newton steps,
/// then double-double bisection). Every returned value is thus backed by a proof of accuracy.
final class BezierSolver: Sendable {
    /// Number of x-segments of the table (a power of two, so x·N is exact). 256 segments of
    /// 32 bytes: 8 KB per curve.
    static let segmentCount = 256
    /// 1.5·2⁵²: adding it to |v| < 2⁵¹ rounds v to an integer held in the low significand bits.
    private static let roundingShift = 0x1.8p52

    let curve: CubicBezier
    /// Per segment, the coefficients (a₀, a₁, a₂, a₃) of t ≈ a₀ + a₁w + a₂w² + a₃w³. Since
    /// a₀ = t at the segment start is ≥ 0, the first lane also marks the segment kind: it holds
    /// a₀ for a certified segment and −1 − a₀ (≤ −1) for one that needs the Newton step.
    let segments: ContiguousArray<SIMD4<Double>>

    init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        curve = CubicBezier(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
        segments = Self.buildTable(curve)
    }

    /// y(t(x)) for x ∈ (0, 1).
    @inline(__always)
    func evaluate(_ x: Double) -> Double {
        let p = x * Double(Self.segmentCount)  // in (0, N), exact
        // Segment index without a trapping Double → Int conversion: adding 1.5·2⁵² rounds
        // p − ½ to an integer k ∈ [0, N − 1] (k = ⌊p⌋, or ⌊p⌋ − 1 when p is an integer) held in
        // the low significand bits; then w = p − k ∈ [0, 1], exactly.
        let shifted = (p - 0.5) + Self.roundingShift
        let i = Int(truncatingIfNeeded: shifted.bitPattern) & (Self.segmentCount - 1)
        let w = p - (shifted - Self.roundingShift)
        var a = segments[i]
        if a[0] >= 0 {
            return curve.y(at: Self.cubic(a, w))
        }
        a[0] = -1 - a[0]
        return evaluateWithNewton(x, p: p, segment: i, w: w, coefficients: a)
    }

    @inline(__always)
    private static func cubic(_ a: SIMD4<Double>, _ w: Double) -> Double {
        (a[0] + a[1] * w) + (w * w) * (a[2] + a[3] * w)
    }

    /// Table guess plus one certified Newton step; `CubicBezier.root` when that fails.
    @inline(never)
    private func evaluateWithNewton(
        _ x: Double, p: Double, segment i: Int, w interiorW: Double, coefficients a: SIMD4<Double>
    ) -> Double {
        let w = switch i {
        case 0: Double.sqrt(p)
        case Self.segmentCount - 1: Double.sqrt(Double(Self.segmentCount) - p)
        default: interiorW
        }
        let t0 = Self.cubic(a, w)
        let s = curve.slope(at: t0)
        let d = (curve.x(at: t0) - x) / s
        if curve.acceptsFast(step: d, slope: s) {
            return curve.y(at: t0 - d)
        }
        // The segment's end values approximately bracket the root; `bisect` verifies them.
        let atStart = a[0], atEnd = a[0] + a[1] + a[2] + a[3]
        let root = curve.root(of: x, guess: t0, lo: min(atStart, atEnd), hi: max(atStart, atEnd))
        return curve.y(at: root.t)
    }

    // MARK: Table construction

    /// The x at local coordinate `w` of segment `i` (see the type's documentation).
    static func sampleX(segment i: Int, w: Double) -> Double {
        let h = 1 / Double(segmentCount)
        if i == 0 { return h * w * w }
        if i == segmentCount - 1 { return 1 - h * w * w }
        return (Double(i) + w) * h
    }

    private static func buildTable(_ curve: CubicBezier) -> ContiguousArray<SIMD4<Double>> {
        typealias Root = CubicBezier.Root
        let n = segmentCount
        // The segment boundaries x = k/N, in sequence (each guess extrapolates the last root).
        var boundary = [Root](repeating: Root(t: 0, error: 0), count: n + 1)
        boundary[n] = Root(t: 1, error: 0)
        for k in 1..<n {
            let x = Double(k) / Double(n), previous = boundary[k - 1].t
            let guess = curve.extrapolatedRoot(from: previous, toward: x)
            boundary[k] = curve.accurateRoot(of: x, guess: guess, lo: previous, hi: 1)
        }
        var segments = ContiguousArray<SIMD4<Double>>()
        segments.reserveCapacity(n)
        for i in 0..<n {
            // Local w = 0 and w = 1 are boundaries; in the last segment w = 0 is x = 1.
            let (r0, r3) = i == n - 1
                ? (boundary[n], boundary[n - 1])
                : (boundary[i], boundary[i + 1])
            let lo = min(r0.t, r3.t), hi = max(r0.t, r3.t)
            // Guesses extrapolate from the nearer boundary, except from the x = 0 and x = 1
            // ends, where x' may vanish. Independent solves: the CPU overlaps them.
            let x1 = sampleX(segment: i, w: 1.0 / 3), x2 = sampleX(segment: i, w: 2.0 / 3)
            let guess1 = curve.extrapolatedRoot(from: i == 0 || i == n - 1 ? r3.t : r0.t, toward: x1)
            let guess2 = curve.extrapolatedRoot(from: r3.t, toward: x2)
            let r1 = curve.accurateRoot(of: x1, guess: guess1, lo: lo, hi: hi)
            let r2 = curve.accurateRoot(of: x2, guess: guess2, lo: lo, hi: hi)
            let (v0, v1, v2, v3) = (r0.t, r1.t, r2.t, r3.t)
            let isCertified = i > 0 && i < n - 1
                && curve.interpolationErrorBound(
                    tFrom: v0, to: v3, segmentWidth: 1 / Double(n),
                    nodeError: max(r0.error, r1.error, r2.error, r3.error)) <= curve.tTolerance
            // The cubic through (0, v0), (⅓, v1), (⅔, v2), (1, v3), in monomial form.
            segments.append(SIMD4(
                isCertified ? v0 : -1 - v0,
                (-11 * v0 + 18 * v1 - 9 * v2 + 2 * v3) / 2,
                (18 * v0 - 45 * v1 + 36 * v2 - 9 * v3) / 2,
                (-9 * v0 + 27 * v1 - 27 * v2 + 9 * v3) / 2))
        }
        return segments
    }

    /// The fraction of segments on the certified fast path (for diagnostics and tests).
    var certifiedFraction: Double {
        Double(segments.count { $0[0] >= 0 }) / Double(Self.segmentCount)
    }
}

// MARK: - Polynomials and certified root finding

/// The polynomials of one Bézier timing curve and a certified root finder for x(t) = x.
///
/// Power basis: x(t) = cx·t + bx·t² + ax·t³ with cx = 3·c1x, bx = 3·(c2x − c1x) − cx,
/// ax = 1 − cx − bx; y likewise.
///
/// **Certifying a Newton step** t₁ = t₀ − d, d = (x(t₀) − x)/x'(t₀), with s = x'(t₀) > 0:
/// - Truncation. For a cubic, t₁ − t* = d*²·x''(ξ)/(2s) with d* = t₀ − t* and some ξ ∈ [0, 1],
///   and |d*| ≤ 2|d| whenever M₂·|d|/(2s) < ¼ (M₂ = max|x''| on [0, 1]); so
///   |t₁ − t*| ≤ 2·M₂·d²/s. The ¼ condition holds once the error is within tolerance and
///   s > `convergenceSlope`.
/// - Rounding. The computed residual x(t₀) − x is off by at most
///   ε(t) = 8u·(|ax|t³ + |bx|t² + |cx|t + x) ≤ 8u·(|ax| + |bx| + |cx| + 1), which moves t₁ by
///   at most ε/s.
/// A step is accepted when (2·M₂·d² + ε)/s ≤ `tTolerance` = targetError / max|y'|, so the
/// error in y(t₁) is ≤ targetError plus the ~1e-15 rounding of y. The fast path checks the two
/// halves separately with precomputed constants (`acceptsFast`).
///
/// Where Newton cannot certify (x' tiny at an end or at a flat inflection, where Double
/// rounding hides the root), `bisect` uses the residual in double-double arithmetic (error
/// ~1e-30), which resolves even the cube-root singularity of a zero-slope inflection.
struct CubicBezier: Sendable {
    /// The error budget for y from which the t tolerance derives (public guarantee: 1e-7).
    static let targetError = 2.5e-8
    /// The unit roundoff of Double.
    static let unitRoundoff = 0x1p-53
    /// Newton steps `root` tries before falling back to bisection.
    static let maxNewtonSteps = 12

    /// A root t of x(t) = x with a proven bound on |t − t*|.
    struct Root {
        var t: Double
        var error: Double
    }

    let ax: Double, bx: Double, cx: Double
    let ay: Double, by: Double, cy: Double
    /// x'(t) = cx + bx2·t + ax3·t².
    let ax3: Double, bx2: Double
    /// The control abscissae, for the exact double-double coefficients of `bisect`.
    let c1x: Double, c2x: Double
    let absAx: Double, absBx: Double, absCx: Double

    /// The required accuracy of t: targetError / max|y'(t)|.
    let tTolerance: Double
    /// Where the quadratic x'(t) has its extremum, −bx2/(2·ax3) (±∞ or NaN if ax = 0).
    let slopeVertex: Double
    /// M₂ = max|x''| on [0, 1], with 1 % margin for guesses slightly outside [0, 1].
    let maxCurvature: Double
    /// Slope below which the Newton error bound is not established: 2·M₂·tTolerance.
    let convergenceSlope: Double
    /// The fast path needs x'(t₀) ≥ minSlope (rounding ≤ tTolerance/2) …
    let minSlope: Double
    /// … and d²·acceptScale ≤ x'(t₀) (truncation ≤ tTolerance/2): acceptScale = 4·M₂/tTolerance.
    let acceptScale: Double

    init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        cx = 3 * c1x
        bx = 3 * (c2x - c1x) - cx
        ax = 1 - cx - bx
        cy = 3 * c1y
        by = 3 * (c2y - c1y) - cy
        ay = 1 - cy - by
        ax3 = 3 * ax
        bx2 = 2 * bx
        slopeVertex = -bx2 / (2 * ax3)
        self.c1x = c1x
        self.c2x = c2x
        absAx = abs(ax)
        absBx = abs(bx)
        absCx = abs(cx)

        // max|y'| ≤ 3·max|Bernstein coefficients of y'| (convex hull); ≥ 1 as y rises by 1.
        let maxYSlope = 3 * max(abs(c1y), abs(c2y - c1y), abs(1 - c2y))
        tTolerance = Self.targetError / maxYSlope
        // x'' is linear in t, so |x''| peaks at t = 0 or t = 1.
        maxCurvature = 1.01 * max(abs(2 * bx), abs(6 * ax + 2 * bx))
        convergenceSlope = 2 * maxCurvature * tTolerance
        let maxResidualError = 8 * Self.unitRoundoff * (absAx + absBx + absCx + 1)
        minSlope = max(2 * maxResidualError / tTolerance, convergenceSlope)
        acceptScale = 4 * maxCurvature / tTolerance
    }

    // Estrin-style evaluation: shorter dependency chains than Horner, same error bounds.
    @inline(__always)
    func x(at t: Double) -> Double { cx * t + (t * t) * (bx + ax * t) }

    @inline(__always)
    func slope(at t: Double) -> Double { (cx + bx2 * t) + ax3 * (t * t) }

    @inline(__always)
    func y(at t: Double) -> Double { cy * t + (t * t) * (by + ay * t) }

    /// Whether a Newton step `d` taken where x' = `s` is certified for any starting point.
    /// False for NaN (as from a zero slope).
    @inline(__always)
    func acceptsFast(step d: Double, slope s: Double) -> Bool {
        s >= minSlope && d * d * acceptScale <= s
    }

    /// The root of x(t) = `x` ∈ (0, 1) to within tTolerance: Newton steps from `guess`, each
    /// certified as described on the type; if none certifies, bisection on about [lo, hi]
    /// (`bisect` checks and widens the bracket).
    func root(of x: Double, guess: Double, lo: Double, hi: Double) -> Root {
        var t = min(max(guess, 0), 1)
        for _ in 0..<Self.maxNewtonSteps {
            let s = slope(at: t)
            guard s > convergenceSlope else { break }  // also NaN
            let d = (self.x(at: t) - x) / s
            let error = (2 * maxCurvature * d * d + residualRoundingBound(at: t, x: x)) / s
            if error <= tTolerance {
                return Root(t: t - d, error: error)
            }
            t = min(max(t - d, 0), 1)
        }
        if c1x == 1 && c2x == 0 {
            // The one valid curve whose x' has a double root inside (0, 1): x(t) =
            // ½ + 4(t − ½)³ exactly, so t = ½ + ∛((x − ½)/4). No residual, however
            // precise, resolves t near ½ (y(x) has an infinite slope there), but the
            // closed form does, to an ulp.
            return Root(t: 0.5 + Double.root((x - 0.5) / 4, 3), error: tTolerance / 2)
        }
        return Root(t: bisect(x, lo: lo, hi: hi), error: tTolerance / 2)
    }

    /// `root` followed, unless its error bound is already negligible, by one more Newton step:
    /// the table nodes should be far more accurate than tTolerance.
    func accurateRoot(of x: Double, guess: Double, lo: Double, hi: Double) -> Root {
        let r = root(of: x, guess: guess, lo: lo, hi: hi)
        guard r.error > Self.negligibleNodeError else { return r }
        let s = slope(at: r.t)
        guard s > convergenceSlope else { return r }
        let d = (self.x(at: r.t) - x) / s
        let error = (2 * maxCurvature * d * d + residualRoundingBound(at: r.t, x: x)) / s
        return error < r.error ? Root(t: r.t - d, error: error) : r
    }

    /// Node errors below this hardly affect the table's certification.
    static let negligibleNodeError = 1e-14

    /// ε(t): a bound on the rounding error of the computed residual x(t) − x for t ∈ [0, 1].
    @inline(__always)
    func residualRoundingBound(at t: Double, x: Double) -> Double {
        8 * Self.unitRoundoff * (((absAx * t + absBx) * t + absCx) * t + x)
    }

    /// A guess for the root of x(t) = `x` from a nearby root `t`: the second-order Taylor
    /// expansion of the inverse, Δt ≈ δ − x''·δ²/(2·x') with δ = Δx/x'; just `x` where x'(t)
    /// is too small for that.
    func extrapolatedRoot(from t: Double, toward x: Double) -> Double {
        let s = slope(at: t)
        guard s > convergenceSlope else { return x }
        let inverseSlope = 1 / s
        let delta = (x - self.x(at: t)) * inverseSlope
        let guess = t + delta - 0.5 * (2 * ax3 * t + bx2) * inverseSlope * delta * delta
        return min(max(guess, 0), 1)
    }

    /// A proven bound on |cubic interpolant − t(x)| over an interior table segment of width `h`
    /// in x whose node values span [t0, t1], each off by at most `nodeError`:
    /// - the Lagrange remainder h⁴·max|t''''(x)|/1944 (max |w(w−⅓)(w−⅔)(w−1)| = 1/81 on
    ///   [0, 1], over 4! = 24), where t'''' = (10·x'·x''·x''' − 15·x''³)/x'⁷ (derivatives in t,
    ///   x'''' = 0) is bounded with the extremes of x', x'', x''' over the segment's t-range;
    /// - node errors times the Lebesgue constant of the four equispaced nodes (< 1.64);
    /// - rounding of the coefficients and of their evaluation (|t| ≤ 1): 512u.
    func interpolationErrorBound(
        tFrom t0: Double, to t1: Double, segmentWidth h: Double, nodeError: Double
    ) -> Double {
        let lo = min(t0, t1) - nodeError, hi = max(t0, t1) + nodeError
        var minSlope = min(slope(at: lo), slope(at: hi))
        var maxSlope = max(slope(at: lo), slope(at: hi))
        if lo < slopeVertex && slopeVertex < hi {  // false for NaN
            minSlope = min(minSlope, slope(at: slopeVertex))
            maxSlope = max(maxSlope, slope(at: slopeVertex))
        }
        minSlope -= 8 * Self.unitRoundoff * (abs(ax3) + abs(bx2) + absCx)  // rounding of x'
        guard minSlope > convergenceSlope else { return .infinity }
        let x2 = max(abs(2 * ax3 * lo + bx2), abs(2 * ax3 * hi + bx2))  // |x''| is linear in t
        let x3 = abs(2 * ax3)                                            // x''' = 6·ax
        let m2 = minSlope * minSlope, m4 = m2 * m2
        let fourthDerivative = (10 * maxSlope * x2 * x3 + 15 * x2 * x2 * x2) / (m4 * m2 * minSlope)
        let remainder = fourthDerivative * (h * h) * (h * h) / 1944
        return remainder + 1.64 * nodeError + 512 * Self.unitRoundoff
    }

    /// Bisection using the sign of x(t) − x computed in double-double arithmetic, until the
    /// bracket is at most tTolerance wide. A bracket end on the wrong side is widened to 0 or 1.
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

    /// x(t) − x, rounded to Double (its sign is that of the double-double value).
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
