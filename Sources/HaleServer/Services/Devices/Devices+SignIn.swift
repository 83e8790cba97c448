import DeviceKeys
import Foundation
import Logging

extension Devices {
    /// Issues a sign-in challenge for a fingerprint. Every fingerprint gets one, registered or not, and nothing is
    /// looked up, so the answer tells nobody whether a device exists.
    public func startSignIn(fingerprint: String) async throws -> DeviceChallenge {
        let pending = PendingDeviceSignIn(
            challenge: OpaqueToken.generate(),
            fingerprintHash: OpaqueToken.hash(try Self.validFingerprint(fingerprint)))
        let issued = try await challenges.issue(
            kind: Self.signInKind, binding: .none, lifetime: Self.signInLifetime,
            context: try ChallengeContext.encode(pending))
        return DeviceChallenge(
            challenge: pending.challenge, sessionId: issued.value, deviceId: nil, expiresAt: issued.challenge.expiresAt)
    }

    /// Completes a sign-in from `ip`: consumes the challenge once, finds the key among the fingerprint's devices that
    /// made the signature, and starts a session on that device. Every failure past the challenge is the same 401.
    ///
    /// Failures are counted per device and client network (`SignInLockout`): someone who knows only a device's
    /// fingerprint locks out the network they fail from, never the device's owner signing in from another.
    public func completeSignIn(
        sessionId: String, signedChallenge: String, rememberMe: Bool, ip: String?, logger: Logger
    ) async throws -> TokenPair {
        try OpaqueToken.checkPresented(sessionId, field: "sessionId")
        let consumed = try await challenges.consumeOrInvalid(kind: Self.signInKind, value: sessionId)
        let pending = try ChallengeContext.decode(PendingDeviceSignIn.self, from: consumed.context)
        let now = clock.now()
        let network = SignInLockout.network(of: ip)
        let candidates = try await repository.signInCandidates(
            fingerprintHash: pending.fingerprintHash, network: network, at: now, limit: Self.candidateLimit)
        guard let signer = Self.signer(of: signedChallenge, over: pending.challenge, among: candidates) else {
            try await repository.recordFailedSignature(
                devices: candidates.map(\.device.id), network: network, at: now, lockout: SignInLockout(settings))
            logger.notice("device sign-in failed", metadata: ["candidates": "\(candidates.count)"])
            throw HaleError.deviceSignInFailed
        }
        let ipRange = ip.flatMap(IPRange.of)
        try await repository.recordSignIn(
            key: signer.key.id, device: signer.device.id, network: network, ipRange: ipRange, at: now)
        let tokens = try await sessions.start(
            account: signer.device.accountId, device: signer.device.id, signInMethod: "device_key",
            rememberMe: rememberMe)
        if let ipRange, let previous = signer.device.lastIpRange, previous != ipRange {
            try await audit.record(
                .deviceKeyNewIpRange,
                AuditTrail.Subject(
                    account: signer.device.accountId, device: signer.device.id, session: tokens.sessionId,
                    ipRange: ipRange),
                details: ["previousIpRange": previous])
        }
        return tokens
    }

    /// The candidate whose key made the signature, if any.
    private static func signer(of signature: String, over challenge: String, among candidates: [SignInCandidate])
        -> SignInCandidate?
    {
        candidates.first { $0.key.verifies(signature, over: challenge) }
    }
}
