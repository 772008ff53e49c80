import DequeModule
import HeapModule

public enum EventKind: Int32, Sendable {
    case start = 1, stop = 2, transactionComplete = 3
}

/// An animation or transaction event (SEMANTICS.md §11).
public struct Event: Sendable, Comparable {
    public var kind: EventKind
    public var finished: Bool
    /// Layer id (0 for a transaction completion).
    public var layer: UInt64
    /// The animation's tag, or the transaction's id.
    public var tag: Int64
    /// Global time at which it happened.
    public var time: Double
    public var key: String
    /// The host callback to run for this event (animation or transaction completion).
    public var callback: HostCallback
    // Ordering: time, then layer creation order, then animation add order, then
    // the order in which the engine produced it.
    var layerSeq: UInt64
    var animSeq: UInt64
    var seq: UInt64

    public static func < (a: Event, b: Event) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.layerSeq != b.layerSeq { return a.layerSeq < b.layerSeq }
        if a.animSeq != b.animSeq { return a.animSeq < b.animSeq }
        return a.seq < b.seq
    }

    public static func == (a: Event, b: Event) -> Bool {
        a.time == b.time && a.layerSeq == b.layerSeq && a.animSeq == b.animSeq && a.seq == b.seq
    }
}

/// Pending events (sorted at delivery), the bounded poll queue and the list of
/// callbacks to run once the engine lock is released.
struct EventQueue {
    var pending = Heap<Event>()
    var poll = Deque<Event>()
    /// Poll queue capacity; the oldest event is dropped (and counted) when full.
    var capacity = 4096
    var dropped: UInt64 = 0
    var dispatch: [Event] = []

    static let maxCapacity = 1 << 24

    mutating func reserve() {
        poll.reserveCapacity(capacity)
        pending.reserveCapacity(64)
        dispatch.reserveCapacity(64)
    }

    /// Moves every pending event, in order, to the poll queue and the dispatch list.
    mutating func deliver() {
        while let e = pending.popMin() {
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

    /// Sets the poll capacity, dropping (and counting) the oldest events over
    /// it, and returns storage kept from earlier bursts: the queue is
    /// reallocated at its new reserve, and the pending and dispatch lists, empty
    /// between calls, go back to their initial reserve. (The frame loop keeps
    /// what it grew to, so that it does not allocate; this call is the host's
    /// way to release a burst's peak.)
    mutating func setCapacity(_ n: Int) {
        capacity = n
        while poll.count > capacity {
            poll.removeFirst()
            dropped &+= 1
        }
        var q = Deque<Event>()
        q.reserveCapacity(max(min(n, 1 << 16), poll.count))
        q.append(contentsOf: poll)
        poll = q
        if pending.isEmpty {
            pending = Heap<Event>()
            pending.reserveCapacity(64)
        }
        if dispatch.isEmpty {
            dispatch = []
            dispatch.reserveCapacity(64)
        }
    }
}

extension Engine {
    /// Takes the next polled event (CAD_ERR_NOT_FOUND when empty).
    public func pollEvent() throws(CadenceError) -> Event {
        guard let e = events.poll.popFirst() else { throw .notFound("no event is queued") }
        return e
    }

    public var queuedEventCount: Int { events.poll.count }
    /// True when callbacks are waiting to run (see `swapDispatch`).
    public var hasPendingDispatch: Bool { !events.dispatch.isEmpty }
    public var droppedEventCount: UInt64 { events.dropped }

    public func setEventCapacity(_ n: Int) throws(CadenceError) {
        guard n >= 0, n <= EventQueue.maxCapacity else {
            throw .invalidArgument("capacity must be in 0...\(EventQueue.maxCapacity) (got \(n))")
        }
        events.setCapacity(n)
    }

    /// Exchanges the list of events whose callbacks must run with `other`
    /// (the C layer runs them after releasing the engine lock).
    public func swapDispatch(_ other: inout [Event]) {
        swap(&events.dispatch, &other)
    }

    func emit(_ kind: EventKind, finished: Bool, instance i: Int, layer l: Int, time: Double) {
        sequence &+= 1
        let it = inst.items[i]
        events.pending.insert(Event(kind: kind, finished: finished, layer: layerID(l), tag: inst.tags[i],
                                    time: time, key: inst.keys[i], callback: inst.callbacks[i],
                                    layerSeq: layerCold[l].creationSeq, animSeq: it.addSeq, seq: sequence))
    }
}
