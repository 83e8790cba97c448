import DeviceIntegrity
import Foundation

extension FuzzTarget {
    /// `Sources/DeviceIntegrity/PlayIntegrity`: a token decrypted and verified with fixed test keys, then its verdict
    /// checked. A token's encryption and signature stop any mutation, so the target can build them itself.
    ///
    /// Inputs: `T` then the whole token (JWE parsing and decryption); `S` then a compact JWS, which the target
    /// encrypts (JWS parsing and the signature check); `P` then a payload, which the target signs and encrypts (the
    /// payload's JSON and every verdict check). Each is verified with the test nonce at the test time.
    static let playIntegrity = FuzzTarget(name: "play-integrity") { bytes in
        guard let mode = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let token: String
        switch mode {
        case UInt8(ascii: "T"): token = FuzzInput.text(body)
        case UInt8(ascii: "S"): token = FuzzPlayIntegrity.encrypted(body)
        case UInt8(ascii: "P"): token = FuzzPlayIntegrity.encrypted(Array(FuzzPlayIntegrity.signed(body).utf8))
        default: return
        }
        _ = try? FuzzPlayIntegrity.verifier.verify(token, nonce: FuzzPlayIntegrity.nonce, at: FuzzPlayIntegrity.time)
    }
}
