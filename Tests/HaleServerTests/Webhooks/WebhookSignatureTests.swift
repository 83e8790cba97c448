import Foundation
import Testing

@testable import HaleServer

@Suite("Webhooks: signing as Standard Webhooks says")
struct WebhookSignatureTests {
    @Test("the specification's own example signs to its signature")
    func specificationVector() {
        let header = WebhookSignature.header(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: #"{"test": 2432232314}"#,
            secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("two live secrets sign twice, space-separated, the newest first; a malformed secret signs nothing")
    func rotation() {
        let (new, old) = (WebhookSignature.newSecret(), WebhookSignature.newSecret())
        let header = WebhookSignature.header(id: "msg_1", timestamp: 1, body: "{}", secrets: [new, old])
        let parts = header.split(separator: " ")
        #expect(parts.count == 2)
        #expect(parts[0] == WebhookSignature.header(id: "msg_1", timestamp: 1, body: "{}", secrets: [new]))
        #expect(WebhookSignature.header(id: "msg_1", timestamp: 1, body: "{}", secrets: ["whsec_short", "x"]) == "")
    }

    @Test("a new secret is whsec_ and 32 random bytes")
    func newSecrets() {
        let secret = WebhookSignature.newSecret()
        #expect(secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        #expect(secret != WebhookSignature.newSecret())
    }
}
