import Foundation
import SQLKit

/// `AccountRecordRepository` on SQL. Every query names its columns: never `SELECT *`, so nothing secret that a
/// table gains later is exported by accident.
struct SQLAccountRecordRepository: AccountRecordRepository {
    let database: HaleDatabase

    func records(of account: AccountID) async throws -> AccountRecords? {
        let profiles: [AccountRecords.Profile] = try await rows(
            "SELECT id, email, unverified_email, role, time_zone, created_at, updated_at FROM accounts WHERE id = \(bind: account)"
        )
        guard let profile = profiles.first else { return nil }
        return AccountRecords(
            profile: profile,
            passkeyUserHandle: try await database.sql.select().column("user_handle").from("passkey_users")
                .where("account_id", .equal, account).first(decodingColumn: "user_handle", as: String.self),
            passkeys: try await rows(
                """
                SELECT id, name, credential_id, public_key, sign_count, aaguid, attestation_format, transports,
                    backup_eligible, backup_state, platform, os_version, device_name, device_id, created_at,
                    last_used_at, suspected_clone_at, suspected_clone_reason
                FROM passkey_credentials WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            devices: try await rows(
                """
                SELECT id, name, device_type, fcm_token IS NOT NULL AS has_fcm_token,
                    apns_token IS NOT NULL AS has_apns_token, push_token_updated_at, last_ip_range, created_at,
                    last_used_at, deactivated_at
                FROM devices WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            deviceKeys: try await rows(
                """
                SELECT id, device_id, public_key, thumbprint, key_type, declared_algorithm, signature_convention,
                    created_at, last_used_at, revoked_at
                FROM device_keys WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            appAttestKeys: try await rows(
                """
                SELECT id, device_id, key_id, app_id, environment, counter, from_development_authority, created_at,
                    last_used_at
                FROM app_attest_keys WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            sessions: try await rows(
                """
                SELECT id, device_id, sign_in_method, remember_me, created_at, last_used_at, expires_at, revoked_at,
                    revoke_reason
                FROM sessions WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            personalAccessTokens: try await rows(
                """
                SELECT id, name, sign_in_method, created_at, last_used_at, expires_at, revoked_at
                FROM personal_access_tokens WHERE account_id = \(bind: account) ORDER BY id
                """),
            socialIdentities: try await rows(
                """
                SELECT id, provider, subject, email, email_verified, private_relay_email, relay_email_disabled,
                    client_id, created_at, last_sign_in_at
                FROM social_identities WHERE account_id = \(bind: account) ORDER BY created_at, id
                """),
            cleanerProfile: try await rows(
                as: AccountRecords.CleanerProfile.self,
                """
                SELECT phone, available_days, time_slots, max_hours_per_week, accepts_urgent_offers,
                    years_of_experience, has_cleaning_supplies, comfortable_with_pets, service_radius_km,
                    terms_agreed_at
                FROM cleaner_profiles WHERE account_id = \(bind: account)
                """
            ).first,
            services: try await rows(
                """
                SELECT relation, service_id FROM account_services WHERE account_id = \(bind: account)
                ORDER BY relation, service_id
                """),
            pushRegistrations: try await rows(
                """
                SELECT platform, updated_at FROM push_registrations WHERE account_id = \(bind: account)
                ORDER BY updated_at
                """),
            emailAddresses: try await rows(
                """
                SELECT address, verified_by, verified_at FROM email_addresses WHERE account_id = \(bind: account)
                ORDER BY address
                """),
            createdChallenges: try await rows(
                """
                SELECT id, name, type, goal, start_day, end_day, visibility, includes_user_entered, verified_sources,
                    created_at
                FROM fitness_challenges WHERE creator_account_id = \(bind: account) ORDER BY created_at, id
                """),
            memberships: try await rows(
                """
                SELECT m.challenge_id, c.name, c.type, c.goal, c.start_day, c.end_day, m.joined_at, m.left_at,
                    m.progress, m.verified, m.excluded_samples, m.updated_at
                FROM fitness_challenge_members m JOIN fitness_challenges c ON c.id = m.challenge_id
                WHERE m.account_id = \(bind: account) ORDER BY m.joined_at, m.challenge_id
                """),
            confirmations: try await rows(
                """
                SELECT id, action_type, action_payload, created_at, expires_at, decision, answered_at,
                    answered_by_device_id
                FROM confirmations WHERE account_id = \(bind: account) ORDER BY created_at, id
                """))
    }

    private func rows<Row: Decodable>(as type: Row.Type = Row.self, _ query: SQLQueryString) async throws -> [Row] {
        try await database.sql.raw(query).all(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
