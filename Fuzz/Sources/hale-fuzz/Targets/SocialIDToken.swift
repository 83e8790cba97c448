import Foundation
import SocialTokens

extension FuzzTarget {
    /// `Sources/SocialTokens`: Google, Apple and Facebook ID tokens and Apple's server notifications, verified against
    /// a fixed key set on a fixed clock.
    ///
    /// Inputs: `G`, `A` or `F` then a token for Google, Apple or Facebook, and optionally the client's nonce; `N` then
    /// an Apple notification payload. Lower case `g`, `a`, `f` and `n` take claims JSON instead, which the target
    /// signs with a key of the set, so the claims reach every policy check behind the signature.
    static let socialTokens = FuzzTarget(name: "social-tokens") { bytes in
        guard let (mode, parts) = FuzzInput.modeAndParts(bytes) else { return }
        let body = Array(parts[0])
        let nonce = parts[ifPresent: 1].map(FuzzInput.text)
        let verifier = FuzzSocialProvider.verifier
        switch mode {
        case UInt8(ascii: "N"), UInt8(ascii: "n"):
            let payload =
                mode == UInt8(ascii: "N") ? FuzzInput.text(body) : FuzzSocialProvider.signedRS256(claims: body)
            Blocking.run { _ = try? await verifier.verifyAppleNotification(payload) }
        default:
            guard let provider = FuzzSocialProvider.provider(for: mode) else { return }
            let isClaims = mode >= UInt8(ascii: "a")
            let token = isClaims ? FuzzSocialProvider.signedES256(claims: body) : FuzzInput.text(body)
            Blocking.run { _ = try? await verifier.verify(provider: provider, token: token, nonce: nonce) }
        }
    }
}
