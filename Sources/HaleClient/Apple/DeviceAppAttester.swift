#if canImport(DeviceCheck)
    import DeviceCheck
    import Foundation

    /// App Attest through `DCAppAttestService`: the key lives in the Secure Enclave, Apple attests that it belongs to
    /// this app on a genuine device, and each assertion proves a request came from it. The app needs the App Attest
    /// entitlement (`com.apple.developer.devicecheck.appattest-environment`).
    @available(iOS 14.0, tvOS 15.0, watchOS 9.0, *)
    public struct DeviceAppAttester: AppAttester {
        /// An attester using the shared service.
        public init() {}

        /// Creates a key; returns its identifier, the base64 SHA-256 of its public key.
        public func generateKey() async throws -> String {
            try await Self.service().generateKey()
        }

        /// Asks Apple to attest the key `keyID` with `clientDataHash`; returns the attestation object.
        public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await Self.service().attestKey(keyID, clientDataHash: clientDataHash)
        }

        /// Signs `clientDataHash` with the key `keyID`, counting the assertion; returns the assertion object.
        public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await Self.service().generateAssertion(keyID, clientDataHash: clientDataHash)
        }

        private static func service() throws -> DCAppAttestService {
            let service = DCAppAttestService.shared
            guard service.isSupported else {
                throw PlatformAdapterError.unavailable("App Attest is not supported on this device")
            }
            return service
        }
    }
#endif
