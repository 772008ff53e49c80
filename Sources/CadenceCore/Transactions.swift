/// One open explicit transaction (SEMANTICS.md §10), with Cadence's UIKit-style
/// extensions. nil fields inherit from the enclosing transaction.
struct TxLevel {
    var record: Int32 = -1
    var duration: Double?
    var curve: TimingCurve?
    var disableActions: Bool?
    // UIKit-style block settings (Cadence extensions)
    var delay: Double?
    var repeatCount: Double?
    var autoreverses: Bool?
    var springDampingRatio: Double?
    var springVelocity: Double = 0
    /// For a keyframe window: relative start and duration within the enclosing block.
    var keyframeWindow: (start: Double, duration: Double)?
}

/// Completion bookkeeping of a transaction: how many of its animations are still running.
struct TxRecord {
    var id: Int64 = 0
    var parent: Int32 = -1
    var outstanding = 0
    var committed = false
    var callback = HostCallback()
    var alive = false
    /// Whether it (or a transaction nested in it) added an animation.
    var added = false
    /// The latest stop time of its animations so far (its completion time is
    /// the stop of the last one, whatever order one tick reports them in).
    var lastStop = -Double.infinity
    /// One of its animations stopped before its end (removed, replaced, its
    /// layer destroyed): the completion reports finished = 0, as UIKit's does.
    var interrupted = false
}

/// A change recorded inside a keyframe window, compiled into a keyframe
/// animation when the enclosing block commits.
struct KeyframeBlockEntry {
    var layer: Int32
    var generation: UInt32
    var target: KeyPathTarget
    var key: String
    var initial: ValueBuffer
    var stops: [(start: Double, duration: Double, value: ValueBuffer)]
    /// Stack index of the transaction that encloses the windows.
    var blockLevel: Int
}

/// An animation awaiting the outermost commit: its slot and the slot's
/// generation when it was added (a removed animation's entry stays in the
/// list; the generation tells it from a later animation in the same slot).
struct AwaitingEntry {
    var slot: Int32
    var generation: UInt32
}

struct KeyframeEntryKey: Hashable {
    var block: Int
    var layer: Int32
    var key: String
}

struct TransactionState {
    var stack: [TxLevel] = []
    var records: [TxRecord] = []
    var freeRecords: [Int32] = []
    var nextID: Int64 = 1
    /// Instances added while a transaction is open, with their generation at
    /// the add; they begin at the outermost commit, in this order.
    var awaiting: [AwaitingEntry] = []
    /// Entries of `awaiting` still awaiting (an animation removed before the
    /// commit leaves its entry, which the commit skips: removing it from the
    /// list cost O(pending) per removal).
    var awaitingLive = 0
    /// Keyframe-block changes, per open block level (index into `stack`).
    var keyframeEntries: [KeyframeBlockEntry] = []
    /// Where the entry of a (block, layer, key) is in `keyframeEntries`: a
    /// change looks its entry up here (a search of the list made changing n
    /// layers in one window cost O(n²)).
    var keyframeIndex: [KeyframeEntryKey: Int] = [:]

    /// Rebuilds `keyframeIndex` after entries were removed.
    mutating func reindexKeyframeEntries() {
        keyframeIndex.removeAll(keepingCapacity: true)
        for (k, e) in keyframeEntries.enumerated() {
            keyframeIndex[KeyframeEntryKey(block: e.blockLevel, layer: e.layer, key: e.key)] = k
        }
    }

    @inline(__always)
    func inherited<T>(_ f: (TxLevel) -> T?) -> T? {
        var k = stack.count - 1
        while k >= 0 {
            if let v = f(stack[k]) { return v }
            k -= 1
        }
        return nil
    }

    /// Effective duration for implicit animations (0.25 outside transactions).
    var duration: Double { inherited { $0.duration } ?? 0.25 }
    var curve: TimingCurve? { inherited { $0.curve } }
    var disableActions: Bool { inherited { $0.disableActions } ?? false }
    var delay: Double { inherited { $0.delay } ?? 0 }
    var repeatCount: Double? { inherited { $0.repeatCount } }
    var autoreverses: Bool? { inherited { $0.autoreverses } }
    var spring: (ratio: Double, velocity: Double)? {
        var k = stack.count - 1
        while k >= 0 {
            if let r = stack[k].springDampingRatio { return (r, stack[k].springVelocity) }
            k -= 1
        }
        return nil
    }
    /// Innermost keyframe window, if any.
    var keyframeWindow: (start: Double, duration: Double)? { inherited { $0.keyframeWindow } }

    var currentID: Int64 {
        guard let top = stack.last, top.record >= 0 else { return 0 }
        return records[Int(top.record)].id
    }
}

extension Engine {
    // MARK: explicit transactions

    public var transactionDepth: Int { tx.stack.count }
    public var currentTransactionID: Int64 { tx.currentID }

    public func beginTransaction() {
        let r: Int
        if let f = tx.freeRecords.popLast() { r = Int(f) } else { tx.records.append(TxRecord()); r = tx.records.count - 1 }
        let parent: Int32 = tx.stack.last?.record ?? -1
        tx.records[r] = TxRecord(id: tx.nextID, parent: parent, outstanding: 0, committed: false, callback: HostCallback(),
                                 alive: true, added: false, lastStop: -.infinity)
        tx.nextID += 1
        var level = TxLevel()
        level.record = Int32(r)
        tx.stack.append(level)
    }

    /// Commits the innermost transaction; at the outermost commit every change
    /// made inside begins at the engine's current time.
    public func commitTransaction() throws(CadenceError) {
        guard let level = tx.stack.last else {
            throw .invalidState("commit without a matching cad_transaction_begin")
        }
        let levelIndex = tx.stack.count - 1
        tx.stack.removeLast()
        if level.keyframeWindow == nil, tx.keyframeEntries.contains(where: { $0.blockLevel == levelIndex }) {
            compileKeyframeBlock(level, index: levelIndex)
        }
        if tx.stack.isEmpty {
            let pending = tx.awaiting
            tx.awaiting.removeAll(keepingCapacity: true)
            tx.awaitingLive = 0
            for x in pending {
                let i = Int(x.slot)
                guard isAwaiting(x) else { continue }
                inst.items[i].awaitingCommit = false
                let l = Int(inst.items[i].layer)
                if inst.items[i].beginAtCommit {
                    inst.items[i].beginAtCommit = false
                    inst.items[i].timing.beginTime = localTime(l, global: now) + beginDelay(i)
                    inst.specs[i]?.timing.beginTime = inst.items[i].timing.beginTime
                    if beginDelay(i) == 0 { inst.beginGlobal[i] = now }
                }
                updateMembership(l)
                markPresDirty(l)
            }
        }
        let r = Int(level.record)
        if r >= 0 {
            tx.records[r].committed = true
            if tx.records[r].outstanding == 0 {
                // Nothing added: complete at once. Everything added already
                // stopped (removed or replaced before this commit): complete with
                // those stops, which are delivered at the next tick, after them.
                let added = tx.records[r].added
                completeTransaction(r, time: added ? max(tx.records[r].lastStop, now) : now, immediate: !added)
            }
        }
    }

    func beginDelay(_ i: Int) -> Double { inst.items[i].beginDelay }

    /// The entry's animation is still there and awaiting the commit (not
    /// removed since, and not a later animation in the same slot).
    @inline(__always)
    func isAwaiting(_ x: AwaitingEntry) -> Bool {
        let i = Int(x.slot)
        return i >= 0 && i < inst.items.count && inst.items[i].alive && inst.items[i].awaitingCommit
            && inst.items[i].generation == x.generation
    }

    /// Builds one keyframe animation per (layer, key) changed in the windows of a
    /// keyframe block (values held between windows), and attaches them.
    func compileKeyframeBlock(_ level: TxLevel, index: Int) {
        let entries = tx.keyframeEntries.filter { $0.blockLevel == index }
        tx.keyframeEntries.removeAll { $0.blockLevel == index }
        tx.reindexKeyframeEntries()
        let duration = level.duration ?? tx.duration
        let curve = level.curve ?? tx.curve
        let delay = level.delay ?? tx.delay
        for e in entries {
            let l = Int(e.layer)
            guard l < layers.count, layers[l].alive, layers[l].generation == e.generation else { continue }
            let stops = e.stops.enumerated().sorted { a, b in
                a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset
            }.map(\.element)
            var times: [Double] = [0]
            var vals: [ValueBuffer] = [e.initial]
            var cur = e.initial
            for s in stops {
                let last = times[times.count - 1]
                if s.start > last {
                    times.append(s.start)
                    vals.append(cur)
                }
                times.append(max(s.start + s.duration, times[times.count - 1]))
                vals.append(s.value)
                cur = s.value
            }
            if times[times.count - 1] < 1 {
                times.append(1)
                vals.append(cur)
            }
            times[times.count - 1] = 1
            var spec = AnimationSpec(kind: .keyframe, target: e.target)
            let n = e.target.components
            var flat: [Double] = []
            flat.reserveCapacity(vals.count * n)
            for v in vals { for k in 0..<n { flat.append(v[k]) } }
            try? spec.setValues(flat, count: vals.count, components: n)
            try? spec.setKeyTimes(times)
            spec.timing.duration = duration > 0 ? duration : 0.25
            if let c = curve { spec.setTimingCurve(c) }
            if let r = level.repeatCount ?? tx.repeatCount { spec.timing.repeatCount = r }
            if let a = level.autoreverses ?? tx.autoreverses { spec.timing.autoreverses = a }
            if let i = try? attach(layer: l, spec: spec, key: e.key, captured: nil, defaultDuration: duration,
                                   delay: delay, register: false), level.record >= 0 {
                // Count it toward the block's transaction (already popped from the stack).
                inst.items[i].tx = level.record
                var r = Int(level.record)
                while r >= 0 {
                    tx.records[r].outstanding += 1
                    r = Int(tx.records[r].parent)
                }
            }
        }
    }

    /// Records a change made inside a keyframe window.
    func recordKeyframeChange(_ l: Int, _ t: KeyPathTarget, key: String, captured: ValueBuffer, value: ValueBuffer) {
        guard let w = tx.keyframeWindow else { return }
        var block = tx.stack.count - 1
        while block >= 0 && tx.stack[block].keyframeWindow != nil { block -= 1 }
        let entryKey = KeyframeEntryKey(block: block, layer: Int32(l), key: key)
        if let k = tx.keyframeIndex[entryKey], k < tx.keyframeEntries.count {
            // A second change of the key in the same window replaces the first:
            // the window animates to the last value set (not to the first and then
            // jumping to the last at its end).
            if let last = tx.keyframeEntries[k].stops.last, last.start == w.start, last.duration == w.duration {
                tx.keyframeEntries[k].stops[tx.keyframeEntries[k].stops.count - 1].value = value
                return
            }
            tx.keyframeEntries[k].stops.append((w.start, w.duration, value))
        } else {
            tx.keyframeIndex[entryKey] = tx.keyframeEntries.count
            tx.keyframeEntries.append(KeyframeBlockEntry(layer: Int32(l), generation: layers[l].generation, target: t, key: key,
                                                         initial: captured, stops: [(w.start, w.duration, value)], blockLevel: block))
        }
    }

    func requireOpenTransaction(_ what: StaticString) throws(CadenceError) -> Int {
        guard !tx.stack.isEmpty else {
            // (`what` names the setting, not a C function: several calls share one setter.)
            throw .invalidState("\(what) needs an open transaction (call cad_transaction_begin first)")
        }
        return tx.stack.count - 1
    }

    public func setTransactionDuration(_ d: Double) throws(CadenceError) {
        try requireFiniteNonNegative(d, "duration")
        let k = try requireOpenTransaction("the transaction duration")
        if let s = tx.spring { try Engine.requireTransactionSpring(duration: d, s.ratio, s.velocity) }
        tx.stack[k].duration = d
    }

    /// The transaction spring is built from the duration when a value is set (UIKit's
    /// spring settling at the block's duration): a combination no representable
    /// spring satisfies is refused when it is made (duration or spring set), instead
    /// of the changes silently animating as basic animations.
    static func requireTransactionSpring(duration d: Double, _ ratio: Double, _ velocity: Double) throws(CadenceError) {
        let duration = d > 0 ? d : 0.25
        guard Spring.uikit(duration: duration, dampingRatio: ratio, initialVelocity: velocity) != nil else {
            throw .invalidArgument("no representable spring settles in \(duration) s with damping ratio \(ratio) and initial velocity \(velocity)")
        }
    }

    public func setTransactionCurve(_ c: TimingCurve) throws(CadenceError) {
        let k = try requireOpenTransaction("the transaction timing function")
        tx.stack[k].curve = c
    }

    public func setTransactionDisableActions(_ on: Bool) throws(CadenceError) {
        let k = try requireOpenTransaction("disabling actions")
        tx.stack[k].disableActions = on
    }

    public func setTransactionCompletion(_ cb: HostCallback) throws(CadenceError) {
        let k = try requireOpenTransaction("a transaction completion")
        let r = Int(tx.stack[k].record)
        tx.records[r].callback = cb
    }

    public func setTransactionDelay(_ d: Double) throws(CadenceError) {
        try requireFiniteNonNegative(d, "delay")
        let k = try requireOpenTransaction("the transaction delay")
        tx.stack[k].delay = d
    }

    public func setTransactionRepeatCount(_ n: Double) throws(CadenceError) {
        try requireNonNegativeOrInfinity(n, "repeat_count")
        let k = try requireOpenTransaction("the transaction repeat count")
        tx.stack[k].repeatCount = n
    }

    public func setTransactionAutoreverses(_ on: Bool) throws(CadenceError) {
        let k = try requireOpenTransaction("the transaction autoreverses flag")
        tx.stack[k].autoreverses = on
    }

    public func setTransactionSpring(dampingRatio: Double, initialVelocity: Double) throws(CadenceError) {
        guard dampingRatio.isFinite, dampingRatio > 0, dampingRatio <= 1 else {
            throw .invalidArgument("damping_ratio must lie in (0, 1] (got \(dampingRatio))")
        }
        try requireFinite(initialVelocity, "initial_velocity")
        let k = try requireOpenTransaction("the transaction spring")
        try Engine.requireTransactionSpring(duration: tx.duration, dampingRatio, initialVelocity)
        tx.stack[k].springDampingRatio = dampingRatio
        tx.stack[k].springVelocity = initialVelocity
    }

    /// Opens a keyframe window inside the current transaction (UIKit's
    /// addKeyframe(withRelativeStartTime:relativeDuration:)). Close it with commit.
    public func beginKeyframe(relativeStart s: Double, relativeDuration d: Double) throws(CadenceError) {
        guard s.isFinite, d.isFinite, s >= 0, d >= 0, s + d <= 1 + 1e-12 else {
            throw .invalidArgument("relative start and duration must be >= 0 with start + duration <= 1 (got \(s), \(d))")
        }
        _ = try requireOpenTransaction("a keyframe window")
        guard tx.keyframeWindow == nil else {
            throw .invalidState("keyframe windows do not nest; commit the current window first")
        }
        beginTransaction()
        tx.stack[tx.stack.count - 1].keyframeWindow = (min(s, 1), max(0, min(d, 1 - s)))
    }

    // MARK: completion tracking

    func registerWithTransaction(_ i: Int) {
        guard let top = tx.stack.last, top.record >= 0 else { return }
        inst.items[i].tx = top.record
        var r = Int(top.record)
        while r >= 0 {
            tx.records[r].outstanding += 1
            tx.records[r].added = true
            r = Int(tx.records[r].parent)
        }
    }

    /// An attached animation stopped: count it off its transactions.
    /// `finished` false: it stopped early, and its transactions complete with
    /// finished = 0.
    func instanceStopped(_ i: Int, time: Double, finished: Bool) {
        let r0 = inst.items[i].tx
        guard r0 >= 0 else { return }
        inst.items[i].tx = -1
        var r = Int(r0)
        while r >= 0 {
            let parent = Int(tx.records[r].parent)
            tx.records[r].outstanding -= 1
            tx.records[r].lastStop = max(tx.records[r].lastStop, time)
            if !finished { tx.records[r].interrupted = true }
            if tx.records[r].outstanding == 0 && tx.records[r].committed {
                completeTransaction(r, time: tx.records[r].lastStop, immediate: false)
            }
            r = parent
        }
    }

    /// Reports a transaction's completion (poll queue and its callback) and frees its record.
    func completeTransaction(_ r: Int, time: Double, immediate: Bool) {
        guard tx.records[r].alive else { return }
        sequence &+= 1
        let e = Event(kind: .transactionComplete, finished: !tx.records[r].interrupted, layer: 0, tag: tx.records[r].id, time: time,
                      key: "", callback: tx.records[r].callback, layerSeq: UInt64.max, animSeq: UInt64.max, seq: sequence)
        if immediate {
            // A transaction that added nothing completes at its commit, delivered at once.
            events.deliverOne(e)
        } else {
            events.pending.insert(e)
        }
        tx.records[r].alive = false
        tx.freeRecords.append(Int32(r))
    }

    // MARK: action specs

    /// The default action (§10): a basic animation with neither from nor to,
    /// the transaction's duration and timing function (or the `default` curve).
    @inline(__always)  // (out of line, returning the spec copied it)
    func defaultActionSpec(_ t: KeyPathTarget) -> AnimationSpec {
        let springParameters = tx.spring.flatMap { s in
            Spring.uikit(duration: tx.duration > 0 ? tx.duration : 0.25, dampingRatio: s.ratio, initialVelocity: s.velocity)
        }
        var spec = AnimationSpec(kind: springParameters != nil ? .spring : .basic, target: t)
        if let sp = springParameters { spec.setSpringUnchecked(sp) }
        applyTransactionDefaults(&spec)
        return spec
    }

    /// Fills what a set action does not specify from the current transaction.
    func applyTransactionDefaults(_ spec: inout AnimationSpec) {
        if spec.timing.duration == 0 { spec.timing.duration = tx.duration > 0 ? tx.duration : 0.25 }
        if spec.timingCurve == nil && spec.kind != .spring { spec.setTimingCurve(tx.curve ?? .default) }
        if let n = tx.repeatCount, spec.timing.repeatCount == 0 { spec.timing.repeatCount = n }
        if let a = tx.autoreverses, !spec.timing.autoreverses { spec.timing.autoreverses = a }
        // UIKit shows the old value during a block's delay.
        if tx.delay > 0 && spec.timing.fillMode == .removed { spec.timing.fillMode = .backwards }
    }
}

extension EventQueue {
    /// Delivers one event at once (poll queue and dispatch list).
    mutating func deliverOne(_ e: Event) {
        if capacity == 0 {
            dropped &+= 1
        } else {
            if poll.count >= capacity {
                poll.removeFirst()
                dropped &+= 1
            }
            poll.append(e)
        }
        if e.callback.isSet { dispatch.append(e) }
    }
}
