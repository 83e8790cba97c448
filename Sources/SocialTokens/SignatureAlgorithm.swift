/// The JWS algorithms this library verifies (RFC 7518 §3.1). Everything else, `none` and the HMAC family included, is
/// refused before any key is looked at.
enum SignatureAlgorithm: String, Sendable {
    /// RSASSA-PKCS1-v1_5 with SHA-256, which Google, Apple and Facebook sign with.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256, accepted only with an EC P-256 key.
    case es256 = "ES256"
}
