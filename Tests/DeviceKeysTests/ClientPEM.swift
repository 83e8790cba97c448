import Foundation

/// Public-key PEM exactly as each documented client builds it from a DER SubjectPublicKeyInfo.
enum ClientPEM {
    static let header = "-----BEGIN PUBLIC KEY-----"
    static let footer = "-----END PUBLIC KEY-----"

    /// iOS `createPEMFromPublicKey`: 64-character lines, LF, no line break after the footer.
    static func iOSNative(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "\(header)\n\(body)\n\(footer)"
    }

    /// Android `createPEMFromPublicKey`: `Base64.DEFAULT` ends every 76-character line, the last included, with LF,
    /// and the footer follows at once.
    static func androidNative(_ der: [UInt8]) -> String {
        let base64 = Array(Data(der).base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 76).map { String(base64[$0..<min($0 + 76, base64.count)]) }
        return "\(header)\n" + lines.map { $0 + "\n" }.joined() + footer
    }

    /// React Native `convertToPEM`: the library hands over unwrapped base64, which the app splits with
    /// `/.{1,64}/g`.
    static func reactNative(_ der: [UInt8]) -> String {
        let base64 = Array(Data(der).base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return "\(header)\n" + lines.joined(separator: "\n") + "\n\(footer)"
    }

    /// `pem` with every LF replaced by CRLF.
    static func crlf(_ pem: String) -> String {
        pem.replacingOccurrences(of: "\n", with: "\r\n")
    }
}
