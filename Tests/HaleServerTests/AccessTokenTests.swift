import Foundation
import HaleTesting
import JWTKit
import Testing

@testable import HaleServer

@Suite("Access tokens and signing keys")
struct AccessTokenTests {
    @Test func claimsAndHeader() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let account = AccountID.random()
            let session = SessionID.random()
            let device = DeviceID.random()
            let issued = try await app.hale.accessTokens.issue(
                account: account, session: session, device: device, signInMethod: "passkey")
            let parts = issued.token.split(separator: ".").map(String.init)
            let header =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[0]))) as? [String: Any]
            let payload =
                try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1]))) as? [String: Any]
            #expect(header?["alg"] as? String == "ES256")
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

    @Test func anExpiredTokenIsRejectedAsExpired() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let issued = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            time.advance(.seconds(901))
            await #expect(throws: HaleError.expiredToken) { try await app.hale.accessTokens.verify(issued.token) }
        }
    }

    @Test func rotatedKeysVerifyUntilTheirTokensExpire() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let before = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            try await app.hale.rotateSigningKey()
            let after = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            #expect(AccessTokens.es256KeyID(of: before.token) != AccessTokens.es256KeyID(of: after.token))
            #expect(try await app.hale.jwks().keys.count == 2)
            _ = try await app.hale.accessTokens.verify(before.token)
            time.advance(.seconds(901))
            #expect(try await app.hale.jwks().keys.count == 1)
            await #expect(throws: HaleError.invalidToken) { try await app.hale.accessTokens.verify(before.token) }
        }
    }

    @Test func theKeyRotatesByItselfWhenItIsOld() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["tokens.signingKeyRotationInterval": "1d"]) { app in
            let first = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            time.advance(.seconds(86_401))
            let second = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            #expect(AccessTokens.es256KeyID(of: first.token) != AccessTokens.es256KeyID(of: second.token))
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
                    repository: repository, clock: time.clock, rotationInterval: .seconds(86_400),
                    accessTokenLifetime: .seconds(900))
                return AccessTokens(keys: ring, issuer: "hale", lifetime: .seconds(900), clock: time.clock)
            }
            let first = instance()
            let second = instance()
            let early = try await first.issue(account: .random(), session: nil, device: nil, signInMethod: "test")
            _ = try await second.verify(early.token)
            time.advance(.seconds(2))
            try await first.keys.rotate()
            let late = try await first.issue(account: .random(), session: nil, device: nil, signInMethod: "test")
            #expect(AccessTokens.es256KeyID(of: late.token) != AccessTokens.es256KeyID(of: early.token))
            _ = try await second.verify(late.token)
        }
    }

    @Test func forgedTokensAreRejected() async throws {
        try await withHale { app in
            let issued = try await app.hale.accessTokens.issue(
                account: .random(), session: nil, device: nil, signInMethod: "test")
            let parts = issued.token.split(separator: ".").map(String.init)
            let noneHeader = Base64URL.encode(Data(#"{"alg":"none","kid":"x"}"#.utf8))
            let tamperedPayload = Base64URL.encode(Data(#"{"sub":"someone-else"}"#.utf8))
            let candidates = [
                "\(noneHeader).\(parts[1]).",
                "\(parts[0]).\(tamperedPayload).\(parts[2])",
                "\(parts[0]).\(parts[1]).\(Base64URL.encode(Data(repeating: 1, count: 64)))",
                "not-a-jwt",
                "",
                try await otherIssuerToken(),
            ]
            for token in candidates {
                await #expect(throws: HaleError.invalidToken) { try await app.hale.accessTokens.verify(token) }
            }
        }
    }

    /// A well-formed ES256 token signed by a key Hale never issued.
    private func otherIssuerToken() async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: ES256PrivateKey(), kid: "foreign")
        let now = Date()
        let claims = AccessTokenClaims(
            iss: "hale", sub: "x", iat: .init(value: now), exp: .init(value: now.addingTimeInterval(60)),
            jti: "j", sid: nil, deviceId: nil, signInMethod: "test")
        return try await keys.sign(claims, kid: "foreign")
    }
}
