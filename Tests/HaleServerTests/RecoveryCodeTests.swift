import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Recovery codes: made with a fresh sign-in, shown once, stored hashed, each used once, and what one opens can only
/// enrol one new credential.
@Suite("HTTP: recovery codes")
struct RecoveryCodeTests {
    static let settings = MobileBiometricTests.settings

    /// Makes the account's codes with `bearer`; the answer.
    static func generate(_ app: Application, bearer: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.POST, "/api/v1/account/recovery-codes", headers: .bearer(bearer))
    }

    static func codes(_ response: TestingHTTPResponse) throws -> [String] {
        #expect(response.status == .created, "\(response.body.string)")
        return try #require(try response.json()["codes"] as? [String])
    }

    static func recover(_ app: Application, code: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/auth/recovery", headers: .json(),
            body: ByteBuffer(data: try JSONEncoder().encode(["code": code])))
    }

    static func remaining(_ app: Application, bearer: String) async throws -> Int? {
        let response = try await app.testing().sendRequest(
            .GET, "/api/v1/account/recovery-codes", headers: .bearer(bearer))
        return try response.json()["remaining"] as? Int
    }

    @Test(
        "a lost phone: a recovery code opens a session that enrols one new device, and nothing else",
        arguments: TestDatabase.available)
    func recoverWithACode(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let (account, fresh) = try await makeSignedInAccount(app)
            try await devices.register(try DeviceClient(.iOS), bearer: fresh)
            let codes = try Self.codes(try await Self.generate(app, bearer: fresh))
            #expect(codes.count == 10 && Set(codes).count == 10)
            #expect(codes.allSatisfy { $0.wholeMatch(of: /[a-z2-7]{4}(-[a-z2-7]{4}){3}/) != nil })
            #expect(try await Self.remaining(app, bearer: fresh) == 10)
            let stored = try await app.hale.database.sql.raw("SELECT code_hash FROM recovery_codes").all()
                .map { try $0.decode(column: "code_hash", as: String.self) }
            #expect(Set(stored) == Set(codes.map { OpaqueToken.hash($0.replacingOccurrences(of: "-", with: "")) }))

            // The phone is gone. A code, typed in capitals and with spaces, opens a recovery session.
            let typed = codes[3].uppercased().replacingOccurrences(of: "-", with: " ")
            let recovered = try await Self.recover(app, code: typed)
            #expect(recovered.status == .ok, "\(recovered.body.string)")
            let body = try recovered.json()
            #expect(Set(body.keys) == ["accessToken", "accessTokenExpiresAt", "accountId"])
            #expect(body["accountId"] as? String == account.id.description)
            let recovery = try #require(body["accessToken"] as? String)

            for (method, path) in [
                (HTTPMethod.GET, "/api/v1/account"), (.POST, "/api/v1/auth/logout-all"),
                (.POST, "/api/v1/auth/handoff"),
                (.GET, "/api/v1/devices"), (.POST, "/api/v1/account/recovery-codes"),
                (.GET, "/api/v1/health/sync-logs"),
            ] {
                let refused = try await app.testing().sendRequest(method, path, headers: .bearer(recovery))
                #expect(refused.status == .forbidden, "\(path)")
                #expect(try refused.coreError().error.code == "RECOVERY_SESSION_RESTRICTED", "\(path)")
            }

            let newPhone = try DeviceClient(.android)
            try await devices.register(newPhone, bearer: recovery)
            let again = try await devices.registrationChallenge(try DeviceClient(.android), bearer: recovery)
            #expect(again.status == .unauthorized, "the recovery session ended with its one enrolment")
            let signedIn = try devices.decode(DeviceAPI.SignedIn.self, try await devices.signIn(newPhone))
            #expect(try await Self.remaining(app, bearer: signedIn.tokens.accessToken) == 9)

            let reused = try await Self.recover(app, code: codes[3])
            #expect(reused.status == .unauthorized)
            #expect(try reused.coreError().error.code == "RECOVERY_CODE_INVALID")
            let types = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(types.contains("recovery_codes_created") && types.contains("recovery_code_used"))
        }
    }

    @Test("a recovery session adds one passkey through seed 000's registration, then ends")
    func recoverWithAPasskey() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, fresh) = try await makeSignedInAccount(app)
            let codes = try Self.codes(try await Self.generate(app, bearer: fresh))
            let recovered = try await Self.recover(app, code: codes[0])
            let recovery = try #require(try recovered.json()["accessToken"] as? String)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await CredentialChangeTests.Passkeys(app: app).add(&passkey, bearer: recovery)
            #expect(try await app.hale.passkeys.list(for: account.id).count == 1)
            let after = try await CredentialChangeTests.Passkeys(app: app).registrationOptions(bearer: recovery)
            #expect(after.status == .unauthorized)
        }
    }

    @Test("making codes needs a fresh sign-in, and new codes replace the old")
    func generating() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, operatorToken) = try await makeAccount(app)
            let refused = try await Self.generate(app, bearer: operatorToken)
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
            let fresh = try await freshSignIn(app, account.id)
            let first = try Self.codes(try await Self.generate(app, bearer: fresh))
            let second = try Self.codes(try await Self.generate(app, bearer: fresh))
            #expect(Set(first).isDisjoint(with: second))
            #expect(try await Self.recover(app, code: first[0]).status == .unauthorized)
            #expect(try await Self.recover(app, code: second[0]).status == .ok)
        }
    }

    @Test(
        "what is not a code is a 400; an unknown code a 401, the same as a used one",
        arguments: ["", "abcd", String(repeating: "a", count: 65), "abcd-efgh-ijkl-mno1", "abcd-efgh-ijkl-mnop-q"])
    func badCodes(code: String) async throws {
        try await withHale(settings: Self.settings) { app in
            let response = try await Self.recover(app, code: code)
            #expect(response.status == .badRequest)
            #expect(try await Self.recover(app, code: "abcd-efgh-ijkl-mnop").status == .unauthorized)
        }
    }

    @Test("two racing uses of one code: one session", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func racingUses(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (_, fresh) = try await makeSignedInAccount(app)
            let code = try Self.codes(try await Self.generate(app, bearer: fresh))[0]
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await Self.recover(app, code: code).status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .unauthorized }.count == 7)
        }
    }

    /// A recovery session's access token, from a code of a new account that has one device.
    static func recoverySession(_ app: Application) async throws -> String {
        let (_, fresh) = try await makeSignedInAccount(app)
        try await DeviceAPI(app: app).register(try DeviceClient(.iOS), bearer: fresh)
        let code = try Self.codes(try await Self.generate(app, bearer: fresh))[0]
        return try #require(try await Self.recover(app, code: code).json()["accessToken"] as? String)
    }

    @Test(
        "two enrolments racing on one recovery session: one device", .racesNeedPostgreSQL,
        arguments: TestDatabase.available)
    func racingEnrolments(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let recovery = try await Self.recoverySession(app)
            var answers: [[String: any Sendable]] = []
            for _ in 0..<4 {
                let client = try DeviceClient(.android)
                let challenge = try devices.decode(
                    DeviceAPI.Challenge.self, try await devices.registrationChallenge(client, bearer: recovery))
                answers.append([
                    "sessionId": challenge.sessionId, "signedChallenge": try client.sign(challenge.challenge),
                ])
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for answer in answers {
                    group.addTask {
                        try await devices.post("/api/v1/devices/register/verify", answer, bearer: recovery).status
                    }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .unauthorized }.count == 3, "\(statuses)")
        }
    }

    @Test("an enrolment that fails gives the recovery session back for another try")
    func failedEnrolment() async throws {
        try await withHale(settings: Self.settings) { app in
            let devices = DeviceAPI(app: app)
            let recovery = try await Self.recoverySession(app)
            let client = try DeviceClient(.android)
            let challenge = try devices.decode(
                DeviceAPI.Challenge.self, try await devices.registrationChallenge(client, bearer: recovery))
            let forged = try await devices.post(
                "/api/v1/devices/register/verify",
                [
                    "sessionId": challenge.sessionId,
                    "signedChallenge": try DeviceClient(.android).sign(challenge.challenge),
                ],
                bearer: recovery)
            #expect(forged.status == .badRequest, "\(forged.body.string)")
            try await devices.register(client, bearer: recovery)
            #expect(
                try await devices.registrationChallenge(try DeviceClient(.iOS), bearer: recovery).status
                    == .unauthorized)
        }
    }
}
