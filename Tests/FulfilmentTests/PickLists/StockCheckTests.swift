import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a short pick of 0 left the stock at 86 on hand with nothing flagged. A pick closed
/// short asks for a count of that product: listed for the store (the API and the stock page)
/// until someone counts it.
@Suite("A short pick asks for a stock check")
struct StockCheckTests {
    @Test("none on the shelf: the product is listed to count, on the stock page too; a count clears it; another store sees nothing")
    func shortPickAsksForCount() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.storeAccount(.manager, store: store)
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: store, name: "Long grain rice", onHand: 86)
            let milk = try await app.createProduct(store: store, name: "Whole milk", onHand: 10)
            let order = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(rice, 2), (milk, 1)])
            let list = try #require(
                try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(order)]], token: staff.token)
                    .json["id"].string)
            let checks = "/v1/stores/\(store)/stock-checks"
            let none = try await app.request(.get, checks, token: staff.token)
            #expect(none.json["items"].array.isEmpty && none.text.contains(#""nextCursor":null"#), "a list as every list is: \(none.text)")

            // The milk is found; the rice is not: none on the shelf, 86 on hand.
            for (product, quantity, short) in [(milk, 1, false), (rice, 0, true)] {
                let pick = try await app.request(
                    .post, "/v1/pick-lists/\(list)/picks",
                    json: ["orderId": .string(order), "productId": .string(product), "quantity": .int(quantity), "short": .bool(short)],
                    token: staff.token)
                #expect(pick.status == .ok, "\(pick.text)")
            }
            let asked = try await app.request(.get, checks, token: staff.token).json["items"].array
            #expect(asked.map { $0["productId"].string } == [rice])
            #expect(asked.first?["onHand"].int == 86 && asked.first?["shortPicks"].int == 1)

            let cookie = try await app.consoleCookie(manager)
            let page = try await app.form(.get, "/console/stock", cookie: cookie).text
            #expect(page.contains("id=\"stock-checks\"") && page.contains("id=\"check-\(rice)\""), "\(page)")
            #expect(page.contains("on hand says 86; picked short once"))

            // Another store's staff are refused; its own list is empty.
            let other = try await app.createStore()
            let outsider = try await app.signIn(role: .staff, store: other)
            #expect(try await app.request(.get, checks, token: outsider.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(other)/stock-checks", token: outsider.token).json["items"].array.isEmpty)

            // The manager counts it: 0 on the shelf. The check is done.
            let managerAPI = try await app.signIn(role: .manager, store: store)
            let counted = try await app.request(
                .put, "/v1/stores/\(store)/stock/\(rice)", json: ["onHand": 2, "minSupply": 5, "expectedOnHand": 86], token: managerAPI.token)
            #expect(counted.status == .ok, "\(counted.text)")
            #expect(try await app.request(.get, checks, token: staff.token).json["items"].array.isEmpty)
            #expect(!(try await app.form(.get, "/console/stock", cookie: cookie).text.contains("id=\"stock-checks\"")))
        }
    }
}
