import DeviceIntegrity
import Testing

/// Expects `body` to throw `expected`.
///
/// `body` is untyped: without the FullTypedThrows feature a closure's thrown type is inferred as `any Error`.
func expectRejection(
    _ expected: AppAttestError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected \(expected.code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as AppAttestError {
        #expect(error.code == expected.code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected.code), but \(error) was thrown", sourceLocation: sourceLocation)
    }
}
