import ByteEncoding

/// `RegistrationResponseJSON` (WebAuthn L3 §5.1): what `credential.toJSON()`, Android Credential Manager's
/// `registrationResponseJson` and iOS apps send after `create()`.
public struct RegistrationResponseJSON: Codable, Sendable, Equatable {
    /// The authenticator's answer.
    public struct Response: Codable, Sendable, Equatable {
        /// base64url `clientDataJSON`.
        public var clientDataJSON: String
        /// base64url CBOR attestation object.
        public var attestationObject: String
        /// Transports the authenticator supports, if the client reports them.
        public var transports: [String]?

        /// A registration answer.
        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    /// The credential ID, base64url.
    public var id: String
    /// The credential ID, base64url; must equal `id`.
    public var rawId: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's answer.
    public var response: Response
    /// `platform` or `cross-platform`, if reported.
    public var authenticatorAttachment: String?

    /// A response.
    public init(
        id: String, rawId: String, type: String, response: Response, authenticatorAttachment: String? = nil
    ) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }
}

/// `AuthenticationResponseJSON` (WebAuthn L3 §5.1): what clients send after `get()`.
public struct AuthenticationResponseJSON: Codable, Sendable, Equatable {
    /// The authenticator's answer.
    public struct Response: Codable, Sendable, Equatable {
        /// base64url `clientDataJSON`.
        public var clientDataJSON: String
        /// base64url authenticator data.
        public var authenticatorData: String
        /// base64url signature.
        public var signature: String
        /// base64url user handle; absent when the client omits it, as some do for non-discoverable credentials.
        public var userHandle: String?

        /// An assertion answer.
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    /// The credential ID, base64url.
    public var id: String
    /// The credential ID, base64url; must equal `id`.
    public var rawId: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's answer.
    public var response: Response
    /// `platform` or `cross-platform`, if reported.
    public var authenticatorAttachment: String?

    /// A response.
    public init(
        id: String, rawId: String, type: String, response: Response, authenticatorAttachment: String? = nil
    ) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }
}

extension Base64URL {
    /// Decodes a member of a credential, naming it in the error.
    static func member(_ text: String, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let decoded = bytes(text) else {
            throw WebAuthnError(.invalidBase64URL, "\(name) is not base64url")
        }
        return decoded
    }

    /// The raw credential ID of a response whose `id` and `rawId` must agree.
    static func credentialID(id: String, rawId: String, type: String) throws(WebAuthnError) -> [UInt8] {
        guard type == "public-key" else { throw WebAuthnError(.malformedCredential, "type must be public-key") }
        let identifier = try member(id, "id")
        let rawIdentifier = rawId == id ? identifier : try member(rawId, "rawId")
        guard rawIdentifier == identifier else { throw WebAuthnError(.invalidCredentialID, "id and rawId differ") }
        guard !identifier.isEmpty else { throw WebAuthnError(.invalidCredentialID, "the credential ID is empty") }
        return identifier
    }
}
