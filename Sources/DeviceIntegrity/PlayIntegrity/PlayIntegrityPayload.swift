import Foundation

/// The JSON payload of a Play Integrity token, as far as Hale reads it.
struct PlayIntegrityPayload: Decodable {
    struct RequestDetails: Decodable {
        var requestPackageName: String
        var nonce: String?
        var requestHash: String?
        var timestampMillis: Milliseconds
    }

    struct AppIntegrity: Decodable {
        var appRecognitionVerdict: String
        var packageName: String?
        var certificateSha256Digest: [String]?
        var versionCode: String?
    }

    struct DeviceIntegrity: Decodable {
        var deviceRecognitionVerdict: [String]?
    }

    struct AccountDetails: Decodable {
        var appLicensingVerdict: String?
    }

    var requestDetails: RequestDetails
    var appIntegrity: AppIntegrity
    var deviceIntegrity: DeviceIntegrity?
    var accountDetails: AccountDetails?

    init(json: [UInt8]) throws(PlayIntegrityError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json))
        } catch {
            throw .malformed
        }
    }
}

/// Milliseconds since 1970, which Play writes as a string of digits; a number is accepted too.
struct Milliseconds: Decodable {
    let value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = number
        } else if let number = Int64(try container.decode(String.self)) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a millisecond count")
        }
    }

    var date: Date { Date(timeIntervalSince1970: Double(value) / 1000) }
}
