import Foundation
import Testing
@testable import CadenceCore

/// The frame loop's floor helpers against libm's `floor` (an independent
/// reference): `fastFloor` must equal floor for every double (with +0 for a
/// zero result), and `snappedFloor(q)` must equal floor(snap(q)) where snap
/// rounds q to the nearest whole number within 1e-12 (relative), SEMANTICS.md §3.3.
@Suite("Floor helpers agree with libm")
struct FloorTests {
    static func reference(_ x: Double) -> Double {
        let f = Foundation.floor(x)
        return f == 0 ? 0 : f          // the helpers return +0 for a zero result
    }

    /// floor(snap(q)) from libm: snapped to r = floor(q + 0.5) within 1e-12 max(1, |q|)
    /// when that miss is also at most 1e-9 s of time (q = t / c).
    static func snappedReference(_ q: Double, cycle c: Double = 1) -> Double {
        let r = Foundation.floor(q + 0.5)
        let s = abs(q - r) <= 1e-12 * max(1, abs(q)) && abs(q - r) * c <= 1e-9 ? r : q
        return reference(s)
    }

    static var edgeValues: [Double] {
        var xs: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                            1 - 0x1p-53, -(1 - 0x1p-53), 1e-300, -1e-300, .leastNonzeroMagnitude,
                            -.leastNonzeroMagnitude, 0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5),
                            0x1p52 - 1, 0x1p53, -0x1p53, 0x1p53 + 2, 1e300, -1e300,
                            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 4.5e11, 5e11, 5e11 + 0.5]
        for k in -40...40 {
            let base = Double(k)
            xs += [base, base.nextUp, base.nextDown, base + 0.5, base - 1e-13, base + 1e-13,
                   base - 2e-12, base + 2e-12]
        }
        return xs
    }

    @Test("fastFloor equals floor: edges, halves, near whole numbers, 2^52 and beyond")
    func fastFloorEdges() {
        for x in Self.edgeValues {
            let got = fastFloor(x)
            #expect(got.bitPattern == Self.reference(x).bitPattern, "x = \(x): \(got)")
        }
        #expect(fastFloor(.nan).isNaN)
        #expect(fastFloor(.infinity) == .infinity)
        #expect(fastFloor(-.infinity) == -.infinity)
    }

    @Test("fastFloor equals floor on 200,000 random doubles of every magnitude")
    func fastFloorRandom() {
        var g = SplitMix64(seed: 0xF100_0001)
        for _ in 0..<200_000 {
            let x = g.anyMagnitude()
            #expect(fastFloor(x).bitPattern == Self.reference(x).bitPattern, "x = \(x)")
        }
    }

    @Test("snappedFloor equals floor(snap(q)): edges and random")
    func snappedFloorAgrees() {
        for q in Self.edgeValues { for c in [1.0, 0.3, 1e-6, 1e6, 0] {
            #expect(ResolvedTiming.snappedFloor(q, cycle: c).bitPattern == Self.snappedReference(q, cycle: c).bitPattern, "q = \(q), c = \(c)")
        } }
        #expect(ResolvedTiming.snappedFloor(.nan, cycle: 1).isNaN)
        // Snapping decides: just below a whole number within the tolerance goes up,
        // outside it stays down.
        #expect(ResolvedTiming.snappedFloor(3 - 1e-13, cycle: 1) == 3)
        #expect(ResolvedTiming.snappedFloor(3 - 1e-11, cycle: 1) == 2)
        #expect(ResolvedTiming.snappedFloor(-3 - 1e-13, cycle: 1) == -3)
        #expect(ResolvedTiming.snappedFloor(-3 + 1e-11, cycle: 1) == -3)
        #expect(ResolvedTiming.snappedFloor(-3 - 1e-11, cycle: 1) == -4)
        // The miss as time must be within 1e-9 s too: q = 3e9 - 3e-3 is within 1e-12
        // relative of 3e9, but 3e-3 cycles of 0.3 s are 0.9 ms, not a rounding.
        #expect(ResolvedTiming.snappedFloor(3e9 - 3e-3, cycle: 0.3) == 3e9 - 1)
        #expect(ResolvedTiming.snappedFloor(3e9 - 3e-3, cycle: 1e-7) == 3e9)
        var g = SplitMix64(seed: 0x5A9_0002)
        let cycles = [1.0, 0.3, 1e-4, 1e-9, 3.7e4]
        for n in 0..<200_000 {
            let q = g.anyMagnitude(), c = cycles[n % cycles.count]
            #expect(ResolvedTiming.snappedFloor(q, cycle: c).bitPattern == Self.snappedReference(q, cycle: c).bitPattern, "q = \(q)")
        }
        // Quotients near whole numbers, as t / c produces them.
        for n in 0..<100_000 {
            let k = Double(Int(g.next() % 2_000_001)) - 1_000_000
            let q = k + (g.unit() - 0.5) * 4e-12 * max(1, abs(k)), c = cycles[n % cycles.count]
            #expect(ResolvedTiming.snappedFloor(q, cycle: c).bitPattern == Self.snappedReference(q, cycle: c).bitPattern, "q = \(q)")
        }
    }

    @Test("snappedFloorFromOne equals floor(snap(q)) for q >= 1: edges, near whole numbers, 2^52, infinity")
    func snappedFloorFromOneAgrees() {
        let cycles = [1.0, 0.3, 1e-4, 1e-9, 3.7e4, .leastNonzeroMagnitude]
        var qs = Self.edgeValues.filter { $0 >= 1 }
        qs += [1, 1.0.nextUp, 0x1p52 - 0.5, (0x1p52 - 0.5).nextDown, (0x1p52 - 0.5).nextUp, 0x1p52 + 1, .infinity]
        var g = SplitMix64(seed: 0x5A9_0003)
        for _ in 0..<100_000 {
            let x = abs(g.anyMagnitude())
            if x >= 1 { qs.append(x) }
            let k = Double(1 + g.next() % 3_000_000)
            qs.append(max(1, k + (g.unit() - 0.5) * 4e-12 * k))
        }
        for (n, q) in qs.enumerated() {
            let c = cycles[n % cycles.count]
            let want = q.isFinite ? Self.snappedReference(q, cycle: c) : ResolvedTiming.snappedFloor(q, cycle: c)
            #expect(ResolvedTiming.snappedFloorFromOne(q, cycle: c).bitPattern == want.bitPattern, "q = \(q), c = \(c)")
        }
        #expect(ResolvedTiming.snappedFloorFromOne(3 - 1e-13, cycle: 1) == 3)
        #expect(ResolvedTiming.snappedFloorFromOne(3 - 1e-11, cycle: 1) == 2)
        #expect(ResolvedTiming.snappedFloorFromOne(3e9 - 3e-3, cycle: 0.3) == 3e9 - 1)
    }
}
