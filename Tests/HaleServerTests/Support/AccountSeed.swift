import Foundation
import SQLKit

@testable import HaleServer

/// One row in every table that holds an account's data, written straight to the database, with every secret column
/// holding a value that starts with `SECRET-`, so that a test can search an export for any of them.
struct AccountSeed {
    let account: AccountID
    let session = UUID()
    let refreshToken = UUID()
    let device = UUID()
    let confirmation = UUID()
    let serverChallenge = UUID()
    /// The fitness challenge the account created, with no other member.
    let createdChallenge = UUID()
    let tag: String

    init(account: AccountID) {
        self.account = account
        tag = account.description.prefix(8).lowercased()
    }

    /// Writes the rows; `date` stamps them all.
    func write(on sql: any SQLDatabase, at date: Date) async throws {
        let id = account.rawValue
        func insert(_ table: String, _ row: KeyValuePairs<String, any Encodable & Sendable>) async throws {
            try await sql.insert(into: table).columns(row.map(\.key)).values(row.map { SQLBind($0.value) }).run()
        }
        try await insert(
            "sessions",
            [
                "id": session, "account_id": id, "device_id": device, "sign_in_method": "passkey",
                "remember_me": false, "token_secret": "SECRET-session-\(tag)", "created_at": date,
                "last_used_at": date, "expires_at": date + 3600,
            ])
        try await insert(
            "refresh_tokens",
            ["id": refreshToken, "session_id": session, "token_hash": "SECRET-refresh-\(tag)", "created_at": date])
        try await insert(
            "personal_access_tokens",
            [
                "account_id": id, "name": "seeded", "secret_hash": "SECRET-pat-\(tag)", "created_at": date,
            ])
        try await insert(
            "recovery_codes", ["code_hash": "SECRET-recovery-\(tag)", "account_id": id, "created_at": date])
        try await insert(
            "server_challenges",
            [
                "id": serverChallenge, "kind": "handoff", "value_hash": "SECRET-challenge-\(tag)", "account_id": id,
                "created_at": date, "expires_at": date + 60,
            ])
        try await insert(
            "audit_account_keys", ["account_id": id, "secret": String(repeating: "0", count: 56) + tag])
        try await insert("passkey_users", ["account_id": id, "user_handle": "handle-\(tag)"])
        try await insert(
            "passkey_credentials",
            [
                "id": UUID(), "account_id": id, "credential_id": "credential-\(tag)", "public_key": "cose-\(tag)",
                "sign_count": Int64(3), "aaguid": "00000000-0000-0000-0000-000000000000",
                "attestation_format": "none", "transports": "internal,hybrid", "backup_eligible": true,
                "backup_state": true, "name": "Seeded passkey", "created_at": date, "device_id": device,
            ])
        try await insert(
            "devices",
            [
                "id": device, "account_id": id, "name": "Seeded phone", "device_type": "mobile",
                "fingerprint_hash": "SECRET-fingerprint-\(tag)", "fcm_token": "SECRET-fcm-\(tag)",
                "apns_token": "SECRET-apns-\(tag)", "push_token_updated_at": date, "created_at": date,
            ])
        try await insert(
            "device_keys",
            [
                "id": UUID(), "device_id": device, "account_id": id, "public_key": "pem-\(tag)",
                "thumbprint": "thumbprint-\(tag)", "key_type": "ec-p256", "declared_algorithm": "ES256",
                "signature_convention": "ECDSA_SHA256", "created_at": date,
            ])
        try await insert(
            "device_sign_in_failures",
            ["device_id": device, "client_network": "203.0.113.0/24", "failed_count": Int64(1), "last_failed_at": date])
        try await insert(
            "social_identities",
            [
                "id": UUID(), "account_id": id, "provider": "google", "subject": "subject-\(tag)",
                "email_verified": true, "private_relay_email": false, "relay_email_disabled": false,
                "client_id": "client", "refresh_token_sealed": "SECRET-provider-\(tag)", "created_at": date,
                "last_sign_in_at": date,
            ])
        try await insert(
            "cleaner_profiles",
            [
                "account_id": id, "phone": "+15550100", "available_days": "mon", "time_slots": "morning",
                "max_hours_per_week": Int64(10), "accepts_urgent_offers": false, "years_of_experience": Int64(2),
                "has_cleaning_supplies": true, "comfortable_with_pets": true, "service_radius_km": Int64(5),
                "terms_agreed_at": date,
            ])
        try await insert("account_services", ["account_id": id, "relation": "preferred", "service_id": Int64(7)])
        try await insert(
            "push_registrations",
            ["token": "SECRET-push-registration-\(tag)", "account_id": id, "platform": "android", "updated_at": date])
        try await insert(
            "health_daily_totals",
            [
                "id": UUID(), "account_id": id, "day": Int64(20_000), "source": "ios_health", "platform": "ios",
                "steps": Int64(10), "duration": Int64(60), "calories_hundredths": Int64(100),
                "distance_hundredths": Int64(1_000), "created_at": date, "updated_at": date,
            ])
        try await insert(
            "health_day_summaries",
            [
                "account_id": id, "day": Int64(20_000), "steps": Int64(10), "duration": Int64(60),
                "calories_hundredths": Int64(100), "distance_hundredths": Int64(1_000), "updated_at": date,
                "packed": "",
            ])
        try await insert(
            "app_attest_keys",
            [
                "id": UUID(), "account_id": id, "device_id": device, "key_id": "key-\(tag)", "public_key": "spki",
                "app_id": "TEAM.app", "environment": "production", "counter": Int64(0),
                "receipt": "SECRET-receipt-\(tag)", "created_at": date,
            ])
        try await insert(
            "health_consents",
            ["account_id": id, "platform": "apple", "permission": "steps", "granted_at": date])
        try await insert(
            "health_connections",
            [
                "id": UUID(), "account_id": id, "provider": "healthkit", "permissions_granted": "steps",
                "connected_at": date, "is_active": true,
            ])
        let proof = UUID()
        try await insert(
            "health_write_proofs",
            [
                "id": proof, "account_id": id, "platform": "ios", "key_id": "key-\(tag)", "app_id": "TEAM.app",
                "counter": Int64(1), "nonce": "nonce-\(tag)", "body_sha256": "digest-\(tag)", "created_at": date,
            ])
        try await insert(
            "health_samples",
            [
                "id": UUID(), "account_id": id, "proof_id": proof, "provider": "healthkit",
                "platform_id": "sample-\(tag)",
                "type": "steps", "value": 42.0, "start_at": date - 3600, "end_at": date, "utc_offset_seconds": Int64(0),
                "user_entered": false, "dedup_hash": "dedup-\(tag)", "created_at": date, "updated_at": date,
            ])
        try await insert(
            "health_rollups",
            [
                "account_id": id, "day": Int64(20_000), "type": "steps", "value": 42.0,
                "value_excluding_user_entered": 42.0, "updated_at": date,
            ])
        try await insert(
            "health_sync_logs",
            [
                "id": UUID(), "account_id": id, "provider": "healthkit", "sync_type": "manual",
                "lookback_days": Int64(1), "started_at": date, "status": "completed", "records_processed": Int64(1),
                "records_inserted": Int64(1), "records_updated": Int64(0), "records_deduplicated": Int64(0),
                "records_deleted": Int64(0), "records_rejected": Int64(0),
            ])
        try await insert(
            "health_imports",
            [
                "id": UUID(), "account_id": id, "status": "completed", "bytes": Int64(1), "time_zone": "UTC",
                "created_at": date, "updated_at": date, "attempts": Int64(1), "records_read": Int64(0),
                "fraction": 1.0, "records_committed": Int64(0), "summary": "{}",
            ])
        try await insert(
            "fitness_challenges",
            [
                "id": createdChallenge, "creator_account_id": id, "name": "Seeded challenge \(tag)", "type": "steps",
                "goal": 1_000.0, "start_day": Int64(20_000), "end_day": Int64(20_010), "visibility": "private",
                "includes_user_entered": false, "created_at": date,
            ])
        try await insert(
            "fitness_challenge_members",
            [
                "challenge_id": createdChallenge, "account_id": id, "joined_at": date, "progress": 42.0,
                "updated_at": date,
            ])
        try await insert(
            "push_outbox",
            [
                "id": UUID(), "dedupe_key": "seed-\(tag)", "account_id": id, "device_id": device, "gateway": "fcm",
                "kind": "security_alert", "data": "SECRET-outbox-\(tag)", "status": "pending", "attempts": Int64(0),
                "next_attempt_at": date, "expires_at": date + 3600, "created_at": date,
            ])
        try await insert(
            "mail_outbox",
            [
                "id": UUID(), "dedupe_key": "seed-\(tag)", "account_id": id, "recipient": "seed-\(tag)@example.com",
                "kind": "security_alert", "data": "SECRET-mail-\(tag)", "status": "pending", "attempts": Int64(0),
                "next_attempt_at": date, "expires_at": date + 3600, "created_at": date,
            ])
        try await insert(
            "email_addresses",
            [
                "id": UUID(), "account_id": id, "address": "verified-\(tag)@example.com", "verified_by": "code",
                "verified_at": date,
            ])
        try await insert(
            "email_codes",
            [
                "id": UUID(), "account_id": id, "address": "verified-\(tag)@example.com", "purpose": "verify_address",
                "code_hash": "SECRET-email-code-\(tag)", "attempts": Int64(0), "expires_at": date + 600,
                "created_at": date,
            ])
        try await insert(
            "account_recoveries",
            [
                "id": UUID(), "account_id": id, "method": "email", "pairing_code": "42",
                "claim_hash": "SECRET-claim-\(tag)",
                "requested_at": date, "ready_at": date + 86_400, "expires_at": date + 172_800,
            ])
        try await insert(
            "confirmations",
            [
                "id": confirmation, "account_id": id, "action_type": "payment.approve", "action_payload": "{}",
                "created_by_key_id": Int64(1), "created_at": date, "expires_at": date + 300, "decision": "approve",
                "answered_at": date, "answered_by_device_id": device, "signature": "SECRET-signature-\(tag)",
            ])
        try await insert(
            "webhook_events",
            [
                "message_id": "msg_seed_\(tag)", "type": "session.created", "account_id": id,
                "payload": #"{"type":"session.created"}"#, "created_at": date,
            ])
        // A delivery, and a try of it, to each endpoint there is (a test that wants them adds one first).
        try await sql.raw(
            """
            INSERT INTO webhook_deliveries (endpoint_id, event_sequence, ordering_key, status, attempts,
                next_attempt_at, created_at)
            SELECT id, (SELECT sequence FROM webhook_events WHERE message_id = \(bind: "msg_seed_\(tag)")),
                \(bind: account.description), 'pending', 1, \(bind: date), \(bind: date)
            FROM webhook_endpoints
            """
        ).run()
        try await sql.raw(
            """
            INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, milliseconds)
            SELECT d.id, \(bind: date), 503, 12 FROM webhook_deliveries d
            JOIN webhook_events e ON e.sequence = d.event_sequence WHERE e.message_id = \(bind: "msg_seed_\(tag)")
            """
        ).run()
    }
}
