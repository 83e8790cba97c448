import Metrics
import Prometheus
import Synchronization

/// The process's metrics registry, exported at `/metrics`.
///
/// swift-metrics has one backend per process, so this is the single process-wide value in Hale: every application in
/// the process (the tests build many) reports into the same registry.
enum HaleMetrics {
    static let registry = PrometheusCollectorRegistry()
    private static let bootstrapped = Mutex(false)

    static func bootstrapOnce() {
        bootstrapped.withLock { done in
            guard !done else { return }
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            done = true
        }
    }
}
