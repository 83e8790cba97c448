// HaleServer speaks in the pure health types (`LocalDate`, sample rules); re-export them so its users need one import.
@_exported import HealthSamples
