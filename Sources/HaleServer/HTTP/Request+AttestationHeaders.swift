import Crypto
import Vapor

extension Request {
    /// The `X-Attestation-*` headers of a request that writes health data or refreshes a bound session: nil when it
    /// sends none, a 400 when it sends some but not all, or one that breaks its limit.
    func attestationHeaders() throws -> HealthData.WriteAttestation? {
        typealias Attestation = HealthData.WriteAttestation
        let platform = headers.first(name: Attestation.platformHeader)
        let nonce = headers.first(name: Attestation.nonceHeader)
        let token = headers.first(name: Attestation.tokenHeader)
        if platform == nil, nonce == nil, token == nil { return nil }
        guard let platform, let nonce, let token else {
            throw HaleError.invalidRequest(
                "Send all three of \(Attestation.platformHeader), \(Attestation.nonceHeader) and"
                    + " \(Attestation.tokenHeader), or none.")
        }
        guard let known = DeviceAttestation.Platform(rawValue: platform) else {
            throw HaleError.invalidRequest("\(Attestation.platformHeader) must be ios or android")
        }
        try Self.checkLength(nonce, Attestation.nonceHeader, maximum: HealthSubmissionBody.maxNonceLength)
        try Self.checkLength(token, Attestation.tokenHeader, maximum: HealthSubmissionBody.maxTokenLength)
        return Attestation(platform: known, nonce: nonce, token: token)
    }

    /// The `X-Attestation-*` headers of a refresh, over its exact body: what proves a bound session's app instance.
    func refreshAttestation() throws -> RefreshAttestation? {
        try attestationHeaders().map { RefreshAttestation($0, bodyDigest: Array(bodyDigest)) }
    }

    /// `X-Attestation-Unavailable`: why a refresh of a session bound to Play Integrity carries no token, as the
    /// Play Integrity API told the app (`GOOGLE_SERVER_UNAVAILABLE`, `NETWORK_ERROR`, …): 1 to 64 capital letters,
    /// digits and underscores. Nil when not sent; a 400 with the attestation headers, or in another form.
    func attestationUnavailable() throws -> String? {
        guard let reason = headers.first(name: Self.unavailableHeader) else { return nil }
        guard headers.first(name: HealthData.WriteAttestation.tokenHeader) == nil else {
            throw HaleError.invalidRequest(
                "Send \(Self.unavailableHeader) instead of an attestation, not with one.")
        }
        guard (1...64).contains(reason.utf8.count),
            reason.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
        else {
            throw HaleError.invalidRequest(
                "\(Self.unavailableHeader) must be 1 to 64 capital letters, digits and underscores, such as"
                    + " GOOGLE_SERVER_UNAVAILABLE")
        }
        return reason
    }

    /// The header of `attestationUnavailable()`.
    static let unavailableHeader = "X-Attestation-Unavailable"

    /// SHA-256 of the collected body; of nothing when there is none.
    var bodyDigest: SHA256Digest {
        guard let buffer = body.data else { return SHA256.hash(data: [UInt8]()) }
        return buffer.withUnsafeReadableBytes { SHA256.hash(data: $0) }
    }

    private static func checkLength(_ value: String, _ name: String, maximum: Int) throws {
        guard (1...maximum).contains(value.utf8.count) else {
            throw HaleError.invalidRequest("\(name) must be 1 to \(maximum) bytes")
        }
    }
}
