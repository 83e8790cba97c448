// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Hale",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "hale", targets: ["hale"]),
        .library(name: "HaleServer", targets: ["HaleServer"]),
        .library(name: "ByteEncoding", targets: ["ByteEncoding"]),
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "StrictJSON", targets: ["StrictJSON"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "HaleClient", targets: ["HaleClient"]),
        .library(name: "DeviceKeys", targets: ["DeviceKeys"]),
        .library(name: "SocialTokens", targets: ["SocialTokens"]),
        .library(name: "DeviceIntegrity", targets: ["DeviceIntegrity"]),
        .library(name: "HealthSamples", targets: ["HealthSamples"]),
        .library(name: "HealthExport", targets: ["HealthExport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.30.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        // Only the OTLP/HTTP exporter: the default traits bring gRPC too. Only `hale` links it (traces.swift).
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.4.1"),
    ],
    targets: [
        .target(name: "ByteEncoding", swiftSettings: strict),
        .testTarget(name: "ByteEncodingTests", dependencies: ["ByteEncoding"], swiftSettings: strict),
        .target(name: "CBOR", swiftSettings: strict),
        .target(name: "StrictJSON", swiftSettings: strict),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: strict),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"], swiftSettings: strict),
        .target(
            name: "WebAuthn",
            dependencies: [
                "ByteEncoding", "CBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "DeviceKeys",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DeviceKeysTests",
            dependencies: [
                "DeviceKeys", "HaleClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SocialTokens",
            dependencies: [
                "ByteEncoding", "StrictJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SocialTokensTests",
            dependencies: [
                "ByteEncoding", "SocialTokens", "StrictJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "DeviceIntegrity",
            dependencies: [
                "ByteEncoding", "CBOR", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DeviceIntegrityTests",
            dependencies: [
                "ByteEncoding", "DeviceIntegrity", "CBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .target(
            name: "HealthSamples",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .testTarget(name: "HealthSamplesTests", dependencies: ["HealthSamples"], swiftSettings: strict),
        // The system's zlib, for inflating export.xml out of a zip with bounds Hale sets itself (see ZipEntry).
        .systemLibrary(name: "Zlib", path: "Sources/Zlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "HealthExport",
            dependencies: [
                "HealthSamples", "Zlib", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HealthExportTests",
            dependencies: ["HealthExport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: strict),
        .target(
            name: "HaleClient",
            dependencies: [
                "ByteEncoding", "HealthSamples", "WebAuthn", "CBOR", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HaleClientTests",
            dependencies: [
                "ByteEncoding", "HaleClient", "WebAuthn", "DeviceIntegrity", "CBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "ByteEncoding", "WebAuthn", "CBOR", "HaleClient", .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .target(
            name: "HaleServer",
            dependencies: [
                "ByteEncoding", "StrictJSON",
                "WebAuthn",
                "DeviceKeys",
                "SocialTokens",
                "DeviceIntegrity",
                "HealthSamples", "HealthExport",
                "CBOR",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/account")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hale",
            dependencies: [
                "ByteEncoding", "HaleServer", "HealthExport", "HealthSamples", "StrictJSON",
                "DeviceIntegrity", "DeviceKeys",
                "HaleClient",
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "HaleTesting",
            dependencies: [
                "HaleServer",
                "HaleClient",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "CBOR", "HealthSamples", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HaleTestingTests",
            dependencies: ["HaleTesting", "HaleServer"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HaleServerTests",
            dependencies: [
                "ByteEncoding", "HaleServer",
                "HaleTesting",
                "WebAuthn",
                "CBOR",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "haleTests",
            dependencies: [
                "ByteEncoding", "hale", "HaleServer", "HaleTesting", "HaleClient", "WebAuthn", "HealthExport",
                "HealthSamples",
            ],
            swiftSettings: strict
        ),
    ]
)
