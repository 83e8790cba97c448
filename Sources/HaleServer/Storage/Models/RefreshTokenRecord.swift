import Foundation

/// One refresh token of a session, as stored: only its hash, and when and why it was spent.
struct RefreshTokenRecord: Codable, Sendable, Equatable {
    /// Why a refresh token stopped being usable.
    enum SpentReason: String, Codable, Sendable {
        /// Exchanged for its successor.
        case rotated
    }

    var id: UUID
    var sessionId: SessionID
    var tokenHash: String
    var createdAt: Date
    var spentAt: Date?
    var spentReason: SpentReason?
}
