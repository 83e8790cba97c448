import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 002's journey for each client flavour: register a hardware key, sign in by signing a challenge, refresh,
/// and see a reused refresh token end the session.
@Suite("HTTP: seed 002 device keys, sign-in")
struct DeviceSignInTests {
    static let cases = DeviceFlavour.allCases.flatMap { flavour in TestDatabase.available.map { (flavour, $0) } }

    @Test(arguments: cases)
    func registerSignInRefreshAndReuse(flavour: DeviceFlavour, database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeAccount(app)
            let client = try DeviceClient(flavour)
            let deviceId = try await api.register(client, bearer: bearer)

            let signedIn = try await api.signIn(client)
            #expect(signedIn.status == .ok, "\(signedIn.body.string)")
            let first = try api.decode(DeviceAPI.SignedIn.self, signedIn)
            #expect(first.success)
            let claims = try await app.hale.accessTokens.verify(first.tokens.accessToken)
            #expect(claims.sub.value == account.id.description)
            #expect(claims.signInMethod == "device_key")
            #expect(claims.deviceId == deviceId)

            let refreshed = try await api.refresh(first.tokens.refreshToken)
            #expect(refreshed.status == .ok)
            let second = try api.decode(DeviceAPI.Tokens.self, refreshed)
            let third = try api.decode(DeviceAPI.Tokens.self, try await api.refresh(second.refreshToken))

            let reused = try await api.refresh(first.tokens.refreshToken)
            #expect(reused.status == .unauthorized)
            #expect(try reused.coreError().error.code == "REFRESH_FAILED")
            let afterRevocation = try await api.refresh(third.refreshToken)
            #expect(try afterRevocation.coreError().error.code == "TOKEN_INVALID")
        }
    }

    @Test("the key's real type and the client's convention are recorded", arguments: DeviceFlavour.allCases)
    func recordsKeyTypeAndConvention(flavour: DeviceFlavour) async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeAccount(app)
            try await api.register(try DeviceClient(flavour), bearer: bearer)
            let key = try #require(try await app.hale.devices.list(for: account.id).first?.keys.first)
            #expect(key.declaredAlgorithm == "ES256")
            switch flavour {
            case .iOS:
                #expect(key.keyType == "ec-p256")
                #expect(key.signatureConvention == "ECDSA_SHA256_OF_SHA256_DIGEST")
            case .android:
                #expect(key.keyType == "ec-p256")
                #expect(key.signatureConvention == "ECDSA_SHA256")
            case .reactNativeAndroid:
                #expect(key.keyType == "rsa-2048")
                #expect(key.signatureConvention == "RSA_PKCS1V15_SHA256")
            }
        }
    }

    @Test(
        "twenty parallel answers to one challenge start exactly one session", .racesNeedPostgreSQL,
        arguments: TestDatabase.available)
    func parallelVerifies(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeAccount(app)
            let client = try DeviceClient(.android)
            try await api.register(client, bearer: bearer)
            let challenge = try await api.signInChallenge(client.fingerprint)
            let signature = try client.sign(challenge.challenge)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await api.signIn(sessionId: challenge.sessionId, signature: signature).status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .badRequest }.count == 19)
            #expect(try await app.hale.sessions.active(of: account.id).count == 1)
        }
    }

    @Test("a fingerprint shared by two installations signs in whichever key signed")
    func sharedFingerprint() async throws {
        try await withHale { app in
            let api = DeviceAPI(app: app)
            let (first, firstBearer) = try await makeAccount(app, email: "one@example.com")
            let (second, secondBearer) = try await makeAccount(app, email: "two@example.com")
            let one = try DeviceClient(.iOS, fingerprint: "iOS-17.4-iPhone-FaceID-SHARED00")
            let two = try DeviceClient(.android, fingerprint: "iOS-17.4-iPhone-FaceID-SHARED00")
            try await api.register(one, bearer: firstBearer)
            try await api.register(two, bearer: secondBearer)
            for (client, account) in [(one, first), (two, second)] {
                let tokens = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens
                #expect(try await app.hale.accessTokens.verify(tokens.accessToken).sub.value == account.id.description)
            }
        }
    }

    @Test("rememberMe selects the longer session")
    func rememberMe() async throws {
        try await withRegisteredDevice(.iOS) { api, client, _ in
            let challenge = try await api.signInChallenge(client.fingerprint)
            let response = try await api.signIn(
                sessionId: challenge.sessionId, signature: try client.sign(challenge.challenge), rememberMe: true)
            let tokens = try api.decode(DeviceAPI.SignedIn.self, response).tokens
            let expiry = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(
                tokens.refreshTokenExpiresAt)
            #expect(expiry.timeIntervalSinceNow > 29 * 86_400)
        }
    }
}
