import AsyncHTTPClient

extension HaleServices {
    /// Push delivery through the configured gateways; a message for a gateway that is not configured is skipped.
    static func pushDelivery(
        _ settings: HaleConfiguration.Push, http: PushHTTPClients, database: HaleDatabase, clock: HaleClock
    ) throws -> PushDelivery {
        var gateways: [PushGateway: any PushGatewayClient] = [:]
        if let apns = settings.apns, let client = http.apns {
            gateways[.apns] = APNsClient(
                http: client, providerToken: try APNsProviderToken(apns, clock: clock), settings: apns)
        }
        if let fcm = settings.fcm, let client = http.fcm {
            let token = FCMAccessToken(
                account: fcm.serviceAccount, tokenURL: fcm.tokenURL, http: client, clock: clock)
            gateways[.fcm] = FCMClient(http: client, accessToken: token, settings: fcm, clock: clock)
        }
        return PushDelivery(
            repository: SQLPushOutboxRepository(database: database), gateways: gateways,
            policy: PushRetryPolicy(
                maxAttempts: settings.maxAttempts, firstDelay: settings.retryDelay, maxDelay: settings.maxRetryDelay),
            clock: clock)
    }
}
