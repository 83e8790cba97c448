import ByteEncoding
import CBOR
import Crypto
import Foundation
import WebAuthn

/// A software passkey authenticator, for tests, tools and server-to-server use: ES256, ML-DSA-65 or ML-DSA-87, `none`
/// or `packed` self attestation. It builds each ceremony piece by piece, so a test can break exactly one piece.
public struct SoftwarePasskey: Sendable {
    /// The RP ID it signs for.
    public var rpID: String
    /// The origin its client data claims.
    public var origin: String
    /// The ES256 private key, which signs unless the passkey was made for ML-DSA.
    public let key = P256.Signing.PrivateKey()
    /// The credential's algorithm.
    public let algorithm: COSEAlgorithm
    /// The ML-DSA private key of an ML-DSA passkey.
    private let mlDSAKey: (any SoftwareMLDSAKey)?
    /// The credential ID.
    public let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    /// The AAGUID it reports.
    public var aaguid: [UInt8] = Array(repeating: 0, count: 16)
    /// The user handle it stored at registration.
    public private(set) var userHandle: [UInt8]?
    /// Its signature counter.
    public private(set) var signCount: UInt32 = 0

    /// An ES256 authenticator for `rpID`, used from `origin`.
    public init(rpID: String = "example.com", origin: String = "https://example.com") {
        self.rpID = rpID
        self.origin = origin
        algorithm = .es256
        mlDSAKey = nil
    }

    /// An authenticator whose credential is of `algorithm`: ES256, ML-DSA-65 or ML-DSA-87. Throws
    /// `UNSUPPORTED_ALGORITHM` for another, and for ML-DSA on Apple platforms older than iOS 26 and macOS 26.
    public init(algorithm: COSEAlgorithm, rpID: String = "example.com", origin: String = "https://example.com") throws {
        self.rpID = rpID
        self.origin = origin
        self.algorithm = algorithm
        mlDSAKey = try Self.mlDSAKey(for: algorithm)
    }

    private static func mlDSAKey(for algorithm: COSEAlgorithm) throws -> (any SoftwareMLDSAKey)? {
        switch algorithm {
        case .es256:
            return nil
        case .mlDSA65, .mlDSA87:
            guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else {
                throw WebAuthnError(.unsupportedAlgorithm, "ML-DSA needs iOS 26, macOS 26 or later")
            }
            return algorithm == .mlDSA65 ? try SoftwareMLDSA65Key() : try SoftwareMLDSA87Key()
        case .edDSA, .rs256:
            throw WebAuthnError(.unsupportedAlgorithm, "a software passkey signs with ES256 or ML-DSA")
        }
    }

    /// The credential's COSE_Key: EC2 P-256, or AKP with the ML-DSA public key as `pub` (-1).
    public var coseKey: CBORValue {
        if let mlDSAKey {
            return [1: 7, 3: CBORValue(Int64(algorithm.rawValue)), -1: .byteString(mlDSAKey.publicKey)]
        }
        let point = Array(key.publicKey.x963Representation)
        return [1: 2, 3: -7, -1: 1, -2: .byteString(Array(point[1...32])), -3: .byteString(Array(point[33...64]))]
    }

    /// A relying party for this authenticator's RP ID and origin.
    public var relyingParty: RelyingParty {
        get throws { try RelyingParty(id: rpID, name: "Example", origins: [origin]) }
    }

    /// Client data as a browser writes it; `origin` defaults to this authenticator's.
    public func clientData(
        type: String, challenge: [UInt8], origin: String? = nil, extra: [String: any Sendable] = [:]
    ) -> [UInt8] {
        var object: [String: Any] = [
            "type": type, "challenge": Base64URL.encode(challenge), "origin": origin ?? self.origin,
        ]
        object.merge(extra) { $1 }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// Authenticator data with the given flags (UP and UV by default) for `rpID` (this authenticator's by default).
    public func authenticatorData(
        flags: AuthenticatorFlags = [.userPresent, .userVerified], signCount: UInt32 = 0, rpID: String? = nil,
        attested: Bool = false, publicKey: CBORValue? = nil
    ) -> [UInt8] {
        var flags = flags
        if attested { flags.insert(.attestedCredentialData) }
        var bytes = Array(SHA256.hash(data: Array((rpID ?? self.rpID).utf8))) + [flags.rawValue]
        bytes += withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if attested {
            bytes += aaguid + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
            bytes += CBOREncoder().encode(publicKey ?? coseKey)
        }
        return bytes
    }

    /// The credential key's signature over `data`: ES256 in DER, or pure ML-DSA with the empty context.
    public func sign(_ data: [UInt8]) -> [UInt8] {
        if let mlDSAKey { return (try? mlDSAKey.signature(for: data)) ?? [] }
        return Array((try? key.signature(for: data).derRepresentation) ?? Data())
    }

    /// A registration response with `fmt` none, or packed self attestation; any piece may be replaced.
    public func registration(
        challenge: [UInt8], format: String = "none", clientData: [UInt8]? = nil, authenticatorData: [UInt8]? = nil,
        statement: CBORValue? = nil
    ) -> RegistrationResponseJSON {
        let clientData = clientData ?? self.clientData(type: "webauthn.create", challenge: challenge)
        let authData = authenticatorData ?? self.authenticatorData(attested: true)
        let defaultStatement: CBORValue =
            format == "packed"
            ? [
                "alg": CBORValue(Int64(algorithm.rawValue)),
                "sig": .byteString(sign(authData + Array(SHA256.hash(data: clientData)))),
            ] : [:]
        let object: CBORValue = [
            "fmt": .textString(format), "attStmt": statement ?? defaultStatement, "authData": .byteString(authData),
        ]
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id, type: "public-key",
            response: .init(
                clientDataJSON: Base64URL.encode(clientData),
                attestationObject: Base64URL.encode(CBOREncoder().encode(object)), transports: ["internal"]))
    }

    /// An assertion signed by this authenticator; any piece may be replaced.
    public func assertion(
        challenge: [UInt8], signCount: UInt32 = 1, flags: AuthenticatorFlags = [.userPresent, .userVerified],
        clientData: [UInt8]? = nil, userHandle: [UInt8]? = nil
    ) -> AuthenticationResponseJSON {
        let clientData = clientData ?? self.clientData(type: "webauthn.get", challenge: challenge)
        let authData = authenticatorData(flags: flags, signCount: signCount)
        let signature = sign(authData + Array(SHA256.hash(data: clientData)))
        let id = Base64URL.encode(credentialID)
        return AuthenticationResponseJSON(
            id: id, rawId: id, type: "public-key",
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map { Base64URL.encode($0) }))
    }

    /// What a relying party stored for this credential.
    public func stored(signCount: UInt32 = 0, backupEligible: Bool = false) -> StoredCredential {
        StoredCredential(
            id: credentialID, publicKey: CBOREncoder().encode(coseKey), signCount: signCount,
            backupEligible: backupEligible)
    }

    /// Answers creation options as a platform authenticator does, remembering the user handle.
    public mutating func register(options: CreationOptions) -> RegistrationResponseJSON {
        userHandle = Base64URL.decode(options.user.id).map(Array.init)
        return registration(challenge: Array(Base64URL.decode(options.challenge) ?? Data()))
    }

    /// Answers request options, counting the signature and returning the user handle as a discoverable passkey does.
    public mutating func assert(options: RequestOptions) -> AuthenticationResponseJSON {
        signCount += 1
        return assertion(
            challenge: Array(Base64URL.decode(options.challenge) ?? Data()), signCount: signCount,
            userHandle: userHandle)
    }
}
