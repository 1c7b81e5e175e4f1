import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "what sells, what is left behind, what have we run out of?" Over the orders placed
/// in the range, the best sellers by units with what they sold for now, and the items of the
/// cancelled orders never collected; whatever the range, the products out of stock now, with
/// since when where the stock ledger records it.
@Suite("Reports: products")
struct ProductsReportTests {
    /// A product of `store` with `onHand` and `reserved`, and its last ledger movement (leaving
    /// `after` on hand at `at`) if given; discontinued if asked.
    static func stock(
        _ app: TestApp, store: String, name: String, onHand: Int, reserved: Int = 0, ledger: (after: Int, at: String)? = nil,
        discontinued: Bool = false
    ) async throws -> String {
        let id = try await app.createProduct(store: store, name: name, onHand: onHand)
        try await sql(
            "UPDATE stock SET reserved = $3::int WHERE store_id = $1 AND product_id = $2", [store, id, String(reserved)], on: app.database)
        if discontinued { try await sql("UPDATE products SET discontinued = true WHERE id = $1", [id], on: app.database) }
        if let ledger {
            try await sql(
                """
                INSERT INTO stock_movements (store_id, product_id, delta, reason, on_hand_after, at)
                VALUES ($1, $2, $3::int - 10, 'count', $3::int, $4::timestamptz)
                """, [store, id, String(ledger.after), ledger.at], on: app.database)
        }
        return id
    }

    /// Moves an order as the report reads it: placed at `placed`, in `status`.
    static func place(_ app: TestApp, _ order: String, at placed: String, status: String = "pending") async throws {
        try await sql(
            """
            UPDATE orders SET created_at = $2::timestamptz, status = $3,
                packaged_at = CASE WHEN $3 = 'packaged' THEN $2::timestamptz + interval '1 hour' END,
                cancelled_at = CASE WHEN $3 = 'cancelled' THEN $2::timestamptz + interval '1 hour' END
            WHERE id = $1
            """, [order, placed, status], on: app.database)
    }

    @Test("best sellers by units at what lines hold now, never collected from cancelled orders, out of stock now with since when")
    func products() async throws {
        let clock = TestClock("2026-11-03T12:00:00Z")
        try await withApp(clock: clock) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: store, name: "Rice", price: 1000)
            let flour = try await app.createProduct(store: store, name: "Flour", price: 500)
            let sugar = try await app.createProduct(store: store, name: "Sugar", price: 300)
            let salt = try await app.createProduct(store: store, name: "Salt", price: 200)
            let order = { (lines: [(String, Int)]) in
                try await app.createPendingOrder(store: store, customer: customer.userID, lines: lines.map { (product: $0.0, quantity: $0.1) })
            }
            // Pending: 3 rice and a flour (a salt removed at the desk holds nothing).
            let first = try await order([(rice, 3), (flour, 1), (salt, 1)])
            try await Self.place(app, first, at: "2026-11-02T10:00:00Z")
            try await sql(
                "UPDATE order_lines SET removed_at = now(), removed_by = $2 WHERE order_id = $1 AND product_id = $3", [first, staff.userID, salt],
                on: app.database)
            // Packed: a rice, and 1 of 2 sugar (picked short).
            let second = try await order([(rice, 1), (sugar, 2)])
            try await Self.place(app, second, at: "2026-11-03T10:00:00Z", status: "packaged")
            try await sql(
                "UPDATE order_lines SET picked_short = true, picked_quantity = 1 WHERE order_id = $1 AND product_id = $2", [second, sugar],
                on: app.database)
            // 4 flour, 2.00 off with a coupon: 18.00.
            let third = try await order([(flour, 4)])
            try await Self.place(app, third, at: "2026-11-04T10:00:00Z")
            try await sql("UPDATE order_lines SET discount_amount = 200 WHERE order_id = $1", [third], on: app.database)
            // Cancelled: 2 rice and 5 salt never collected. Left out: 9 salt the day before the range.
            let cancelled = try await order([(rice, 2), (salt, 5)])
            try await Self.place(app, cancelled, at: "2026-11-05T10:00:00Z", status: "cancelled")
            let before = try await order([(salt, 9)])
            try await Self.place(app, before, at: "2026-10-31T23:59:00Z")
            // Out of stock now: counted to zero yesterday noon; zero without a ledger entry; all held
            // by orders; ran out after a count left 5 (by collections). Not listed: discontinued.
            let ackee = try await Self.stock(app, store: store, name: "Ackee", onHand: 0, ledger: (0, "2026-11-02T12:00:00Z"))
            _ = try await Self.stock(app, store: store, name: "Escovitch", onHand: 0, ledger: (5, "2026-11-01T12:00:00Z"))
            _ = try await Self.stock(app, store: store, name: "Bammy", onHand: 0)
            let callaloo = try await Self.stock(app, store: store, name: "Callaloo", onHand: 2, reserved: 2)
            _ = try await Self.stock(app, store: store, name: "Dasheen", onHand: 0, discontinued: true)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/products?from=2026-11-01&to=2026-11-07", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            let jmd = { (amount: Int) -> JSONValue in ["amount": .int(amount), "currency": "JMD"] }
            #expect(report["sold"] == ["orders": 3, "lines": 5, "units": 10, "amount": jmd(6600), "products": 3])
            #expect(
                report["bestSellers"] == [
                    ["productId": .string(flour), "name": "Flour", "lines": 2, "units": 5, "amount": jmd(2300)],
                    ["productId": .string(rice), "name": "Rice", "lines": 2, "units": 4, "amount": jmd(4000)],
                    ["productId": .string(sugar), "name": "Sugar", "lines": 1, "units": 1, "amount": jmd(300)],
                ])
            #expect(report["uncollected"] == ["orders": 1, "lines": 2, "units": 7, "amount": jmd(3000), "products": 2])
            #expect(report["neverCollected"].array.map { $0["name"].string } == ["Salt", "Rice"])
            #expect(report["neverCollected"][0]["amount"] == jmd(1000))
            #expect(report["outOfStockCount"] == 4)
            let out = report["outOfStock"].array
            #expect(out.map { $0["name"].string } == ["Ackee", "Bammy", "Callaloo", "Escovitch"])
            #expect(
                out[0] == ["productId": .string(ackee), "name": "Ackee", "onHand": 0, "reserved": 0, "since": "2026-11-02T12:00:00Z", "hoursOut": 24])
            #expect(out[2] == ["productId": .string(callaloo), "name": "Callaloo", "onHand": 2, "reserved": 2])
            #expect(!out[1].has("since") && !out[3].has("since") && !out[3].has("hoursOut"))

            let quiet = try await app.request(.get, "/v1/stores/\(store)/reports/products?from=2026-10-01&to=2026-10-02", token: manager.token)
            #expect(quiet.status == .ok)
            #expect(quiet.json["sold"]["units"] == 0 && quiet.json["bestSellers"] == [] && quiet.json["neverCollected"] == [])
            #expect(quiet.json["outOfStockCount"] == 4, "out of stock is now, whatever the range")
        }
    }
}
