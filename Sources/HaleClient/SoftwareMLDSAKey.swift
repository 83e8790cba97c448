import Crypto

/// A software passkey's ML-DSA private key (FIPS 204), signing pure ML-DSA with the empty context as WebAuthn
/// authenticators do. Behind a protocol because on Apple platforms swift-crypto's ML-DSA is CryptoKit's, which exists
/// only from iOS 26 and macOS 26 on.
protocol SoftwareMLDSAKey: Sendable {
    /// The public key in its FIPS 204 encoding, as a COSE `AKP` key's `pub` carries it.
    var publicKey: [UInt8] { get }
    /// A signature over `data`.
    func signature(for data: [UInt8]) throws -> [UInt8]
}

@available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
struct SoftwareMLDSA65Key: SoftwareMLDSAKey {
    let key: MLDSA65.PrivateKey

    init() throws { key = try MLDSA65.PrivateKey() }

    var publicKey: [UInt8] { Array(key.publicKey.rawRepresentation) }

    func signature(for data: [UInt8]) throws -> [UInt8] { Array(try key.signature(for: data)) }
}

@available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *)
struct SoftwareMLDSA87Key: SoftwareMLDSAKey {
    let key: MLDSA87.PrivateKey

    init() throws { key = try MLDSA87.PrivateKey() }

    var publicKey: [UInt8] { Array(key.publicKey.rawRepresentation) }

    func signature(for data: [UInt8]) throws -> [UInt8] { Array(try key.signature(for: data)) }
}
