import Foundation
import SQLKit
import StrictJSON

/// `SessionRepository` on SQL.
struct SQLSessionRepository: SessionRepository {
    let database: HaleDatabase

    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SessionRepository) async throws -> T
    ) async throws -> T {
        try await database.writeTransaction { try await body(SQLSessionRepository(database: $0)) }
    }

    func create(_ record: SessionRecord, firstToken: RefreshTokenRecord) async throws {
        @Sendable func inserts(on sql: any SQLDatabase) throws -> (session: SQLInsertBuilder, token: SQLInsertBuilder) {
            (
                try sql.insert(into: "sessions").model(record, keyEncodingStrategy: .convertToSnakeCase),
                try sql.insert(into: "refresh_tokens").model(firstToken, keyEncodingStrategy: .convertToSnakeCase)
            )
        }
        let session = record.session
        var data: [String: JSONValue] = [
            "sessionId": .string(session.id.description), "signInMethod": .string(session.signInMethod),
        ]
        data["deviceId"] = session.deviceId.map { .string($0.description) }
        let event = WebhookEvent(.sessionCreated, account: session.accountId, data: data, at: session.createdAt)
        try await database.writeTransaction { database in
            let (session, token) = try inserts(on: database.sql)
            if database.isPostgres {
                // One statement: the token's foreign key is checked at its end, when the session row exists.
                try await token.with("session", as: session.insert).run()
            } else {
                try await session.run()
                try await token.run()
            }
            try await SQLWebhookOutbox.enqueue(event, in: database)
        }
    }

    func find(_ id: SessionID) async throws -> Session? {
        try await database.sql.select().column("*").from("sessions").where("id", .equal, id)
            .first(decoding: Session.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func bindingState(ofTokenHash hash: String) async throws -> SessionBindingState? {
        // Written out rather than built: it runs before every refresh of a bound session, and the columns are
        // decoded by name, without a Codable model's key conversion.
        let query: SQLQueryString = """
            SELECT s.account_id, s.device_id, s.revoked_at, s.expires_at, s.token_secret, s.attestation_key_id,
                s.attestation_key_thumbprint, s.attestation_provisional, k.id AS key_row, k.device_id AS key_device_id, k.public_key,
                k.app_id, k.environment, k.counter, k.from_development_authority, k.created_at AS key_created_at
            FROM refresh_tokens t
            JOIN sessions s ON s.id = t.session_id
            LEFT JOIN app_attest_keys k ON k.key_id = s.attestation_key_id AND k.account_id = s.account_id
            WHERE t.token_hash = \(bind: hash)
            """
        guard let row = try await database.sql.raw(query).first() else { return nil }
        let account = AccountID(try row.decode(column: "account_id", as: UUID.self))
        let keyID = try row.decode(column: "attestation_key_id", as: String?.self)
        let thumbprint = try row.decode(column: "attestation_key_thumbprint", as: String?.self)
        let bound = keyID.flatMap { id in thumbprint.map { AttestedInstanceKey(id: id, thumbprint: $0) } }
        return SessionBindingState(
            account: account, device: try row.decode(column: "device_id", as: UUID?.self).map(DeviceID.init),
            revokedAt: try row.decode(column: "revoked_at", as: Date?.self),
            expiresAt: try row.decode(column: "expires_at", as: Date.self),
            tokenSecret: try row.decode(column: "token_secret", as: String.self), boundKey: bound,
            boundKeyRecord: try keyID.flatMap { try Self.boundKey($0, of: account, in: row) },
            provisional: try row.decode(column: "attestation_provisional", as: Bool.self), boundKeyID: keyID)
    }

    /// The bound key's record in a `bindingState` row, without its receipt; nil when the key is gone.
    private static func boundKey(_ keyID: String, of account: AccountID, in row: any SQLRow) throws -> AppAttestKey? {
        guard let id = try row.decode(column: "key_row", as: UUID?.self) else { return nil }
        return AppAttestKey(
            id: id, accountId: account,
            deviceId: try row.decode(column: "key_device_id", as: UUID?.self).map(DeviceID.init), keyId: keyID,
            publicKey: try row.decode(column: "public_key", as: String.self),
            appId: try row.decode(column: "app_id", as: String.self),
            environment: try row.decode(column: "environment", as: String.self),
            counter: try row.decode(column: "counter", as: Int64.self), receipt: "",
            fromDevelopmentAuthority: try row.decode(column: "from_development_authority", as: Bool.self),
            createdAt: try row.decode(column: "key_created_at", as: Date.self), lastUsedAt: nil)
    }

    func advance(_ assertion: AttestedAssertion, at date: Date) async throws -> Bool {
        try await SQLAppAttestKeyRepository(database: database).advance(
            assertion.row, from: assertion.previousCounter, to: assertion.counter, at: date)
    }

    func findTokenLockingSession(hash: String) async throws -> (token: RefreshTokenRecord, session: SessionRecord)? {
        let query = database.sql.select().column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("refresh_tokens")))
        for column in Self.sessionColumns {
            query.column(SQLColumn(column, table: "sessions"), as: Self.sessionColumnPrefix + column)
        }
        query.from("refresh_tokens")
            .join(
                "sessions", on: SQLColumn("id", table: "sessions"), .equal,
                SQLColumn("session_id", table: "refresh_tokens")
            )
            .where(SQLColumn("token_hash", table: "refresh_tokens"), .equal, SQLBind(hash))
        if database.isPostgres {
            query.for(.update)
        }
        guard let row = try await query.first() else { return nil }
        return (
            try row.decode(model: RefreshTokenRecord.self, keyDecodingStrategy: .convertFromSnakeCase),
            try row.decode(
                model: SessionRecord.self, prefix: Self.sessionColumnPrefix, keyDecodingStrategy: .convertFromSnakeCase)
        )
    }

    /// The columns of `sessions`, read under `sessionColumnPrefix` where a join would make their names ambiguous.
    private static let sessionColumns = [
        "id", "account_id", "device_id", "sign_in_method", "remember_me", "created_at", "last_used_at", "expires_at",
        "revoked_at", "revoke_reason", "token_secret", "stepped_up_at", "attestation_key_id",
        "attestation_key_thumbprint", "attestation_provisional", "attestation_proved_at",
    ]
    private static let sessionColumnPrefix = "session_"

    func findToken(hash: String) async throws -> RefreshTokenRecord? {
        try await database.sql.select().column("*").from("refresh_tokens").where("token_hash", .equal, hash)
            .first(decoding: RefreshTokenRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func rotate(spending spent: UUID, successor: RefreshTokenRecord, renewing session: SessionID, expiresAt: Date)
        async throws
    {
        let sql = database.sql
        let spend = sql.update("refresh_tokens")
            .set("spent_at", to: successor.createdAt).set(
                "spent_reason", to: RefreshTokenRecord.SpentReason.rotated.rawValue
            )
            .where("id", .equal, spent)
        let renew = sql.update("sessions").set("last_used_at", to: successor.createdAt).set("expires_at", to: expiresAt)
            .where("id", .equal, session)
        let insert = try sql.insert(into: "refresh_tokens").model(successor, keyEncodingStrategy: .convertToSnakeCase)
        if database.isPostgres {
            // One statement: the caller holds both rows' locks, so nothing can change between its parts.
            try await insert.with("spent", as: spend.update).with("renewed", as: renew.update).run()
        } else {
            try await spend.run()
            try await renew.run()
            try await insert.run()
        }
    }

    func bind(_ session: SessionID, to key: AttestedInstanceKey, at date: Date) async throws {
        try await database.sql.update("sessions").set("attestation_key_id", to: key.id)
            .set("attestation_key_thumbprint", to: key.thumbprint).set("attestation_provisional", to: false)
            .set("attestation_proved_at", to: date).where("id", .equal, session).run()
    }

    func bind(_ session: SessionID, toPlayIntegrityApp packageName: String, at date: Date) async throws {
        try await database.sql.update("sessions")
            .set("attestation_key_id", to: SessionBinding.binding(ofPlayIntegrityApp: packageName))
            .set("attestation_key_thumbprint", to: SQLLiteral.null).set("attestation_provisional", to: false)
            .set("attestation_proved_at", to: date).where("id", .equal, session).run()
    }

    func markProved(_ session: SessionID, at date: Date) async throws {
        try await database.sql.update("sessions").set("attestation_proved_at", to: date)
            .where("id", .equal, session).run()
    }

    func append(_ audit: AuditAppend) async throws {
        try await SQLAuditRepository.append(audit, in: database)
    }

    func touch(_ session: SessionID, at date: Date, expiresAt: Date) async throws {
        try await database.sql.update("sessions").set("last_used_at", to: date).set("expires_at", to: expiresAt)
            .where("id", .equal, session).run()
    }

    func revoke(_ session: SessionID, of account: AccountID, reason: String, at date: Date, audit: AuditAppend?)
        async throws -> Bool
    {
        try await database.writeTransaction { database in
            guard try await Self.revoke(session, of: account, reason: reason, at: date, on: database) else {
                return false
            }
            if let audit { try await SQLAuditRepository.append(audit, in: database) }
            let data: [String: JSONValue] = ["sessionId": .string(session.description), "reason": .string(reason)]
            try await SQLWebhookOutbox.enqueue(
                WebhookEvent(.sessionRevoked, account: account, data: data, at: date), in: database)
            return true
        }
    }

    private static func revoke(
        _ session: SessionID, of account: AccountID, reason: String, at date: Date, on database: HaleDatabase
    ) async throws -> Bool {
        let rows = try await database.sql.update("sessions")
            .set("revoked_at", to: date).set("revoke_reason", to: reason)
            .where("id", .equal, session).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all()
        return rows.count == 1
    }

    func revokeEverything(
        of account: AccountID, reason: String, at date: Date, removing recent: Sessions.RecentCredentials?,
        audit: @escaping @Sendable (Sessions.SignedOutEverywhere) -> AuditAppend
    ) async throws -> Sessions.SignedOutEverywhere {
        try await database.writeTransaction { database in
            let sessions = try await database.sql.update("sessions")
                .set("revoked_at", to: date).set("revoke_reason", to: reason)
                .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
                .returning("id").all().count
            let tokens = try await SQLPersonalAccessTokenRepository.revokeAll(of: account, at: date, on: database)
            try await SQLAccountRepository.endSignIns(of: account, at: date, on: database)
            var ended = Sessions.SignedOutEverywhere(sessions: sessions, personalAccessTokens: tokens)
            if let recent {
                (ended.passkeys, ended.deviceKeys) = try await Self.remove(recent, of: account, at: date, on: database)
            }
            try await SQLAuditRepository.append(audit(ended), in: database)
            return ended
        }
    }

    /// Deletes the passkeys and revokes the device keys added since `recent.since`, but those of the device that
    /// asked; returns how many of each.
    private static func remove(
        _ recent: Sessions.RecentCredentials, of account: AccountID, at date: Date, on database: HaleDatabase
    ) async throws -> (passkeys: Int, deviceKeys: Int) {
        let passkeys = database.sql.delete(from: "passkey_credentials")
            .where("account_id", .equal, account).where("created_at", .greaterThanOrEqual, recent.since)
        let keys = database.sql.update("device_keys").set("revoked_at", to: date)
            .where("account_id", .equal, account).where("created_at", .greaterThanOrEqual, recent.since)
            .where("revoked_at", .is, SQLLiteral.null)
        if let keeping = recent.keeping {
            passkeys.where { $0.where("device_id", .is, SQLLiteral.null).orWhere("device_id", .notEqual, keeping) }
            keys.where("device_id", .notEqual, keeping)
        }
        return (
            try await passkeys.returning("id").all().count, try await keys.returning("id").all().count
        )
    }

    func reopen(_ session: SessionID, of account: AccountID, revokedFor reason: String, at date: Date) async throws {
        try await database.sql.raw(
            """
            UPDATE sessions SET revoked_at = NULL, revoke_reason = NULL
            WHERE id = \(bind: session) AND account_id = \(bind: account) AND revoke_reason = \(bind: reason)
                AND revoked_at = \(bind: date) AND NOT EXISTS (
                    SELECT 1 FROM accounts WHERE id = \(bind: account) AND sign_ins_ended_at >= \(bind: date))
            """
        ).run()
    }

    func stepUp(_ session: SessionID, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool {
        try await database.writeTransaction { database in
            let changed =
                try await database.sql.update("sessions").set("stepped_up_at", to: date)
                .where("id", .equal, session).where("account_id", .equal, account)
                .where("revoked_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, date)
                .returning("id").all().count == 1
            guard changed else { return false }
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    func active(of account: AccountID, at date: Date) async throws -> [Session] {
        try await database.sql.select().column("*").from("sessions")
            .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, date).orderBy("created_at", .descending)
            .all(decoding: Session.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func setWebTokenHash(_ hash: String, of session: SessionID) async throws {
        try await database.sql.update("sessions").set("web_token_hash", to: hash).where("id", .equal, session).run()
    }

    func find(webTokenHash hash: String) async throws -> Session? {
        try await database.sql.select().column("*").from("sessions").where("web_token_hash", .equal, hash)
            .first(decoding: Session.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
