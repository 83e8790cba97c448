import Foundation

/// Everything one social sign-in writes, applied in one transaction so that nothing is half-done.
struct SocialSignInWrite: Sendable {
    /// The account to create, for a sign-up.
    var newAccount: Account?
    /// The identity: inserted when new, its email and last sign-in updated otherwise.
    var identity: SocialIdentity
    /// Whether `identity` is new.
    var identityIsNew: Bool
    /// The cleaner profile collected at sign-up.
    var cleaner: CleanerProfile?
    /// Service ids by relation (`previous`, `preferred`), stored at sign-up.
    var services: [(relation: String, id: Int64)]
    /// Firebase tokens to register for the account; a token moves to the account that sent it last.
    var pushTokens: [String]
    /// The personal access token to issue.
    var token: PersonalAccessTokenRecord
    /// The device the sign-in made, to insert before the token that belongs to it.
    var newDevice: Device? = nil
    /// Appended with `newDevice` when the account existed before: a sign-in from an app installation it had not
    /// used.
    var newInstallationAudit: AuditAppend? = nil
}

/// Stores social identities and what sign-up collects.
protocol SocialAccountRepository: Sendable {
    /// How many social identities sign in to the account.
    func identityCount(of account: AccountID) async throws -> Int
    /// The identity for `(provider, subject)`.
    func identity(provider: String, subject: String) async throws -> SocialIdentity?
    /// The account's identity of `provider`, for a provider an account has at most one of (`firebase`).
    func identity(provider: String, of account: AccountID) async throws -> SocialIdentity?
    /// Inserts `identity`, after `newAccount` when given, in one transaction. Returns false, having written nothing,
    /// when a constraint refuses the write: the identity, the account's email, or the account's one identity of the
    /// provider, was taken meanwhile, or the account is gone.
    func link(_ identity: SocialIdentity, newAccount: Account?) async throws -> Bool
    /// Applies a sign-in in one transaction and returns the new personal access token's id. Throws `CONFLICT` when
    /// a new account's email or a new identity is taken meanwhile.
    func apply(_ write: SocialSignInWrite, at date: Date) async throws -> Int64
    /// Unlinks an identity and revokes the account's personal access tokens named `tokenName`, in one transaction.
    func unlink(_ identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date) async throws
    /// Forgets the identity's provider refresh token and revokes the account's personal access tokens named
    /// `tokenName`, keeping the link, in one transaction.
    func endAuthorization(of identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date)
        async throws
    /// Records whether forwarding to the identity's private relay address is off.
    func setRelayEmailDisabled(_ disabled: Bool, of identity: UUID) async throws
}
