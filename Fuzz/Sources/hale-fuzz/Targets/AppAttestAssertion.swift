import DeviceIntegrity

extension FuzzTarget {
    /// `Sources/DeviceIntegrity/AppAttest`: an assertion verified with the development fixtures' device key, after
    /// counter 0. Inputs: the assertion's CBOR, then optionally the client data hash (by default the fixtures').
    ///
    /// The signature comes first in Apple's order, so a mutated assertion stops there: the target reaches the CBOR
    /// and authenticator data parsing, not the app and counter checks behind the signature.
    static let appAttestAssertion = FuzzTarget(name: "app-attest-assertion") { bytes in
        let parts = FuzzInput.parts(bytes[...])
        let clientDataHash = parts[ifPresent: 1].map(Array.init) ?? FuzzAppAttest.clientDataHash
        _ = try? FuzzAppAttest.development.verifyAssertion(
            Array(parts[0]), publicKey: FuzzAppAttest.deviceKey, clientDataHash: clientDataHash, previousCounter: 0,
            app: FuzzAppAttest.developmentApp)
    }
}
