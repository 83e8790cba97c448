import Foundation

/// A device in the account's export, with its keys and which gateways it holds a push token for; never the token.
struct ExportedDeviceResponse: Encodable {
    struct PushToken: Encodable {
        let provider: String
        let updatedAt: Date?
    }

    let id: RecordID
    let name: String
    let deviceType: String
    let active: Bool
    let createdAt: Date
    let lastUsedAt: Date?
    let lastIpRange: String?
    let deactivatedAt: Date?
    let pushTokens: [PushToken]
    let keys: [AccountRecords.DeviceKey]

    init(_ device: AccountRecords.Device, keys: [AccountRecords.DeviceKey]) {
        id = device.id
        name = device.name
        deviceType = device.deviceType
        active = device.deactivatedAt == nil
        createdAt = device.createdAt
        lastUsedAt = device.lastUsedAt
        lastIpRange = device.lastIpRange
        deactivatedAt = device.deactivatedAt
        pushTokens =
            (device.hasFcmToken ? [PushToken(provider: "fcm", updatedAt: device.pushTokenUpdatedAt)] : [])
            + (device.hasApnsToken ? [PushToken(provider: "apns", updatedAt: device.pushTokenUpdatedAt)] : [])
        self.keys = keys.filter { $0.deviceId.rawValue == device.id.rawValue }
    }
}

/// The fitness challenges in the account's export: those it created, and its memberships with their progress.
struct ExportedFitnessChallengesResponse: Encodable {
    struct Created: Encodable {
        let id: RecordID
        let name: String
        let type: String
        let goal: Double
        let startDate: String
        let endDate: String
        let visibility: String
        let includesUserEntered: Bool
        /// A verified challenge's kinds of device; absent for another.
        let verifiedSources: [String]?
        let createdAt: Date
    }

    struct Membership: Encodable {
        let challengeId: RecordID
        let name: String
        let type: String
        let goal: Double
        let startDate: String
        let endDate: String
        let joinedAt: Date
        let leftAt: Date?
        let progress: Double
        let verified: Bool
        let excludedSamples: Int
        let updatedAt: Date
    }

    let created: [Created]
    let memberships: [Membership]

    init(_ records: AccountRecords) {
        func date(_ day: Int) -> String { LocalDate(dayNumber: day).description }
        created = records.createdChallenges.map {
            Created(
                id: $0.id, name: $0.name, type: $0.type, goal: $0.goal, startDate: date($0.startDay),
                endDate: date($0.endDay), visibility: $0.visibility, includesUserEntered: $0.includesUserEntered,
                verifiedSources: FitnessChallenge.Verification(stored: $0.verifiedSources).map { verification in
                    DeviceClass.allCases.filter(verification.sources.contains).map(\.rawValue)
                }, createdAt: $0.createdAt)
        }
        memberships = records.memberships.map {
            Membership(
                challengeId: $0.challengeId, name: $0.name, type: $0.type, goal: $0.goal,
                startDate: date($0.startDay), endDate: date($0.endDay), joinedAt: $0.joinedAt, leftAt: $0.leftAt,
                progress: $0.progress, verified: $0.verified, excludedSamples: $0.excludedSamples,
                updatedAt: $0.updatedAt)
        }
    }
}
