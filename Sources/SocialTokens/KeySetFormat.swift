/// How a provider publishes its signing keys.
enum KeySetFormat: Sendable {
    /// A JWK Set (RFC 7517 §5): Google's, Apple's and Facebook's sign-in keys.
    case jsonWebKeySet
    /// A JSON object of X.509 certificates in PEM keyed by `kid`: Google's securetoken keys, which sign Firebase ID
    /// tokens.
    case x509Certificates
}
