import HealthSamples
import Testing

@testable import HaleServer

/// A refused value carries its field and rule; each surface words it in its seed's terms, in its error renderer.
@Suite("Invalid input, worded by each surface")
struct InvalidInputWordingTests {
    static func message(_ renderer: any ErrorRenderer, _ field: String, _ rule: InvalidInput.Rule) -> String {
        renderer.domainError(for: InvalidInput(field, rule)).message
    }

    @Test(arguments: [
        (InvalidInput.Rule.required, "limit is required"),
        (.oneOf(["initial", "manual", "background"]), "limit must be one of: initial, manual, background"),
        (.between(1, 100), "limit must be 1 to 100"),
        (.above(0), "limit must be a number above 0"),
        (.above(2.5), "limit must be a number above 2.5"),
        (.notNegative, "limit must be a number of zero or more"),
        (.notBefore("startDate"), "limit must not be before startDate"),
        (.notAfter("endDate"), "limit must not be after endDate"),
        (.notInFuture, "limit must not be in the future"),
        (.day, "limit must be a date as YYYY-MM-DD"),
        (.form("the 6 digits mailed to the address"), "limit must be the 6 digits mailed to the address"),
        (.notEnabled, "limit is not enabled on this server"),
        (.described("A fitness challenge lasts at most 366 days"), "A fitness challenge lasts at most 366 days"),
    ])
    func halesOwnWordingNamesTheFieldAndTheRule(rule: InvalidInput.Rule, message: String) {
        #expect(Self.message(CoreErrorRenderer(), "limit", rule) == message)
        #expect(InvalidInput("limit", rule).message == message)
    }

    @Test func aTextRuleIsWordedAsTheRuleWordsItself() {
        #expect(
            Self.message(CoreErrorRenderer(), "name", .text(.name)) == TextRule.name.message(field: "name"))
    }

    @Test func seed001WordsChoicesAndDaysAsClassValidatorDoes() {
        let nest = NestErrorRenderer()
        #expect(
            Self.message(nest, "period", .oneOf(["day", "week", "month"]))
                == "period must be one of the following values: day, week, month")
        #expect(
            Self.message(nest, "startDate", .day) == "startDate must be a valid ISO 8601 date string (YYYY-MM-DD)")
        #expect(Self.message(nest, "startDate", .notAfter("endDate")) == "startDate must not be after endDate")
    }

    @Test func seed000NamesTheDaysValuesByTheirPlaceInTheBody() {
        let daily = DailySyncErrorRenderer()
        #expect(Self.message(daily, "steps", .notNegative) == "data.steps must be a number of zero or more")
        #expect(Self.message(daily, "date", .required) == "data.date is required")
        #expect(
            Self.message(daily, "platform", .oneOf(["apple", "google"])) == "platform must be one of: apple, google")
    }

    @Test func seed003PointsAtTheBodysAttributeAsLaravelDoes() {
        let jsonAPI = JSONAPIErrorRenderer()
        let provider = jsonAPI.domainError(for: InvalidInput("provider", .notEnabled))
        #expect(provider.code == .validationFailed && provider.kind == .invalidFields)
        #expect(
            provider.fieldErrors == [
                .init(pointer: "/data/attributes/provider", message: "is not enabled on this server.")
            ])
        let role = jsonAPI.domainError(for: InvalidInput("role", .described("This account is registered as client.")))
        #expect(
            role.fieldErrors == [
                .init(pointer: "/data/attributes/role", message: "This account is registered as client.")
            ])
        let header = jsonAPI.domainError(for: InvalidInput("X-Installation-Id", .between(1, 64)))
        #expect(header == .invalidRequest("X-Installation-Id must be 1 to 64"), "not an attribute: Hale's own words")
    }

    @Test func everyWordingIsAnInvalidRequest() {
        for renderer: any ErrorRenderer in [CoreErrorRenderer(), NestErrorRenderer(), DailySyncErrorRenderer()] {
            let error = renderer.domainError(for: InvalidInput("limit", .between(1, 5)))
            #expect(error.code == .invalidRequest && error.kind == .invalidInput)
        }
    }

    @Test func parsingNamesEveryValueTheTypeHas() throws {
        #expect(try InvalidInput.parse("manual", as: HealthSyncLog.SyncType.self, field: "syncType") == .manual)
        #expect(throws: InvalidInput("syncType", .oneOf(HealthSyncLog.SyncType.allCases.map(\.rawValue)))) {
            try InvalidInput.parse("weekly", as: HealthSyncLog.SyncType.self, field: "syncType")
        }
        #expect(throws: InvalidInput("syncType", .required)) {
            try InvalidInput.parse(nil, as: HealthSyncLog.SyncType.self, field: "syncType")
        }
    }
}
