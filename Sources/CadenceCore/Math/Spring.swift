// Spring.swift — the damped harmonic oscillator behind spring animations
// (SEMANTICS.md §6).
//
// A spring animation's progress at local active time s (seconds, not scaled by
// the animation's duration) is 1 − x(s), where x solves
//
//     m x'' + c x' + k x = 0,   x(0) = 1,   x'(0) = −v0
//
// with mass m > 0, stiffness k > 0, damping c ≥ 0 and initial velocity v0 (in
// whole distances per second, positive toward the target). With
// ω0 = √(k/m) and ζ = c / (2√(k m)) the solution is, in closed form:
//
//   ζ < 1  (underdamped), α = ζ ω0, ωd = ω0 √(1 − ζ²), B = (α − v0) / ωd:
//       x(s) = e^(−α s) (cos(ωd s) + B sin(ωd s))
//   ζ = 1  (critically damped):
//       x(s) = (1 + (ω0 − v0) s) e^(−ω0 s)
//   ζ > 1  (overdamped), roots λ1 = −ω0 (ζ − √(ζ²−1)) (slow), λ2 = −ω0 (ζ + √(ζ²−1))
//       (fast), δ = λ1 − λ2 = 2 ω0 √(ζ²−1) > 0:
//       x(s) = e^(λ1 s) · (1 − (v0 + λ1) · (1 − e^(−δ s)) / δ)
//
// The overdamped form is the textbook A1 e^(λ1 s) + A2 e^(λ2 s) rewritten so
// that only exponentials of non-positive arguments appear (no overflow) and the
// near-critical cancellation between A1 and A2 disappears: (1 − e^(−δ s)) / δ is
// evaluated with expm1 and tends to s as δ → 0, giving the critical form.

import RealModule

/// A damped harmonic oscillator with closed-form displacement, used as the
/// progress curve of spring animations.
///
/// All coefficients are precomputed at initialisation; `displacement(at:)`
/// costs one `exp`, one `cos` and one `sin` for an underdamped spring (one `exp`
/// and one `expm1` when overdamped) and never returns NaN or an infinity.
public struct Spring: Sendable, Equatable {
    /// Mass m, > 0 (default 1).
    public let mass: Double
    /// Stiffness k, > 0 (default 100).
    public let stiffness: Double
    /// Damping coefficient c, ≥ 0 (default 10). 0 gives an undamped oscillation.
    public let damping: Double
    /// Initial velocity v0 in whole distances per second, positive toward the target.
    public let initialVelocity: Double
    /// ζ = c / (2√(k m)); < 1 oscillates, 1 is critical, > 1 is overdamped.
    public let dampingRatio: Double
    /// ω0 = √(k/m), in radians per second.
    public let naturalFrequency: Double
    /// Time (seconds) after which the spring is considered at rest; see ``settlingDuration``.
    private let settling: Double
    private let regime: Regime

    /// The displacement threshold that defines "settled": |x| < 0.001 of the distance.
    public static let settlingThreshold = 0.001

    /// A computed damping ratio within this distance of 1 is treated as exactly 1
    /// (critically damped). ζ is computed from three inputs and carries a few ulps
    /// of rounding; without this snap a spring meant to be critical (e.g. a
    /// perceptual spring with bounce 0) could land on the underdamped side, whose
    /// envelope-bound settling duration diverges as ζ → 1⁻.
    public static let criticalDampingTolerance = 8 * Double.ulpOfOne

    /// The closed form selected at initialisation, with its precomputed coefficients.
    private enum Regime: Sendable {
        /// x = e^(−decay s) (cos(ωd s) + b sin(ωd s))
        case underdamped(decay: Double, omegaD: Double, b: Double)
        /// x = (1 + slope s) e^(−omega s)
        case critical(omega: Double, slope: Double)
        /// x = e^(−slow s) (1 − coefficient · (−expm1(−gap s)) / gap)
        case overdamped(slow: Double, gap: Double, coefficient: Double)

        func displacement(at s: Double) -> Double {
            guard s > 0 else { return 1 }  // also catches NaN
            guard s.isFinite else { return 0 }  // the rest position
            switch self {
            case let .underdamped(decay, omegaD, b):
                let envelope = expElementary(-decay * s)
                if envelope == 0 { return 0 }
                let (sinPhase, cosPhase) = sinCos(omegaD * s)
                return Spring.clampFinite(envelope * (cosPhase + b * sinPhase))
            case let .critical(omega, slope):
                let envelope = expElementary(-omega * s)
                if envelope == 0 { return 0 }
                return Spring.clampFinite(envelope * (1 + slope * s))
            case let .overdamped(slow, gap, coefficient):
                let envelope = expElementary(-slow * s)
                if envelope == 0 { return 0 }
                // (1 − e^(−gap s)) / gap ∈ (0, min(s, 1/gap)]
                let spread = -Double.expMinusOne(-gap * s) / gap
                return Spring.clampFinite(envelope * (1 - coefficient * spread))
            }
        }
    }

    /// Creates a spring. Returns nil unless every argument is finite, mass > 0,
    /// stiffness > 0, damping ≥ 0, and the derived ω0 and ζ are finite (ω0 > 0).
    public init?(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
        guard mass.isFinite, stiffness.isFinite, damping.isFinite, initialVelocity.isFinite,
              mass > 0, stiffness > 0, damping >= 0 else { return nil }
        let omega0 = (stiffness / mass).squareRoot()
        var zeta = damping / (2 * stiffness.squareRoot() * mass.squareRoot())
        guard omega0.isFinite, omega0 > 0, zeta.isFinite else { return nil }
        if abs(zeta - 1) <= Spring.criticalDampingTolerance { zeta = 1 }

        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.dampingRatio = zeta
        self.naturalFrequency = omega0
        let v0 = initialVelocity

        if zeta < 1 {
            let decay = zeta * omega0
            let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
            let b = (decay - v0) / omegaD
            if omegaD > 0, b.isFinite {
                regime = .underdamped(decay: decay, omegaD: omegaD, b: b)
                // Envelope bound ln((1 + |B|) / 0.001) / (ζ ω0) (SEMANTICS.md §6).
                settling = decay > 0
                    ? (Double.log(onePlus: abs(b)) - Double.log(Spring.settlingThreshold)) / decay
                    : .infinity
                return
            }
            // ωd underflowed or B overflowed: indistinguishable from critical here;
            // keep the ζ < 1 settling rule, with ln(1 + |B|) ≈ ln|α − v0| − ln ωd.
            regime = .critical(omega: omega0, slope: omega0 - v0)
            let logB = omegaD > 0 ? Double.log(abs(decay - v0)) - Double.log(omegaD) : .infinity
            settling = decay > 0 ? (logB - Double.log(Spring.settlingThreshold)) / decay : .infinity
            return
        }

        // ζ ≥ 1: roots λ1 ≥ λ2 of m λ² + c λ + k = 0 (stable forms), δ = λ1 − λ2.
        let lambda1: Double, lambda2: Double, gap: Double
        if zeta == 1 {
            lambda1 = -omega0; lambda2 = -omega0; gap = 0
            regime = .critical(omega: omega0, slope: omega0 - v0)
        } else {
            // q = √(ζ² − 1) without overflowing ζ².
            let q = zeta < 1e150 ? ((zeta - 1) * (zeta + 1)).squareRoot() : zeta
            let sum = zeta + q
            lambda1 = -omega0 / sum
            lambda2 = -omega0 * sum
            gap = 2 * omega0 * q
            if gap > 0 {
                regime = .overdamped(slow: -lambda1, gap: gap, coefficient: v0 + lambda1)
            } else {
                regime = .critical(omega: omega0, slope: omega0 - v0)
            }
        }
        settling = Spring.nonOscillatingSettling(regime: regime, lambda1: lambda1, lambda2: lambda2,
                                                 gap: gap, v0: v0)
    }

    /// x(s), the remaining fraction of the distance at time s (seconds).
    /// s ≤ 0 (and NaN) gives 1; +∞ gives 0. Always finite.
    public func displacement(at s: Double) -> Double {
        regime.displacement(at: s)
    }

    /// 1 − x(s): 0 at s = 0, tending to 1; overshoots above 1 when ζ < 1 (or when
    /// v0 is large enough for a critically/overdamped spring to cross the target).
    public func progress(at s: Double) -> Double {
        1 - regime.displacement(at: s)
    }

    /// The time (seconds) after which the spring is considered at rest.
    ///
    /// - ζ < 1: the envelope bound `ln((1 + |B|) / 0.001) / (ζ ω0)` with
    ///   `B = (ζ ω0 − v0) / ωd` — an upper bound of the last time |x| ≥ 0.001
    ///   that reproduces Apple's figures (m 1, k 100, c 5: 2.855 s; c 15: 1.022 s).
    ///   +∞ when ζ = 0.
    /// - ζ ≥ 1: the exact first time after which |x| stays below 0.001, found by
    ///   locating the (at most one) extremum of x and bisecting on the last
    ///   crossing of |x| = 0.001 (to a few ulps).
    public var settlingDuration: Double { settling }

    /// The perceptual (SwiftUI-style) spring: duration d > 0 (finite) and bounce
    /// b in (−1, 1). m = 1, k = (2π/d)², ζ = 1 − b for b ≥ 0 and 1/(1 + b) for
    /// b < 0, c = 2ζ√k (= 4πζ/d). Initial velocity 0. The caller sets the
    /// animation's duration to the result's ``settlingDuration``.
    /// Example: d = 0.5, b = 0.3 gives k ≈ 157.9, c ≈ 17.6.
    public static func perceptual(duration: Double, bounce: Double) -> Spring? {
        guard duration.isFinite, duration > 0, bounce.isFinite, bounce > -1, bounce < 1 else { return nil }
        let omega = 2 * Double.pi / duration
        let stiffness = omega * omega
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        // c = 2ζ√k rather than 4πζ/d so that ζ is recovered exactly (bounce 0 → ζ = 1).
        return Spring(mass: 1, stiffness: stiffness, damping: 2 * zeta * stiffness.squareRoot(),
                      initialVelocity: 0)
    }

    /// The UIKit-style spring: duration D > 0 (finite), damping ratio ζ in (0, 1],
    /// initial velocity v0 (finite). m = 1, k = ω0², c = 2ζω0, with ω0 chosen so that
    /// ``settlingDuration`` equals D (to ~1e-12 relative): the spring settles exactly
    /// when the animation ends.
    ///
    /// The settling duration is not always monotonic in ω0 when v0 > 0 and ζ is
    /// close to 1; the largest ω0 that fits is chosen (the one that varies
    /// continuously as v0 → 0, where the solution is ω0 = T₁ / D with T₁ the
    /// settling duration of the ω0 = 1 spring). Returns nil for invalid arguments
    /// or when no such ω0 is representable.
    public static func uikit(duration: Double, dampingRatio: Double, initialVelocity: Double) -> Spring? {
        guard duration.isFinite, duration > 0, dampingRatio.isFinite, dampingRatio > 0, dampingRatio <= 1,
              initialVelocity.isFinite else { return nil }
        let zeta = dampingRatio, v0 = initialVelocity, target = duration

        func candidate(_ omega: Double) -> Spring? {
            let k = omega * omega
            return Spring(mass: 1, stiffness: k, damping: 2 * zeta * k.squareRoot(), initialVelocity: v0)
        }
        // Settling duration as a function of ω0 (NaN when not representable).
        func settle(_ omega: Double) -> Double { candidate(omega)?.settlingDuration ?? .nan }

        guard let unit = candidate(1) else { return nil }
        if v0 == 0 {
            // Scale invariance: x_ω(s) = x_1(ω s), so T(ω) = T(1) / ω exactly.
            let omega = unit.settlingDuration / target
            guard let s = candidate(omega) else { return nil }
            if abs(s.settlingDuration - target) <= 1e-12 * target { return s }
        }
        let reference = Spring(mass: 1, stiffness: 1, damping: 2 * zeta, initialVelocity: 0)!.settlingDuration
        // Above ω ≈ 1000 |v0| / ζ the velocity term is negligible and T is strictly decreasing.
        var hi = max(2 * reference / target, 1000 * abs(v0) / zeta)
        var tries = 0
        while !(settle(hi) < target) {  // NaN also continues; the guard below stops it
            hi *= 2; tries += 1
            guard tries < 2100, hi.isFinite else { return nil }
        }
        // Walk down geometrically to the largest ω with T(ω) ≥ D.
        let ratio = 1.02
        var lo = hi / ratio
        tries = 0
        while settle(lo) < target {
            hi = lo; lo /= ratio; tries += 1
            guard tries < 40_000, lo > 0 else { return nil }
        }
        // Bisection: T(lo) ≥ D > T(hi).
        for _ in 0..<200 {
            let mid = 0.5 * (lo + hi)
            if mid <= lo || mid >= hi { break }
            if settle(mid) >= target { lo = mid } else { hi = mid }
        }
        guard let a = candidate(lo), let b = candidate(hi) else { return nil }
        return abs(a.settlingDuration - target) <= abs(b.settlingDuration - target) ? a : b
    }

    public static func == (lhs: Spring, rhs: Spring) -> Bool {
        lhs.mass == rhs.mass && lhs.stiffness == rhs.stiffness && lhs.damping == rhs.damping
            && lhs.initialVelocity == rhs.initialVelocity
    }

    // MARK: - Internals

    /// Replaces NaN by 0 and infinities by the largest finite magnitude; only
    /// reachable for absurd parameters (e.g. |v0| / ω0 near the overflow limit).
    private static func clampFinite(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        return min(max(x, -Double.greatestFiniteMagnitude), Double.greatestFiniteMagnitude)
    }

    /// Exact settling time for ζ ≥ 1.
    ///
    /// x = A1 e^(λ1 s) + A2 e^(λ2 s) has at most one extremum, at
    /// s* = ln(1 + σδ) / δ with σ = −v0 / ((v0 + λ2) λ1) when σ > 0 (s* → σ as
    /// δ → 0, the critical case). x is monotonic on [0, s*] and on [s*, ∞), where
    /// it tends to 0 without crossing it, so |x| decreases there. Hence:
    /// - if |x(s*)| < 0.001 the last crossing is x = 0.001 on [0, s*];
    /// - otherwise it is |x| = 0.001 on [s*, ∞), bracketed by doubling.
    private static func nonOscillatingSettling(regime: Regime, lambda1: Double, lambda2: Double,
                                               gap: Double, v0: Double) -> Double {
        let threshold = settlingThreshold
        let slowRate = -lambda1
        guard slowRate > 0, slowRate.isFinite else { return .infinity }
        let x = { (s: Double) in regime.displacement(at: s) }

        var extremum = 0.0
        let sigma = -v0 / ((v0 + lambda2) * lambda1)
        if sigma > 0, sigma.isFinite {
            let y = sigma * gap
            let factor = y == 0 ? 1 : Double.log(onePlus: y) / y
            if factor.isFinite, factor > 0 { extremum = sigma * factor }
        }

        // Bisection on a predicate true at lo and false at hi; returns hi.
        func lastCrossing(_ lo0: Double, _ hi0: Double, _ above: (Double) -> Bool) -> Double {
            var lo = lo0, hi = hi0
            for _ in 0..<300 {
                let mid = 0.5 * (lo + hi)
                if mid <= lo || mid >= hi { break }
                if above(mid) { lo = mid } else { hi = mid }
            }
            return hi
        }

        var start = 0.0
        if extremum > 0 {
            if abs(x(extremum)) < threshold {
                return lastCrossing(0, extremum) { x($0) >= threshold }
            }
            start = extremum
        }
        var step = 1 / slowRate
        var hi = start + step
        while abs(x(hi)) >= threshold {
            step *= 2
            hi = start + step
            guard hi.isFinite else { return .infinity }
        }
        return lastCrossing(start, hi) { abs(x($0)) >= threshold }
    }
}
