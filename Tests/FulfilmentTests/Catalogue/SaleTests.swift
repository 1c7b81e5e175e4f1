import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// ISO-8601 as the contract writes timestamps, `seconds` from now.
func isoFromNow(_ seconds: TimeInterval) -> JSONValue {
    .string(ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds)))
}

extension TestApp {
    /// A sale made by `manager` at `store`, from `start` to `end` seconds from now.
    func createSale(
        _ manager: Session, store: String, product: String, amount: Int, start: TimeInterval = -60, end: TimeInterval = 7 * 86_400,
        currency: String = "JMD"
    ) async throws -> TestReply {
        try await request(
            .post, "/v1/stores/\(store)/sales",
            json: [
                "productId": .string(product), "price": ["amount": .int(amount), "currency": .string(currency)],
                "startsAt": isoFromNow(start), "endsAt": isoFromNow(end),
            ], token: manager.token)
    }
}

@Suite("Sales: a store's manager puts a product on sale for a window; it is the price while it runs, and ends on time or when ended")
struct SaleTests {
    @Test("a running sale is the price at its store only, listed as running; ending it restores the regular price; ending again is 409")
    func runningSaleAndItsEnd() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "SA-A")
            let b = try await app.catalogueStore(code: "SA-B")
            let product = try await app.addProduct("Jerk Seasoning", price: 80_000, at: a)
            _ = try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 10)", [b.id, product], on: app.database)
            let manager = try await app.signIn(role: .manager, store: a.id)
            let staff = try await app.signIn(role: .staff, store: a.id)

            let made = try await app.createSale(manager, store: a.id, product: product, amount: 60_000)
            #expect(made.status == .created, "\(made.text)")
            #expect(made.json["state"].string == "running")
            #expect(made.json["price"]["amount"].int == 60_000)
            #expect(made.json["regularPrice"]["amount"].int == 80_000)
            #expect(made.json["productName"].string == "Jerk Seasoning")
            #expect(made.json["endedEarly"].bool == false)
            let sale = try #require(made.json["id"].string)

            #expect(try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)").json["price"]["amount"].int == 60_000)
            #expect(try await app.request(.get, "/v1/products/\(product)?storeId=\(b.id)").json["price"]["amount"].int == 80_000)

            let listed = try await app.request(.get, "/v1/stores/\(a.id)/sales", token: staff.token)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(listed.json["items"].array.map { $0["id"].string } == [sale])
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/sales?state=ended", token: staff.token).json["items"].array.isEmpty)
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/sales?state=upcoming", token: staff.token).json["items"].array.isEmpty)

            let byStaff = try await app.request(.post, "/v1/stores/\(a.id)/sales/\(sale)/end", token: staff.token)
            #expect(byStaff.status == .forbidden)
            let ended = try await app.request(.post, "/v1/stores/\(a.id)/sales/\(sale)/end", token: manager.token)
            #expect(ended.status == .ok, "\(ended.text)")
            #expect(ended.json["state"].string == "ended")
            #expect(ended.json["endedEarly"].bool == true)
            #expect(try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)").json["price"]["amount"].int == 80_000)
            let again = try await app.request(.post, "/v1/stores/\(a.id)/sales/\(sale)/end", token: manager.token)
            #expect(again.status == .conflict)
            #expect(again.json["error"]["code"].string == "sale_ended")
            let endedList = try await app.request(.get, "/v1/stores/\(a.id)/sales?state=ended", token: staff.token)
            #expect(endedList.json["items"].array.map { $0["id"].string } == [sale])
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/sales", token: staff.token).json["items"].array.isEmpty)
            let unknown = try await app.request(.post, "/v1/stores/\(a.id)/sales/\(UUID())/end", token: manager.token)
            #expect(unknown.status == .notFound)

            // A new sale may follow the ended one at once: the windows no longer overlap (one from
            // a minute ago still does: the ended sale ran then).
            let overlapping = try await app.createSale(manager, store: a.id, product: product, amount: 70_000, start: -60)
            #expect(overlapping.json["error"]["code"].string == "sale_overlaps")
            let next = try await app.createSale(manager, store: a.id, product: product, amount: 70_000, start: 1)
            #expect(next.status == .created, "\(next.text)")
        }
    }

    @Test("while a sale runs every listing shows the regular price and the sale's end beside the sale price; at other stores neither")
    func listingsShowRegularPrice() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "SA-G")
            let b = try await app.catalogueStore(code: "SA-H")
            let product = try await app.addProduct("Sorrel Drink", barcode: "4006381333931", price: 40_000, at: a)
            _ = try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 10)", [b.id, product], on: app.database)
            let manager = try await app.signIn(role: .manager, store: a.id)
            let made = try await app.createSale(manager, store: a.id, product: product, amount: 30_000, end: 3 * 86_400)
            let endsAt = try #require(made.json["endsAt"].string)

            func expectOnSale(_ json: JSONValue, _ what: String) {
                #expect(json["price"]["amount"].int == 30_000, "\(what)")
                #expect(json["regularPrice"]["amount"].int == 40_000, "\(what)")
                #expect(json["regularPrice"]["currency"].string == "JMD", "\(what)")
                #expect(json["saleEndsAt"].string == endsAt, "\(what)")
            }
            expectOnSale(try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)").json, "product")
            expectOnSale(try await app.request(.get, "/v1/products/barcode/4006381333931?storeId=\(a.id)").json, "barcode")
            expectOnSale(try await app.request(.get, "/v1/products?q=sorrel&storeId=\(a.id)").json["items"][0], "search")
            expectOnSale(try await app.request(.get, "/v1/products?storeId=\(a.id)").json["items"][0], "list")
            let offers = try await app.request(.get, "/v1/products/barcode/4006381333931/prices").json["items"].array
            #expect(offers.map { $0["storeId"].string } == [a.id, b.id])
            expectOnSale(offers[0], "best price at A")
            #expect(!offers[1].has("regularPrice") && !offers[1].has("saleEndsAt"))
            let atB = try await app.request(.get, "/v1/products/\(product)?storeId=\(b.id)").json
            #expect(atB["price"]["amount"].int == 40_000)
            #expect(!atB.has("regularPrice") && !atB.has("saleEndsAt"))
            #expect(!(try await app.request(.get, "/v1/products/\(product)").json.has("regularPrice")))

            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: a.id, [(product, 1)])
            let line = try await app.request(.get, "/v1/cart", token: customer.token).json["items"][0]
            #expect(line["unitPrice"]["amount"].int == 30_000)
            #expect(line["regularPrice"]["amount"].int == 40_000)
            #expect(line["saleEndsAt"].string == endsAt)
            _ = try await app.request(.put, "/v1/favourites/\(product)", token: customer.token)
            let favourite = try await app.request(.get, "/v1/favourites?storeId=\(a.id)", token: customer.token)
            expectOnSale(favourite.json["items"][0]["product"], "favourites")
        }
    }

    @Test("the demo store runs a week's sale on two lines: best price shows the sale with the regular price at Kingston, none at Montego Bay")
    func demoSales() async throws {
        try await withApp { app in
            _ = try await app.loadDemo()
            let stores = try await app.request(.get, "/v1/stores").json["items"].array
            let kingston = try #require(stores.first { $0["code"].string == DemoCatalogue.storeCode }?["id"].string)
            let manager = try await app.signIn(role: .manager, store: kingston)
            let running = try await app.request(.get, "/v1/stores/\(kingston)/sales?state=running", token: manager.token).json["items"].array
            #expect(running.count == DemoSales.offers.count)
            let ackee = try #require(DemoCatalogue.products.first { $0.sku == "QC-0029" })
            let offers = try await app.request(.get, "/v1/products/barcode/\(try #require(ackee.barcode))/prices").json["items"].array
            #expect(offers.map { $0["storeCode"].string } == [DemoCatalogue.storeCode, DemoCatalogue.secondStoreCode])
            #expect(offers.first?["price"]["amount"].int == ackee.price - Int(Money.percentage(of: Int64(ackee.price), basisPoints: 2_000)))
            #expect(offers.first?["regularPrice"]["amount"].int == ackee.price)
            #expect(offers.last?["price"]["amount"].int == ackee.price)
            #expect(offers.last?.has("regularPrice") == false)
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let endsAt = try #require(running.first?["endsAt"].string)
            let ends = try #require(fractional.date(from: endsAt) ?? ISO8601DateFormatter().date(from: endsAt))
            #expect(abs(ends.timeIntervalSinceNow - DemoSales.length) < 600)
        }
    }

    @Test("an upcoming sale is listed as upcoming, is not yet the price, and ending it withdraws it")
    func upcomingSaleWithdrawn() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "SA-C")
            let product = try await app.addProduct("Bammy", price: 50_000, at: a)
            let manager = try await app.signIn(role: .manager, store: a.id)
            let made = try await app.createSale(manager, store: a.id, product: product, amount: 40_000, start: 86_400, end: 2 * 86_400)
            #expect(made.status == .created, "\(made.text)")
            #expect(made.json["state"].string == "upcoming")
            let sale = try #require(made.json["id"].string)
            #expect(try await app.request(.get, "/v1/products/\(product)?storeId=\(a.id)").json["price"]["amount"].int == 50_000)
            let upcoming = try await app.request(.get, "/v1/stores/\(a.id)/sales?state=upcoming", token: manager.token)
            #expect(upcoming.json["items"].array.map { $0["id"].string } == [sale])
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/sales?state=running", token: manager.token).json["items"].array.isEmpty)

            let withdrawn = try await app.request(.post, "/v1/stores/\(a.id)/sales/\(sale)/end", token: manager.token)
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            #expect(withdrawn.json["state"].string == "withdrawn")
            #expect(try await sql("SELECT count(*) FROM store_sales", on: app.database)[0][0] == "0")
            #expect(try await app.request(.post, "/v1/stores/\(a.id)/sales/\(sale)/end", token: manager.token).status == .notFound)
        }
    }

    @Test("refusals: unknown, discontinued or uncarried product, price not below regular, wrong currency, bad windows, overlap, other store")
    func refusals() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "SA-D")
            let b = try await app.catalogueStore(code: "SA-E")
            let product = try await app.addProduct("Callaloo", price: 30_000, at: a)
            let uncarried = try await app.addProduct("Breadfruit", price: 30_000)
            let gone = try await app.addProduct("Old Stock", price: 30_000, at: a)
            _ = try await sql("UPDATE products SET discontinued = true WHERE id = $1", [gone], on: app.database)
            let manager = try await app.signIn(role: .manager, store: a.id)
            let other = try await app.signIn(role: .manager, store: b.id)
            _ = try await sql(
                "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, $2, 25000)", [a.id, product], on: app.database)

            func code(_ reply: TestReply) -> String? { reply.json["error"]["code"].string }
            func field(_ reply: TestReply) -> String? { reply.json["error"]["details"]["field"].string }

            let unknown = try await app.createSale(manager, store: a.id, product: UUID().uuidString, amount: 1)
            #expect(unknown.status == .notFound)
            let discontinued = try await app.createSale(manager, store: a.id, product: gone, amount: 1)
            #expect(discontinued.status == .conflict && code(discontinued) == "product_discontinued", "\(discontinued.text)")
            let notCarried = try await app.createSale(manager, store: a.id, product: uncarried, amount: 1)
            #expect(notCarried.status == .conflict && code(notCarried) == "not_in_range", "\(notCarried.text)")
            // The regular price here is the store's own (25000), not the catalogue's.
            let notLower = try await app.createSale(manager, store: a.id, product: product, amount: 25_000)
            #expect(notLower.status == .unprocessableContent && code(notLower) == "sale_price_not_lower", "\(notLower.text)")
            #expect(notLower.json["error"]["details"]["regularPrice"]["amount"].int == 25_000)
            // Money in a sentence reads as money (issue 46), not as minor units.
            #expect(notLower.json["error"]["message"].string == "A sale price must be below the regular price here, JMD 250.00.")
            let currency = try await app.createSale(manager, store: a.id, product: product, amount: 1, currency: "USD")
            #expect(currency.status == .unprocessableContent && field(currency) == "currency", "\(currency.text)")
            let day: TimeInterval = 86_400
            let windows: [(TimeInterval, TimeInterval, String)] = [
                (3600, 3600, "endsAt"), (3600, 60, "endsAt"), (-7200, -3600, "endsAt"), (0, 367 * day, "endsAt"),
                (3 * 366 * day, 3 * 366 * day + 60, "startsAt"),
            ]
            for (start, end, name) in windows {
                let bad = try await app.createSale(manager, store: a.id, product: product, amount: 1, start: start, end: end)
                #expect(bad.status == .unprocessableContent && field(bad) == name, "\(start)...\(end): \(bad.text)")
            }
            let outOfRange = try await app.request(
                .post, "/v1/stores/\(a.id)/sales",
                json: [
                    "productId": .string(product), "price": ["amount": -1, "currency": "JMD"], "startsAt": isoFromNow(0),
                    "endsAt": isoFromNow(60),
                ], token: manager.token)
            #expect(outOfRange.status == .unprocessableContent, "\(outOfRange.text)")
            let intruder = try await app.createSale(other, store: a.id, product: product, amount: 1)
            #expect(intruder.status == .forbidden)
            #expect(try await sql("SELECT count(*) FROM store_sales", on: app.database)[0][0] == "0")

            #expect(try await app.createSale(manager, store: a.id, product: product, amount: 20_000, start: -60, end: 86_400).status == .created)
            let overlapping = try await app.createSale(manager, store: a.id, product: product, amount: 19_000, start: 3600, end: 2 * 86_400)
            #expect(overlapping.status == .conflict && code(overlapping) == "sale_overlaps", "\(overlapping.text)")
            let after = try await app.createSale(manager, store: a.id, product: product, amount: 19_000, start: 86_400, end: 2 * 86_400)
            #expect(after.status == .created, "a sale starting as the other ends does not overlap: \(after.text)")
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/sales", token: other.token).status == .forbidden)
        }
    }

    @Test("the list pages by start with a cursor, no sale twice and none missed")
    func paging() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore(code: "SA-F")
            let manager = try await app.signIn(role: .manager, store: a.id)
            var made: [String] = []
            for i in 0..<5 {
                let product = try await app.addProduct("Sale item \(i)", price: 10_000, at: a)
                let sale = try await app.createSale(manager, store: a.id, product: product, amount: 5_000, start: Double(i) * 3600 - 60)
                made.append(try #require(sale.json["id"].string))
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await app.request(
                    .get, "/v1/stores/\(a.id)/sales?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: manager.token)
                #expect(page.status == .ok, "\(page.text)")
                seen += page.json["items"].array.compactMap { $0["id"].string }
                cursor = page.json["nextCursor"].string
            } while cursor != nil && seen.count < 10
            #expect(seen == made)
            let bad = try await app.request(.get, "/v1/stores/\(a.id)/sales?cursor=nonsense", token: manager.token)
            #expect(bad.status == .unprocessableContent)
        }
    }
}
