import DeviceIntegrity
import Testing

/// Expects `body` to throw `expected`.
func expectPlayRejection(
    _ expected: PlayIntegrityError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(expected.code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as PlayIntegrityError {
        #expect(error.code == expected.code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected.code), but \(error) was thrown", sourceLocation: sourceLocation)
    }
}
