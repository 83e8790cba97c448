import Foundation
import SocialTokens

extension FuzzTarget {
    /// `Sources/SocialTokens`: Google, Apple, Facebook and Firebase ID tokens and Apple's server notifications,
    /// verified against a fixed key set (for Firebase, a certificate set of its RSA key) on a fixed clock.
    ///
    /// Inputs: `G`, `A`, `F` or `R` then a token for Google, Apple, Facebook or Firebase (`R` for fiRebase), and
    /// optionally the client's nonce, which Firebase does not use; `N` then an Apple notification payload. Lower case
    /// `g`, `a`, `f`, `r` and `n` take claims JSON instead, which the target signs with a key of the set (RS256 for
    /// Firebase and notifications, ES256 for the rest), so the claims reach every policy check behind the signature.
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
            let sign = provider == .firebase ? FuzzSocialProvider.signedRS256 : FuzzSocialProvider.signedES256
            let token = isClaims ? sign(body) : FuzzInput.text(body)
            Blocking.run { _ = try? await verifier.verify(provider: provider, token: token, nonce: nonce) }
        }
    }
}
