import Foundation

/// Consent to health data, per account, platform and kind of data (seeds 000 and 004). Every read and write of
/// synced health data asks `require` first.
public struct HealthConsents: Sendable {
    let repository: any HealthConsentRepository
    let samples: any HealthSampleRepository
    /// Seed 001's attested day totals, which follow consent as synced data does.
    let attested: any HealthRepository
    let rollups: HealthRollupWriter
    let audit: AuditTrail
    let clock: HaleClock

    /// Grants consent to each of `permissions` from `platform`; returns the account's grants in force afterwards.
    public func grant(platform: HealthPlatform, permissions: [HealthSampleType], to account: AccountID) async throws
        -> [ConsentGrant]
    {
        try await grant(permissions, from: platform, to: account)
        return try await current(of: account)
    }

    /// Grants consent to `permissions` from `platform`.
    func grant(_ permissions: [HealthSampleType], from platform: HealthPlatform, to account: AccountID) async throws {
        try await repository.grant(permissions, from: platform, to: account, at: clock.now())
        try await audit.record(
            .healthConsentGranted, .init(account: account),
            details: ["platform": platform.rawValue, "permissions": permissions.map(\.rawValue).joined(separator: ",")])
    }

    /// Revokes consent: to `permission` from `platform`, to everything from `platform` when `permission` is nil,
    /// or to everything when both are nil, and deletes the synced data of what it revoked. Returns the grants it
    /// revoked.
    public func revoke(platform: HealthPlatform?, permission: HealthSampleType?, of account: AccountID) async throws
        -> [ConsentGrant]
    {
        let permissions = permission.map { [$0] }
        let revoked = try await repository.revoke(permissions, from: platform, of: account, at: clock.now())
        try await deleteData(of: revoked, account: account)
        try await forgetAttestedTotals(
            of: permissions ?? Array(HealthSampleType.attestedTotals),
            from: platform.map { [$0] } ?? HealthPlatform.allCases,
            account: account)
        if !revoked.isEmpty {
            try await audit.record(
                .healthConsentRevoked, .init(account: account),
                details: [
                    "grants": revoked.map { "\($0.platform.rawValue):\($0.permission.rawValue)" }.joined(
                        separator: ",")
                ])
        }
        return revoked
    }

    /// Forgets what seed 001's attested totals from `platforms` hold of `kinds`: everything a revocation names,
    /// whether or not a grant was recorded for it (totals uploaded before uploads recorded their grants have none).
    private func forgetAttestedTotals(
        of kinds: [HealthSampleType], from platforms: [HealthPlatform], account: AccountID
    ) async throws {
        let columns = kinds.compactMap(\.attestedTotalColumn)
        for platform in platforms {
            guard let attestedPlatform = platform.attestationPlatform else { continue }
            _ = try await attested.forget(columns, from: attestedPlatform.rawValue, of: account, at: clock.now())
        }
    }

    /// Deletes the samples the revoked grants covered, and the rollups built from them.
    private func deleteData(of revoked: [ConsentGrant], account: AccountID) async throws {
        let rollups = rollups
        let now = clock.now()
        for (platform, grants) in Dictionary(grouping: revoked, by: \.platform) {
            let providers = HealthProvider.allCases.filter { $0.platform == platform }.map(\.rawValue)
            let types = grants.map(\.permission.rawValue)
            try await samples.transaction { store in
                let deleted = try await store.delete(of: account, providers: providers, types: types)
                try await rollups.recompute(HealthRollupWriter.days(of: deleted), of: account, on: store, at: now)
                try await store.forgetExpiredProgress(of: account, types: types)
            }
        }
    }

    /// Every grant the account has made, revoked ones included, ordered by platform and permission.
    public func history(of account: AccountID) async throws -> [ConsentGrant] {
        try await repository.grants(of: account)
    }

    /// The account's grants in force, ordered by platform and permission.
    public func current(of account: AccountID) async throws -> [ConsentGrant] {
        try await repository.grants(of: account).filter(\.isActive)
    }

    /// Throws `CONSENT_REQUIRED` unless the account consents to `permission` from `platform`.
    public func require(_ permission: HealthSampleType, from platform: HealthPlatform, of account: AccountID)
        async throws
    {
        try await require([permission], from: platform, of: account)
    }

    /// Throws `CONSENT_REQUIRED`, naming the first kind in name order, unless the account consents to every one of
    /// `permissions` from `platform`. The grants are read once. The message starts "No health permissions", the words
    /// seed 004's app matches to send the person to Settings.
    public func require(_ permissions: Set<HealthSampleType>, from platform: HealthPlatform, of account: AccountID)
        async throws
    {
        guard !permissions.isEmpty else { return }
        let granted = Set(
            try await repository.grants(of: account).filter { $0.isActive && $0.platform == platform }.map(\.permission)
        )
        if let missing = permissions.subtracting(granted).min(by: { $0.rawValue < $1.rawValue }) {
            throw HaleError(
                .consentRequired, .forbidden,
                message:
                    "No health permissions for \(missing.rawValue) data from \(platform.rawValue): grant consent first."
            )
        }
    }

    /// Seed 001's rule for an attested upload of `permissions` from `platform`, whose app has a consent screen of
    /// its own but no Hale route to grant with: a submission is the person sharing that day, so a kind the person
    /// never decided on is granted by it (and audited); a kind whose grant the person revoked refuses it with
    /// `CONSENT_REQUIRED` until granted again. Call `refusedAttestedUpload` before the attestation is checked and
    /// this after.
    func grantByAttestedUpload(
        _ permissions: Set<HealthSampleType>, from platform: HealthPlatform, of account: AccountID
    )
        async throws
    {
        let decided = Set(try await repository.grants(of: account).filter { $0.platform == platform }.map(\.permission))
        let undecided = permissions.subtracting(decided).sorted { $0.rawValue < $1.rawValue }
        guard !undecided.isEmpty else { return }
        try await grant(undecided, from: platform, to: account)
    }

    /// Throws `CONSENT_REQUIRED`, naming the first kind in name order, when the account revoked its grant of one of
    /// `permissions` from `platform` and has not granted it again.
    func refuseRevokedAttestedUpload(
        _ permissions: Set<HealthSampleType>, from platform: HealthPlatform, of account: AccountID
    ) async throws {
        let grants = try await repository.grants(of: account).filter { $0.platform == platform }
        let revoked = Set(grants.map(\.permission)).subtracting(grants.filter(\.isActive).map(\.permission))
        if let refused = permissions.intersection(revoked).min(by: { $0.rawValue < $1.rawValue }) {
            throw HaleError(
                .consentRequired, .forbidden,
                message:
                    "Consent to \(refused.rawValue) data from \(platform.rawValue) was revoked; grant it again first.")
        }
    }
}
