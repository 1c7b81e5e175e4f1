import Foundation
import FulfilmentDomain
import Hummingbird

/// The fields of an `application/x-www-form-urlencoded` body, as the browser sends a form, or of a
/// `multipart/form-data` one with its files (`MultipartForm`: the catalogue import's upload).
/// A repeated name keeps its last value; a missing one reads as nil.
struct ConsoleForm: Sendable {
    var fields: [String: String]
    /// The files of a multipart form, by field name.
    var files: [String: MultipartForm.File] = [:]

    static var maximumBytes: Int { BodyLimit.form.bytes }

    subscript(_ name: String) -> String? { fields[name] }

    /// The trimmed value, nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The field as a whole number within `range` (`ClientNumber`): nil when absent or blank,
    /// `invalid_field` when it is anything else. There is no unbounded reader on purpose.
    func int(_ name: String, label: String? = nil, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        try ClientNumber.read(fields[name], field: name, label: label, in: range)
    }

    init(fields: [String: String]) { self.fields = fields }

    init(encoded: String) {
        var fields: [String: String] = [:]
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
        self.fields = fields
    }

    /// The request's form, read up to its route's cap (`BodyLimit`: a form's 64 KiB, the import's
    /// file more). A multipart body that cannot be read is `400 bad_form`, with a sentence.
    static func read(_ request: Request) async throws -> ConsoleForm {
        let cap = BodyLimit.of(method: request.method, path: request.uri.path).bytes
        let buffer = try await request.body.collect(upTo: cap)
        if let contentType = request.headers[.contentType], let boundary = try MultipartForm.boundary(contentType: contentType) {
            let multipart = try MultipartForm(Array(buffer: buffer), boundary: boundary)
            var form = ConsoleForm(fields: multipart.fields)
            form.files = multipart.files
            return form
        }
        guard buffer.readableBytes <= maximumBytes else { throw BodyLimit.form.refusal }
        return ConsoleForm(encoded: String(buffer: buffer))
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
