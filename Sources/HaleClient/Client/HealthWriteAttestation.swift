import ByteEncoding
import Crypto
import Foundation
import WebAuthn

/// How the SDK attests a write of health data to a server that requires it (`health.requireAttestation: all`):
/// over a fresh nonce and the request's exact body, sent in `X-Attestation-*` headers.
public enum HealthWriteAttestation: Sendable {
    /// An assertion by the App Attest key `keyID`, registered with `registerAppAttestKey(with:)`.
    case appAttest(any AppAttester, keyID: String)
    /// A Play Integrity token whose nonce is the request hash the closure is given: the app asks Google Play for
    /// one (`IntegrityTokenRequest.builder().setNonce(requestHash)`).
    case playIntegrity(@Sendable (_ requestHash: String) async throws -> String)

    /// What the attestation is made over: base64url, unpadded, of SHA-256(UTF-8 of `nonce` ‖ SHA-256(`body`)).
    public static func requestHash(nonce: String, body: Data) -> String {
        requestHash(nonce: nonce, bodyDigest: Array(SHA256.hash(data: body)))
    }

    /// `requestHash` of a body whose SHA-256 is `bodyDigest`: a file uploaded from disk.
    static func requestHash(nonce: String, bodyDigest: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(data: Data(nonce.utf8))
        hash.update(data: bodyDigest)
        return Base64URL.encode(hash.finalize())
    }

    /// The headers attesting `body` over `nonce`: `X-Attestation-Platform`, `X-Attestation-Nonce` and
    /// `X-Attestation-Token`.
    public func headers(nonce: String, body: Data) async throws -> [String: String] {
        try await headers(nonce: nonce, bodyDigest: Array(SHA256.hash(data: body)))
    }

    /// The headers attesting a body whose SHA-256 is `bodyDigest` over `nonce`.
    func headers(nonce: String, bodyDigest: [UInt8]) async throws -> [String: String] {
        let requestHash = Self.requestHash(nonce: nonce, bodyDigest: bodyDigest)
        let (platform, token): (String, String)
        switch self {
        case .appAttest(let attester, let keyID):
            let assertion = try await attester.generateAssertion(
                keyID, clientDataHash: Data(SHA256.hash(data: Data(requestHash.utf8))))
            (platform, token) = ("ios", assertion.base64EncodedString())
        case .playIntegrity(let requestToken):
            (platform, token) = ("android", try await requestToken(requestHash))
        }
        return ["X-Attestation-Platform": platform, "X-Attestation-Nonce": nonce, "X-Attestation-Token": token]
    }
}

extension HaleClient {
    /// Sends `body` as JSON, with attestation headers when `attestation` is given; decodes the answer.
    func sendHealthWrite<Answer: Decodable>(
        _ path: String, body: some Encodable & Sendable, attestation: HealthWriteAttestation?
    ) async throws -> Answer {
        let encoded = try JSONEncoder().encode(body)
        var headers: [String: String] = [:]
        if let attestation {
            headers = try await attestation.headers(nonce: try await attestationNonce().nonce, body: encoded)
        }
        return try Self.decode(
            Answer.self, from: try await send("POST", path, headers: headers, encodedJSON: encoded, as: .session))
    }
}
