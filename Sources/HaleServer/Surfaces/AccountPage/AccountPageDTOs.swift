import Foundation
import HealthSamples
import Vapor
import WebAuthn

/// What the page says about the browser it runs in: the device record's name and version. The platform is `web`.
struct AccountPageBrowser: Codable, Sendable {
    let deviceName: String?
    let osVersion: String?

    /// The name of a browser that did not say.
    static let unnamed = PasskeyDevice(platform: "web", deviceName: "Web browser")

    var device: PasskeyDevice {
        PasskeyDevice(platform: "web", osVersion: osVersion, deviceName: deviceName ?? Self.unnamed.deviceName)
    }
}

/// `POST /account/api/sign-in/options`, and the options of every other passkey ceremony: the options, and the
/// ceremony to name when answering.
struct AccountPageCeremony: Content {
    let options: RequestOptions
    let ceremony: String
}

/// `POST /account/api/sign-in`: the assertion the browser made for a ceremony.
struct AccountPageSignIn: StrictRequestBody {
    static let allowedFields: Set<String> = ["ceremony", "credential", "browser"]
    let ceremony: String
    let credential: AuthenticationResponseJSON
    let browser: AccountPageBrowser?
}

/// `POST /account/api/sign-up/options`: who the new account is.
struct AccountPageSignUpOptions: StrictRequestBody {
    static let allowedFields: Set<String> = ["displayName", "email", "browser"]
    let displayName: String
    let email: String?
    let browser: AccountPageBrowser?
}

/// `POST /account/api/sign-up` and `POST /account/api/passkeys`: the passkey the browser created.
struct AccountPageRegistration: StrictRequestBody {
    static let allowedFields: Set<String> = ["credential", "browser"]
    let credential: RegistrationResponseJSON
    let browser: AccountPageBrowser?
}

/// `POST /account/api/account/delete`: the passkey ceremony that shows the person is there.
struct AccountPagePresence: StrictRequestBody {
    static let allowedFields: Set<String> = ["ceremony", "credential"]
    let ceremony: String
    let credential: AuthenticationResponseJSON
}

/// `GET /account/api/session`, and the answer to a sign-in or sign-up: who is signed in, and the CSRF token every
/// state-changing request of the page sends back in `X-CSRF-Token`.
struct AccountPageSessionResponse: Content {
    let account: AccountResponse
    let sessionId: String
    let deviceId: String?
    let csrfToken: String
    /// A recovery session's: the page offers only to add a passkey.
    let recovery: Bool
}

/// `POST /account/api/recover`: a recovery code.
struct AccountPageRecovery: StrictRequestBody {
    static let allowedFields: Set<String> = ["code"]
    let code: String
}

/// `GET /account/api/sessions`: where and when the account is signed in.
struct AccountPageSessionList: Content {
    struct Item: Content {
        let id: String
        let signInMethod: String
        let deviceId: String?
        let deviceName: String?
        let platform: String?
        let createdAt: String
        let lastUsedAt: String
        let expiresAt: String
        let current: Bool
    }

    let sessions: [Item]
}

/// `GET /account/api/health/sources`: which source counted on each day that has data.
struct AccountPageDaySources: Content {
    struct Day: Content {
        let date: String
        /// `attested` or `synced`.
        let kind: String
        /// For people: the device model or type and the app, or "Entered by hand", or "Attested upload".
        let name: String
    }

    let days: [Day]

    init(_ sources: [LocalDate: HealthDaySources.Source]) {
        days = sources.sorted { $0.key < $1.key }.map { day, source in
            switch source {
            case .attested:
                Day(date: day.description, kind: "attested", name: "Attested upload")
            case .synced(let sample):
                Day(date: day.description, kind: "synced", name: Self.name(of: sample))
            }
        }
    }

    static func name(of source: SampleSource) -> String {
        let device = source.deviceModel ?? source.deviceType ?? "Unknown device"
        let named = [device, source.bundleID].compactMap { $0 }.joined(separator: " · ")
        return source.isUserEntered ? "Entered by hand (\(named))" : named
    }
}

/// `GET /account/api/health/imports`.
struct AccountPageImports: Content {
    let imports: [HealthImportResponse]
}
