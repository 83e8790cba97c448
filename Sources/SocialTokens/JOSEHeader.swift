import StrictJSON

/// The protected header of a JWS (RFC 7515 §4), reduced to what verification uses.
///
/// `jku`, `jwk`, `x5u` and `x5c` are ignored: keys come only from the configured key set, never from the token.
struct JOSEHeader: Sendable {
    /// The signature algorithm the header declares.
    let algorithm: SignatureAlgorithm
    /// The id of the key in the provider's key set.
    let keyID: String

    /// Reads a decoded header, refusing algorithms other than RS256 and ES256 and any `crit` extension.
    init(_ members: [String: JSONValue]) throws(SocialTokenError) {
        guard let name = members["alg"]?.string, let algorithm = SignatureAlgorithm(rawValue: name) else {
            throw .unsupportedAlgorithm
        }
        // RFC 7515 §4.1.11: a recipient that does not understand a critical extension must reject the JWS.
        guard members["crit"] == nil else { throw .criticalHeader }
        guard let keyID = members["kid"]?.string, !keyID.isEmpty else { throw .missingKeyID }
        self.algorithm = algorithm
        self.keyID = keyID
    }
}
