import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A store whose shelf runs out of ackee: a customer's order of three tins on an open pick
/// list, a substitute on the shelf, and the people who pick, sell and buy.
struct SubstitutionShop {
    var store: String
    var staff: Session
    var manager: Session
    var customer: Session
    /// The ordered product and the substitute (with barcodes, as pickers scan them).
    var ackee: String
    var substitute: String
    var substituteBarcode: String
    var order: JSONValue
    var pickList: String

    var orderID: String { order["id"].string! }
}

extension TestApp {
    /// A valid EAN-13 from twelve digits: the check digit computed as GS1 says.
    static func ean13(_ twelve: String) -> String {
        let digits = twelve.compactMap { $0.wholeNumberValue }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) }
        return twelve + String((10 - sum % 10) % 10)
    }

    /// The shop above: `ackee` at 1,000 a tin, the substitute at `substitutePrice`, the customer's
    /// three tins checked out with `preference` (nil: the store's default), on a new pick list.
    func substitutionShop(
        preference: JSONValue? = nil, substitutePrice: Int = 800, method: String = "pay_at_collection", quantity: Int = 3
    ) async throws -> SubstitutionShop {
        let store = try await createStore()
        let staff = try await signIn(role: .staff, store: store)
        let manager = try await signIn(role: .manager, store: store)
        let customer = try await registerCustomer()
        let ackee = try await createProduct(
            store: store, name: "Ackee (Brand A)", barcode: Self.ean13("20000000\(Int.random(in: 1000...9999))"), price: 1000)
        let barcode = Self.ean13("21000000\(Int.random(in: 1000...9999))")
        let substitute = try await createProduct(store: store, name: "Ackee (Brand B)", barcode: barcode, price: substitutePrice)
        _ = try await request(.put, "/v1/cart", json: ["storeId": .string(store)], token: customer.token)
        var line: [String: JSONValue] = ["quantity": .int(quantity)]
        if let preference { line["substitution"] = preference }
        let set = try await request(.put, "/v1/cart/items/\(ackee)", json: .object(line), token: customer.token)
        guard set.status == .ok else { throw TestSetupError("cart: \(set.text)") }
        let placed = try await checkout(customer, method: method)
        guard placed.status == .created else { throw TestSetupError("checkout: \(placed.text)") }
        let list = try await request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [placed.json["id"]]], token: staff.token)
        guard let pickList = list.json["id"].string else { throw TestSetupError("pick list: \(list.text)") }
        return SubstitutionShop(
            store: store, staff: staff, manager: manager, customer: customer, ackee: ackee, substitute: substitute,
            substituteBarcode: barcode, order: placed.json, pickList: pickList)
    }

    /// The picker gives `quantity` of the substitute (scanned) instead of the ackee.
    func substitute(_ shop: SubstitutionShop, quantity: Int = 2, barcode: String? = nil, product: String? = nil) async throws -> TestReply {
        var body: [String: JSONValue] = ["orderId": .string(shop.orderID), "productId": .string(product ?? shop.ackee), "quantity": .int(quantity)]
        body["substituteBarcode"] = .string(barcode ?? shop.substituteBarcode)
        return try await request(.post, "/v1/pick-lists/\(shop.pickList)/substitutions", json: .object(body), token: shop.staff.token)
    }

    func decide(_ shop: SubstitutionShop, _ substitution: String, _ decision: String, as session: Session? = nil) async throws -> TestReply {
        try await request(
            .post, "/v1/orders/\(shop.orderID)/substitutions/\(substitution)/decision", json: ["decision": .string(decision)],
            token: (session ?? shop.customer).token)
    }

    /// A prepaid order paid by the provider for its total, as the payment webhook records it.
    func markPaid(_ shop: SubstitutionShop) async throws {
        _ = try await sql(
            """
            WITH paid AS (UPDATE orders SET payment_status = 'paid', paid_at = now() WHERE id = $1 RETURNING id, store_id, total_amount, currency)
            INSERT INTO payments (order_id, store_id, method, amount, currency, provider_event_id)
            SELECT id, store_id, 'provider', total_amount, currency, 'evt_' || id FROM paid
            """, [shop.orderID], on: database)
    }

    /// Every stock row of `store` whose reservation is not what its open orders' lines hold
    /// (`held_quantity`): empty when stock balances.
    func unbalancedStock(store: String) async throws -> [[String?]] {
        try await sql(
            """
            SELECT s.product_id, s.reserved, coalesce(h.held, 0) FROM stock s
            LEFT JOIN LATERAL (
                SELECT sum(held_quantity(l, o.status <> 'pending'))::int AS held
                FROM order_lines l JOIN orders o ON o.id = l.order_id
                WHERE o.store_id = s.store_id AND l.product_id = s.product_id AND o.status IN ('pending', 'packaged', 'delivering')) h ON true
            WHERE s.store_id = $1 AND s.reserved <> coalesce(h.held, 0)
            """, [store], on: database)
    }
}
