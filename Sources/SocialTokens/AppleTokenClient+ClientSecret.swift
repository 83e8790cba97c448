import ByteEncoding
import Crypto
import Foundation

extension AppleTokenClient {
    /// The JOSE header of a client secret, as "Creating a client secret" lists it: `alg` and `kid`, nothing else.
    private struct Header: Encodable {
        let alg = "ES256"
        let kid: String
    }

    /// The claims of a client secret.
    private struct Claims: Encodable {
        let iss: String
        let iat: Int
        let exp: Int
        let aud: String
        let sub: String
    }

    /// The client secret: an ES256 JWT (header alg ES256, kid keyID; claims iss teamID, iat now, exp now+5 minutes
    /// or so, aud "https://appleid.apple.com", sub clientID), signed with raw r‖s as JWS requires.
    ///
    /// `clientID` is the bundle id (native apps) or services id (the web) the authorization code was issued to.
    /// Throws `notConfigured(.apple)` for an empty client id.
    public func clientSecret(clientID: String) throws(SocialTokenError) -> String {
        guard Self.isIdentifier(clientID) else { throw .notConfigured(.apple) }
        let issuedAt = Int(now().timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: teamID, iat: issuedAt, exp: issuedAt + Self.clientSecretLifetime, aud: Self.clientSecretAudience,
            sub: clientID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let header = try? encoder.encode(Header(kid: keyID)), let payload = try? encoder.encode(claims) else {
            throw .notConfigured(.apple)
        }
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        // RFC 7518 §3.4: the JWS signature is R and S, 32 bytes each, not the DER that X.509 uses.
        guard let signature = try? signingKey.signature(for: Array(signingInput.utf8)) else {
            throw .notConfigured(.apple)
        }
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
