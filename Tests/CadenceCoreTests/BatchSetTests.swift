import Testing
@testable import CadenceCore

/// `set(layers:_:_:)` (cad_engine_set): one key path's model value on many
/// layers, row by row, as one `set(layer:)` per layer; every argument is
/// checked before anything changes.
@Suite("Batch model sets")
struct BatchSetTests {
    static func target(_ k: String) -> KeyPathTarget { KeyPathTarget.lookup(k)! }

    static func set(_ e: Engine, _ ls: [UInt64], _ k: String, _ v: [Double]) throws(CadenceError) {
        try e.set(layers: ls.span, target(k), v.span)
    }

    @Test("rows go to the layers in order; a layer listed twice takes its last row")
    func rows() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<3).map { _ in try e.createLayer() }
        try Self.set(e, ls, "position", [1, 2, 3, 4, 5, 6])
        #expect(try e.get(layer: ls[0], "position") == [1, 2])
        #expect(try e.get(layer: ls[1], "position") == [3, 4])
        #expect(try e.get(layer: ls[2], "position") == [5, 6])
        try Self.set(e, [ls[0], ls[1], ls[0]], "opacity", [0.1, 0.2, 0.3])
        #expect(try e.get(layer: ls[0], "opacity") == [0.3])
        #expect(try e.get(layer: ls[1], "opacity") == [0.2])
        try Self.set(e, [], "opacity", [])
    }

    @Test("each set runs the key's implicit action, as a single set does")
    func actions() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<2).map { _ in try e.createLayer() }
        try e.tick(0)   // no longer new (§10)
        e.beginTransaction()
        try e.setTransactionCurve(.linear)
        try Self.set(e, ls, "opacity", [0, 0.5])
        try e.commitTransaction()
        // The default action: the transaction's 0.25 s and curve, from the value on screen (1).
        try e.tick(0.125)
        #expect(near(try e.presentation(layer: ls[0], "opacity")[0], 0.5, 1e-12))
        #expect(near(try e.presentation(layer: ls[1], "opacity")[0], 0.75, 1e-12))
        #expect(try e.animationKeys(layer: ls[0]) == ["opacity"])
        // Inside a transaction with actions disabled, no animation.
        e.beginTransaction()
        try e.setTransactionDisableActions(true)
        try Self.set(e, ls, "position", [5, 5, 6, 6])
        try e.commitTransaction()
        #expect(try e.animationKeys(layer: ls[1]) == ["opacity"])
        #expect(try e.presentation(layer: ls[1], "position") == [6, 6])
    }

    @Test("a bad handle, count or value anywhere changes nothing", arguments: 0..<5)
    func refusedUpFront(which: Int) throws {
        let e = Engine(salt: 5)
        let ls = try (0..<3).map { _ in try e.createLayer() }
        let gone = try e.createLayer()
        try e.destroyLayer(gone)
        var layers = ls, key = "position", values: [Double] = [1, 2, 3, 4, 5, 6], status = Status.invalidArgument
        switch which {
        case 0: layers[2] = gone; status = .invalidHandle
        case 1: values.removeLast(); status = .typeMismatch
        case 2: values[5] = .nan
        case 3: key = "duration"; values = [1, 2, -1]   // a timing key: negative durations are refused
        default: key = "contents"; values = [7, 8, 1.5] // contents must be whole ids
        }
        let before = try ls.map { try e.get(layer: $0, key) }
        do {
            try Self.set(e, layers, key, values)
            Issue.record("the batch was accepted")
        } catch {
            #expect(error.status == status)
            // The message names the refused row (a count has no row).
            #expect(error.message.contains("layers[2]") == (which != 1), "\(error.message)")
        }
        #expect(try ls.map { try e.get(layer: $0, key) } == before)
    }

    @Test("timing keys and frame take the single set's paths")
    func timingAndFrame() throws {
        let e = Engine(salt: 5)
        let ls = try (0..<2).map { _ in try e.createLayer() }
        try Self.set(e, ls, "speed", [2, 0.5])
        #expect(try e.get(layer: ls[0], "speed") == [2])
        #expect(try e.get(layer: ls[1], "speed") == [0.5])
        try Self.set(e, ls, "bounds", [0, 0, 10, 20, 0, 0, 4, 4])
        // frame (0, 0, 10, 20) with the default anchor (0.5, 0.5): position (5, 10).
        try Self.set(e, ls, "frame", [0, 0, 10, 20, 2, 2, 4, 4])
        #expect(try e.get(layer: ls[0], "position") == [5, 10])
        #expect(try e.get(layer: ls[1], "position") == [4, 4])
    }
}
