import Foundation

/// A throwaway CA and a server certificate for `localhost` and 127.0.0.1, made once per test run with `openssl`,
/// plus an unrelated CA that must not be trusted for that server.
struct TestCertificates: Sendable {
    /// PEM of the CA that signed the server certificate.
    var caPath: String
    /// PEM of another CA, which did not sign anything the server presents.
    var otherCAPath: String
    /// PEM server certificate (subjectAltName DNS:localhost, IP:127.0.0.1).
    var serverCertificatePath: String
    /// PEM server private key.
    var serverKeyPath: String

    /// The certificates for this test run; nil when `openssl` failed.
    static let shared: TestCertificates? = try? generate()

    private static func generate() throws -> TestCertificates {
        let directory = try TestProcess.makeTemporaryDirectory("hale-smtp-certs").path
        let certificates = TestCertificates(
            caPath: "\(directory)/ca.pem",
            otherCAPath: "\(directory)/other-ca.pem",
            serverCertificatePath: "\(directory)/server.pem",
            serverKeyPath: "\(directory)/server.key"
        )
        try makeCA(name: "Hale Test CA", key: "\(directory)/ca.key", certificate: certificates.caPath)
        try makeCA(name: "Unrelated Test CA", key: "\(directory)/other-ca.key", certificate: certificates.otherCAPath)
        let extensions = "\(directory)/server.ext"
        try Data(
            """
            subjectAltName=DNS:localhost,IP:127.0.0.1
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.utf8
        ).write(to: URL(fileURLWithPath: extensions))
        try openssl(
            ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
                + ["-keyout", certificates.serverKeyPath, "-out", "\(directory)/server.csr", "-subj", "/CN=localhost"])
        try openssl(
            ["x509", "-req", "-in", "\(directory)/server.csr", "-CA", certificates.caPath]
                + ["-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-days", "2", "-sha256"]
                + ["-extfile", extensions, "-out", certificates.serverCertificatePath])
        return certificates
    }

    private static func makeCA(name: String, key: String, certificate: String) throws {
        try openssl(
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"]
                + ["-keyout", key, "-out", certificate, "-subj", "/CN=\(name)"]
                + ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    private struct OpenSSLFailed: Error {}

    private static func openssl(_ arguments: [String]) throws {
        guard try TestProcess.run(["openssl"] + arguments).status == 0 else { throw OpenSSLFailed() }
    }
}
