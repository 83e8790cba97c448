import Foundation

/// A parser to fuzz: the name `HALE_FUZZ_TARGET` selects it by, and what to do with one input.
///
/// `run` must treat every thrown error as a correct answer and ignore it: only a crash, a trap, a hang or runaway
/// memory is a finding.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `.ci/fuzz` runs them.
    static let all: [FuzzTarget] = [
        .cbor, .coseKey, .webAuthnRegistration, .webAuthnAuthentication, .appAttestAttestation, .appAttestAssertion,
        .playIntegrity, .deviceKeys, .socialTokens, .strictJSON, .healthSync, .healthExport, .healthExportZip,
    ]

    /// The target `HALE_FUZZ_TARGET` names; the process ends with the list of names when it names none.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["HALE_FUZZ_TARGET"] ?? ""
        guard let target = all.first(where: { $0.name == name }) else {
            let names = all.map(\.name).joined(separator: " ")
            FileHandle.standardError.write(Data("Set HALE_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()
}
