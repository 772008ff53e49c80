// A small memo of built keyframe timelines, so that adding one keyframe
// animation to many layers builds its timeline once.
//
// A `KeyframeTrack` or `PathTimeline` is a pure function of the animation's
// keyframe inputs (values, key times, calculation mode, tension, continuity,
// bias, path) and immutable once built, so layers can share one. Building is
// the costly part of adding a keyframe animation: cubicPaced and every path
// measure arc lengths to 1e-12, about 18 µs for eight values and 75 µs for 32,
// against about 2 µs for the rest of an add. Hosts add one animation object to
// thousands of layers (a wave, a staggered entrance), so the engine remembers
// the last few timelines it built, keyed by their inputs compared bit for bit
// (so -0 and 0, which can give different results, never share an entry).
//
// The memo holds at most `capacity` entries, and only while an attached
// animation uses them: when the last instance holding a timeline is released
// (removed, replaced, finished, its layer destroyed), the entry goes too, so a
// large timeline's memory comes back as it did without the memo. So the memo
// saves the builds of one animation added to many layers while it runs on
// them, not of an animation added again after it has ended everywhere. (Builds
// made only to validate, by cad_layer_set_action, or by an add that then
// failed, are dropped at the next release or cad_anim_destroy.) A new entry
// replaces one no instance holds, else the oldest.

struct TimelineMemo {
    static let capacity = 4

    /// The inputs a values track is built from (after the engine's mode
    /// adjustment for whole matrices).
    struct TrackKey {
        var values: [Double]
        var components: Int
        var keyTimes: [Double]?
        var mode: CalculationMode
        var tension: [Double]?
        var continuity: [Double]?
        var bias: [Double]?
        /// Whole-matrix values: the entry also holds each key's decomposition.
        var matrix: Bool

        func same(_ o: TrackKey) -> Bool {
            components == o.components && mode == o.mode && matrix == o.matrix
                && values.count == o.values.count
                && TimelineMemo.same(keyTimes, o.keyTimes) && TimelineMemo.same(tension, o.tension)
                && TimelineMemo.same(continuity, o.continuity) && TimelineMemo.same(bias, o.bias)
                && TimelineMemo.same(values, o.values)
        }
    }

    struct PathKey {
        var elements: [PathElement]
        var mode: CalculationMode
        var keyTimes: [Double]?

        func same(_ o: PathKey) -> Bool {
            mode == o.mode && elements.count == o.elements.count
                && TimelineMemo.same(keyTimes, o.keyTimes) && TimelineMemo.same(elements, o.elements)
        }
    }

    enum Key {
        case track(TrackKey)
        case path(PathKey)
    }

    struct Entry {
        var key: Key
        /// A values track (and, for whole matrices, each key's decomposition)...
        var track: KeyframeTrack?
        var decomposed: [DecomposedTransform?] = []
        /// ... or a path timeline.
        var path: PathTimeline?
    }

    private(set) var entries: [Entry] = []
    private var next = 0
    /// Builds avoided (for tests).
    private(set) var hits = 0

    /// The track built from `key`, from the memo or by `build` (a throwing
    /// build stores nothing).
    mutating func track<E: Error>(
        _ key: TrackKey, build: () throws(E) -> (KeyframeTrack, [DecomposedTransform?])
    ) throws(E) -> (KeyframeTrack, [DecomposedTransform?]) {
        for e in entries {
            if case let .track(k) = e.key, let t = e.track, k.same(key) {
                hits &+= 1
                return (t, e.decomposed)
            }
        }
        let (t, d) = try build()
        insert(Entry(key: .track(key), track: t, decomposed: d, path: nil))
        return (t, d)
    }

    mutating func path<E: Error>(_ key: PathKey, build: () throws(E) -> PathTimeline) throws(E) -> PathTimeline {
        for e in entries {
            if case let .path(k) = e.key, let p = e.path, k.same(key) {
                hits &+= 1
                return p
            }
        }
        let p = try build()
        insert(Entry(key: .path(key), track: nil, path: p))
        return p
    }

    private mutating func insert(_ e: Entry) {
        if entries.count < TimelineMemo.capacity {
            entries.append(e)
            return
        }
        if let i = firstUnused() {
            entries[i] = e
            return
        }
        entries[next] = e
        next = (next &+ 1) % TimelineMemo.capacity
    }

    /// Drops the entries whose timeline only the memo holds.
    mutating func dropUnused() {
        while let i = firstUnused() {
            entries.remove(at: i)
        }
        next = 0
    }

    private mutating func firstUnused() -> Int? {
        for i in entries.indices {
            if entries[i].track != nil ? isKnownUniquelyReferenced(&entries[i].track)
                : isKnownUniquelyReferenced(&entries[i].path) {
                return i
            }
        }
        return nil
    }

    // Bit-for-bit comparisons.

    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where a[i].bitPattern != b[i].bitPattern { return false }
        return true
    }

    static func same(_ a: [Double]?, _ b: [Double]?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?): return same(x, y)
        default: return false
        }
    }

    static func same(_ a: [PathElement], _ b: [PathElement]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where !same(a[i], b[i]) { return false }
        return true
    }

    static func same(_ a: PathElement, _ b: PathElement) -> Bool {
        func s(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern }
        switch (a, b) {
        case let (.move(x1, y1), .move(x2, y2)), let (.line(x1, y1), .line(x2, y2)):
            return s(x1, x2) && s(y1, y2)
        case let (.quad(a1, b1, c1, d1), .quad(a2, b2, c2, d2)):
            return s(a1, a2) && s(b1, b2) && s(c1, c2) && s(d1, d2)
        case let (.cubic(a1, b1, c1, d1, e1, f1), .cubic(a2, b2, c2, d2, e2, f2)):
            return s(a1, a2) && s(b1, b2) && s(c1, c2) && s(d1, d2) && s(e1, e2) && s(f1, f2)
        case (.close, .close):
            return true
        default:
            return false
        }
    }
}
