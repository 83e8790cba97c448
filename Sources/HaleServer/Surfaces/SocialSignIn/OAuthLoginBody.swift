import Foundation
import StrictJSON

/// Seed 003's `POST /api/v1/auth/oauth/login` document, read the way its iOS and Android clients write it:
///
/// - `data.type` may be absent (the document's clients send none);
/// - service ids in relationships are numbers (as sent) or numeric strings (as JSON:API prescribes);
/// - `deviceTokens.data` is one `{attributes: {token}}` object (as sent) or an array of them.
///
/// Everything else that is unknown or out of range is refused with one error per field.
enum OAuthLoginBody {
    static let attributes: Set<String> = [
        "provider", "oauthToken", "role", "nonce", "authorizationCode", "additionalData",
    ]
    static let relationships: Set<String> = ["previousServices", "preferredServices", "deviceTokens"]
    static let cleanerFields: Set<String> = [
        "phone", "availableDays", "timeSlots", "maxHoursPerWeek", "acceptsUrgentOffers", "yearsOfExperience",
        "hasCleaningSupplies", "comfortableWithPets", "serviceRadius", "agreedToTerms",
    ]
    /// The guide's optional cleaner files. Hale keeps no identity documents or pictures, and a sign-in body that
    /// anyone may send is read whole into memory, so they are refused by name, with what to do instead.
    static let cleanerFiles: Set<String> = ["idCard", "avatar"]
    static let cleanerFileRefusal =
        "is a file, which Hale does not take: it keeps no identity documents or pictures. Sign in without it, "
        + "then upload the file to the app's own storage."
    static let providers = ["google", "apple", "facebook"]
    /// Provider tokens are JWTs or opaque access tokens of a few hundred bytes to a few kilobytes.
    static let maxTokenLength = 16_384
    static let maxDeviceTokens = 10
    static let maxServices = 50

    /// The validated request, or a 422 listing every invalid field.
    static func read(_ document: JSONValue) throws -> SocialSignInRequest {
        var reader = JSONAPIReader()
        let request = read(document, with: &reader)
        guard reader.errors.isEmpty, let request else { throw HaleError.validationFailed(reader.errors) }
        return request
    }

    private static func read(_ document: JSONValue, with reader: inout JSONAPIReader) -> SocialSignInRequest? {
        guard case .object(let top) = document else {
            reader.fail("", "The body must be a JSON:API document: an object with a data member.")
            return nil
        }
        reader.rejectUnknownMembers(of: top, at: "", known: ["data"])
        guard let data = reader.object(top["data"], at: "/data") else { return nil }
        reader.rejectUnknownMembers(of: data, at: "/data", known: ["type", "attributes", "relationships"])
        if let type = data["type"] { _ = reader.string(type, at: "/data/type") }
        guard let attributes = reader.object(data["attributes"], at: "/data/attributes") else { return nil }
        reader.rejectUnknownMembers(of: attributes, at: "/data/attributes", known: Self.attributes)
        let relationships = reader.object(data["relationships"], at: "/data/relationships", required: false) ?? [:]
        reader.rejectUnknownMembers(of: relationships, at: "/data/relationships", known: Self.relationships)

        let provider = reader.string(attributes["provider"], at: "/data/attributes/provider")
        if let provider, !providers.contains(provider) {
            reader.fail("/data/attributes/provider", "must be one of \(providers.joined(separator: ", ")).")
        }
        let token = reader.string(
            attributes["oauthToken"], at: "/data/attributes/oauthToken", maxLength: maxTokenLength)
        let nonce = reader.string(attributes["nonce"], at: "/data/attributes/nonce", required: false)
        let code = reader.string(
            attributes["authorizationCode"], at: "/data/attributes/authorizationCode", required: false, maxLength: 1024)
        if code != nil, let provider, provider != "apple" {
            reader.fail("/data/attributes/authorizationCode", "is only for the apple provider.")
        }
        let role = reader.choice(attributes["role"], at: "/data/attributes/role", as: SocialRole.self)
        let cleaner = readCleaner(attributes["additionalData"], role: role, with: &reader)
        let previous = readServices(relationships["previousServices"], named: "previousServices", with: &reader)
        let preferred = readServices(relationships["preferredServices"], named: "preferredServices", with: &reader)
        let deviceTokens = readDeviceTokens(relationships["deviceTokens"], with: &reader)
        guard let provider, let token, let role else { return nil }
        return SocialSignInRequest(
            provider: provider, token: token, nonce: nonce, authorizationCode: code, role: role, cleaner: cleaner,
            previousServices: previous, preferredServices: preferred, deviceTokens: deviceTokens)
    }

    private static func readCleaner(_ value: JSONValue?, role: SocialRole?, with reader: inout JSONAPIReader)
        -> CleanerProfile?
    {
        let pointer = "/data/attributes/additionalData"
        guard role == .cleaner else {
            if role == .client, value != nil { reader.fail(pointer, "is only for the cleaner role.") }
            return nil
        }
        guard let fields = reader.object(value, at: pointer) else { return nil }
        for name in cleanerFiles.sorted() where fields[name] != nil {
            reader.fail("\(pointer)/\(name)", cleanerFileRefusal)
        }
        reader.rejectUnknownMembers(of: fields, at: pointer, known: cleanerFields.union(cleanerFiles))
        let phone = reader.string(fields["phone"], at: "\(pointer)/phone", maxLength: 16)
        if let phone, !CleanerProfile.isE164(phone) {
            reader.fail("\(pointer)/phone", "must be an E.164 number such as +962792002802.")
        }
        let days = reader.choices(fields["availableDays"], at: "\(pointer)/availableDays", as: CleanerProfile.Day.self)
        let slots = reader.choices(fields["timeSlots"], at: "\(pointer)/timeSlots", as: CleanerProfile.TimeSlot.self)
        let hours = reader.integer(
            fields["maxHoursPerWeek"], at: "\(pointer)/maxHoursPerWeek", in: CleanerProfile.maxHoursPerWeekRange)
        let urgent = reader.boolean(fields["acceptsUrgentOffers"], at: "\(pointer)/acceptsUrgentOffers")
        let years = reader.integer(
            fields["yearsOfExperience"], at: "\(pointer)/yearsOfExperience", in: CleanerProfile.yearsOfExperienceRange)
        let supplies = reader.boolean(fields["hasCleaningSupplies"], at: "\(pointer)/hasCleaningSupplies")
        let pets = reader.boolean(fields["comfortableWithPets"], at: "\(pointer)/comfortableWithPets")
        let radius = reader.integer(
            fields["serviceRadius"], at: "\(pointer)/serviceRadius", in: CleanerProfile.serviceRadiusRange)
        if let agreed = reader.boolean(fields["agreedToTerms"], at: "\(pointer)/agreedToTerms"), !agreed {
            reader.fail("\(pointer)/agreedToTerms", "must be true: the terms must be accepted.")
        }
        guard let phone, CleanerProfile.isE164(phone), let days, let slots, let hours, let urgent, let years,
            let supplies, let pets, let radius
        else {
            return nil
        }
        return CleanerProfile(
            phone: phone, availableDays: days, timeSlots: slots, maxHoursPerWeek: hours, acceptsUrgentOffers: urgent,
            yearsOfExperience: years, hasCleaningSupplies: supplies, comfortableWithPets: pets,
            serviceRadius: radius)
    }

    /// `{"data": [{"type": "service", "id": 1}, …]}`; ids are positive, each once.
    private static func readServices(_ value: JSONValue?, named name: String, with reader: inout JSONAPIReader)
        -> [Int64]
    {
        let pointer = "/data/relationships/\(name)"
        guard let relationship = reader.object(value, at: pointer, required: false) else { return [] }
        reader.rejectUnknownMembers(of: relationship, at: pointer, known: ["data"])
        guard case .array(let items) = relationship["data"] else {
            reader.fail("\(pointer)/data", "must be an array of {\"type\": \"service\", \"id\": …}.")
            return []
        }
        guard items.count <= maxServices else {
            reader.fail("\(pointer)/data", "must name at most \(maxServices) services.")
            return []
        }
        var ids: [Int64] = []
        for (index, item) in items.enumerated() {
            let itemPointer = "\(pointer)/data/\(index)"
            guard let identifier = reader.object(item, at: itemPointer) else { continue }
            reader.rejectUnknownMembers(of: identifier, at: itemPointer, known: ["type", "id"])
            if let type = reader.string(identifier["type"], at: "\(itemPointer)/type"), type != "service" {
                reader.fail("\(itemPointer)/type", "must be \"service\".")
            }
            guard let id = serviceID(identifier["id"]) else {
                reader.fail("\(itemPointer)/id", "must be a positive whole number.")
                continue
            }
            if ids.contains(id) {
                reader.fail("\(itemPointer)/id", "repeats service \(id).")
            } else {
                ids.append(id)
            }
        }
        return ids
    }

    private static func serviceID(_ value: JSONValue?) -> Int64? {
        switch value {
        case .integer(let id) where id > 0: id
        case .string(let text): Int64(text).flatMap { $0 > 0 && String($0) == text ? $0 : nil }
        default: nil
        }
    }

    /// `{"data": {"attributes": {"token": …}}}` as the document's clients send it, or an array of such objects.
    private static func readDeviceTokens(_ value: JSONValue?, with reader: inout JSONAPIReader) -> [String] {
        let pointer = "/data/relationships/deviceTokens"
        guard let relationship = reader.object(value, at: pointer, required: false) else { return [] }
        reader.rejectUnknownMembers(of: relationship, at: pointer, known: ["data"])
        let items: [(JSONValue, String)]
        switch relationship["data"] {
        case .object(let object)?: items = [(.object(object), "\(pointer)/data")]
        case .array(let array)?: items = array.enumerated().map { ($1, "\(pointer)/data/\($0)") }
        default:
            reader.fail("\(pointer)/data", "must be {\"attributes\": {\"token\": …}} or an array of them.")
            return []
        }
        guard items.count <= maxDeviceTokens else {
            reader.fail("\(pointer)/data", "must hold at most \(maxDeviceTokens) tokens.")
            return []
        }
        var tokens: [String] = []
        for (item, itemPointer) in items {
            guard let resource = reader.object(item, at: itemPointer) else { continue }
            reader.rejectUnknownMembers(of: resource, at: itemPointer, known: ["type", "attributes"])
            guard let attributes = reader.object(resource["attributes"], at: "\(itemPointer)/attributes") else {
                continue
            }
            reader.rejectUnknownMembers(of: attributes, at: "\(itemPointer)/attributes", known: ["token"])
            if let token = reader.text(attributes["token"], at: "\(itemPointer)/attributes/token", rule: .pushToken),
                !tokens.contains(token)
            {
                tokens.append(token)
            }
        }
        return tokens
    }
}
