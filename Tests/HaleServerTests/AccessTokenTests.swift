import ByteEncoding
import Foundation
import HaleTesting
import JWTKit
import Testing
import WebAuthn

@testable import HaleServer

@Suite("Access tokens and signing keys")
struct AccessTokenTests {
    private func issue(_ tokens: AccessTokens, session: SessionID = .random()) async throws -> AccessTokens.Issued {
        try await tokens.signer().sign(account: .random(), session: session, device: nil, signInMethod: "test")
    }

    @Test func claimsAndHeader() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let account = AccountID.random()
            let session = SessionID.random()
            let device = DeviceID.random()
            let issued = try await app.hale.accessTokens.signer().sign(
                account: account, session: session, device: device, signInMethod: "passkey")
            let parts = issued.token.split(separator: ".").map(String.init)
            let header =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[0]))) as? [String: Any]
            let payload =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1]))) as? [String: Any]
            #expect(header?["alg"] as? String == "ES256")
            #expect(header?["typ"] as? String == "at+jwt")
            let kid = try #require(header?["kid"] as? String)
            #expect(try await app.hale.jwks().keys.map(\.kid) == [kid])
            #expect(payload?["sub"] as? String == account.description)
            #expect(payload?["sid"] as? String == session.description)
            #expect(payload?["device_id"] as? String == device.description)
            #expect(payload?["sign_in_method"] as? String == "passkey")
            #expect(payload?["iss"] as? String == "hale")
            #expect((payload?["jti"] as? String)?.isEmpty == false)
            let iat = try #require(payload?["iat"] as? Double)
            let exp = try #require(payload?["exp"] as? Double)
            #expect(exp - iat == 900)
            #expect(issued.expiresAt == time.clock.now().addingTimeInterval(900))
            let claims = try await app.hale.accessTokens.verify(issued.token)
            #expect(claims.sub.value == account.description)
        }
    }

    @Test func notAfterCapsTheExpiry() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let cap = time.clock.now().addingTimeInterval(120)
            let issued = try await app.hale.accessTokens.signer().sign(
                account: .random(), session: .random(), device: nil, signInMethod: "test", notAfter: cap)
            #expect(issued.expiresAt == cap)
        }
    }

    @Test func anExpiredTokenIsRejectedAsExpired() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let issued = try await issue(app.hale.accessTokens)
            time.advance(.seconds(901))
            await #expect(throws: HaleError.expiredToken) { try await app.hale.accessTokens.verify(issued.token) }
        }
    }

    @Test func aManuallyRotatedKeyVerifiesUntilItsTokensExpire() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let before = try await issue(app.hale.accessTokens)
            time.advance(.seconds(1))
            try await app.hale.rotateSigningKey()
            let after = try await issue(app.hale.accessTokens)
            #expect(AccessTokens.keyID(of: before.token) != AccessTokens.keyID(of: after.token))
            #expect(try await app.hale.jwks().keys.count == 2)
            _ = try await app.hale.accessTokens.verify(before.token)
            time.advance(.seconds(898))
            _ = try await app.hale.accessTokens.verify(before.token)
            time.advance(.seconds(900))
            #expect(try await app.hale.jwks().keys.count == 1)
        }
    }

    @Test func anOldKeyIsReplacedByOnePublishedAhead() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["tokens.signingKeyRotationInterval": "1d"]) { app in
            let first = try await issue(app.hale.accessTokens)
            time.advance(.seconds(86_401))
            let stillOld = try await issue(app.hale.accessTokens)
            #expect(AccessTokens.keyID(of: stillOld.token) == AccessTokens.keyID(of: first.token))
            let published = try await app.hale.jwks().keys.map(\.kid)
            #expect(published.count == 2)
            time.advance(.seconds(SigningKeyRing.publicationLead + 1))
            let new = try await issue(app.hale.accessTokens)
            let newKey = try #require(AccessTokens.keyID(of: new.token))
            #expect(newKey != AccessTokens.keyID(of: first.token))
            #expect(published.contains(newKey), "the new key was published before it signed")
            _ = try await app.hale.accessTokens.verify(stillOld.token)
        }
    }

    /// Two instances share keys through the database: a key one instance just created verifies on the other at once,
    /// although the other's key cache is still fresh.
    @Test func aKeyFromAnotherInstanceVerifiesAtOnce() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let repository = SQLSigningKeyRepository(database: app.hale.database)
            func instance() -> AccessTokens {
                let ring = SigningKeyRing(
                    repository: repository, sealer: app.hale.sealer, clock: time.clock,
                    rotationInterval: .seconds(86_400),
                    accessTokenLifetime: .seconds(900))
                return AccessTokens(keys: ring, issuer: "hale", lifetime: .seconds(900), clock: time.clock)
            }
            let first = instance()
            let second = instance()
            let early = try await issue(first)
            _ = try await second.verify(early.token)
            time.advance(.seconds(2))
            try await first.keys.rotate()
            let late = try await issue(first)
            #expect(AccessTokens.keyID(of: late.token) != AccessTokens.keyID(of: early.token))
            _ = try await second.verify(late.token)
        }
    }

    @Test func forgedTokensAreRejected() async throws {
        try await withHale { app in
            let issued = try await issue(app.hale.accessTokens)
            let parts = issued.token.split(separator: ".").map(String.init)
            func header(_ json: String) -> String { Base64URL.encode(Data(json.utf8)) }
            let kid = try #require(AccessTokens.keyID(of: issued.token))
            let tamperedPayload = Base64URL.encode(Data(#"{"sub":"someone-else"}"#.utf8))
            let candidates = [
                "\(header(#"{"alg":"none","typ":"at+jwt","kid":"\#(kid)"}"#)).\(parts[1]).",
                "\(header(#"{"alg":"HS256","typ":"at+jwt","kid":"\#(kid)"}"#)).\(parts[1]).\(parts[2])",
                "\(header(#"{"alg":"ES256","typ":"JWT","kid":"\#(kid)"}"#)).\(parts[1]).\(parts[2])",
                "\(header(#"{"alg":"ES256","typ":"at+jwt"}"#)).\(parts[1]).\(parts[2])",
                "\(parts[0]).\(tamperedPayload).\(parts[2])",
                "\(parts[0]).\(parts[1]).\(Base64URL.encode(Data(repeating: 1, count: 64)))",
                "not-a-jwt",
                "",
                try await foreignToken(),
            ]
            for token in candidates {
                await #expect(throws: HaleError.invalidToken) { try await app.hale.accessTokens.verify(token) }
            }
        }
    }

    /// A well-formed access token signed by a key Hale never issued.
    private func foreignToken() async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: ES256PrivateKey(), kid: "foreign")
        let now = Date()
        let claims = AccessTokenClaims(
            iss: "hale", sub: .init(value: AccountID.random().description), iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(60)), jti: "j", sid: SessionID.random().description,
            deviceId: nil, signInMethod: "test")
        var header = JWTHeader()
        header.typ = "at+jwt"
        return try await keys.sign(claims, kid: "foreign", header: header)
    }
}
