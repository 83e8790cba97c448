import HaleServer
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Exports traces by OTLP/HTTP while `hale serve` runs, when `tracing.otlpEndpoint` is set: the tracer is
/// bootstrapped before the application starts, and stopping flushes the spans still queued. Only the `hale` target
/// links swift-otel; HaleServer speaks the tracing API alone, so the libraries and fuzzers build without it.
struct TraceExport {
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts exporting, or nil when tracing is off.
    static func start(_ settings: HaleConfiguration.Traces) throws -> TraceExport? {
        guard let endpoint = settings.otlpEndpoint else { return nil }
        let logger = Logger(label: "hale.tracing")
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = endpoint.absoluteString
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        if let sampler = OTel.Configuration.TracesConfiguration.SamplerConfiguration.parentBasedTraceIDRatio(
            ratio: settings.sampleRatio)
        {
            configuration.traces.sampler = sampler
        }
        configuration.propagators = [.traceContext]
        configuration.diagnosticLogger = .custom(logger)
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        let group = ServiceGroup(services: [backend.service], gracefulShutdownSignals: [], logger: logger)
        logger.info("exporting traces", metadata: ["endpoint": "\(endpoint.host ?? "")"])
        return TraceExport(group: group, running: Task { try await group.run() })
    }

    /// Sends what is queued and stops.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}
