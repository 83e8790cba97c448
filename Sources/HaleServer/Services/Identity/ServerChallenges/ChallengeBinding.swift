/// Whom a challenge belongs to. At consumption, every field the consumer sets must equal the challenge's.
public struct ChallengeBinding: Sendable, Equatable {
    /// The account, if the challenge is for a signed-in account.
    public var accountId: AccountID?
    /// The device, if the challenge is for one device.
    public var deviceId: DeviceID?
    /// The session, if the challenge is for one session.
    public var sessionId: SessionID?

    /// A binding; every field defaults to unbound.
    public init(accountId: AccountID? = nil, deviceId: DeviceID? = nil, sessionId: SessionID? = nil) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.sessionId = sessionId
    }

    /// Bound to nobody: anyone holding the value may consume it.
    public static let none = ChallengeBinding()
}
