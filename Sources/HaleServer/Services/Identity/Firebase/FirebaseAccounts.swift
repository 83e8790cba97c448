import Foundation
import Logging
import SocialTokens

/// Seed 000's Firebase users as Hale accounts: a Firebase ID token is a bearer token of seed 000's routes, its uid
/// maps to exactly one account (made on the uid's first use, linked thereafter), and passkey sign-in hands the app a
/// custom token for that uid, so that `signInWithCustomToken` signs the same person in to Firebase.
///
/// The link is a social identity with provider `firebase`: `(provider, subject)` is unique, so a uid has one
/// account, and an account has at most one uid (migration M0025). Two first uses that race both insert; the
/// database keeps one, and the other reads it.
public struct FirebaseAccounts: Sendable {
    /// The social identity provider of the link, and the sign-in method of a Firebase bearer.
    static let provider = "firebase"

    let verifier: any FirebaseIDTokenVerifier
    let repository: any SocialAccountRepository
    let accounts: Accounts
    /// Where the address Firebase verified is kept as a new account's.
    let emailAddresses: EmailAddresses
    /// Nil when no service account is configured: passkey sign-in then answers Hale's tokens only.
    let customTokens: FirebaseCustomTokenSigner?
    let clock: HaleClock

    /// The identity a Firebase ID token proves: its uid's account, made now if the uid is new. It carries no Hale
    /// session; `signedInAt` is the token's `auth_time` and `expiresAt` its `exp`.
    ///
    /// Hale cannot revoke a Firebase ID token, so it refuses one whose sign-in (`auth_time`, to the second, as
    /// Firebase's own revocation check does) came before the account's sign-ins were ended (signed out everywhere, a
    /// device revoked) or before its Firebase user's account was deleted.
    public func authenticate(idToken: String, logger: Logger) async throws -> AuthenticatedAccount {
        let user = try await verifier.verifyFirebaseIDToken(idToken, logger: logger)
        if let deleted = try await accounts.repository.firebaseUserDeleted(uidHash: Self.uidHash(user.uid)),
            Self.signedIn(user, before: deleted)
        {
            logger.notice("firebase id token from before its user's account was deleted")
            throw Self.ended
        }
        let account = try await account(of: user, logger: logger)
        if let ended = try await accounts.repository.signInsEnded(of: account), Self.signedIn(user, before: ended) {
            logger.notice("firebase id token from before the account's sign-ins were ended")
            throw Self.ended
        }
        return AuthenticatedAccount(
            accountId: account, sessionId: nil, deviceId: nil, signInMethod: Self.provider,
            credential: .firebaseIDToken(uid: user.uid), expiresAt: user.expiresAt,
            signedInAt: user.authenticatedAt)
    }

    /// The account `user`'s uid signs in to, made on the uid's first use with the email Firebase verified, unless
    /// another account holds that address: then the address is kept unverified, and never links the two.
    func account(of user: VerifiedFirebaseUser, logger: Logger) async throws -> AccountID {
        if let linked = try await repository.identity(provider: Self.provider, subject: user.uid) {
            return linked.accountId
        }
        let email = user.email.flatMap { try? AccountEmail($0) }
        var verifiedEmail = user.emailVerified ? email : nil
        if let address = verifiedEmail, try await accounts.find(email: address) != nil { verifiedEmail = nil }
        // A second try without the verified address: another account may have taken it meanwhile.
        for address in verifiedEmail == nil ? [nil] : [verifiedEmail, nil] {
            let now = clock.now()
            let account = Account(
                id: .random(), email: address?.value, unverifiedEmail: address == nil ? email?.value : nil,
                role: "user", createdAt: now, updatedAt: now)
            let identity = firebaseIdentity(uid: user.uid, account: account.id, user: user, at: now)
            if try await repository.link(identity, newAccount: account) {
                logger.info("firebase user's first use made an account", metadata: ["account": "\(account.id)"])
                if let mailable = address.flatMap({ EmailAddress($0.value) }) {
                    try await emailAddresses.adopt(mailable, verifiedBy: Self.provider, for: account.id)
                }
                return account.id
            }
            if let linked = try await repository.identity(provider: Self.provider, subject: user.uid) {
                return linked.accountId
            }
        }
        throw Self.conflict
    }

    /// A custom token for the account's Firebase uid, for `signInWithCustomToken`; nil when no service account is
    /// configured.
    public func customToken(for account: AccountID) async throws -> String? {
        guard let customTokens else { return nil }
        return try customTokens.customToken(uid: try await uid(of: account))
    }

    /// The account's uid: the one it was made or linked with; for an account no Firebase user has used yet, its own
    /// id, linked now, so that the Firebase user the custom token makes maps back to this account.
    func uid(of account: AccountID) async throws -> String {
        if let linked = try await repository.identity(provider: Self.provider, of: account) { return linked.subject }
        let identity = firebaseIdentity(uid: account.description, account: account, user: nil, at: clock.now())
        if try await repository.link(identity, newAccount: nil) { return identity.subject }
        // Another sign-in of the account linked it first.
        if let linked = try await repository.identity(provider: Self.provider, of: account) { return linked.subject }
        throw Self.conflict
    }

    /// The link of `uid` to `account`, with what Firebase said of the user when it was a token's.
    private func firebaseIdentity(uid: String, account: AccountID, user: VerifiedFirebaseUser?, at now: Date)
        -> SocialIdentity
    {
        SocialIdentity(
            id: UUID(), accountId: account, provider: Self.provider, subject: uid, email: user?.email,
            emailVerified: user?.emailVerified ?? false, privateRelayEmail: false, clientId: nil, createdAt: now,
            lastSignInAt: now)
    }

    /// Whether `user` signed in before `moment`, in whole seconds as `auth_time` is.
    static func signedIn(_ user: VerifiedFirebaseUser, before moment: Date) -> Bool {
        user.authenticatedAt.timeIntervalSince1970.rounded(.down) < moment.timeIntervalSince1970.rounded(.down)
    }

    /// The SHA-256 of a uid, in hex: how a deleted account's Firebase user is remembered.
    static func uidHash(_ uid: String) -> String {
        OpaqueToken.hash(uid)
    }

    static let ended = HaleError(
        .tokenInvalid, .unauthenticated, message: "This sign-in was ended on the server; sign in again.")

    static let conflict = HaleError(
        .conflict, .conflict,
        message: "This Firebase user is linked to another account, or is being linked; try again.")
}
