#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import WebAuthn

    /// One ASAuthorization ceremony: it owns its controller, answers the delegate and the presentation anchor, and
    /// resumes the waiting task exactly once. The controller holds its delegate weakly; the awaiting `perform` keeps the
    /// ceremony alive.
    @available(iOS 16.6, *)
    @MainActor
    final class PasskeyCeremony: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding
    {
        /// What the platform returned, already turned into Sendable JSON on the main actor.
        enum Credential: Sendable {
            case registration(RegistrationResponseJSON)
            case assertion(AuthenticationResponseJSON)
        }

        private let anchor: ASPresentationAnchor
        private var controller: ASAuthorizationController?
        private var continuation: CheckedContinuation<Credential, any Error>?

        private init(anchor: ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Runs `request` over `anchor`; cancelling the task dismisses the sheet.
        static func perform(_ request: ASAuthorizationRequest, anchor: ASPresentationAnchor) async throws -> Credential
        {
            let ceremony = PasskeyCeremony(anchor: anchor)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    ceremony.start(request, continuation)
                }
            } onCancel: {
                Task { @MainActor in ceremony.controller?.cancel() }
            }
        }

        private func start(
            _ request: ASAuthorizationRequest, _ continuation: CheckedContinuation<Credential, any Error>
        ) {
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            controller.performRequests()
        }

        private func finish(_ result: Result<Credential, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
            controller = nil
        }

        // The protocols are Objective-C ones whose isolation differs between SDKs; AuthenticationServices calls
        // them on the main thread, so each is nonisolated and asserts the main actor, which compiles either way.
        nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }

        nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            MainActor.assumeIsolated { finish(Result { try Self.credential(authorization.credential) }) }
        }

        nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let cancelled = (error as? ASAuthorizationError)?.code == .canceled
            MainActor.assumeIsolated { finish(.failure(cancelled ? PlatformAdapterError.cancelled : error)) }
        }

        private static func credential(_ credential: any ASAuthorizationCredential) throws -> Credential {
            switch credential {
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                guard let attestationObject = registration.rawAttestationObject else {
                    throw PlatformAdapterError.unexpectedCredential
                }
                return .registration(
                    RegistrationResponseJSON(
                        platformCredentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                        attestationObject: attestationObject, attachment: PasskeyAttachment(registration.attachment)))
            case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                // Typed as optionals so this reads the same whether the SDK imports these as `Data!` or `Data`.
                let authenticatorData: Data? = assertion.rawAuthenticatorData
                let signature: Data? = assertion.signature
                guard let authenticatorData, let signature else { throw PlatformAdapterError.unexpectedCredential }
                return .assertion(
                    AuthenticationResponseJSON(
                        platformCredentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                        authenticatorData: authenticatorData, signature: signature, userHandle: assertion.userID,
                        attachment: PasskeyAttachment(assertion.attachment)))
            default:
                throw PlatformAdapterError.unexpectedCredential
            }
        }
    }

    @available(iOS 16.6, *)
    extension PasskeyAttachment {
        fileprivate init(_ attachment: ASAuthorizationPublicKeyCredentialAttachment) {
            switch attachment {
            case .crossPlatform: self = .crossPlatform
            case .platform: self = .platform
            @unknown default: self = .platform
            }
        }
    }
#endif
