import Foundation
import StrictJSON

/// The confirmation Hale itself asks when a new device requests a recovery: pushed to the account's devices as seed
/// 002's `confirmation_request`, with the action type `account.recovery` and the recovery's id as its payload. A
/// device approves by signing it as any confirmation and sending the two digits the new device shows; a device that
/// denies it cancels the recovery. The pairing code is never in the push: the person types it, so a tap alone
/// approves nobody.
enum RecoveryConfirmation {
    /// The confirmation's action type.
    static let actionType = "account.recovery"

    /// A confirmation for `recovery`, waiting as long as the recovery waits for its approval.
    static func asking(_ recovery: AccountRecoveryRecord, of account: AccountID) -> Confirmation {
        let payload = CanonicalJSON.text(of: .object(["recoveryId": .string(recovery.id.uuidString.lowercased())]))
        return Confirmation(
            id: .random(), accountId: account, actionType: actionType, actionPayload: payload,
            createdByKeyId: Confirmation.askedByHale, createdAt: recovery.requestedAt,
            expiresAt: HaleClock.wholeMilliseconds(recovery.expiresAt), decision: nil, answeredAt: nil,
            answeredByDeviceId: nil, signature: nil)
    }

    /// The recovery a confirmation of this kind asks about, read from the payload Hale wrote.
    static func recoveryId(of confirmation: Confirmation) -> UUID? {
        guard confirmation.actionType == actionType,
            case .object(let fields) = try? JSONParser.parse(confirmation.actionPayload.utf8),
            case .string(let text) = fields["recoveryId"]
        else { return nil }
        return UUID(uuidString: text)
    }
}
