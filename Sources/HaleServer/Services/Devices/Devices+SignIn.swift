import DeviceKeys
import Foundation
import Logging

extension Devices {
    /// Issues a sign-in challenge for a fingerprint that some account's active device has an unrevoked key under;
    /// any other gets `DEVICE_NOT_REGISTERED`, before the app asks for a biometric, so seed 002's app offers to
    /// register the device. That tells whoever asks that some phone of that build is registered (seed 002's
    /// fingerprints are a hash of the model and system, neither secret nor unique), never which account; the
    /// challenge route's budget per client address caps how many fingerprints one client can try.
    public func startSignIn(fingerprint: String) async throws -> DeviceChallenge {
        let fingerprintHash = OpaqueToken.hash(try Self.validFingerprint(fingerprint))
        guard try await repository.hasSignInKey(fingerprintHash: fingerprintHash) else {
            throw HaleError.noDeviceUnderFingerprint
        }
        let pending = PendingDeviceSignIn(challenge: OpaqueToken.generate(), fingerprintHash: fingerprintHash)
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
        let ipRange = ip.flatMap(IPRange.of)
        let candidates = try await repository.signInCandidates(
            fingerprintHash: pending.fingerprintHash,
            keys: Self.keys(signing: signedChallenge, over: pending.challenge, preferring: ipRange), network: network,
            at: now, limit: Self.candidateLimit)
        guard let signer = Self.signer(of: signedChallenge, over: pending.challenge, among: candidates) else {
            // Counted against the fingerprint's oldest devices, as many as a sign-in would try.
            let failed = try await repository.signInCandidates(
                fingerprintHash: pending.fingerprintHash, keys: .any, network: network, at: now,
                limit: Self.candidateLimit)
            try await repository.recordFailedSignature(
                devices: failed.map(\.device.id), network: network, at: now, lockout: SignInLockout(settings))
            logger.notice("device sign-in failed", metadata: ["candidates": "\(candidates.count)"])
            throw HaleError.deviceSignInFailed
        }
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

    /// The keys that can have made `signature`, found from the signature itself: an ECDSA signature names the few
    /// P-256 keys that could have made it, so however many keys of other accounts share a fingerprint, a sign-in
    /// looks at no more than four; an RSA signature is tried against the RSA keys of its size, the device's own
    /// network's first, then the oldest.
    static func keys(signing signature: String, over challenge: String, preferring range: String?)
        -> SignInKeys
    {
        switch DevicePublicKey.lookup(signature: signature, challenge: challenge) {
        case .p256(let thumbprints):
            return .thumbprints(thumbprints)
        case .rsa(let modulusBytes):
            let bits = DevicePublicKey.SignatureLookup.rsaBits(modulusBytes: modulusBytes)
            return .types(bits.map { keyType(.rsa(bits: $0)) }, preferredRange: range)
        case .none:
            return .thumbprints([])
        }
    }

    /// The candidate whose key made the signature, if any.
    private static func signer(of signature: String, over challenge: String, among candidates: [SignInCandidate])
        -> SignInCandidate?
    {
        candidates.first { $0.key.verifies(signature, over: challenge) }
    }
}
