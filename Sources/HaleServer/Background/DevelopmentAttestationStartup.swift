import Vapor

/// At boot in development attestation mode: warns that the mode is on, and (on an asynchronous boot, as `hale serve`
/// does) loads or creates the development CA, so a database that cannot hold it stops the server at once.
struct DevelopmentAttestationStartup: LifecycleHandler {
    static let warning: Logger.Message = """
        appAttest.developmentMode is on: App Attest attestations chained to this installation's development CA are \
        accepted, and any signed-in client can get one. This must never be on in production.
        """

    func didBoot(_ application: Application) throws {
        application.logger.warning(Self.warning)
    }

    func didBootAsync(_ application: Application) async throws {
        application.logger.warning(Self.warning)
        try await application.hale.developmentAttestation?.prepare()
    }
}
