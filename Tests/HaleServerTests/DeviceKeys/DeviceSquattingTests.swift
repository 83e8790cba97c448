import Crypto
import DeviceKeys
import Foundation
import HaleTesting
import Logging
import Testing
import Vapor
import _CryptoExtras

@testable import HaleServer

/// Fingerprints are chosen by clients and shared by every phone of one Android build: keys that other accounts
/// register under a victim's fingerprint can neither hide the victim's device from its sign-in nor make each
/// sign-in cost more.
@Suite("Device keys: a fingerprint others register under")
struct DeviceSquattingTests {
    private static let squatters = 1_000
    private static let home = "203.0.113.9"

    /// `count` other accounts, each with a device under `fingerprint`: half P-256 keys, half RSA-2048 (their public
    /// halves only; no sign-in of theirs is needed), stored as a registration would store them.
    private func squat(_ app: Application, fingerprint: String, count: Int, at date: Date) async throws {
        let repository = SQLDeviceRepository(database: app.hale.database)
        for index in 0..<count {
            let account = try await app.hale.accounts.create(
                email: try AccountEmail("squatter\(index)@example.com"), role: "user")
            let der: [UInt8] =
                index.isMultiple(of: 2)
                ? Array(P256.Signing.PrivateKey().publicKey.derRepresentation)
                : try Self.rsaPublicKeyDER()
            let key = try DevicePublicKey(derRepresentation: der)
            let device = Device(
                id: .random(), accountId: account.id, name: "squatter", deviceType: "mobile",
                fingerprintHash: OpaqueToken.hash(fingerprint), fcmToken: nil, apnsToken: nil, pushTokenUpdatedAt: nil,
                createdAt: date, lastUsedAt: nil, lastIpRange: IPRange.of("198.51.100.\(index % 250)"),
                deactivatedAt: nil)
            let record = DeviceKeyRecord(
                id: UUID(), deviceId: device.id, accountId: account.id, publicKey: Data(der).base64EncodedString(),
                thumbprint: key.thumbprint, keyType: Devices.keyType(key.kind), declaredAlgorithm: "ES256",
                signatureConvention: index.isMultiple(of: 2) ? "ECDSA_SHA256" : "RSA_PKCS1V15_SHA256", createdAt: date,
                lastUsedAt: nil, revokedAt: nil)
            try await repository.insert(device, key: record, audit: nil)
        }
    }

    /// An RSA-2048 public key of a random odd modulus: what a squatter's stored key looks like, made in microseconds.
    private static func rsaPublicKeyDER() throws -> [UInt8] {
        var modulus = (0..<256).map { _ in UInt8.random(in: 0...255) }
        modulus[0] |= 0x80
        modulus[255] |= 1
        return Array(try _RSA.Signing.PublicKey(n: modulus, e: [0x01, 0x00, 0x01]).derRepresentation)
    }

    /// Registers `client` for a new account from `ip`, through the service as the route does.
    private func register(_ app: Application, _ client: DeviceClient, from ip: String) async throws {
        let account = try await app.hale.accounts.create(email: try AccountEmail("victim@example.com"), role: "user")
        let challenge = try await app.hale.devices.startRegistration(
            DeviceRegistrationRequest(
                deviceName: "Ada's phone", deviceType: .mobile, deviceFingerprint: client.fingerprint,
                publicKey: client.publicKeyPEM, keyAlgorithm: .es256), account: account.id)
        _ = try await app.hale.devices.completeRegistration(
            sessionId: challenge.sessionId, signedChallenge: try client.sign(challenge.challenge), account: account.id,
            ip: ip)
    }

    /// The victim's sign-in from `ip`, and how many keys it looked at.
    private func signIn(_ app: Application, _ client: DeviceClient, from ip: String) async throws -> (Bool, Int) {
        let issued = try await app.hale.devices.startSignIn(fingerprint: client.fingerprint)
        let signature = try client.sign(issued.challenge)
        let looked = try await SQLDeviceRepository(database: app.hale.database).signInCandidates(
            fingerprintHash: OpaqueToken.hash(client.fingerprint),
            keys: Devices.keys(signing: signature, over: issued.challenge, preferring: IPRange.of(ip)),
            network: SignInLockout.network(of: ip), at: Date(), limit: Devices.candidateLimit)
        do {
            _ = try await app.hale.devices.completeSignIn(
                sessionId: issued.sessionId, signedChallenge: signature, rememberMe: false, ip: ip,
                logger: Logger(label: "test"))
            return (true, looked.count)
        } catch let error as HaleError where error == .deviceSignInFailed {
            return (false, looked.count)
        }
    }

    @Test(
        "a P-256 device signs in among 1,000 other accounts' keys under its fingerprint, registered before it, looking at one key",
        arguments: TestDatabase.available, [DeviceFlavour.iOS, .android])
    func aP256DeviceIsFoundByItsSignature(database: TestDatabase, flavour: DeviceFlavour) async throws {
        try await withHale(on: database) { app in
            let victim = try DeviceClient(flavour, fingerprint: "Android-14-Pixel 8-Biometric-12345678")
            try await squat(
                app, fingerprint: victim.fingerprint, count: Self.squatters, at: Date(timeIntervalSince1970: 0))
            try await register(app, victim, from: Self.home)
            let (signedIn, looked) = try await signIn(app, victim, from: "192.0.2.1")
            #expect(signedIn)
            #expect(looked == 1, "the signature names its key; none of the 1,000 is tried")
        }
    }

    @Test(
        "an RSA device signs in among 1,000 other accounts' keys under its fingerprint, looking at no more than eight",
        arguments: TestDatabase.available)
    func anRSADeviceIsTriedFirstFromItsNetworkAndBeforeLaterKeys(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let victim = try DeviceClient(.reactNativeAndroid)
            // Registered before the squatters: from any network, the oldest keys of its size are tried first.
            try await register(app, victim, from: Self.home)
            try await squat(app, fingerprint: victim.fingerprint, count: Self.squatters, at: Date())
            let elsewhere = try await signIn(app, victim, from: "192.0.2.1")
            #expect(elsewhere.0 && elsewhere.1 <= Devices.candidateLimit)
        }
        try await withHale(on: database) { app in
            let victim = try DeviceClient(.reactNativeAndroid)
            // Registered after them: from its own network, its device comes first.
            try await squat(
                app, fingerprint: victim.fingerprint, count: Self.squatters, at: Date(timeIntervalSince1970: 0))
            try await register(app, victim, from: Self.home)
            let home = try await signIn(app, victim, from: Self.home)
            #expect(home.0 && home.1 <= Devices.candidateLimit)
        }
    }
}
