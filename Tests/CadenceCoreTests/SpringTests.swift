// Tests of Spring (SEMANTICS.md §6). Reference values are computed here from
// the closed forms derived by hand below, or from the ODE itself by finite
// differences — never by calling the implementation's own helpers.

import Testing
@testable import CadenceCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct SpringTests {
    // MARK: Closed forms

    @Test func defaultSpringMatchesTheSpecExample() throws {
        let spring = try #require(Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0))
        #expect(spring.naturalFrequency == 10)
        #expect(spring.dampingRatio == 0.5)
        // SEMANTICS.md §6: x(s) = e^(−5 s) (cos(ωd s) + (5/ωd) sin(ωd s)), ωd = √75.
        let wd = sqrt(75.0)
        var s = 0.0
        while s <= 3 {
            let expected = exp(-5 * s) * (cos(wd * s) + 5 / wd * sin(wd * s))
            #expect(abs(spring.displacement(at: s) - expected) <= 1e-14)
            #expect(abs(spring.progress(at: s) - (1 - expected)) <= 1e-14)
            s += 0.0125
        }
    }

    @Test func criticallyDampedClosedForm() throws {
        // m x'' + c x' + k x = 0 with c = 2√(km): characteristic m λ² + c λ + k = 0 has the
        // double root λ = −ω0, so x = (A + B s) e^(−ω0 s). x(0) = 1 gives A = 1;
        // x'(0) = B − ω0 A = −v0 gives B = ω0 − v0. Hence x = (1 + (ω0 − v0) s) e^(−ω0 s).
        for (m, k, v0) in [(1.0, 100.0, 0.0), (1.0, 100.0, 3.0), (2.0, 50.0, 25.0), (0.5, 8.0, -4.0)] {
            let w0 = sqrt(k / m)
            let spring = try #require(Spring(mass: m, stiffness: k, damping: 2 * sqrt(k * m), initialVelocity: v0))
            #expect(spring.dampingRatio == 1)
            for i in 0...200 {
                let s = Double(i) * 0.01
                let expected = (1 + (w0 - v0) * s) * exp(-w0 * s)
                #expect(abs(spring.displacement(at: s) - expected) <= 1e-13 * max(1, abs(v0)))
            }
        }
    }

    @Test func overdampedClosedFormWithTwoRealRoots() throws {
        // m = 2, k = 50, c = 50: 2λ² + 50λ + 50 = 0 → λ = (−50 ± √2100) / 4 (ζ = 2.5).
        // x = A1 e^(λ1 s) + A2 e^(λ2 s) with A1 + A2 = 1 and λ1 A1 + λ2 A2 = −v0, so
        // A1 = (−v0 − λ2) / (λ1 − λ2), A2 = 1 − A1.
        let l1 = (-50 + sqrt(2100.0)) / 4, l2 = (-50 - sqrt(2100.0)) / 4
        for v0 in [0.0, 1.5, 30.0, -7.0] {
            let spring = try #require(Spring(mass: 2, stiffness: 50, damping: 50, initialVelocity: v0))
            #expect(abs(spring.dampingRatio - 2.5) <= 1e-15)
            let a1 = (-v0 - l2) / (l1 - l2), a2 = 1 - a1
            for i in 0...300 {
                let s = Double(i) * 0.02
                let expected = a1 * exp(l1 * s) + a2 * exp(l2 * s)
                #expect(abs(spring.displacement(at: s) - expected) <= 1e-13 * max(1, abs(v0)))
            }
        }
    }

    @Test func undampedSpringOscillatesForever() throws {
        // c = 0: x = cos(ω0 s) − (v0/ω0) sin(ω0 s).
        let spring = try #require(Spring(mass: 1, stiffness: 4, damping: 0, initialVelocity: 1))
        #expect(spring.dampingRatio == 0)
        #expect(spring.settlingDuration == .infinity)
        for s in stride(from: 0.0, through: 50, by: 0.37) {
            #expect(abs(spring.displacement(at: s) - (cos(2 * s) - 0.5 * sin(2 * s))) <= 1e-12)
        }
    }

    // MARK: The ODE and the initial conditions, by finite differences

    /// Random springs over all three regimes (ζ from 0 to 20).
    private func randomSprings(count: Int, seed: UInt64) -> [Spring] {
        var rng = SplitMix64(state: seed)
        var springs: [Spring] = []
        while springs.count < count {
            let m = exp(rng.uniform(log(0.1), log(10)))
            let k = exp(rng.uniform(log(1), log(2000)))
            let zeta: Double
            switch springs.count % 4 {
            case 0: zeta = rng.uniform(0, 1)
            case 1: zeta = 1
            case 2: zeta = rng.uniform(1, 20)
            default: zeta = rng.uniform(0.9, 1.1)
            }
            let v0 = rng.uniform(-30, 30)
            if let s = Spring(mass: m, stiffness: k, damping: 2 * zeta * sqrt(k * m), initialVelocity: v0) {
                springs.append(s)
            }
        }
        return springs
    }

    @Test func displacementSolvesTheODE() {
        var rng = SplitMix64(state: 0x5EED_0001)
        for spring in randomSprings(count: 200, seed: 42) {
            let w0 = sqrt(spring.stiffness / spring.mass)
            // The fastest rate is below ω0 + c/m (the roots sum to −c/m when real).
            let h = 1e-3 / (w0 + spring.damping / spring.mass)
            for _ in 0..<10 {
                let s = rng.uniform(2 * h, 8 / w0)
                let xm = spring.displacement(at: s - h), x0 = spring.displacement(at: s),
                    xp = spring.displacement(at: s + h)
                let d1 = (xp - xm) / (2 * h)
                let d2 = (xp - 2 * x0 + xm) / (h * h)
                let residual = spring.mass * d2 + spring.damping * d1 + spring.stiffness * x0
                // Relative to the terms that cancel; truncation O(h²), rounding O(ε/h²).
                let scale = abs(spring.mass * d2) + abs(spring.damping * d1) + abs(spring.stiffness * x0)
                #expect(abs(residual) <= 1e-5 * scale, "residual \(residual) for \(spring)")
            }
        }
    }

    @Test func initialConditions() {
        for spring in randomSprings(count: 100, seed: 7) {
            let w0 = sqrt(spring.stiffness / spring.mass)
            #expect(spring.displacement(at: 0) == 1)
            #expect(spring.progress(at: 0) == 0)
            #expect(spring.displacement(at: -1) == 1)
            // Second-order one-sided difference: x'(0) ≈ (−3 x(0) + 4 x(h) − x(2h)) / (2h).
            let h = 1e-5 / w0
            let slope = (-3 * spring.displacement(at: 0) + 4 * spring.displacement(at: h)
                - spring.displacement(at: 2 * h)) / (2 * h)
            #expect(abs(slope + spring.initialVelocity) <= 1e-6 * (w0 + abs(spring.initialVelocity)))
        }
    }

    // MARK: Settling

    @Test func settlingDurationReproducesApplesFigures() throws {
        let soft = try #require(Spring(mass: 1, stiffness: 100, damping: 5, initialVelocity: 0))
        #expect(abs(soft.settlingDuration - 2.855) < 5e-4)  // 2.854975
        let firm = try #require(Spring(mass: 1, stiffness: 100, damping: 15, initialVelocity: 0))
        #expect(firm.settlingDuration > 1 && firm.settlingDuration < 1.03)  // 1.022094
        // The bound by hand for damping 15: α = 7.5, ωd = √43.75, B = 7.5/ωd.
        let b = 7.5 / sqrt(43.75)
        #expect(abs(firm.settlingDuration - log((1 + b) / 0.001) / 7.5) <= 1e-12)
    }

    @Test func settlingEnvelopeBoundsTheMotion() {
        // For ζ < 1 the bound is conservative: |x| < 0.001 after it (checked densely).
        for spring in randomSprings(count: 80, seed: 99) where spring.dampingRatio < 1 && spring.dampingRatio > 0.05 {
            let t = spring.settlingDuration
            for i in 0...400 {
                let s = t * (1 + Double(i) / 100)
                #expect(abs(spring.displacement(at: s)) < 0.001)
            }
        }
    }

    @Test func settlingIsExactWithoutOscillation() {
        // ζ ≥ 1, including throws that overshoot the target (v0 ≫ ω0) and pulls away (v0 < 0):
        // brute-force the last time |x| ≥ 0.001 on a fine grid and compare.
        var cases = randomSprings(count: 120, seed: 2024).filter { $0.dampingRatio >= 1 }
        cases.append(Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 40)!)
        cases.append(Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 10.02)!)
        cases.append(Spring(mass: 1, stiffness: 100, damping: 25, initialVelocity: 300)!)
        cases.append(Spring(mass: 1, stiffness: 100, damping: 60, initialVelocity: -20)!)
        for spring in cases {
            let t = spring.settlingDuration
            #expect(t.isFinite && t > 0)
            #expect(abs(abs(spring.displacement(at: t)) - 0.001) <= 1e-12)
            let horizon = 3 * t, steps = 30_000
            var lastAbove = 0.0
            for i in 0...steps {
                let s = horizon * Double(i) / Double(steps)
                if abs(spring.displacement(at: s)) >= 0.001 { lastAbove = s }
            }
            #expect(lastAbove <= t && t - lastAbove <= horizon / Double(steps) * 1.0001,
                    "settling \(t), grid says \(lastAbove) for \(spring)")
        }
    }

    // MARK: Constructors

    @Test func perceptualSpring() throws {
        let spring = try #require(Spring.perceptual(duration: 0.5, bounce: 0.3))
        #expect(spring.mass == 1)
        #expect(abs(spring.stiffness - 157.9) < 0.05)   // (2π/0.5)² = 157.9137
        #expect(abs(spring.damping - 17.6) < 0.05)      // 4π·0.7/0.5 = 17.5929
        #expect(abs(spring.stiffness - pow(2 * Double.pi / 0.5, 2)) <= 1e-10)
        #expect(abs(spring.damping - 4 * Double.pi * 0.7 / 0.5) <= 1e-12)
        #expect(spring.initialVelocity == 0)

        // Bounce 0 is exactly critical; negative bounce is overdamped with ζ = 1/(1 + b).
        #expect(Spring.perceptual(duration: 0.35, bounce: 0)?.dampingRatio == 1)
        let flat = try #require(Spring.perceptual(duration: 1, bounce: -0.5))
        #expect(abs(flat.dampingRatio - 2) <= 1e-15)
        #expect(abs(flat.damping - 4 * Double.pi * 2) <= 1e-12)

        #expect(Spring.perceptual(duration: 0, bounce: 0) == nil)
        #expect(Spring.perceptual(duration: .infinity, bounce: 0) == nil)
        #expect(Spring.perceptual(duration: 1, bounce: 1) == nil)
        #expect(Spring.perceptual(duration: 1, bounce: -1) == nil)
        #expect(Spring.perceptual(duration: 1, bounce: .nan) == nil)
    }

    @Test func uikitSpringSettlesWhenTheAnimationEnds() throws {
        for d in [0.1, 0.3, 0.5, 1, 2.5, 10] {
            for zeta in [0.05, 0.3, 0.5, 0.7, 0.9, 0.999, 1] {
                for v0 in [0.0, 0.5, 2, -3, 10, 60] {
                    let spring = try #require(Spring.uikit(duration: d, dampingRatio: zeta, initialVelocity: v0),
                                              "D \(d) ζ \(zeta) v0 \(v0)")
                    #expect(spring.mass == 1)
                    #expect(spring.initialVelocity == v0)
                    #expect(abs(spring.dampingRatio - zeta) <= 1e-15)
                    // c = 2ζω0 and k = ω0².
                    let w0 = sqrt(spring.stiffness)
                    #expect(abs(spring.damping - 2 * zeta * w0) <= 1e-12 * spring.damping)
                    #expect(abs(spring.settlingDuration - d) <= 1e-9,
                            "D \(d) ζ \(zeta) v0 \(v0): settles at \(spring.settlingDuration)")
                }
            }
        }
        // Without initial velocity the envelope bound inverts by hand: ω0 = ln((1+B)/0.001)/(ζ D),
        // B = ζ/√(1−ζ²).
        let spring = try #require(Spring.uikit(duration: 0.5, dampingRatio: 0.6, initialVelocity: 0))
        let expected = log((1 + 0.6 / 0.8) / 0.001) / (0.6 * 0.5)
        #expect(abs(sqrt(spring.stiffness) - expected) <= 1e-12 * expected)

        #expect(Spring.uikit(duration: 0, dampingRatio: 0.5, initialVelocity: 0) == nil)
        #expect(Spring.uikit(duration: 1, dampingRatio: 0, initialVelocity: 0) == nil)
        #expect(Spring.uikit(duration: 1, dampingRatio: 1.5, initialVelocity: 0) == nil)
        #expect(Spring.uikit(duration: 1, dampingRatio: 0.5, initialVelocity: .infinity) == nil)
    }

    // MARK: Validation and robustness

    @Test func invalidParametersAreRejected() {
        #expect(Spring(mass: 0, stiffness: 100, damping: 10, initialVelocity: 0) == nil)
        #expect(Spring(mass: -1, stiffness: 100, damping: 10, initialVelocity: 0) == nil)
        #expect(Spring(mass: 1, stiffness: 0, damping: 10, initialVelocity: 0) == nil)
        #expect(Spring(mass: 1, stiffness: 100, damping: -0.1, initialVelocity: 0) == nil)
        #expect(Spring(mass: .nan, stiffness: 100, damping: 10, initialVelocity: 0) == nil)
        #expect(Spring(mass: 1, stiffness: .infinity, damping: 10, initialVelocity: 0) == nil)
        #expect(Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: .nan) == nil)
        #expect(Spring(mass: 1e-300, stiffness: 1e300, damping: 1, initialVelocity: 0) == nil)  // ω0 overflows
        #expect(Spring(mass: 1, stiffness: 100, damping: 0, initialVelocity: 0) != nil)
    }

    @Test func neverNaNOrInfinite() {
        let extremes: [(Double, Double, Double, Double)] = [
            (1, 1e-6, 1e6, 0), (1, 1e-6, 1e6, 1e6), (1, 1e6, 1e-6, -1e3), (1e-8, 1e8, 1e-3, 5),
            (1, 100, 20 * (1 + 1e-15), 1e4), (1, 100, 20 * (1 - 1e-15), 1e4), (1, 100, 1e150, 3),
            (1e10, 1e-10, 1e-10, 1e-10), (1, 1e-300, 1, 1e300), (1, 1e300, 1e300, 1e300),
        ]
        for (m, k, c, v0) in extremes {
            guard let spring = Spring(mass: m, stiffness: k, damping: c, initialVelocity: v0) else { continue }
            for s in [0, 1e-300, 1e-9, 1e-3, 0.5, 1, 10, 1e3, 1e9, 1e300, Double.greatestFiniteMagnitude] {
                #expect(spring.displacement(at: s).isFinite, "\(spring) at \(s)")
            }
            #expect(!spring.settlingDuration.isNaN)
        }
    }

    @Test func equalityIsByParameters() {
        #expect(Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
            == Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0))
        #expect(Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
            != Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 1))
    }
}
