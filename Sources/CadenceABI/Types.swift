// C-facing types of libcadence. scripts/gen_header.py turns every declaration
// in this file into include/cadence.h (typedefs, enums, structs, callbacks), in
// file order, with the `///` comments as documentation. Conventions the
// generator reads:
//   * `public typealias cad_x = Int32` followed by `public enum cad_x_: Int32`
//     gives `typedef enum { ... } cad_x;` (the trailing underscore marks the
//     constant list of the typedef).
//   * an enum named `cad_anonymous_...` gives an anonymous `enum { ... };`.
//   * `public struct cad_x` gives `typedef struct cad_x { ... } cad_x;`.
//   * `public typealias cad_x = @convention(c) (...)` gives a function pointer typedef.
import CadenceCore

/// Major, minor and patch version of this library; `cad_version_string()` returns "MAJOR.MINOR.PATCH".
enum CadenceVersion {
    static let major = 0
    static let minor = 1
    static let patch = 0
    static let string = "\(major).\(minor).\(patch)"
    /// Bumped whenever a signature, struct layout or constant changes incompatibly.
    static let abi: UInt32 = 1
}

/// Status of every call that can fail: `CAD_OK` (0) or a negative error.
/// `cad_last_error()` gives the words; `cad_status_name()` the enumerator name.
/// Values are stable and only ever appended.
public typealias cad_status = Int32
public enum cad_anonymous_status: Int32 {
    case CAD_OK = 0
    /// A stale (destroyed), forged, zero or foreign layer or animation handle.
    case CAD_ERR_INVALID_HANDLE = -1
    /// NaN/inf, negative count, NULL pointer, bad enum value, tree cycle, index out of range.
    case CAD_ERR_INVALID_ARGUMENT = -2
    /// The key path names no property (SEMANTICS.md §2).
    case CAD_ERR_UNKNOWN_KEYPATH = -3
    /// Wrong component count for the key path.
    case CAD_ERR_TYPE_MISMATCH = -4
    /// The caller's buffer is too small; the count needed was written to the count out-pointer.
    case CAD_ERR_BUFFER_TOO_SMALL = -5
    /// No animation for the key, or the event queue is empty.
    case CAD_ERR_NOT_FOUND = -6
    /// Read-only attached animation, from+to+by all set, unbalanced commit, wrong animation kind, no open transaction.
    case CAD_ERR_INVALID_STATE = -7
    /// The library's own limits: 2^28 - 1 layers, descriptions or attached animations in one engine. (Memory the system refuses ends the process.)
    case CAD_ERR_OUT_OF_MEMORY = -8
}

/// An engine: layers, animations, a clock and a transaction stack. Opaque.
public typealias cad_engine = OpaquePointer

/// A layer handle; 0 means none. Valid only in the engine that made it.
public typealias cad_layer = UInt64

/// An animation handle; 0 means none. Handles returned by
/// `cad_layer_animation_for_key` are read-only views of attached copies.
public typealias cad_anim = UInt64

/// Animation kinds.
public typealias cad_anim_kind = Int32
public enum cad_anim_kind_: Int32 {
    case CAD_ANIM_BASIC = 0
    case CAD_ANIM_KEYFRAME = 1
    case CAD_ANIM_SPRING = 2
    case CAD_ANIM_GROUP = 3
    case CAD_ANIM_TRANSITION = 4
}

/// Fill modes (SEMANTICS.md §3.3).
public typealias cad_fill_mode = Int32
public enum cad_fill_mode_: Int32 {
    case CAD_FILL_REMOVED = 0
    case CAD_FILL_FORWARDS = 1
    case CAD_FILL_BACKWARDS = 2
    case CAD_FILL_BOTH = 3
}

/// Named timing functions (SEMANTICS.md §4).
public typealias cad_timing_name = Int32
public enum cad_timing_name_: Int32 {
    /// (0, 0, 1, 1)
    case CAD_TIMING_LINEAR = 0
    /// (0.42, 0, 1, 1)
    case CAD_TIMING_EASE_IN = 1
    /// (0, 0, 0.58, 1)
    case CAD_TIMING_EASE_OUT = 2
    /// (0.42, 0, 0.58, 1)
    case CAD_TIMING_EASE_IN_EASE_OUT = 3
    /// (0.25, 0.1, 0.25, 1), Core Animation's curve for implicit animations.
    case CAD_TIMING_DEFAULT = 4
}

/// Keyframe calculation modes (SEMANTICS.md §7).
public typealias cad_calc_mode = Int32
public enum cad_calc_mode_: Int32 {
    case CAD_CALC_LINEAR = 0
    case CAD_CALC_DISCRETE = 1
    case CAD_CALC_PACED = 2
    case CAD_CALC_CUBIC = 3
    case CAD_CALC_CUBIC_PACED = 4
}

/// Path rotation modes: AUTO adds the path's tangent angle to `transform.rotation.z`; AUTO_REVERSE adds it plus pi.
public typealias cad_rotation_mode = Int32
public enum cad_rotation_mode_: Int32 {
    case CAD_ROTATE_NONE = 0
    case CAD_ROTATE_AUTO = 1
    case CAD_ROTATE_AUTO_REVERSE = 2
}

/// Transition types (SEMANTICS.md §8).
public typealias cad_transition_type = Int32
public enum cad_transition_type_: Int32 {
    case CAD_TRANSITION_FADE = 0
    case CAD_TRANSITION_MOVE_IN = 1
    case CAD_TRANSITION_PUSH = 2
    case CAD_TRANSITION_REVEAL = 3
    /// Cadence's own (beyond Core Animation): the layer turns half a turn about its centre axis (y for fromLeft/fromRight, x for fromTop/fromBottom) with perspective; the outgoing picture shows while p < 0.5, the incoming one after. The clip container does not mask to bounds.
    case CAD_TRANSITION_FLIP = 4
    /// Cadence's own (beyond Core Animation): the pictures are adjacent faces of a cube turning a quarter turn, with perspective; the incoming face comes from the subtype's side. A face turned away from the viewer has opacity 0 (as flip's back face), so the faces drawn never overlap. The clip container does not mask to bounds.
    case CAD_TRANSITION_CUBE = 5
}

/// The side the new content comes from (y grows downward).
public typealias cad_transition_subtype = Int32
public enum cad_transition_subtype_: Int32 {
    case CAD_FROM_LEFT = 0
    case CAD_FROM_RIGHT = 1
    case CAD_FROM_TOP = 2
    case CAD_FROM_BOTTOM = 3
}

/// Event kinds (SEMANTICS.md §11).
public typealias cad_event_kind = Int32
public enum cad_event_kind_: Int32 {
    case CAD_EVENT_START = 1
    case CAD_EVENT_STOP = 2
    case CAD_EVENT_TRANSACTION_COMPLETE = 3
}

/// Called for an animation's start and stop events on the thread that called
/// `cad_engine_tick`, with no engine lock held; it may call any function of the
/// library. `key` is valid only during the call.
public typealias cad_anim_callback = @convention(c) (_ e: OpaquePointer?, _ kind: cad_event_kind, _ layer: cad_layer, _ key: UnsafePointer<CChar>?, _ finished: Int32, _ tag: Int64, _ userdata: UnsafeMutableRawPointer?) -> Void

/// Called when a transaction completes (SEMANTICS.md §10), on the thread that
/// called `cad_engine_tick` or `cad_transaction_commit`, with no lock held.
public typealias cad_transaction_callback = @convention(c) (_ e: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) -> Void

/// One event, as `cad_engine_poll_event` returns it.
public struct cad_event {
    /// A `cad_event_kind`.
    public var kind: Int32
    /// 1 when an animation reached its end, 0 when it was removed, replaced or its layer destroyed.
    /// For a transaction completion: 1 when every animation the transaction added
    /// reached its end (or it added none), 0 when one stopped early (UIKit's `finished`).
    public var finished: Int32
    /// The animation's layer; 0 for a transaction completion.
    public var layer: cad_layer
    /// The animation's tag, or the transaction's id (`cad_transaction_id`).
    public var tag: Int64
    /// Global time at which it happened.
    public var time: Double
    /// The animation key, NUL-terminated ("" for transactions); a longer key is
    /// cut to at most 63 bytes at a character boundary (it stays UTF-8).
    public var key: CChar64
}

/// Render item flags.
public enum cad_anonymous_item_flags: Int32 {
    case CAD_ITEM_MASKS_TO_BOUNDS = 1
    case CAD_ITEM_DOUBLE_SIDED = 2
    /// Part of a transition's frozen outgoing picture.
    case CAD_ITEM_TRANSITION_OUTGOING = 4
    /// Part of a transition's live incoming picture.
    case CAD_ITEM_TRANSITION_INCOMING = 8
    /// Cadence: the invisible container of a running transition; its two pictures
    /// are its children. For fade, moveIn, push and reveal they are clipped to its
    /// bounds (it also has MASKS_TO_BOUNDS); flip and cube turn out of the layer's
    /// plane and their container does not mask. A layer hidden since the add still
    /// yields its container, with no children.
    case CAD_ITEM_TRANSITION_CLIP = 16
}

/// One drawable layer of a frame (float32, GPU-ready). World matrices use the
/// layout of SEMANTICS.md §2.2: row vectors, m11 ... m44, translation in m41..m43.
public struct cad_render_item {
    public var layer: cad_layer
    /// Index of the parent item in this list, -1 for the first item.
    public var parent: Int32
    /// CAD_ITEM_* flags.
    public var flags: Int32
    /// World transform (bounds space to root space).
    public var world: Float16Array
    /// bounds x, y, width, height.
    public var bounds: Float4Array
    /// The layer's own presentation opacity (clamped to [0, 1]).
    public var opacity: Float
    /// Product of opacities from the root down.
    public var world_opacity: Float
    /// Straight-alpha colours, clamped to [0, 1].
    public var background_color: Float4Array
    public var border_color: Float4Array
    public var shadow_color: Float4Array
    public var border_width: Float
    public var corner_radius: Float
    public var shadow_opacity: Float
    public var shadow_radius: Float
    public var shadow_offset: Float2Array
    public var contents_rect: Float4Array
    /// The host's contents id (0 = none).
    public var contents: UInt64
}

/// `cad_event *` in C (a Swift struct pointer cannot cross `@c` directly).
public typealias cad_event_ptr = UnsafeMutableRawPointer
/// `cad_render_item *` in C.
public typealias cad_render_item_ptr = UnsafeMutableRawPointer

public typealias CChar64 = (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
                            CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
public typealias Float16Array = (Float, Float, Float, Float, Float, Float, Float, Float,
                                 Float, Float, Float, Float, Float, Float, Float, Float)
public typealias Float4Array = (Float, Float, Float, Float)
public typealias Float2Array = (Float, Float)
