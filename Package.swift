// swift-tools-version: 6.1
import PackageDescription

/// One set of Swift settings shared by every target. Tools version 6.1 means Swift 6 language mode
/// (strict concurrency) everywhere.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let package = Package(
    name: "pushgate",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .executable(name: "pushgate", targets: ["pushgate"]),
        .library(name: "PushTranslation", targets: ["PushTranslation"]),
        .library(name: "PushModel", targets: ["PushModel"]),
        .library(name: "PushgateKafka", targets: ["PushgateKafka"]),
        .library(name: "PushDelivery", targets: ["PushDelivery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        // gzip for the OTLP exporter's requests (OTEL_EXPORTER_OTLP_COMPRESSION).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
        // The attribute names only (no `Tracing` trait); the messaging conventions are experimental there,
        // which that package asks to pin to one minor version.
        .package(
            url: "https://github.com/swift-otel/swift-otel-semantic-conventions", .upToNextMinor(from: "1.44.0"),
            traits: ["Experimental"]),
    ],
    targets: [
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        .target(name: "PushModel", swiftSettings: swiftSettings),
        .target(name: "PushTranslation", dependencies: ["PushModel"], swiftSettings: swiftSettings),
        .target(
            name: "PushgateKafka",
            dependencies: ["CRdKafka", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateTracing",
            dependencies: [
                "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushWorker",
            dependencies: [
                "PushTranslation", "PushgateKafka", "PushgateTracing",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushDelivery",
            dependencies: [
                "PushModel", "PushgateKafka", "PushgateTracing",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateLogging",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateMetrics",
            dependencies: [
                "PushWorker", "PushDelivery", .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateHTTP",
            dependencies: [
                "PushWorker", "PushTranslation", "PushModel", "PushgateKafka",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Copied as they are into pushgate_PushgateHTTP.resources beside the binary (Bundle.module).
            resources: [.copy("Resources/playground"), .copy("Resources/examples")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateConsole",
            dependencies: [
                "PushgateHTTP", "PushWorker", "PushTranslation", "PushModel", "PushgateKafka",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Copied as it is into pushgate_PushgateConsole.resources beside the binary.
            resources: [.copy("Resources/console")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateSettings",
            dependencies: [
                "PushWorker", "PushTranslation", "PushModel", "PushgateKafka", "PushgateLogging", "PushDelivery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "pushgate",
            dependencies: [
                "PushWorker", "PushTranslation", "PushgateKafka", "PushgateSettings", "PushgateLogging",
                "PushgateMetrics", "PushDelivery", "PushgateTracing",
                "PushgateHTTP", "PushgateConsole", "CJemalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushTranslationTests",
            dependencies: ["PushTranslation", "PushModel"],
            exclude: ["Golden", "Differential"],
            swiftSettings: swiftSettings
        ),
        // The test targets ending in IntegrationTests start an embedded broker (or talk to one over sockets):
        // `make test` runs them, `make check` runs the others (docs/testing.md).
        .testTarget(
            name: "PushDeliveryTests",
            dependencies: [
                "PushDelivery", "PushModel", "PushgateKafka", "PushgateMetrics", "PushgateTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushDeliveryIntegrationTests",
            dependencies: [
                "PushDelivery", "PushModel", "PushgateKafka", "PushgateTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateKafkaTests",
            dependencies: [
                "PushgateKafka", "CRdKafka", "PushgateTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateKafkaIntegrationTests",
            dependencies: [
                "PushgateKafka", "CRdKafka", "PushgateTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushWorkerTests",
            dependencies: [
                "PushgateTestSupport",
                "PushWorker", "PushgateKafka", "CRdKafka", "PushTranslation", "PushModel", "PushgateTracing",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushWorkerIntegrationTests",
            dependencies: [
                "PushgateTestSupport",
                "PushWorker", "PushgateKafka", "CRdKafka", "PushTranslation", "PushModel",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PushgateTestSupport",
            dependencies: [
                "PushgateKafka", "PushgateLogging", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateSettingsTests",
            dependencies: [
                "PushgateTestSupport",
                "PushgateSettings", "PushgateMetrics", "PushWorker", "PushgateKafka", "PushTranslation", "PushModel",
                "PushDelivery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateHTTPTests",
            dependencies: [
                "PushgateTestSupport",
                "PushgateHTTP", "PushgateSettings", "PushgateLogging", "PushgateMetrics", "PushWorker", "PushgateKafka",
                "PushTranslation", "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateHTTPIntegrationTests",
            dependencies: [
                "PushgateTestSupport",
                "PushgateHTTP", "PushgateSettings", "PushgateLogging", "PushgateMetrics", "PushWorker", "PushgateKafka",
                "PushTranslation", "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateConsoleTests",
            dependencies: [
                "PushgateTestSupport",
                "PushgateConsole", "PushgateHTTP", "PushgateSettings", "PushgateLogging", "PushgateMetrics",
                "PushWorker", "PushgateKafka",
                "PushTranslation", "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateConsoleIntegrationTests",
            dependencies: [
                "PushgateTestSupport",
                "PushgateConsole", "PushgateHTTP", "PushgateSettings", "PushgateLogging", "PushgateMetrics",
                "PushWorker", "PushgateKafka",
                "PushTranslation", "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateTracingTests",
            dependencies: [
                "PushgateTracing", "PushModel", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushgateLoggingTests",
            dependencies: [
                "PushgateLogging", "PushgateKafka", "PushWorker", "PushgateTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
