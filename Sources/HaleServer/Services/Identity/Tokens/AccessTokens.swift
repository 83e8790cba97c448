import ByteEncoding
import Foundation
import JWTKit

/// Signs and verifies access tokens: ES256 JWTs of type `at+jwt` with a `kid`, short-lived, whose keys are
/// published as a JWK Set.
public struct AccessTokens: Sendable {
    /// A signed access token and when it expires.
    public struct Issued: Sendable {
        /// The compact JWS.
        public let token: String
        /// When it expires.
        public let expiresAt: Date
    }

    /// Signs with the key that was current when it was made. Making one may read the database; signing does not,
    /// so a signer can be made before a transaction and used inside it.
    public struct Signer: Sendable {
        let kid: String
        let collection: JWTKeyCollection
        let issuer: String
        let audiences: [String]
        let lifetime: Duration
        let clock: HaleClock

        /// Signs a token for a session. It expires after the configured lifetime, or at `notAfter` if sooner; with
        /// `boundTo`, it names the key its session is bound to as `cnf.jkt`.
        public func sign(
            account: AccountID, session: SessionID, device: DeviceID?, signInMethod: String, notAfter: Date? = nil,
            boundTo key: AttestedInstanceKey? = nil
        ) async throws -> Issued {
            let now = clock.now()
            let expiresAt = min(now.addingTimeInterval(lifetime.timeInterval), notAfter ?? .distantFuture)
            let claims = AccessTokenClaims(
                iss: .init(value: issuer), aud: audiences.isEmpty ? nil : AudienceClaim(value: audiences),
                sub: .init(value: account.description), iat: .init(value: now),
                exp: .init(value: expiresAt), jti: .init(value: OpaqueToken.generate(byteCount: 16)),
                sid: session.description, deviceId: device?.description, signInMethod: signInMethod,
                cnf: key.map { AccessTokenClaims.Confirmation(jkt: $0.thumbprint) })
            var header = JWTHeader()
            header.typ = AccessTokens.type
            let token = try await collection.sign(claims, kid: JWKIdentifier(string: kid), header: header)
            return Issued(token: token, expiresAt: expiresAt)
        }
    }

    /// The JOSE `typ` of access tokens (RFC 9068), so that no other JWT signed with these keys passes as one.
    static let type = "at+jwt"

    let keys: SigningKeyRing
    let issuer: String
    /// The `aud` of every token signed; none when empty. Hale itself does not read it: it is for resource servers.
    var audiences: [String] = []
    let lifetime: Duration
    let clock: HaleClock

    /// A signer with the current key, rotating it first when it is due.
    public func signer() async throws -> Signer {
        let (kid, collection) = try await keys.signingKey()
        return Signer(
            kid: kid, collection: collection, issuer: issuer, audiences: audiences, lifetime: lifetime, clock: clock)
    }

    /// Verifies a token's header, signature, issuer and lifetime; throws `HaleError` `TOKEN_INVALID` or
    /// `TOKEN_EXPIRED`.
    public func verify(_ token: String) async throws -> AccessTokenClaims {
        guard let kid = Self.keyID(of: token),
            let collection = try await keys.verificationKeys(for: kid),
            let claims = try? await collection.verify(token, as: AccessTokenClaims.self),
            claims.iss.value == issuer
        else {
            throw HaleError.invalidToken
        }
        let now = clock.now()
        guard claims.iat.value <= now.addingTimeInterval(60) else { throw HaleError.invalidToken }
        guard claims.exp.value > now else { throw HaleError.expiredToken }
        return claims
    }

    /// The `kid` of a token whose header declares ES256 and `at+jwt` and names a key; `nil` for any other header.
    static func keyID(of token: String) -> String? {
        guard let encodedHeader = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let headerData = Base64URL.decode(String(encodedHeader)),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["alg"] as? String == "ES256", header["typ"] as? String == type,
            let kid = header["kid"] as? String, !kid.isEmpty
        else {
            return nil
        }
        return kid
    }
}
