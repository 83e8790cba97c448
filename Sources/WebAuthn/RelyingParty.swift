import ByteEncoding
import Crypto

/// A WebAuthn relying party: its identity, the origins it accepts, and its policy. A stateless value.
public struct RelyingParty: Sendable {
    /// The RP ID, such as `petwash.co.il`.
    public let id: String
    /// A name to show users.
    public let name: String
    /// Every origin a ceremony may come from: web origins and the `android:apk-key-hash:` origins of the apps.
    public let origins: Set<String>
    /// The algorithms offered at registration, most preferred first; a credential of any other is refused.
    public let algorithms: [COSEAlgorithm]
    /// How long clients should wait, in milliseconds.
    public let timeoutMilliseconds: Int

    /// A relying party. `androidCertificateDigests` are the SHA-256 digests of the apps' signing certificates, in
    /// the hex form (with or without colons) that `keytool` and the Play Console print. `algorithms` defaults to
    /// ``COSEAlgorithm/defaultOffered``: ES256, EdDSA, RS256, ML-DSA-65, ML-DSA-87.
    public init(
        id: String, name: String, origins: [String], androidCertificateDigests: [String] = [],
        algorithms: [COSEAlgorithm] = COSEAlgorithm.defaultOffered, timeoutMilliseconds: Int = 300_000
    ) throws(WebAuthnError) {
        self.id = id
        self.name = name
        var all = Set(origins)
        for digest in androidCertificateDigests {
            all.insert(try Self.androidOrigin(certificateDigest: digest))
        }
        self.origins = all
        self.algorithms = algorithms
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The origin an Android app signs WebAuthn client data with: `android:apk-key-hash:` and the base64url of the
    /// SHA-256 of its signing certificate.
    public static func androidOrigin(certificateDigest: String) throws(WebAuthnError) -> String {
        let hex = certificateDigest.filter { $0 != ":" }
        guard hex.count == 64, let bytes = Hex.decode(hex) else {
            throw WebAuthnError(.malformedCredential, "\(certificateDigest) is not a SHA-256 digest in hex")
        }
        return "android:apk-key-hash:" + Base64URL.encode(bytes)
    }

    /// SHA-256 of the RP ID, which authenticator data must carry.
    public var idHash: [UInt8] {
        Array(SHA256.hash(data: Array(id.utf8)))
    }

    /// Options for registering a new credential.
    public func creationOptions(
        challenge: [UInt8], user: CreationOptions.UserEntity, excluding existing: [CredentialDescriptor] = [],
        residentKey: ResidentKeyRequirement = .required, userVerification: UserVerificationRequirement = .preferred,
        attestation: AttestationConveyance = .none, hints: [String] = []
    ) -> CreationOptions {
        CreationOptions(
            rp: .init(id: id, name: name), user: user, challenge: Base64URL.encode(challenge),
            pubKeyCredParams: algorithms.map { .init(alg: $0.rawValue) }, timeout: timeoutMilliseconds,
            excludeCredentials: existing,
            authenticatorSelection: .init(
                residentKey: residentKey, requireResidentKey: residentKey == .required,
                userVerification: userVerification),
            attestation: attestation, hints: hints, extensions: .init(credProps: true))
    }

    /// Options for signing in; with no `allowed` credentials the sign-in is discoverable (username-less).
    public func requestOptions(
        challenge: [UInt8], allowing allowed: [CredentialDescriptor] = [],
        userVerification: UserVerificationRequirement = .preferred, hints: [String] = []
    ) -> RequestOptions {
        RequestOptions(
            challenge: Base64URL.encode(challenge), timeout: timeoutMilliseconds, rpId: id, allowCredentials: allowed,
            userVerification: userVerification, hints: hints)
    }
}
