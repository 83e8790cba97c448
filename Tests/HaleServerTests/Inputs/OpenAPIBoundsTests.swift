import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The OpenAPI document states each text limit as the server enforces it: a schema-driven client and the server
/// agree on every value. JSON Schema's `maxLength` counts code points, as `TextRule`'s `.characters` do.
@Suite("OpenAPI: text limits agree with the server")
struct OpenAPIBoundsTests {
    struct Field: Sendable, CustomTestStringConvertible {
        let path: String
        let method: String
        let property: [String]
        let rule: TextRule

        var testDescription: String { "\(method.uppercased()) \(path) \(property.joined(separator: "."))" }
    }

    static let fields: [Field] = [
        Field(path: "/api/mobile/biometric/register/options", method: "post", property: ["deviceName"], rule: .name),
        Field(path: "/api/mobile/biometric/register/options", method: "post", property: ["displayName"], rule: .name),
        Field(
            path: "/api/mobile/biometric/register/options", method: "post", property: ["osVersion"],
            rule: PasskeyDevice.osVersionRule),
        Field(
            path: "/api/mobile/biometric/register/options", method: "post", property: ["email"],
            rule: Accounts.emailRule),
        Field(
            path: "/api/mobile/biometric/authenticate/options", method: "post", property: ["email"],
            rule: Accounts.emailRule),
        Field(
            path: "/api/mobile/biometric/register/verify", method: "post", property: ["deviceInfo", "deviceName"],
            rule: .name),
        Field(
            path: "/api/mobile/biometric/register/verify", method: "post", property: ["deviceInfo", "osVersion"],
            rule: PasskeyDevice.osVersionRule),
        Field(path: "/api/mobile/biometric/passkeys/{passkeyID}", method: "patch", property: ["name"], rule: .name),
        Field(path: "/api/v1/devices/register/challenge", method: "post", property: ["deviceName"], rule: .name),
        Field(path: "/api/v1/devices/{deviceId}", method: "patch", property: ["deviceName"], rule: .name),
        Field(path: "/api/v1/devices/push-token", method: "put", property: ["fcmToken"], rule: .pushToken),
        Field(path: "/api/v1/challenges", method: "post", property: ["name"], rule: .name),
    ]

    @Test(arguments: fields)
    func theDocumentStatesTheRule(field: Field) async throws {
        try await withHale { app in
            let document = try await app.testing().sendRequest(.GET, "/openapi.json").json()
            let schema = try #require(Self.schema(of: field, in: document))
            #expect(schema["maxLength"] as? Int == field.rule.length.upperBound)
            #expect(field.rule.unit == .characters, "JSON Schema counts characters, not bytes")
            #expect(schema["minLength"] as? Int == field.rule.length.lowerBound)
            #expect(schema["pattern"] as? String == field.rule.pattern)
        }
    }

    @Test func seed003DeviceTokensArePushTokens() async throws {
        try await withHale { app in
            let document = try await app.testing().sendRequest(.GET, "/openapi.json").json()
            let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
            let resource = Self.resolve(schemas?["DeviceTokenResource"], in: document)
            let attributes = Self.resolve((resource?["properties"] as? [String: Any])?["attributes"], in: document)
            let token = try #require(
                Self.resolve((attributes?["properties"] as? [String: Any])?["token"], in: document))
            #expect(token["maxLength"] as? Int == TextRule.pushToken.length.upperBound)
            #expect(token["minLength"] as? Int == TextRule.pushToken.length.lowerBound)
            #expect(token["pattern"] as? String == TextRule.pushToken.pattern)
        }
    }

    /// The request body schema of the field's operation, followed through `$ref`s, down to the property.
    static func schema(of field: Field, in document: [String: Any]) -> [String: Any]? {
        let paths = document["paths"] as? [String: Any]
        let operation = (paths?[field.path] as? [String: Any])?[field.method] as? [String: Any]
        let content = (operation?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
        var schema = resolve((content?["application/json"] as? [String: Any])?["schema"], in: document)
        for name in field.property {
            schema = resolve((schema?["properties"] as? [String: Any])?[name], in: document)
        }
        return schema
    }

    static func resolve(_ value: Any?, in document: [String: Any]) -> [String: Any]? {
        guard let schema = value as? [String: Any] else { return nil }
        guard let reference = schema["$ref"] as? String else { return schema }
        let name = String(reference.dropFirst("#/components/schemas/".count))
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        return resolve(schemas?[name], in: document)
    }
}
