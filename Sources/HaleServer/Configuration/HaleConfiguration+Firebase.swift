import Foundation
import SocialTokens

extension HaleConfiguration {
    /// Firebase Authentication, for seed 000's apps: their users' ID tokens as the bearer, and custom tokens at
    /// passkey sign-in.
    public struct Firebase: Sendable {
        /// The Firebase project whose ID tokens are accepted.
        public var projectID: String
        /// The project's service account, which signs custom tokens; nil: passkey sign-in answers Hale's tokens only.
        public var serviceAccount: GoogleServiceAccount?
        /// Google's securetoken certificates.
        public var certificatesURL: String
    }

    /// The longest service account key file read from a path.
    static let maximumServiceAccountFileSize = 64 * 1024

    /// `firebase.*`: nil without a project id. A service account is read from its JSON, or from the file its
    /// path names, and must belong to the project.
    static func firebase(_ values: ConfigValues) throws -> Firebase? {
        let projectID = try values.string("firebase.projectId")
        let serviceAccountText = try values.string("firebase.serviceAccount").trimmingCharacters(in: .whitespaces)
        guard !projectID.isEmpty else {
            guard serviceAccountText.isEmpty else {
                throw ConfigError("firebase.serviceAccount needs firebase.projectId, the project it signs in to")
            }
            return nil
        }
        guard isCloudProjectID(projectID) else {
            throw ConfigError(
                "firebase.projectId must be a Firebase project id: 6 to 30 lowercase letters, digits and hyphens, starting with a letter, not \"\(projectID)\""
            )
        }
        let certificatesURL = try values.string("firebase.certificatesUrl")
        guard let url = URL(string: certificatesURL), let host = url.host, SocialSignIn.isSecure(url, host: host) else {
            throw ConfigError(
                "firebase.certificatesUrl must be an https URL (http only on loopback), not \"\(certificatesURL)\"")
        }
        var firebase = Firebase(projectID: projectID, serviceAccount: nil, certificatesURL: certificatesURL)
        guard !serviceAccountText.isEmpty else { return firebase }
        let account = try serviceAccount(
            json: try serviceAccountJSON(serviceAccountText), setting: "firebase.serviceAccount")
        if let owner = account.projectID, owner != projectID {
            throw ConfigError(
                "firebase.serviceAccount belongs to project \(owner), not \(projectID): Firebase refuses custom tokens another project's service account signs"
            )
        }
        firebase.serviceAccount = account
        return firebase
    }

    /// The key file's JSON: the setting itself when it is a JSON object, else the file at the path it names.
    private static func serviceAccountJSON(_ setting: String) throws -> String {
        if setting.hasPrefix("{") { return setting }
        let url = URL(fileURLWithPath: setting)
        guard let data = try? Data(contentsOf: url), data.count <= maximumServiceAccountFileSize,
            let text = String(data: data, encoding: .utf8)
        else {
            throw ConfigError(
                "firebase.serviceAccount must be a service account JSON key, or the path of a readable one of at most 64 KiB: cannot read \(setting)"
            )
        }
        return text
    }

    /// Google Cloud's rule for project ids, which Firebase projects share.
    static func isCloudProjectID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-")
        }
    }
}
