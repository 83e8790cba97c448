import Foundation
import NIOCore
import StrictJSON

@testable import HaleServer

extension FuzzTarget {
    /// `Sources/HaleServer`'s strict JSON readers: request bodies decoded as `Request.decodeStrict` decodes them
    /// (`JSONText.check`, then `Strict<Body>`, which refuses unknown fields), and the bodies read member by member
    /// from a `JSONValue` that `JSONParser` read, as `Request.jsonValue` reads it.
    /// Inputs: a mode byte naming the body (see `strictReaders`), then the body's JSON.
    static let strictJSON = FuzzTarget(name: "strict-json") { bytes in
        guard let mode = bytes.first, let read = strictReaders[mode] else { return }
        _ = try? read(Data(bytes.dropFirst()))
    }

    private static let strictReaders: [UInt8: @Sendable (Data) throws -> Void] = [
        UInt8(ascii: "V"): { _ = try JSONParser.parse($0) },
        UInt8(ascii: "H"): { _ = try HealthSubmissionBody.read(JSONParser.parse($0)) },
        UInt8(ascii: "O"): { _ = try OAuthLoginBody.read(JSONParser.parse($0)) },
        UInt8(ascii: "K"): { _ = try AttestationKeyBody.read(JSONParser.parse($0)) },
        UInt8(ascii: "S"): { _ = try decodeStrict(SyncRequest.self, $0) },
        UInt8(ascii: "Y"): { _ = try decodeStrict(DailySyncRequest.self, $0) },
        UInt8(ascii: "R"): { _ = try decodeStrict(RegisterVerifyRequest.self, $0) },
        UInt8(ascii: "A"): { _ = try decodeStrict(AuthenticateVerifyRequest.self, $0) },
        UInt8(ascii: "D"): { _ = try decodeStrict(DeviceRegistrationChallengeRequest.self, $0) },
        UInt8(ascii: "B"): { _ = try decodeStrict(BiometricLoginRequest.self, $0) },
        UInt8(ascii: "C"): { _ = try decodeStrict(ConsentRequest.self, $0) },
        UInt8(ascii: "F"): { _ = try decodeStrict(CreateFitnessChallengeRequest.self, $0) },
        UInt8(ascii: "M"): { _ = try decodeStrict(CreateConfirmationRequest.self, $0) },
        UInt8(ascii: "W"): { _ = try decodeStrict(AnswerConfirmationRequest.self, $0) },
    ]

    /// What `Request.decodeStrict` does once the content type is checked.
    private static func decodeStrict<Body: StrictRequestBody>(_ type: Body.Type, _ json: Data) throws -> Body {
        try JSONText.check(ByteBuffer(data: json))
        return try JSONDecoder().decode(Strict<Body>.self, from: json).value
    }
}
