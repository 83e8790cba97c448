import Vapor

/// The files that let iOS and Android apps use this domain's passkeys, served from `apps.apple` and `apps.android`.
struct AssociationRoutes: RouteCollection {
    let apps: HaleConfiguration.Apps

    func boot(routes: any RoutesBuilder) throws {
        routes.get(".well-known", "apple-app-site-association", use: appleAppSiteAssociation)
        routes.get(".well-known", "assetlinks.json", use: assetLinks)
    }

    struct AppleAppSiteAssociation: Content {
        struct WebCredentials: Content {
            let apps: [String]
        }
        let webcredentials: WebCredentials
    }

    struct AssetLink: Content {
        struct Target: Content {
            var namespace = "android_app"
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let package_name: String
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let sha256_cert_fingerprints: [String]
        }
        var relation = ["delegate_permission/common.get_login_creds", "delegate_permission/common.handle_all_urls"]
        let target: Target
    }

    /// `webcredentials` for every `TEAMID.bundle.id` in `apps.apple`.
    func appleAppSiteAssociation(_ request: Request) -> AppleAppSiteAssociation {
        AppleAppSiteAssociation(webcredentials: .init(apps: apps.apple))
    }

    /// One statement per package in `apps.android`, with all of its fingerprints.
    func assetLinks(_ request: Request) -> [AssetLink] {
        let apps = self.apps.android
        let packages = apps.map(\.packageName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return packages.map { package in
            AssetLink(
                target: .init(
                    package_name: package,
                    sha256_cert_fingerprints: apps.filter { $0.packageName == package }.map(\.certificateFingerprint)))
        }
    }
}
