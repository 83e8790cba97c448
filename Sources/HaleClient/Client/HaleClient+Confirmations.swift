import Crypto
import Foundation
import WebAuthn

/// Seed 002's push confirmations: the device shows an action and signs the person's decision with its key.
extension HaleClient {
    /// The confirmations waiting for an answer.
    public func pendingConfirmations() async throws -> [Confirmation] {
        let answer: ConfirmationsAnswer = try await send("GET", "api/v1/confirmations", as: .session)
        return answer.confirmations
    }

    /// One confirmation, such as the one a push named.
    public func confirmation(_ id: String) async throws -> Confirmation {
        let answer: ConfirmationAnswer = try await send("GET", "api/v1/confirmations/\(id)", as: .session)
        return answer.confirmation
    }

    /// Answers `confirmation` with `decision`, signed by the device key the session signed in with. To approve a new
    /// device's recovery (`actionType` `account.recovery`), pass the `pairingCode` the person types from the new
    /// device's screen.
    @discardableResult
    public func answer(
        _ confirmation: Confirmation, _ decision: Confirmation.Decision, signedWith key: some DeviceKeySigner,
        convention: DeviceSigningConvention, pairingCode: String? = nil
    ) async throws -> Confirmation {
        let signature = try await key.sign(
            challenge: confirmation.challenge(for: decision), convention: convention)
        var body = ["decision": decision.rawValue, "signature": signature]
        body["pairingCode"] = pairingCode
        let answer: ConfirmationAnswer = try await send(
            "POST", "api/v1/confirmations/\(confirmation.id)/answer", json: body, as: .session)
        return answer.confirmation
    }

    /// Asks the person signed in on `accountId`'s devices to confirm an action, as an app's backend does with an
    /// admin API key. `actionPayload` is JSON, shown to the person as Hale stores it.
    public func createConfirmation(
        accountId: String, actionType: String, actionPayload: Data, expiresIn: Int = 300, adminKey: String
    ) async throws -> Confirmation {
        guard let payload = try? JSONSerialization.jsonObject(with: actionPayload), payload is [String: Any] else {
            throw HaleClientError.invalidArgument("actionPayload must be a JSON object")
        }
        let body = try JSONSerialization.data(withJSONObject: [
            "accountId": accountId, "actionType": actionType, "actionPayload": payload, "expiresIn": expiresIn,
        ])
        let data = try await send(
            "POST", "api/v1/admin/confirmations", encodedJSON: body, as: .bearer(adminKey))
        return try Self.decode(ConfirmationAnswer.self, from: data).confirmation
    }

    /// A confirmation as the backend that asked reads it, with an admin API key: its status and, once answered, the
    /// decision and the device.
    public func confirmation(_ id: String, adminKey: String) async throws -> Confirmation {
        let answer: ConfirmationAnswer = try await send(
            "GET", "api/v1/admin/confirmations/\(id)", as: .bearer(adminKey))
        return answer.confirmation
    }

    private struct ConfirmationAnswer: Decodable { let confirmation: Confirmation }
    private struct ConfirmationsAnswer: Decodable { let confirmations: [Confirmation] }
}
