import Foundation

extension HaleConfiguration {
    /// How events reach the app backend's endpoints.
    public struct Webhooks: Sendable {
        /// How often each instance looks for deliveries that are due.
        public var deliveryInterval: Duration
        /// The waits before each retry; after the last, a delivery fails.
        public var retrySchedule: [Duration]
        /// How long a delivery waits for an answer.
        public var timeout: Duration
        /// How long a rotated-out secret still signs.
        public var secretOverlap: Duration
        /// How long events and their deliveries are kept.
        public var retention: Duration
    }

    static func webhooks(_ values: ConfigValues) throws -> Webhooks {
        let schedule = try values.list("webhooks.retrySchedule").map { text in
            guard let wait = ConfigDuration.parse(text), wait > .zero, wait <= .seconds(7 * 86_400) else {
                throw ConfigError(
                    "webhooks.retrySchedule must list durations of at most 7d, such as 5s,5m,30m, not \"\(text)\"")
            }
            return wait
        }
        guard schedule.count <= 30 else { throw ConfigError("webhooks.retrySchedule may list at most 30 waits") }
        let timeout = try values.duration("webhooks.timeout")
        guard timeout <= .seconds(120) else { throw ConfigError("webhooks.timeout must be at most 120s") }
        return Webhooks(
            deliveryInterval: try values.duration("webhooks.deliveryInterval"), retrySchedule: schedule,
            timeout: timeout, secretOverlap: try values.duration("webhooks.secretOverlap"),
            retention: try values.duration("webhooks.retention"))
    }
}
