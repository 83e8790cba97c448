import Foundation

/// The Python interpreter the integration tests use: `$HALE_TEST_PYTHON`, or `python3` from PATH.
enum TestPython {
    /// The interpreter to run.
    static let executable = ProcessInfo.processInfo.environment["HALE_TEST_PYTHON"] ?? "python3"

    /// Whether that interpreter can import aiosmtpd and `openssl` is available to make certificates.
    static let canRunSMTPServer: Bool =
        TestProcess.succeeds([executable, "-c", "import aiosmtpd"]) && TestProcess.succeeds(["openssl", "version"])

    /// The repository's `scripts/smtp-test-server.py`.
    static let serverScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/smtp-test-server.py")
        .path

    /// A message as Python's `email` package (policy `default`) understands it.
    struct ParsedMail: Decodable, Sendable {
        /// One MIME part.
        struct Part: Decodable, Sendable {
            /// The content type, e.g. `text/plain`.
            var type: String
            /// The decoded content.
            var content: String
        }

        /// Decoded Subject.
        var subject: String
        /// Decoded From.
        var from: String
        /// Decoded To.
        var to: String
        /// Message-ID as written.
        var messageID: String
        /// Date as written.
        var date: String
        /// The top-level content type.
        var contentType: String
        /// The sub-parts of the multipart message.
        var parts: [Part]
        /// Problems the parser found; empty for a well-formed message.
        var defects: [String]
    }

    private static let parserSource = """
        import email, email.policy, json, sys
        with open(sys.argv[1], "rb") as f:
            message = email.message_from_binary_file(f, policy=email.policy.default)
        parts = [{"type": p.get_content_type(), "content": p.get_content()} for p in message.iter_parts()]
        defects = [str(d) for p in message.walk() for d in p.defects]
        print(json.dumps({
            "subject": str(message["subject"]), "from": str(message["from"]), "to": str(message["to"]),
            "messageID": str(message["message-id"]), "date": str(message["date"]),
            "contentType": message.get_content_type(), "parts": parts, "defects": defects,
        }))
        """

    /// Parses the `.eml` file at `path` with Python's standard library.
    static func parseMail(at path: String) throws -> ParsedMail {
        let result = try TestProcess.run([executable, "-c", parserSource, path])
        return try JSONDecoder().decode(ParsedMail.self, from: result.output)
    }
}
