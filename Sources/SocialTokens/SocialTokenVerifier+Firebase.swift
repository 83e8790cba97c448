extension SocialTokenVerifier {
    /// The longest Firebase ID token accepted, in bytes. Firebase's are about 1 KB; custom claims add at most 1000
    /// bytes.
    public static let maximumFirebaseIDTokenLength = 8 * 1024
    /// The longest Firebase uid (`sub`), in characters, as Firebase's Admin SDKs allow.
    static let maximumFirebaseUIDLength = 128

    /// Verifies a Firebase ID token of `projectID` (Firebase's "Verify ID tokens using a third-party JWT library"):
    /// RS256 by a key of Google's securetoken certificate set, `iss` and `aud` the project's, `exp` in the future
    /// and `iat` and `auth_time` in the past (each within the clock skew), `sub` (the uid) 1 to 128 characters.
    func verifyFirebaseIDToken(_ token: String, projectID: String) async throws(SocialTokenError) -> VerifiedIdentity {
        // Bounded before a byte is decoded.
        guard token.utf8.count <= Self.maximumFirebaseIDTokenLength else { throw .tokenTooLong }
        let jws = try CompactJWS(token)
        // As the Admin SDKs do before any key is fetched: a custom token sent back where an ID token is due is named
        // for what it is, and only RS256 is Firebase's.
        guard jws.claims.audiences != [FirebaseCustomTokenSigner.audience] else { throw .firebaseCustomToken }
        guard jws.header.algorithm == .rs256 else { throw .unsupportedAlgorithm }
        let policy = IDTokenPolicy.firebase(projectID: projectID, configuration)
        try await verifySignature(of: jws, policy: policy)
        let uid = try policy.check(jws.claims, nonce: nil, now: now())
        guard uid.unicodeScalars.count <= Self.maximumFirebaseUIDLength else { throw .subjectTooLong }
        guard let authenticatedAt = jws.claims.date("auth_time") else { throw .missingAuthTime }
        guard authenticatedAt <= now().addingTimeInterval(policy.clockSkew) else { throw .authenticatedInFuture }
        return VerifiedIdentity(firebase: jws.claims, subject: uid)
    }
}
