import Foundation
import Testing

@testable import HaleClient

/// The SDK's calls for verified email addresses: the paths and bodies the server documents, and its answers decoded.
@Suite("HaleClient: email addresses")
struct EmailAddressCallTests {
    static let address = #"{"email":"a@example.com","verifiedBy":"code","verifiedAt":"2026-11-28T15:00:00.000Z"}"#

    @Test("ask for a code, verify, list and remove, each on the documented route")
    func journey() async throws {
        let script = ScriptedURLProtocol.script([
            .status(202, body: #"{"email":"a@example.com","expiresAt":"2026-11-28T15:10:00.000Z"}"#),
            .status(200, body: Self.address),
            .status(200, body: #"{"emails":[\#(Self.address)]}"#),
            .status(204, body: ""),
        ])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        try await client.requestEmailCode(for: "a@example.com")
        let verified = try await client.verifyEmail("a@example.com", code: "012345")
        #expect(verified.email == "a@example.com" && verified.verifiedBy == "code")
        #expect(try await client.emailAddresses() == [verified])
        try await client.removeEmail("a@example.com")
        #expect(
            script.asked == [
                "POST /api/v1/account/emails", "POST /api/v1/account/emails/verify", "GET /api/v1/account/emails",
                "DELETE /api/v1/account/emails/a@example.com",
            ])
    }

    @Test("a wrong code is the server's error, not a refresh")
    func wrongCode() async throws {
        let body = #"{"success":false,"error":{"code":"EMAIL_CODE_INVALID","message":"The code is wrong."}}"#
        let script = ScriptedURLProtocol.script([.status(400, body: body)])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        await #expect(throws: HaleClientError.self) { try await client.verifyEmail("a@example.com", code: "000000") }
        #expect(script.asked == ["POST /api/v1/account/emails/verify"])
    }
}

/// Recovery and sign-in by email code in the SDK: the waiting recovery kept for its claim, the sessions held.
@Suite("HaleClient: recovery and sign-in by email")
struct EmailRecoveryCallTests {
    @Test("a waiting recovery, then its claim: the client holds the recovery session")
    func waitingThenClaimed() async throws {
        let waiting =
            #"{"recoveryId":"r-1","claimToken":"claim","pairingCode":"42","readyAt":"2026-11-29T15:00:00.000Z","#
            + #""expiresAt":"2026-11-30T15:00:00.000Z"}"#
        let session = #"{"accessToken":"rec","accessTokenExpiresAt":"2026-11-29T15:15:00.000Z","accountId":"acct"}"#
        let script = ScriptedURLProtocol.script([
            .status(202, body: #"{"email":"a@example.com","expiresAt":"2026-11-28T15:10:00.000Z"}"#),
            .status(202, body: waiting), .status(200, body: session),
        ])
        let client = script.client()
        try await client.requestRecoveryCode(toEmail: "a@example.com")
        let started = try await client.recover(withEmail: "a@example.com", code: "123456")
        #expect(
            started
                == .waiting(
                    recoveryId: "r-1", claimToken: "claim", pairingCode: "42", readyAt: "2026-11-29T15:00:00.000Z"))
        #expect(await client.sessionTokens == nil)
        #expect(try await client.claimRecovery(id: "r-1", claimToken: "claim") == "acct")
        #expect(await client.sessionTokens == SessionTokens(accessToken: "rec", refreshToken: nil))
        #expect(
            script.asked == [
                "POST /api/v1/auth/recovery/email", "POST /api/v1/auth/recovery/email/verify",
                "POST /api/v1/auth/recovery/claim",
            ])
    }

    @Test("no wait: the code's answer is the recovery session")
    func noWait() async throws {
        let session = #"{"accessToken":"rec","accessTokenExpiresAt":"2026-11-29T15:15:00.000Z","accountId":"acct"}"#
        let script = ScriptedURLProtocol.script([.status(200, body: session)])
        let client = script.client()
        #expect(try await client.recover(withEmail: "a@example.com", code: "123456") == .recovering(accountId: "acct"))
        #expect(await client.sessionTokens == SessionTokens(accessToken: "rec", refreshToken: nil))
    }

    @Test("sign-in by email code holds the session's tokens")
    func emailSignIn() async throws {
        let body =
            #"{"accountId":"acct","tokens":{"accessToken":"a","refreshToken":"r","#
            + #""accessTokenExpiresAt":"2026-11-28T15:15:00.000Z","refreshTokenExpiresAt":"2026-12-28T15:00:00.000Z"}}"#
        let script = ScriptedURLProtocol.script([.status(200, body: body)])
        let client = script.client()
        #expect(try await client.signIn(withEmail: "a@example.com", code: "123456") == "acct")
        #expect(await client.sessionTokens == SessionTokens(accessToken: "a", refreshToken: "r"))
        #expect(script.asked == ["POST /api/v1/auth/email/sign-in"])
    }

    @Test("a new phone asks another device; the signed-in device approves with the pairing code")
    func approvedByAnotherDevice() async throws {
        let asked = #"{"recoveryId":"r-2","claimToken":"c","pairingCode":"07","expiresAt":"2026-11-28T15:10:00.000Z"}"#
        let script = ScriptedURLProtocol.script([.status(202, body: asked), .status(204, body: "")])
        let client = script.client()
        let request = try await client.requestRecoveryApproval(naming: "a@example.com")
        #expect(request.pairingCode == "07" && request.recoveryId == "r-2")
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        try await client.approveRecovery(id: "r-2", pairingCode: "07")
        #expect(script.asked == ["POST /api/v1/auth/recovery/device", "POST /api/v1/account/recoveries/r-2/approve"])
    }
}
