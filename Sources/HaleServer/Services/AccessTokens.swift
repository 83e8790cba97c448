import Foundation
import JWTKit

/// Signs and verifies access tokens: ES256 JWTs with a `kid`, short-lived, whose keys are published as a JWK Set.
public struct AccessTokens: Sendable {
    /// A signed access token and when it expires.
    public struct Issued: Sendable {
        /// The compact JWS.
        public let token: String
        /// When it expires.
        public let expiresAt: Date
    }

    let keys: SigningKeyRing
    let issuer: String
    let lifetime: Duration
    let clock: HaleClock

    /// Signs a token for the account, its session, device and sign-in method.
    public func issue(account: AccountID, session: SessionID?, device: DeviceID?, signInMethod: String) async throws
        -> Issued
    {
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(lifetime.timeInterval)
        let claims = AccessTokenClaims(
            iss: .init(value: issuer), sub: .init(value: account.description), iat: .init(value: now),
            exp: .init(value: expiresAt), jti: .init(value: OpaqueToken.generate(byteCount: 16)),
            sid: session?.description, deviceId: device?.description, signInMethod: signInMethod)
        let (kid, collection) = try await keys.signingKey()
        let token = try await collection.sign(claims, kid: JWKIdentifier(string: kid))
        return Issued(token: token, expiresAt: expiresAt)
    }

    /// Verifies a token's header, signature, issuer and lifetime; throws `HaleError` `TOKEN_INVALID` or
    /// `TOKEN_EXPIRED`.
    public func verify(_ token: String) async throws -> AccessTokenClaims {
        guard let kid = Self.es256KeyID(of: token),
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

    /// The `kid` of a token whose header declares ES256 and names a key; `nil` for any other header.
    static func es256KeyID(of token: String) -> String? {
        guard let encodedHeader = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let headerData = Base64URL.decode(String(encodedHeader)),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["alg"] as? String == "ES256",
            let kid = header["kid"] as? String, !kid.isEmpty
        else {
            return nil
        }
        return kid
    }
}
