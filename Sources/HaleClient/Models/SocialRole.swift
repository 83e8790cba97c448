extension HaleClient {
    /// Who signs in socially (seed 003): a client, or a cleaner with the profile the cleaner app collects.
    public enum SocialRole: Sendable, Hashable {
        /// Someone who books cleanings.
        case client
        /// Someone who cleans, with their profile.
        case cleaner(CleanerProfile)

        var name: String {
            switch self {
            case .client: "client"
            case .cleaner: "cleaner"
            }
        }

        var profile: CleanerProfile? {
            if case .cleaner(let profile) = self { return profile }
            return nil
        }
    }

    /// A cleaner's profile, as seed 003's `additionalData`.
    public struct CleanerProfile: Sendable, Hashable, Encodable {
        /// A day of the week.
        public enum Day: String, Sendable, Hashable, Encodable, CaseIterable {
            /// Monday.
            case monday
            /// Tuesday.
            case tuesday
            /// Wednesday.
            case wednesday
            /// Thursday.
            case thursday
            /// Friday.
            case friday
            /// Saturday.
            case saturday
            /// Sunday.
            case sunday
        }

        /// A part of the day.
        public enum TimeSlot: String, Sendable, Hashable, Encodable, CaseIterable {
            /// Morning.
            case morning
            /// Afternoon.
            case afternoon
            /// Evening.
            case evening
        }

        /// An E.164 phone number, such as `+962792002802`.
        public var phone: String
        /// The days they work.
        public var availableDays: [Day]
        /// The parts of the day they work.
        public var timeSlots: [TimeSlot]
        /// At most this many hours a week (1–168).
        public var maxHoursPerWeek: Int
        /// Whether they take urgent offers.
        public var acceptsUrgentOffers: Bool
        /// Years of experience (0–100).
        public var yearsOfExperience: Int
        /// Whether they bring supplies.
        public var hasCleaningSupplies: Bool
        /// Whether they work with pets around.
        public var comfortableWithPets: Bool
        /// How far they travel, in kilometres (1–1000).
        public var serviceRadius: Int
        /// Accepting the terms is required.
        public var agreedToTerms = true

        /// A profile.
        public init(
            phone: String, availableDays: [Day], timeSlots: [TimeSlot], maxHoursPerWeek: Int, acceptsUrgentOffers: Bool,
            yearsOfExperience: Int, hasCleaningSupplies: Bool, comfortableWithPets: Bool, serviceRadius: Int
        ) {
            self.phone = phone
            self.availableDays = availableDays
            self.timeSlots = timeSlots
            self.maxHoursPerWeek = maxHoursPerWeek
            self.acceptsUrgentOffers = acceptsUrgentOffers
            self.yearsOfExperience = yearsOfExperience
            self.hasCleaningSupplies = hasCleaningSupplies
            self.comfortableWithPets = comfortableWithPets
            self.serviceRadius = serviceRadius
        }
    }
}
