import Crypto
import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Helpers for the cart, checkout, order and collection tests: each reads as a step of the story.
extension TestApp {
    /// A product straight in the database, stocked at `store` with `onHand` units.
    func addProduct(store: String, name: String = "Product", price: Int = 1000, onHand: Int = 10) async throws -> String {
        let sku = "SKU-\(UUID().uuidString.prefix(8))"
        let product = try await sql(
            "INSERT INTO products (sku, name, price_amount, currency) VALUES ($1, $2, $3, 'JMD') RETURNING id",
            [sku, name, String(price)], on: database)[0][0]!
        try await sql(
            "INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, $3)", [store, product, String(onHand)], on: database)
        return product
    }

    func stock(store: String, product: String) async throws -> (onHand: Int, reserved: Int) {
        let row = try await sql(
            "SELECT on_hand, reserved FROM stock WHERE store_id = $1 AND product_id = $2", [store, product], on: database)[0]
        return (Int(row[0]!)!, Int(row[1]!)!)
    }

    /// Sets the cart's store and lines through the API.
    func fillCart(_ session: Session, store: String, _ lines: [(String, Int)]) async throws {
        let chosen = try await request(.put, "/v1/cart", json: ["storeId": .string(store)], token: session.token)
        guard chosen.status == .ok else { throw TestSetupError("set cart store: \(chosen.status) \(chosen.text)") }
        for (product, quantity) in lines {
            let reply = try await request(.put, "/v1/cart/items/\(product)", json: ["quantity": .int(quantity)], token: session.token)
            guard reply.status == .ok else { throw TestSetupError("cart item: \(reply.status) \(reply.text)") }
        }
    }

    func checkout(_ session: Session, key: String = UUID().uuidString, method: String = "pay_at_collection") async throws -> TestReply {
        try await request(
            .post, "/v1/checkout", json: ["paymentMethod": .string(method)], token: session.token,
            headers: [HTTPField.Name("Idempotency-Key")!: key])
    }

    /// A customer with a checked-out order of `quantity` of a new product at `store`; returns the order JSON.
    func placeOrder(store: String, quantity: Int = 1, price: Int = 1500, method: String = "pay_at_collection") async throws -> (
        Session, JSONValue, String
    ) {
        let customer = try await registerCustomer()
        let product = try await addProduct(store: store, price: price, onHand: 10)
        try await fillCart(customer, store: store, [(product, quantity)])
        let reply = try await checkout(customer, method: method)
        guard reply.status == .created else { throw TestSetupError("checkout: \(reply.status) \(reply.text)") }
        return (customer, reply.json, product)
    }

    func transition(_ order: String, to: String, by staff: Session) async throws -> TestReply {
        try await request(.post, "/v1/orders/\(order)/transitions", json: ["to": .string(to)], token: staff.token)
    }

    func pay(_ order: JSONValue, by staff: Session, method: String = "cash") async throws -> TestReply {
        try await request(
            .post, "/v1/orders/\(order["id"].string!)/payments",
            json: ["method": .string(method), "amount": order["total"]], token: staff.token)
    }

    func scan(_ token: String, by staff: Session, preview: Bool = false) async throws -> TestReply {
        try await request(.post, preview ? "/v1/collections/preview" : "/v1/collections", json: ["token": .string(token)], token: staff.token)
    }

    /// Posts a webhook event signed as the provider would (or with the given signature/timestamp).
    func webhook(_ body: String, timestamp: Int = Int(Date().timeIntervalSince1970), signature: String? = nil) async throws -> TestReply {
        let signed =
            signature
            ?? PaymentWebhookSignature.signature(secret: TestApp.webhookSecret, timestamp: String(timestamp), body: Array(body.utf8))
        return try await request(
            .post, "/v1/payments/webhook", rawBody: body,
            headers: [PaymentWebhookSignature.timestampHeader: String(timestamp), PaymentWebhookSignature.signatureHeader: signed])
    }
}
