import ByteEncoding
import Foundation

/// An account's daily totals as a FHIR R4 `Bundle` of type `collection`: an `Observation` per day and activity type
/// (LOINC-coded, UCUM units), and for each day with attested data a `Provenance` naming the attested app instances
/// and carrying Hale's signed statement. Valid against the FHIR R4 JSON schema (`FHIRDocumentTests`).
struct FHIRBundle: Encodable {
    let resourceType = "Bundle"
    let type = "collection"
    let timestamp: String
    let entry: [Entry]

    struct Entry: Encodable {
        let fullUrl: String
        let resource: Resource
    }

    enum Resource: Encodable {
        case observation(Observation)
        case provenance(Provenance)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .observation(let observation): try observation.encode(to: encoder)
            case .provenance(let provenance): try provenance.encode(to: encoder)
            }
        }
    }

    struct Coding: Encodable {
        let system: String
        let code: String
        let display: String
    }

    struct Concept: Encodable {
        let coding: [Coding]
        var text: String? = nil
    }

    struct Reference: Encodable {
        var reference: String? = nil
        var identifier: Identifier? = nil
        var display: String? = nil
    }

    struct Identifier: Encodable {
        let system: String
        let value: String
    }

    struct Observation: Encodable {
        let resourceType = "Observation"
        let id: String
        let status = "final"
        let category = [
            Concept(
                coding: [
                    Coding(
                        system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "activity",
                        display: "Activity")
                ])
        ]
        let code: Concept
        let subject: Reference
        let effectivePeriod: Period
        let issued: String
        let valueQuantity: Quantity
    }

    struct Period: Encodable {
        let start: String
        let end: String
    }

    struct Quantity: Encodable {
        let value: Double
        let unit: String
        let system = "http://unitsofmeasure.org"
        let code: String
    }

    struct Provenance: Encodable {
        let resourceType = "Provenance"
        let id: String
        let target: [Reference]
        let occurredPeriod: Period
        let recorded: String
        let agent: [Agent]
        let signature: [Signature]
    }

    struct Agent: Encodable {
        let type: Concept
        let who: Reference
    }

    struct Signature: Encodable {
        let type = [
            Coding(
                system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.5", display: "Verification Signature")
        ]
        let when: String
        let who: Reference
        let sigFormat = "application/jose"
        /// The statement's compact JWS, base64.
        let data: String
    }

    /// LOINC's code for a daily total of `type`, its display, and the UCUM unit of the value given.
    static func coding(of type: HealthSampleType) -> (code: String, display: String, unit: String, ucum: String)? {
        switch type {
        case .steps: ("41950-7", "Number of steps in 24 hour Measured", "steps/day", "/d")
        case .distance: ("55430-3", "Walking distance unspecified time Pedometer", "m", "m")
        case .calories: ("41981-2", "Calories burned", "kcal", "kcal")
        case .activeMinutes: ("55411-3", "Exercise duration", "min", "min")
        default: nil
        }
    }

    init(_ days: HealthDays) {
        timestamp = ISO8601.string(days.madeAt)
        let subject = Reference(
            identifier: Identifier(system: days.issuer + "/accounts", value: days.account.description))
        var entries: [Entry] = []
        for day in days.days {
            var targets: [Reference] = []
            for (type, value) in day.totals {
                guard let coding = Self.coding(of: type) else { continue }
                let url = "urn:uuid:" + UUID().uuidString.lowercased()
                let observation = Observation(
                    id: "\(type.rawValue.replacingOccurrences(of: "_", with: "-"))-\(day.day)",
                    code: Concept(
                        coding: [Coding(system: "http://loinc.org", code: coding.code, display: coding.display)]),
                    subject: subject, effectivePeriod: Period(start: day.start, end: day.end),
                    issued: timestamp,
                    valueQuantity: Quantity(
                        value: type == .activeMinutes ? value / 60 : value, unit: coding.unit, code: coding.ucum))
                entries.append(Entry(fullUrl: url, resource: .observation(observation)))
                targets.append(Reference(reference: url))
            }
            if let signed = day.provenance, !targets.isEmpty {
                entries.append(
                    Entry(
                        fullUrl: "urn:uuid:" + UUID().uuidString.lowercased(),
                        resource: .provenance(Self.provenance(signed, of: day, targets: targets, issuer: days.issuer))))
            }
        }
        entry = entries
    }

    /// The day's provenance: Hale verified what the attested app instances sent, and signed it.
    static func provenance(
        _ signed: ProvenanceStatements.Signed, of day: HealthDays.Day, targets: [Reference], issuer: String
    ) -> Provenance {
        let recorded = ISO8601.string(signed.claims.iat.value)
        let hale = Reference(display: "Hale at \(issuer)")
        var agents = [
            Agent(
                type: Concept(
                    coding: [
                        Coding(
                            system: "http://terminology.hl7.org/CodeSystem/provenance-participant-type",
                            code: "verifier", display: "Verifier")
                    ]), who: hale)
        ]
        for source in signed.claims.sources {
            let instance =
                source.keyId.map { "App Attest key \($0)" }
                ?? "Play Integrity, version \(source.appVersion ?? "unknown")"
            agents.append(
                Agent(
                    type: Concept(
                        coding: [
                            Coding(
                                system: "http://terminology.hl7.org/CodeSystem/provenance-participant-type",
                                code: "author", display: "Author")
                        ]),
                    who: Reference(
                        identifier: Identifier(system: "urn:hale:\(source.platform):app", value: source.appId),
                        display: "\(source.platform) app \(source.appId), \(instance)")))
        }
        return Provenance(
            id: "provenance-\(day.day)", target: targets, occurredPeriod: Period(start: day.start, end: day.end),
            recorded: recorded, agent: agents,
            signature: [
                Signature(when: recorded, who: hale, data: Data(signed.statement.utf8).base64EncodedString())
            ])
    }
}
