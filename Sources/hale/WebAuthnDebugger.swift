import ByteEncoding
import Foundation
import WebAuthn
import X509

/// What `hale verify webauthn-…` does, apart from printing: decode the input file, verify, and describe the result.
enum WebAuthnDebugger {
    /// The input file: a response and what the relying party expected.
    struct Input<Response: Decodable & Sendable>: Decodable, Sendable {
        let response: Response
        let expectedChallenge: String
        let expectedOrigins: [String]
        let expectedRPID: String
        let requireUserVerification: Bool?
        let at: String?
        let credentialPublicKey: String?
        let previousSignCount: UInt32?
        let trustAnchorsPEM: [String]?
    }

    /// One JSON object for standard output, and the exit code: 0 verified, 1 refused, 2 unusable input.
    struct Outcome: Sendable {
        let json: String
        let exitCode: Int32
    }

    struct Verified: Encodable {
        var verified = true
        let fmt: String?
        let credentialID: String
        let aaguid: String?
        let signCount: UInt32
        let userVerified: Bool
        let backupEligible: Bool
        let backupState: Bool
        let credentialPublicKey: String
    }

    struct Refused: Encodable {
        var verified = false
        let error: String
        let message: String
    }

    struct UnusableInput: Error {
        let message: String
    }

    static func registration(_ data: Data) async -> Outcome {
        await run {
            let input = try decode(Input<RegistrationResponseJSON>.self, data)
            let verifier = RegistrationVerifier(
                relyingParty: try relyingParty(input), policy: AttestationPolicy(trustAnchors: try anchors(input)))
            let result = try await verifier.verify(
                input.response, expectedChallenge: try challenge(input),
                requireUserVerification: input.requireUserVerification ?? false, at: try time(input))
            return Verified(
                fmt: result.format, credentialID: Base64URL.encode(result.credentialID), aaguid: result.aaguid,
                signCount: result.signCount, userVerified: result.userVerified, backupEligible: result.backupEligible,
                backupState: result.backupState, credentialPublicKey: Base64URL.encode(result.publicKey))
        }
    }

    static func authentication(_ data: Data) async -> Outcome {
        await run {
            let input = try decode(Input<AuthenticationResponseJSON>.self, data)
            guard let encodedKey = input.credentialPublicKey, let key = Base64URL.decode(encodedKey),
                let id = Base64URL.decode(input.response.rawId)
            else {
                throw UnusableInput(message: "authentication needs credentialPublicKey (base64url COSE) and rawId")
            }
            let stored = StoredCredential(
                id: Array(id), publicKey: Array(key), signCount: input.previousSignCount ?? 0,
                backupEligible: try backupEligibility(of: input.response))
            let result = try AuthenticationVerifier(relyingParty: try relyingParty(input)).verify(
                input.response, expectedChallenge: try challenge(input), credential: stored,
                requireUserVerification: input.requireUserVerification ?? false)
            return Verified(
                fmt: nil, credentialID: Base64URL.encode(result.credentialID), aaguid: nil,
                signCount: result.signCount, userVerified: result.userVerified, backupEligible: result.backupEligible,
                backupState: result.backupState, credentialPublicKey: encodedKey)
        }
    }

    private static func run(_ body: () async throws -> Verified) async -> Outcome {
        do {
            return Outcome(json: encode(try await body()), exitCode: 0)
        } catch let error as WebAuthnError {
            return Outcome(json: encode(Refused(error: error.code.rawValue, message: error.message)), exitCode: 1)
        } catch let error as UnusableInput {
            return Outcome(json: encode(Refused(error: "UNUSABLE_INPUT", message: error.message)), exitCode: 2)
        } catch {
            return Outcome(json: encode(Refused(error: "UNUSABLE_INPUT", message: "\(error)")), exitCode: 2)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw UnusableInput(message: "the file is not the documented JSON: \(error)")
        }
    }

    private static func relyingParty<R>(_ input: Input<R>) throws -> RelyingParty {
        try RelyingParty(id: input.expectedRPID, name: input.expectedRPID, origins: input.expectedOrigins)
    }

    private static func challenge<R>(_ input: Input<R>) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(input.expectedChallenge) else {
            throw UnusableInput(message: "expectedChallenge is not base64url")
        }
        return Array(bytes)
    }

    private static func time<R>(_ input: Input<R>) throws -> Date {
        try time(input.at)
    }

    /// The time to verify at: `text` as ISO 8601, or now.
    static func time(_ text: String?) throws -> Date {
        guard let text else { return Date() }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw UnusableInput(message: "at is not an ISO-8601 time such as 2025-01-31T12:00:00Z")
        }
        return date
    }

    private static func anchors<R>(_ input: Input<R>) throws -> [Certificate] {
        do {
            return try (input.trustAnchorsPEM ?? []).map { try Certificate(pemEncoded: $0) }
        } catch {
            throw UnusableInput(message: "trustAnchorsPEM holds something other than PEM certificates")
        }
    }

    /// Without a stored record, take the flag the authenticator reports, so only the other checks apply.
    private static func backupEligibility(of response: AuthenticationResponseJSON) throws -> Bool {
        guard let bytes = Base64URL.decode(response.response.authenticatorData), bytes.count > 32 else { return false }
        return AuthenticatorFlags(rawValue: bytes[32]).contains(.backupEligible)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
