extension HaleServices {
    /// Mail delivery through the configured SMTP server, or into `email.directory` when there is none.
    static func mailDelivery(
        _ configuration: HaleConfiguration, sealer: SecretSealer?, database: HaleDatabase,
        clock: HaleClock
    ) -> MailDelivery {
        let email = configuration.email
        let transport: any MailTransport =
            email.smtp.map { SMTPMailTransport(settings: $0) } ?? FileMailTransport(directory: email.directory)
        return MailDelivery(
            repository: SQLMailOutboxRepository(database: database), transport: transport, sealer: sealer,
            policy: PushRetryPolicy(
                maxAttempts: configuration.push.maxAttempts, firstDelay: configuration.push.retryDelay,
                maxDelay: configuration.push.maxRetryDelay),
            sender: MailDelivery.Sender(
                address: email.from,
                context: MailContent.Context(
                    productName: email.productName,
                    accountPageURL: configuration.server.publicURL?.appendingPathComponent("account").absoluteString)),
            clock: clock)
    }

    /// Verified addresses and their codes.
    static func emailAddresses(
        _ configuration: HaleConfiguration, sealer: SecretSealer?, audit: AuditTrail, database: HaleDatabase,
        clock: HaleClock
    ) -> EmailAddresses {
        EmailAddresses(
            repository: SQLEmailAddressRepository(database: database),
            outbox: MailOutbox(sealer: sealer, clock: clock), mails: SQLMailOutboxRepository(database: database),
            audit: audit, limits: configuration.email.limits, clock: clock)
    }
}
