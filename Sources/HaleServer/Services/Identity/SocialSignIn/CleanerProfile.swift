import Foundation

/// What a cleaner tells Hygeia (seed 003) when registering, validated to the document's ranges.
public struct CleanerProfile: Sendable, Equatable, Codable {
    /// A day of the week a cleaner works.
    public enum Day: String, Sendable, Codable, CaseIterable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday
    }

    /// A part of the day a cleaner works.
    public enum TimeSlot: String, Sendable, Codable, CaseIterable {
        case morning, afternoon, evening
    }

    /// The phone number, E.164.
    public var phone: String
    /// The days available, at least one, each once.
    public var availableDays: [Day]
    /// The time slots available, at least one, each once.
    public var timeSlots: [TimeSlot]
    /// 1–168.
    public var maxHoursPerWeek: Int
    /// Whether urgent offers are welcome.
    public var acceptsUrgentOffers: Bool
    /// 0–100.
    public var yearsOfExperience: Int
    /// Whether the cleaner brings supplies.
    public var hasCleaningSupplies: Bool
    /// Whether pets are fine.
    public var comfortableWithPets: Bool
    /// How far the cleaner travels, in km: 1–1000.
    public var serviceRadius: Int

    /// The ranges of seed 003's table.
    static let maxHoursPerWeekRange = 1...168
    static let yearsOfExperienceRange = 0...100
    static let serviceRadiusRange = 1...1000

    /// Whether the text is an E.164 number: `+`, a non-zero digit, then up to 14 more digits.
    static func isE164(_ phone: String) -> Bool {
        let digits = phone.utf8.dropFirst()
        return phone.utf8.first == UInt8(ascii: "+") && (2...15).contains(digits.count)
            && digits.first != UInt8(ascii: "0") && digits.allSatisfy { (0x30...0x39).contains($0) }
    }
}
