import Crypto

/// An iOS app allowed to attest: its team and bundle identifiers.
public struct AppAttestApp: Sendable, Hashable {
    /// The developer team ID, such as `6MURL8TA57`.
    public var teamID: String
    /// The bundle ID, such as `com.example.health`.
    public var bundleID: String

    /// An app.
    public init(teamID: String, bundleID: String) {
        self.teamID = teamID
        self.bundleID = bundleID
    }

    /// The App ID, `TEAMID.bundle.id`, whose SHA-256 is the rpIdHash of the app's authenticator data.
    public var appID: String { "\(teamID).\(bundleID)" }

    /// SHA-256 of the App ID.
    var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array(appID.utf8))) }
}
