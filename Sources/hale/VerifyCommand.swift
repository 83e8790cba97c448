import ArgumentParser
import Foundation

/// `hale verify …`: check what a client sent, offline, as Hale would.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Verify client output offline, for integrators debugging their apps.",
        subcommands: [
            WebAuthnRegistration.self, WebAuthnAuthentication.self, AppAttestAttestation.self,
            AppAttestAssertion.self, PlayIntegrity.self,
        ])

    /// The input file, documented in docs/api/passkeys.md.
    struct File: ParsableArguments {
        @Argument(help: "A JSON file: response, expectedChallenge, expectedOrigins, expectedRPID, …") var file: String

        func read() throws -> Data {
            guard let data = FileManager.default.contents(atPath: file) else {
                print(#"{"error":"UNUSABLE_INPUT","message":"cannot read the file","verified":false}"#)
                throw ExitCode(2)
            }
            return data
        }
    }

    /// `hale verify webauthn-registration FILE`.
    struct WebAuthnRegistration: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webauthn-registration",
            abstract: "Verify a RegistrationResponseJSON. Exit 0 verified, 1 refused, 2 unusable input.")
        @OptionGroup var input: File

        func run() async throws {
            try VerifyCommand.finish(await WebAuthnDebugger.registration(try input.read()))
        }
    }

    /// `hale verify webauthn-authentication FILE`.
    struct WebAuthnAuthentication: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webauthn-authentication",
            abstract: "Verify an AuthenticationResponseJSON. Exit 0 verified, 1 refused, 2 unusable input.")
        @OptionGroup var input: File

        func run() async throws {
            try VerifyCommand.finish(await WebAuthnDebugger.authentication(try input.read()))
        }
    }

    /// `hale verify appattest-attestation FILE`.
    struct AppAttestAttestation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appattest-attestation",
            abstract:
                "Verify an App Attest attestation: {attestation, keyId, clientDataHash or challenge, teamID, bundleID, environment, at?, rootCertificate?}. Exit 0 verified, 1 refused, 2 unusable input."
        )
        @OptionGroup var input: File

        func run() async throws {
            try VerifyCommand.finish(await IntegrityDebugger.appAttestAttestation(try input.read()))
        }
    }

    /// `hale verify appattest-assertion FILE`.
    struct AppAttestAssertion: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appattest-assertion",
            abstract:
                "Verify an App Attest assertion: {assertion, publicKey, clientDataHash or clientData, teamID, bundleID, previousCounter}. Exit 0 verified, 1 refused, 2 unusable input."
        )
        @OptionGroup var input: File

        func run() async throws {
            try VerifyCommand.finish(await IntegrityDebugger.appAttestAssertion(try input.read()))
        }
    }

    /// `hale verify play-integrity FILE`.
    struct PlayIntegrity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play-integrity",
            abstract:
                "Verify a Play Integrity token: {token, decryptionKey, verificationKey, packageName, nonce, certificateDigests, at?}. Exit 0 verified, 1 refused, 2 unusable input."
        )
        @OptionGroup var input: File

        func run() async throws {
            try VerifyCommand.finish(await IntegrityDebugger.playIntegrity(try input.read()))
        }
    }

    static func finish(_ outcome: WebAuthnDebugger.Outcome) throws {
        print(outcome.json)
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }
}
