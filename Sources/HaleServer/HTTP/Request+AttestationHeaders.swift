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
