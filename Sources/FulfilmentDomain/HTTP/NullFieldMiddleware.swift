import Foundation
import HTTPTypes
import Hummingbird

/// `422 invalid_field` for a JSON `null` the contract does not allow in a request.
///
/// The generated decoders read an explicit `null` as a field left out, so `{"sku": null}` on a
/// product edit would be accepted as "unchanged" although the contract says a SKU is a string.
/// A client that sends null usually means "clear it"; telling it plainly (leave the field out to
/// keep it, send "" to clear a text) beats doing something it did not mean. Provider webhooks
/// are let through as they come: what a payment provider sends is not ours to refuse.
package struct NullFieldMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    /// The request fields the contract declares nullable.
    package static var nullable: Set<String> { ["minimumAge", "imageProductId"] }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method), !request.uri.path.hasSuffix("/webhook"),
            request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: BodyLimit.json.bytes)
        // A body without the four bytes `null` has none to refuse: most bodies, never parsed twice.
        if Self.mayHoldNull(body), let json = try? JSONSerialization.jsonObject(with: Data(buffer: body), options: [.fragmentsAllowed]),
            let field = Self.firstNull(in: json, at: "")
        {
            throw APIError(
                .unprocessableContent, "invalid_field", "The field '\(field)' cannot be null: leave it out to keep its value.",
                details: ["field": .string(field)])
        }
        return try await next(request, context)
    }

    /// Whether `body` holds `null` anywhere (in a string or not): a cheap sieve before the parse.
    package static func mayHoldNull(_ body: ByteBuffer) -> Bool {
        let bytes = body.readableBytesView
        var from = bytes.startIndex
        while let n = bytes[from...].firstIndex(of: UInt8(ascii: "n")) {
            if bytes[n...].starts(with: "null".utf8) { return true }
            from = n + 1
        }
        return false
    }

    /// The path of the first null not allowed in `value` (`lines[2].quantity`), if any.
    package static func firstNull(in value: Any, at path: String) -> String? {
        if let object = value as? [String: Any] {
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                let memberPath = path.isEmpty ? key : "\(path).\(key)"
                if member is NSNull {
                    if !nullable.contains(key) { return memberPath }
                } else if let found = firstNull(in: member, at: memberPath) {
                    return found
                }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if element is NSNull { return "\(path)[\(index)]" }
                if let found = firstNull(in: element, at: "\(path)[\(index)]") { return found }
            }
        }
        return nil
    }
}
