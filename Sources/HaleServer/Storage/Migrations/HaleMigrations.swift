import Fluent

/// Hale's migrations in order. Both databases run the same list.
enum HaleMigrations {
    static let all: [any Migration] = [
        M0001_CreateAccounts(),
        M0002_CreateSessions(),
        M0003_CreatePersonalAccessTokens(),
        M0004_CreateServerChallenges(),
        M0005_CreateSigningKeys(),
        M0006_CreatePasskeys(),
        M0007_CreateDevices(),
        M0008_CreateAuditEvents(),
        M0009_CreateSocialIdentities(),
        M0010_CreateHealthTotals(),
        M0011_CreateAppAttestKeys(),
        M0012_CreateHealthConsents(),
        M0013_CreateHealthConnections(),
        M0014_CreateHealthSamples(),
        M0015_CreateFitnessChallenges(),
        M0016_IndexHealthSampleEnds(),
        M0017_KeepExpiredChallengeProgress(),
        M0018_CreatePushOutbox(),
        M0019_PackHealthDaySummaries(),
        M0020_CreateConfirmations(),
        M0021_CreateDevelopmentAttestationAuthority(),
        M0022_MarkDevelopmentAttestKeys(),
        M0023_AddPersonalAccessTokenExpiry(),
        M0024_CountSignInFailuresPerNetwork(),
        M0025_OneFirebaseUserPerAccount(),
        M0026_MarkSuspectedClones(),
        M0027_KeepChallengesOfDeletedCreators(),
        M0028_PseudonymizeAuditAccounts(),
        M0029_NameInstallations(),
        M0030_TieTokensToDevices(),
        M0031_OpenAccountPageSessions(),
        M0032_CreateHealthImports(),
    ]
}
