/// An Android app whose Play Integrity tokens are accepted.
public struct PlayIntegrityApp: Sendable, Hashable {
    /// The package name, such as `com.example.health`.
    public var packageName: String
    /// The SHA-256 digests of the app's signing certificates as Play reports them: base64url, unpadded.
    public var certificateDigests: [String]

    /// An app.
    public init(packageName: String, certificateDigests: [String]) {
        self.packageName = packageName
        self.certificateDigests = certificateDigests
    }
}
