/// A unit of a health quantity, as HealthKit's `HKUnit.unitString` and Health Connect write them.
public enum HealthUnit: String, CaseIterable, Sendable {
    /// A count (`count`).
    case count
    /// Metres (`m`), canonical for distance.
    case meters = "m"
    /// Kilometres (`km`).
    case kilometers = "km"
    /// Centimetres (`cm`).
    case centimeters = "cm"
    /// Millimetres (`mm`).
    case millimeters = "mm"
    /// International miles (`mi`), 1609.344 m.
    case miles = "mi"
    /// International feet (`ft`), 0.3048 m.
    case feet = "ft"
    /// International yards (`yd`), 0.9144 m.
    case yards = "yd"
    /// International inches (`in`), 0.0254 m.
    case inches = "in"
    /// Kilocalories (`kcal`, or HealthKit's large calorie `Cal`), canonical for energy.
    case kilocalories = "kcal"
    /// Small calories (`cal`), 1/1000 kcal.
    case smallCalories = "cal"
    /// Kilojoules (`kJ`), 1/4.184 kcal (thermochemical calorie).
    case kilojoules = "kJ"
    /// Joules (`J`).
    case joules = "J"
    /// Seconds (`s`), canonical for time.
    case seconds = "s"
    /// Milliseconds (`ms`).
    case milliseconds = "ms"
    /// Minutes (`min`).
    case minutes = "min"
    /// Hours (`hr`, or `h`).
    case hours = "hr"
    /// Percent (`%` or `percent`); whether the number is a fraction or 0–100 depends on the provider.
    case percent = "%"

    /// The kind of quantity a unit measures; a value converts only between units of one dimension.
    public enum Dimension: Sendable {
        /// A number of things.
        case count
        /// A length.
        case length
        /// An energy.
        case energy
        /// A duration.
        case time
        /// A proportion.
        case percentage
    }

    /// Reads a unit string exactly as HealthKit or Health Connect writes it. Case-sensitive, as HealthKit is:
    /// `Cal` is a kilocalorie, `cal` a small calorie. `nil` for anything else.
    public init?(parsing symbol: String) {
        switch symbol {
        case "Cal": self = .kilocalories
        case "h": self = .hours
        case "percent": self = .percent
        default:
            guard let unit = Self(rawValue: symbol) else { return nil }
            self = unit
        }
    }

    /// What this unit measures.
    public var dimension: Dimension {
        switch self {
        case .count: .count
        case .meters, .kilometers, .centimeters, .millimeters, .miles, .feet, .yards, .inches: .length
        case .kilocalories, .smallCalories, .kilojoules, .joules: .energy
        case .seconds, .milliseconds, .minutes, .hours: .time
        case .percent: .percentage
        }
    }

    /// `value` in this unit expressed in its dimension's canonical unit (count, m, kcal, s, percent 0–100).
    ///
    /// Percentages depend on how the provider writes them, so `scale` (the provider's `percentScale`) says whether
    /// `value` is a fraction; other units ignore it.
    public func canonicalValue(of value: Double, percentScale scale: HealthProvider.PercentScale) -> Double {
        switch self {
        case .count, .meters, .kilocalories, .seconds: value
        case .kilometers: value * 1000
        case .centimeters: value / 100
        case .millimeters: value / 1000
        case .miles: value * 1609.344
        case .feet: value * 0.3048
        case .yards: value * 0.9144
        case .inches: value * 0.0254
        case .smallCalories: value / 1000
        case .kilojoules: value / 4.184
        case .joules: value / 4184
        case .milliseconds: value / 1000
        case .minutes: value * 60
        case .hours: value * 3600
        case .percent: scale == .fraction ? value * 100 : value
        }
    }
}
