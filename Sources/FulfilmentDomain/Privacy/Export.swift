import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// A user's data export (issue 32, `GET /v1/me/export`): one JSON document of everything the
/// service holds about them, written as it is read. The account, sessions, cart and favourites
/// first, then the orders a page at a time, then their recipes, comments, reviews and webhook
/// counts; a page is read only when the client has taken the one before (the sequence is
/// pulled), so a customer with thousands of orders never has their whole document in memory.
package struct Export: Sendable {
    package let database: Database
    package static let ordersPerPage = 100

    package func document(for user: UserID, logger: Logger) -> Document {
        Document(database: database, user: user, logger: logger)
    }

    package struct Document: AsyncSequence, Sendable {
        package typealias Element = ArraySlice<UInt8>
        package let database: Database
        package let user: UserID
        package let logger: Logger

        package func makeAsyncIterator() -> Iterator { Iterator(document: self) }

        package struct Iterator: AsyncIteratorProtocol {
            package enum Step {
                case head
                case orders(after: (Int64, UUID)?, first: Bool)
                case tail
                case done
            }
            package let document: Document
            package var step = Step.head

            package mutating func next() async throws -> ArraySlice<UInt8>? {
                let (database, user, logger) = (document.database, document.user, document.logger)
                switch step {
                case .head:
                    step = .orders(after: nil, first: true)
                    let head = try await PrivacyQueries.exportHead(user, on: database.client, logger: logger)
                    return ArraySlice((head + ", \"orders\": [").utf8)
                case .orders(let after, let first):
                    let page = try await PrivacyQueries.exportOrders(
                        user, after: after, limit: Export.ordersPerPage, on: database.client, logger: logger)
                    guard let last = page.last else {
                        step = .tail
                        return ArraySlice("]".utf8)
                    }
                    step = page.count < Export.ordersPerPage ? .tail : .orders(after: (last.1, last.2), first: false)
                    let orders = page.map(\.0).joined(separator: ",")
                    let close = page.count < Export.ordersPerPage ? "]" : ""
                    return ArraySlice(((first ? "" : ",") + orders + close).utf8)
                case .tail:
                    step = .done
                    let tail = try await PrivacyQueries.exportTail(user, on: database.client, logger: logger)
                    return ArraySlice((", " + tail).utf8)
                case .done:
                    return nil
                }
            }
        }
    }
}

/// Answers `exportMe` with the streamed document. swift-openapi-generator decodes and encodes
/// every `application/json` body whole, so the operation's handler could only answer a document
/// held in memory; this middleware answers it first, written as it is read. It runs inside
/// `AccessMiddleware`, which has already admitted the caller (`Identity.current`).
package struct ExportMiddleware: ServerMiddleware {
    package let database: Database

    package init(database: Database) {
        self.database = database
    }

    package func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "exportMe" else { return try await next(request, body, metadata) }
        let identity = try Identity.required
        return Self.response(for: identity.userID, database: database, logger: RequestScope.current.logger)
    }

    /// The download: the console offers the same (`/account/export`).
    package static func response(for user: UserID, database: Database, logger: Logger) -> (HTTPResponse, HTTPBody) {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        response.headerFields[.contentDisposition] = "attachment; filename=\"my-data.json\""
        response.headerFields[.cacheControl] = "no-store"
        let body = HTTPBody(Export(database: database).document(for: user, logger: logger), length: .unknown, iterationBehavior: .single)
        return (response, body)
    }
}
