import Foundation
import Synchronization

/// When personal access tokens were last used, remembered in memory until a background job writes them.
///
/// Verifying a token only reads the database: a write there could wait behind another writer (SQLite has one), and
/// every request the token authenticates would wait with it. Uses are kept here instead, one entry per token, the
/// latest use winning, and `PersonalAccessTokenUseService` writes them in batches and once more at shutdown. The
/// map holds only tokens that verified, so it is bounded by the tokens in use, not by what clients send.
final class PersonalAccessTokenUses: Sendable {
    private let pending = Mutex<[Int64: Date]>([:])

    /// Remembers a use of the token, keeping the latest.
    func record(_ id: Int64, at date: Date) {
        pending.withLock { uses in
            if let known = uses[id], known >= date { return }
            uses[id] = date
        }
    }

    /// The token's use not yet written, if any.
    func pendingUse(of id: Int64) -> Date? {
        pending.withLock { $0[id] }
    }

    /// Takes every use not yet written, leaving none.
    func take() -> [Int64: Date] {
        pending.withLock { uses in
            defer { uses = [:] }
            return uses
        }
    }

    /// Puts back uses whose write failed, so the next write tries them again; newer uses recorded since win.
    func putBack(_ uses: [Int64: Date]) {
        for (id, date) in uses { record(id, at: date) }
    }
}
