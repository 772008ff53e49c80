// Tests of KeyframeTrack (SEMANTICS.md §7). References are computed here from
// the definitions (key times, Catmull-Rom/Kochanek–Bartels by hand, arc length by
// brute-force Simpson integration), not from the implementation's helpers.

import Testing
@testable import CadenceCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The track's value at overall progress p (locate, then value).
private func trackValue(_ track: KeyframeTrack, _ p: Double) -> [Double] {
    var out = [Double](repeating: .nan, count: track.components)
    let (j, u) = track.locate(p)
    track.value(segment: j, local: u, into: &out, at: 0)
    return out
}

private func keyframeDistance(_ a: [Double], _ b: [Double]) -> Double {
    sqrt(zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) })
}

private func valueRow(_ values: [Double], _ j: Int, _ d: Int) -> [Double] { Array(values[(j * d)..<((j + 1) * d)]) }

/// Random strictly increasing key times from 0 to 1.
private func randomKeyTimes(_ count: Int, _ rng: inout SplitMix64) -> [Double] {
    var gaps = (0..<(count - 1)).map { _ in rng.uniform(0.05, 1) }
    let total = gaps.reduce(0, +)
    gaps = gaps.map { $0 / total }
    var times = [0.0]
    for g in gaps { times.append(times.last! + g) }
    times[count - 1] = 1
    return times
}

/// Catmull-Rom segment from P1 to P2, written out (SEMANTICS.md §7 / the brief):
/// 0.5 (2P1 + (−P0+P2)u + (2P0−5P1+4P2−P3)u² + (−P0+3P1−3P2+P3)u³).
private func catmullRom(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double, _ u: Double) -> Double {
    0.5 * (2 * p1 + (-p0 + p2) * u + (2 * p0 - 5 * p1 + 4 * p2 - p3) * u * u
        + (-p0 + 3 * p1 - 3 * p2 + p3) * u * u * u)
}

/// The whole Catmull-Rom spline through `values` (end points duplicated), segment j at u.
private func catmullRomPoint(_ values: [Double], _ d: Int, _ n: Int, _ j: Int, _ u: Double) -> [Double] {
    (0..<d).map { c in
        let v = { (i: Int) in values[min(max(i, 0), n - 1) * d + c] }
        return catmullRom(v(j - 1), v(j), v(j + 1), v(j + 2), u)
    }
}

/// Arc length of Catmull-Rom segment j from u = 0 to `end`, by composite Simpson on |P'(u)| (P' from
/// the closed form above) with `steps` intervals.
private func catmullRomLength(_ values: [Double], _ d: Int, _ n: Int, _ j: Int, upTo end: Double = 1,
                              steps: Int) -> Double {
    func speed(_ u: Double) -> Double {
        // P'(u) of 0.5(a + b u + c u² + e u³) is 0.5(b + 2c u + 3e u²), per component.
        var sum = 0.0
        for c in 0..<d {
            let v = { (i: Int) in values[min(max(i, 0), n - 1) * d + c] }
            let p0 = v(j - 1), p1 = v(j), p2 = v(j + 1), p3 = v(j + 2)
            let b = -p0 + p2, cc = 2 * p0 - 5 * p1 + 4 * p2 - p3, e = -p0 + 3 * p1 - 3 * p2 + p3
            let dv = 0.5 * (b + 2 * cc * u + 3 * e * u * u)
            sum += dv * dv
        }
        return sqrt(sum)
    }
    let h = end / Double(steps)
    var total = speed(0) + speed(end)
    for i in 1..<steps { total += (i % 2 == 1 ? 4 : 2) * speed(Double(i) * h) }
    return total * h / 3
}

@Suite struct KeyframeTests {
    // MARK: Every value at its key time

    /// The placeholder track of path animations is built without validation:
    /// it is the one-value track, its value everywhere (NaN and overshoot included).
    @Test func constantTrackIsTheOneValueTrack() {
        let track = KeyframeTrack(constant: 2.5)
        #expect(track.count == 1 && track.components == 1 && track.mode == .linear)
        for p in [-1.0, 0, 0.25, 1, 3, .nan, .infinity] {
            let (j, u) = track.locate(p)
            #expect(j == 0 && u == 0, "at \(p)")
            #expect(trackValue(track, p) == [2.5], "at \(p)")
        }
        #expect(KeyframeRuntime.placeholderTrack.count == 1)
    }

    @Test(arguments: [CalculationMode.linear, .cubic, .discrete])
    func everyValueIsHitAtItsKeyTime(mode: CalculationMode) throws {
        var rng = SplitMix64(state: 0xC0FFEE &+ UInt64(mode.rawValue))
        for _ in 0..<200 {
            let n = rng.int(2...9), d = rng.int(1...4)
            let values = (0..<(n * d)).map { _ in rng.uniform(-100, 100) }
            let useKeyTimes = rng.next() % 4 != 0
            var times: [Double]? = nil
            if useKeyTimes {
                times = randomKeyTimes(mode == .discrete && rng.next() % 2 == 0 ? n + 1 : n, &rng)
            }
            let tension = mode == .cubic ? (0..<n).map { _ in rng.uniform(-1, 1) } : nil
            let continuity = mode == .cubic ? (0..<n).map { _ in rng.uniform(-1, 1) } : nil
            let bias = mode == .cubic ? (0..<n).map { _ in rng.uniform(-1, 1) } : nil
            let track = try KeyframeTrack(values: values, components: d, keyTimes: times, mode: mode,
                                          tension: tension, continuity: continuity, bias: bias)
            #expect(track.count == n && track.components == d)
            for j in 0..<n {
                let t = times?[j] ?? (mode == .discrete ? Double(j) / Double(n) : Double(j) / Double(n - 1))
                let got = trackValue(track, t)
                #expect(keyframeDistance(got, valueRow(values, j, d)) <= 1e-12 * 100, "mode \(mode) value \(j) at \(t)")
            }
        }
    }

    @Test func pacedHitsEveryValueAtThePacedKeyTimesWithConstantSpeed() throws {
        var rng = SplitMix64(state: 0xBEEF)
        for _ in 0..<100 {
            let n = rng.int(2...8), d = rng.int(1...3)
            let values = (0..<(n * d)).map { _ in rng.uniform(-10, 10) }
            // Ignored by paced: key times and per-keyframe TCB.
            let track = try KeyframeTrack(values: values, components: d, keyTimes: [0, 0.9, 0.1],
                                          mode: .paced, tension: nil, continuity: nil, bias: nil)
            #expect(!track.usesSegmentTiming)
            var cumulative = [0.0]
            for j in 0..<(n - 1) {
                cumulative.append(cumulative[j] + keyframeDistance(valueRow(values, j, d), valueRow(values, j + 1, d)))
            }
            let total = cumulative[n - 1]
            for j in 0..<n {
                #expect(keyframeDistance(trackValue(track, cumulative[j] / total), valueRow(values, j, d)) <= 1e-12 * 10)
            }
            // Speed |dv/dp| = total everywhere, by central differences inside segments.
            let delta = 1e-7
            for _ in 0..<50 {
                let p = rng.uniform(delta, 1 - delta)
                let nearKnot = cumulative.contains { abs($0 / total - p) < 2 * delta }
                if nearKnot { continue }
                let speed = keyframeDistance(trackValue(track, p + delta), trackValue(track, p - delta)) / (2 * delta)
                #expect(abs(speed - total) <= 1e-6 * total)
            }
        }
    }

    // MARK: Cubic

    @Test func catmullRomByHand() throws {
        // Segment 1 (P1 → P2) of four values; TCB all zero (explicitly, and nil).
        let values = [0.0, 2, 3, 7]
        for zeros in [nil, [0.0, 0, 0, 0]] {
            let track = try KeyframeTrack(values: values, components: 1, keyTimes: nil, mode: .cubic,
                                          tension: zeros, continuity: zeros, bias: zeros)
            var out = [0.0]
            track.value(segment: 1, local: 0.5, into: &out, at: 0)
            #expect(abs(out[0] - catmullRom(0, 2, 3, 7, 0.5)) <= 1e-14)
            #expect(abs(out[0] - 2.375) <= 1e-14)  // 0.5 (4 + 3·0.5 + (−5)·0.25 + 4·0.125)
            // At progress 0.5 of evenly spaced times: segment 1, u = 0.5.
            #expect(abs(trackValue(track, 0.5)[0] - 2.375) <= 1e-14)
        }
        // 2-D, every segment, including the duplicated end points.
        let points = [0.0, 0, 10, 5, 20, -5, 35, 0, 40, 10]
        let track = try KeyframeTrack(values: points, components: 2, keyTimes: nil, mode: .cubic,
                                      tension: nil, continuity: nil, bias: nil)
        for j in 0..<4 {
            for u in [0.1, 0.25, 0.5, 0.8] {
                var out = [0.0, 0.0]
                track.value(segment: j, local: u, into: &out, at: 0)
                #expect(keyframeDistance(out, catmullRomPoint(points, 2, 5, j, u)) <= 1e-12)
            }
        }
    }

    @Test func kochanekBartelsParameters() throws {
        // Tension 1 zeroes every tangent: each segment is v_j + (v_(j+1) − v_j)(3u² − 2u³).
        let values = [1.0, 4, -2, 0]
        let track = try KeyframeTrack(values: values, components: 1, keyTimes: nil, mode: .cubic,
                                      tension: [1, 1, 1, 1], continuity: nil, bias: nil)
        for j in 0..<3 {
            for u in [0.2, 0.5, 0.9] {
                var out = [0.0]
                track.value(segment: j, local: u, into: &out, at: 0)
                let smooth = 3 * u * u - 2 * u * u * u
                #expect(abs(out[0] - (values[j] + (values[j + 1] - values[j]) * smooth)) <= 1e-13)
            }
        }
        // Tangents measured by finite differences at the middle keyframe of [0, 1, 3]
        // (Kochanek & Bartels 1984, eqs. 8–9): with Δin = 1, Δout = 2,
        // outgoing = (1−t)(1+b)(1−c)/2 · Δin + (1−t)(1−b)(1+c)/2 · Δout,
        // incoming = (1−t)(1+b)(1+c)/2 · Δin + (1−t)(1−b)(1−c)/2 · Δout.
        let (t, c, b) = (0.2, -0.4, 0.3)
        let kb = try KeyframeTrack(values: [0, 1, 3], components: 1, keyTimes: nil, mode: .cubic,
                                   tension: [0, t, 0], continuity: [0, c, 0], bias: [0, b, 0])
        let h = 1e-6
        func at(_ j: Int, _ u: Double) -> Double {
            var o = [0.0]
            kb.value(segment: j, local: u, into: &o, at: 0)
            return o[0]
        }
        let outgoing = (at(1, h) - at(1, 0)) / h
        let incoming = (at(0, 1) - at(0, 1 - h)) / h
        #expect(abs(outgoing - ((1 - t) * (1 + b) * (1 - c) / 2 * 1 + (1 - t) * (1 - b) * (1 + c) / 2 * 2)) <= 1e-5)
        #expect(abs(incoming - ((1 - t) * (1 + b) * (1 + c) / 2 * 1 + (1 - t) * (1 - b) * (1 - c) / 2 * 2)) <= 1e-5)
        // Continuity ≠ 0 makes the curve kink at the keyframe:
        // outgoing − incoming = (1−t)c(−(1+b)Δin + (1−b)Δout) = −0.032.
        #expect(abs(outgoing - incoming + 0.032) <= 1e-5)
    }

    @Test func cubicPacedMovesAtConstantSpeedAndHitsEveryValue() throws {
        var rng = SplitMix64(state: 0xFACE)
        for trial in 0..<12 {
            let n = rng.int(3...6), d = rng.int(1...3)
            var values = (0..<(n * d)).map { _ in rng.uniform(-10, 10) }
            if trial == 0 { values = [0, 0, 1, 0, 1, 0, 2, 1] }  // a repeated value: a zero-length segment
            let count = values.count / d
            let track = try KeyframeTrack(values: values, components: trial == 0 ? 2 : d, keyTimes: nil,
                                          mode: .cubicPaced, tension: nil, continuity: nil, bias: nil)
            let dim = track.components
            #expect(!track.usesSegmentTiming)
            // The test's own arc lengths (Simpson, 20 000 intervals per segment).
            var cumulative = [0.0]
            for j in 0..<(count - 1) {
                cumulative.append(cumulative[j] + catmullRomLength(values, dim, count, j, steps: 20_000))
            }
            let total = cumulative[count - 1]
            for j in 0..<count {
                let got = trackValue(track, cumulative[j] / total)
                #expect(keyframeDistance(got, valueRow(values, j, dim)) <= 1e-6 * total, "value \(j) of trial \(trial)")
            }
            // Position at arc-length fraction p against the test's own spline at the parameter it finds.
            for _ in 0..<20 {
                let p = rng.uniform(0, 1)
                let (j, u) = track.locate(p)
                // The arc length up to (j, u) must be the fraction p of the total.
                let along = catmullRomLength(values, dim, count, j, upTo: u, steps: 20_000)
                #expect(abs((cumulative[j] + along) / total - p) <= 1e-6, "p \(p) trial \(trial)")
                #expect(keyframeDistance(trackValue(track, p), catmullRomPoint(values, dim, count, j, u)) <= 1e-9 * total)
            }
            // Constant speed by finite differences.
            let delta = 1e-6
            for _ in 0..<30 {
                let p = rng.uniform(delta, 1 - delta)
                let speed = keyframeDistance(trackValue(track, p + delta), trackValue(track, p - delta)) / (2 * delta)
                let nearKnot = cumulative.contains { abs($0 / total - p) < 2 * delta }
                if !nearKnot { #expect(abs(speed - total) <= 1e-6 * total, "p \(p) trial \(trial)") }
            }
        }
    }

    // MARK: Discrete

    @Test func discreteFourColoursWithoutKeyTimes() throws {
        let colours = [1.0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]
        let track = try KeyframeTrack(values: colours, components: 4, keyTimes: nil, mode: .discrete,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(!track.usesSegmentTiming)
        for j in 0..<4 {
            for p in [Double(j) / 4, Double(j) / 4 + 0.1, (Double(j) + 1) / 4 - 1e-12] {
                #expect(trackValue(track, p) == valueRow(colours, j, 4), "p \(p)")
                #expect(track.locate(p) == (j, 0))
            }
        }
        #expect(trackValue(track, 1) == valueRow(colours, 3, 4))
        #expect(trackValue(track, 1.3) == valueRow(colours, 3, 4))
        #expect(trackValue(track, -0.2) == valueRow(colours, 0, 4))
    }

    @Test func discreteKeyTimeForms() throws {
        let values = [10.0, 20, 30]
        // n + 1 key times: the last is the end; each value holds until the next key time.
        let long = try KeyframeTrack(values: values, components: 1, keyTimes: [0, 0.2, 0.7, 1], mode: .discrete,
                                     tension: nil, continuity: nil, bias: nil)
        #expect(trackValue(long, 0.19)[0] == 10 && trackValue(long, 0.2)[0] == 20 && trackValue(long, 0.69)[0] == 20)
        #expect(trackValue(long, 0.7)[0] == 30 && trackValue(long, 0.99)[0] == 30 && trackValue(long, 1)[0] == 30)
        // n key times: the last value shows from its key time (1) to the end.
        let short = try KeyframeTrack(values: values, components: 1, keyTimes: [0, 0.5, 1], mode: .discrete,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(trackValue(short, 0.49)[0] == 10 && trackValue(short, 0.5)[0] == 20 && trackValue(short, 0.999)[0] == 20)
        #expect(trackValue(short, 1)[0] == 30)
    }

    // MARK: Linear and the spec's example

    @Test func fallingPetal() throws {
        // Four points over the animation, as in the spec's falling-petal example.
        let points = [120.0, 0, 60, 200, 180, 300, 100, 460]
        let timed = try KeyframeTrack(values: points, components: 2, keyTimes: [0, 0.5, 0.75, 1], mode: .linear,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(timed.usesSegmentTiming)
        #expect(keyframeDistance(trackValue(timed, 0.25), [90, 100]) <= 1e-12)      // halfway v0 → v1
        #expect(keyframeDistance(trackValue(timed, 0.625), [120, 250]) <= 1e-12)    // halfway v1 → v2
        #expect(timed.locate(0.25) == (0, 0.5))
        #expect(timed.locate(0.625) == (1, 0.5))
        let even = try KeyframeTrack(values: points, components: 2, keyTimes: nil, mode: .linear,
                                     tension: nil, continuity: nil, bias: nil)
        #expect(keyframeDistance(trackValue(even, 1.0 / 3), [60, 200]) <= 1e-12)    // exactly v1
        #expect(trackValue(even, 1) == [100, 460])
        #expect(trackValue(even, 0) == [120, 0])
    }

    @Test func overshootExtrapolatesWithinTheEndSegments() throws {
        let track = try KeyframeTrack(values: [0, 10, 30], components: 1, keyTimes: [0, 0.5, 1], mode: .linear,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(track.locate(1.1).segment == 1 && abs(track.locate(1.1).local - 1.2) <= 1e-12)
        #expect(abs(trackValue(track, 1.1)[0] - 34) <= 1e-12)
        #expect(abs(trackValue(track, -0.1)[0] - -2) <= 1e-12)
        let cubic = try KeyframeTrack(values: [0, 10, 30], components: 1, keyTimes: nil, mode: .cubic,
                                      tension: nil, continuity: nil, bias: nil)
        let (j, u) = cubic.locate(1.05)
        #expect(j == 1 && abs(u - 1.1) <= 1e-12)
        // Continuous through the end: the slope just inside matches the overshoot.
        let inside = trackValue(cubic, 1)[0] - trackValue(cubic, 1 - 1e-6)[0]
        let outside = trackValue(cubic, 1 + 1e-6)[0] - trackValue(cubic, 1)[0]
        #expect(abs(inside - outside) <= 1e-9)
    }

    @Test func zeroLengthSegmentsDoNotDivideByZero() throws {
        for mode in [CalculationMode.linear, .cubic] {
            let track = try KeyframeTrack(values: [0, 1, 2, 3], components: 1, keyTimes: [0, 0.5, 0.5, 1], mode: mode,
                                          tension: nil, continuity: nil, bias: nil)
            #expect(abs(trackValue(track, 0.5 - 1e-12)[0] - 1) <= 1e-9)  // end of segment 0
            #expect(trackValue(track, 0.5) == [2])                       // value 2 takes over at its key time
            for p in stride(from: -0.2, through: 1.2, by: 0.01) { #expect(trackValue(track, p)[0].isFinite) }
            let ends = try KeyframeTrack(values: [0, 1, 2], components: 1, keyTimes: [0, 0, 1], mode: mode,
                                         tension: nil, continuity: nil, bias: nil)
            #expect(trackValue(ends, 0) == [1])
            #expect(trackValue(ends, -0.1)[0].isFinite)
            let tail = try KeyframeTrack(values: [0, 1, 2], components: 1, keyTimes: [0, 1, 1], mode: mode,
                                         tension: nil, continuity: nil, bias: nil)
            #expect(trackValue(tail, 1) == [2])
            #expect(abs(trackValue(tail, 0.5)[0] - 0.5) <= 1e-12 || mode == .cubic)
            #expect(trackValue(tail, 1.1)[0].isFinite)
        }
    }

    @Test func pacedWithEqualValuesBehavesLikeLinear() throws {
        let track = try KeyframeTrack(values: [5, 5, 5, 5, 5, 5], components: 2, keyTimes: nil, mode: .paced,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(track.locate(0.25) == (0, 0.5))  // three values 0, 0.5, 1 apart
        #expect(track.locate(0.5) == (1, 0))
        #expect(trackValue(track, 0.7) == [5, 5])
        let still = try KeyframeTrack(values: [5, 5, 5], components: 1, keyTimes: nil, mode: .cubicPaced,
                                      tension: nil, continuity: nil, bias: nil)
        #expect(trackValue(still, 0.3) == [5])
    }

    /// Paced key times of values whose distances overflow or underflow when
    /// squared (hand-worked: distances 1.5e308 and 0.5e308 give key times
    /// 0, 0.75, 1; 5e-170 and 1.5e-169 give 0, 0.25, 1).
    @Test func pacedKeyTimesOfHugeAndTinyValues() throws {
        let huge = try KeyframeTrack(values: [-1e308, 5e307, 1e308], components: 1, keyTimes: nil, mode: .paced,
                                     tension: nil, continuity: nil, bias: nil)
        #expect(huge.locate(0.75) == (1, 0))
        #expect(abs(trackValue(huge, 0.375)[0] - -2.5e307) <= 1e-15 * 1e308)
        let tiny = try KeyframeTrack(values: [0, 0, 3e-170, 4e-170, 3e-170, 1.9e-169], components: 2, keyTimes: nil,
                                     mode: .paced, tension: nil, continuity: nil, bias: nil)
        #expect(tiny.locate(0.25).segment == 1 && abs(tiny.locate(0.25).local) <= 1e-15)
        let mid = trackValue(tiny, 0.625)        // halfway along the second segment
        #expect(abs(mid[0] - 3e-170) <= 1e-15 * 3e-170 && abs(mid[1] - 1.15e-169) <= 1e-15 * 1.15e-169)
        // Subnormal values (exponents down to −1074): 0, 3·2⁻¹⁰⁷⁰, 4·2⁻¹⁰⁷⁰ are
        // 3 and 1 units apart, key times 0, 0.75, 1.
        let sub = try KeyframeTrack(values: [0, 3 * 0x1p-1070, 4 * 0x1p-1070], components: 1, keyTimes: nil,
                                    mode: .paced, tension: nil, continuity: nil, bias: nil)
        #expect(sub.locate(0.75) == (1, 0))
    }

    @Test func singleValueIsConstant() throws {
        for mode in [CalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced] {
            let track = try KeyframeTrack(values: [3, 4], components: 2, keyTimes: nil, mode: mode,
                                          tension: nil, continuity: nil, bias: nil)
            for p in [-1.0, 0, 0.5, 1, 2] {
                #expect(track.locate(p) == (0, 0))
                #expect(trackValue(track, p) == [3, 4])
            }
        }
    }

    @Test func valueWritesAtTheOffset() throws {
        let track = try KeyframeTrack(values: [0, 0, 10, 20], components: 2, keyTimes: nil, mode: .linear,
                                      tension: nil, continuity: nil, bias: nil)
        var out = [Double](repeating: -1, count: 5)
        track.value(segment: 0, local: 0.5, into: &out, at: 2)
        #expect(out == [-1, -1, 5, 10, -1])
    }

    // MARK: Errors

    @Test func invalidInputsThrowWithAMessage() {
        func build(_ values: [Double], components: Int = 1, times: [Double]? = nil,
                   mode: CalculationMode = .linear, tension: [Double]? = nil) throws(KeyframeError) {
            _ = try KeyframeTrack(values: values, components: components, keyTimes: times, mode: mode,
                                  tension: tension, continuity: nil, bias: nil)
        }
        #expect(throws: KeyframeError.tooFewValues) { try build([]) }
        #expect(throws: KeyframeError.componentMismatch) { try build([1, 2, 3], components: 2) }
        #expect(throws: KeyframeError.componentMismatch) { try build([1, 2, 3], components: 0) }

        let badTimes: [[Double]] = [[0, 1], [0.1, 0.5, 1], [0, 0.5, 0.9], [0, 0.6, 0.5, 1], [0, .nan, 1],
                                    [0, 0.5, 1, 1]]
        for times in badTimes {
            do throws(KeyframeError) {
                try build([1, 2, 3], times: times)
                Issue.record("accepted key times \(times)")
            } catch {
                guard case .invalidKeyTimes(let message) = error else { Issue.record("\(error)"); continue }
                #expect(!message.isEmpty)
            }
        }
        let message = "key times must be non-decreasing: key time 2 (0.5) is less than key time 1 (0.6)"
        #expect(throws: KeyframeError.invalidKeyTimes(message)) {
            try build([1, 2, 3, 4], times: [0, 0.6, 0.5, 1])
        }
        // Discrete takes n or n + 1, not n + 2.
        #expect(throws: (any Error).self) { try build([1, 2], times: [0, 0.3, 0.6, 1], mode: .discrete) }
        // TCB lists must have one finite entry per keyframe.
        #expect(throws: KeyframeError.invalidTCB("expected 3 tension values (one per keyframe), got 2")) {
            try build([1, 2, 3], mode: .cubic, tension: [0, 0])
        }
        #expect(throws: (any Error).self) { try build([1, 2, 3], mode: .cubicPaced, tension: [0, .infinity, 0]) }
        // Modes that ignore key times or TCB do not validate them.
        #expect(throws: Never.self) { try build([1, 2, 3], times: [5], mode: .paced) }
        #expect(throws: Never.self) { try build([1, 2, 3], tension: [7]) }
    }

    @Test func nonFiniteValuesDoNotCrashOrHang() throws {
        for mode in [CalculationMode.linear, .discrete, .paced, .cubic, .cubicPaced] {
            let track = try KeyframeTrack(values: [0, .nan, .infinity, 1], components: 1, keyTimes: nil, mode: mode,
                                          tension: nil, continuity: nil, bias: nil)
            for p in [-0.5, 0, 0.2, 0.5, 0.99, 1, 1.5, .nan] { _ = trackValue(track, p) }
        }
    }
}
