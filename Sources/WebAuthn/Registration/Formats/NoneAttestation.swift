/// `none` (WebAuthn L3 §8.7): no attestation; the statement must be empty.
struct NoneAttestation: AttestationFormat {
    static let identifier = "none"

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        guard input.statement.mapEntries?.isEmpty == true else { throw Self.invalid("attStmt must be empty") }
        return AttestationResult(type: .none, trustPath: [])
    }
}
