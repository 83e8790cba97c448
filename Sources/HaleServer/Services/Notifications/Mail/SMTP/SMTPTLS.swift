import NIOCore
import NIOSSL

/// TLS set-up for SMTP connections: always full certificate verification including the host name.
enum SMTPTLS {
    /// A client context trusting exactly the certificates in `trustedCAFilePath`, or the system roots when nil.
    static func makeContext(trustedCAFilePath: String?) throws(SMTPError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        // Never weakened: mail credentials and content must only ever reach the server they are meant for.
        configuration.certificateVerification = .fullVerification
        if let trustedCAFilePath {
            configuration.trustRoots = .certificates(try loadCertificates(trustedCAFilePath))
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw .permanent("could not set up TLS: \(error)")
        }
    }

    /// A client handler for `host`. For an IP address no SNI is sent and the certificate is checked against the
    /// peer's address instead.
    static func makeHandler(context: NIOSSLContext, host: String) throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(context: context, serverHostname: isIPAddress(host) ? nil : host)
    }

    /// The SMTP error for a TLS failure, or nil when `error` is not one.
    static func classify(_ error: any Error) -> SMTPError? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return .permanent("the server's TLS certificate was not trusted: it is not valid for this host name")
        }
        guard let error = error as? NIOSSLError else { return nil }
        switch error {
        case .handshakeFailed(let cause) where "\(cause)".contains("CERTIFICATE_VERIFY_FAILED"):
            // BoringSSL's text adds source paths and numbers that mean nothing to an operator.
            return .permanent("the server's TLS certificate was not trusted (certificate verification failed)")
        case .handshakeFailed(let cause):
            return .permanent("TLS handshake with the server failed: \(cause)")
        default:
            return .transient("TLS error: \(error)")
        }
    }

    private static func loadCertificates(_ path: String) throws(SMTPError) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw .permanent("could not read trusted CA file \(path): \(error)")
        }
        guard !certificates.isEmpty else { throw .permanent("trusted CA file \(path) has no certificates") }
        return certificates
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
