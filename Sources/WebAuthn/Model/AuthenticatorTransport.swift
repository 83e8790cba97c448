/// `AuthenticatorTransport` (WebAuthn L3 §5.8.4): how a client may reach an authenticator, as a registration
/// response's `transports` reports it.
public enum AuthenticatorTransport: String, CaseIterable, Sendable {
    case usb, nfc, ble, hybrid, `internal`, cable
    case smartCard = "smart-card"

    /// The most values a response's `transports` may list: there are seven, so more can only be repeats or junk.
    public static let maximumReported = 8

    /// The values of `reported` this library knows, each once, in the order given. §5.8.4: the list may hold values
    /// defined after this library was written, which a relying party ignores rather than refusing the response.
    public static func known(in reported: [String]) -> [AuthenticatorTransport] {
        var known: [AuthenticatorTransport] = []
        for transport in reported.compactMap(AuthenticatorTransport.init(rawValue:)) where !known.contains(transport) {
            known.append(transport)
        }
        return known
    }
}
