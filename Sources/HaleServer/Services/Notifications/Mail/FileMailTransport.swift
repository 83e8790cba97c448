import Foundation

/// Writes each mail as an `.eml` file in a directory: what Hale does when no SMTP server is configured, so that
/// `hale serve` and `hale demo` need no setup, and a developer reads the codes there. The directory is private to
/// Hale's user (`PrivateDirectory`), and each file appears whole, by rename.
struct FileMailTransport: MailTransport {
    let directory: URL

    func send(_ mail: OutgoingMail) async -> MailSendOutcome {
        do {
            try PrivateDirectory.prepare(directory, setting: "email.directory")
            let bytes = try MIMEMessage.render(mail, boundary: "hale-\(UUID().uuidString.lowercased())")
            let name = "\(Self.stamp(mail.date))-\(UUID().uuidString.lowercased()).eml"
            let partial = directory.appendingPathComponent(".\(name).partial")
            guard
                FileManager.default.createFile(
                    atPath: partial.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
            else { return .retry("mail directory not writable") }
            try FileManager.default.moveItem(at: partial, to: directory.appendingPathComponent(name))
            return .delivered
        } catch let error as MailFormatError {
            return .rejected("unrenderable: \(error.description)")
        } catch {
            return .retry("mail directory: \(type(of: error))")
        }
    }

    /// `20261128T154500Z`: files sort by when the mail was written.
    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
