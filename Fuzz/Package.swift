// swift-tools-version: 6.2
import PackageDescription

// Hale's libFuzzer targets, apart from the root package so that its build and its lint are untouched. Build and run
// with `.ci/fuzz`; it passes `-sanitize=fuzzer` (coverage instrumentation for every module, and libFuzzer's main)
// and `-parse-as-library` (the entry point is `LLVMFuzzerTestOneInput`, not top-level code).
let package = Package(
    name: "HaleFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Hale", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
    ],
    targets: [
        .executableTarget(
            name: "hale-fuzz",
            dependencies: [
                .product(name: "ByteEncoding", package: "Hale"),
                .product(name: "CBOR", package: "Hale"),
                .product(name: "WebAuthn", package: "Hale"),
                .product(name: "DeviceKeys", package: "Hale"),
                .product(name: "DeviceIntegrity", package: "Hale"),
                .product(name: "SocialTokens", package: "Hale"),
                .product(name: "HealthSamples", package: "Hale"),
                .product(name: "HealthExport", package: "Hale"),
                .product(name: "StrictJSON", package: "Hale"),
                .product(name: "HaleServer", package: "Hale"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]
        )
    ]
)
