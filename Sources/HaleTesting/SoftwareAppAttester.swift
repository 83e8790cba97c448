import Crypto
import Foundation
import HaleClient

/// Synchronous helpers over the key a self-made `SoftwareAppAttester` starts with, for tests that choose the
/// counter themselves (to replay one, say) or need the key's id before any `await`.
extension SoftwareAppAttester {
    private var deviceKey: P256.Signing.PrivateKey {
        guard let preparedKey else {
            preconditionFailure("only an attester with its own CA, made by init(teamID:bundleID:environment:), has one")
        }
        return preparedKey
    }

    /// The device key's public half, PEM.
    public var publicKeyPEM: String { deviceKey.publicKey.pemRepresentation }
    /// The device key's id, as `DCAppAttestService` reports it: SHA-256 of the public key.
    public var keyID: [UInt8] { Array(SHA256.hash(data: deviceKey.publicKey.x963Representation)) }

    /// `attestKey(_:clientDataHash:)` of the device key for SHA-256 of `challenge`'s UTF-8.
    public func attestation(challenge: String) throws -> [UInt8] {
        try attestationObject(for: deviceKey, clientDataHash: Self.hash(challenge))
    }

    /// An assertion of the device key with `counter` for SHA-256 of `challenge`'s UTF-8.
    public func assertion(challenge: String, counter: UInt32) throws -> [UInt8] {
        try assertionObject(by: deviceKey, clientDataHash: Self.hash(challenge), counter: counter)
    }

    private static func hash(_ challenge: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(challenge.utf8)))
    }
}
