import ByteEncoding
import Crypto
import Foundation

/// A JWK Set (RFC 7517) of the public keys that verify Hale's access tokens and its provenance statements, as served
/// at `/.well-known/jwks.json`.
public struct JSONWebKeySet: Codable, Sendable, Equatable {
    /// The keys.
    public var keys: [JSONWebKey]
}

/// The public half of one ES256 signing key, as a JWK.
public struct JSONWebKey: Codable, Sendable, Equatable {
    /// Key type: always `EC`.
    public var kty = "EC"
    /// Curve: always `P-256`.
    public var crv = "P-256"
    /// The key identifier that access tokens carry in their header.
    public var kid: String
    /// Use: always `sig`.
    public var use = "sig"
    /// Algorithm: always `ES256`.
    public var alg = "ES256"
    /// The x coordinate, base64url.
    public var x: String
    /// The y coordinate, base64url.
    public var y: String

    init(record: SigningKeyRecord) throws {
        try self.init(kid: record.kid, privateKeyPEM: record.privateKeySealed)
    }

    /// The public half of the opened private key `privateKeyPEM`, named `kid`.
    init(kid: String, privateKeyPEM: String) throws {
        let point = [UInt8](try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM).publicKey.x963Representation)
        self.kid = kid
        x = Base64URL.encode(point[1...32])
        y = Base64URL.encode(point[33...64])
    }
}
