extension HaleError.Kind {
    /// The HTTP status every surface answers this kind of failure with.
    var httpStatus: Int {
        switch self {
        case .invalidInput: 400
        case .unauthenticated: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .gone: 410
        case .tooLarge: 413
        case .unsupportedMediaType: 415
        case .rangeNotSatisfiable: 416
        case .invalidFields: 422
        case .rateLimited: 429
        case .internal: 500
        case .unavailable: 503
        case .insufficientStorage: 507
        }
    }

    /// The kind an HTTP status names, for errors Vapor raised before a Hale route ran; a status no kind maps to is an
    /// invalid input.
    init(httpStatus: Int) {
        self = Self.allCases.first { $0.httpStatus == httpStatus } ?? .invalidInput
    }
}

extension HaleError {
    /// The HTTP status of this error: its kind's.
    var status: Int { kind.httpStatus }
}
