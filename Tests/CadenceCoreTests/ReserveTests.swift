import Testing
@testable import CadenceCore

/// `Engine.reserve` (cad_engine_reserve): storage sized ahead, counts checked,
/// results unchanged (the C test `reserve_changes_no_result` compares whole
/// render lists with and without it).
@Suite("Reserving storage for a scene")
struct ReserveTests {
    @Test("reserve sizes every per-layer and per-animation array, and never shrinks")
    func sizesStorage() throws {
        let e = Engine(salt: 3)
        try e.reserve(layers: 1000, animations: 700)
        #expect(e.layers.capacity >= 1000 && e.layerCold.capacity >= 1000 && e.cache.capacity >= 1000)
        #expect(e.model.capacity >= 1000 * LayerProperty.stride && e.pres.capacity >= 1000 * LayerProperty.stride)
        #expect(e.worldD.slotCapacity >= 1000 && e.actions.capacity >= 1000 && e.sublayers.capacity >= 1000)
        #expect(e.inst.items.capacity >= 700 && e.inst.specs.capacity >= 700 && e.inst.beginGlobal.capacity >= 700)
        #expect(e.inst.values.capacity >= 700 * 16 && e.inst.valueBase.capacity >= 700)
        let before = e.layers.capacity
        try e.reserve(layers: 10, animations: 10)
        #expect(e.layers.capacity == before)
        // The scene itself is as without it: 1000 layers fill the reservation
        // without regrowing the layer table.
        for _ in 0..<1000 { _ = try e.createLayer() }
        #expect(e.layers.capacity == before)
        #expect(e.liveLayerCount == 1000)
    }

    @Test("counts outside 0...2^20 are invalid arguments")
    func checksCounts() {
        let e = Engine(salt: 3)
        for (l, a) in [(-1, 0), (0, -1), (Engine.maxReserve + 1, 0), (0, Engine.maxReserve + 1), (Int.max, Int.min)] {
            expectStatus(.invalidArgument) { () throws(CadenceError) in try e.reserve(layers: l, animations: a) }
        }
        #expect(Engine.maxReserve == 1_048_576)
        #expect(e.layers.capacity == 0)
    }
}
