import Foundation
import Vapor

/// `GET /.well-known/openid-configuration`: the fields a resource server's library reads to verify Hale's access
/// tokens. Hale signs access tokens, not ID tokens, and has no authorization endpoint, so it names none.
struct DiscoveryDocument: Content, Equatable {
    let issuer: String
    let jwksURI: String
    let introspectionEndpoint: String
    /// ES256: what Hale's keys sign with, read by libraries that take the algorithms from discovery.
    var idTokenSigningAlgValuesSupported = ["ES256"]
    /// Subjects are account ids, the same for every client.
    var subjectTypesSupported = ["public"]
    var claimsSupported = ["iss", "aud", "sub", "iat", "exp", "jti", "sid", "device_id", "sign_in_method"]

    enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
        case introspectionEndpoint = "introspection_endpoint"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case subjectTypesSupported = "subject_types_supported"
        case claimsSupported = "claims_supported"
    }
}

/// `POST /api/v1/admin/introspect`'s answer (RFC 7662 §2.2): `{"active": false}` alone for a token that is not
/// active, whatever the reason; for an active one, its claims.
struct IntrospectionResponse: Content, Equatable {
    let active: Bool
    var tokenType: String?
    var sub: String?
    var iss: String?
    var aud: [String]?
    var iat: Int64?
    var exp: Int64?
    var jti: String?
    var sid: String?
    var deviceID: String?
    var signInMethod: String?
    /// `access_token` or `personal_access_token`.
    var haleTokenKind: String?
    /// The key a bound session's access token is confirmed by (RFC 7800), as the token carries it.
    var cnf: AccessTokenClaims.Confirmation?

    enum CodingKeys: String, CodingKey {
        case active
        case tokenType = "token_type"
        case sub, iss, aud, iat, exp, jti, sid
        case deviceID = "device_id"
        case signInMethod = "sign_in_method"
        case haleTokenKind = "hale_token_kind"
        case cnf
    }

    init(_ token: TokenIntrospection.Active?) {
        guard let token else {
            active = false
            return
        }
        active = true
        tokenType = "Bearer"
        sub = token.account.description
        iss = token.issuer
        aud = token.audiences.isEmpty ? nil : token.audiences
        iat = Int64(token.issuedAt.timeIntervalSince1970.rounded(.down))
        exp = token.expiresAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        jti = token.tokenID
        sid = token.session?.description
        deviceID = token.device?.description
        signInMethod = token.signInMethod
        haleTokenKind = token.kind
        cnf = token.confirmationKey.map { AccessTokenClaims.Confirmation(jkt: $0) }
    }
}
