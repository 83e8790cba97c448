import DeviceKeys
import Testing

/// Expects `body` to throw a ``DeviceKeyError`` with `code`.
///
/// `body` is untyped: without the FullTypedThrows feature a closure's thrown type is inferred as `any Error`.
func expectRejection(
    _ code: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as DeviceKeyError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), but \(error) was thrown", sourceLocation: sourceLocation)
    }
}
