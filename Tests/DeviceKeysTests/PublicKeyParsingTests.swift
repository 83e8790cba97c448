import DeviceKeys
import Testing
import _CryptoExtras

@Suite("Public keys the documented clients send")
struct PublicKeyParsingTests {
    @Test("iOS native: 64-character lines, no line break after the footer")
    func iOSNative() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.iOSNative(Fixtures.p256DER))
        #expect(key.kind == .p256)
        #expect(key.derRepresentation == Fixtures.p256DER)
    }

    @Test("Android native: Base64.DEFAULT's 76-character lines, footer right after the last line break")
    func androidNative() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.androidNative(Fixtures.p256DER))
        #expect(key.kind == .p256)
        #expect(key.derRepresentation == Fixtures.p256DER)
    }

    @Test("Android native, a literal key exported by OpenSSL, with an independently computed thumbprint")
    func androidLiteral() throws {
        let key = try DevicePublicKey(pemRepresentation: Fixtures.androidP256PEM)
        #expect(key.kind == .p256)
        #expect(key.thumbprint == Fixtures.androidP256Thumbprint)
    }

    @Test("React Native on iOS: unwrapped base64 split into 64-character lines")
    func reactNativeP256() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.reactNative(Fixtures.p256DER))
        #expect(key.kind == .p256)
    }

    @Test("React Native on Android: an RSA-2048 key, whatever keyAlgorithm the app declares")
    func reactNativeRSA() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.reactNative(Fixtures.rsaDER))
        #expect(key.kind == .rsa(bits: 2048))
        #expect(key.derRepresentation == Fixtures.rsaDER)
    }

    @Test("React Native on Android, a literal key exported by OpenSSL, with an independently computed thumbprint")
    func reactNativeLiteral() throws {
        let key = try DevicePublicKey(pemRepresentation: Fixtures.reactNativeRSAPEM)
        #expect(key.kind == .rsa(bits: 2048))
        #expect(key.thumbprint == Fixtures.reactNativeRSAThumbprint)
    }

    @Test("CRLF line endings, with and without a final line break")
    func crlf() throws {
        let withoutBreak = try DevicePublicKey(pemRepresentation: ClientPEM.crlf(ClientPEM.iOSNative(Fixtures.p256DER)))
        let withBreak = try DevicePublicKey(pemRepresentation: ClientPEM.crlf(Fixtures.androidP256PEM + "\n"))
        #expect(withoutBreak.kind == .p256)
        #expect(withBreak.kind == .p256)
    }

    @Test("A trailing line break after the footer")
    func trailingLineBreak() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.iOSNative(Fixtures.p256DER) + "\n")
        #expect(key.derRepresentation == Fixtures.p256DER)
    }

    @Test("A larger RSA key: 3072 bits")
    func rsa3072() throws {
        let der = Array(try _RSA.Signing.PrivateKey(keySize: .bits3072).publicKey.derRepresentation)
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.androidNative(der))
        #expect(key.kind == .rsa(bits: 3072))
    }

    @Test("Every client's PEM of one key gives one thumbprint, and the canonical PEM round-trips")
    func thumbprintIsStable() throws {
        let shapes = [ClientPEM.iOSNative, ClientPEM.androidNative, ClientPEM.reactNative]
        let keys = try shapes.map { try DevicePublicKey(pemRepresentation: $0(Fixtures.p256DER)) }
        #expect(Set(keys.map(\.thumbprint)).count == 1)
        #expect(Set(keys).count == 1)
        #expect(keys[0].pemRepresentation == ClientPEM.iOSNative(Fixtures.p256DER))
        #expect(keys[0].thumbprint.count == 43)
    }

    @Test("A DER SubjectPublicKeyInfo is accepted directly")
    func derInput() throws {
        let key = try DevicePublicKey(derRepresentation: Fixtures.rsaDER)
        #expect(key.kind == .rsa(bits: 2048))
    }
}
