import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Product listings: filters, sorts, and cursors that hold while prices change and products arrive")
struct ProductListingTests {
    @Test("every filter and sort combines with q and storeId")
    func filtersAndSorts() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "PL-KGN")
            let other = try await app.catalogueStore(code: "PL-MBJ")
            let milk = try await app.addProduct("Whole milk", category: "Dairy", price: 30000, at: store)
            let cheese = try await app.addProduct("Cheddar cheese", category: "Dairy", price: 90000, at: store)
            let yoghurt = try await app.addProduct("Milk yoghurt", category: "Dairy", price: 20000, at: store)
            let beef = try await app.addProduct("Corned beef", category: "Canned goods", price: 50000, at: store)
            try await app.addProduct("Milk powder", category: "Dairy", price: 10000, at: other)
            // The store sells cheddar at its own price; milk is on sale; beef has a sale that
            // would not make it cheaper; yoghurt and beef are old to the range, the rest new.
            try await sql(
                "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, $2, 15000)", [store.id, cheese], on: app.database)
            for (product, price) in [(milk, "25000"), (beef, "60000")] {
                try await sql(
                    """
                    INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                    VALUES ($1, $2, $3::bigint, now() - interval '1 hour', now() + interval '1 day')
                    """, [store.id, product, price], on: app.database)
            }
            try await sql(
                "UPDATE stock SET added_at = now() - interval '30 days' WHERE store_id = $1 AND product_id IN ($2, $3)",
                [store.id, yoghurt, beef], on: app.database)
            try await sql("UPDATE products SET created_at = now() - interval '30 days' WHERE id IN ($1, $2)", [yoghurt, beef], on: app.database)
            let at = "storeId=\(store.id)"

            // Default: name without q, relevance with it.
            #expect(try await app.names("/v1/products?\(at)") == ["Cheddar cheese", "Corned beef", "Milk yoghurt", "Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&sort=name&q=milk") == ["Milk yoghurt", "Whole milk"])
            #expect(Set(try await app.names("/v1/products?\(at)&q=milk")) == ["Milk yoghurt", "Whole milk"])
            #expect(Set(try await app.names("/v1/products?\(at)&q=milk&sort=relevance")) == ["Milk yoghurt", "Whole milk"])
            // Price: the store's price, sale applied, cheapest first.
            let byPrice = try await app.request(.get, "/v1/products?\(at)&sort=price")
            #expect(byPrice.json["items"].array.map { $0["name"].string } == ["Cheddar cheese", "Milk yoghurt", "Whole milk", "Corned beef"])
            #expect(byPrice.json["items"].array.map { $0["price"]["amount"].int } == [15000, 20000, 25000, 50000])
            #expect(try await app.names("/v1/products?\(at)&sort=price&q=milk") == ["Milk yoghurt", "Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&sort=price&category=Dairy") == ["Cheddar cheese", "Milk yoghurt", "Whole milk"])
            // On sale: only a running sale that makes it cheaper.
            #expect(try await app.names("/v1/products?\(at)&onSale=true") == ["Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&onSale=true&q=milk&sort=price") == ["Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&onSale=true&q=cheese").isEmpty)
            #expect(try await app.names("/v1/products?\(at)&onSale=false").count == 4)
            // New: within the store's window (14 days unless it says).
            #expect(try await app.names("/v1/products?\(at)&new=true") == ["Cheddar cheese", "Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&new=true&q=milk") == ["Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&new=true&onSale=true&category=Dairy") == ["Whole milk"])
            try await sql("UPDATE stores SET new_arrival_window = interval '60 days' WHERE id = $1", [store.id], on: app.database)
            #expect(try await app.names("/v1/products?\(at)&new=true").count == 4)
            // Newest: latest added to the store's range; without a store, to the catalogue.
            let newest = try await app.names("/v1/products?\(at)&sort=newest")
            #expect(Set(newest.prefix(2)) == ["Cheddar cheese", "Whole milk"])
            #expect(Set(newest.suffix(2)) == ["Milk yoghurt", "Corned beef"])
            #expect(try await app.names("/v1/products?\(at)&sort=newest&q=milk") == ["Whole milk", "Milk yoghurt"])
            #expect(try await app.names("/v1/products?sort=newest&q=milk") == ["Milk powder", "Whole milk", "Milk yoghurt"])
            // Category: exactly as GET /v1/categories names it, spaces around ignored.
            let categories = try await app.request(.get, "/v1/categories?\(at)")
            for category in categories.json["items"].array.compactMap({ $0["name"].string }) {
                let listed = try await app.names("/v1/products?\(at)&category=\(q(category))")
                #expect(listed.count == categories.json["items"].array.first { $0["name"].string == category }?["productCount"].int)
            }
            #expect(Set(try await app.names("/v1/products?\(at)&category=%20Dairy%20&q=milk")) == ["Milk yoghurt", "Whole milk"])
            #expect(try await app.names("/v1/products?\(at)&category=dairy").isEmpty)
            #expect(try await app.names("/v1/products?category=Dairy&sort=name") == ["Cheddar cheese", "Milk powder", "Milk yoghurt", "Whole milk"])
        }
    }

    @Test("bad values are 422: an unknown sort, a non-boolean, relevance without q, per-store filters without storeId")
    func badValues() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Whole milk", at: store)
            for (query, code) in [
                ("sort=cheapest", "invalid_parameter"), ("onSale=yes", "invalid_parameter"), ("new=1x", "invalid_parameter"),
                ("sort=relevance", "invalid_field"), ("sort=relevance&q=%20%20", "invalid_field"),
                ("sort=price", "store_required"), ("onSale=true", "store_required"), ("new=true&q=milk", "store_required"),
                ("sort=price&storeId=\(store.id)&cursor=nonsense", "invalid_cursor"),
                // The contract's maxLength counts code points: 201 of them is one too many, however they render.
                ("category=" + String(repeating: "0", count: 201), "invalid_field"),
                ("q=" + String(repeating: "%C3%A9", count: 101), "invalid_field"),
            ] {
                let reply = try await app.request(.get, "/v1/products?\(query)")
                #expect(reply.status == .unprocessableContent, "\(query): \(reply.text)")
                #expect(reply.errorCode == code, "\(query): \(reply.text)")
            }
            let missing = try await app.request(.get, "/v1/products?sort=price")
            #expect(missing.json["error"]["details"]["field"].string == "sort")
        }
    }

    @Test("a cursor works only for the listing that gave it out: another sort or other filters are 422 invalid_cursor")
    func cursorOfAnotherListing() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            for index in 1...4 { try await app.addProduct("Milk \(index)", price: 1000 * index, at: store) }
            let first = try await app.request(.get, "/v1/products?storeId=\(store.id)&sort=price&limit=2")
            let cursor = try #require(first.json["nextCursor"].string)
            let next = try await app.request(.get, "/v1/products?storeId=\(store.id)&sort=price&limit=2&cursor=\(cursor)")
            #expect(next.status == .ok)
            #expect(next.json["items"].array.map { $0["name"].string } == ["Milk 3", "Milk 4"])
            for other in ["sort=name", "sort=newest", "sort=price&q=milk", "sort=price&onSale=true", "sort=price&category=Dairy"] {
                let reply = try await app.request(.get, "/v1/products?storeId=\(store.id)&\(other)&limit=2&cursor=\(cursor)")
                #expect(reply.status == .unprocessableContent, "\(other)")
                #expect(reply.errorCode == "invalid_cursor", "\(other)")
            }
            let elsewhere = try await app.request(.get, "/v1/products?sort=name&limit=2&cursor=\(cursor)")
            #expect(elsewhere.errorCode == "invalid_cursor")
        }
    }

    @Test(
        "paging by price while another connection moves prices across the cursor and adds products: exactly the first page's set, once each, in its order"
    )
    func pagingByPriceWhilePricesMove() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            var ids: [String: String] = [:]
            for index in 1...12 {
                ids["P\(index)"] = try await app.addProduct("P\(index)", price: 1000 * index, at: store)
            }
            // Two have the store's own price, one is on sale: the ordering is the store's.
            try await sql(
                "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, $2, 6500)", [store.id, ids["P2"]!], on: app.database)
            try await sql(
                """
                INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                VALUES ($1, $2, 500, now() - interval '1 hour', now() + interval '1 day')
                """, [store.id, ids["P11"]!], on: app.database)
            let path = "/v1/products?storeId=\(store.id)&sort=price"
            let expected = try await app.names(path + "&limit=100")
            #expect(expected == ["P11", "P1", "P3", "P4", "P5", "P6", "P2", "P7", "P8", "P9", "P10", "P12"])

            let changes: [[String]] = [
                // After page 1 (P11 P1 P3): a product ahead of the cursor drops below it, one seen moves up past everything.
                [
                    "UPDATE products SET price_amount = 1 WHERE name = 'P9'",
                    "UPDATE products SET price_amount = 99000 WHERE name = 'P1'",
                    "INSERT INTO store_prices (store_id, product_id, price_amount) VALUES ($1, (SELECT id FROM products WHERE name = 'P12'), 2)",
                ],
                // After page 2 (P4 P5 P6): the store's own price goes away and back, a sale ends and one starts, new products arrive at both ends.
                [
                    "DELETE FROM store_prices WHERE store_id = $1 AND product_id = (SELECT id FROM products WHERE name = 'P2')",
                    "UPDATE store_sales SET ends_at = now() WHERE store_id = $1",
                    """
                    INSERT INTO store_sales (store_id, product_id, price_amount, starts_at, ends_at)
                    VALUES ($1, (SELECT id FROM products WHERE name = 'P10'), 3, now(), now() + interval '1 day')
                    """,
                    "UPDATE store_prices SET price_amount = 100 WHERE store_id = $1",
                ],
                [],
                [],
            ]
            var seen: [String] = []
            var cursor: String?
            var page = 0
            repeat {
                let reply = try await app.request(.get, path + "&limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(reply.status == .ok, "\(reply.text)")
                seen += reply.json["items"].array.compactMap { $0["name"].string }
                cursor = reply.json["nextCursor"].string
                for statement in page < changes.count ? changes[page] : [] {
                    try await sql(statement, statement.contains("$1") ? [store.id] : [], on: app.database)
                }
                if page < 2 {
                    // New products, cheap and dear, in the catalogue and in the store's range.
                    try await app.addProduct("New cheap \(page)", price: 1, at: store)
                    try await app.addProduct("New dear \(page)", price: 999_000, at: store)
                }
                page += 1
            } while cursor != nil && page < 20
            #expect(seen == expected)
            // The prices shown are today's; a fresh first page orders by them and has the new products.
            let fresh = try await app.request(.get, path + "&limit=100")
            let names = fresh.json["items"].array.compactMap { $0["name"].string }
            #expect(names.count == 16)
            #expect(names.prefix(3).contains("P9"))
            #expect(fresh.json["items"].array.first { $0["name"].string == "P1" }?["price"]["amount"].int == 99000)
            // The whole range's prices at a moment (store_prices_at, what the listing joins) agree
            // with the one-product routines at every moment a price changed, and just before it.
            let disagreeing = try await sql(
                """
                WITH changes AS (
                    SELECT lower(valid) AS at FROM catalogue_price_history UNION SELECT lower(valid) FROM store_price_history
                    UNION SELECT starts_at FROM store_sales UNION SELECT ends_at FROM store_sales UNION SELECT now())
                SELECT count(*) FROM changes m, LATERAL (VALUES (m.at), (m.at - interval '1 microsecond')) t(at),
                    LATERAL store_prices_at($1, t.at) x
                WHERE (x.price_amount, x.regular_amount)
                    IS DISTINCT FROM (store_price_at(x.product_id, $1, t.at), store_regular_price_at(x.product_id, $1, t.at))
                """, [store.id], on: app.database)
            #expect(disagreeing == [["0"]])
            // What is on sale (store_sale_prices_at, what the offers join) is exactly the whole
            // range's rows priced below their regular price, at each of those moments.
            let offersDisagreeing = try await sql(
                """
                WITH changes AS (
                    SELECT lower(valid) AS at FROM catalogue_price_history UNION SELECT lower(valid) FROM store_price_history
                    UNION SELECT starts_at FROM store_sales UNION SELECT ends_at FROM store_sales UNION SELECT now()),
                moments AS (SELECT t.at FROM changes m, LATERAL (VALUES (m.at), (m.at - interval '1 microsecond')) t(at)),
                whole AS (SELECT m.at, x.* FROM moments m, LATERAL store_prices_at($1, m.at) x WHERE x.price_amount < x.regular_amount),
                sales AS (SELECT m.at, x.* FROM moments m, LATERAL store_sale_prices_at($1, m.at) x)
                SELECT (SELECT count(*) FROM (SELECT * FROM whole EXCEPT ALL SELECT * FROM sales) a)
                     + (SELECT count(*) FROM (SELECT * FROM sales EXCEPT ALL SELECT * FROM whole) b),
                       (SELECT count(*) FROM sales)
                """, [store.id], on: app.database)
            #expect(offersDisagreeing.first?.first == .some("0"))
            #expect(Int((offersDisagreeing.first?.last ?? nil) ?? "") ?? 0 > 0, "some moment has a sale")
        }
    }

    @Test("paging by name, newest and relevance while products are added and prices change: no duplicates, no gaps")
    func pagingOtherSortsWhileRowsArrive() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            for index in 1...9 {
                let id = try await app.addProduct("Milk \(Character(UnicodeScalar(UInt8(66 + index))))", price: 1000 * index, at: store)
                try await sql(
                    "UPDATE stock SET added_at = now() - make_interval(hours => $2::int) WHERE product_id = $1", [id, String(index)],
                    on: app.database)
            }
            for query in ["sort=name", "sort=newest", "q=milk", "q=milk&sort=newest&onSale=false", "sort=name&new=true"] {
                let path = "/v1/products?storeId=\(store.id)&\(query)"
                let expected = try await app.names(path + "&limit=100")
                #expect(expected.count >= 9 && expected.count < 100, "\(query)")
                // Four or five pages, whatever earlier rounds added.
                let limit = max(2, expected.count / 4)
                var seen: [String] = []
                var cursor: String?
                var page = 0
                repeat {
                    let reply = try await app.request(.get, path + "&limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
                    #expect(reply.status == .ok, "\(query): \(reply.text)")
                    seen += reply.json["items"].array.compactMap { $0["name"].string }
                    cursor = reply.json["nextCursor"].string
                    // Names that sort first, last and in between; the newest of all.
                    for name in ["Milk A \(query) \(page)", "Milk Z \(query) \(page)", "Milk E2 \(query) \(page)"] {
                        try await app.addProduct(name, price: 1, at: store)
                    }
                    try await sql("UPDATE products SET price_amount = price_amount + 1", on: app.database)
                    page += 1
                } while cursor != nil && page < 20
                #expect(seen == expected, "\(query)")
                #expect(Set(seen).count == seen.count, "\(query)")
            }
            // Without a store, new products (made after the first page) are left out the same way.
            let path = "/v1/products?sort=newest&q=milk"
            let expected = try await app.names(path + "&limit=100")
            var seen: [String] = []
            var cursor: String?
            repeat {
                let reply = try await app.request(.get, path + "&limit=5" + (cursor.map { "&cursor=\($0)" } ?? ""))
                seen += reply.json["items"].array.compactMap { $0["name"].string }
                cursor = reply.json["nextCursor"].string
                try await app.addProduct("Milk made later \(seen.count)")
            } while cursor != nil && seen.count < 200
            #expect(seen == expected)
        }
    }

    @Test(
        "an admin or the store's manager sets its new-arrival window in days (1 to 365), and new=true follows it; staff and another store's manager cannot"
    )
    func newArrivalWindow() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "NEW-KGN")
            let old = try await app.addProduct("Old bread", at: store)
            try await app.addProduct("Fresh bread", at: store)
            try await sql("UPDATE stock SET added_at = now() - interval '20 days' WHERE product_id = $1", [old], on: app.database)
            let admin = try await app.signInAdmin()
            #expect(try await app.request(.get, "/v1/stores/\(store.id)").json["newArrivalDays"].int == 14)
            #expect(try await app.names("/v1/products?storeId=\(store.id)&new=true") == ["Fresh bread"])

            let widened = try await app.request(.patch, "/v1/stores/\(store.id)", json: ["newArrivalDays": 30], token: admin.token)
            #expect(widened.status == .ok, "\(widened.text)")
            #expect(widened.json["newArrivalDays"].int == 30)
            #expect(try await app.names("/v1/products?storeId=\(store.id)&new=true") == ["Fresh bread", "Old bread"])
            for days in [0, 366, -1] {
                let refused = try await app.request(.patch, "/v1/stores/\(store.id)", json: ["newArrivalDays": .int(days)], token: admin.token)
                #expect(refused.status == .unprocessableContent, "\(days): \(refused.text)")
            }
            let staff = try await app.signIn(role: .staff, store: store.id)
            #expect(try await app.request(.patch, "/v1/stores/\(store.id)", json: ["newArrivalDays": 2], token: staff.token).status == .forbidden)
            let stranger = try await app.signIn(role: .manager, store: try await app.createStore())
            #expect(try await app.request(.patch, "/v1/stores/\(store.id)", json: ["newArrivalDays": 2], token: stranger.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(store.id)").json["newArrivalDays"].int == 30)
            // The store's own manager keeps it (issue 46).
            let manager = try await app.signIn(role: .manager, store: store.id)
            #expect(try await app.request(.patch, "/v1/stores/\(store.id)", json: ["newArrivalDays": 21], token: manager.token).status == .ok)
            #expect(try await app.request(.get, "/v1/stores/\(store.id)").json["newArrivalDays"].int == 21)
        }
    }

    @Test("fulfilment store update --new-arrival-days sets the window; outside 1 to 365 is refused with exit 1")
    func newArrivalWindowFromTheCommandLine() async throws {
        try await withTestDatabase { database in
            let url = ["--database-url", Backup.conninfo(database)]
            let created = try await ServiceProcess.run(["store", "create", "--code", "NEW-1", "--name", "New", "--currency", "JMD"] + url)
            #expect(created.status == 0, "\(created.output)")
            let set = try await ServiceProcess.run(["store", "update", "--store", "NEW-1", "--new-arrival-days", "7"] + url)
            #expect(set.status == 0, "\(set.output)")
            #expect(try await sql("SELECT new_arrival_window::text FROM stores WHERE code = 'NEW-1'", on: database) == [["7 days"]])
            let refused = try await ServiceProcess.run(["store", "update", "--store", "NEW-1", "--new-arrival-days", "400"] + url)
            #expect(refused.status == 1)
            #expect(refused.output.contains("1 to 365 days"), "\(refused.output)")
        }
    }
}
