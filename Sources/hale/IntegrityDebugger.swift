import Crypto
import DeviceIntegrity
import Foundation

/// What `hale verify appattest-…` and `hale verify play-integrity` do, apart from printing. Exit codes are the
/// WebAuthn commands': 0 verified, 1 refused, 2 unusable input.
enum IntegrityDebugger {
    typealias Outcome = WebAuthnDebugger.Outcome
    typealias UnusableInput = WebAuthnDebugger.UnusableInput

    struct AttestationInput: Decodable {
        let attestation: String
        let keyId: String
        let clientDataHash: String?
        let challenge: String?
        let teamID: String
        let bundleID: String
        let environment: String
        let at: String?
        let rootCertificate: String?
    }

    struct AssertionInput: Decodable {
        let assertion: String
        let publicKey: String
        let clientDataHash: String?
        let clientData: String?
        let teamID: String
        let bundleID: String
        let previousCounter: UInt32
    }

    struct PlayIntegrityInput: Decodable {
        let token: String
        let decryptionKey: String
        let verificationKey: String
        let packageName: String
        let nonce: String
        let certificateDigests: [String]
        let at: String?
    }

    struct VerifiedAttestation: Encodable {
        var verified = true
        let publicKey: String
        let receipt: String
        let environment: String
    }

    struct VerifiedAssertion: Encodable {
        var verified = true
        let counter: UInt32
    }

    struct VerifiedPlayIntegrity: Encodable {
        struct Verdict: Encodable {
            let requestPackageName: String
            let nonce: String?
            let timestamp: String
            let appRecognitionVerdict: String
            let certificateSha256Digests: [String]
            let deviceRecognitionVerdicts: [String]
            let appLicensingVerdict: String?
        }
        var verified = true
        let verdict: Verdict
    }

    static func appAttestAttestation(_ data: Data) async -> Outcome {
        await run {
            let input = try WebAuthnDebugger.decode(AttestationInput.self, data)
            guard let environment = AppAttestEnvironment(rawValue: input.environment) else {
                throw UnusableInput(message: "environment must be development or production")
            }
            let roots = try input.rootCertificate.map { [try pem(atPath: $0)] } ?? [AppAttestVerifier.appleRootPEM]
            let verifier = try usable("teamID, bundleID or rootCertificate") {
                try AppAttestVerifier(
                    apps: [AppAttestApp(teamID: input.teamID, bundleID: input.bundleID)], environment: environment,
                    rootCertificatePEMs: roots)
            }
            let hash = try clientDataHash(input.clientDataHash, orHashOf: input.challenge)
            let verified = try await verifier.verifyAttestation(
                try bytes(input.attestation, "attestation"), keyID: try bytes(input.keyId, "keyId"),
                clientDataHash: hash, at: try WebAuthnDebugger.time(input.at))
            return VerifiedAttestation(
                publicKey: verified.publicKeyPEM, receipt: Data(verified.receipt).base64EncodedString(),
                environment: verified.environment.rawValue)
        }
    }

    static func appAttestAssertion(_ data: Data) async -> Outcome {
        await run {
            let input = try WebAuthnDebugger.decode(AssertionInput.self, data)
            let app = AppAttestApp(teamID: input.teamID, bundleID: input.bundleID)
            let verifier = try usable("teamID or bundleID") {
                try AppAttestVerifier(apps: [app], environment: .production)
            }
            let key = try usable("publicKey (a PEM P-256 public key)") {
                try P256.Signing.PublicKey(pemRepresentation: input.publicKey)
            }
            let counter = try verifier.verifyAssertion(
                try bytes(input.assertion, "assertion"), publicKey: key,
                clientDataHash: try clientDataHash(input.clientDataHash, orHashOf: input.clientData),
                previousCounter: input.previousCounter, app: app)
            return VerifiedAssertion(counter: counter)
        }
    }

    static func playIntegrity(_ data: Data) async -> Outcome {
        await run {
            let input = try WebAuthnDebugger.decode(PlayIntegrityInput.self, data)
            let verifier = try usable("decryptionKey, verificationKey, packageName or certificateDigests") {
                try PlayIntegrityVerifier(
                    decryptionKey: input.decryptionKey, verificationKey: input.verificationKey,
                    apps: [
                        PlayIntegrityApp(packageName: input.packageName, certificateDigests: input.certificateDigests)
                    ])
            }
            let verdict = try verifier.verify(input.token, nonce: input.nonce, at: try WebAuthnDebugger.time(input.at))
            return VerifiedPlayIntegrity(
                verdict: .init(
                    requestPackageName: verdict.requestPackageName, nonce: verdict.nonce,
                    timestamp: verdict.timestamp.formatted(.iso8601),
                    appRecognitionVerdict: verdict.appRecognitionVerdict,
                    certificateSha256Digests: verdict.certificateSha256Digests,
                    deviceRecognitionVerdicts: verdict.deviceRecognitionVerdicts,
                    appLicensingVerdict: verdict.appLicensingVerdict))
        }
    }

    private static func run(_ body: () async throws -> some Encodable) async -> Outcome {
        do {
            return Outcome(json: WebAuthnDebugger.encode(try await body()), exitCode: 0)
        } catch let error as AppAttestError {
            return refused(error.code, error.message)
        } catch let error as PlayIntegrityError {
            return refused(error.code, error.message)
        } catch let error as UnusableInput {
            return Outcome(
                json: WebAuthnDebugger.encode(
                    WebAuthnDebugger.Refused(error: "UNUSABLE_INPUT", message: error.message)),
                exitCode: 2)
        } catch {
            return Outcome(
                json: WebAuthnDebugger.encode(WebAuthnDebugger.Refused(error: "UNUSABLE_INPUT", message: "\(error)")),
                exitCode: 2)
        }
    }

    private static func refused(_ code: String, _ message: String) -> Outcome {
        Outcome(json: WebAuthnDebugger.encode(WebAuthnDebugger.Refused(error: code, message: message)), exitCode: 1)
    }

    /// Runs `make`; any failure is unusable input naming `what`.
    private static func usable<T>(_ what: String, _ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch {
            throw UnusableInput(message: "\(what) cannot be used")
        }
    }

    private static func bytes(_ base64: String, _ name: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: base64) else { throw UnusableInput(message: "\(name) is not base64") }
        return [UInt8](data)
    }

    /// The given clientDataHash, or SHA-256 of the given bytes (Apple's samples pass the challenge itself).
    private static func clientDataHash(_ hash: String?, orHashOf data: String?) throws -> [UInt8] {
        switch (hash, data) {
        case (let hash?, nil): return try bytes(hash, "clientDataHash")
        case (nil, let data?): return Array(SHA256.hash(data: try bytes(data, "challenge or clientData")))
        default: throw UnusableInput(message: "give clientDataHash, or the challenge or clientData to hash, not both")
        }
    }

    private static func pem(atPath path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UnusableInput(message: "cannot read rootCertificate at \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
