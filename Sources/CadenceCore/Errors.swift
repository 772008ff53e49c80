/// Status codes of the C surface, mirrored in the core so the engine can say
/// *which* failure happened; the ABI maps them one to one onto `cad_status`.
/// Values are stable and only ever appended to.
public enum Status: Int32, Sendable, CaseIterable {
    case ok = 0
    case invalidHandle = -1
    case invalidArgument = -2
    case unknownKeyPath = -3
    case typeMismatch = -4
    case bufferTooSmall = -5
    case notFound = -6
    case invalidState = -7
    case outOfMemory = -8

    /// The C enumerator name, e.g. `CAD_ERR_INVALID_HANDLE`.
    public var name: String {
        switch self {
        case .ok: return "CAD_OK"
        case .invalidHandle: return "CAD_ERR_INVALID_HANDLE"
        case .invalidArgument: return "CAD_ERR_INVALID_ARGUMENT"
        case .unknownKeyPath: return "CAD_ERR_UNKNOWN_KEYPATH"
        case .typeMismatch: return "CAD_ERR_TYPE_MISMATCH"
        case .bufferTooSmall: return "CAD_ERR_BUFFER_TOO_SMALL"
        case .notFound: return "CAD_ERR_NOT_FOUND"
        case .invalidState: return "CAD_ERR_INVALID_STATE"
        case .outOfMemory: return "CAD_ERR_OUT_OF_MEMORY"
        }
    }
}

/// A failure of an engine call: a status and a sentence a host developer can act on.
/// Every throwing engine method leaves the engine unchanged when it throws.
public struct CadenceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Status
    public var message: String
    /// For `bufferTooSmall`: the count the caller needs.
    public var needed: Int

    public init(_ status: Status, _ message: String, needed: Int = 0) {
        self.status = status
        self.message = message
        self.needed = needed
    }

    public var description: String { "\(status.name): \(message)" }

    static func invalidArgument(_ m: String) -> CadenceError { CadenceError(.invalidArgument, m) }
    static func invalidState(_ m: String) -> CadenceError { CadenceError(.invalidState, m) }
    static func invalidHandle(_ m: String) -> CadenceError { CadenceError(.invalidHandle, m) }
    static func typeMismatch(_ m: String) -> CadenceError { CadenceError(.typeMismatch, m) }
    static func notFound(_ m: String) -> CadenceError { CadenceError(.notFound, m) }
}

/// Checks used by argument validation; each throws with the argument's name.
@inline(__always)
func requireFinite(_ x: Double, _ name: StaticString) throws(CadenceError) {
    guard x.isFinite else {
        throw .invalidArgument("\(name) must be a finite number (got \(x))")
    }
}

@inline(__always)
func requireFiniteNonNegative(_ x: Double, _ name: StaticString) throws(CadenceError) {
    guard x.isFinite, x >= 0 else {
        throw .invalidArgument("\(name) must be finite and >= 0 (got \(x))")
    }
}

/// Non-negative, and +infinity allowed (repeatCount, repeatDuration).
@inline(__always)
func requireNonNegativeOrInfinity(_ x: Double, _ name: StaticString) throws(CadenceError) {
    guard !x.isNaN, x >= 0 else {
        throw .invalidArgument("\(name) must be >= 0 or INFINITY (got \(x))")
    }
}
