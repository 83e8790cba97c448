#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import WebAuthn

    /// Passkeys through ASAuthorization: the system sheet creates and uses the person's passkeys for the relying party
    /// named in the options. The app needs the `webcredentials:` associated domain for that RP ID.
    @available(iOS 16.6, *)
    public struct PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// An authenticator that presents the system sheet over the window `anchor` returns.
        public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Creates a passkey for `options`; throws `PlatformAdapterError.cancelled` if the person dismisses the sheet.
        public func register(_ options: CreationOptions) async throws -> RegistrationResponseJSON {
            let request = try PasskeyRegistrationRequest(options)
            guard case .registration(let response) = try await Self.perform(request, anchor: anchor) else {
                throw PlatformAdapterError.unexpectedCredential
            }
            return response
        }

        /// Signs `options`' challenge with a passkey; throws `PlatformAdapterError.cancelled` if the person dismisses
        /// the sheet.
        public func authenticate(_ options: RequestOptions) async throws -> AuthenticationResponseJSON {
            let request = try PasskeyAssertionRequest(options)
            guard case .assertion(let response) = try await Self.perform(request, anchor: anchor) else {
                throw PlatformAdapterError.unexpectedCredential
            }
            return response
        }

        @MainActor
        private static func perform(
            _ request: PasskeyRegistrationRequest, anchor: @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PasskeyCeremony.Credential {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: request.relyingPartyID)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: request.challenge, name: request.userName, userID: request.userID)
            registration.displayName = request.displayName
            registration.userVerificationPreference = .init(request.userVerification)
            if #available(iOS 17.4, macOS 14.4, *) {
                registration.excludedCredentials = request.excludedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
            }
            return try await PasskeyCeremony.perform(registration, anchor: anchor())
        }

        @MainActor
        private static func perform(
            _ request: PasskeyAssertionRequest, anchor: @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PasskeyCeremony.Credential {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: request.relyingPartyID)
            let assertion = provider.createCredentialAssertionRequest(challenge: request.challenge)
            assertion.allowedCredentials = request.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            assertion.userVerificationPreference = .init(request.userVerification)
            return try await PasskeyCeremony.perform(assertion, anchor: anchor())
        }
    }

    @available(iOS 16.6, *)
    extension ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        fileprivate init(_ requirement: UserVerificationRequirement) {
            switch requirement {
            case .required: self = .required
            case .preferred: self = .preferred
            case .discouraged: self = .discouraged
            }
        }
    }
#endif
