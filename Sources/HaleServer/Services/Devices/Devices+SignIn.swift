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

    /// Completes a sign-in: consumes the challenge once, finds the key among the fingerprint's devices that made the
    /// signature, and starts a session on that device. Every failure past the challenge is the same 401.
    public func completeSignIn(
        sessionId: String, signedChallenge: String, rememberMe: Bool, ip: String?, logger: Logger
    ) async throws -> TokenPair {
        try OpaqueToken.checkPresented(sessionId, field: "sessionId")
        let consumed = try await challenges.consumeOrInvalid(kind: Self.signInKind, value: sessionId)
        let pending = try ChallengeContext.decode(PendingDeviceSignIn.self, from: consumed.context)
        let now = clock.now()
        let candidates = try await repository.signInCandidates(
            fingerprintHash: pending.fingerprintHash, at: now, limit: Self.candidateLimit)
        guard let signer = Self.signer(of: signedChallenge, over: pending.challenge, among: candidates) else {
            try await repository.recordFailedSignature(
                devices: candidates.map(\.device.id), threshold: Int64(settings.lockoutThreshold),
                lockedUntil: now.addingTimeInterval(settings.lockoutDuration.timeInterval))
            logger.notice("device sign-in failed", metadata: ["candidates": "\(candidates.count)"])
            throw HaleError.deviceSignInFailed
        }
        let ipRange = ip.flatMap(IPRange.of)
        try await repository.recordSignIn(key: signer.key.id, device: signer.device.id, ipRange: ipRange, at: now)
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
