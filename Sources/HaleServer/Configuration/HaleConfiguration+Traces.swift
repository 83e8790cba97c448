import Foundation

extension HaleConfiguration {
    /// Where `hale serve` exports traces (OpenTelemetry, OTLP/HTTP), and how many.
    public struct Traces: Sendable {
        /// The collector's traces URL; nil: tracing is off.
        public var otlpEndpoint: URL?
        /// The `service.name` resource attribute.
        public var serviceName: String
        /// The share of root traces kept, 0 to 1.
        public var sampleRatio: Double
    }

    static func tracing(_ values: ConfigValues) throws -> Traces {
        let endpoint = try values.string("tracing.otlpEndpoint")
        var url: URL?
        if !endpoint.isEmpty {
            guard let parsed = URL(string: endpoint), ["http", "https"].contains(parsed.scheme),
                parsed.host?.isEmpty == false
            else {
                throw ConfigError(
                    "tracing.otlpEndpoint must be an http or https URL such as http://127.0.0.1:4318/v1/traces")
            }
            url = parsed
        }
        let ratioText = try values.string("tracing.sampleRatio")
        guard let ratio = Double(ratioText), (0...1).contains(ratio) else {
            throw ConfigError("tracing.sampleRatio must be a number from 0 to 1, not \"\(ratioText)\"")
        }
        let name = try values.string("tracing.serviceName")
        guard !name.isEmpty, name.utf8.count <= 128 else {
            throw ConfigError("tracing.serviceName must be 1 to 128 bytes")
        }
        return Traces(otlpEndpoint: url, serviceName: name, sampleRatio: ratio)
    }
}
