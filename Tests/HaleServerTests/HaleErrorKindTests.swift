import Testing

@testable import HaleServer

/// A domain error's kind names no status; the HTTP layer maps each kind to the one status every surface answers.
@Suite("HaleError: kinds and their HTTP statuses")
struct HaleErrorKindTests {
    @Test(arguments: [
        (HaleError.Kind.invalidInput, 400), (.unauthenticated, 401), (.forbidden, 403), (.notFound, 404),
        (.conflict, 409), (.gone, 410), (.tooLarge, 413), (.unsupportedMediaType, 415), (.rangeNotSatisfiable, 416),
        (.invalidFields, 422), (.rateLimited, 429), (.internal, 500), (.unavailable, 503), (.insufficientStorage, 507),
    ])
    func eachKindHasOneStatus(kind: HaleError.Kind, status: Int) {
        #expect(kind.httpStatus == status)
        #expect(HaleError.Kind(httpStatus: status) == kind, "Vapor's own errors come back to the same kind")
    }

    @Test func aStatusNoKindNamesIsAnInvalidInput() {
        #expect(HaleError.Kind(httpStatus: 418) == .invalidInput)
    }

    @Test func onlyHalesOwnFailuresAreNotTheCallers() {
        let notTheCallers = HaleError.Kind.allCases.filter { !$0.isCallersFault }
        #expect(notTheCallers == [.internal, .unavailable, .insufficientStorage])
    }
}
