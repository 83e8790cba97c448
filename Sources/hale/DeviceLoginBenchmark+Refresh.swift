import AsyncHTTPClient
import Crypto
import Foundation
import HaleClient
import NIOCore

/// The refresh alone, as a bearer session and as a session bound to an attested app instance
/// (`tokens.bindToAttestation`), measured by the same workers in the same run: what binding costs a refresh.
struct RefreshBenchmark {
    /// What the two phases measured.
    struct Result: Codable {
        let concurrency: Int
        let bearerRefreshesPerSecond: Double
        let bearerP50Milliseconds: Double
        /// Nil when the server does not bind sessions (no `attestationNonce` in its answers).
        let boundRefreshesPerSecond: Double?
        let boundP50Milliseconds: Double?
        /// Bound refreshes per second over bearer ones.
        let boundRatio: Double?
    }

    /// App Attest keys an account keeps (`DeviceAttestation.keyLimit`), so at most this many workers bind at once.
    static let maximumWorkers = 8

    let api: BenchmarkAPI
    let duration: Duration

    func run(on devices: [BenchmarkDevice], progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        let workers = Array(devices.prefix(Self.maximumWorkers))
        var sessions: [BenchmarkAPI.Tokens] = []
        for device in workers { sessions.append(try BenchmarkAPI.Tokens(try await api.signIn(device))) }
        progress("refreshing \(workers.count) bearer sessions for \(duration)")
        let bearer = try await measure(sessions.map { ($0, nil) })
        sessions = bearer.sessions
        guard sessions.allSatisfy({ $0.attestationNonce != nil }) else {
            progress("the server does not bind sessions (tokens.bindToAttestation is off): bound refresh not measured")
            return Result(
                concurrency: workers.count, bearerRefreshesPerSecond: bearer.perSecond,
                bearerP50Milliseconds: bearer.p50,
                boundRefreshesPerSecond: nil, boundP50Milliseconds: nil, boundRatio: nil)
        }
        progress("binding \(workers.count) sessions to development App Attest keys")
        var bindings: [(BenchmarkAPI.Tokens, BenchmarkAPI.AppInstance?)] = []
        for session in sessions {
            let instance = try await api.attestedInstance(for: session.accessToken)
            bindings.append((try await api.refresh(session, attestedBy: instance), instance))
        }
        progress("refreshing \(workers.count) bound sessions for \(duration)")
        let bound = try await measure(bindings)
        return Result(
            concurrency: workers.count, bearerRefreshesPerSecond: bearer.perSecond, bearerP50Milliseconds: bearer.p50,
            boundRefreshesPerSecond: bound.perSecond, boundP50Milliseconds: bound.p50,
            boundRatio: bound.perSecond / bearer.perSecond)
    }

    /// Each worker refreshes its session in a loop until the duration is over, attested by its instance if it has
    /// one; refreshes per second, p50, and each worker's last tokens.
    private func measure(_ workers: [(BenchmarkAPI.Tokens, BenchmarkAPI.AppInstance?)]) async throws
        -> (perSecond: Double, p50: Double, sessions: [BenchmarkAPI.Tokens])
    {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let api = api
        let outcomes = try await withThrowingTaskGroup(of: (Int, [Duration], BenchmarkAPI.Tokens).self) { group in
            for (index, (first, instance)) in workers.enumerated() {
                group.addTask {
                    var latencies: [Duration] = []
                    var session = first
                    while clock.now < deadline {
                        let began = clock.now
                        session = try await api.refresh(session, attestedBy: instance)
                        latencies.append(clock.now - began)
                    }
                    return (index, latencies, session)
                }
            }
            return try await group.reduce(into: [(Int, [Duration], BenchmarkAPI.Tokens)]()) { $0.append($1) }
        }
        let seconds = (clock.now - start).timeInterval
        let latencies = outcomes.flatMap(\.1).sorted()
        let p50 = latencies.isEmpty ? 0 : latencies[latencies.count / 2].timeInterval * 1000
        return (Double(latencies.count) / seconds, p50, outcomes.sorted { $0.0 < $1.0 }.map(\.2))
    }
}

extension BenchmarkAPI {
    /// A development App Attest key registered for the account, as `HaleClient.developmentAppAttester()` and
    /// `registerAppAttestKey(with:)` make one.
    struct AppInstance: Sendable {
        let attester: SoftwareAppAttester
        let keyID: String
    }

    /// A new app instance of the session whose access token is `accessToken`: a development credential, a key,
    /// and its attestation over a fresh nonce.
    func attestedInstance(for accessToken: String) async throws -> AppInstance {
        let intermediate = P256.Signing.PrivateKey()
        let credential = try await post(
            "health/development-attestation",
            ["publicKey": intermediate.publicKey.derRepresentation.base64EncodedString()], bearer: accessToken,
            expecting: .created)
        let attester = try SoftwareAppAttester(
            intermediateKey: intermediate,
            certificate: Data(base64Encoded: try field(credential, "certificate")) ?? Data(),
            rootCertificate: Data(base64Encoded: try field(credential, "rootCertificate")) ?? Data(),
            appID: try field(credential, "appId"),
            environment: SoftwareAppAttester.Environment(rawValue: try field(credential, "environment")) ?? .development
        )
        let keyID = try await attester.generateKey()
        let nonce = try field(try await get("health/attestation-nonce", bearer: accessToken), "nonce")
        let attestation = try await attester.attestKey(keyID, clientDataHash: Data(SHA256.hash(data: Data(nonce.utf8))))
        _ = try await post(
            "health/attestation-keys",
            ["keyId": keyID, "nonce": nonce, "attestation": attestation.base64EncodedString()], bearer: accessToken,
            expecting: .created)
        return AppInstance(attester: attester, keyID: keyID)
    }

    /// A session's tokens, as a sign-in or refresh answers them.
    struct Tokens: Sendable {
        let accessToken: String
        let refreshToken: String
        /// The next refresh's nonce, when the server binds sessions.
        let attestationNonce: String?

        init(_ answer: [String: Any]) throws {
            guard let access = answer["accessToken"] as? String, let refresh = answer["refreshToken"] as? String else {
                throw BenchmarkRequestFailed(path: "tokens", status: 0, body: "the answer lacks its tokens")
            }
            accessToken = access
            refreshToken = refresh
            attestationNonce = answer["attestationNonce"] as? String
        }
    }

    /// Refreshes `tokens`; with `instance`, attested over the answer's nonce and the body, as the SDK does.
    func refresh(_ tokens: Tokens, attestedBy instance: AppInstance?) async throws -> Tokens {
        let body = try JSONSerialization.data(withJSONObject: ["refreshToken": tokens.refreshToken])
        var headers: [String: String] = [:]
        if let instance, let nonce = tokens.attestationNonce {
            headers = try await HealthWriteAttestation.appAttest(instance.attester, keyID: instance.keyID)
                .headers(nonce: nonce, body: body)
        }
        return try Tokens(try await post("api/v1/auth/biometric/refresh", raw: body, headers: headers))
    }
}
