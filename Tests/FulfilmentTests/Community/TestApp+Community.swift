import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Helpers for the community tests (issue 31): each reads as a step of the story.
extension TestApp {
    /// Shares a recipe through the API; `ingredients` are (text, product id or nil, quantity or nil).
    func shareRecipe(
        _ author: Session, title: String = "Pepperpot", body: String = "Stir well.", servings: Int = 4,
        _ ingredients: [(String, String?, Int?)]
    ) async throws -> JSONValue {
        let lines: [JSONValue] = ingredients.map { text, product, quantity in
            var line: [String: JSONValue] = ["text": .string(text)]
            if let product { line["productId"] = .string(product) }
            if let quantity { line["quantity"] = .int(quantity) }
            return .object(line)
        }
        let reply = try await request(
            .post, "/v1/recipes",
            json: ["title": .string(title), "bodyMarkdown": .string(body), "servings": .int(servings), "ingredients": .array(lines)],
            token: author.token)
        guard reply.status == .created else { throw TestSetupError("share recipe: \(reply.status) \(reply.text)") }
        return reply.json
    }

    /// The customer chooses `store` for browsing (and their cart).
    func chooseStore(_ customer: Session, _ store: String) async throws {
        let reply = try await request(.put, "/v1/cart", json: ["storeId": .string(store)], token: customer.token)
        guard reply.status == .ok else { throw TestSetupError("choose store: \(reply.status) \(reply.text)") }
    }

    /// Pays, packs and hands over the order at the desk, as staff do.
    func collect(_ order: JSONValue, by staff: Session) async throws {
        let paid = try await pay(order, by: staff)
        guard paid.status.code < 300 else { throw TestSetupError("pay: \(paid.status) \(paid.text)") }
        let packed = try await transition(order["id"].string!, to: "packaged", by: staff)
        guard packed.status.code < 300 else { throw TestSetupError("pack: \(packed.status) \(packed.text)") }
        let scanned = try await scan(order["pickupToken"].string!, by: staff)
        guard scanned.status.code < 300 else { throw TestSetupError("collect: \(scanned.status) \(scanned.text)") }
    }
}
