import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a customer rings, or comes to the desk without their phone. Staff find the order by
/// its number, the customer's name or email, or the receipt scanned into the box, among their own
/// store's orders of any status; the order's money in and out is listed for them and the customer.
@Suite("Finding an order, and its payment and refunds")
struct OrderSearchTests {
    @Test("staff find their store's orders by number, name, email or scanned receipt, newest first; another store's never")
    func search() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (brown, first, _) = try await app.placeOrder(store: store)
            let (_, second, _) = try await app.placeOrder(store: store)
            let (other, third, _) = try await app.placeOrder(store: store)
            try await sql(
                "UPDATE users SET name = 'Marcia Brown', email = 'marcia.brown@example.com' WHERE id = $1", [brown.userID], on: app.database)
            try await sql("UPDATE users SET name = 'Desmond Browne' WHERE id = $1", [other.userID], on: app.database)
            // The first is collected and gone from the board; a search still finds it.
            #expect(try await app.transition(first["id"].string!, to: "cancelled", by: staff).status == .ok)
            let elsewhere = try await app.createStore()
            let (stranger, foreign, _) = try await app.placeOrder(store: elsewhere)
            try await sql("UPDATE users SET name = 'Marcia Brown' WHERE id = $1", [stranger.userID], on: app.database)

            func found(_ q: String, status: String? = nil) async throws -> [String] {
                var components = URLComponents()
                components.queryItems = [URLQueryItem(name: "q", value: q)] + (status.map { [URLQueryItem(name: "status", value: $0)] } ?? [])
                let reply = try await app.request(
                    .get, "/v1/stores/\(store)/orders?\(components.percentEncodedQuery!.replacingOccurrences(of: "+", with: "%2B"))",
                    token: staff.token)
                #expect(reply.status == .ok, "\(q): \(reply.text)")
                #expect(reply.json.has("nextCursor"))
                return reply.json["items"].array.compactMap { $0["id"].string }
            }
            let (a, b, c) = (first["id"].string!, second["id"].string!, third["id"].string!)
            #expect(try await found("\(first["number"].int!)") == [a])
            #expect(try await found("#\(second["number"].int!)") == [b])
            #expect(try await found("brown") == [c, a], "both names, newest first; the other store's Marcia is not found")
            #expect(try await found("BROWNE") == [c])
            #expect(try await found("marcia.brown@example") == [a])
            #expect(try await found("brown", status: "cancelled") == [a])
            #expect(try await found("  \(first["pickupToken"].string!)\r\n") == [a], "a scanner's Enter is not part of the code")
            #expect(try await found("\(foreign["number"].int!)").isEmpty)
            #expect(try await found(foreign["pickupToken"].string!).isEmpty)
            #expect(try await found("nobody at all").isEmpty)

            for bad in ["   ", String(repeating: "x", count: 301)] {
                let reply = try await app.request(
                    .get, "/v1/stores/\(store)/orders?q=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", token: staff.token)
                #expect(reply.status == .unprocessableContent)
                #expect(reply.json["error"]["details"]["field"].string == "q")
            }
            // Another store's staff may not search this one; a customer may not search at all.
            let otherStaff = try await app.signIn(role: .staff, store: elsewhere)
            #expect(try await app.request(.get, "/v1/stores/\(store)/orders?q=brown", token: otherStaff.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(store)/orders?q=brown", token: brown.token).status == .forbidden)
        }
    }

    @Test("an order's payment and refund, with who recorded them, for its customer and its store's staff; for no one else")
    func payments() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store, quantity: 2, price: 1000)
            let id = order["id"].string!
            let path = "/v1/orders/\(id)/payments"
            let none = try await app.request(.get, path, token: customer.token)
            #expect(none.json == ["items": [], "nextCursor": .null])

            #expect(try await app.pay(order, by: staff).status == .created)
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            #expect(
                try await app.request(
                    .post, "/v1/orders/\(id)/refunds", json: ["amount": ["amount": 2000, "currency": "JMD"], "note": "from the till"],
                    token: manager.token
                ).status == .created)
            for reader in [customer, staff, manager] {
                let listed = try await app.request(.get, path, token: reader.token)
                #expect(listed.status == .ok)
                let items = listed.json["items"].array
                #expect(items.map { $0["kind"].string } == ["payment", "refund"])
                #expect(items.map { $0["method"].string } == ["cash", "desk"])
                #expect(items.map { $0["amount"] } == [["amount": 2000, "currency": "JMD"], ["amount": 2000, "currency": "JMD"]])
                #expect(items.map { $0["recordedBy"].string } == ["Test staff", "Test manager"])
                #expect(items[1]["note"].string == "from the till")
                #expect(items[0]["note"] == .null)
            }
            let otherStaff = try await app.signIn(role: .staff, store: try await app.createStore())
            #expect(try await app.request(.get, path, token: otherStaff.token).status == .notFound)
            #expect(try await app.request(.get, path, token: try await app.registerCustomer().token).status == .notFound)
            #expect(try await app.request(.get, "/v1/orders/not-an-id/payments", token: staff.token).status == .notFound)
        }
    }
}
