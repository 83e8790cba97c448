import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

extension HTTPHeaders {
    static func bearer(_ token: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(token)"]
    }

    static func json(bearer token: String? = nil) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let token {
            headers.add(name: .authorization, value: "Bearer \(token)")
        }
        return headers
    }
}

extension ByteBuffer {
    static func json(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }
}

/// The decoded core error body.
struct CoreErrorBody: Decodable {
    struct Detail: Decodable {
        let code: String
        let message: String
    }
    let success: Bool
    let error: Detail
}

extension TestingHTTPResponse {
    func json() throws -> [String: Any] {
        let data = Data(buffer: body)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func coreError() throws -> CoreErrorBody {
        try JSONDecoder().decode(CoreErrorBody.self, from: Data(buffer: body))
    }
}
