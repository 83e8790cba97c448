import ByteEncoding

/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded but not yet verified.
struct CompactJWS: Sendable {
    /// The longest token accepted; provider ID tokens are around 1 KB.
    static let maximumLength = 16 * 1024

    /// The protected header.
    let header: JOSEHeader
    /// The claims set (RFC 7519 §7.2 step 10: it must be a JSON object).
    let claims: JWTClaims
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, what the signature covers.
    let signingInput: [UInt8]
    /// The signature bytes.
    let signature: [UInt8]

    /// Whether `token` has the shape of a compact JWS: three parts separated by dots.
    static func hasCompactShape(_ token: String) -> Bool {
        token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2
    }

    /// Splits and decodes `token`; every structural problem is refused here, before any key is fetched.
    init(_ token: String) throws(SocialTokenError) {
        guard token.utf8.count <= Self.maximumLength else { throw .tokenTooLong }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { throw .notCompactJWS }
        guard let headerBytes = Base64URL.canonicalBytes(parts[0]),
            let payloadBytes = Base64URL.canonicalBytes(parts[1]),
            let signature = Base64URL.canonicalBytes(parts[2])
        else { throw .invalidBase64URL }
        guard let headerMembers = JSONObject.decode(headerBytes) else { throw .invalidHeader }
        header = try JOSEHeader(headerMembers)
        guard let claimMembers = JSONObject.decode(payloadBytes) else { throw .invalidClaims }
        claims = JWTClaims(claimMembers)
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }
}
