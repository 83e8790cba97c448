import Crypto
import _CryptoExtras

/// Keys and literal PEM documents shared by the tests.
enum Fixtures {
    /// A P-256 public key exported by OpenSSL, in the Android client's `Base64.DEFAULT` shape.
    static let androidP256PEM =
        "-----BEGIN PUBLIC KEY-----\n"
        + "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEYDrFx9j6/QGN8bgzjDNskxLS1Q3D+Xtxw71sz4Cz\n"
        + "Gt9TvzbmND9HUxRHQ4RlAE5S+QYcCb0jlQ15YAC1ySXJ2Q==\n" + "-----END PUBLIC KEY-----"
    /// `androidP256PEM`'s thumbprint, computed with Python's hashlib and base64.
    static let androidP256Thumbprint = "Q5GC5iTDiuTDSgrkq8PoG5MU91rG8NcRsgzttF2RMcc"

    /// An RSA-2048 public key exported by OpenSSL, in the React Native client's 64-character shape.
    static let reactNativeRSAPEM =
        "-----BEGIN PUBLIC KEY-----\n" + "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArg8NBZikzFKtG0oV9d8E\n"
        + "RpsvkSvSl/INhil9b20vSPWmwuhf8Miey/hX3dCXBLMlUhemWcc1IJZSPzsV709e\n"
        + "oQbFKtuQNoIvcVarH1xHNSrKjreoDCTXvOe95QdeNESZ3ejZUT3ptS9kvlZ238yp\n"
        + "zKuw3vddoTpgnEOH+GooKwCCf1RStYJsu7DFHD3stM9774cn+pZMP0MPTgBTtnQz\n"
        + "od7zAT+kopPeoo1Oqvq7yNB3fCBouVB0HY8HNBAZEZJQnBBG9vaaz06kbWlWh93S\n"
        + "N85r8o9zkQ3b0Xd4UHTq25ieNQ/6kFrpGQtz3uWPgv2DS1a47S/t9CQ9rlrMYioB\n" + "uQIDAQAB\n"
        + "-----END PUBLIC KEY-----"
    /// `reactNativeRSAPEM`'s thumbprint, computed with Python's hashlib and base64.
    static let reactNativeRSAThumbprint = "-2ETK07ZpOKkSZuTxT3eGUU2gKa7oGrKDXMmEXHcGsA"

    /// The Ed25519 public key of RFC 8410 §10.1.
    static let ed25519PEM =
        "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----"

    /// A fixed P-256 key, so that a failing test can be replayed.
    static let p256Key = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))

    /// An RSA-2048 key, made once: React Native's Android key.
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    /// `p256Key`'s public key as DER.
    static var p256DER: [UInt8] { Array(p256Key.publicKey.derRepresentation) }

    /// `rsaKey`'s public key as DER.
    static var rsaDER: [UInt8] { Array(rsaKey.publicKey.derRepresentation) }
}
