// Tests of PathTimeline (SEMANTICS.md §7, path animations). Arc lengths are
// computed here by brute-force composite Simpson integration of |B'(t)| with the
// derivative written out by hand — independent of the implementation's tables.

import Testing
@testable import CadenceCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cubic Bézier written out: B(t) = (1−t)³P0 + 3(1−t)²t C1 + 3(1−t)t² C2 + t³ P3.
private struct ReferenceCubic {
    var p0: (Double, Double), c1: (Double, Double), c2: (Double, Double), p3: (Double, Double)

    func point(_ t: Double) -> (Double, Double) {
        let m = 1 - t
        let a = m * m * m, b = 3 * m * m * t, c = 3 * m * t * t, d = t * t * t
        return (a * p0.0 + b * c1.0 + c * c2.0 + d * p3.0, a * p0.1 + b * c1.1 + c * c2.1 + d * p3.1)
    }

    /// B'(t) = 3(1−t)²(C1−P0) + 6(1−t)t(C2−C1) + 3t²(P3−C2).
    func derivative(_ t: Double) -> (Double, Double) {
        let m = 1 - t
        return (3 * m * m * (c1.0 - p0.0) + 6 * m * t * (c2.0 - c1.0) + 3 * t * t * (p3.0 - c2.0),
                3 * m * m * (c1.1 - p0.1) + 6 * m * t * (c2.1 - c1.1) + 3 * t * t * (p3.1 - c2.1))
    }

    /// ∫₀^end |B'(t)| dt by composite Simpson with `steps` (even) intervals.
    func length(upTo end: Double = 1, steps: Int = 1_000_000) -> Double {
        func speed(_ t: Double) -> Double { let d = derivative(t); return (d.0 * d.0 + d.1 * d.1).squareRoot() }
        let h = end / Double(steps)
        var sum = speed(0) + speed(end)
        for i in 1..<steps { sum += (i & 1 == 1 ? 4 : 2) * speed(Double(i) * h) }
        return sum * h / 3
    }

    /// The parameter at arc length s (bisection on the Simpson length; slow, test only).
    func parameter(atLength s: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<50 {
            let mid = 0.5 * (lo + hi)
            if length(upTo: mid, steps: 4_000) < s { lo = mid } else { hi = mid }
        }
        return 0.5 * (lo + hi)
    }

    var element: PathElement { .cubic(c1.0, c1.1, c2.0, c2.1, p3.0, p3.1) }
}

private func pointDistance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
}

/// Angle difference folded into (−π, π].
private func angleGap(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 2 * Double.pi)
    if d > Double.pi { d -= 2 * Double.pi }
    if d <= -Double.pi { d += 2 * Double.pi }
    return abs(d)
}

@Suite struct PathTimelineTests {
    // MARK: Lines

    @Test func straightLineIsLinearInProgress() throws {
        let path = try PathTimeline(elements: [.move(10, 20), .line(110, 20)], mode: .linear, keyTimes: nil)
        #expect(path.segmentCount == 1)
        #expect(path.totalLength == 100)
        for i in 0...20 {
            let p = Double(i) / 20
            let s = path.sample(p)
            #expect(abs(s.x - (10 + 100 * p)) <= 1e-12 && s.y == 20)
            #expect(s.angle == 0)  // horizontal, left to right
        }
        // Clamped outside [0, 1].
        #expect(path.sample(-1).x == 10 && path.sample(2).x == 110)
    }

    @Test func lineAngles() throws {
        func angle(_ x: Double, _ y: Double) throws -> Double {
            try PathTimeline(elements: [.move(0, 0), .line(x, y)], mode: .linear, keyTimes: nil).sample(0.5).angle
        }
        #expect(try angle(5, 0) == 0)
        #expect(abs(try angle(0, 5) - Double.pi / 2) <= 1e-15)   // down the screen (+y)
        #expect(abs(try angle(-5, 0) - Double.pi) <= 1e-15)
        #expect(abs(try angle(0, -5) + Double.pi / 2) <= 1e-15)
        #expect(abs(try angle(3, 3) - Double.pi / 4) <= 1e-15)
    }

    @Test func linearModeGivesEachSegmentAnEqualShare() throws {
        // A long (300) and a short (100) line: each takes half the time, at its own constant speed.
        let path = try PathTimeline(elements: [.move(0, 0), .line(300, 0), .line(300, 100)], mode: .linear,
                                    keyTimes: nil)
        #expect(path.totalLength == 400)
        let quarter = path.sample(0.25), half = path.sample(0.5), threeQuarters = path.sample(0.75)
        #expect(abs(quarter.x - 150) <= 1e-12 && quarter.y == 0)
        #expect(half.x == 300 && half.y == 0)
        #expect(threeQuarters.x == 300 && abs(threeQuarters.y - 50) <= 1e-12)
        #expect(abs(threeQuarters.angle - Double.pi / 2) <= 1e-15)
        // With key times the shares follow them.
        let timed = try PathTimeline(elements: [.move(0, 0), .line(300, 0), .line(300, 100)], mode: .linear,
                                     keyTimes: [0, 0.8, 1])
        #expect(abs(timed.sample(0.4).x - 150) <= 1e-12)
        #expect(abs(timed.sample(0.9).y - 50) <= 1e-12)
    }

    @Test func pacedTimeIsProportionalToLength() throws {
        for mode in [CalculationMode.paced, .cubicPaced] {
            // Key times are ignored by paced modes.
            let path = try PathTimeline(elements: [.move(0, 0), .line(300, 0), .line(300, 100)], mode: mode,
                                        keyTimes: [0, 0.1, 1])
            #expect(path.sample(0.75).x == 300 && abs(path.sample(0.75).y) <= 1e-12)  // the corner at 300/400
            #expect(abs(path.sample(0.5).x - 200) <= 1e-12)
            #expect(abs(path.sample(0.875).y - 50) <= 1e-12)
        }
    }

    // MARK: Curves: arc length and constant speed

    @Test func cubicLengthMatchesBruteForceIntegration() throws {
        var rng = SplitMix64(state: 0xA11CE)
        for _ in 0..<4 {
            let c = ReferenceCubic(p0: (rng.uniform(-100, 100), rng.uniform(-100, 100)),
                          c1: (rng.uniform(-100, 100), rng.uniform(-100, 100)),
                          c2: (rng.uniform(-100, 100), rng.uniform(-100, 100)),
                          p3: (rng.uniform(-100, 100), rng.uniform(-100, 100)))
            let path = try PathTimeline(elements: [.move(c.p0.0, c.p0.1), c.element], mode: .linear, keyTimes: nil)
            let reference = c.length()
            #expect(abs(path.totalLength - reference) <= 1e-9 * reference, "\(path.totalLength) vs \(reference)")
        }
        // A cusp (zero speed inside the segment): C1 and C2 crossed over.
        let cusp = ReferenceCubic(p0: (0, 0), c1: (100, 100), c2: (0, 100), p3: (100, 0))
        let path = try PathTimeline(elements: [.move(0, 0), cusp.element], mode: .linear, keyTimes: nil)
        #expect(abs(path.totalLength - cusp.length()) <= 1e-9 * path.totalLength)
    }

    @Test func quadraticLengthMatchesBruteForceIntegration() throws {
        // Quad (0,0) ctrl (50,100) to (100,0); its derivative 2[(1−t)(Q−P0) + t(P1−Q)] written out.
        func speed(_ t: Double) -> Double {
            let dx = 2 * ((1 - t) * 50 + t * 50), dy = 2 * ((1 - t) * 100 + t * -100)
            return (dx * dx + dy * dy).squareRoot()
        }
        let steps = 1_000_000
        var sum = speed(0) + speed(1)
        for i in 1..<steps { sum += (i & 1 == 1 ? 4 : 2) * speed(Double(i) / Double(steps)) }
        let reference = sum / Double(steps) / 3
        let path = try PathTimeline(elements: [.move(0, 0), .quad(50, 100, 100, 0)], mode: .linear, keyTimes: nil)
        #expect(abs(path.totalLength - reference) <= 1e-9 * reference)
        // Symmetric about x = 50: halfway in time is the apex (50, 50), moving horizontally.
        let apex = path.sample(0.5)
        #expect(abs(apex.x - 50) <= 1e-9 && abs(apex.y - 50) <= 1e-9 && abs(apex.angle) <= 1e-9)
    }

    @Test func singleCubicMovesAtConstantSpeed() throws {
        let c = ReferenceCubic(p0: (0, 0), c1: (30, 120), c2: (140, -60), p3: (160, 80))
        let length = c.length()
        for mode in [CalculationMode.linear, .paced] {
            let path = try PathTimeline(elements: [.move(0, 0), c.element], mode: mode, keyTimes: nil)
            // Position at parameter t is reached at progress s(t)/L (s by the test's own integration).
            for t in [0.05, 0.2, 0.37, 0.5, 0.81, 0.99] {
                let p = c.length(upTo: t, steps: 200_000) / length
                let got = path.sample(p)
                #expect(pointDistance((got.x, got.y), c.point(t)) <= 1e-6 * length, "t \(t)")
                let d = c.derivative(t)
                #expect(angleGap(got.angle, atan2(d.1, d.0)) <= 1e-6)
            }
            // Equal steps in progress are equal steps in arc length.
            let delta = 1e-3
            var rng = SplitMix64(state: 77)
            for _ in 0..<5 {
                let p = rng.uniform(0, 1 - delta)
                let a = path.sample(p), b = path.sample(p + delta)
                let ta = c.parameter(atLength: p * length), tb = c.parameter(atLength: (p + delta) * length)
                #expect(pointDistance((a.x, a.y), c.point(ta)) <= 1e-6 * length)
                #expect(pointDistance((b.x, b.y), c.point(tb)) <= 1e-6 * length)
                let arc = c.length(upTo: tb, steps: 20_000) - c.length(upTo: ta, steps: 20_000)
                #expect(abs(arc - delta * length) <= 1e-6 * length)
            }
        }
    }

    // MARK: Tangents

    @Test func cubicEndTangentsFollowTheControlPolygon() throws {
        let path = try PathTimeline(elements: [.move(0, 0), .cubic(10, 30, 70, 90, 100, 40)], mode: .linear,
                                    keyTimes: nil)
        #expect(abs(path.sample(0).angle - atan2(30, 10)) <= 1e-12)          // along P0 → C1
        #expect(abs(path.sample(1).angle - atan2(40 - 90, 100 - 70)) <= 1e-12) // along C2 → P3
    }

    @Test func degenerateControlPointsStillGiveTheLimitingDirection() throws {
        // C1 = P0: B'(0) = 0; the motion starts toward C2.
        let start = try PathTimeline(elements: [.move(0, 0), .cubic(0, 0, 50, 100, 100, 100)], mode: .linear,
                                     keyTimes: nil)
        #expect(abs(start.sample(0).angle - atan2(100, 50)) <= 1e-12)
        // C2 = P3: B'(1) = 0; the motion ends coming from C1.
        let end = try PathTimeline(elements: [.move(0, 0), .cubic(50, 0, 100, 100, 100, 100)], mode: .linear,
                                   keyTimes: nil)
        #expect(abs(end.sample(1).angle - atan2(100, 50)) <= 1e-12)
        // Both controls on the start point: a straight cubic toward P3.
        let both = try PathTimeline(elements: [.move(0, 0), .cubic(0, 0, 0, 0, 0, 50)], mode: .linear,
                                    keyTimes: nil)
        #expect(abs(both.sample(0).angle - Double.pi / 2) <= 1e-12)
        // A quad whose control point is its start.
        let quad = try PathTimeline(elements: [.move(0, 0), .quad(0, 0, -10, 0)], mode: .linear, keyTimes: nil)
        #expect(abs(quad.sample(0).angle - Double.pi) <= 1e-12)
        // A cusp: the speed vanishes inside; the angle stays finite throughout.
        let cusp = try PathTimeline(elements: [.move(0, 0), .cubic(100, 100, 0, 100, 100, 0)], mode: .paced,
                                    keyTimes: nil)
        for i in 0...1000 { #expect(cusp.sample(Double(i) / 1000).angle.isFinite) }
        #expect(abs(cusp.sample(0.5).x - 50) <= 1e-9)
    }

    @Test func zeroLengthSegmentsSitStillAndKeepADirection() throws {
        // The middle line has zero length: it still takes a third of the time in linear mode.
        let path = try PathTimeline(elements: [.move(0, 0), .line(0, 30), .line(0, 30), .line(30, 30)],
                                    mode: .linear, keyTimes: nil)
        for p in [1.0 / 3, 0.4, 0.5, 0.6, 2.0 / 3 - 1e-9] {
            let s = path.sample(p)
            #expect(abs(s.x) <= 1e-6 && abs(s.y - 30) <= 1e-12)
            #expect(abs(s.angle - Double.pi / 2) <= 1e-12)  // the previous segment's direction
        }
        // A path that is a single point: finite everything.
        for mode in [CalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced] {
            let dot = try PathTimeline(elements: [.move(5, 5), .cubic(5, 5, 5, 5, 5, 5), .close], mode: mode,
                                       keyTimes: nil)
            #expect(dot.totalLength == 0)
            for p in [0, 0.3, 1] {
                let s = dot.sample(p)
                #expect(s.x == 5 && s.y == 5 && s.angle == 0)
            }
        }
        // A leading zero-length segment takes the first later direction.
        let lead = try PathTimeline(elements: [.move(0, 0), .line(0, 0), .line(-4, 0)], mode: .linear, keyTimes: nil)
        #expect(abs(lead.sample(0.2).angle - Double.pi) <= 1e-15)
    }

    // MARK: The spec's spaceship

    @Test func spaceshipRotatesWithTheTangent() throws {
        // Fly along a cubic from (0,0) via (50,0), (100,100) to (150,100); B'(t) by hand:
        // B'(t) = 3(1−t)²(50,0) + 6(1−t)t(50,100) + 3t²(50,0) = (150, 600 t(1−t)).
        let path = try PathTimeline(elements: [.move(0, 0), .cubic(50, 0, 100, 100, 150, 100)], mode: .paced,
                                    keyTimes: nil)
        // The curve is point-symmetric about (75, 50) = B(1/2): half the length is there, where
        // B'(1/2) = (150, 150), a 45° heading.
        let mid = path.sample(0.5)
        #expect(abs(mid.x - 75) <= 1e-9 && abs(mid.y - 50) <= 1e-9)
        #expect(abs(mid.angle - Double.pi / 4) <= 1e-9)
        #expect(path.sample(0).angle == 0 && abs(path.sample(1).angle) <= 1e-15)
        // Elsewhere: the angle at the point reached is atan2(600 t(1−t), 150).
        let c = ReferenceCubic(p0: (0, 0), c1: (50, 0), c2: (100, 100), p3: (150, 100))
        let length = c.length()
        #expect(abs(path.totalLength - length) <= 1e-9 * length)
        for t in [0.1, 0.3, 0.7] {
            let s = path.sample(c.length(upTo: t, steps: 100_000) / length)
            #expect(pointDistance((s.x, s.y), c.point(t)) <= 1e-6 * length)
            #expect(abs(s.angle - atan2(600 * t * (1 - t), 150)) <= 1e-6)
        }
    }

    // MARK: Path structure

    @Test func subpathsCloseAndImplicitStart() throws {
        // No moveTo: starts at (0,0). close returns to the subpath start; moveTo jumps are not segments.
        let path = try PathTimeline(elements: [.line(40, 0), .line(40, 30), .close, .move(100, 100), .line(100, 110)],
                                    mode: .paced, keyTimes: nil)
        #expect(path.segmentCount == 4)
        #expect(path.totalLength == 40 + 30 + 50 + 10)
        #expect(path.sample(0) == (0, 0, 0))
        let onClose = path.sample((40 + 30 + 25) / 130.0)   // halfway back along the 3-4-5 diagonal
        #expect(abs(onClose.x - 20) <= 1e-12 && abs(onClose.y - 15) <= 1e-12)
        #expect(abs(onClose.angle - atan2(-30, -40)) <= 1e-15)
        let last = path.sample(1)
        #expect(last.x == 100 && last.y == 110)
        // A line after close starts from the subpath start.
        let again = try PathTimeline(elements: [.move(5, 5), .line(10, 5), .close, .line(5, 20)], mode: .linear,
                                     keyTimes: nil)
        #expect(again.sample(2.0 / 3).x == 5 && again.sample(2.0 / 3).y == 5)
        #expect(abs(again.sample(5.0 / 6).y - 12.5) <= 1e-12)
    }

    @Test func discreteJumpsToEachSegmentEnd() throws {
        let elements: [PathElement] = [.move(0, 0), .line(10, 0), .line(10, 10), .line(0, 10)]
        // Without key times: 4 vertices, an equal share each.
        let even = try PathTimeline(elements: elements, mode: .discrete, keyTimes: nil)
        let expected: [(Double, Double)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
        for (i, v) in expected.enumerated() {
            for p in [Double(i) / 4, Double(i) / 4 + 0.2] {
                let s = even.sample(p)
                #expect(s.x == v.0 && s.y == v.1, "p \(p)")
            }
        }
        #expect(even.sample(0).angle == 0)
        #expect(abs(even.sample(0.5).angle - Double.pi / 2) <= 1e-15)  // arrived going down
        // segments + 1 key times: segment i's end point shows from key time i + 1.
        let timed = try PathTimeline(elements: elements, mode: .discrete, keyTimes: [0, 0.5, 0.6, 1])
        #expect(timed.sample(0.49) == (0, 0, 0))
        #expect(timed.sample(0.5).x == 10 && timed.sample(0.5).y == 0)
        #expect(timed.sample(0.99).y == 10 && timed.sample(0.99).x == 10)
        #expect(timed.sample(1).x == 0 && timed.sample(1).y == 10)
        // segments + 2: the last is the end.
        let long = try PathTimeline(elements: elements, mode: .discrete, keyTimes: [0, 0.1, 0.2, 0.3, 1])
        #expect(long.sample(0.5).x == 0 && long.sample(0.5).y == 10)
    }

    // MARK: Errors

    @Test func invalidPathsThrow() {
        #expect(throws: PathError.empty) { try PathTimeline(elements: [], mode: .linear, keyTimes: nil) }
        #expect(throws: PathError.noDrawableSegment) {
            try PathTimeline(elements: [.move(1, 1), .move(2, 2)], mode: .linear, keyTimes: nil)
        }
        let elements: [PathElement] = [.move(0, 0), .line(1, 0), .line(1, 1)]
        for times in [[0, 1], [0, 0.5, 0.4, 1], [0, 0.5, 0.9], [0.2, 0.5, 1], [0, .nan, 1]] as [[Double]] {
            #expect(throws: (any Error).self, "\(times)") {
                try PathTimeline(elements: elements, mode: .linear, keyTimes: times)
            }
        }
        #expect(throws: PathError.invalidKeyTimes("expected segments+1 = 3 key times, got 2")) {
            try PathTimeline(elements: elements, mode: .cubic, keyTimes: [0, 1])
        }
        #expect(throws: (any Error).self) {
            try PathTimeline(elements: elements, mode: .discrete, keyTimes: [0, 0.2, 0.3, 0.5, 1])
        }
        #expect(throws: Never.self) { try PathTimeline(elements: elements, mode: .paced, keyTimes: [7]) }
    }

    @Test func nonFiniteInputDoesNotCrashOrHang() throws {
        let path = try PathTimeline(elements: [.move(0, 0), .cubic(.nan, 1, 2, .infinity, 3, 3), .line(5, 5)],
                                    mode: .paced, keyTimes: nil)
        for p in [0, 0.5, 1, .nan] { #expect(!path.sample(p).angle.isNaN) }
    }

    /// A cubic whose second control point sits on its end point has B'(1) = 0;
    /// its direction there is the limit from before, end − c1. Sampled at the
    /// end of such a segment (progress 1, or a key time where the arc-length
    /// inversion lands a hair before t = 1), the angle must be that direction,
    /// not its reverse. Hand-worked: the cubic from (0, 0) with c1 (100, 0),
    /// c2 = end = (100, 100) ends moving straight up: π/2.
    @Test func tangentAtAnEndWhoseControlPointSitsOnIt() throws {
        let elements: [PathElement] = [.move(-100, 0), .line(0, 0), .cubic(100, 0, 100, 100, 100, 100)]
        for mode in [CalculationMode.linear, .paced] {
            let path = try PathTimeline(elements: elements, mode: mode, keyTimes: nil)
            #expect(abs(path.sample(1).angle - Double.pi / 2) <= 1e-9, "\(mode)")
            #expect(abs(path.sample(0.999999).angle - Double.pi / 2) <= 1e-3, "\(mode)")
        }
        // The same kind of segment in the middle of a path, sampled at its end
        // (progress 2/3 of three equal shares): the direction from c1 (0, 50) to
        // the end (50, 50) is 0; the next segment (close) starts elsewhere.
        let mid = try PathTimeline(elements: [.move(0, 0), .quad(0, 25, 0, 50), .cubic(0, 50, 50, 50, 50, 50), .close],
                                   mode: .linear, keyTimes: [0, 1.0 / 3, 2.0 / 3, 1])
        let a = mid.sample(2.0 / 3 - 1e-12).angle
        #expect(abs(a) <= 1e-6, "\(a)")
    }

    // MARK: Coordinates near the largest double

    /// Differences of coordinates near ±1e308 overflow; the timeline measures
    /// such paths in scaled units. Hand-worked: the first line is 2e308 long, the
    /// second 1e308; the true total (3e308) is beyond the largest double.
    @Test func hugeCoordinatesKeepTheirArcLengths() throws {
        let elements: [PathElement] = [.move(-1e308, 0), .line(1e308, 0), .line(1e308, 1e308)]
        let paced = try PathTimeline(elements: elements, mode: .paced, keyTimes: nil)
        #expect(paced.totalLength == .infinity)
        let half = paced.sample(0.5)             // 1.5e308 along: the middle of the first line's right half
        #expect(abs(half.x - 0.5e308) <= 1e-12 * 1e308 && half.y == 0 && half.angle == 0)
        let late = paced.sample(5.0 / 6.0)       // 2.5e308 along: halfway up the second line
        #expect(late.x == 1e308 && abs(late.y - 0.5e308) <= 1e-12 * 1e308)
        #expect(abs(late.angle - Double.pi / 2) <= 1e-15)
        let even = try PathTimeline(elements: elements, mode: .linear, keyTimes: nil)
        let quarter = even.sample(0.25)          // the first line's midpoint
        #expect(abs(quarter.x) <= 1e-12 * 1e308 && quarter.y == 0)
        #expect(abs(even.sample(0.75).y - 0.5e308) <= 1e-12 * 1e308)

        // A cubic scaled up to ~1e307: its length against brute-force integration
        // of the small one times the scale, and paced samples at the scaled points.
        let c = ReferenceCubic(p0: (0, 0), c1: (30, 120), c2: (140, -60), p3: (160, 80))
        let k = 1e305
        let big = ReferenceCubic(p0: (0, 0), c1: (30 * k, 120 * k), c2: (140 * k, -60 * k), p3: (160 * k, 80 * k))
        let path = try PathTimeline(elements: [.move(0, 0), big.element], mode: .paced, keyTimes: nil)
        let reference = c.length() * k
        #expect(abs(path.totalLength - reference) <= 1e-9 * reference, "\(path.totalLength) vs \(reference)")
        for p in [0.25, 0.6] {
            let t = c.parameter(atLength: p * c.length())
            let want = c.point(t)
            let got = path.sample(p)
            #expect(pointDistance((got.x / k, got.y / k), want) <= 1e-6, "p=\(p)")
        }
    }
}
