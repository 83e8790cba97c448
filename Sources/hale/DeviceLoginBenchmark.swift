import AsyncHTTPClient
import Foundation
import HaleClient
import NIOCore
import NIOHTTP1

/// Seed 002's sign-in as apps run it, against a running server: challenge, sign, verify, refresh. Each worker owns one
/// registered device and repeats the round trip; the figure is completed round trips per second. Then the refresh
/// alone, bearer and bound to an attested app instance (`RefreshBenchmark`).
struct DeviceLoginBenchmark {
    /// What a run measured.
    struct Result: Codable {
        let server: String
        let concurrency: Int
        let seconds: Double
        let logins: Int
        let loginsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        /// The refresh alone, bearer and bound.
        var refresh: RefreshBenchmark.Result? = nil
    }

    let server: URL
    let token: String
    let concurrency: Int
    let duration: Duration

    func run(progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        try await withBenchmarkClient { try await measure(with: $0, progress: progress) }
    }

    private func measure(with client: HTTPClient, progress: @escaping @Sendable (String) -> Void) async throws
        -> Result
    {
        let api = BenchmarkAPI(client: client, server: server)
        progress("registering \(concurrency) devices")
        // The account's token enrols the first device only (adding a credential needs a fresh sign-in, which a
        // token from `hale accounts create` is not); each further one is added from the first's fresh session.
        var devices = [try await api.register(index: 0, token: token)]
        for index in 1..<max(1, concurrency) {
            let fresh = try await api.signIn(devices[0])
            devices.append(try await api.register(index: index, token: try api.field(fresh, "accessToken")))
        }
        progress("signing in for \(duration)")
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for device in devices {
                group.addTask {
                    var latencies: [Duration] = []
                    while clock.now < deadline {
                        let began = clock.now
                        try await api.signInAndRefresh(device)
                        latencies.append(clock.now - began)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: [Duration]()) { $0 += $1 }.sorted()
        }
        let seconds = (clock.now - start).timeInterval
        var result = Result(
            server: server.absoluteString, concurrency: concurrency, seconds: seconds, logins: latencies.count,
            loginsPerSecond: Double(latencies.count) / seconds,
            p50Milliseconds: Self.percentile(latencies, 0.50), p99Milliseconds: Self.percentile(latencies, 0.99))
        result.refresh = try await RefreshBenchmark(api: api, duration: duration).run(on: devices, progress: progress)
        return result
    }

    private static func percentile(_ sorted: [Duration], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int(Double(sorted.count) * fraction))
        return sorted[index].timeInterval * 1000
    }
}

/// One benchmark device: a software key that signs as the Android app does, and its fingerprint.
struct BenchmarkDevice: Sendable {
    let key: SoftwareDeviceKey
    let fingerprint: String
}

/// A request the server refused: the benchmark stops, naming it.
struct BenchmarkRequestFailed: Error, CustomStringConvertible {
    let path: String
    let status: UInt
    let body: String

    var description: String {
        let hint =
            switch status {
            case 429:
                " Raise the server's rateLimits.deviceKeysPerIp, rateLimits.deviceKeysPerFingerprint and"
                    + " rateLimits.refreshPerIp for benchmarking."
            case 409 where body.contains("LIMIT_REACHED"):
                " Raise the server's accountLimits.devices to at least --concurrency for benchmarking."
            default: ""
            }
        return "\(path) answered \(status): \(body)\(hint)"
    }
}

/// The four calls of the journey, over one pooled HTTP client.
struct BenchmarkAPI: Sendable {
    let client: HTTPClient
    let server: URL

    func register(index: Int, token: String) async throws -> BenchmarkDevice {
        let device = BenchmarkDevice(
            key: SoftwareDeviceKey(), fingerprint: "Android-14-Bench-Fingerprint-\(index)-\(UUID().uuidString)")
        let issued = try await post(
            "api/v1/devices/register/challenge",
            [
                "deviceName": "Bench \(index)", "deviceType": "mobile", "deviceFingerprint": device.fingerprint,
                "publicKey": device.key.publicKeyPEM, "keyAlgorithm": "ES256",
            ], bearer: token)
        _ = try await post(
            "api/v1/devices/register/verify",
            [
                "sessionId": try field(issued, "sessionId"),
                "signedChallenge": try device.key.sign(challenge: try field(issued, "challenge"), convention: .android),
            ], bearer: token)
        return device
    }

    func signInAndRefresh(_ device: BenchmarkDevice) async throws {
        let tokens = try await signIn(device)
        _ = try await post("api/v1/auth/biometric/refresh", ["refreshToken": try field(tokens, "refreshToken")])
    }

    /// Signs in with the device's key; the session's tokens.
    func signIn(_ device: BenchmarkDevice) async throws -> [String: Any] {
        let challenge = try await post(
            "api/v1/auth/biometric/challenge", ["deviceFingerprint": device.fingerprint])
        let signedIn = try await post(
            "api/v1/auth/biometric/verify",
            [
                "sessionId": try field(challenge, "sessionId"),
                "signedChallenge": try device.key.sign(
                    challenge: try field(challenge, "challenge"), convention: .android),
                "rememberMe": false,
            ])
        return signedIn["tokens"] as? [String: Any] ?? [:]
    }

    func field(_ object: [String: Any], _ name: String) throws -> String {
        guard let value = object[name] as? String else {
            throw BenchmarkRequestFailed(path: name, status: 0, body: "the response lacks \(name)")
        }
        return value
    }

    func post(
        _ path: String, _ body: [String: any Sendable], bearer: String? = nil,
        expecting expected: HTTPResponseStatus = .ok
    ) async throws -> [String: Any] {
        try await post(
            path, raw: try JSONSerialization.data(withJSONObject: body), bearer: bearer, expecting: expected)
    }

    func post(
        _ path: String, raw body: Data, headers: [String: String] = [:], bearer: String? = nil,
        expecting expected: HTTPResponseStatus = .ok
    ) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: server.appendingPathComponent(path).absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: body))
        return try await send(request, path: path, bearer: bearer, expecting: expected)
    }

    func get(_ path: String, bearer: String) async throws -> [String: Any] {
        try await send(
            HTTPClientRequest(url: server.appendingPathComponent(path).absoluteString), path: path, bearer: bearer,
            expecting: .ok)
    }

    private func send(
        _ request: HTTPClientRequest, path: String, bearer: String?, expecting expected: HTTPResponseStatus
    ) async throws -> [String: Any] {
        var request = request
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let data = Data(buffer: bytes)
        guard response.status == expected else {
            throw BenchmarkRequestFailed(
                path: path, status: response.status.code, body: String(decoding: data, as: UTF8.self))
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
