import Foundation
import Vapor

/// `POST /api/v1/admin/webhooks/endpoints`.
struct CreateWebhookEndpointRequest: StrictRequestBody {
    static let allowedFields: Set<String> = ["url", "eventTypes", "description"]

    let url: String?
    let eventTypes: [String]?
    let description: String?
}

/// An endpoint as the admin API shows it; its secret never, after it was made.
struct WebhookEndpointResponse: Content {
    let id: String
    let url: String
    let description: String
    let eventTypes: [String]
    let createdAt: String
    let previousSecretUntil: String?

    init(_ endpoint: WebhookEndpoint) {
        id = endpoint.id.uuidString.lowercased()
        url = endpoint.url
        description = endpoint.description
        eventTypes = endpoint.eventTypes
        createdAt = ISO8601.string(endpoint.createdAt)
        previousSecretUntil = endpoint.previousSecretUntil.map(ISO8601.string)
    }
}

/// The endpoint just made, with its `whsec_` secret: shown this once.
struct CreatedWebhookEndpointResponse: Content {
    let endpoint: WebhookEndpointResponse
    let secret: String
}

/// `GET /api/v1/admin/webhooks/endpoints`.
struct WebhookEndpointsResponse: Content {
    let endpoints: [WebhookEndpointResponse]
}

/// `POST /api/v1/admin/webhooks/endpoints/{endpointID}/rotate-secret`.
struct RotatedWebhookSecretResponse: Content {
    let secret: String
    let previousSecretUntil: String
}

/// `POST /api/v1/admin/webhooks/endpoints/{endpointID}/test`.
struct WebhookTestResponse: Content {
    let messageId: String
}

/// A delivery with its attempts.
struct WebhookDeliveryResponse: Content {
    struct Attempt: Content {
        let attemptedAt: String
        let statusCode: Int?
        let error: String?
        let milliseconds: Int
    }

    let id: Int64
    let endpointId: String
    let messageId: String
    let eventType: String
    let accountId: String?
    let status: String
    let attempts: Int
    let nextAttemptAt: String?
    let lastStatusCode: Int?
    let lastError: String?
    let createdAt: String
    let finishedAt: String?
    let history: [Attempt]

    init(_ delivery: WebhookDelivery) {
        id = delivery.id
        endpointId = delivery.endpointId.uuidString.lowercased()
        messageId = delivery.messageId
        eventType = delivery.eventType
        accountId = delivery.accountId?.uuidString.lowercased()
        status = delivery.status
        attempts = delivery.attempts
        nextAttemptAt = delivery.status == "pending" ? ISO8601.string(delivery.nextAttemptAt) : nil
        lastStatusCode = delivery.lastStatusCode
        lastError = delivery.lastError
        createdAt = ISO8601.string(delivery.createdAt)
        finishedAt = delivery.finishedAt.map(ISO8601.string)
        history = delivery.history.map {
            Attempt(
                attemptedAt: ISO8601.string($0.attemptedAt), statusCode: $0.statusCode, error: $0.error,
                milliseconds: $0.milliseconds)
        }
    }
}

/// `GET /api/v1/admin/webhooks/deliveries`.
struct WebhookDeliveriesResponse: Content {
    let deliveries: [WebhookDeliveryResponse]
}
