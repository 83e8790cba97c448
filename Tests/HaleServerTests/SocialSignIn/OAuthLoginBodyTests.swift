import Foundation
import StrictJSON
import Testing

@testable import HaleServer

/// Seed 003's request documents, as its clients write them, and one test per reason a document is refused.
@Suite("Seed 003: the oauth/login document")
struct OAuthLoginBodyTests {
    static let clientDocument = """
        {"data": {"attributes": {"provider": "google", "oauthToken": "eyJ.a.b", "role": "client"},
          "relationships": {"deviceTokens": {"data": {"attributes": {"token": "your-firebase-device-token"}}}}}}
        """

    static let cleanerDocument = """
        {"data": {"attributes": {"provider": "google", "oauthToken": "eyJ.a.b", "role": "cleaner",
            "additionalData": {"phone": "+962792002802", "availableDays": ["monday", "tuesday", "wednesday"],
              "timeSlots": ["morning", "afternoon"], "maxHoursPerWeek": 40, "acceptsUrgentOffers": true,
              "yearsOfExperience": 3, "hasCleaningSupplies": true, "comfortableWithPets": true,
              "serviceRadius": 15, "agreedToTerms": true}},
          "relationships": {
            "previousServices": {"data": [{"type": "service", "id": 1}, {"type": "service", "id": 2}]},
            "preferredServices": {"data": [{"type": "service", "id": 1}, {"type": "service", "id": 3}]},
            "deviceTokens": {"data": {"attributes": {"token": "firebase-device-token"}}}}}}
        """

    static func read(_ text: String) throws -> SocialSignInRequest {
        try OAuthLoginBody.read(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }

    /// The pointers of the field errors a document gets.
    static func pointers(_ text: String) -> [String] {
        do {
            _ = try read(text)
            return []
        } catch let error as HaleError {
            #expect(error.status == 422)
            return error.fieldErrors.map(\.pointer)
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    /// The cleaner document with one additionalData member replaced.
    static func cleaner(_ member: String, _ json: String) -> String {
        let fields = [
            "phone": "\"+962792002802\"", "availableDays": "[\"monday\"]", "timeSlots": "[\"morning\"]",
            "maxHoursPerWeek": "40", "acceptsUrgentOffers": "true", "yearsOfExperience": "3",
            "hasCleaningSupplies": "true", "comfortableWithPets": "true", "serviceRadius": "15",
            "agreedToTerms": "true",
        ].merging([member: json]) { $1 }
        let members = fields.keys.sorted().map { "\"\($0)\": \(fields[$0]!)" }.joined(separator: ", ")
        return """
            {"data": {"attributes": {"provider": "apple", "oauthToken": "t", "role": "cleaner",
              "additionalData": {\(members)}}}}
            """
    }

    @Test("the document's client registration reads as written")
    func clientDocument() throws {
        let request = try Self.read(Self.clientDocument)
        #expect(request.provider == "google")
        #expect(request.role == .client)
        #expect(request.cleaner == nil)
        #expect(request.deviceTokens == ["your-firebase-device-token"])
    }

    @Test("the document's cleaner registration reads as written")
    func cleanerDocument() throws {
        let request = try Self.read(Self.cleanerDocument)
        let cleaner = try #require(request.cleaner)
        #expect(cleaner.phone == "+962792002802")
        #expect(cleaner.availableDays == [.monday, .tuesday, .wednesday])
        #expect(cleaner.timeSlots == [.morning, .afternoon])
        #expect(cleaner.maxHoursPerWeek == 40 && cleaner.yearsOfExperience == 3 && cleaner.serviceRadius == 15)
        #expect(request.previousServices == [1, 2])
        #expect(request.preferredServices == [1, 3])
        #expect(request.deviceTokens == ["firebase-device-token"])
    }

    @Test("JSON:API's string ids, a type, a nonce and an array of device tokens are accepted")
    func jsonAPIForms() throws {
        let request = try Self.read(
            """
            {"data": {"type": "oauth-login", "attributes": {"provider": "apple", "oauthToken": "t", "role": "client",
              "nonce": "n-1"},
              "relationships": {"previousServices": {"data": [{"type": "service", "id": "7"}]},
                "deviceTokens": {"data": [{"attributes": {"token": "a"}}, {"type": "device-token",
                  "attributes": {"token": "b"}}]}}}}
            """)
        #expect(request.nonce == "n-1")
        #expect(request.previousServices == [7])
        #expect(request.deviceTokens == ["a", "b"])
    }

    @Test("every invalid field is reported at once, each with its pointer")
    func everyFieldAtOnce() {
        let pointers = Self.pointers(#"{"data": {"attributes": {"provider": "myspace", "role": "admin"}}}"#)
        #expect(
            pointers == ["/data/attributes/provider", "/data/attributes/oauthToken", "/data/attributes/role"])
    }

    @Test("a body that is not a document is refused", arguments: ["[]", "{}", #"{"data": []}"#])
    func notADocument(text: String) {
        #expect(!Self.pointers(text).isEmpty)
    }

    @Test("unknown members are refused where they appear")
    func unknownMembers() {
        #expect(
            Self.pointers(
                #"{"meta": 1, "data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "isAdmin": true}}}"#
            ) == ["/meta", "/data/attributes/isAdmin"])
    }

    @Test(
        "a cleaner's idCard or avatar, in any form, is refused by name with what to do instead",
        arguments: [
            ("idCard", #""data:image/jpeg;base64,/9j/4AAQSkZJRg==""#), ("avatar", #""https://example.com/a.png""#),
            ("avatar", #"{"uri": "file:///tmp/a.png"}"#),
        ])
    func cleanerFiles(member: String, json: String) throws {
        do {
            _ = try Self.read(Self.cleaner(member, json))
            Issue.record("a cleaner file was accepted")
        } catch let error as HaleError {
            #expect(error.status == 422)
            #expect(error.fieldErrors.map(\.pointer) == ["/data/attributes/additionalData/\(member)"])
            #expect(error.fieldErrors.first?.message.contains("Hale does not take") == true)
        }
    }

    @Test("a client may not send cleaner data")
    func clientWithCleanerData() {
        #expect(
            Self.pointers(
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "additionalData": {}}}}"#
            ) == ["/data/attributes/additionalData"])
    }

    @Test("a cleaner must send the additional data")
    func cleanerWithoutData() {
        #expect(
            Self.pointers(#"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "cleaner"}}}"#)
                == ["/data/attributes/additionalData"])
    }

    @Test(
        "each cleaner field is checked against the document's rules",
        arguments: [
            ("phone", "\"0792002802\""), ("phone", "\"+0792002802\""), ("phone", "\"+9627920028021234\""),
            ("phone", "12"), ("availableDays", "[]"), ("availableDays", "[\"someday\"]"),
            ("availableDays", "[\"monday\", \"monday\"]"), ("availableDays", "\"monday\""),
            ("timeSlots", "[\"night\"]"), ("maxHoursPerWeek", "0"), ("maxHoursPerWeek", "169"),
            ("maxHoursPerWeek", "40.5"), ("maxHoursPerWeek", "\"40\""), ("yearsOfExperience", "-1"),
            ("yearsOfExperience", "101"), ("serviceRadius", "0"), ("serviceRadius", "1001"),
            ("agreedToTerms", "false"), ("acceptsUrgentOffers", "1"), ("hasCleaningSupplies", "null"),
            ("comfortableWithPets", "\"yes\""),
        ])
    func cleanerField(member: String, json: String) {
        #expect(
            Self.pointers(Self.cleaner(member, json)).contains {
                $0.hasPrefix("/data/attributes/additionalData/\(member)")
            })
    }

    @Test("the ranges' ends are accepted")
    func rangeEnds() throws {
        for (member, json) in [
            ("maxHoursPerWeek", "1"), ("maxHoursPerWeek", "168"), ("yearsOfExperience", "0"),
            ("yearsOfExperience", "100"), ("serviceRadius", "1"), ("serviceRadius", "1000"),
        ] {
            _ = try Self.read(Self.cleaner(member, json))
        }
    }

    @Test(
        "service relationships must be lists of distinct positive service ids",
        arguments: [
            #"{"data": {"type": "service", "id": 1}}"#, #"{"data": [{"type": "service", "id": 0}]}"#,
            #"{"data": [{"type": "service", "id": "01"}]}"#, #"{"data": [{"type": "user", "id": 1}]}"#,
            #"{"data": [{"type": "service", "id": 1}, {"type": "service", "id": 1}]}"#,
        ])
    func services(relationship: String) {
        let text = """
            {"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client"},
              "relationships": {"previousServices": \(relationship)}}}
            """
        #expect(Self.pointers(text).allSatisfy { $0.hasPrefix("/data/relationships/previousServices/data") })
        #expect(!Self.pointers(text).isEmpty)
    }

    @Test("a device token must be a non-empty string")
    func deviceToken() {
        let text = """
            {"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client"},
              "relationships": {"deviceTokens": {"data": {"attributes": {"token": ""}}}}}}
            """
        #expect(Self.pointers(text) == ["/data/relationships/deviceTokens/data/attributes/token"])
    }

    @Test("a member name with / or ~ is escaped in its pointer")
    func pointerEscaping() {
        #expect(
            Self.pointers(
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "a/b~c": 1}}}"#)
                == ["/data/attributes/a~1b~0c"])
    }

    @Test("E.164 numbers")
    func e164() {
        #expect(CleanerProfile.isE164("+962792002802"))
        #expect(CleanerProfile.isE164("+12"))
        #expect(!CleanerProfile.isE164("+1"))
        #expect(!CleanerProfile.isE164("+1234567890123456"))
        #expect(!CleanerProfile.isE164("+1 234"))
        #expect(!CleanerProfile.isE164("962792002802"))
    }
}
