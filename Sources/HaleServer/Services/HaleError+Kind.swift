extension HaleError {
    /// What kind of failure an error is: what went wrong for the caller, not how a transport says so.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// The input is malformed or breaks a rule.
        case invalidInput
        /// The caller did not prove who it is, or its proof is not valid.
        case unauthenticated
        /// The caller is known but may not do this.
        case forbidden
        /// What the request names does not exist, for this caller.
        case notFound
        /// The request conflicts with the state it would change.
        case conflict
        /// What the request names existed and is gone for good.
        case gone
        /// The input is larger than this operation takes.
        case tooLarge
        /// The input is in a form this operation does not read.
        case unsupportedMediaType
        /// The part of a resource asked for lies outside it.
        case rangeNotSatisfiable
        /// Some fields of the input break their rules; `fieldErrors` says which.
        case invalidFields
        /// The caller has used up its budget for now; `retryAfterSeconds` may say when to retry.
        case rateLimited
        /// Hale failed in a way it did not expect.
        case `internal`
        /// Something Hale depends on cannot be reached now.
        case unavailable
        /// Hale has no room to keep what the request sends.
        case insufficientStorage

        /// Whether the caller's input or standing caused it, rather than Hale or what it depends on.
        public var isCallersFault: Bool {
            switch self {
            case .internal, .unavailable, .insufficientStorage: false
            default: true
            }
        }
    }
}
