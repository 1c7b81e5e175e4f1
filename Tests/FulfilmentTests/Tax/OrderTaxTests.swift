import Foundation
import Testing

@testable import FulfilmentDomain

/// An order's tax as its customer and the store read it (issue 48), on a real PostgreSQL.
@Suite("Tax: an order's tax per rate, kept through rate changes")
struct OrderTaxTests {
    @Test("a Jamaican store's order shows GCT at 15 % and zero-rated basics apart; a later rate change leaves it as it was")
    func gctOnAnOrder() async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Quick Cart Half Way Tree")
            // The store's manager gives its GCT registration number and address (`updateStore`);
            // a number with characters no authority issues is refused, nothing changed.
            let manager = try await app.signIn(role: .manager, store: store)
            let refused = try await app.request(.patch, "/v1/stores/\(store)", json: ["taxNumber": "000<123>"], token: manager.token)
            #expect(refused.status == .unprocessableContent && refused.json["error"]["details"]["field"].string == "taxNumber")
            let kept = try await app.request(
                .patch, "/v1/stores/\(store)", json: ["taxNumber": " 000-123-456 ", "address": "1 Hope Road, Kingston"], token: manager.token)
            #expect(kept.status == .ok, "\(kept.text)")
            #expect(kept.json["taxNumber"].string == "000-123-456" && kept.json["taxJurisdiction"].string == "JM")
            let rum = try await app.addProduct(store: store, name: "Rum", price: 115_000)
            let rice = try await app.addProduct(store: store, name: "Rice", price: 40_000)
            try await sql("UPDATE products SET tax_class = 'zero' WHERE id = $1", [rice], on: app.database)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(rum, 1), (rice, 2)])
            let placed = try await app.checkout(customer)
            #expect(placed.status == .created, "\(placed.text)")
            let id = try #require(placed.json["id"].string)

            func tax() async throws -> JSONValue { try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["tax"] }
            let before = try await tax()
            #expect(before["name"].string == "GCT")
            #expect(before["number"].string == "000-123-456")
            #expect(before["seller"].string == "Quick Cart Half Way Tree")
            #expect(before["address"].string == "1 Hope Road, Kingston")
            #expect(before["rates"][0]["rateBasisPoints"].int == 1500)
            #expect(before["rates"][0]["gross"]["amount"].int == 115_000)
            #expect(before["rates"][0]["tax"]["amount"].int == 15_000)
            #expect(before["rates"][0]["net"]["amount"].int == 100_000)
            #expect(before["rates"][1]["rateBasisPoints"].int == 0)
            #expect(before["rates"][1]["gross"]["amount"].int == 80_000)
            #expect(before["rates"][1]["tax"]["amount"].int == 0)
            #expect(before["tax"] == ["amount": 15_000, "currency": "JMD"])
            // Checkout's own answer says the same tax, and each line its class and rate (no extra statement:
            // the context read and `place_order` carry them).
            #expect(placed.json["tax"] == before)
            #expect(placed.json["lines"] == (try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["lines"]))
            // The order's page says the tax in the total and links the GCT receipt, which lists
            // each line's rate and the figures per rate; another customer does not find it.
            let cookie = ShopOrderPageTests.cookie(customer)
            let page = try await app.form(.get, "/orders/\(id)", cookie: cookie).text
            #expect(page.contains("Includes GCT JMD 150.00"), "\(page)")
            let receipt = try await app.form(.get, "/orders/\(id)/tax-receipt", cookie: cookie)
            #expect(receipt.status == .ok)
            for words in [
                "GCT receipt", "Quick Cart Half Way Tree", "1 Hope Road, Kingston", "000-123-456", "1 × Rum", "2 × Rice", "15%", "0%", "JMD 1,000.00",
            ] {
                #expect(receipt.text.contains(words), "\(words)")
            }
            let stranger = try await app.registerCustomer()
            #expect(try await app.form(.get, "/orders/\(id)/tax-receipt", cookie: ShopOrderPageTests.cookie(stranger)).status == .notFound)
            let staff = try await app.signIn(role: .staff, store: store)
            let desk = try await app.form(.get, "/console/orders/\(id)/tax-receipt", cookie: ShopOrderPageTests.cookie(staff))
            #expect(desk.status == .ok && desk.text.contains("id=\"tax-total\""), "\(desk.status)")
            let lines = try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["lines"]
            #expect(Set([lines[0]["taxClass"].string, lines[1]["taxClass"].string]) == ["standard", "zero"])

            // GCT goes up to 16.5 % from today: this order keeps the rate it was placed at; the
            // next one is charged the new one.
            try await sql(
                "INSERT INTO tax_rates (jurisdiction, tax_class, rate_bp, valid_from) VALUES ('JM', 'standard', 1650, current_date)",
                on: app.database)
            #expect(try await tax() == before)
            try await app.fillCart(customer, store: store, [(rum, 1)])
            let next = try #require(try await app.checkout(customer).json["id"].string)
            let nextTax = try await app.request(.get, "/v1/orders/\(next)", token: customer.token).json["tax"]
            #expect(nextTax["rates"][0]["rateBasisPoints"].int == 1650)
            #expect(nextTax["rates"][0]["tax"]["amount"].int == 16_288, "115,000 × 1650 ÷ 11650 = 16,287.55")
        }
    }

    @Test("the data export gives each order's tax per rate, equal to its receipt's after a coupon's odd shares, a short pick and an exempt line")
    func exportAgreesWithTheReceipt() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            // Prices chosen so a 7 % coupon's shares are fractions of a minor unit on every line.
            let rum = try await app.addProduct(store: store, name: "Rum", price: 999)
            let rice = try await app.addProduct(store: store, name: "Rice", price: 333)
            let stamp = try await app.addProduct(store: store, name: "Stamp", price: 251)
            try await sql("UPDATE products SET tax_class = 'zero' WHERE id = $1", [rice], on: app.database)
            try await sql("UPDATE products SET tax_class = 'exempt' WHERE id = $1", [stamp], on: app.database)
            let coupon = try await app.request(
                .post, "/v1/stores/\(store)/coupons", json: ["code": "SEVEN", "percentOffBasisPoints": 700], token: manager.token)
            #expect(coupon.status == .created, "\(coupon.text)")
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(rum, 3), (rice, 3), (stamp, 1)])
            #expect(try await app.request(.put, "/v1/cart/coupon", json: ["code": "SEVEN"], token: customer.token).status == .ok)
            let placed = try await app.checkout(customer)
            #expect(placed.status == .created, "\(placed.text)")
            let id = try #require(placed.json["id"].string)

            /// The receipt's figures (getOrder) and the export's for this order.
            func both() async throws -> (receipt: JSONValue, export: JSONValue) {
                let receipt = try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["tax"]
                let orders = try await app.request(.get, "/v1/me/export", token: customer.token).json["orders"].array
                let exported = try #require(orders.first { $0["id"].string == id })["tax"]
                return (receipt, exported)
            }
            var (receipt, exported) = try await both()
            #expect(receipt["rates"].array.count == 3, "15 %, zero-rated and exempt apart: \(receipt)")
            #expect(exported["rates"] == receipt["rates"])
            #expect(exported["tax"] == receipt["tax"] && exported["name"] == receipt["name"])

            // Picked with one rum short: the rum's gross and tax change; both still agree.
            let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(id)]], token: staff.token)
            let listID = try #require(list.json["id"].string)
            for (product, quantity, short) in [(rum, 2, true), (rice, 3, false), (stamp, 1, false)] {
                let pick = try await app.request(
                    .post, "/v1/pick-lists/\(listID)/picks",
                    json: ["orderId": .string(id), "productId": .string(product), "quantity": .int(quantity), "short": .bool(short)],
                    token: staff.token)
                #expect(pick.status == .ok, "\(pick.text)")
            }
            #expect(try await app.request(.post, "/v1/pick-lists/\(listID)/complete", token: staff.token).status == .ok)
            let before = receipt
            (receipt, exported) = try await both()
            #expect(receipt["rates"][0]["gross"] != before["rates"][0]["gross"], "the short rum is off the 15 % gross")
            #expect(exported["rates"] == receipt["rates"])
            #expect(exported["tax"] == receipt["tax"])
        }
    }

    @Test("a store in no jurisdiction shows no tax; its products still sell")
    func noJurisdiction() async throws {
        try await withApp { app in
            let store = try await sql("INSERT INTO stores (code, name, currency) VALUES ('US-1', 'Elsewhere', 'USD') RETURNING id", on: app.database)[
                0][0]!
            #expect(try await sql("SELECT tax_jurisdiction FROM stores WHERE id = $1", [store], on: app.database)[0][0] == nil)
            let product = try await app.addProduct(store: store, name: "Tea", price: 500)
            try await sql("UPDATE products SET currency = 'USD' WHERE id = $1", [product], on: app.database)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 1)])
            let placed = try await app.checkout(customer)
            #expect(placed.status == .created, "\(placed.text)")
            let order = try await app.request(.get, "/v1/orders/\(placed.json["id"].string ?? "")", token: customer.token).json
            #expect(order["id"] == placed.json["id"])
            #expect(order["tax"] == .null)
            #expect(order["lines"][0]["taxClass"] == .null)
            #expect(placed.json["tax"] == .null)
            #expect(placed.json["lines"][0]["taxClass"] == .null)
            let exported = try await app.request(.get, "/v1/me/export", token: customer.token).json["orders"].array
            #expect(exported.first { $0["id"] == placed.json["id"] }?["tax"] == .null)
        }
    }

    @Test("the chain's admin classes a product; the class is in the product's answer; an unknown class is 400/422")
    func productClass() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, name: "Bread")
            let admin = try await app.signInAdmin()
            #expect(try await app.request(.get, "/v1/products/\(product)").json["taxClass"].string == "standard")
            let zero = try await app.request(.patch, "/v1/products/\(product)", json: ["taxClass": "zero"], token: admin.token)
            #expect(zero.status == .ok && zero.json["taxClass"].string == "zero")
            let wrong = try await app.request(.patch, "/v1/products/\(product)", json: ["taxClass": "luxury"], token: admin.token)
            #expect(wrong.status.code >= 400 && wrong.status.code < 500)
            #expect(try await sql("SELECT tax_class FROM products WHERE id = $1", [product], on: app.database)[0][0] == "zero")
        }
    }
}
