// swift-tools-version: 6.1
import PackageDescription

/// pushgate's benchmarks, a package of their own so that the shipped package does not depend on the
/// benchmark library: `make bench` runs them, `make bench-check` (part of `make test`) checks the
/// translation benchmarks' allocation counts against `Thresholds/` (docs/performance.md).
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "pushgate-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "pushgate", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        // The payload mix, the benchmarks' input records and the tokenizer pass: shared by both benchmarks.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "PushTranslation", package: "pushgate"),
                .product(name: "PushModel", package: "pushgate"),
            ],
            swiftSettings: swiftSettings
        ),
        // Child processes of a benchmark (the broker, the contenders, the console): CPU time and memory from /proc.
        .target(name: "BenchProcess", swiftSettings: swiftSettings),
        // Translation: per payload kind and the mix, with the tokenizer pass over the same bytes.
        .executableTarget(
            name: "TranslateBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PushTranslation", package: "pushgate"),
                .product(name: "PushModel", package: "pushgate"),
            ],
            path: "Benchmarks/TranslateBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The device directory of `pushgate deliver` at 1,000,000 devices: load time and peak resident memory.
        .executableTarget(
            name: "DirectoryBenchmarks",
            dependencies: [
                "DirectoryRecords",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PushDelivery", package: "pushgate"),
            ],
            path: "Benchmarks/DirectoryBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The directory records of both directory benchmarks.
        .target(name: "DirectoryRecords", swiftSettings: swiftSettings),
        // The directory at a million devices for real: the records on `pushgate broker`, `pushgate deliver` timed
        // until its /ready answers 200, its CPU time and resident memory.
        .executableTarget(
            name: "directory-load",
            dependencies: [
                "BenchProcess",
                "DirectoryRecords",
                .product(name: "PushgateKafka", package: "pushgate"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/DirectoryLoad",
            swiftSettings: swiftSettings
        ),
        // Translation alone in a loop, for counting its instructions with callgrind (`make bench-instructions`).
        .executableTarget(
            name: "translate-loop",
            dependencies: [
                "BenchSupport",
                .product(name: "PushTranslation", package: "pushgate"),
                .product(name: "PushModel", package: "pushgate"),
            ],
            path: "Sources/TranslateLoop",
            swiftSettings: swiftSettings
        ),
        // The pipeline: `pushgate run` against librdkafka-c through one broker process.
        .executableTarget(
            name: "pipeline-benchmark",
            dependencies: [
                "BenchProcess",
                "BenchSupport",
                .product(name: "PushgateKafka", package: "pushgate"),
                .product(name: "PushTranslation", package: "pushgate"),
                .product(name: "PushModel", package: "pushgate"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/PipelineBenchmark",
            swiftSettings: swiftSettings
        ),
        // The console at scale: `pushgate console` over a dead-letter topic filled with N letters.
        .executableTarget(
            name: "console-benchmark",
            dependencies: [
                "BenchProcess",
                .product(name: "PushgateKafka", package: "pushgate"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/ConsoleBenchmark",
            swiftSettings: swiftSettings
        ),
        // Delivery: `pushgate deliver` against nginx (HTTP/2, TLS), a Python peer and h2load.
        .executableTarget(
            name: "delivery-benchmark",
            dependencies: [
                "BenchProcess",
                .product(name: "PushgateKafka", package: "pushgate"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/DeliveryBenchmark",
            swiftSettings: swiftSettings
        ),
        // The transport's own price of pushgate's job: a C program straight on librdkafka.
        .executableTarget(
            name: "librdkafka-c",
            path: "Sources/librdkafka-c",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("rdkafka")]
        ),
    ]
)
