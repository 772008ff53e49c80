// Tests of `sinCos` (Math/Elementary.swift): against sin and cos correctly
// rounded from 60-digit mpmath values (SinCosReference.swift, made by
// scripts/gen_sincos_reference.py), against libm over random sweeps, and its
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

    @Test func staysWithinOneUlpOfLibm() {
        // libm is itself within about half an ulp, so one ulp between the two.
        var g = SplitMix64(seed: 0x5EED_C0DE)
        #if DEBUG
        let perMagnitude = 4_000
        #else
        let perMagnitude = 100_000
        #endif
        var differing = 0, total = 0
        for mag in [1e-5, 0.7, 1.0, 3.3, 10, 100, 1e3, 1e4, 1e5, 8e5] {
            for _ in 0..<perMagnitude {
                let x = (g.unit() * 2 - 1) * mag
                let r = sinCos(x)
                #expect(Self.ulps(r.sin, sin(x)) <= 1, "x = \(x)")
                #expect(Self.ulps(r.cos, cos(x)) <= 1, "x = \(x)")
                if r.sin != sin(x) || r.cos != cos(x) { differing += 1 }
                total += 1
            }
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
}
