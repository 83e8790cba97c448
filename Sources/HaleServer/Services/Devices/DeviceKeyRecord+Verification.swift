import DeviceKeys
import Foundation

extension DeviceKeyRecord {
    /// Whether this key made `signature` over `challenge`, in any signing convention its key type allows.
    func verifies(_ signature: String, over challenge: String) -> Bool {
        guard let der = Data(base64Encoded: publicKey), let key = try? DevicePublicKey(derRepresentation: Array(der))
        else {
            return false
        }
        return (try? key.verify(signature: signature, challenge: challenge)) != nil
    }
}
