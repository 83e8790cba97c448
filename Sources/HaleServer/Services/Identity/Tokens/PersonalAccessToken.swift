import Foundation

/// A personal access token as its owner and operators see it: never its secret, nor the secret's hash.
public struct PersonalAccessToken: Sendable, Equatable {
    /// The identifier, the part of `<id>|<secret>` before the bar.
    public let id: Int64
    /// The account it belongs to.
    public let accountId: AccountID
    /// What it was made for, such as `google sign-in` or `hale accounts create`.
    public let name: String
    /// When it was made.
    public let createdAt: Date
    /// When it last authenticated a request, as far as this instance knows; recorded within a minute.
    public let lastUsedAt: Date?
    /// When it stops working; nil when it lasts until revoked.
    public let expiresAt: Date?
    /// When it was revoked, if it was.
    public let revokedAt: Date?
    /// The social sign-in that issued it (`google`, `apple`, `facebook`); nil for one an operator or a tool made.
    public let signInMethod: String?

    init(_ record: PersonalAccessTokenRecord, id: Int64, lastUsedAt: Date?) {
        self.id = id
        accountId = record.accountId
        name = record.name
        createdAt = record.createdAt
        self.lastUsedAt = lastUsedAt
        expiresAt = record.expiresAt
        revokedAt = record.revokedAt
        signInMethod = record.signInMethod
    }
}
