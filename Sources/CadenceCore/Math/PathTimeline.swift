// PathTimeline.swift — motion along a path for keyframe animations of points
// (SEMANTICS.md §7, "Path animations"), and the arc-length machinery shared with
// `KeyframeTrack`'s cubicPaced mode.
//
// A path is a sequence of moveTo / lineTo / quadTo / cubicTo / close elements.
// Every element after a moveTo is a drawable segment (close draws a line back to
// the subpath's start, possibly of zero length); the jump of a moveTo is not a
// segment. Quadratic segments are degree-elevated to cubics (exactly the same
// curve). Each curved segment gets an arc-length table built once: adaptive
// 8-point Gauss–Legendre quadrature of |B'(t)| to 1e-12 of the segment's length,
// whose accepted sub-intervals are kept as nodes; s → t is then inverted by
// Newton's method on s(t) − s* (s(t) from the nearest node plus one 8-point
// Gauss–Legendre sum), safeguarded by bisection. Sampling allocates nothing.

import RealModule

// MARK: - Public API

/// One element of a path, in the coordinate space of the animated point.
public enum PathElement: Sendable, Equatable {
    /// Starts a new subpath at (x, y); not a segment.
    case move(Double, Double)
    /// Straight segment to (x, y).
    case line(Double, Double)
    /// Quadratic Bézier with control point (cx, cy) to (x, y).
    case quad(Double, Double, Double, Double)
    /// Cubic Bézier with control points (c1x, c1y), (c2x, c2y) to (x, y).
    case cubic(Double, Double, Double, Double, Double, Double)
    /// Straight segment back to the current subpath's start point.
    case close
}

/// Why a path cannot be animated along.
public enum PathError: Error, Equatable, Sendable {
    /// No elements at all.
    case empty
    /// Only moveTo elements: nothing to move along.
    case noDrawableSegment
    /// The key times do not fit the path; the text says what is wrong.
    case invalidKeyTimes(String)
}

/// The position and tangent angle along a path as a function of progress.
///
/// Built once when an animation is attached; `sample(_:)` runs per frame and
/// allocates nothing.
///
/// Timing per `CalculationMode`:
/// - `linear`, `cubic`: each drawable segment gets an equal share of time (or
///   the span between its key times, `segmentCount + 1` of them, 0 = first ≤ … ≤
///   last = 1), and within a segment the point moves at constant speed by arc
///   length. A zero-length segment still takes its share; the point sits still.
/// - `paced`, `cubicPaced`: constant speed over the whole path (time ∝ arc
///   length); key times are ignored (not validated). A path of total length 0
///   falls back to equal shares.
/// - `discrete`: the point jumps between the path's vertices q0 (the first
///   segment's start) and q(i+1) (segment i's end). They are timed like the values
///   of a discrete keyframe animation: key times may number `segmentCount + 1`
///   (qi shows from key time i, the last vertex only at progress 1; segment i's end
///   point therefore shows from "its" key time i + 1, the start point before that)
///   or `segmentCount + 2` (the last is the end); without key times, vertex i shows
///   from i / (segmentCount + 1), an equal share each.
public final class PathTimeline: Sendable {
    private let pieces: Pieces
    private let table: ArcLengthTable
    private let mode: CalculationMode
    /// Time boundaries: per segment (linear/cubic, and paced fallback), or per vertex (discrete).
    private let keyTimes: [Double]
    /// Whether timing is by arc length over the whole path.
    private let paced: Bool

    /// Relative size below which a derivative is treated as zero when choosing
    /// the tangent direction (relative to the segment's control-polygon length).
    static let degenerateTangentEpsilon = 1e-12
    /// Relative tolerance of the arc-length quadrature per segment.
    static let arcLengthTolerance = 1e-12

    /// Builds the timeline. Throws `.empty` for no elements,
    /// `.noDrawableSegment` when there is nothing after a moveTo, and
    /// `.invalidKeyTimes` when key times are used by `mode` and do not fit.
    /// A path that does not begin with moveTo starts at (0, 0).
    public init(elements: [PathElement], mode: CalculationMode, keyTimes: [Double]?) throws(PathError) {
        guard !elements.isEmpty else { throw .empty }
        let segments = Pieces.segments(of: elements)
        guard !segments.isEmpty else { throw .noDrawableSegment }
        var pieces = Pieces(segments: segments)
        pieces.resolveFallbackAngles()
        self.pieces = pieces
        self.mode = mode
        self.table = ArcLengthTable(curve: pieces, relativeTolerance: PathTimeline.arcLengthTolerance)
        let n = segments.count

        switch mode {
        case .linear, .cubic:
            if let keyTimes {
                try PathTimeline.validate(keyTimes, counts: [n + 1], what: "segments+1 = \(n + 1)")
                self.keyTimes = keyTimes
            } else {
                self.keyTimes = (0...n).map { Double($0) / Double(n) }
            }
            paced = false
        case .discrete:
            if let keyTimes {
                try PathTimeline.validate(keyTimes, counts: [n + 1, n + 2],
                                          what: "segments+1 = \(n + 1) or segments+2 = \(n + 2)")
                self.keyTimes = keyTimes
            } else {
                self.keyTimes = (0...(n + 1)).map { Double($0) / Double(n + 1) }
            }
            paced = false
        case .paced, .cubicPaced:
            let total = table.totalLength
            paced = total > 0 && total.isFinite
            self.keyTimes = (0...n).map { Double($0) / Double(n) }  // fallback for length 0
        }
    }

    /// Total arc length of the drawable segments (moveTo jumps excluded);
    /// +inf when it exceeds the largest double (the timeline itself works in
    /// scaled units, see `Pieces.unit`).
    public var totalLength: Double { table.totalLength / pieces.unit }

    /// Number of drawable segments.
    public var segmentCount: Int { pieces.segments.count }

    /// Position and tangent angle at progress p (clamped to [0, 1]; NaN → 0).
    ///
    /// `angle` is atan2(dy, dx) of the direction of motion, in [−π, π]. Where the
    /// derivative vanishes (a control point on an end point, a cusp) the limiting
    /// direction is used (the second, then third derivative); a segment of zero
    /// length takes its chord's direction, else the previous segment's end
    /// direction (the next segment's for a leading one). Never NaN for finite paths.
    ///
    /// At a key time (a segment boundary) the later segment is sampled. In the
    /// paced modes progress 1 is the end of the last segment of positive length.
    ///
    /// `segmentCurves` (linear and cubic modes): per-segment timing functions
    /// (SEMANTICS.md §7), applied to the progress within each drawable segment
    /// (clamped to the segment).
    public func sample(_ p: Double, segmentCurves: [TimingCurve] = []) -> (x: Double, y: Double, angle: Double) {
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        let n = pieces.segments.count
        if mode == .discrete {
            let i = min(max(CurveSupport.lastIndex(in: keyTimes, notAfter: p), 0), n)
            if i == 0 {
                let s = pieces.segments[0]
                return (s.p0x, s.p0y, pieces.tangentAngle(segment: 0, at: 0))
            }
            let s = pieces.segments[i - 1]
            return (s.p3x, s.p3y, pieces.tangentAngle(segment: i - 1, at: 1))
        }
        let segment: Int, t: Double
        if paced {
            (segment, t) = table.locate(pieces, arcLength: p * table.totalLength)
        } else {
            let j = min(max(CurveSupport.lastIndex(in: keyTimes, notAfter: p), 0), n - 1)
            let width = keyTimes[j + 1] - keyTimes[j]
            var fraction = width > 0 ? min(max((p - keyTimes[j]) / width, 0), 1) : 1
            if j < segmentCurves.count {
                let eased = segmentCurves[j].evaluate(fraction)
                fraction = eased.isNaN ? fraction : min(max(eased, 0), 1)
            }
            segment = j
            t = table.parameter(pieces, segment: j, localArcLength: fraction * table.segmentLength(j))
        }
        let (x, y) = pieces.position(segment: segment, at: t)
        return (x, y, pieces.tangentAngle(segment: segment, at: t))
    }

    private static func validate(_ keyTimes: [Double], counts: [Int], what: String) throws(PathError) {
        if let message = CurveSupport.keyTimesProblem(keyTimes, allowedCounts: counts, countDescription: what) {
            throw .invalidKeyTimes(message)
        }
    }
}

// MARK: - Shared helpers (also used by Keyframes.swift)

/// Small numeric helpers shared by the keyframe and path timelines.
enum CurveSupport {
    /// Describes what is wrong with a key-time list, or nil when it is valid:
    /// the count must be one of `allowedCounts`, every entry finite, the first 0, the
    /// last 1, and the list non-decreasing.
    static func keyTimesProblem(_ keyTimes: [Double], allowedCounts: [Int], countDescription: String) -> String? {
        guard allowedCounts.contains(keyTimes.count) else {
            return "expected \(countDescription) key times, got \(keyTimes.count)"
        }
        for (i, t) in keyTimes.enumerated() where !t.isFinite {
            return "key time \(i) is not finite (\(t))"
        }
        if keyTimes.first != 0 { return "the first key time must be 0, got \(keyTimes[0])" }
        if keyTimes.last != 1 { return "the last key time must be 1, got \(keyTimes[keyTimes.count - 1])" }
        for i in 1..<keyTimes.count where keyTimes[i] < keyTimes[i - 1] {
            return "key times must be non-decreasing: key time \(i) (\(keyTimes[i])) is less than "
                + "key time \(i - 1) (\(keyTimes[i - 1]))"
        }
        return nil
    }

    /// Largest index i with a[i] ≤ x (a sorted ascending), or −1 if none. O(log n).
    @inline(__always)
    static func lastIndex(in a: [Double], notAfter x: Double) -> Int {
        var lo = 0, hi = a.count  // answer + 1 lies in lo...hi
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// √(x² + y²) without overflow or underflow in the squares.
    @inline(__always)
    static func euclideanNorm(_ x: Double, _ y: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        let big = max(ax, ay)
        if big == 0 || !big.isFinite { return big }
        let small = min(ax, ay) / big
        return big * (1 + small * small).squareRoot()
    }
}

// MARK: - Path geometry

extension PathTimeline {
    /// One drawable segment as a cubic Bézier (lines keep their two end points).
    struct Segment: Sendable {
        var isLine: Bool
        var p0x: Double, p0y: Double
        var c1x: Double, c1y: Double
        var c2x: Double, c2y: Double
        var p3x: Double, p3y: Double
        /// Control-polygon length |c1−p0| + |c2−c1| + |p3−c2| (|p3−p0| for lines): the
        /// scale for "zero derivative".
        var scale: Double
        /// Direction used where the curve itself has none (see `sample`).
        var fallbackAngle: Double = 0

        init(line x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            isLine = true
            p0x = x0; p0y = y0; p3x = x1; p3y = y1
            c1x = x0; c1y = y0; c2x = x1; c2y = y1
            scale = CurveSupport.euclideanNorm(x1 - x0, y1 - y0)
        }

        init(cubic x0: Double, _ y0: Double, _ ax: Double, _ ay: Double,
             _ bx: Double, _ by: Double, _ x1: Double, _ y1: Double) {
            isLine = false
            p0x = x0; p0y = y0; c1x = ax; c1y = ay; c2x = bx; c2y = by; p3x = x1; p3y = y1
            scale = CurveSupport.euclideanNorm(ax - x0, ay - y0) + CurveSupport.euclideanNorm(bx - ax, by - ay)
                + CurveSupport.euclideanNorm(x1 - bx, y1 - by)
        }

        var chordAngle: Double? {
            let dx = p3x - p0x, dy = p3y - p0y
            return dx == 0 && dy == 0 ? nil : Double.atan2(y: dy, x: dx)
        }
    }

    /// The drawable segments of a path, as an arc-length parametrisable curve.
    ///
    /// Lengths and directions come from `shape`: the segments scaled by `unit`,
    /// a power of two that is 1 unless a coordinate exceeds 2^990 in magnitude
    /// (then 2^-40, so that differences of coordinates, derivatives and summed
    /// lengths stay finite; directions and length fractions do not change with
    /// the scale, and a power of two scales exactly). Positions come from the
    /// unscaled `segments`.
    struct Pieces: Sendable, ArcLengthCurve {
        var segments: [Segment]
        private(set) var shape: [Segment]
        private(set) var unit: Double = 1

        static let largeCoordinate = 0x1p990
        static let largeUnit = 0x1p-40

        init(segments: [Segment]) {
            self.segments = segments
            let big = segments.contains { s in
                [s.p0x, s.p0y, s.c1x, s.c1y, s.c2x, s.c2y, s.p3x, s.p3y].contains { abs($0) > Pieces.largeCoordinate }
            }
            if big {
                let k = Pieces.largeUnit
                unit = k
                shape = segments.map { s in
                    s.isLine ? Segment(line: s.p0x * k, s.p0y * k, s.p3x * k, s.p3y * k)
                        : Segment(cubic: s.p0x * k, s.p0y * k, s.c1x * k, s.c1y * k,
                                  s.c2x * k, s.c2y * k, s.p3x * k, s.p3y * k)
                }
            } else {
                shape = segments
            }
        }

        /// Splits elements into drawable segments (quads elevated to cubics).
        static func segments(of elements: [PathElement]) -> [Segment] {
            var result: [Segment] = []
            var cx = 0.0, cy = 0.0  // current point
            var sx = 0.0, sy = 0.0  // subpath start
            for element in elements {
                switch element {
                case let .move(x, y):
                    cx = x; cy = y; sx = x; sy = y
                case let .line(x, y):
                    result.append(Segment(line: cx, cy, x, y))
                    cx = x; cy = y
                case let .quad(qx, qy, x, y):
                    // Degree elevation: c1 = p0 + 2/3 (q − p0), c2 = p1 + 2/3 (q − p1).
                    result.append(Segment(cubic: cx, cy,
                                              cx + 2.0 / 3.0 * (qx - cx), cy + 2.0 / 3.0 * (qy - cy),
                                              x + 2.0 / 3.0 * (qx - x), y + 2.0 / 3.0 * (qy - y), x, y))
                    cx = x; cy = y
                case let .cubic(ax, ay, bx, by, x, y):
                    result.append(Segment(cubic: cx, cy, ax, ay, bx, by, x, y))
                    cx = x; cy = y
                case .close:
                    result.append(Segment(line: cx, cy, sx, sy))
                    cx = sx; cy = sy
                }
            }
            return result
        }

        /// Fills `fallbackAngle`: the chord's direction if the segment has one, else
        /// the previous segment's direction at its end, else (leading segments) the
        /// first direction found along the path, else 0.
        mutating func resolveFallbackAngles() {
            var leading = 0.0
            for j in shape.indices {
                if let angle = intrinsicAngle(segment: j, at: 0) { leading = angle; break }
            }
            var previousEnd: Double? = nil
            for j in shape.indices {
                shape[j].fallbackAngle = shape[j].chordAngle ?? previousEnd ?? leading
                previousEnd = tangentAngle(segment: j, at: 1)
            }
        }

        var arcSegmentCount: Int { segments.count }

        func isStraight(segment j: Int) -> Bool { shape[j].isLine }

        /// |B'(t)| (for lines, the length), in scaled units.
        func speed(segment j: Int, at t: Double) -> Double {
            let s = shape[j]
            if s.isLine { return s.scale }
            let (dx, dy) = derivative(s, t)
            return CurveSupport.euclideanNorm(dx, dy)
        }

        /// B'(t) = 3[(1−t)² (c1−p0) + 2(1−t)t (c2−c1) + t² (p3−c2)].
        @inline(__always)
        private func derivative(_ s: Segment, _ t: Double) -> (Double, Double) {
            let mt = 1 - t
            let a = mt * mt, b = 2 * mt * t, c = t * t
            return (3 * (a * (s.c1x - s.p0x) + b * (s.c2x - s.c1x) + c * (s.p3x - s.c2x)),
                    3 * (a * (s.c1y - s.p0y) + b * (s.c2y - s.c1y) + c * (s.p3y - s.c2y)))
        }

        /// 3[(1−t)²|c1−p0| + 2(1−t)t|c2−c1| + t²|p3−c2|]: bounds the terms summed
        /// into |B'(t)|, so rounding error in B' is a few ulps of this.
        private func derivativeTermSum(_ s: Segment, _ t: Double) -> Double {
            let mt = 1 - t
            return 3 * (mt * mt * CurveSupport.euclideanNorm(s.c1x - s.p0x, s.c1y - s.p0y)
                        + 2 * mt * t * CurveSupport.euclideanNorm(s.c2x - s.c1x, s.c2y - s.c1y)
                        + t * t * CurveSupport.euclideanNorm(s.p3x - s.c2x, s.p3y - s.c2y))
        }

        /// Position at parameter t ∈ [0, 1] (Bernstein form: exact end points).
        func position(segment j: Int, at t: Double) -> (Double, Double) {
            let s = segments[j]
            let mt = 1 - t
            if s.isLine {
                return (mt * s.p0x + t * s.p3x, mt * s.p0y + t * s.p3y)
            }
            let b0 = mt * mt * mt, b1 = 3 * mt * mt * t, b2 = 3 * mt * t * t, b3 = t * t * t
            return (b0 * s.p0x + b1 * s.c1x + b2 * s.c2x + b3 * s.p3x,
                    b0 * s.p0y + b1 * s.c1y + b2 * s.c2y + b3 * s.p3y)
        }

        /// Direction of motion at parameter t, atan2(dy, dx), falling back to the
        /// segment's `fallbackAngle` where the segment has no direction of its own.
        func tangentAngle(segment j: Int, at t: Double) -> Double {
            intrinsicAngle(segment: j, at: t) ?? shape[j].fallbackAngle
        }

        /// Direction of motion at parameter t from the segment alone: B', then ±B''
        /// (+ for t < 1: the direction just after t; − at t = 1: just before), then
        /// B'''; nil for a line of zero length or a segment that is a single point.
        func intrinsicAngle(segment j: Int, at t: Double) -> Double? {
            let s = shape[j]
            guard s.scale > 0, s.scale.isFinite else { return nil }
            if s.isLine { return s.chordAngle }
            let eps = PathTimeline.degenerateTangentEpsilon * s.scale
            let (dx, dy) = derivative(s, t)
            let speed = CurveSupport.euclideanNorm(dx, dy)
            if speed > 3 * eps { return Double.atan2(y: dy, x: dx) }
            // A tiny B'(t) still gives the direction of motion when it is far
            // above its own rounding error (no cancellation among its three
            // terms), as just before an end whose control point sits on it
            // (t = 1 − 1e-16: B' ≈ 6(1 − t)(c2 − c1), tiny but exact). The
            // second-derivative rule below is only right at the zero itself.
            if speed > 0 && speed > 64 * 0x1p-53 * derivativeTermSum(s, t) { return Double.atan2(y: dy, x: dx) }
            // B''/6 = (1−t)(d1 − d0) + t(d2 − d1), with d0 = c1−p0, d1 = c2−c1, d2 = p3−c2.
            let d0x = s.c1x - s.p0x, d0y = s.c1y - s.p0y
            let d1x = s.c2x - s.c1x, d1y = s.c2y - s.c1y
            let d2x = s.p3x - s.c2x, d2y = s.p3y - s.c2y
            let sign: Double = t >= 1 ? -1 : 1
            let ex = sign * ((1 - t) * (d1x - d0x) + t * (d2x - d1x))
            let ey = sign * ((1 - t) * (d1y - d0y) + t * (d2y - d1y))
            if CurveSupport.euclideanNorm(ex, ey) > eps { return Double.atan2(y: ey, x: ex) }
            // B'''/6 = d2 − 2 d1 + d0 (the same sign on both sides of t).
            let fx = d2x - 2 * d1x + d0x, fy = d2y - 2 * d1y + d0y
            if CurveSupport.euclideanNorm(fx, fy) > eps { return Double.atan2(y: fy, x: fx) }
            return nil
        }
    }
}


// MARK: - Arc length tables

/// A curve made of pieces, each parametrised by u ∈ [0, 1].
protocol ArcLengthCurve {
    var arcSegmentCount: Int { get }
    /// |dP/du| of piece `segment` at u (finite, ≥ 0).
    func speed(segment: Int, at u: Double) -> Double
    /// True when the piece has constant speed in u (s(u) = u · length).
    func isStraight(segment: Int) -> Bool
}

/// Cumulative arc length of an `ArcLengthCurve`, tabulated once, with an
/// allocation-free inverse s → (piece, u).
///
/// Each piece is integrated by adaptive 8-point Gauss–Legendre quadrature: an
/// interval [a, b] is accepted when GL8 on [a, b] and the sum of GL8 on its halves
/// agree to `relativeTolerance · (piece length) · (b − a)`; the two halves become
/// table nodes. Within a node interval s(u) is evaluated by one more GL8 sum, so
/// s(u) is continuous and exact at the nodes.
struct ArcLengthTable: Sendable {
    /// Nodes of piece j are `nodeStart[j] ..< nodeStart[j + 1]`, u from 0 to 1.
    private var nodeStart: [Int] = [0]
    private var nodeU: [Double] = []
    /// Arc length from the start of the node's piece.
    private var nodeS: [Double] = []
    /// Arc length at the start of each piece; the last entry is the total.
    private var pieceStart: [Double] = [0]

    /// Relative accuracy of the inversion (of the piece's length).
    static let inversionTolerance = 1e-14
    /// Initial uniform subdivision of each piece before adapting.
    static let initialIntervals = 8
    /// Recursion limit of the adaptive quadrature (interval width 2^-52 of a piece).
    static let maxDepth = 49
    /// Budget of accepted intervals per piece (guards against non-finite input).
    static let maxIntervalsPerPiece = 1 << 14

    init<C: ArcLengthCurve>(curve: C, relativeTolerance: Double) {
        for j in 0..<curve.arcSegmentCount {
            nodeU.append(0); nodeS.append(0)
            if curve.isStraight(segment: j) {
                let length = curve.speed(segment: j, at: 0.5)
                nodeU.append(1); nodeS.append(length)
            } else {
                addAdaptiveNodes(curve, j, relativeTolerance)
            }
            nodeStart.append(nodeU.count)
            let length = nodeS[nodeU.count - 1]
            pieceStart.append(pieceStart[pieceStart.count - 1] + (length.isFinite ? length : 0))
        }
    }

    private mutating func addAdaptiveNodes<C: ArcLengthCurve>(_ curve: C, _ j: Int, _ relTol: Double) {
        let n = ArcLengthTable.initialIntervals
        var wholes: [Double] = []
        var estimate = 0.0
        for i in 0..<n {
            let w = ArcLengthTable.gaussLegendre(curve, j, Double(i) / Double(n), Double(i + 1) / Double(n))
            wholes.append(w); estimate += w
        }
        let tolerancePerUnit = relTol * (estimate.isFinite ? estimate : 0)
        var budget = ArcLengthTable.maxIntervalsPerPiece
        var s = 0.0
        for i in 0..<n {
            adapt(curve, j, Double(i) / Double(n), Double(i + 1) / Double(n), wholes[i],
                  depth: 0, tolerancePerUnit, &budget, &s)
        }
        nodeU[nodeU.count - 1] = 1  // exact end
    }

    private mutating func adapt<C: ArcLengthCurve>(_ curve: C, _ j: Int, _ a: Double, _ b: Double,
                                                   _ whole: Double, depth: Int, _ tolPerUnit: Double,
                                                   _ budget: inout Int, _ s: inout Double) {
        let m = 0.5 * (a + b)
        let left = ArcLengthTable.gaussLegendre(curve, j, a, m)
        let right = ArcLengthTable.gaussLegendre(curve, j, m, b)
        let error = abs(left + right - whole)
        let accept = error <= tolPerUnit * (b - a) || !error.isFinite
            || depth >= ArcLengthTable.maxDepth || budget <= 0 || m <= a || m >= b
        if accept {
            budget -= 1
            s += left.isFinite ? left : 0
            nodeU.append(m); nodeS.append(s)
            s += right.isFinite ? right : 0
            nodeU.append(b); nodeS.append(s)
        } else {
            adapt(curve, j, a, m, left, depth: depth + 1, tolPerUnit, &budget, &s)
            adapt(curve, j, m, b, right, depth: depth + 1, tolPerUnit, &budget, &s)
        }
    }

    /// Total arc length of the curve.
    var totalLength: Double { pieceStart[pieceStart.count - 1] }

    /// Number of pieces.
    var pieceCount: Int { pieceStart.count - 1 }

    /// Arc length of piece j.
    func segmentLength(_ j: Int) -> Double { pieceStart[j + 1] - pieceStart[j] }

    /// Arc length from the curve's start to the start of piece j.
    func segmentStart(_ j: Int) -> Double { pieceStart[j] }

    /// Arc length from the start of piece j to parameter u ∈ [0, 1].
    func arcLength<C: ArcLengthCurve>(_ curve: C, segment j: Int, at u: Double) -> Double {
        let first = nodeStart[j], last = nodeStart[j + 1] - 1
        if curve.isStraight(segment: j) { return u * nodeS[last] }
        var lo = first, hi = last  // node interval containing u
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if nodeU[mid] <= u { lo = mid } else { hi = mid }
        }
        return nodeS[lo] + ArcLengthTable.gaussLegendre(curve, j, nodeU[lo], u)
    }

    /// The parameter u ∈ [0, 1] of piece j at arc length `s` from the piece's
    /// start (clamped to [0, length]). Newton on s(u) − s with a bisection safeguard.
    func parameter<C: ArcLengthCurve>(_ curve: C, segment j: Int, localArcLength s: Double) -> Double {
        let first = nodeStart[j], last = nodeStart[j + 1] - 1
        let length = nodeS[last]
        guard length > 0, length.isFinite else { return 0 }
        let target = min(max(s.isNaN ? 0 : s, 0), length)
        if curve.isStraight(segment: j) { return min(target / length, 1) }
        if target >= length { return 1 }
        // Node interval [lo, lo+1] with nodeS[lo] ≤ target < nodeS[lo+1].
        var lo = first, hi = last
        while hi - lo > 1 {
            let mid = (lo + hi) >> 1
            if nodeS[mid] <= target { lo = mid } else { hi = mid }
        }
        let a = nodeU[lo], b = nodeU[lo + 1], sa = nodeS[lo], sb = nodeS[lo + 1]
        guard sb > sa else { return a }
        let tolerance = ArcLengthTable.inversionTolerance * length
        var bracketLo = a, bracketHi = b
        var u = a + (b - a) * (target - sa) / (sb - sa)
        for _ in 0..<64 {
            let f = sa + ArcLengthTable.gaussLegendre(curve, j, a, u) - target
            if abs(f) <= tolerance { return u }
            if f > 0 { bracketHi = u } else { bracketLo = u }
            let v = curve.speed(segment: j, at: u)
            var next = u - f / v
            if !(next > bracketLo && next < bracketHi) { next = 0.5 * (bracketLo + bracketHi) }
            if next == u || bracketHi - bracketLo <= 4 * Double.ulpOfOne { return next }
            u = next
        }
        return u
    }

    /// The piece and parameter at arc length `s` from the curve's start (clamped
    /// to [0, total]). At a boundary the later piece is chosen (right-continuous).
    func locate<C: ArcLengthCurve>(_ curve: C, arcLength s: Double) -> (segment: Int, u: Double) {
        let n = pieceCount
        let s = min(max(s.isNaN ? 0 : s, 0), totalLength)
        var j = CurveSupport.lastIndex(in: pieceStart, notAfter: s)
        j = min(max(j, 0), n - 1)
        // s == total: stay on the last piece of positive length, at its end.
        if s >= totalLength {
            while j > 0 && !(segmentLength(j) > 0) { j -= 1 }
            return (j, segmentLength(j) > 0 ? 1 : 0)
        }
        return (j, parameter(curve, segment: j, localArcLength: s - pieceStart[j]))
    }

    // MARK: Gauss–Legendre

    private static let glNodes: (Double, Double, Double, Double) =
        (0.18343464249564980494, 0.52553240991632898582, 0.79666647741362673959, 0.96028985649753623168)
    private static let glWeights: (Double, Double, Double, Double) =
        (0.36268378337836198297, 0.31370664587788728734, 0.22238103445337447054, 0.10122853629037625915)

    /// ∫_a^b speed(u) du by 8-point Gauss–Legendre (exact for degree ≤ 15).
    @inline(__always)
    static func gaussLegendre<C: ArcLengthCurve>(_ curve: C, _ j: Int, _ a: Double, _ b: Double) -> Double {
        let h = 0.5 * (b - a)
        if h == 0 { return 0 }
        let c = 0.5 * (a + b)
        let x = glNodes, w = glWeights
        var sum = w.0 * (curve.speed(segment: j, at: c - h * x.0) + curve.speed(segment: j, at: c + h * x.0))
        sum += w.1 * (curve.speed(segment: j, at: c - h * x.1) + curve.speed(segment: j, at: c + h * x.1))
        sum += w.2 * (curve.speed(segment: j, at: c - h * x.2) + curve.speed(segment: j, at: c + h * x.2))
        sum += w.3 * (curve.speed(segment: j, at: c - h * x.3) + curve.speed(segment: j, at: c + h * x.3))
        return h * sum
    }
}
