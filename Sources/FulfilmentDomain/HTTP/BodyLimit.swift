import HTTPTypes
import Hummingbird
import NIOCore

/// The most bytes a request body may have, by route: a CSV file to import 8 MiB, a product image
/// 2 MiB, a console form or a payment provider's webhook 64 KiB, everything else (JSON, or a body on a route that reads
/// none) 1 MiB. Whatever the `Content-Type`, or none.
///
/// Judged before anything else reads the body (`apply(to:)`), so a client can never make the
/// service hold more than the cap, and an oversized body is a `413`, never the 500 that NIO's
/// own "too many bytes" used to become.
package struct BodyLimit: Sendable {
    package var bytes: Int
    /// What a body over the cap gets: `413 payload_too_large`, or the route's own documented 413.
    package var refusal: APIError

    package init(bytes: Int, refusal: APIError? = nil) {
        self.bytes = bytes
        self.refusal =
            refusal
            ?? APIError(
                .contentTooLarge, "payload_too_large", "A request body here is at most \(Self.describe(bytes)).",
                details: ["limitBytes": .int(bytes)])
    }

    package static let json = BodyLimit(bytes: 1024 * 1024)
    package static let image = BodyLimit(
        bytes: ProductImage.maximumBytes, refusal: CatalogueError.imageTooLarge(limit: ProductImage.maximumBytes).apiError)
    /// A page's form (`ConsoleForm` reads no more).
    package static let form = BodyLimit(bytes: 64 * 1024)
    package static let providerWebhook = BodyLimit(bytes: PaymentWebhookSignature.maximumBody)
    /// A CSV file to import (`CatalogueImports`), by the API or the console's form (whose
    /// multipart wrapping and other fields get a form's worth more).
    package static let catalogueImport = BodyLimit(
        bytes: CatalogueImports.maximumBytes, refusal: CatalogueImportError.fileTooLarge(limit: CatalogueImports.maximumBytes).apiError)
    package static let catalogueImportForm = BodyLimit(
        bytes: CatalogueImports.maximumBytes + BodyLimit.form.bytes,
        refusal: CatalogueImportError.fileTooLarge(limit: CatalogueImports.maximumBytes).apiError)

    /// A product's image from the console's form (`/console/products/{id}/images`), with a
    /// form's worth more for its multipart wrapping and its other fields.
    package static let imageForm = BodyLimit(
        bytes: ProductImage.maximumBytes + BodyLimit.form.bytes, refusal: CatalogueError.imageTooLarge(limit: ProductImage.maximumBytes).apiError)

    /// The cap for a request to `path` with `method`: outside `/v1/` are the console's pages,
    /// which read nothing but forms.
    package static func of(method: HTTPRequest.Method, path: String) -> BodyLimit {
        if method == .post, path == "/console/catalogue/import" { return .catalogueImportForm }
        if method == .post, path.hasPrefix("/console/products/"), path.hasSuffix("/images") { return .imageForm }
        if !path.hasPrefix("/v1/") { return .form }
        if method == .post, path.hasPrefix("/v1/stores/"), path.hasSuffix("/catalogue-imports") { return .catalogueImport }
        // Product, news and recipe images (PUT .../image).
        if method == .put, path.hasSuffix("/image") { return .image }
        if method == .post, path == "/v1/payments/webhook" { return .providerWebhook }
        return .json
    }

    private static func describe(_ bytes: Int) -> String {
        bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }

    /// `request` with its body judged: refused at once when its declared length is over the cap;
    /// when its length is not declared (chunked), read here up to the cap and refused the moment
    /// it passes it, so no reader ever holds more than the cap and the answer is the same 413
    /// whether or not the route would have read the body.
    package func apply(to request: Request) async throws -> Request {
        if let declared = request.headers[.contentLength] {
            // The HTTP parser holds a body to its declared length, so a length within the cap
            // needs no counting. One it cannot read as a number is over any cap.
            guard let length = Int(declared), length <= bytes else { throw refusal }
            return request
        }
        guard request.headers[.transferEncoding] != nil else { return request }  // no body at all
        var request = request
        do {
            _ = try await request.collectBody(upTo: bytes)
        } catch is NIOTooManyBytesError {
            throw refusal
        }
        return request
    }
}
