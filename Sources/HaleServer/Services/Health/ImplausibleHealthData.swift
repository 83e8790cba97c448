/// Health data refused as implausible, with the limit it broke. It names no field and no status: each surface's
/// error renderer words it in its seed's terms (`ErrorRenderer.domainError(for:)`).
public struct ImplausibleHealthData: Error, Sendable, Equatable {
    /// The limit broken.
    public let reason: Implausibility

    /// Throws when `reason` is not nil.
    static func check(_ reason: Implausibility?) throws(ImplausibleHealthData) {
        if let reason { throw ImplausibleHealthData(reason: reason) }
    }
}
