import Foundation
import HTTPTypes

/// The one error shape every route answers with:
/// `{"error": {"code": "snake_case_code", "message": "human sentence", "details": {...}}}`.
///
/// Domain errors become an `APIError` through `APIErrorConvertible`, in one place per
/// domain, so handlers simply `throw`.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var details: [String: JSONValue]?
    /// Extra response headers (e.g. `Retry-After`).
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String,
        details: [String: JSONValue]? = nil, headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    public static func notFound(_ what: String) -> APIError {
        APIError(.notFound, "not_found", "\(what) was not found.")
    }

    public static func invalidField(_ field: String, _ message: String) -> APIError {
        APIError(.unprocessableContent, "invalid_field", message, details: ["field": .string(field)])
    }

    /// The same error reported against another field of the request (when it names one).
    package func naming(field: String) -> APIError {
        var renamed = self
        renamed.details?["field"] = .string(field)
        return renamed
    }

    package static let `internal` = APIError(.internalServerError, "internal_error", "Something went wrong on our side.")

    /// The JSON body of the envelope.
    package var body: Data {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if let details { error["details"] = .object(details) }
        return (try? JSONEncoder.api.encode(JSONValue.object(["error": .object(error)]))) ?? Data()
    }
}

/// A domain error that knows its HTTP face. Conform each domain's error enum to this, once.
public protocol APIErrorConvertible: Error {
    var apiError: APIError { get }
}

extension APIError: APIErrorConvertible {
    public var apiError: APIError { self }
}

/// A small JSON value for error details (keeps the envelope independent of generated types).
public enum JSONValue: Sendable, Hashable, Codable {
    case string(String)
    case int(Int)
    /// A number with a fraction (whole numbers decode as `int`).
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONEncoder {
    package static var api: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
