import Crypto
import DeviceKeys
import Foundation
import HaleClient
import HaleServer
import WebAuthn

/// Measures WebAuthn verification on one core: registrations and authentications verified per second, beside the
/// raw P-256 signature verification rate measured in the same run. Pure CPU: no I/O inside the timed loops.
struct WebAuthnBenchmark {
    /// One measured rate.
    struct Rate: Codable, Equatable {
        let name: String
        var operations: Int
        var seconds: Double
        var perSecond: Double { Double(operations) / seconds }
    }

    let duration: Duration
    private let relyingParty: RelyingParty
    private var passkey = SoftwarePasskey(rpID: "example.com", origin: "https://example.com")
    private let challenge: [UInt8] = Array(repeating: 7, count: 32)

    init(duration: Duration) throws {
        self.duration = duration
        relyingParty = try RelyingParty(id: "example.com", name: "Bench", origins: ["https://example.com"])
    }

    /// Raw P-256, authentication and registration (`none`, as passkeys send it), and finding a device key from its
    /// signature, measured in interleaved rounds so that a busy neighbour slows them all alike and the ratios stay
    /// meaningful.
    func run() async throws -> [Rate] {
        let workloads = [try rawP256(), try authentication(), try registration(), try deviceKeyLookup()]
        var totals = workloads.map { Rate(name: $0.name, operations: 0, seconds: 0) }
        let rounds = max(1, Int(duration / Self.round))
        for _ in 0..<rounds {
            for (index, workload) in workloads.enumerated() {
                let rate = try await measure(workload.name, for: Self.round, workload.operation)
                totals[index].operations += rate.operations
                totals[index].seconds += rate.seconds
            }
        }
        return totals
    }

    private static let round = Duration.milliseconds(100)
    private static let distinctInputs = 64

    /// A named operation to repeat.
    private struct Workload {
        let name: String
        let operation: () async throws -> Void
    }

    /// ECDSA P-256 verification of messages as long as an assertion's (authenticator data ‖ hash), with a pre-parsed
    /// key and signature. It cycles through as many distinct signatures as the authentication workload does: a
    /// single repeated signature trains the branch predictor on BoringSSL's variable-time code and reads about 8%
    /// faster than any real mix of signatures.
    private func rawP256() throws -> Workload {
        let key = P256.Signing.PrivateKey()
        let messages = (1...Self.distinctInputs).map { [UInt8](repeating: UInt8($0), count: 37 + 32) }
        let signatures = try messages.map { try key.signature(for: $0) }
        let publicKey = key.publicKey
        nonisolated(unsafe) var index = 0
        return Workload(name: "raw P-256 verify") {
            index = (index + 1) % messages.count
            guard publicKey.isValidSignature(signatures[index], for: messages[index]) else { throw BenchmarkFailure() }
        }
    }

    /// A complete §7.2 verification from the JSON members a client posts and the stored COSE key bytes.
    private func authentication() throws -> Workload {
        let verifier = AuthenticationVerifier(relyingParty: relyingParty)
        let expected = challenge
        let assertions = (1...Self.distinctInputs).map { passkey.assertion(challenge: expected, signCount: UInt32($0)) }
        let stored = passkey.stored()
        nonisolated(unsafe) var index = 0
        return Workload(name: "authentication verify") {
            index = (index + 1) % assertions.count
            _ = try verifier.verify(
                assertions[index], expectedChallenge: expected, credential: stored, requireUserVerification: true)
        }
    }

    /// A complete §7.1 verification of a `none` attestation.
    private func registration() throws -> Workload {
        let verifier = RegistrationVerifier(relyingParty: relyingParty)
        let expected = challenge
        let response = passkey.registration(challenge: expected)
        let now = Date()
        return Workload(name: "registration verify (none)") {
            _ = try await verifier.verify(
                response, expectedChallenge: expected, requireUserVerification: true, at: now)
        }
    }

    /// Finding a device key from a signature alone (`DevicePublicKey.lookup`, both ECDSA conventions): what a
    /// device-key sign-in costs before it verifies the one key it found, whatever number of keys shares the
    /// fingerprint.
    private func deviceKeyLookup() throws -> Workload {
        let key = P256.Signing.PrivateKey()
        let thumbprint = try DevicePublicKey(derRepresentation: Array(key.publicKey.derRepresentation)).thumbprint
        let challenges = (1...Self.distinctInputs).map { "challenge-\($0)" }
        let signatures = try challenges.map {
            try key.signature(for: Array($0.utf8)).derRepresentation.base64EncodedString()
        }
        nonisolated(unsafe) var index = 0
        return Workload(name: "device-key signer lookup") {
            index = (index + 1) % challenges.count
            guard
                case .p256(let found) = DevicePublicKey.lookup(
                    signature: signatures[index], challenge: challenges[index]),
                found.contains(thumbprint)
            else { throw BenchmarkFailure() }
        }
    }

    private func measure(
        _ name: String, for duration: Duration, _ operation: () async throws -> Void
    ) async throws -> Rate {
        var operations = 0
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < duration {
            for _ in 0..<16 { try await operation() }
            operations += 16
        }
        return Rate(name: name, operations: operations, seconds: (clock.now - start).timeInterval)
    }
}

/// A verification failed inside a timed loop: the benchmark is measuring the wrong thing.
struct BenchmarkFailure: Error {}
