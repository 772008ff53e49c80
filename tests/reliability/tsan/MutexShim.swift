// MutexShim.swift - added to Sources/CadenceABI of the ThreadSanitizer build
// only (tests/reliability/lib.sh copies it into that build's snapshot; the
// library that ships never contains it).
//
// Why: Synchronization.Mutex takes its uncontended path inline (an atomic
// compare-exchange TSan sees) but its contended path (_lockSlow/_unlockSlow,
// futex) inside the Swift runtime library, which is not instrumented. Under
// contention TSan then misses the lock's happens-before edges and reports
// false races on everything the lock protects. This type has the same name
// and the same withLock interface, so it shadows Synchronization.Mutex inside
// the CadenceABI module without any change to its sources, and is a
// pthread mutex, which TSan intercepts. Everything else is the real library.
import Glibc

struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ initialValue: consuming Value) {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        _ = value.move()
        value.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    borrowing func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
}
