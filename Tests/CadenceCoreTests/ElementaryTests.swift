// Tests of `sinCos` and `expElementary` (Math/Elementary.swift): against
// values correctly rounded from 60-digit mpmath values (SinCosReference.swift
// and ExpReference.swift, made by scripts/gen_sincos_reference.py and
// scripts/gen_exp_reference.py), against libm over random sweeps, and their
// exact special cases.

import Testing
@testable import CadenceCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ElementaryTests {
    /// |value − reference| in units of the reference's last place (of the
    /// smallest normal for subnormal references).
    static func ulps(_ value: Double, _ reference: Double) -> Double {
        if value == reference { return 0 }
        return (value - reference).magnitude / max(reference.ulp, Double.leastNormalMagnitude.ulp)
    }

    /// The error of `value` against the exact `hi + lo`, in ulps of hi's binade
    /// (`value - hi` is exact for the neighbours compared here).
    static func ulps(_ value: Double, exact: (Double, Double)) -> Double {
        let (hi, lo) = exact
        if hi == 0 { return value == 0 ? 0 : .infinity }
        let binadeUlp = max(Double(sign: .plus, exponent: hi.exponent, significand: 1).ulp, Double.leastNormalMagnitude.ulp)
        return ((value - hi) - lo).magnitude / binadeUlp
    }

    @Test func agreesWithCorrectlyRoundedReferences() {
        // The fdlibm-class bound is < 1 ulp; on this table (near-multiples of
        // π/2 up to the reduction bound, tiny and subnormal arguments, the
        // domain edges) the error measured at most 0.64 ulp (libm: 0.56).
        var worstSin = 0.0, worstCos = 0.0
        #expect(sinCosReference.count > 200)
        for (x, s, c) in sinCosReference {
            let r = sinCos(x)
            let es = Self.ulps(r.sin, exact: s), ec = Self.ulps(r.cos, exact: c)
            #expect(es < 1, "sin(\(x)) = \(r.sin), reference \(s.0)")
            #expect(ec < 1, "cos(\(x)) = \(r.cos), reference \(c.0)")
            worstSin = max(worstSin, es)
            worstCos = max(worstCos, ec)
        }
        #expect(worstSin < 0.75 && worstCos < 0.75, "worst sin \(worstSin) ulp, cos \(worstCos) ulp")
    }

    /// Random arguments in each range (100,000 per range, 4,000 in debug
    /// builds): every (ours, libm) pair `f` gives for an argument within one
    /// ulp of each other. Returns how many arguments had a pair that differs.
    static func sweepAgainstLibm(seed: UInt64, _ ranges: [(Double, Double)],
                                 _ f: (Double) -> [(ours: Double, libm: Double)]) -> (differing: Int, total: Int) {
        var g = SplitMix64(seed: seed)
        #if DEBUG
        let perRange = 4_000
        #else
        let perRange = 100_000
        #endif
        var differing = 0, total = 0
        for (lo, hi) in ranges {
            for _ in 0..<perRange {
                let x = lo + g.unit() * (hi - lo)
                let pairs = f(x)
                for (ours, libm) in pairs { #expect(ulps(ours, libm) <= 1, "x = \(x)") }
                if pairs.contains(where: { $0.ours != $0.libm }) { differing += 1 }
                total += 1
            }
        }
        return (differing, total)
    }

    @Test func staysWithinOneUlpOfLibm() {
        // libm is itself within about half an ulp, so one ulp between the two.
        let (differing, total) = Self.sweepAgainstLibm(seed: 0x5EED_C0DE,
                                                       [1e-5, 0.7, 1.0, 3.3, 10, 100, 1e3, 1e4, 1e5, 8e5].map { (-$0, $0) }) { x in
            let r = sinCos(x)
            return [(r.sin, sin(x)), (r.cos, cos(x))]
        }
        // Same accuracy class, not the same function: a few percent differ.
        #expect(differing < total / 10)
    }

    @Test func exactSpecialCases() {
        let z = sinCos(0.0)
        #expect(z.sin == 0 && z.sin.sign == .plus && z.cos == 1)
        let nz = sinCos(-0.0)
        #expect(nz.sin == 0 && nz.sin.sign == .minus && nz.cos == 1)
        // Tiny: sin x = x, cos x = 1, as correctly rounded.
        for x in [1e-300, -1e-300, 5e-324, 0x1p-28, -0x1p-28] {
            let r = sinCos(x)
            #expect(r.sin == x && r.cos == 1)
        }
        // Outside the reduction domain and for non-finite arguments: libm's answer.
        for x in [1e6, -3.5e7, 1e300, Double.greatestFiniteMagnitude] {
            let r = sinCos(x)
            #expect(r.sin == sin(x) && r.cos == cos(x), "x = \(x)")
        }
        for x in [Double.nan, .infinity, -.infinity] {
            let r = sinCos(x)
            #expect(r.sin.isNaN && r.cos.isNaN)
        }
        // Quadrants: signs of the four quarter turns (π/2 is not a double, so
        // cos(π/2) is the tiny 6.1e-17, correctly rounded).
        let q = sinCos(Double.pi / 2)
        #expect(q.sin == 1 && q.cos == 0x1.1a62633145c07p-54)
        let h = sinCos(Double.pi)
        #expect(h.sin == 0x1.1a62633145c07p-53 && h.cos == -1)
        let t = sinCos(-Double.pi / 2)
        #expect(t.sin == -1 && t.cos == 0x1.1a62633145c07p-54)
    }

    @Test func pairIsConsistent() {
        // sin² + cos² = 1 to a few ulps across the domain.
        var g = SplitMix64(seed: 42)
        for _ in 0..<5_000 {
            let x = (g.unit() * 2 - 1) * 8e5
            let r = sinCos(x)
            #expect((r.sin * r.sin + r.cos * r.cos - 1).magnitude <= 4e-16, "x = \(x)")
        }
    }

    @Test func expAgreesWithCorrectlyRoundedReferences() {
        // fdlibm's bound is < 1 ulp; the table holds the branch edges (2^-28,
        // ln2/2, ±700), half-integer and whole multiples of ln2 up to k = ±1009,
        // tiny and subnormal arguments and random ones up to ±700.
        var worst = 0.0
        #expect(expReference.count > 300)
        for (x, want) in expReference {
            let e = Self.ulps(expElementary(x), exact: want)
            #expect(e < 1, "exp(\(x)) = \(expElementary(x)), reference \(want.0)")
            worst = max(worst, e)
        }
        #expect(worst < 0.9, "worst \(worst) ulp")
    }

    @Test func expStaysWithinOneUlpOfLibm() {
        let ranges = [(-1e-6, 1e-6), (-0.35, 0.35), (-1.0, 1.0), (-20.0, 0.0), (-100.0, 100.0), (-745.0, 710.0)]
        let (differing, total) = Self.sweepAgainstLibm(seed: 0xE4B_0001, ranges) { x in [(expElementary(x), exp(x))] }
        #expect(differing < total / 10)
    }

    @Test func expExactSpecialCases() {
        #expect(expElementary(0) == 1 && expElementary(-0.0) == 1)
        // e: fdlibm's scheme gives the double above the nearest one (0.68 ulp
        // off; Java's StrictMath.exp(1), which is fdlibm, gives the same).
        #expect(expElementary(1) == 0x1.5bf0a8b14576ap+1)
        #expect(expElementary(0x1p-30) == 1 + 0x1p-30)
        #expect(expElementary(-0x1p-60) == 1)
        #expect(expElementary(.infinity) == .infinity && expElementary(-.infinity) == 0)
        #expect(expElementary(.nan).isNaN)
        #expect(expElementary(710) == .infinity && expElementary(-746) == 0)
    }
}
