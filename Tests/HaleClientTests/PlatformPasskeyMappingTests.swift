import ByteEncoding
import Foundation
import Testing
import WebAuthn

@testable import HaleClient

@Suite("Platform passkey mapping: the server's options in, the platform's raw bytes out")
struct PlatformPasskeyMappingTests {
    let relyingParty: RelyingParty

    init() throws {
        relyingParty = try RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    }

    @Test("creation options decode into the bytes ASAuthorization takes")
    func registrationRequest() throws {
        let options = relyingParty.creationOptions(
            challenge: [1, 2, 3], user: .init(handle: [4, 5], name: "a@example.com", displayName: "A"),
            excluding: [CredentialDescriptor(id: [6, 7])], userVerification: .required)
        let request = try PasskeyRegistrationRequest(options)
        #expect(request.relyingPartyID == "example.com")
        #expect(request.challenge == Data([1, 2, 3]))
        #expect(request.userID == Data([4, 5]))
        #expect(request.userName == "a@example.com")
        #expect(request.displayName == "A")
        #expect(request.excludedCredentialIDs == [Data([6, 7])])
        #expect(request.userVerification == .required)
    }

    @Test("request options decode into the bytes ASAuthorization takes")
    func assertionRequest() throws {
        let options = relyingParty.requestOptions(
            challenge: [8, 9], allowing: [CredentialDescriptor(id: [1]), CredentialDescriptor(id: [2])],
            userVerification: .discouraged)
        let request = try PasskeyAssertionRequest(options)
        #expect(request.relyingPartyID == "example.com")
        #expect(request.challenge == Data([8, 9]))
        #expect(request.allowedCredentialIDs == [Data([1]), Data([2])])
        #expect(request.userVerification == .discouraged)
    }

    @Test("a member that is not base64url is named in the error")
    func malformedOptions() {
        var creation = relyingParty.creationOptions(
            challenge: [1], user: .init(handle: [2], name: "a", displayName: "A"))
        creation.challenge = "not*base64url"
        #expect(throws: PlatformAdapterError.malformedOptions("challenge is not base64url")) {
            try PasskeyRegistrationRequest(creation)
        }
        var request = relyingParty.requestOptions(challenge: [1])
        request.allowCredentials = [CredentialDescriptor(id: [1])]
        request.allowCredentials[0].id = "%%"
        #expect(throws: PlatformAdapterError.malformedOptions("allowCredentials.id is not base64url")) {
            try PasskeyAssertionRequest(request)
        }
    }

    @Test("a registration rebuilt from the platform's raw bytes verifies, reporting platform transports")
    func registrationResponse() async throws {
        let passkey = SoftwarePasskey(rpID: "example.com", origin: "https://example.com")
        let original = passkey.registration(challenge: [7])
        let rebuilt = try RegistrationResponseJSON(
            platformCredentialID: #require(Base64URL.decode(original.rawId)),
            clientDataJSON: #require(Base64URL.decode(original.response.clientDataJSON)),
            attestationObject: #require(Base64URL.decode(original.response.attestationObject)), attachment: .platform)
        #expect(rebuilt.id == original.id)
        #expect(rebuilt.response.transports == ["internal", "hybrid"])
        #expect(rebuilt.authenticatorAttachment == "platform")
        let verified = try await RegistrationVerifier(relyingParty: relyingParty).verify(
            rebuilt, expectedChallenge: [7], requireUserVerification: false, at: Date())
        #expect(verified.credentialID == passkey.credentialID)
    }

    @Test("an assertion rebuilt from the platform's raw bytes verifies; an empty user handle is left out")
    func assertionResponse() throws {
        let passkey = SoftwarePasskey(rpID: "example.com", origin: "https://example.com")
        let original = passkey.assertion(challenge: [5], userHandle: [3, 4])
        func rebuilt(userHandle: Data?) throws -> AuthenticationResponseJSON {
            try AuthenticationResponseJSON(
                platformCredentialID: #require(Base64URL.decode(original.rawId)),
                clientDataJSON: #require(Base64URL.decode(original.response.clientDataJSON)),
                authenticatorData: #require(Base64URL.decode(original.response.authenticatorData)),
                signature: #require(Base64URL.decode(original.response.signature)), userHandle: userHandle,
                attachment: .crossPlatform)
        }
        let withHandle = try rebuilt(userHandle: Data([3, 4]))
        #expect(withHandle.response == original.response)
        #expect(withHandle.authenticatorAttachment == "cross-platform")
        let signedIn = try AuthenticationVerifier(relyingParty: relyingParty).verify(
            withHandle, expectedChallenge: [5], credential: passkey.stored(), requireUserVerification: true)
        #expect(signedIn.userHandle == [3, 4])
        #expect(try rebuilt(userHandle: Data()).response.userHandle == nil)
        #expect(try rebuilt(userHandle: nil).response.userHandle == nil)
    }

    @Test("a passkey on another device is reached only through hybrid transport")
    func transports() {
        #expect(PasskeyAttachment.platform.transports == ["internal", "hybrid"])
        #expect(PasskeyAttachment.crossPlatform.transports == ["hybrid"])
    }
}
