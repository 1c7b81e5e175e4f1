import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: the board said "pending" and flagged nothing: an order whose customer has not
/// answered a substitute, or with a line picked short, looked like any other. The board says
/// each status in words and flags what needs someone; the API's list says the same in numbers.
@Suite("The board in words, with what needs someone flagged")
struct BoardWordsTests {
    @Test("a substitute waiting for the customer and a short line are flagged on the board and counted in the list")
    func flags() async throws {
        try await withApp { app in
            let shop = try await app.substitutionShop()
            let staff = try await app.storeAccount(.staff, store: shop.store)
            let cookie = try await app.consoleCookie(staff)
            let number = try #require(shop.order["number"].int)

            var board = try await app.form(.get, "/console/orders", cookie: cookie).text
            #expect(board.contains(">To pick</span>") && board.contains("<h2>To pick "), "statuses in words")
            #expect(!board.contains(">pending<"))
            #expect(!board.contains("id=\"flag-substitution-\(number)\"") && !board.contains("id=\"flag-short-\(number)\""))

            // One tin of the three is given as the other brand: the customer is asked.
            #expect(try await app.substitute(shop, quantity: 1).status == .created)
            board = try await app.form(.get, "/console/orders", cookie: cookie).text
            #expect(board.contains("id=\"flag-substitution-\(number)\">Waiting for the customer to answer a substitute</span>"), "\(board)")
            // One of the two left is found: the line is closed short.
            let pick = try await app.request(
                .post, "/v1/pick-lists/\(shop.pickList)/picks",
                json: ["orderId": .string(shop.orderID), "productId": .string(shop.ackee), "quantity": 1, "short": true], token: shop.staff.token)
            #expect(pick.status == .ok, "\(pick.text)")
            board = try await app.form(.get, "/console/orders", cookie: cookie).text
            #expect(board.contains("id=\"flag-short-\(number)\">Short: 1 line</span>"), "\(board)")

            let listed = try await app.request(.get, "/v1/stores/\(shop.store)/orders", token: shop.staff.token).json["items"].array
            let item = try #require(listed.first { $0["id"].string == shop.orderID })
            #expect(item["openSubstitutions"].int == 1 && item["shortLines"].int == 1)

            // The customer answers: the substitution flag goes.
            let substitution = try #require(
                try await app.request(.get, "/v1/orders/\(shop.orderID)", token: shop.customer.token).json["lines"].array
                    .compactMap { $0["substitute"]["id"].string }.first)
            #expect(try await app.decide(shop, substitution, "accept").status == .ok)
            board = try await app.form(.get, "/console/orders", cookie: cookie).text
            #expect(!board.contains("id=\"flag-substitution-\(number)\""))
        }
    }
}
