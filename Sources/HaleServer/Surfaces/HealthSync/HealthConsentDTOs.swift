import Vapor

/// `POST …/health/consent`, as seed 000's iOS and Android clients send it.
struct ConsentRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["platform", "permissions"]
    let platform: String?
    let permissions: [String]?
}

extension HealthPlatform {
    /// The platform a request names by its raw value; any other name, or none, is an `InvalidInput` naming every
    /// platform.
    static func named(_ name: String?) throws(InvalidInput) -> HealthPlatform {
        guard let platform = name.flatMap(HealthPlatform.init(rawValue:)) else {
            throw InvalidInput("platform", .oneOf(allCases.map(\.rawValue)))
        }
        return platform
    }
}

/// One grant as the consent endpoints answer it.
struct ConsentGrantResponse: Content {
    let platform: String
    let permission: String
    let grantedAt: String
    @Nullable var revokedAt: String?

    init(_ grant: ConsentGrant) {
        platform = grant.platform.rawValue
        permission = grant.permission.rawValue
        grantedAt = ISO8601.string(grant.grantedAt)
        revokedAt = grant.revokedAt.map(ISO8601.string)
    }
}

/// The grants in force after a grant, and for `GET …/health/consent`.
struct ConsentResponse: Content {
    var success = true
    let consent: [ConsentGrantResponse]
}

/// The grants a revocation ended.
struct ConsentRevocationResponse: Content {
    var success = true
    let revoked: [ConsentGrantResponse]
}
