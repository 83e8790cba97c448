import Foundation
import Testing

@testable import HaleServer

@Suite("Configuration: tracing")
struct TracingConfigurationTests {
    static func tracing(_ settings: [String: String]) throws -> HaleConfiguration.Traces {
        var values = ConfigValues(settings)
        values["database.url"] = "sqlite:/tmp/unused.sqlite"
        return try HaleConfiguration(values).tracing
    }

    @Test("off unless an endpoint is set; the ratio and the name as given")
    func settings() throws {
        #expect(try Self.tracing([:]).otlpEndpoint == nil)
        let on = try Self.tracing([
            "tracing.otlpEndpoint": "http://127.0.0.1:4318/v1/traces", "tracing.sampleRatio": "0.25",
            "tracing.serviceName": "hale-eu",
        ])
        #expect(on.otlpEndpoint?.absoluteString == "http://127.0.0.1:4318/v1/traces")
        #expect(on.sampleRatio == 0.25 && on.serviceName == "hale-eu")
    }

    @Test(
        "a clear error for each bad value",
        arguments: [
            ("tracing.otlpEndpoint", "127.0.0.1:4318"), ("tracing.otlpEndpoint", "ftp://collector/v1/traces"),
            ("tracing.sampleRatio", "1.5"), ("tracing.sampleRatio", "half"), ("tracing.serviceName", ""),
        ])
    func refusals(key: String, value: String) {
        #expect(throws: ConfigError.self) { try Self.tracing([key: value]) }
    }
}
