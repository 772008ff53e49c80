// swift-tools-version:6.1
import PackageDescription

/// The exported symbols of libcadence.so: `cad_*` only (see Sources/CadenceABI/cadence.map).
let versionScript = Context.packageDirectory + "/Sources/CadenceABI/cadence.map"

/// DT_SONAME: libcadence.so.<CAD_ABI_VERSION>. The number changes only when the C ABI
/// breaks (the package version is read at run time with cad_version). The one place
/// this name is written: scripts/check_abi.py checks it against include/cadence.h, and
/// the scripts read it back from the built library (scripts/link_soname.sh).
/// Without it the linker also names the version script's base definition after the
/// output's absolute path.
let soname = "libcadence.so.1"

let package = Package(
    name: "Cadence",
    products: [
        // libcadence.so: the C ABI, with the Swift runtime linked in statically.
        .library(name: "cadence", type: .dynamic, targets: ["CadenceABI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The engine in pure Swift: no C types, no unsafe pointers, no handles.
        .target(
            name: "CadenceCore",
            dependencies: [
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: [
                // The engine is serialised by its owner (the C layer's lock); dynamic
                // exclusivity checks on its class properties cost more than the work
                // of the frame loop. Static checks still apply.
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]
        ),
        // `@c` exports only: validate, convert, call the core, map errors.
        .target(
            name: "CadenceABI",
            dependencies: ["CadenceCore"],
            exclude: ["cadence.map"],
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-Xlinker", "-soname=\(soname)",
                              "-Xlinker", "--version-script=\(versionScript)", "-Xlinker", "--gc-sections"]),
            ]
        ),
        .testTarget(name: "CadenceCoreTests", dependencies: ["CadenceCore"]),
    ],
    swiftLanguageModes: [.v6]
)
