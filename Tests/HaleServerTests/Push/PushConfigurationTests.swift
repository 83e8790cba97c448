import Crypto
import Foundation
import NIOCore
import Testing

@testable import HaleServer

/// The `push.*` keys, and how each gateway's answers are read.
@Suite("Push: configuration and gateway answers")
struct PushConfigurationTests {
    static func apns(_ extra: [String: String] = [:]) -> ConfigValues {
        ConfigValues(
            [
                "push.apns.teamId": "TEAM", "push.apns.keyId": "KEY",
                "push.apns.privateKey": P256.Signing.PrivateKey().pemRepresentation, "push.apns.bundleId": "com.a",
            ].merging(extra) { $1 })
    }

    @Test("push is off by default, with retries configured")
    func defaults() throws {
        let push = try HaleConfiguration(ConfigValues()).push
        #expect(push.apns == nil && push.fcm == nil)
        #expect(push.maxAttempts == 8)
        #expect(push.retryDelay == .seconds(30) && push.maxRetryDelay == .seconds(3600))
    }

    @Test("APNs defaults to production and takes the sandbox by name")
    func apnsEnvironments() throws {
        #expect(try HaleConfiguration(Self.apns()).push.apns?.baseURL == "https://api.push.apple.com")
        let sandbox = try HaleConfiguration(Self.apns(["push.apns.environment": "sandbox"]))
        #expect(sandbox.push.apns?.baseURL == "https://api.sandbox.push.apple.com")
    }

    @Test("refused push settings name the key at fault")
    func refused() throws {
        var partial = Self.apns()
        partial["push.apns.bundleId"] = ""
        #expect(throws: ConfigError("push.apns.bundleId is required with the other push.apns key settings")) {
            try HaleConfiguration(partial)
        }
        #expect(throws: ConfigError.self) { try HaleConfiguration(Self.apns(["push.apns.environment": "dev"])) }
        #expect(throws: ConfigError.self) { try HaleConfiguration(Self.apns(["push.apns.url": "http://127.0.0.1:1"])) }
        #expect(throws: ConfigError.self) { try HaleConfiguration(ConfigValues(["push.fcm.serviceAccount": "{}"])) }
        #expect(throws: ConfigError.self) { try HaleConfiguration(ConfigValues(["push.maxAttempts": "0"])) }
    }

    @Test("APNs answers: gone tokens, provider-token trouble, passing and lasting failures")
    func apnsOutcomes() {
        #expect(APNsClient.outcome(status: 200, reason: "") == .delivered)
        #expect(APNsClient.outcome(status: 410, reason: "Unregistered") == .tokenInvalid(reason: "Unregistered"))
        #expect(APNsClient.outcome(status: 400, reason: "BadDeviceToken") == .tokenInvalid(reason: "BadDeviceToken"))
        #expect(
            APNsClient.outcome(status: 403, reason: "ExpiredProviderToken") == .retry(reason: "ExpiredProviderToken"))
        #expect(APNsClient.outcome(status: 429, reason: "TooManyRequests") == .retry(reason: "TooManyRequests"))
        #expect(APNsClient.outcome(status: 503, reason: "") == .retry(reason: "status_503"))
        #expect(APNsClient.outcome(status: 400, reason: "PayloadTooLarge") == .rejected(reason: "PayloadTooLarge"))
    }

    @Test("FCM answers: an invalid argument is about the token only when it names the token")
    func fcmOutcomes() {
        func outcome(_ status: Int, _ json: String) -> PushSendOutcome {
            FCMError(ByteBuffer(string: json)).outcome(status: status)
        }
        let unregistered = #"{"error":{"status":"NOT_FOUND","details":[{"errorCode":"UNREGISTERED"}]}}"#
        #expect(outcome(404, unregistered) == .tokenInvalid(reason: "UNREGISTERED"))
        let badToken =
            #"{"error":{"status":"INVALID_ARGUMENT","details":[{"fieldViolations":[{"field":"message.token"}]}]}}"#
        #expect(outcome(400, badToken) == .tokenInvalid(reason: "INVALID_ARGUMENT"))
        let badData =
            #"{"error":{"status":"INVALID_ARGUMENT","details":[{"fieldViolations":[{"field":"message.data"}]}]}}"#
        #expect(outcome(400, badData) == .rejected(reason: "INVALID_ARGUMENT"))
        #expect(outcome(503, #"{"error":{"status":"UNAVAILABLE"}}"#) == .retry(reason: "UNAVAILABLE"))
        #expect(outcome(401, "") == .retry(reason: "status_401"))
    }
}
