import Foundation
import OpenAPIRuntime

/// Reads any RFC 3339 date-time a client may send, with or without fractional seconds
/// (`2026-11-23T08:30:00Z`, `2026-11-23T08:30:00.125Z`, `+01:00` offsets), and writes them
/// without (whole seconds in UTC), as every response always has. The runtime's default reads
/// only the first form, so a JavaScript `toISOString()` would be refused.
struct RFC3339DateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(.iso8601)
    }

    func decode(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(text)' is not an RFC 3339 date-time."))
    }
}
