import HealthSamples

/// One sample of `POST /api/v1/health/sync` (seed 004), declared once in HealthSamples for the SDK and the server.
public typealias HealthSyncSample = HealthSamples.HealthSyncSample
