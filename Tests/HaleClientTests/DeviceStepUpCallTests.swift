import Foundation
import Testing

@testable import HaleClient

/// The SDK's step-up with the device key: the challenge it is given is what it signs and sends back.
@Suite("HaleClient: step-up with the device key")
struct DeviceStepUpCallTests {
    @Test("asks for a challenge, signs it with the key, and returns until when the session is fresh")
    func stepsUp() async throws {
        let script = ScriptedURLProtocol.script([
            .status(200, body: #"{"challenge":"c-1","expiresAt":"2026-11-28T15:02:00.000Z"}"#),
            .status(200, body: #"{"success":true,"freshUntil":"2026-11-28T15:05:00.000Z"}"#),
        ])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        let device = HaleClient.DeviceDescription(name: "Phone", fingerprint: "f", convention: .iOS)
        let freshUntil = try await client.stepUp(with: SoftwareDeviceKey(), device)
        #expect(freshUntil == ISO8601DateFormatter.withFractions.date(from: "2026-11-28T15:05:00.000Z"))
        #expect(script.asked == ["POST /api/v1/auth/step-up/device/challenge", "POST /api/v1/auth/step-up/device"])
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
