import ByteEncoding
import Foundation

/// Admin API keys, `admin.<id>.<secret>`: what the app's own backend authenticates with to create confirmation
/// requests. Operators create and revoke them with `hale admin-keys`; only the secret's SHA-256 is stored.
public struct AdminAPIKeys: Sendable {
    let repository: any AdminAPIKeyRepository
    let clock: HaleClock
    /// Uses closer together than this are not recorded, so that a busy key does not write on every request.
    let lastUsedResolution: TimeInterval = 60

    static let prefix = "admin."

    /// Creates a key; the returned plaintext is shown once and never stored.
    public func create(name: String) async throws -> (id: Int64, key: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count) else {
            throw InvalidInput("name", .described("An admin API key's name is 1 to 100 characters"))
        }
        let secret = OpaqueToken.generate()
        let record = AdminAPIKeyRecord(
            id: nil, name: trimmed, secretHash: OpaqueToken.hash(secret), createdAt: clock.now(), lastUsedAt: nil,
            revokedAt: nil)
        let id = try await repository.create(record)
        return (id, "\(Self.prefix)\(id).\(secret)")
    }

    /// Whether the text has the shape of an admin API key, so it is never taken for another kind of token.
    public static func looksLikeAdminKey(_ text: String) -> Bool {
        text.hasPrefix(prefix)
    }

    /// Verifies a key, comparing its secret's hash in constant time; returns the key's identifier.
    public func verify(_ key: String) async throws -> Int64 {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "admin", let id = Int64(parts[1]), id > 0,
            let record = try await repository.find(id), record.revokedAt == nil,
            ConstantTime.equals(record.secretHash, OpaqueToken.hash(String(parts[2])))
        else {
            throw HaleError.invalidAdminKey
        }
        let now = clock.now()
        if record.lastUsedAt.map({ now.timeIntervalSince($0) >= lastUsedResolution }) ?? true {
            try? await repository.touch(id, at: now)
        }
        return id
    }

    /// Every key, revoked ones included.
    public func list() async throws -> [AdminAPIKeyRecord] {
        try await repository.all()
    }

    /// Revokes a key; false when it was revoked already or does not exist.
    @discardableResult
    public func revoke(_ id: Int64) async throws -> Bool {
        try await repository.revoke(id, at: clock.now())
    }
}
