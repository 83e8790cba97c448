import Crypto
import Foundation

/// Issue 9's development attestation mode: a software App Attest device that a server in that mode accepts.
extension HaleClient {
    struct DevelopmentCredential: Decodable {
        let certificate: String
        let rootCertificate: String
        let appId: String
        let environment: String
        let expiresAt: String
    }

    /// A software App Attest device for the signed-in session, from a server whose `appAttest.developmentMode` is
    /// on: it makes a P-256 key, has the server certify it as an intermediate CA under the server's development root
    /// (`POST /health/development-attestation`), and attests and asserts as the app the server names. Its
    /// credential lasts about a day; ask for another after that. A server with the mode off answers 404.
    public func developmentAppAttester() async throws -> SoftwareAppAttester {
        let key = P256.Signing.PrivateKey()
        let credential: DevelopmentCredential = try await send(
            "POST", "health/development-attestation",
            json: ["publicKey": key.publicKey.derRepresentation.base64EncodedString()], as: .session)
        guard let certificate = Data(base64Encoded: credential.certificate),
            let root = Data(base64Encoded: credential.rootCertificate),
            let environment = SoftwareAppAttester.Environment(rawValue: credential.environment)
        else {
            throw HaleClientError.unexpectedResponse(status: 201)
        }
        do {
            return try SoftwareAppAttester(
                intermediateKey: key, certificate: certificate, rootCertificate: root, appID: credential.appId,
                environment: environment)
        } catch {
            throw HaleClientError.unexpectedResponse(status: 201)
        }
    }
}
