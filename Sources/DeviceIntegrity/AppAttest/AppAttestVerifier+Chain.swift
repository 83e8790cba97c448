import Foundation
@_spi(FixedExpiryValidationTime) import X509

extension AppAttestVerifier {
    /// Step 1: the credential certificate, through the intermediates of `x5c`, leads to a configured root, and every
    /// certificate is valid at `time`.
    func validateChain(_ certificates: [Certificate], at time: Date) async throws(AppAttestError) {
        guard let leaf = certificates.first else { throw .chainInvalid }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let outcome = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = outcome else { throw .chainInvalid }
    }
}
