import Testing
@testable import CadenceCore

@Suite("Transactions and implicit actions (SEMANTICS.md §10)")
struct TransactionTests {
    /// A layer that is no longer new (one tick after creation).
    func settled(_ r: inout Rig, _ props: [String: [Double]] = [:]) -> UInt64 {
        let l = r.layer(props)
        r.tick(r.e.now)
        return l
    }

    /// The `default` curve (0.25, 0.1, 0.25, 1) at x, by bisection (independent of TimingCurve).
    func defaultCurve(_ x: Double) -> Double {
        func bez(_ t: Double, _ a: Double, _ b: Double) -> Double { 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let m = (lo + hi) / 2; if bez(m, 0.25, 0.25) < x { lo = m } else { hi = m } }
        return bez((lo + hi) / 2, 0.1, 1)
    }

    @Test("a change outside a transaction animates from the on-screen value over 0.25 s with the default curve")
    func implicit() {
        var r = Rig(tick: 1)
        let l = settled(&r, ["opacity": [1]])
        try! r.e.set(layer: l, "opacity", [0])
        #expect(r.model(l, "opacity") == [0])
        #expect(r.pres1(l, "opacity") == 1)
        #expect(try! r.e.animationKeys(layer: l) == ["opacity"])
        r.tick(1.125)
        #expect(near(r.pres1(l, "opacity"), 1 - defaultCurve(0.5), 1e-7))
        r.tick(1.25)
        #expect(r.pres1(l, "opacity") == 0)
        #expect(try! r.e.animationCount(layer: l) == 0)
    }

    @Test("new layers take their first values without animation until the first tick")
    func newLayers() {
        var r = Rig(tick: 1)
        let l = r.layer()
        try! r.e.set(layer: l, "position", [10, 10])
        #expect(try! r.e.animationCount(layer: l) == 0)
        r.tick(2)
        try! r.e.set(layer: l, "position", [20, 10])
        #expect(try! r.e.animationCount(layer: l) == 1)
    }

    @Test("disabled actions: by the transaction, for the layer, or by a no-action marker")
    func disabled() {
        var r = Rig(tick: 1)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDisableActions(true)
        try! r.e.set(layer: l, "opacity", [0.5])
        try! r.e.commitTransaction()
        #expect(r.pres1(l, "opacity") == 0.5)
        try! r.e.setActionsEnabled(layer: l, false)
        try! r.e.set(layer: l, "opacity", [0.25])
        #expect(r.pres1(l, "opacity") == 0.25)
        try! r.e.setActionsEnabled(layer: l, true)
        try! r.e.setAction(layer: l, key: "opacity", animation: 0)
        try! r.e.set(layer: l, "opacity", [0.75])
        #expect(r.pres1(l, "opacity") == 0.75)
        try! r.e.clearAction(layer: l, key: "opacity")
        try! r.e.set(layer: l, "opacity", [0])
        #expect(r.pres1(l, "opacity") == 0.75)   // animating again
    }

    @Test("transaction duration and timing function apply; nesting inherits and overrides")
    func settings() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(2)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.set(layer: l, "position.x", [100])
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(4)
        try! r.e.set(layer: l, "position.y", [100])
        try! r.e.commitTransaction()
        try! r.e.commitTransaction()
        r.tick(1)
        #expect(near(r.pres1(l, "position.x"), 50))
        #expect(near(r.pres1(l, "position.y"), 25))
    }

    @Test("changes inside a transaction begin at the outermost commit")
    func beginAtCommit() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(1)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.set(layer: l, "opacity", [0])
        r.tick(5)                      // time passes before the commit
        #expect(r.pres1(l, "opacity") == 1)
        try! r.e.commitTransaction()
        r.tick(5.5)
        #expect(near(r.pres1(l, "opacity"), 0.5))
    }

    @Test("a second change retargets smoothly from the on-screen value")
    func retarget() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(1)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.set(layer: l, "position.x", [100])
        try! r.e.commitTransaction()
        r.tick(0.5)
        #expect(near(r.pres1(l, "position.x"), 50))
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(1)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.set(layer: l, "position.x", [0])
        try! r.e.commitTransaction()
        #expect(near(r.pres1(l, "position.x"), 50))   // no jump
        r.tick(1)
        #expect(near(r.pres1(l, "position.x"), 25))   // 50 -> 0 halfway
        #expect(try! r.e.animationCount(layer: l) == 1)
    }

    @Test("unbalanced commit and settings without a transaction are invalid states")
    func unbalanced() {
        let r = Rig()
        expectStatus(.invalidState) { () throws(CadenceError) in try r.e.commitTransaction() }
        expectStatus(.invalidState) { () throws(CadenceError) in try r.e.setTransactionDuration(1) }
    }

    @Test("completion fires when every animation the transaction added has stopped, or at commit if none")
    func completion() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        let id = r.e.currentTransactionID
        try! r.e.setTransactionCompletion(HostCallback(function: 1, userdata: 2))
        try! r.e.setTransactionDuration(1)
        try! r.e.set(layer: l, "opacity", [0])
        try! r.e.addAnimation(layer: l, spec: r.basic("zPosition", from: [0], to: [1], duration: 2), key: "z")
        try! r.e.commitTransaction()
        r.tick(1.5)
        #expect(!r.events().contains { $0.kind == .transactionComplete })
        r.tick(2.5)
        let ev = r.events()
        #expect(ev.last?.kind == .transactionComplete && ev.last?.tag == id)
        #expect(ev.last?.callback == HostCallback(function: 1, userdata: 2))
        // none added: at commit
        r.e.beginTransaction()
        try! r.e.commitTransaction()
        #expect(r.events().map(\.kind) == [.transactionComplete])
        #expect(ev.last?.finished == true)
    }

    /// The completion's `finished` is UIKit's: 0 when an animation of the
    /// transaction stopped before its end (replaced by a retarget here), 1
    /// when every one of them ran to its end (or none was added).
    @Test("a transaction completion is finished only when all its animations finished")
    func completionFinishedFlag() throws {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try r.e.setTransactionDuration(1)
        try r.e.set(layer: l, "position.x", [100])
        try r.e.commitTransaction()
        r.tick(0.5)
        _ = r.events()
        try r.e.set(layer: l, "position.x", [0])        // the default action replaces "position.x"
        r.tick(0.6)
        let ev = r.events()
        #expect(ev.contains { $0.kind == .stop && !$0.finished })
        #expect(ev.filter { $0.kind == .transactionComplete }.map(\.finished) == [false])
        r.e.beginTransaction()
        try r.e.commitTransaction()
        #expect(r.events().map(\.finished) == [true])
        // The same key set twice in one transaction: the first animation is
        // replaced by the transaction's own change before the commit, which
        // does not interrupt it.
        r.e.beginTransaction()
        try r.e.set(layer: l, "opacity", [0])
        try r.e.set(layer: l, "opacity", [0.5])
        try r.e.commitTransaction()
        r.tick(2)
        #expect(r.events().filter { $0.kind == .transactionComplete }.map(\.finished) == [true])
    }

    /// §10 + §11: a transaction completes when its last animation stops, dated
    /// at that stop, even when one tick reports several of its stops out of time
    /// order. Hand-worked: opacity (0.25 s, ends 1.25) then backgroundColor
    /// (0.1 s, ends 1.10), committed at 1; one tick at 1.3.
    @Test("a transaction's completion is dated at its last animation's stop")
    func completionDatedAtLastStop() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.tick(1)
        _ = r.events()
        r.e.beginTransaction()
        let id = r.e.currentTransactionID
        try! r.e.set(layer: l, "opacity", [0.9])
        try! r.e.setTransactionDuration(0.1)
        try! r.e.set(layer: l, "backgroundColor", [1, 0, 0, 1])
        try! r.e.commitTransaction()
        r.tick(1.3)
        let ev = r.events().filter { $0.kind != .start }
        #expect(ev.map(\.kind) == [.stop, .stop, .transactionComplete])
        #expect(ev.map(\.key) == ["backgroundColor", "opacity", ""])
        #expect(near(ev[0].time, 1.1, 1e-12) && near(ev[1].time, 1.25, 1e-12) && near(ev[2].time, 1.25, 1e-12))
        #expect(ev[2].tag == id)
    }

    /// A transaction whose animations all stopped before its commit (removed)
    /// completes after their stop events, at the next tick; an enclosing
    /// transaction completes after the nested one.
    @Test("removed before commit: completion follows the stops, nested before enclosing")
    func completionAfterRemovalBeforeCommit() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.tick(1)
        _ = r.events()
        // One transaction.
        r.e.beginTransaction()
        let single = r.e.currentTransactionID
        try! r.e.set(layer: l, "opacity", [0.9])
        try! r.e.removeAnimation(layer: l, key: "opacity")
        try! r.e.commitTransaction()
        #expect(r.events().isEmpty)                         // nothing at the commit
        r.tick(1.1)
        var ev = r.events()
        #expect(ev.map(\.kind) == [.stop, .transactionComplete] && ev.last?.tag == single)
        #expect(ev.first?.finished == false && near(ev.last!.time, 1, 1e-12))
        // Nested: the inner transaction's animation removed before the outer commit.
        r.e.beginTransaction()
        let outer = r.e.currentTransactionID
        r.e.beginTransaction()
        let inner = r.e.currentTransactionID
        try! r.e.set(layer: l, "opacity", [0.5])
        try! r.e.commitTransaction()
        try! r.e.removeAnimation(layer: l, key: "opacity")
        try! r.e.commitTransaction()
        #expect(r.events().isEmpty)
        r.tick(1.2)
        ev = r.events()
        #expect(ev.map(\.kind) == [.stop, .transactionComplete, .transactionComplete])
        #expect(ev.map(\.tag).suffix(2) == [inner, outer])
    }

    /// §10: a set action runs from the on-screen value of the key path it
    /// animates. An action for "bounds" (4 components) run by a frame change:
    /// from (1, 2, 10, 10) to the model (1, 2, 30, 40), linear over 0.4 s:
    /// (1, 2, 20, 25) halfway.
    @Test("a bounds action run by a frame change animates the whole bounds from the screen")
    func boundsActionFromFrame() throws {
        var r = Rig(tick: 0)
        let l = settled(&r, ["bounds": [1, 2, 10, 10]])
        r.tick(1)
        var spec = try AnimationSpec(kind: .basic, keyPath: "bounds")
        spec.timing.duration = 0.4
        spec.setTimingCurve(.linear)
        let a = try r.e.storeSpec(spec)
        try r.e.setAction(layer: l, key: "bounds", animation: a)
        try r.e.set(layer: l, "frame", [0, 0, 30, 40])
        #expect(r.pres(l, "bounds") == [1, 2, 10, 10])
        r.tick(1.2)
        let b = r.pres(l, "bounds")
        #expect(near(b[0], 1) && near(b[1], 2) && near(b[2], 20) && near(b[3], 25), "\(b)")
        #expect(r.model(l, "bounds") == [1, 2, 30, 40])
    }

    /// §7: keyTimes that do not match the values are invalid; §12: a failing
    /// call reports it. cad_layer_add_animation refuses such an animation, so
    /// cad_layer_set_action must too (the action would run inside
    /// cad_layer_set, which cannot report it, and silently add nothing).
    /// §2: unknown key paths are an error, never a silent no-op. Actions are looked up
    /// by the key path of the change (§10), so a misspelt action key could never run
    /// (found by an audit: "positon" was accepted and position kept animating).
    @Test("set_action and clear_action take animatable key paths only", arguments: [
        ("positon", Status.unknownKeyPath), ("position.zz", .unknownKeyPath), ("Position", .unknownKeyPath),
        ("beginTime", .invalidArgument), ("masksToBounds", .invalidArgument), ("frame", .invalidArgument),
        ("", .unknownKeyPath),               // as cad_layer_get of ""
    ])
    func actionKeysAreKeyPaths(key: String, status: Status) throws {
        var r = Rig(tick: 0)
        let l = settled(&r)
        for call in 0..<3 {
            do {
                switch call {
                case 0: try r.e.setAction(layer: l, key: key, animation: 0)
                case 1: try r.e.setAction(layer: l, key: key, animation: try r.e.storeSpec(r.basic("opacity", duration: 1)))
                default: try r.e.clearAction(layer: l, key: key)
                }
                Issue.record("\(key): call \(call) accepted")
            } catch {
                #expect(error.status == status, "\(key): \(error.message)")
            }
        }
        // Animatable key paths, sub-keys and contents are accepted.
        for k in ["position", "position.x", "transform.rotation.z", "contents", "hidden"] {
            try r.e.setAction(layer: l, key: k, animation: 0)
            try r.e.clearAction(layer: l, key: k)
        }
    }

    @Test("set_action refuses an animation that add_animation refuses")
    func setActionValidatesLikeAdd() throws {
        var r = Rig(tick: 0)
        let l = settled(&r)
        var kf = try AnimationSpec(kind: .keyframe, keyPath: "opacity")
        try kf.setValues([0, 0.5, 0.25, 1], count: 4, components: 1)
        try kf.setKeyTimes([0, 0.5, 1])              // 3 key times for 4 values
        let a = try r.e.storeSpec(kf)
        #expect(throws: CadenceError.self) { try r.e.addAnimation(layer: l, animation: a, key: "k") }
        do {
            try r.e.setAction(layer: l, key: "opacity", animation: a)
            Issue.record("set_action accepted 3 key times for 4 values")
        } catch {
            #expect(error.status == .invalidArgument)
        }
        // Wrapped in a group: the same.
        var g = try AnimationSpec(kind: .group, keyPath: nil)
        try g.setChildren([kf])
        let ga = try r.e.storeSpec(g)
        #expect(throws: CadenceError.self) { try r.e.setAction(layer: l, key: "opacity", animation: ga) }
        // Nothing was set: the default action still runs.
        try r.e.set(layer: l, "opacity", [0.5])
        #expect(try r.e.animationKeys(layer: l) == ["opacity"])
    }

    @Test("the default action for contents is a fade transition")
    func contentsFade() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        try! r.e.setContents(layer: l, 42)
        #expect(try! r.e.animationKeys(layer: l) == ["transition"])
        #expect(try! r.e.contents(layer: l) == 42)
        try! r.e.setContents(layer: l, 43)       // skipped: a transition is attached
        #expect(try! r.e.animationCount(layer: l) == 1)
    }

    /// The presentation contents id keeps all 64 bits (the double read of
    /// "contents" cannot: 2^64 − 1 rounds to 2^64); during the fade the live
    /// layer shows the new id.
    @Test("presentation contents: all 64 bits, the new id during its fade")
    func presentationContentsExact() throws {
        var r = Rig(tick: 0)
        let l = settled(&r)
        try r.e.setContents(layer: l, UInt64.max)
        #expect(try r.e.animationKeys(layer: l) == ["transition"])
        r.tick(0.1)
        #expect(try r.e.presentationContents(layer: l) == UInt64.max)
        #expect(r.pres1(l, "contents") == 18446744073709551616.0)
        try r.e.setActionsEnabled(layer: l, false)
        try r.e.setContents(layer: l, 0x9E37_79B9_7F4A_7C15)
        #expect(try r.e.presentationContents(layer: l) == 0x9E37_79B9_7F4A_7C15)
    }

    /// §5.1 "none" row: an animation without from, to and by runs from the
    /// presentation value captured when it is added to the underlying value —
    /// inside a group too. Opacity 0.2 (model), a 1 s linear child with no
    /// endpoints in a 1 s group added at 1: 0.2 + (0.2 − 0.2)·e = 0.2 throughout
    /// (was 0 + 0.2·e: the child started from 0). position (50, 60) in a
    /// nested group likewise stays (50, 60).
    @Test("group children without from, to and by start from the captured presentation value")
    func groupNoneChildren() throws {
        var r = Rig(tick: 0)
        let l = settled(&r, ["opacity": [0.2], "position": [50, 60]])
        r.tick(1)
        func linear(_ k: String) -> AnimationSpec {
            r.basic(k, duration: 1) { s in s.setTimingCurve(.linear) }
        }
        var inner = try AnimationSpec(kind: .group, keyPath: nil)
        try inner.setChildren([linear("position")])
        inner.timing.duration = 1
        var g = try AnimationSpec(kind: .group, keyPath: nil)
        try g.setChildren([linear("opacity"), inner])
        g.timing.duration = 1
        g.setTimingCurve(.linear)
        r.add(l, g, key: "g")
        r.tick(1.5)
        #expect(r.pres1(l, "opacity") == 0.2)
        #expect(r.pres(l, "position") == [50, 60])
    }

    /// The same child in a group set as the action of opacity: at the change
    /// from 0.2 to 1 (t = 1) it runs from the on-screen 0.2 to the new model
    /// value 1 over 1 s, linear: 0.6 at 1.5 (was 0.5: from 0), as the child
    /// set as the action by itself does.
    @Test("a group action's children without endpoints start from the on-screen value before the change")
    func groupActionNoneChildren() throws {
        var r = Rig(tick: 0)
        let l = settled(&r, ["opacity": [0.2]])
        let m = settled(&r, ["opacity": [0.2]])
        r.tick(1)
        let child = r.basic("opacity", duration: 1) { s in s.setTimingCurve(.linear) }
        var g = try AnimationSpec(kind: .group, keyPath: nil)
        try g.setChildren([child])
        g.timing.duration = 1
        g.setTimingCurve(.linear)
        try r.e.setAction(layer: l, key: "opacity", animation: try r.e.storeSpec(g))
        try r.e.setAction(layer: m, key: "opacity", animation: try r.e.storeSpec(child))
        try r.e.set(layer: l, "opacity", [1])
        try r.e.set(layer: m, "opacity", [1])
        r.tick(1.5)
        #expect(near(r.pres1(l, "opacity"), 0.6, 1e-12))
        #expect(near(r.pres1(m, "opacity"), 0.6, 1e-12))
    }

    /// The transaction delay applies to the contents fade as to any implicit
    /// animation (it was ignored): delay 0.5, linear, 0.25 s default
    /// duration: during the delay the fade fills backwards (p = 0: outgoing 1,
    /// incoming 0); at 0.625, p = 0.5; the opacity action is delayed alike.
    @Test("the transaction delay applies to the contents fade")
    func delayedContentsFade() throws {
        var r = Rig(tick: 0)
        let l = settled(&r, ["bounds": [0, 0, 10, 10]])
        try r.e.setContents(layer: l, 1)
        r.tick(1)
        r.tick(2)                                   // the first fade is over
        r.e.beginTransaction()
        try r.e.setTransactionDelay(0.5)
        try r.e.setTransactionCurve(.linear)
        try r.e.setContents(layer: l, 2)
        try r.e.commitTransaction()
        func pictures() throws -> (out: Float, inc: Float) {
            var buf = [RenderItem](repeating: RenderItem(), count: 8)
            var span = buf.mutableSpan
            let n = try r.e.renderList(root: l, into: &span)
            let items = buf[0..<n]
            let o = items.first { $0.flags & RenderItem.transitionOutgoing != 0 }?.worldOpacity ?? -1
            let i = items.first { $0.flags & RenderItem.transitionIncoming != 0 }?.worldOpacity ?? -1
            return (o, i)
        }
        r.tick(2.1)
        #expect(try pictures() == (1, 0))
        r.tick(2.625)
        #expect(try pictures() == (0.5, 0.5))
    }

    @Test("UIKit-style block: delay, repeat and autoreverse apply to each change")
    func block() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(1)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.setTransactionDelay(2)
        try! r.e.setTransactionAutoreverses(true)
        try! r.e.setTransactionRepeatCount(2)
        try! r.e.set(layer: l, "position.x", [100])
        try! r.e.commitTransaction()
        r.tick(1)
        #expect(r.pres1(l, "position.x") == 0)          // the old value shows during the delay
        r.tick(2.5)
        #expect(near(r.pres1(l, "position.x"), 50))
        r.tick(3.25)
        #expect(near(r.pres1(l, "position.x"), 75))   // on the way back
        r.tick(4.5)
        #expect(near(r.pres1(l, "position.x"), 50))   // second cycle
    }

    @Test("keyframe block: values hold between windows")
    func keyframeBlock() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(4)
        try! r.e.beginKeyframe(relativeStart: 0, relativeDuration: 0.25)
        try! r.e.set(layer: l, "position.x", [100])
        try! r.e.commitTransaction()
        try! r.e.beginKeyframe(relativeStart: 0.5, relativeDuration: 0.5)
        try! r.e.set(layer: l, "position.x", [0])
        try! r.e.commitTransaction()
        try! r.e.commitTransaction()
        #expect(r.model(l, "position.x") == [0])
        r.tick(0.5)
        #expect(near(r.pres1(l, "position.x"), 50))
        r.tick(1.5)
        #expect(near(r.pres1(l, "position.x"), 100))
        r.tick(3)
        #expect(near(r.pres1(l, "position.x"), 50))
    }

    /// A transaction spring is UIKit's spring settling at the transaction's duration:
    /// a combination no representable spring satisfies is refused when it is made
    /// (found by a springs audit: the changes silently ran as basic animations).
    @Test("a transaction spring that cannot settle at the duration is refused")
    func transactionSpringMustExist() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        for (ratio, v) in [(1e-300, 0.0), (0.5, 1e300)] {
            #expect(throws: CadenceError.self, "ratio \(ratio), velocity \(v)") {
                try r.e.setTransactionSpring(dampingRatio: ratio, initialVelocity: v)
            }
        }
        try! r.e.setTransactionSpring(dampingRatio: 0.5, initialVelocity: 0)
        #expect(throws: CadenceError.self) { try r.e.setTransactionDuration(1e-300) }
        // Nothing was changed by the refusals: 0.5 over the default 0.25 s, a spring.
        try! r.e.set(layer: l, "opacity", [0.3])
        try! r.e.commitTransaction()
        let spec = try! r.e.animationSpec(try! r.e.animation(layer: l, key: "opacity"))
        #expect(spec.kind == .spring)
    }

    /// The last change of a key within one window wins, over the whole window (as
    /// the last assignment in a UIKit keyframe): x = 0 -> 200 over [0, 1] s of a 2 s
    /// linear block (found by a docs audit: the 0 -> 100 path ran and x jumped to 200
    /// at the window's end).
    @Test("keyframe block: two changes of one key in one window animate to the last")
    func keyframeBlockSameWindowTwice() {
        var r = Rig(tick: 0)
        let l = settled(&r)
        r.e.beginTransaction()
        try! r.e.setTransactionDuration(2)
        try! r.e.setTransactionCurve(.linear)
        try! r.e.beginKeyframe(relativeStart: 0, relativeDuration: 0.5)
        try! r.e.set(layer: l, "position.x", [100])
        try! r.e.set(layer: l, "position.x", [200])
        try! r.e.commitTransaction()
        try! r.e.commitTransaction()
        for (t, x) in [(0.5, 100.0), (0.9, 180), (0.99, 198), (1.0, 200), (1.5, 200)] {
            r.tick(t)
            #expect(near(r.pres1(l, "position.x"), x, 1e-9), "t = \(t): \(r.pres1(l, "position.x"))")
        }
    }
}
