import Testing
@testable import CadenceCore

// Expected values never come from the code under test: they come from an exact-sign bisection
// reference (`Reference`, below), closed forms, hand-worked Bernstein values or the CSS
// definitions. Helpers are nested in the suite so their names cannot clash with other files.

@Suite struct TimingCurveTests {
    /// The public accuracy contract of `TimingCurve.evaluate`.
    static let contractError = 1e-7

    static let namedAndHardCurves: [Reference] = [
        Reference(0, 0, 1, 1),           // linear
        Reference(0.42, 0, 1, 1),        // easeIn
        Reference(0, 0, 0.58, 1),        // easeOut
        Reference(0.42, 0, 0.58, 1),     // easeInEaseOut
        Reference(0.25, 0.1, 0.25, 1),   // default
        Reference(0.9, 0, 0.1, 1),       // steep
        Reference(0, 1, 1, 0),           // x' = 0 at both ends
        Reference(1, 0, 0, 1),           // x' = x'' = 0 at t = ½: flat inflection
        Reference(1, 1, 0, 0),           // the same x, identity y
        Reference(0.68, -0.6, 0.32, 1.6),
        Reference(0.5, 2, 0.5, -1),
        Reference(1, 0.3, 1, 0.9),       // 1 − x = (1 − t)³: triple root at t = 1
        Reference(0, 0.3, 0, 0.9),       // x = t³: triple root at t = 0
        Reference(0.999, -2, 0.001, 3),  // nearly flat inflection, steep y
    ]

    // MARK: Accuracy against the reference

    @Test("Named and degenerate curves match the reference within 1e-7",
          arguments: TimingCurveTests.namedAndHardCurves)
    func hardCurvesMatchReference(_ reference: Reference) {
        let worst = Self.maxError(reference, gridCount: 20_000)
        #expect(worst.error <= Self.contractError, "max error \(worst.error) at x = \(worst.at)")
    }

    @Test("Huge overshoot (|c1y|, |c2y| up to 1e6) stays within 1e-7", arguments: [
        Reference(0.3, 1_000, 0.7, -1_000),
        Reference(0.3, 1e6, 0.7, -1e6),
        Reference(0, -1e6, 1, 1e6),
        Reference(1, 898308.7493339644, 0, -827952.9846036558),   // flat inflection, y' ≈ 1.3e6 at x = ½
    ])
    func hugeOrdinatesMatchReference(_ reference: Reference) {
        let worst = Self.maxError(reference, gridCount: 2_000)
        #expect(worst.error <= Self.contractError, "max error \(worst.error) at x = \(worst.at)")
    }

    @Test("200 random curves match the reference within 1e-7", arguments: 0..<8)
    func randomCurvesMatchReference(batch: Int) {
        var rng = SplitMix64(state: UInt64(batch))
        for reference in Self.randomCurves(batch: batch) {
            var worst = Self.maxError(reference, gridCount: 1_000)
            let curve = reference.curve
            for _ in 0..<300 {  // random inputs: uniform, and log-uniform towards both ends
                let u = rng.unit()
                let tiny = Double(sign: .plus, exponent: -Int(rng.next() % 40), significand: 1 + u)
                for x in [u, tiny / 2, 1 - tiny / 2] {
                    let error = abs(curve.evaluate(x) - reference.value(at: x))
                    if !(error <= worst.error) { worst = (error, x) }
                }
            }
            #expect(
                worst.error <= Self.contractError,
                "\(reference.testDescription): \(worst.error) at x = \(worst.at)")
        }
    }

    // MARK: Closed forms and exact properties

    @Test("Flat inflection (1, 0, 0, 1): x = ½ + 4(t − ½)³, resolved right next to x = ½")
    func flatInflectionClosedForm() {
        let curve = TimingCurve(c1x: 1, c1y: 0, c2x: 0, c2y: 1)!
        var offsets: [Double] = [0, 0x1p-54, 1e-16, 1e-15, 1e-13, 1e-11, 1e-9, 1e-6, 1e-3, 0.1]
        offsets += offsets.map { -$0 }
        for offset in offsets {
            let x = 0.5 + offset
            let u = (x >= 0.5 ? 1.0 : -1.0) * Self.cubeRoot(abs(x - 0.5) / 4)  // x − ½ is exact
            let t = 0.5 + u
            let expected = 3 * t * t - 2 * t * t * t  // y(t) for c1y = 0, c2y = 1
            #expect(abs(curve.evaluate(x) - expected) <= Self.contractError, "x = \(x)")
        }
    }

    /// The same flat inflection with ordinates near the accepted limit 1e6:
    /// y(x) has an infinite slope at x = ½ and y' ≈ 1.3e6 there, so 1e-7 in y
    /// needs t to ~1e-13. Hand-worked points: x = ½ is t = ½ exactly, y =
    /// 0.375 (c1y + c2y) + 0.125; x = ½ ± 2⁻¹⁹ is t = ½ ± 2⁻⁷ exactly
    /// (4 · 2⁻²¹ = 2⁻¹⁹), y from the Bernstein form. (Found by a differential
    /// audit: 8.8e-7 off at x = ½ for the first curve.)
    @Test("Flat inflection with ordinates near 1e6: closed-form points within 1e-7")
    func flatInflectionHugeOrdinates() {
        for (c1y, c2y) in [(898308.7493339644, -827952.9846036558), (1e6, -1e6), (-1e6, 999_999.5), (1e6, 1e6)] {
            let curve = TimingCurve(c1x: 1, c1y: c1y, c2x: 0, c2y: c2y)!
            func y(_ t: Double) -> Double {
                let s = 1 - t
                return 3 * c1y * t * s * s + 3 * c2y * t * t * s + t * t * t
            }
            #expect(abs(curve.evaluate(0.5) - (0.375 * (c1y + c2y) + 0.125)) <= Self.contractError, "\(c1y), \(c2y) at ½")
            for sign in [1.0, -1.0] {
                let x = 0.5 + sign * 0x1p-19
                #expect(abs(curve.evaluate(x) - y(0.5 + sign * 0x1p-7)) <= Self.contractError, "\(c1y), \(c2y) at \(x)")
            }
        }
    }

    @Test("Triple roots at the ends: x = t³ and 1 − x = (1 − t)³")
    func tripleRootEndsClosedForm() {
        let (c1y, c2y) = (0.3, 0.9)
        func y(_ t: Double, _ s: Double) -> Double {
            3 * c1y * t * s * s + 3 * c2y * t * t * s + t * t * t
        }
        let atStart = TimingCurve(c1x: 0, c1y: c1y, c2x: 0, c2y: c2y)!  // x = t³
        let atEnd = TimingCurve(c1x: 1, c1y: c1y, c2x: 1, c2y: c2y)!    // 1 − x = (1 − t)³
        let offsets = [0x1p-1074, 1e-300, 1e-100, 1e-30, 1e-18, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.5]
        for e in offsets {
            let t = Self.cubeRoot(e)
            #expect(abs(atStart.evaluate(e) - y(t, 1 - t)) <= Self.contractError, "x = \(e)")
            let x = 1 - e
            let s = Self.cubeRoot(1 - x)  // 1 − x is exact
            #expect(abs(atEnd.evaluate(x) - y(1 - s, s)) <= Self.contractError, "x = 1 − \(e)")
        }
        let s = Self.cubeRoot(0x1p-53)
        #expect(abs(atEnd.evaluate((1.0).nextDown) - y(1 - s, s)) <= Self.contractError)
    }

    @Test("Linear and other y = x curves are the identity, exactly")
    func identityCurves() {
        var rng = SplitMix64(state: 1)
        let identities = [
            TimingCurve.linear,
            TimingCurve(c1x: 1.0 / 3, c1y: 1.0 / 3, c2x: 2.0 / 3, c2y: 2.0 / 3)!,
            TimingCurve(c1x: 1, c1y: 1, c2x: 0, c2y: 0)!,
        ]
        for curve in identities {
            for _ in 0..<10_000 {
                let x = rng.unit()
                #expect(curve.evaluate(x) == x)
            }
        }
    }

    @Test("x(t) = t up to rounding: (⅓, 0.2, ⅔, 0.9) gives y(x) = y(t = x)")
    func uniformSpeedCurve() {
        let curve = TimingCurve(c1x: 1.0 / 3, c1y: 0.2, c2x: 2.0 / 3, c2y: 0.9)!
        for i in 0...1_000 {
            let x = Double(i) / 1_000, s = 1 - x
            let expected = 3 * 0.2 * x * s * s + 3 * 0.9 * x * x * s + x * x * x
            #expect(abs(curve.evaluate(x) - expected) <= 1e-9)
        }
    }

    @Test("easeInEaseOut is point-symmetric: y(x) + y(1 − x) = 1")
    func easeInEaseOutSymmetry() {
        for i in 0...10_000 {
            let x = Double(i) / 10_000
            let curve = TimingCurve.easeInEaseOut
            #expect(abs(curve.evaluate(x) + curve.evaluate(1 - x) - 1) <= Self.contractError)
        }
    }

    @Test("Hand-worked values and control points of the named curves")
    func namedCurveValues() {
        // (x(t), y(t)) from the Bernstein form at t = ½ or ¼, e.g. default at ½:
        // x = 3·0.25·½·¼ + 3·0.25·¼·½ + ⅛ = 0.3125, y = 3·0.1·½·¼ + 3·1·¼·½ + ⅛ = 0.5375.
        let handWorked: [(TimingCurve, x: Double, y: Double)] = [
            (.easeInEaseOut, 0.5, 0.5),
            (.easeInEaseOut, 0.274375, 0.15625),  // t = ¼
            (.default, 0.3125, 0.5375),
            (.easeIn, 0.6575, 0.5),
            (.easeOut, 0.3425, 0.5),
        ]
        for (curve, x, y) in handWorked {
            #expect(abs(curve.evaluate(x) - y) <= Self.contractError, "x = \(x)")
        }
        #expect(TimingCurve.linear.controlPoints! == (0, 0, 1, 1))
        #expect(TimingCurve.easeIn.controlPoints! == (0.42, 0, 1, 1))
        #expect(TimingCurve.easeOut.controlPoints! == (0, 0, 0.58, 1))
        #expect(TimingCurve.easeInEaseOut.controlPoints! == (0.42, 0, 0.58, 1))
        #expect(TimingCurve.default.controlPoints! == (0.25, 0.1, 0.25, 1))
    }

    @Test("Endpoints are exact, inputs are clamped, NaN gives 0",
          arguments: TimingCurveTests.namedAndHardCurves)
    func endpointsAndClamping(_ reference: Reference) {
        let curve = reference.curve
        #expect(curve.evaluate(0) == 0)
        #expect(curve.evaluate(-0.0) == 0)
        #expect(curve.evaluate(1) == 1)
        #expect(curve.evaluate(-0.5) == 0)
        #expect(curve.evaluate(-.infinity) == 0)
        #expect(curve.evaluate(1.5) == 1)
        #expect(curve.evaluate(.infinity) == 1)
        #expect(curve.evaluate(.nan) == 0)
        #expect(curve.evaluate(-.nan) == 0)
        #expect(curve.evaluate(.signalingNaN) == 0)
        for x in [0x1p-1074, .leastNormalMagnitude, 1e-300, (1.0).nextDown] {
            #expect(curve.evaluate(x).isFinite)
        }
    }

    // MARK: Validation and equality

    @Test("Invalid control points and step counts are rejected")
    func invalidDefinitions() {
        for bad in [-0.1, 1.1, -0x1p-1074, (1.0).nextUp, .nan, .infinity, -.infinity] {
            #expect(TimingCurve(c1x: bad, c1y: 0, c2x: 0.5, c2y: 1) == nil)
            #expect(TimingCurve(c1x: 0.5, c1y: 0, c2x: bad, c2y: 1) == nil)
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(TimingCurve(c1x: 0.5, c1y: bad, c2x: 0.5, c2y: 1) == nil)
            #expect(TimingCurve(c1x: 0.5, c1y: 0, c2x: 0.5, c2y: bad) == nil)
        }
        // Overshooting ordinates are valid.
        #expect(TimingCurve(c1x: 0, c1y: -1e6, c2x: 1, c2y: 1e6) != nil)
        #expect(TimingCurve(steps: 0, jumpAtStart: false) == nil)
        #expect(TimingCurve(steps: -3, jumpAtStart: true) == nil)
    }

    @Test("Equality compares definitions")
    func equality() {
        #expect(TimingCurve(c1x: 0.42, c1y: 0, c2x: 0.58, c2y: 1) == TimingCurve.easeInEaseOut)
        #expect(TimingCurve.easeIn != TimingCurve.easeOut)
        let start3 = TimingCurve(steps: 3, jumpAtStart: true)!
        #expect(start3 == TimingCurve(steps: 3, jumpAtStart: true))
        #expect(start3 != TimingCurve(steps: 3, jumpAtStart: false))
        #expect(start3 != TimingCurve(steps: 2, jumpAtStart: true))
        #expect(start3 != TimingCurve.linear)
        #expect(start3.controlPoints == nil)
    }

    // MARK: Steps

    @Test("steps(4, end) and steps(4, start)")
    func stepsFour() {
        let end = TimingCurve(steps: 4, jumpAtStart: false)!
        let start = TimingCurve(steps: 4, jumpAtStart: true)!
        let xs = [0, 0.24, 0.25, 0.99, 1]
        #expect(xs.map(end.evaluate) == [0, 0, 0.25, 0.75, 1])
        #expect(xs.map(start.evaluate) == [0, 0.25, 0.5, 1, 1])
        #expect(end.evaluate(-1) == 0 && end.evaluate(2) == 1 && end.evaluate(.nan) == 0)
        #expect(start.evaluate(-1) == 0 && start.evaluate(2) == 1 && start.evaluate(.nan) == 0)
        #expect(start.evaluate(0x1p-1074) == 0.25)
        #expect(end.evaluate((1.0).nextDown) == 0.75)
    }

    @Test("steps(n): floor(x·n)/n (end), min(floor(x·n) + 1, n)/n (start)",
          arguments: [1, 2, 3, 5, 10, 60])
    func stepsDefinition(_ n: Int) {
        let end = TimingCurve(steps: n, jumpAtStart: false)!
        let start = TimingCurve(steps: n, jumpAtStart: true)!
        for i in 1..<1_000 {
            let x = Double(i) / 1_000
            // floor(x·n) by counting the boundaries k/n ≤ x.
            let k = (1...n).filter { Double($0) / Double(n) <= x }.count
            #expect(end.evaluate(x) == Double(k) / Double(n), "x = \(x)")
            #expect(start.evaluate(x) == Double(min(k + 1, n)) / Double(n), "x = \(x)")
        }
    }

    // MARK: Table internals

    @Test("Certified table segments are within the t tolerance of the reference",
          arguments: TimingCurveTests.namedAndHardCurves.prefix(6))
    func certifiedSegmentsAreAccurate(_ reference: Reference) {
        guard let solver = reference.curve.solverForTesting else { return }  // identity
        let n = BezierSolver.segmentCount
        var worst = 0.0
        var checked = 0
        for i in 1..<(n - 1) where solver.segments[i][0] >= 0 {
            checked += 1
            let a = solver.segments[i]
            for j in 0...16 {
                let w = Double(j) / 16
                let x = BezierSolver.sampleX(segment: i, w: w)
                let tTable = (a[0] + a[1] * w) + (w * w) * (a[2] + a[3] * w)
                worst = max(worst, abs(tTable - reference.parameter(at: x)))
            }
        }
        #expect(checked > 0, "no certified segment to check")
        #expect(worst <= solver.curve.tTolerance)
    }

    @Test("Everyday curves stay on the fast path")
    func namedCurvesAreMostlyCertified() throws {
        for curve in [TimingCurve.easeIn, .easeOut, .easeInEaseOut, .default] {
            let solver = try #require(curve.solverForTesting)
            #expect(solver.certifiedFraction >= 0.95)
        }
    }
}

// MARK: - Reference solver and helpers

extension TimingCurveTests {
    /// A reference timing curve from the Bernstein form, independent of the solver.
    struct Reference: Sendable, CustomTestStringConvertible {
        let c1x: Double, c1y: Double, c2x: Double, c2y: Double

        init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
            (self.c1x, self.c1y, self.c2x, self.c2y) = (c1x, c1y, c2x, c2y)
        }

        var testDescription: String { "(\(c1x), \(c1y), \(c2x), \(c2y))" }

        var curve: TimingCurve { TimingCurve(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)! }

        /// The sign of x(t) − x for t ∈ [0, 1], x(t) = 3·c1x·t·s² + 3·c2x·t²·s + t³, s = 1 − t;
        /// 0 when t is provably within 1e-13 of the root.
        func residualSign(_ t: Double, _ x: Double) -> Int {
            // Plain Double first: all three terms are ≥ 0, so it is off by ≤ 16u·(terms + x).
            let s = 1 - t
            let a = 3 * c1x * t * s * s, b = 3 * c2x * t * t * s, c = t * t * t
            let approximate = (a + b + c) - x
            let bound = 0x1p-48 * (a + b + c + x)
            if abs(approximate) > bound {
                return approximate > 0 ? 1 : -1
            }
            // Here |x(t) − x| ≤ 2·bound, so where x' ≥ 1e-3 (which cannot change much within
            // 1e-13) t is within 2·bound/x' of the root: close enough for a reference, and it
            // spares the expansions below for all but ill-conditioned points.
            let slope = 3 * c1x * s * s + 6 * (c2x - c1x) * t * s + 3 * (1 - c2x) * t * t
            if slope >= 1e-3 && 2 * bound <= 1e-13 * slope {
                return 0
            }
            // Exact, with expansions.
            let sExact = Expansion.twoSum(1, -t)
            let sE = sExact.error == 0 ? [sExact.sum] : [sExact.error, sExact.sum]
            let tE = [t]
            let ts = Expansion.product(tE, sE)
            let term1 = Expansion.scale(Expansion.scale(Expansion.product(ts, sE), c1x), 3)
            let term2 = Expansion.scale(Expansion.scale(Expansion.product(ts, tE), c2x), 3)
            let term3 = Expansion.product(Expansion.product(tE, tE), tE)
            let total = Expansion.sum(Expansion.sum(Expansion.sum(term1, term2), term3), [-x])
            return Expansion.sign(total)
        }

        /// t with x(t) = x: bisection with certain signs down to adjacent Doubles (or 1e-13).
        func parameter(at x: Double) -> Double {
            var lo = 0.0, hi = 1.0
            while true {
                let mid = lo + (hi - lo) / 2
                guard lo < mid, mid < hi else { break }
                switch residualSign(mid, x) {
                case ..<0: lo = mid
                case 1...: hi = mid
                default: return mid
                }
            }
            return lo + (hi - lo) / 2
        }

        func y(atParameter t: Double) -> Double {
            let s = 1 - t
            return 3 * c1y * t * s * s + 3 * c2y * t * t * s + t * t * t
        }

        func value(at x: Double) -> Double {
            if !(x > 0) { return 0 }
            if x >= 1 { return 1 }
            return y(atParameter: parameter(at: x))
        }
    }

    /// Floating-point expansions (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and
    /// Fast Robust Geometric Predicates", 1997): a value is an unevaluated sum of nonoverlapping
    /// Doubles in increasing magnitude, so sums and products of Doubles are exact, and the sign
    /// is that of the last (largest) component.
    enum Expansion {
        static func twoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
            let s = a + b
            let bv = s - a
            return (s, (a - (s - bv)) + (b - bv))
        }

        static func fastTwoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
            let s = a + b
            return (s, b - (s - a))
        }

        static func twoProduct(_ a: Double, _ b: Double) -> (product: Double, error: Double) {
            let p = a * b
            return (p, (-p).addingProduct(a, b))
        }

        /// e + b (GROW-EXPANSION, zero-eliminating).
        static func grow(_ e: [Double], _ b: Double) -> [Double] {
            var q = b
            var h: [Double] = []
            for component in e {
                let (sum, error) = twoSum(q, component)
                if error != 0 { h.append(error) }
                q = sum
            }
            if q != 0 || h.isEmpty { h.append(q) }
            return h
        }

        static func sum(_ e: [Double], _ f: [Double]) -> [Double] {
            f.reduce(e, grow)
        }

        /// e·b (SCALE-EXPANSION, zero-eliminating).
        static func scale(_ e: [Double], _ b: Double) -> [Double] {
            var h: [Double] = []
            var (q, first) = twoProduct(e[0], b)
            if first != 0 { h.append(first) }
            for component in e.dropFirst() {
                let (big, small) = twoProduct(component, b)
                let (q1, h1) = twoSum(q, small)
                if h1 != 0 { h.append(h1) }
                let (q2, h2) = fastTwoSum(big, q1)
                if h2 != 0 { h.append(h2) }
                q = q2
            }
            if q != 0 || h.isEmpty { h.append(q) }
            return h
        }

        static func product(_ e: [Double], _ f: [Double]) -> [Double] {
            f.map { scale(e, $0) }.reduce([0], sum)
        }

        static func sign(_ e: [Double]) -> Int {
            guard let top = e.last(where: { $0 != 0 }) else { return 0 }
            return top > 0 ? 1 : -1
        }
    }


    /// Inputs near the ends, around ½ (the flat inflection of (1, ·, 0, ·)) and at the last
    /// Doubles below 1.
    static let specialInputs: [Double] = {
        var xs: [Double] = [0, 1, 0x1p-60, 1e-12, 1e-9, 1e-6, 1e-3]
        xs += [0.5, (0.5).nextUp, (0.5).nextDown]
        for e in [1e-15, 1e-12, 1e-9, 1e-6, 1e-3] {
            xs += [1 - e, 0.5 + e, 0.5 - e]
        }
        xs += [(1.0).nextDown, (1.0).nextDown.nextDown]
        return xs
    }()

    /// The largest |evaluate(x) − reference(x)| over a uniform grid of `count` + 1 points and
    /// `specialInputs`.
    static func maxError(
        _ reference: Reference, gridCount count: Int
    ) -> (error: Double, at: Double) {
        let curve = reference.curve
        var worst = (error: 0.0, at: 0.0)
        for x in (0...count).map({ Double($0) / Double(count) }) + specialInputs {
            let error = abs(curve.evaluate(x) - reference.value(at: x))
            if !(error <= worst.error) { worst = (error, x) }  // also catches NaN
        }
        return worst
    }

    /// 200 random valid curves, 25 per batch: c1x, c2x uniform in [0, 1] (one in ten snapped
    /// to 0 or 1), c1y, c2y uniform in [−2, 3].
    static func randomCurves(batch: Int) -> [Reference] {
        var rng = SplitMix64(state: 0x7165_6D69_6E67)
        var curves: [Reference] = []
        func abscissa() -> Double {
            let u = rng.unit()
            if rng.unit() < 0.1 { return u < 0.5 ? 0 : 1 }
            return u
        }
        for _ in 0..<200 {
            let c1x = abscissa(), c2x = abscissa()
            let c1y = -2 + 5 * rng.unit(), c2y = -2 + 5 * rng.unit()
            curves.append(Reference(c1x, c1y, c2x, c2y))
        }
        return Array(curves[(batch * 25)..<(batch * 25 + 25)])
    }

    /// ∛v for v ≥ 0 by Newton's method from above (monotone, so it stops at a fixed point).
    static func cubeRoot(_ v: Double) -> Double {
        guard v > 0 else { return 0 }
        var r = max(v, 1)
        for _ in 0..<5_000 {
            let next = r - (r * r * r - v) / (3 * r * r)
            if !(next < r) { break }
            r = next
        }
        return r
    }
}
