import Foundation
import HTTPTypes
import QRReceipt
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Checkout and the scan resolve the bearer token in their own first statement (issue 15), not
/// in the middleware. They must refuse exactly as every other route does, and refuse first:
/// before any complaint about the request, and before anything is written.
@Suite("Checkout and the scan resolve their caller in their own statement, and refuse like every route")
struct CallerInStatementTests {
    @Test("checkout: no token, a made-up one, a logged-out one is 401; staff get 403; nothing is ordered and the cart stays")
    func checkoutRefusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, onHand: 5)
            let customer = try await app.registerCustomer(email: "buyer@example.com", password: "correct horse")
            try await app.fillCart(customer, store: store, [(rice, 2)])
            let other = try await app.token("buyer@example.com", "correct horse")
            #expect(try await app.request(.post, "/v1/auth/logout", token: other).status == .noContent)
            let staff = try await app.signIn(role: .staff, store: store)

            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k-1"]
            let none = try await app.request(.post, "/v1/checkout", json: ["paymentMethod": "prepaid"], headers: key)
            let madeUp = try await app.request(.post, "/v1/checkout", json: ["paymentMethod": "prepaid"], token: "made-up", headers: key)
            let loggedOut = try await app.checkout(Session(token: other, userID: customer.userID))
            #expect([none, madeUp, loggedOut].map(\.status) == [.unauthorized, .unauthorized, .unauthorized])
            #expect(loggedOut.errorCode == "unauthorized")
            // Who is asking comes before what is wrong with the request: no key, still 401.
            let loggedOutNoKey = try await app.request(.post, "/v1/checkout", json: ["paymentMethod": "prepaid"], token: other)
            #expect(loggedOutNoKey.status == .unauthorized)
            let byStaff = try await app.checkout(staff)
            #expect(byStaff.status == .forbidden)
            #expect(byStaff.errorCode == "forbidden")

            #expect(try await sql("SELECT count(*) FROM orders", on: app.database)[0][0] == "0")
            #expect(try await app.stock(store: store, product: rice).reserved == 0)
            #expect(try await app.checkout(customer).status == .created)
        }
    }

    @Test("checkout with an expired session is 401 session_expired and stays expired; a live one is kept alive by checking out")
    func checkoutSessionLifetimes() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, onHand: 5)
            let idle = try await app.registerCustomer()
            try await app.fillCart(idle, store: store, [(rice, 1)])
            _ = try await sql(
                "UPDATE sessions SET last_used_at = now() - interval '12 hours 1 minute' WHERE user_id = $1", [idle.userID], on: app.database)
            let expired = try await app.checkout(idle)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorCode == "session_expired")
            #expect(try await app.request(.get, "/v1/me", token: idle.token).errorCode == "session_expired")

            let busy = try await app.registerCustomer()
            try await app.fillCart(busy, store: store, [(rice, 1)])
            _ = try await sql("UPDATE sessions SET last_used_at = now() - interval '11 hours' WHERE user_id = $1", [busy.userID], on: app.database)
            #expect(try await app.checkout(busy).status == .created)
            let used = try await sql(
                "SELECT now() - last_used_at < interval '1 minute' FROM sessions WHERE user_id = $1", [busy.userID], on: app.database)
            #expect(used[0][0] == "t")
            #expect(try await sql("SELECT count(*) FROM orders", on: app.database)[0][0] == "1")
        }
    }

    @Test("filling the cart writes only for a caller it admits: an expired session, a logged-out token and staff write nothing")
    func cartLineRefusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let rice = try await app.addProduct(store: store, onHand: 5)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(rice, 1)])
            let staff = try await app.signIn(role: .staff, store: store)
            // A cart of the staff member's own, with a line: only the role stands between them and changing it.
            _ = try await sql("INSERT INTO carts (customer_id, store_id) VALUES ($1, $2)", [staff.userID, store], on: app.database)
            _ = try await sql(
                "INSERT INTO cart_items (customer_id, product_id, quantity) VALUES ($1, $2, 2)", [staff.userID, rice], on: app.database)
            let put = { (token: String?, quantity: Int) in
                try await app.request(.put, "/v1/cart/items/\(rice)", json: ["quantity": .int(quantity)], token: token)
            }

            let byStaff = try await put(staff.token, 3)
            #expect(byStaff.status == .forbidden)
            #expect(try await put(staff.token, 0).status == .forbidden)
            #expect(try await put("made-up", 3).status == .unauthorized)
            // A quantity the contract refuses, from nobody: who is asking is answered first.
            #expect(try await put("made-up", 1000).status == .unauthorized)
            _ = try await sql(
                "UPDATE sessions SET last_used_at = now() - interval '13 hours' WHERE user_id = $1", [customer.userID], on: app.database)
            #expect(try await put(customer.token, 4).errorCode == "session_expired")
            #expect(try await put(customer.token, 0).errorCode == "session_expired")

            let lines = try await sql("SELECT customer_id, quantity FROM cart_items ORDER BY quantity", on: app.database)
            #expect(lines == [[customer.userID, "1"], [staff.userID, "2"]], "\(lines)")
        }
    }

    @Test("the scan and its preview: a logged-out or disabled desk is 401, a customer is 403, before the token is judged; nothing is handed over")
    func scanRefusals() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let desk = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            #expect(try await app.transition(order["id"].string!, to: "packaged", by: desk).status == .ok)
            #expect(try await app.pay(order, by: desk).status == .created)
            let token = order["pickupToken"].string!

            let leaver = try await app.signIn(role: .staff, store: store)
            #expect(try await app.request(.post, "/v1/auth/logout", token: leaver.token).status == .noContent)
            let disabled = try await app.signIn(role: .staff, store: store)
            #expect(try await app.request(.post, "/v1/stores/\(store)/staff/\(disabled.userID)/disable", token: manager.token).status == .ok)

            for preview in [true, false] {
                #expect(try await app.scan(token, by: leaver, preview: preview).status == .unauthorized)
                #expect(try await app.scan(token, by: disabled, preview: preview).status == .unauthorized)
                // A forged token from a caller who is nobody: 401, not a verdict on the token.
                #expect(try await app.scan("FC1:forged", by: leaver, preview: preview).status == .unauthorized)
                let byCustomer = try await app.scan(token, by: customer, preview: preview)
                #expect(byCustomer.status == .forbidden)
                #expect(try await app.scan("FC1:forged", by: customer, preview: preview).status == .forbidden)
            }
            let state = try await sql("SELECT status, collected_at IS NULL FROM orders", on: app.database)[0]
            #expect(state == ["packaged", "t"])
            #expect(try await app.scan(token, by: desk, preview: true).status == .ok)
            #expect(try await app.scan(token, by: desk).status == .ok)
        }
    }

    @Test("logged out on one instance, refused at once on another: nothing remembers a session between requests")
    func logoutReachesEveryInstance() async throws {
        let keyring = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])
        try await withApp(keyring: keyring) { first in
            let store = try await first.createStore()
            let desk = try await first.signIn(role: .staff, store: store)
            let (customer, order, product) = try await first.placeOrder(store: store)
            #expect(try await first.transition(order["id"].string!, to: "packaged", by: desk).status == .ok)
            #expect(try await first.pay(order, by: desk).status == .created)
            try await withApp(database: first.database, keyring: keyring) { second in
                try await first.fillCart(customer, store: store, [(product, 1)])
                // Both instances have just served both tokens.
                #expect(try await second.scan(order["pickupToken"].string!, by: desk, preview: true).status == .ok)
                #expect(try await second.request(.get, "/v1/cart", token: customer.token).status == .ok)

                #expect(try await first.request(.post, "/v1/auth/logout", token: desk.token).status == .noContent)
                #expect(try await first.request(.post, "/v1/auth/logout", token: customer.token).status == .noContent)
                #expect(try await second.scan(order["pickupToken"].string!, by: desk, preview: true).status == .unauthorized)
                #expect(try await second.scan(order["pickupToken"].string!, by: desk).status == .unauthorized)
                #expect(try await second.checkout(customer).status == .unauthorized)
            }
            #expect(try await sql("SELECT count(*), bool_and(collected_at IS NULL) FROM orders", on: first.database)[0] == ["1", "t"])
        }
    }
}
