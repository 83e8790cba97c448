import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import hale

/// `hale accounts recover`: an operator starts a recovery that waits as recovery by email does, audited and told.
@Suite("hale accounts recover")
struct AccountsRecoverCommandTests {
    @Test("starts a waiting recovery, audited, whose claim token opens a recovery session after the delay")
    func startsAWaitingRecovery() async throws {
        let clock = TestClock()
        try await withHale(clock: clock.clock) { app in
            let (account, _) = try await makeAccount(app, email: "lost@example.com")
            let output = try await AccountsCommand.Recover.parse(["--email", "lost@example.com"]).start(using: app.hale)
            let id = try #require(UUID(uuidString: output.recoveryId))
            #expect(output.claimWith == "POST /api/v1/auth/recovery/claim")
            let pending = await #expect(throws: HaleError.self) {
                try await app.hale.accountRecoveries.claim(id, token: output.claimToken, ipRange: nil)
            }
            #expect(pending?.code == .recoveryPending)
            let waiting = try await app.hale.accountRecoveries.waiting(of: account.id)
            #expect(waiting.map(\.method) == ["operator"])
            clock.advance(.seconds(86_400))
            let (recovered, tokens) = try await app.hale.accountRecoveries.claim(
                id, token: output.claimToken, ipRange: nil)
            #expect(recovered == account.id && !tokens.accessToken.isEmpty)
            let types = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(types.contains("account_recovery_requested") && types.contains("account_recovered"))
        }
    }
}
