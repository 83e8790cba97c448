#if canImport(Security) && canImport(LocalAuthentication) && (os(iOS) || os(macOS))
    import Foundation
    import LocalAuthentication
    import Security

    /// A P-256 device key made in the Secure Enclave: it never leaves the device, and each signature needs the
    /// biometrics enrolled when it was made (`biometryCurrentSet`), so enrolling a new face or finger retires it.
    ///
    /// The key is found again by its keychain application tag, so the app only keeps the tag.
    @available(iOS 15.0, *)
    public struct SecureEnclaveDeviceKey: DeviceKeySigner {
        /// The keychain application tag the key is stored under.
        public let tag: String
        /// The public key as a PEM SubjectPublicKeyInfo.
        public let publicKeyPEM: String
        /// Why the app signs, shown in the biometric prompt.
        public let reason: String

        private init(tag: String, publicKey: SecKey, reason: String) throws {
            self.tag = tag
            self.reason = reason
            publicKeyPEM = try PublicKeyPEM.encode(p256X963: try Self.x963(of: publicKey))
        }

        /// Creates a key under `tag`, kept in the keychain until `delete(tag:)`; `reason` is shown when it signs.
        public static func create(tag: String, reason: String) throws -> SecureEnclaveDeviceKey {
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                    [.privateKeyUsage, .biometryCurrentSet], &error)
            else { throw Self.error(error) }
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecUseDataProtectionKeychain as String: true,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true,
                    kSecAttrApplicationTag as String: Data(tag.utf8),
                    kSecAttrAccessControl as String: access,
                ] as [String: Any],
            ]
            guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                throw Self.error(error)
            }
            return try SecureEnclaveDeviceKey(tag: tag, publicKey: try publicKey(of: privateKey), reason: reason)
        }

        /// The key stored under `tag`, or `nil` if there is none. Finding it needs no biometrics; signing does.
        public static func load(tag: String, reason: String) throws -> SecureEnclaveDeviceKey? {
            do {
                let privateKey = try privateKey(tag: tag, context: nil)
                return try SecureEnclaveDeviceKey(tag: tag, publicKey: try publicKey(of: privateKey), reason: reason)
            } catch PlatformAdapterError.keyNotFound {
                return nil
            }
        }

        /// Deletes the key stored under `tag`, if there is one.
        public static func delete(tag: String) throws {
            let status = SecItemDelete(query(tag: tag) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw PlatformAdapterError.keychain(status: status)
            }
        }

        /// Asks for biometrics, then signs `challenge` as a client following `convention` does; returns the DER
        /// signature in standard base64. Throws `PlatformAdapterError.cancelled` if the person dismisses the prompt.
        public func sign(challenge: String, convention: DeviceSigningConvention) async throws -> String {
            let context = LAContext()
            context.localizedReason = reason
            do {
                // Evaluated up front so the prompt is awaited rather than blocking a thread inside SecKeyCreateSignature;
                // the key then uses this already evaluated context without asking again.
                _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
            } catch let error as LAError where [.userCancel, .appCancel, .systemCancel].contains(error.code) {
                throw PlatformAdapterError.cancelled
            }
            let privateKey = try Self.privateKey(tag: tag, context: context)
            let message = Data(convention.message(for: challenge))
            var error: Unmanaged<CFError>?
            guard
                let signature = SecKeyCreateSignature(
                    privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?
            else { throw Self.error(error) }
            return signature.base64EncodedString()
        }

        private static func query(tag: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassKey,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecUseDataProtectionKeychain as String: true,
            ]
        }

        private static func privateKey(tag: String, context: LAContext?) throws -> SecKey {
            var query = query(tag: tag)
            query[kSecReturnRef as String] = true
            if let context { query[kSecUseAuthenticationContext as String] = context }
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            if status == errSecItemNotFound { throw PlatformAdapterError.keyNotFound }
            guard status == errSecSuccess, let item, CFGetTypeID(item) == SecKeyGetTypeID() else {
                throw PlatformAdapterError.keychain(status: status)
            }
            // The type ID was checked just above, and a conditional cast to a CF type always succeeds, so force it.
            return item as! SecKey
        }

        private static func publicKey(of privateKey: SecKey) throws -> SecKey {
            guard let publicKey = SecKeyCopyPublicKey(privateKey) else {
                throw PlatformAdapterError.unexpectedCredential
            }
            return publicKey
        }

        private static func x963(of publicKey: SecKey) throws -> Data {
            var error: Unmanaged<CFError>?
            guard let x963 = SecKeyCopyExternalRepresentation(publicKey, &error) as Data? else {
                throw Self.error(error)
            }
            return x963
        }

        private static func error(_ error: Unmanaged<CFError>?) -> any Error {
            guard let error else { return PlatformAdapterError.keychain(status: errSecInternalError) }
            return error.takeRetainedValue()
        }
    }
#endif
