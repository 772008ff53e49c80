// Internal plumbing of the C layer: the engine box behind `cad_engine *`, the
// per-thread error message, and argument conversion. Nothing here is exported.
import CadenceCore
import Glibc
import Synchronization

/// What the engine lock protects.
struct EngineState: ~Copyable {
    var engine: Engine
    /// Spare storage for the lists of callbacks to run, so ticks do not
    /// allocate. A pool rather than one buffer: a call made from inside a
    /// callback (a nested tick) takes its own, and both come back afterwards.
    var spares: [[Event]] = EngineState.makePool()
    /// Callback lists being delivered, in the order their calls began. A call made
    /// from inside a callback (a nested tick or commit) first delivers what is left
    /// of the lists its thread began earlier, then its own, so callbacks keep the
    /// order in which their events happened (SEMANTICS.md §11) and a nested call
    /// still delivers everything before it returns. Lists of other threads are
    /// theirs to deliver (callbacks run on the calling thread).
    var runs: [DispatchRun] = EngineState.makeRuns()
    var nextRunID: UInt64 = 0
    /// The last key path a per-layer call looked up, by its bytes: hosts read
    /// or write one key of many layers in a row, and a hit costs a `strnlen`
    /// and a `memcmp` instead of the table's hash, probe and compare (about
    /// 250 instructions of `cad_layer_get`'s 700).
    var keyPathCache = KeyPathCache()

    static let poolLimit = 4

    static func makeRuns() -> [DispatchRun] {
        var runs: [DispatchRun] = []
        runs.reserveCapacity(poolLimit)
        return runs
    }

    /// The next callback for `thread`: the first undelivered event of the
    /// earliest list that thread began.
    mutating func nextCallback(for thread: pthread_t) -> Event? {
        for k in runs.indices where pthread_equal(runs[k].thread, thread) != 0 {
            let n = runs[k].next
            if n < runs[k].events.count {
                runs[k].next = n &+ 1
                return runs[k].events[n]
            }
        }
        return nil
    }

    /// Ends the list `id` (delivered, or the engine was destroyed): its storage
    /// goes back to the pool.
    mutating func endRun(_ id: UInt64) {
        guard let k = runs.firstIndex(where: { $0.id == id }) else { return }
        var buf = runs.remove(at: k).events
        buf.removeAll(keepingCapacity: true)
        if spares.count < EngineState.poolLimit { spares.append(buf) }
    }

    /// Spare callback lists go back to their initial reserve (a burst of
    /// callbacks leaves them at its size).
    mutating func trimSpares() {
        for k in spares.indices where spares[k].capacity > 64 {
            var fresh: [Event] = []
            fresh.reserveCapacity(64)
            spares[k] = fresh
        }
    }

    static func makePool() -> [[Event]] {
        var pool: [[Event]] = []
        pool.reserveCapacity(poolLimit)
        return pool
    }
}

/// One key path's bytes (up to 63, as the table's keys) and its target.
struct KeyPathCache {
    var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// -1: empty.
    var count = -1
    var target: KeyPathTarget? = nil

    /// The target of the NUL-terminated key path at `p` (the same as
    /// `keyPathTarget(p)`, errors included), from the cache when its bytes
    /// are the cached ones.
    @inline(__always)
    mutating func lookup(_ p: UnsafePointer<CChar>?) throws(CadenceError) -> KeyPathTarget {
        guard let p else { throw CadenceError(.invalidArgument, "keypath is NULL") }
        let n = strnlen(p, 256)
        if n == count, let t = target {
            let same = withUnsafeBytes(of: &bytes) { b -> Bool in
                guard let base = b.baseAddress, n <= b.count else { return false }
                return memcmp(base, p, n) == 0
            }
            if same { return t }
        }
        let t = try keyPathTarget(p)
        if n < 64 {
            bytes = (0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { b in
                if let base = b.baseAddress, n <= b.count { memcpy(base, p, n) }
            }
            count = n
            target = t
        }
        return t
    }
}

/// A list of callbacks being delivered by one call on one thread.
struct DispatchRun {
    var id: UInt64
    var thread: pthread_t
    var events: [Event]
    /// Index of the next event to deliver.
    var next: Int
}

/// The object behind a `cad_engine *`.
final class EngineBox: @unchecked Sendable {
    static let magicValue: UInt64 = 0xCADE_4CE0_E461_4E01
    var magic: UInt64 = EngineBox.magicValue
    let state: Mutex<EngineState>
    /// Set by cad_engine_destroy; a tick in progress stops running callbacks.
    let destroyed = Atomic<Bool>(false)

    /// The salt this engine holds in `saltPool` until it is deinitialised.
    let salt: UInt16

    init(salt: UInt16, firstGeneration: UInt32) {
        self.salt = salt
        state = Mutex(EngineState(engine: Engine(salt: salt, firstGeneration: firstGeneration)))
    }

    deinit {
        let s = salt
        saltPool.withLock { $0.release(s) }
    }

    /// The box for a host pointer; nil for NULL or a pointer that is not an engine.
    @inline(__always)
    static func from(_ e: OpaquePointer?) -> EngineBox? {
        guard let e else { return nil }
        let box = Unmanaged<EngineBox>.fromOpaque(UnsafeRawPointer(e)).takeUnretainedValue()
        guard box.magic == EngineBox.magicValue else { return nil }
        return box
    }
}

/// Engine salts: every engine stamps a 14-bit value into its ids, and no two
/// engines alive at the same time hold the same one, so a handle of one live
/// engine is never taken for a handle of another. Salts are handed out round
/// robin (a freed salt comes back only after every other free one), so a
/// destroyed engine's handles meet its salt again as late as possible; and
/// each time a salt comes back its engine's objects start at another
/// generation (`firstGeneration`), so they do not take the old handles'
/// values either.
struct SaltPool {
    static let count = 16383          // salts 1 ... 16383 (0 is never used)
    private var inUse = [Bool](repeating: false, count: SaltPool.count + 1)
    /// How many engines have held each salt.
    private var uses = [UInt32](repeating: 0, count: SaltPool.count + 1)
    /// Steps between the first generations of a salt's successive engines:
    /// coprime to 2^20 − 1, so the 2^20 − 1 engines that hold a salt one
    /// after another all start at different generations, each far from the
    /// last (about 0.58 of the range on).
    static let generationStride: UInt64 = 611_953

    /// The first generation (1 ... 2^20 − 1, the 20-bit generation field of a
    /// handle) of the engine that holds salt `s` for the
    /// `use`-th time (the first use starts at 1, as an engine made alone does).
    static func firstGeneration(use: UInt32) -> UInt32 {
        UInt32((UInt64(use) &* generationStride) % UInt64((1 << 20) - 1)) + 1
    }
    /// The last salt handed out (the first engine gets 2, as before the pool).
    private var cursor = 1

    /// A free salt and the first generation of its new engine, or nil when
    /// every salt is held by a live engine.
    mutating func acquire() -> (salt: UInt16, firstGeneration: UInt32)? {
        for step in 1...SaltPool.count {
            let s = (cursor + step - 1) % SaltPool.count + 1
            if !inUse[s] {
                inUse[s] = true
                cursor = s
                let use = uses[s]
                uses[s] = use &+ 1
                return (UInt16(s), SaltPool.firstGeneration(use: use))
            }
        }
        return nil
    }

    mutating func release(_ s: UInt16) {
        let i = Int(s)
        if i >= 1 && i <= SaltPool.count { inUse[i] = false }
    }
}

let saltPool = Mutex(SaltPool())

// MARK: - last error (per thread)

/// A per-thread, NUL-terminated message buffer (pthread TLS, freed at thread exit).
struct ErrorSlot: @unchecked Sendable {
    static let capacity = 512
    let key: pthread_key_t

    init() {
        var k = pthread_key_t()
        pthread_key_create(&k) { p in free(p) }
        key = k
    }

    /// This thread's buffer (allocated on first use; nil only if out of memory).
    @inline(__always)
    func buffer() -> UnsafeMutablePointer<CChar>? {
        if let p = pthread_getspecific(key) { return p.assumingMemoryBound(to: CChar.self) }
        guard let raw = calloc(ErrorSlot.capacity, 1) else { return nil }
        pthread_setspecific(key, raw)
        return raw.assumingMemoryBound(to: CChar.self)
    }

    func set(_ message: String) {
        set(prefix: nil, message)
    }

    /// Writes "prefix: message" without building an intermediate string, so a
    /// failure with a literal message (e.g. an empty event queue) allocates nothing.
    func set(prefix: StaticString?, _ message: String) {
        guard let b = buffer() else { return }
        var n = 0
        let limit = ErrorSlot.capacity - 1
        if let prefix {
            prefix.withUTF8Buffer { p in
                for byte in p where n < limit {
                    b[n] = CChar(bitPattern: byte)
                    n += 1
                }
            }
            for byte in ": ".utf8 where n < limit {
                b[n] = CChar(bitPattern: byte)
                n += 1
            }
        }
        var m = message
        m.withUTF8 { p in
            for byte in p where n < limit {
                b[n] = CChar(bitPattern: byte)
                n += 1
            }
        }
        b[n] = 0
    }
}

let errorSlot = ErrorSlot()

/// Static C strings handed out by the library (never freed).
struct CStrings: @unchecked Sendable {
    let empty: UnsafePointer<CChar>
    let version: UnsafePointer<CChar>
    let statusNames: [UnsafePointer<CChar>]
    let unknownStatus: UnsafePointer<CChar>

    init() {
        empty = UnsafePointer(strdup(""))
        version = UnsafePointer(strdup(CadenceVersion.string))
        statusNames = Status.allCases.map { UnsafePointer(strdup($0.name)) }
        unknownStatus = UnsafePointer(strdup("CAD_ERR_UNKNOWN"))
    }
}

let cStrings = CStrings()

// MARK: - failing

@inline(never)
func fail(_ s: Status, _ message: String) -> cad_status {
    errorSlot.set("\(s.name): \(message)")
    return s.rawValue
}

@inline(never)
func fail(_ e: CadenceError, function: StaticString) -> cad_status {
    errorSlot.set(prefix: function, e.message)
    return e.status.rawValue
}

@inline(never)
func nullEngine(_ function: StaticString) -> cad_status {
    errorSlot.set("\(function): engine is NULL (or not a cad_engine created by cad_engine_create)")
    return Status.invalidArgument.rawValue
}

/// Runs `body` with the engine locked and maps its failure to a status.
@inline(__always)
func withEngine(_ e: OpaquePointer?, _ function: StaticString,
                _ body: (inout Engine) throws(CadenceError) -> Void) -> cad_status {
    guard let e else { return nullEngine(function) }
    // The host's pointer keeps the box alive for the call (destroying an
    // engine during a call on it is a host error API.md rules out), so the
    // box is borrowed without a retain/release pair: two atomic operations
    // less on every call.
    return Unmanaged<EngineBox>.fromOpaque(UnsafeRawPointer(e))._withUnsafeGuaranteedRef { box -> cad_status in
        guard box.magic == EngineBox.magicValue else { return nullEngine(function) }
        do throws(CadenceError) {
            try box.state.withLock { (s: inout EngineState) throws(CadenceError) in try body(&s.engine) }
            return 0
        } catch {
            return fail(error, function: function)
        }
    }
}

/// `withEngine` for the calls that take a key path: the target is looked up
/// under the lock through the engine's `KeyPathCache`.
@inline(__always)
func withEngineKeyPath(_ e: OpaquePointer?, _ function: StaticString, _ keypath: UnsafePointer<CChar>?,
                       _ body: (inout Engine, KeyPathTarget) throws(CadenceError) -> Void) -> cad_status {
    guard let e else { return nullEngine(function) }
    return Unmanaged<EngineBox>.fromOpaque(UnsafeRawPointer(e))._withUnsafeGuaranteedRef { box -> cad_status in
        guard box.magic == EngineBox.magicValue else { return nullEngine(function) }
        do throws(CadenceError) {
            try box.state.withLock { (s: inout EngineState) throws(CadenceError) in
                let t = try s.keyPathCache.lookup(keypath)
                try body(&s.engine, t)
            }
            return 0
        } catch {
            return fail(error, function: function)
        }
    }
}

/// `withEngine` with the whole locked state (the engine and the C layer's
/// callback storage), for the calls that manage both.
func withEngineState(_ e: OpaquePointer?, _ function: StaticString,
                     _ body: (inout EngineState) throws(CadenceError) -> Void) -> cad_status {
    guard let box = EngineBox.from(e) else { return nullEngine(function) }
    do throws(CadenceError) {
        try box.state.withLock { (s: inout EngineState) throws(CadenceError) in try body(&s) }
        return 0
    } catch {
        return fail(error, function: function)
    }
}

/// Like `withEngine`, then runs the callbacks the call produced with no lock held
/// (after the undelivered ones of calls this thread began earlier: see
/// `EngineState.runs`).
func withEngineDispatching(_ e: OpaquePointer?, _ function: StaticString,
                           _ body: (inout Engine) throws(CadenceError) -> Void) -> cad_status {
    guard let box = EngineBox.from(e), let e else { return nullEngine(function) }
    let me = pthread_self()
    var run: UInt64? = nil
    do {
        run = try box.state.withLock { (s: inout EngineState) throws(CadenceError) -> UInt64? in
            try body(&s.engine)
            guard s.engine.hasPendingDispatch else { return nil }
            var buf = s.spares.popLast() ?? []
            s.engine.swapDispatch(&buf)
            s.nextRunID &+= 1
            s.runs.append(DispatchRun(id: s.nextRunID, thread: me, events: buf, next: 0))
            return s.nextRunID
        }
    } catch {
        return fail(error, function: function)
    }
    guard let run else { return 0 }
    while !box.destroyed.load(ordering: .acquiring) {
        guard let ev = box.state.withLock({ s in s.nextCallback(for: me) }) else { break }
        runCallback(e, ev)
    }
    box.state.withLock { s in s.endRun(run) }
    return 0
}

@inline(__always)
func runCallback(_ e: OpaquePointer, _ ev: Event) {
    let fn = ev.callback.function
    guard fn != 0, let raw = UnsafeRawPointer(bitPattern: fn) else { return }
    let userdata = UnsafeMutableRawPointer(bitPattern: ev.callback.userdata)
    if ev.kind == .transactionComplete {
        let cb = unsafeBitCast(raw, to: cad_transaction_callback.self)
        cb(e, userdata)
    } else {
        let cb = unsafeBitCast(raw, to: cad_anim_callback.self)
        ev.key.withCString { k in
            cb(e, ev.kind.rawValue, ev.layer, k, ev.finished ? 1 : 0, ev.tag, userdata)
        }
    }
}

// MARK: - arguments

/// Looks a key path up from a C string without allocating.
@inline(__always)
func keyPathTarget(_ p: UnsafePointer<CChar>?, _ name: StaticString = "keypath") throws(CadenceError) -> KeyPathTarget {
    guard let p else { throw CadenceError(.invalidArgument, "\(name) is NULL") }
    let n = strnlen(p, 256)
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: n)
    guard let t = KeyPathTarget.lookup(bytes.span) else {
        throw CadenceError(.unknownKeyPath, "unknown key path \"\(String(decoding: bytes.prefix(80), as: UTF8.self))\"")
    }
    return t
}

/// A C string argument as a Swift string: NULL and bytes that are not UTF-8
/// are CAD_ERR_INVALID_ARGUMENT (a lossy decoding would make different keys
/// one: "\xff" and "\xfe" would both be U+FFFD).
func string(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CadenceError) -> String {
    guard let p else { throw CadenceError(.invalidArgument, "\(name) is NULL") }
    guard let s = String(validatingCString: p) else {
        throw CadenceError(.invalidArgument, "\(name) is not valid UTF-8 (strings are NUL-terminated UTF-8)")
    }
    return s
}

/// `string`, with NULL as nil.
func optionalString(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CadenceError) -> String? {
    guard let p else { return nil }
    return try string(p, name)
}

/// A key path argument (NULL refused) as a Swift string; bytes that are not
/// UTF-8 decode to U+FFFD, which no key path has: CAD_ERR_UNKNOWN_KEYPATH,
/// as everywhere else a key path is read.
func keyPathArgument(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CadenceError) -> String {
    guard let p else { throw CadenceError(.invalidArgument, "\(name) is NULL") }
    return String(cString: p)
}

/// A key path argument already looked up (`keyPathTarget`), or NULL: as a
/// Swift string (a key path in the table is ASCII).
func keyPathString(_ p: UnsafePointer<CChar>?) -> String? {
    guard let p else { return nil }
    return String(cString: p)
}

@inline(__always)
/// Reads `n` doubles for a key path of `expected` components. The count is
/// checked first, so a wrong count never reads past the host's array.
/// (`keyPath`, for the message, is made only on that error: a name read
/// from the key-path table costs a string copy per call.)
func values(_ v: UnsafePointer<Double>?, _ n: Int32, expected: Int, keyPath: @autoclosure () -> String,
            _ name: StaticString = "v") throws(CadenceError) -> ValueBuffer {
    guard n >= 0 else { throw CadenceError(.invalidArgument, "\(name) count n must be >= 0 (got \(n))") }
    guard Int(n) == expected else {
        throw CadenceError(.typeMismatch, "\"\(keyPath())\" takes \(expected) component(s); got n = \(n)")
    }
    guard n == 0 || v != nil else { throw CadenceError(.invalidArgument, "\(name) is NULL but n = \(n)") }
    var b = ValueBuffer(count: Int(n))
    if let v { for k in 0..<Int(n) { b[k] = v[k] } }
    return b
}

/// Validates a reader's buffer arguments.
@inline(__always)
func checkBuffer<T>(_ out: UnsafeMutablePointer<T>?, _ cap: Int32, _ name: StaticString = "out") throws(CadenceError) {
    guard cap >= 0 else { throw CadenceError(.invalidArgument, "cap must be >= 0 (got \(cap))") }
    if cap > 0 && out == nil { throw CadenceError(.invalidArgument, "\(name) is NULL but cap = \(cap)") }
}

@inline(__always)
func requireOut<T>(_ p: UnsafeMutablePointer<T>?, _ name: StaticString = "out") throws(CadenceError) -> UnsafeMutablePointer<T> {
    guard let p else { throw CadenceError(.invalidArgument, "\(name) is NULL") }
    return p
}

/// Writes `n` components (`value(k)`) to a reader's buffer, or reports the
/// count needed.
@inline(__always)
func writeComponents(_ n: Int, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32, _ nOut: UnsafeMutablePointer<Int32>?,
                     _ value: (Int) -> Double) throws(CadenceError) {
    if Int(cap) < n {
        nOut?.pointee = Int32(n)
        // A literal message: hosts may size a read this way every frame (no allocation).
        throw CadenceError(.bufferTooSmall, "the value has more components than cap (the count needed is in *n_out)", needed: n)
    }
    if let out { for k in 0..<n { out[k] = value(k) } }
    nOut?.pointee = Int32(n)
}

/// Writes a value to a reader's buffer, or reports the count needed.
@inline(__always)
func writeValue(_ v: ValueBuffer, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32, _ nOut: UnsafeMutablePointer<Int32>?) throws(CadenceError) {
    try writeComponents(v.count, out, cap, nOut) { v[$0] }
}

/// `writeValue` for `Engine.readSmall`'s up to four components.
@inline(__always)
func writeSmall(_ v: SIMD4<Double>, _ n: Int, _ out: UnsafeMutablePointer<Double>?, _ cap: Int32,
                _ nOut: UnsafeMutablePointer<Int32>?) throws(CadenceError) {
    try writeComponents(min(n, 4), out, cap, nOut) { v[$0] }
}

@inline(__always)
func flag(_ x: Int32) -> Bool { x != 0 }

@inline(__always)
func enumValue<E: RawRepresentable>(_ x: Int32, _ type: E.Type, _ name: StaticString) throws(CadenceError) -> E where E.RawValue == Int32 {
    guard let v = E(rawValue: x) else { throw CadenceError(.invalidArgument, "\(name) \(x) is not a valid value") }
    return v
}

func timingCurve(_ name: Int32) throws(CadenceError) -> TimingCurve {
    switch name {
    case 0: return .linear
    case 1: return .easeIn
    case 2: return .easeOut
    case 3: return .easeInEaseOut
    case 4: return .default
    default: throw CadenceError(.invalidArgument, "name \(name) is not a cad_timing_name (0...4)")
    }
}

/// Largest |c1y|, |c2y| accepted: beyond it a curve's output exceeds any
/// meaningful progress and the solver's 1e-7 guarantee no longer holds.
let maxControlY = 1e6

func bezier(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) throws(CadenceError) -> TimingCurve {
    for (v, n) in [(c1x, "c1x"), (c1y, "c1y"), (c2x, "c2x"), (c2y, "c2y")] where !v.isFinite {
        throw CadenceError(.invalidArgument, "\(n) must be finite (got \(v))")
    }
    guard abs(c1y) <= maxControlY, abs(c2y) <= maxControlY else {
        throw CadenceError(.invalidArgument, "c1y and c2y must lie in [-1e6, 1e6] (got \(c1y), \(c2y))")
    }
    guard c1x >= 0, c1x <= 1, c2x >= 0, c2x <= 1, let c = TimingCurve(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y) else {
        throw CadenceError(.invalidArgument, "c1x and c2x must lie in [0, 1] (got \(c1x), \(c2x))")
    }
    return c
}
