import StrictJSON
import Vapor

/// `POST /api/v1/admin/confirmations`.
struct CreateConfirmationRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["accountId", "actionType", "actionPayload", "expiresIn"]

    let accountId: String?
    let actionType: String?
    let actionPayload: JSONValue?
    let expiresIn: Int?

    /// The draft `Confirmations` takes: an `accountId` that is not an account's id is refused here.
    func draft() throws(InvalidInput) -> ConfirmationDraft {
        guard let text = accountId, let account = AccountID(text) else {
            throw InvalidInput("accountId", .form("an account's id (a UUID)"))
        }
        return ConfirmationDraft(
            accountId: account, actionType: actionType, actionPayload: actionPayload, expiresIn: expiresIn)
    }
}

/// `POST /api/v1/confirmations/{confirmationID}/answer`.
struct AnswerConfirmationRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["decision", "signature", "deviceId", "pairingCode"]

    let decision: String?
    let signature: String?
    /// For an `account.recovery` approval: the two digits the new device shows.
    let pairingCode: String?
    /// The answering device, if the app sends it; it must be the device the session signed in on.
    let deviceId: String?
}

/// A confirmation as the API answers it.
struct ConfirmationResponse: Content {
    let id: String
    let accountId: String
    let actionType: String
    /// The payload's canonical JSON text: what the app shows and signs, byte for byte.
    let actionPayload: String
    let status: String
    let createdAt: String
    let expiresAt: String
    @Nullable var decision: String?
    @Nullable var answeredAt: String?
    @Nullable var deviceId: String?

    init(_ confirmation: Confirmation, at date: Date) {
        id = confirmation.id.description
        accountId = confirmation.accountId.description
        actionType = confirmation.actionType
        actionPayload = confirmation.actionPayload
        status = confirmation.status(at: date).rawValue
        createdAt = ISO8601.string(confirmation.createdAt)
        expiresAt = ISO8601.string(confirmation.expiresAt)
        decision = confirmation.decision
        answeredAt = confirmation.answeredAt.map(ISO8601.string)
        deviceId = confirmation.answeredByDeviceId?.description
    }
}

/// `{success, confirmation}`.
struct ConfirmationEnvelope: Content {
    var success = true
    let confirmation: ConfirmationResponse
}

/// `{success, confirmations}`.
struct ConfirmationsResponse: Content {
    var success = true
    let confirmations: [ConfirmationResponse]
}
