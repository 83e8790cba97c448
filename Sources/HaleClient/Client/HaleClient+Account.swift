import Foundation

/// The signed-in account and its sessions.
extension HaleClient {
    /// The signed-in account.
    public func account() async throws -> Account {
        try await send("GET", "api/v1/account", as: .session)
    }

    /// Ends this session at the server and forgets its tokens.
    public func signOut() async throws {
        _ = try await send("POST", "api/v1/auth/logout", json: EmptyBody(), as: .session)
        await tokens.set(nil)
    }

    /// Ends every session of the account, on every device, and forgets this one's tokens.
    public func signOutEverywhere() async throws {
        _ = try await send("POST", "api/v1/auth/logout-all", json: EmptyBody(), as: .session)
        await tokens.set(nil)
    }

    /// Deletes the account and everything Hale holds about it, then forgets the tokens.
    public func deleteAccount() async throws {
        _ = try await send("DELETE", "api/v1/account", json: nil, as: .session)
        await tokens.set(nil)
    }
}
