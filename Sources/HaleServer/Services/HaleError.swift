/// A domain error: a stable code, the kind of failure it is, and a message that is safe to show a client.
///
/// It says nothing of HTTP: each surface renders it in its own documented shape, with the status its kind maps to
/// (`HaleError+HTTPStatus`). The code never changes once published, and the message never says which check inside a
/// verification failed.
public struct HaleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable, machine-readable code, such as `TOKEN_EXPIRED`.
    public let code: Code
    /// What kind of failure it is, whatever the transport.
    public let kind: Kind
    /// A human-readable message that is safe to return to the client.
    public let message: String
    /// Seconds after which a refused request may be retried, sent as `Retry-After` whatever the surface's shape.
    public var retryAfterSeconds: Int?
    /// The RFC 6750 challenge sent as `WWW-Authenticate` whatever the surface's shape: set when the bearer token
    /// itself was refused, so a client refreshes only then and not on any other 401, such as a bad signature.
    public var bearerChallenge: String?
    /// For a validation failure, each offending field, so a surface can answer one error per field.
    public var fieldErrors: [FieldError] = []

    /// One invalid field of a request body.
    public struct FieldError: Sendable, Equatable {
        /// A JSON Pointer (RFC 6901) to the field in the request body, such as `/data/attributes/role`.
        public let pointer: String
        /// What is wrong with it, safe to show a client.
        public let message: String

        /// Creates a field error.
        public init(pointer: String, message: String) {
            self.pointer = pointer
            self.message = message
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }

    /// Creates a domain error.
    public init(_ code: Code, _ kind: Kind, message: String) {
        self.code = code
        self.kind = kind
        self.message = message
    }

    /// A stable error code. New codes are added as static members; existing ones never change.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears on the wire.
        public let rawValue: String
        /// Creates a code from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire form.
        public var description: String { rawValue }
    }
}

extension HaleError.Code {
    /// The request body or parameters are malformed or fail validation.
    public static let invalidRequest = Self(rawValue: "INVALID_REQUEST")
    /// The request body is larger than the route accepts.
    public static let payloadTooLarge = Self(rawValue: "PAYLOAD_TOO_LARGE")
    /// The request's content type is not one the route accepts.
    public static let unsupportedMediaType = Self(rawValue: "UNSUPPORTED_MEDIA_TYPE")
    /// No route matches the path.
    public static let notFound = Self(rawValue: "NOT_FOUND")
    /// The route exists but not for this method.
    public static let methodNotAllowed = Self(rawValue: "METHOD_NOT_ALLOWED")
    /// No credentials were presented where they are required.
    public static let unauthorized = Self(rawValue: "UNAUTHORIZED")
    /// The presented token is not valid: unknown, malformed, revoked or with a bad signature.
    public static let tokenInvalid = Self(rawValue: "TOKEN_INVALID")
    /// The presented token has expired.
    public static let tokenExpired = Self(rawValue: "TOKEN_EXPIRED")
    /// A spent refresh token was presented again; its whole session has been revoked.
    public static let tokenReused = Self(rawValue: "TOKEN_REUSED")
    /// A session bound to an attested app instance was refreshed without proof of its key; it has been revoked (401).
    public static let bindingRefused = Self(rawValue: "BINDING_REFUSED")
    /// The challenge is unknown, already used, expired, or bound to someone else.
    public static let invalidChallenge = Self(rawValue: "INVALID_CHALLENGE")
    /// The credential is valid but may not do this.
    public static let forbidden = Self(rawValue: "FORBIDDEN")
    /// A passkey sign-in did not verify; which check failed is logged, not returned.
    public static let passkeyAuthenticationFailed = Self(rawValue: "PASSKEY_AUTHENTICATION_FAILED")
    /// The operation would remove the account's last way to sign in, and was not confirmed.
    public static let lastSignInMethod = Self(rawValue: "LAST_SIGN_IN_METHOD")
    /// A resource the request names does not exist for this account.
    public static let resourceNotFound = Self(rawValue: "RESOURCE_NOT_FOUND")
    /// The request conflicts with existing state, such as an email already in use.
    public static let conflict = Self(rawValue: "CONFLICT")
    /// A device attestation (App Attest, Play Integrity) did not verify (401).
    public static let attestationFailed = Self(rawValue: "ATTESTATION_FAILED")
    /// The server requires an attestation of every health-data write, and the request sent none (401).
    public static let attestationRequired = Self(rawValue: "ATTESTATION_REQUIRED")
    /// One or more fields of the request body are invalid; `fieldErrors` says which (422).
    public static let validationFailed = Self(rawValue: "VALIDATION_FAILED")
    /// A social provider's token was not accepted (401).
    public static let oauthInvalidToken = Self(rawValue: "OAUTH_INVALID_TOKEN")
    /// Social sign-in failed for a reason other than the token, such as a provider that cannot be reached.
    public static let oauthError = Self(rawValue: "OAUTH_ERROR")
    /// The account has not consented to this kind of health data from this platform (403).
    public static let consentRequired = Self(rawValue: "CONSENT_REQUIRED")
    /// The account owns as many of something as it may (409); the message names the limit.
    public static let limitReached = Self(rawValue: "LIMIT_REACHED")
    /// The credential is valid, but the operation needs a more recent sign-in (401, RFC 9470 step-up).
    public static let freshSignInRequired = Self(rawValue: "FRESH_SIGN_IN_REQUIRED")
    /// Seed 000's wording of `FRESH_SIGN_IN_REQUIRED`: Firebase's own, which its apps answer by re-authenticating.
    public static let requiresRecentLogin = Self(rawValue: "auth/requires-recent-login")
    /// The credential presented cannot step up: it is not a session's own (403).
    public static let stepUpUnavailable = Self(rawValue: "STEP_UP_UNAVAILABLE")
    /// The recovery code is not an unused one of any account (401).
    public static let recoveryCodeInvalid = Self(rawValue: "RECOVERY_CODE_INVALID")
    /// A recovery session's token was sent where it cannot be used: it only enrols one credential (403).
    public static let recoverySessionRestricted = Self(rawValue: "RECOVERY_SESSION_RESTRICTED")
    /// The account page's state-changing request came without its CSRF token, or from another origin (403).
    public static let csrfRejected = Self(rawValue: "CSRF_REJECTED")
    /// The server has no room to store what the request sends now.
    public static let insufficientStorage = Self(rawValue: "INSUFFICIENT_STORAGE")
    /// Hale failed in a way it did not expect: a bug, logged with the request id (500).
    public static let internalError = Self(rawValue: "INTERNAL_ERROR")
}

extension HaleError {
    /// A 400 for malformed or invalid input, with a message naming what is wrong.
    public static func invalidRequest(_ message: String) -> HaleError {
        HaleError(.invalidRequest, .invalidInput, message: message)
    }

    /// The 401 for a request that needs a bearer token and carries none.
    public static let missingCredentials = HaleError(
        .unauthorized, .unauthenticated, message: "A bearer token is required.")

    /// What a bug answers, in the shape of the surface it happened on, saying nothing of what failed: NestJS's
    /// words for an unexpected error, which seed 001's clients know.
    public static let internalError = HaleError(.internalError, .internal, message: "Internal server error")

    /// The 401 for a bearer token that is not valid.
    public static let invalidToken = HaleError(.tokenInvalid, .unauthenticated, message: "The token is not valid.")

    /// The 401 for a bearer or refresh token that has expired.
    public static let expiredToken = HaleError(.tokenExpired, .unauthenticated, message: "The token has expired.")

    /// The 401 for a spent refresh token presented again outside the grace period.
    public static let reusedToken = HaleError(
        .tokenReused, .unauthenticated,
        message: "The refresh token was already used; the session has been revoked. Sign in again.")

    /// The 422 for a body with invalid fields, one entry per field.
    public static func validationFailed(_ fieldErrors: [FieldError]) -> HaleError {
        var error = HaleError(
            .validationFailed, .invalidFields,
            message: fieldErrors.count == 1 ? fieldErrors[0].message : "\(fieldErrors.count) fields are invalid.")
        error.fieldErrors = fieldErrors
        return error
    }

    /// The 409 for an account that owns as many of something as it may: "This account has 20 passkeys, the most it
    /// may have; delete one to add another."
    public static func limitReached(_ message: String) -> HaleError {
        HaleError(.limitReached, .conflict, message: message)
    }

    /// The 400 for a challenge that cannot be consumed.
    public static let invalidChallenge = HaleError(
        .invalidChallenge, .invalidInput, message: "The challenge is invalid, expired or already used.")
}
