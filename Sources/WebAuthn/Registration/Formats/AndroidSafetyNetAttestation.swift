import ByteEncoding
import Crypto
import Foundation
import X509
import _CryptoExtras

/// `android-safetynet` (WebAuthn L3 §8.5): Google Play Services' SafetyNet Attestation API vouches for the device
/// in a JWS whose nonce covers the registration. Steps are numbered as the bullets of the verification procedure;
/// step 4 follows the SafetyNet documentation ("Verify the compatibility check response").
struct AndroidSafetyNetAttestation: AttestationFormat {
    static let identifier = "android-safetynet"
    /// The host the JWS signing certificate must be issued to.
    static let hostname = "attest.android.com"

    /// A compact-serialized JWS (RFC 7515 §7.1), split and decoded.
    private struct JWS {
        let header: Header
        let payload: Payload
        let signingInput: [UInt8]
        let signature: [UInt8]
    }

    /// The JOSE header: the signature algorithm and the signing certificate chain (standard base64 DER, leaf first).
    private struct Header: Decodable {
        let alg: String
        let x5c: [String]
    }

    /// The members of the SafetyNet attestation payload that WebAuthn checks.
    private struct Payload: Decodable {
        let nonce: String?
        let timestampMs: Int64?
        let ctsProfileMatch: Bool?
    }

    func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        // §8.5 step 1: the statement has ver (text) and response (bytes).
        guard let version = input.statement["ver"]?.text, !version.isEmpty,
            let response = input.statement["response"]?.bytes
        else {
            throw Self.invalid("attStmt needs a ver and a response")
        }
        // Step 2: response is a SafetyNet response: a JWS with a certificate chain and a JSON payload. There is only
        // one format of it, so ver is not interpreted further.
        let jws = try Self.jws(response)
        // Step 3: its nonce is the base64 (standard, padded) of SHA-256(authenticatorData ‖ clientDataHash).
        let nonce = Data(SHA256.hash(data: input.signedData)).base64EncodedString()
        guard jws.payload.nonce == nonce else {
            throw Self.invalid("the response's nonce is not the hash of authenticatorData ‖ clientDataHash")
        }
        // Step 4: it came from SafetyNet (the chain itself is validated against the trust anchors by the caller).
        let chain = try Self.chain(jws.header)
        try checkOrigin(jws, chain: chain)
        try checkClaims(jws.payload, policy: input.policy, at: input.verificationTime)
        // Step 5: Basic, trust path x5c.
        return AttestationResult(type: .basic, trustPath: chain)
    }

    /// §8.5 step 4: the leaf is issued to attest.android.com and signed the JWS.
    private func checkOrigin(_ jws: JWS, chain: [Certificate]) throws(WebAuthnError) {
        guard Self.isIssued(to: Self.hostname, chain[0]) else {
            throw Self.invalid("the response is not signed by a certificate for \(Self.hostname)")
        }
        guard Self.isValidSignature(jws, by: chain[0]) else {
            throw Self.invalid("the response's signature does not verify")
        }
    }

    /// §8.5 step 4: the device passed the compatibility check (ctsProfileMatch) and, unless the policy turns it off,
    /// timestampMs lies within the policy's window of the verification time.
    private func checkClaims(_ payload: Payload, policy: AttestationPolicy, at date: Date) throws(WebAuthnError) {
        guard payload.ctsProfileMatch == true else {
            throw Self.invalid("the device did not pass the compatibility check (ctsProfileMatch)")
        }
        guard let window = policy.safetyNetTimestampWindow else { return }
        guard let milliseconds = payload.timestampMs,
            abs(Date(timeIntervalSince1970: Double(milliseconds) / 1000).timeIntervalSince(date)) <= window
        else {
            throw Self.invalid("the response's timestampMs is not within \(window) seconds of the verification time")
        }
    }

    /// Splits and decodes the JWS of `response`.
    private static func jws(_ response: [UInt8]) throws(WebAuthnError) -> JWS {
        let parts = response.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerJSON = Base64URL.decode(String(decoding: parts[0], as: UTF8.self)),
            let payloadJSON = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self)),
            let header = try? JSONDecoder().decode(Header.self, from: headerJSON),
            let payload = try? JSONDecoder().decode(Payload.self, from: payloadJSON)
        else {
            throw invalid("response is not a compact JWS with a JSON header and payload")
        }
        return JWS(
            header: header, payload: payload, signingInput: Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1]),
            signature: Array(signature))
    }

    /// The certificates of the header's x5c, leaf first.
    private static func chain(_ header: Header) throws(WebAuthnError) -> [Certificate] {
        try CertificateChain.checkLength(header.x5c.count, format: identifier)
        var certificates: [Certificate] = []
        for encoded in header.x5c {
            guard let der = Data(base64Encoded: encoded), let certificate = try? Certificate(derEncoded: Array(der))
            else {
                throw invalid("the response's x5c holds something other than a certificate")
            }
            certificates.append(certificate)
        }
        guard !certificates.isEmpty else { throw invalid("the response has no x5c certificate chain") }
        return certificates
    }

    /// RFC 6125 host name matching: the DNS names of the SAN if there is one, otherwise the subject's CN. A SAN that
    /// cannot be read matches nothing; it must not let the CN stand in for it.
    private static func isIssued(to host: String, _ certificate: Certificate) -> Bool {
        let names: SubjectAlternativeNames?
        do {
            names = try certificate.extensions.subjectAlternativeNames
        } catch {
            return false
        }
        if let names {
            return names.contains { name in
                guard case .dnsName(let dnsName) = name else { return false }
                return dnsName.lowercased() == host
            }
        }
        return certificate.subject.flatMap { $0 }.contains {
            $0.type == .RDNAttributeType.commonName && "\($0.value)".lowercased() == host
        }
    }

    /// Whether the JWS signature verifies with the leaf's key under the header's alg (RS256 or ES256).
    private static func isValidSignature(_ jws: JWS, by certificate: Certificate) -> Bool {
        switch jws.header.alg {
        case "RS256":
            guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: jws.signature), for: SHA256.hash(data: jws.signingInput),
                padding: .insecurePKCS1v1_5)
        case "ES256":
            guard let key = P256.Signing.PublicKey(certificate.publicKey),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
            else { return false }
            return key.isValidSignature(signature, for: jws.signingInput)
        default:
            return false
        }
    }
}
