import HealthSamples
import Testing

@testable import HaleServer

/// Each surface words the same implausibility in its seed's terms, in its error renderer.
@Suite("Implausible health data, worded by each surface")
struct ImplausibleWordingTests {
    static func message(_ renderer: any ErrorRenderer, _ reason: Implausibility) -> String {
        renderer.domainError(for: ImplausibleHealthData(reason: reason)).message
    }

    @Test func halesOwnWordingNamesTheLimit() {
        let core = CoreErrorRenderer()
        #expect(
            Self.message(core, .goalTooHigh(.steps, largest: 300_000, maximumPerDay: 100_000))
                == "goal must be at most 300000: 100000 steps a day over the challenge's days")
        #expect(
            Self.message(core, .valueTooHigh(.distance, maximumPerDay: 250_000))
                == "distance is implausibly high: at most 250000 m a day")
        #expect(Self.message(core, .lastsTooLong(longest: 86_400)) == "A sample lasts at most 1 day")
        #expect(Self.message(core, .startsTooEarly(oldest: 366 * 86_400)) == "A sample starts within the last 366 days")
        #expect(Self.message(core, .startsTooLate(newest: 3_600)) == "A sample starts at most 1 hour ahead")
    }

    @Test(arguments: [
        (HealthSampleType.steps, "Step count is implausibly high"), (.calories, "Calorie count is implausibly high"),
        (.distance, "Distance is implausibly high"), (.activeMinutes, "Duration is implausibly high"),
    ])
    func seed001WordsEachMeasureAsItsDocumentDoes(type: HealthSampleType, message: String) {
        #expect(Self.message(NestErrorRenderer(), .valueTooHigh(type, maximumPerDay: 1)) == message)
    }

    @Test func seed000NamesTheBodysField() {
        #expect(
            Self.message(DailySyncErrorRenderer(), .valueTooHigh(.steps, maximumPerDay: 100_000))
                == "data.steps is implausibly high: at most 100000 steps a day")
    }

    @Test func everyWordingIsAnInvalidRequest() {
        let error = CoreErrorRenderer().domainError(for: ImplausibleHealthData(reason: .startsTooLate(newest: 60)))
        #expect(error.code == .invalidRequest && error.kind == .invalidInput)
    }
}
