import Foundation

/// An account's daily totals as Open mHealth data points: `step-count` 3.0 for steps, and `physical-activity` 1.2 for
/// a day's distance and energy, each in a `data-point` 1.0 envelope whose header names the schema and says the data
/// was sensed. Valid against Open mHealth's schemas (`FHIRDocumentTests`).
struct OpenMHealthDataPoints: Encodable {
    var success = true
    let dataPoints: [DataPoint]

    struct DataPoint: Encodable {
        let header: Header
        let body: Body
    }

    struct Header: Encodable {
        let id: String
        let creation_date_time: String
        let schema_id: SchemaID
        let acquisition_provenance: AcquisitionProvenance
        let user_id: String
    }

    struct SchemaID: Encodable {
        let namespace = "omh"
        let name: String
        let version: String
    }

    struct AcquisitionProvenance: Encodable {
        let source_name: String
        let modality = "sensed"
    }

    enum Body: Encodable {
        case stepCount(StepCount)
        case physicalActivity(PhysicalActivity)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .stepCount(let body): try body.encode(to: encoder)
            case .physicalActivity(let body): try body.encode(to: encoder)
            }
        }
    }

    struct UnitValue: Encodable {
        let value: Double
        let unit: String
    }

    struct TimeFrame: Encodable {
        let time_interval: Interval
    }

    struct Interval: Encodable {
        let start_date_time: String
        let end_date_time: String
    }

    struct StepCount: Encodable {
        let step_count: UnitValue
        let effective_time_frame: TimeFrame
    }

    struct PhysicalActivity: Encodable {
        let activity_name = "daily activity"
        let effective_time_frame: TimeFrame
        let distance: UnitValue?
        let kcal_burned: UnitValue?
    }

    init(_ days: HealthDays) {
        let created = ISO8601.string(days.madeAt)
        var points: [DataPoint] = []
        for day in days.days {
            let frame = TimeFrame(time_interval: Interval(start_date_time: day.start, end_date_time: day.end))
            // Attested days say so: their source is what Hale's provenance statement names.
            let source = !day.attested ? "Hale" : "Hale (attested; see its provenance statement)"
            func header(_ name: String, _ version: String) -> Header {
                Header(
                    id: UUID().uuidString.lowercased(), creation_date_time: created,
                    schema_id: SchemaID(name: name, version: version),
                    acquisition_provenance: AcquisitionProvenance(source_name: source),
                    user_id: days.account.description)
            }
            let totals = Dictionary(day.totals.map { ($0.type, $0.value) }, uniquingKeysWith: { first, _ in first })
            if let steps = totals[.steps] {
                points.append(
                    DataPoint(
                        header: header("step-count", "3.0"),
                        body: .stepCount(
                            StepCount(
                                step_count: UnitValue(value: steps.rounded(), unit: "steps"),
                                effective_time_frame: frame))))
            }
            let distance = totals[.distance].map { UnitValue(value: $0, unit: "m") }
            let energy = totals[.calories].map { UnitValue(value: $0, unit: "kcal") }
            if distance != nil || energy != nil {
                points.append(
                    DataPoint(
                        header: header("physical-activity", "1.2"),
                        body: .physicalActivity(
                            PhysicalActivity(effective_time_frame: frame, distance: distance, kcal_burned: energy))))
            }
        }
        dataPoints = points
    }
}
