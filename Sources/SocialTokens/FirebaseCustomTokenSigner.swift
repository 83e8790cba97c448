import ByteEncoding
import Foundation
import StrictJSON

/// Mints Firebase custom tokens, which an app exchanges with `signInWithCustomToken` for a Firebase session of a uid,
/// exactly as Firebase's Admin SDK for Python (`firebase_admin/_token_gen.py`, `create_custom_token`) signs them with
/// a service account's key: the same header, the same claims in the same order, the same JSON text, so the same
/// bytes.
///
/// It does no I/O of its own and reads the time from the injected clock.
public struct FirebaseCustomTokenSigner: Sendable {
    /// The audience of every custom token: Identity Toolkit, which `signInWithCustomToken` calls.
    public static let audience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// How long a custom token is valid, in seconds: Firebase's maximum, which the Admin SDKs always use.
    public static let lifetime = 3600
    /// The longest uid, in characters (Unicode code points, as Python's `len` counts them).
    public static let maximumUIDLength = 128
    /// The claims Firebase reserves, which developer claims may not name.
    static let reservedClaims: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti",
        "nbf", "nonce", "sub",
    ]

    let serviceAccount: GoogleServiceAccount
    let now: @Sendable () -> Date

    /// A signer with `serviceAccount`'s key, reading the time from `now`.
    public init(serviceAccount: GoogleServiceAccount, now: @escaping @Sendable () -> Date = { Date() }) {
        self.serviceAccount = serviceAccount
        self.now = now
    }

    /// The custom token for `uid`: an RS256 JWS whose header is `{"alg": "RS256", "typ": "JWT", "kid":
    /// private_key_id}` (no `kid` when the key file has none) and whose claims are `iss` and `sub` the service
    /// account's email, `aud` ``audience``, `uid`, `iat` now in whole seconds, `exp` `iat` + 3600, and `claims` when
    /// developer claims are given (in their order; the members of nested objects sorted by name).
    ///
    /// Throws `invalidUID` for a uid that is empty or longer than 128 characters, `reservedClaim` for a developer
    /// claim Firebase reserves, `duplicateClaim` when two developer claims share a name, `signingFailed` when the key
    /// cannot sign.
    public func customToken(uid: String, claims: [(name: String, value: JSONValue)]? = nil)
        throws(FirebaseCustomTokenError) -> String
    {
        guard !uid.isEmpty, uid.unicodeScalars.count <= Self.maximumUIDLength else { throw .invalidUID }
        if let reserved = claims?.first(where: { Self.reservedClaims.contains($0.name) }) {
            throw .reservedClaim(reserved.name)
        }
        if let names = claims?.map(\.name), Set(names).count != names.count { throw .duplicateClaim }
        // Python's int(time.time()): whole seconds, truncated.
        let issuedAt = Int64(now().timeIntervalSince1970.rounded(.towardZero))
        // google.auth.jwt.encode: the header given ({alg}), then typ, then the key's id when the file names one.
        var header: [(String, AdminSDKJSON)] = [("alg", .string("RS256")), ("typ", .string("JWT"))]
        if let keyID = serviceAccount.privateKeyID { header.append(("kid", .string(keyID))) }
        var payload: [(String, AdminSDKJSON)] = [
            ("iss", .string(serviceAccount.clientEmail)), ("sub", .string(serviceAccount.clientEmail)),
            ("aud", .string(Self.audience)), ("uid", .string(uid)), ("iat", .value(.integer(issuedAt))),
            ("exp", .value(.integer(issuedAt + Int64(Self.lifetime)))),
        ]
        if let claims { payload.append(("claims", .object(claims.map { ($0.name, .value($0.value)) }))) }
        let signingInput =
            Base64URL.encode(Array(AdminSDKJSON.object(header).text.utf8)) + "."
            + Base64URL.encode(Array(AdminSDKJSON.object(payload).text.utf8))
        guard let signature = try? serviceAccount.rs256Signature(for: Array(signingInput.utf8)) else {
            throw .signingFailed
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}

/// Why a custom token was not minted.
public enum FirebaseCustomTokenError: Error, Sendable, Equatable {
    /// The uid is empty or longer than 128 characters.
    case invalidUID
    /// A developer claim has a name Firebase reserves, such as `sub` or `firebase`.
    case reservedClaim(String)
    /// Two developer claims have the same name.
    case duplicateClaim
    /// The service account's key did not sign.
    case signingFailed
}
