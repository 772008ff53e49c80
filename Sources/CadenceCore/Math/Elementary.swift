/// sin and cos of one argument from one argument reduction, in Swift.
///
/// The frame loop needs both for every angle it turns into a matrix (the
/// Euler angles of a recomposed transform) and for every underdamped spring
/// (`e^(-ζω0 s) (cos ωd s + B sin ωd s)`). glibc computes each separately
/// (about 85 instructions per call, each with its own reduction); this computes
/// the pair in about a third of that, with the same accuracy class:
///
/// * |x| < 2^-27: (x, 1), exactly what a correctly rounded sin and cos give.
/// * |x| ≤ 2^19·π/2 (about 823,550): Cody–Waite reduction by π/2 in up to
///   three steps (π/2 split into 33-bit pieces, so every product by the
///   quadrant count is exact; the second and third steps run only when the
///   previous one cancelled more than 16 and 49 bits), giving the reduced
///   argument as a double-double `y0 + y1`, |y0| ≤ π/4; then minimax
///   polynomials for sin and cos on [-π/4, π/4] that take the tail into
///   account. This is the classic fdlibm scheme (its published constants;
///   its error bound is below 1 ulp); the constants were re-derived with
///   mpmath (`pio2_k` = π/2 truncated to 33 bits, then the remainder, ...).
/// * Beyond, and NaN or ±inf: `Double.sin` and `Double.cos` (libm).
///
/// Every operation is a plain IEEE double operation (Swift does not contract
/// `a * b + c` into a fused multiply-add), so the result is the same on every
/// platform, which libm does not promise. `ElementaryTests` checks it against
/// 60-digit references and against libm.
@inline(__always)
func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    let ax = x.magnitude
    if ax < 0x1p-27 { return (x, 1) }                   // also ±0
    guard ax <= 823_549.6562719358 else {               // 2^19·π/2; NaN, ±inf too
        return (Double.sin(x), Double.cos(x))
    }
    var y0 = x, y1 = 0.0
    var n = 0
    if ax > 0.7853981633974483 {                         // π/4
        (n, y0, y1) = reduceHalfPi(x)
    }
    let s = Elementary.kernelSin(y0, y1)
    let c = Elementary.kernelCos(y0, y1)
    switch n & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}

/// `x − n·π/2 = y0 + y1` with n the nearest whole number to x·2/π, for
/// π/4 < |x| ≤ 2^19·π/2 (see `sinCos`).
@inline(__always)
func reduceHalfPi(_ x: Double) -> (n: Int, y0: Double, y1: Double) {
    // Round to nearest without a libm call: |x·2/π| < 2^20, far below 2^51.
    let fn = (x * Elementary.invPio2 + 0x1.8p52) - 0x1.8p52
    let n = Int(fn)
    // Biased exponents from the bits (0 for zero: no special case needed).
    @inline(__always) func exponent(_ v: Double) -> Int { Int((v.bitPattern >> 52) & 0x7ff) }
    let j = exponent(x)
    var r = x - fn * Elementary.pio2_1                  // exact
    var w = fn * Elementary.pio2_1t
    var y0 = r - w
    if j - exponent(y0) > 16 {
        // More than 16 bits cancelled: the next 33 bits of π/2.
        var t = r
        w = fn * Elementary.pio2_2
        r = t - w
        w = fn * Elementary.pio2_2t - ((t - r) - w)
        y0 = r - w
        if j - exponent(y0) > 49 {
            t = r
            w = fn * Elementary.pio2_3
            r = t - w
            w = fn * Elementary.pio2_3t - ((t - r) - w)
            y0 = r - w
        }
    }
    let y1 = (r - y0) - w
    return (n, y0, y1)
}

enum Elementary {
    // 2/π, and π/2 in pieces: pio2_1 is its first 33 bits, pio2_1t the rest
    // (rounded); pio2_2 the next 33 bits, pio2_2t the rest; pio2_3, pio2_3t.
    static var invPio2: Double { 0x1.45f306dc9c883p-1 }
    static var pio2_1: Double { 0x1.921fb544p+0 }
    static var pio2_1t: Double { 0x1.0b4611a626331p-34 }
    static var pio2_2: Double { 0x1.0b4611a6p-34 }
    static var pio2_2t: Double { 0x1.3198a2e037073p-69 }
    static var pio2_3: Double { 0x1.3198a2ep-69 }
    static var pio2_3t: Double { 0x1.b839a252049c1p-104 }

    /// sin(y0 + y1) for |y0 + y1| ≤ π/4, |y1| ≤ ulp(y0)/2: y0 + y0³·P(y0²),
    /// with the tail's first-order term.
    @inline(__always)
    static func kernelSin(_ x: Double, _ y: Double) -> Double {
        let s1 = -0x1.5555555555549p-3, s2 = 0x1.111111110f8a6p-7, s3 = -0x1.a01a019c161d5p-13
        let s4 = 0x1.71de357b1fe7dp-19, s5 = -0x1.ae5e68a2b9cebp-26, s6 = 0x1.5d93a5acfd57cp-33
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    /// cos(y0 + y1) for |y0 + y1| ≤ π/4: 1 − y0²/2 + y0⁴·Q(y0²), with the
    /// rounding of 1 − y0²/2 and the tail's first-order term (−y0·y1) added back.
    @inline(__always)
    static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let c1 = 0x1.555555555554cp-5, c2 = -0x1.6c16c16c15177p-10, c3 = 0x1.a01a019cb159p-16
        let c4 = -0x1.27e4f809c52adp-22, c5 = 0x1.1ee9ebdb4b1c4p-29, c6 = -0x1.8fae9be8838d4p-37
        let z = x * x
        let w = z * z
        let r = z * (c1 + z * (c2 + z * c3)) + w * w * (c4 + z * (c5 + z * c6))
        let hz = 0.5 * z
        let one = 1.0 - hz
        return one + (((1.0 - one) - hz) + (z * r - x * y))
    }
}

/// e^x in Swift, for the springs' envelopes (`Spring`), so that their motion
/// does not depend on the platform's libm either (see `sinCos`), and without
/// a call into it (glibc: about 50 instructions and a call per evaluation).
///
/// fdlibm's scheme (`e_exp.c`, its published constants; error below 1 ulp):
/// x = k·ln2 + r with k the nearest whole number to x/ln2 and |r| ≤ ln2/2,
/// r = hi − lo with ln2 split in two (ln2Hi has its low bits zero, so
/// k·ln2Hi is exact); e^r = 1 + r + r·c/(2 − c) with c = r − r²·P(r²) a
/// minimax fit of r·(e^r + 1)/(e^r − 1) − 2; then 2^k by adding k to the
/// exponent bits.
///
/// * |x| < 2^-28: 1 + x (correctly rounded there).
/// * |x| ≤ 700 (k within ±1010: e^r·2^k is a normal number): the above.
/// * Beyond, and NaN or ±inf: `Double.exp` (libm), whose overflow, underflow
///   and subnormal results need the care the fast path leaves out.
///
/// Plain IEEE operations only (no fused multiply-add), so the bits are the
/// same on every platform. `ElementaryTests` checks it against 60-digit
/// references and against libm.
@inline(__always)
func expElementary(_ x: Double) -> Double {
    let ax = x.magnitude
    guard ax <= 700 else { return Double.exp(x) }       // NaN and ±inf too
    if ax < 0x1p-28 { return 1 + x }
    let p1 = 1.66666666666666019037e-01, p2 = -2.77777777770155933842e-03
    let p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06
    let p5 = 4.13813679705723846039e-08
    var r = x, hi = x, lo = 0.0
    var k: Int64 = 0
    if ax > 0.34657359027997264 {                        // ln2 / 2
        // Nearest whole number without a libm call (|x / ln2| < 1011).
        let kf = (x * 1.44269504088896338700e+00 + 0x1.8p52) - 0x1.8p52
        k = Int64(kf)
        hi = x - kf * 6.93147180369123816490e-01        // exact
        lo = kf * 1.90821492927058770002e-10
        r = hi - lo
    }
    let t = r * r
    let c = r - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
    if k == 0 { return 1 - ((r * c) / (c - 2) - r) }
    let y = 1 - ((lo - (r * c) / (2 - c)) - hi)
    return Double(bitPattern: y.bitPattern &+ UInt64(bitPattern: k &<< 52))
}
