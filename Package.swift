// swift-tools-version: 6.1
import PackageDescription

/// One set of Swift settings shared by every target. Tools version 6.1 means Swift 6 language mode
/// (strict concurrency) everywhere.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "pushgate",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pushgate", targets: ["pushgate"]),
        .library(name: "PushTranslation", targets: ["PushTranslation"]),
        .library(name: "PushModel", targets: ["PushModel"]),
        .library(name: "Kafka", targets: ["Kafka"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .target(
            name: "Kafka",
            dependencies: ["CRdKafka", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(name: "PushModel", swiftSettings: swiftSettings),
        .target(name: "PushTranslation", dependencies: ["PushModel"], swiftSettings: swiftSettings),
        .target(
            name: "PushWorker",
            dependencies: [
                "PushTranslation", "Kafka",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "pushgate",
            dependencies: [
                "PushWorker", "PushTranslation", "Kafka",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushTranslationTests",
            dependencies: ["PushTranslation", "PushModel"],
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KafkaTests",
            dependencies: ["Kafka", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushWorkerTests",
            dependencies: [
                "PushWorker", "Kafka", "PushTranslation", "PushModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
