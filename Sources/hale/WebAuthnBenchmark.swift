import Crypto
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
        let operations: Int
        let seconds: Double
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

    /// Raw P-256, then authentication, then registration (`none`, as passkeys send it).
    func run() async throws -> [Rate] {
        [try rawP256(), try authentication(), try await registration()]
    }

    /// ECDSA P-256 verification of the same message length a WebAuthn assertion signs (authenticator data ‖ hash).
    func rawP256() throws -> Rate {
        let key = P256.Signing.PrivateKey()
        let message = [UInt8](repeating: 1, count: 37 + 32)
        let signature = try key.signature(for: message)
        let publicKey = key.publicKey
        return try measure("raw P-256 verify") {
            guard publicKey.isValidSignature(signature, for: message) else { throw BenchmarkFailure() }
        }
    }

    func authentication() throws -> Rate {
        let verifier = AuthenticationVerifier(relyingParty: relyingParty)
        let assertions = (1...64).map { passkey.assertion(challenge: challenge, signCount: UInt32($0)) }
        let stored = passkey.stored()
        var index = 0
        return try measure("authentication verify") {
            index = (index + 1) % assertions.count
            _ = try verifier.verify(
                assertions[index], expectedChallenge: challenge, credential: stored, requireUserVerification: true)
        }
    }

    func registration() async throws -> Rate {
        let verifier = RegistrationVerifier(relyingParty: relyingParty)
        let response = passkey.registration(challenge: challenge)
        let now = Date()
        var operations = 0
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < duration {
            _ = try await verifier.verify(
                response, expectedChallenge: challenge, requireUserVerification: true, at: now)
            operations += 1
        }
        return Rate(
            name: "registration verify (none)", operations: operations, seconds: (clock.now - start).timeInterval)
    }

    private func measure(_ name: String, _ operation: () throws -> Void) throws -> Rate {
        var operations = 0
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < duration {
            for _ in 0..<64 { try operation() }
            operations += 64
        }
        return Rate(name: name, operations: operations, seconds: (clock.now - start).timeInterval)
    }
}

/// A verification failed inside a timed loop: the benchmark is measuring the wrong thing.
struct BenchmarkFailure: Error {}
