import Foundation
import Logging

extension HealthData {
    /// Accepts an attested day of totals: plausible values, the account's nonce consumed once, the attestation
    /// verified, then stored — replacing an earlier submission for the same day and source, which it says.
    public func submit(
        _ submission: HealthSubmission, account: AccountID, device: DeviceID?, in timeZone: TimeZone, logger: Logger
    ) async throws -> (stored: HealthDailyTotal, replaced: Bool) {
        try plausibility.checkDay(submission.totals)
        let now = clock.now()
        let today = LocalDate(at: now, in: timeZone)
        let day = submission.date ?? today
        // A day ahead of the account's zone is still today somewhere on Earth; two days ahead is nowhere.
        guard day <= today.adding(days: 1) else { throw InvalidInput("date", .notInFuture) }
        guard plausibility.allows(day: day, today: today) else {
            throw InvalidInput(
                "date", .form("within the last \(HealthPlausibility.describe(seconds: plausibility.oldestStart))"))
        }
        let consentPlatform = submission.platform.consentPlatform
        try await consents.refuseRevokedAttestedUpload(
            HealthSampleType.attestedTotals, from: consentPlatform, of: account)
        try await consumeNonce(submission.nonce, of: account)
        try await attestation.verify(
            submission.attestationToken, platform: submission.platform, nonce: submission.nonce, account: account,
            device: device, logger: logger)
        try await consents.grantByAttestedUpload(HealthSampleType.attestedTotals, from: consentPlatform, of: account)
        return try await repository.save(
            HealthDailyTotal(
                id: UUID(), accountId: account, day: day, source: submission.source,
                platform: submission.platform.rawValue, totals: submission.totals, createdAt: now, updatedAt: now))
    }

    /// Consumes a nonce of the account, with seed 001's messages.
    func consumeNonce(_ nonce: String, of account: AccountID) async throws {
        do {
            _ = try await challenges.consume(kind: Self.nonceKind, value: nonce, binding: .init(accountId: account))
        } catch let rejection as ChallengeRejection {
            switch rejection {
            case .alreadyUsed: throw HaleError.invalidRequest("Nonce has already been used")
            case .expired: throw HaleError.invalidRequest("Nonce has expired")
            case .unknown, .boundElsewhere: throw HaleError.invalidRequest("Invalid nonce")
            }
        }
    }
}

extension HealthData {
    /// Registers an iOS app's App Attest key for the account (and device): its attestation must be made with
    /// clientDataHash = SHA-256 of one of the account's nonces, consumed here.
    func registerAppAttestKey(
        attestation: [UInt8], keyID: [UInt8], nonce: String, account: AccountID, device: DeviceID?, logger: Logger
    ) async throws -> AppAttestKey {
        try await consumeNonce(nonce, of: account)
        return try await self.attestation.register(
            attestation: attestation, keyID: keyID, nonce: nonce, account: account, device: device, logger: logger)
    }

}
