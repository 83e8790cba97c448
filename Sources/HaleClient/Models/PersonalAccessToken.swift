import Foundation

/// One of the account's personal access tokens that still work, as its owner sees it: never the token itself.
public struct PersonalAccessToken: Sendable, Hashable, Decodable {
    /// Its id: the number before the `|` of the token, as social sign-in's `tokenId` gives it.
    public let id: Int64
    /// What it was made for, such as `google sign-in`.
    public let name: String
    /// When it was made.
    public let createdAt: Date
    /// When it last authenticated a request, if it has; recorded within a minute.
    public let lastUsedAt: Date?
    /// When it stops working; nil when it lasts until revoked.
    public let expiresAt: Date?
    /// Whether it is the token that listed it.
    public let current: Bool
}
