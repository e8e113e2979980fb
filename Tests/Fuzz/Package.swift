// swift-tools-version: 6.1
import PackageDescription

/// A libFuzzer target over the translator, a package of its own so that only it is built with
/// `-sanitize=fuzzer,address` (see README.md here). `Sources/PushModel` and `Sources/PushTranslation` are
/// symbolic links to the repository's own targets: the fuzzer translates with the real code, and this
/// package needs none of the worker's dependencies.
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "PushgateFuzz",
    targets: [
        .target(name: "PushModel", swiftSettings: swiftSettings),
        .target(name: "PushTranslation", dependencies: ["PushModel"], swiftSettings: swiftSettings),
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "TranslatorFuzzer", dependencies: ["CLibFuzzer", "PushTranslation", "PushModel"],
            swiftSettings: swiftSettings),
    ]
)
