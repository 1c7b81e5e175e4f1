import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: the products and picking reports over a year of a busy store answer in under a
/// second because they read roll-ups the database keeps as orders, lines and pick lists change
/// (migration 061). The roll-ups must say exactly what the raw rows say, whatever happened to
/// the orders, store by store and day by day in the store's own zone, and however many
/// checkouts land on one product's day at once.
@Suite("Reports: roll-ups say what the raw rows say")
struct ReportRollupTests {
    /// The products report's old statement, per store, day of the store's zone, kind (cancelled:
    /// never collected) and product: every line of every order, as it holds now.
    static let rawProductDays = """
        SELECT o.store_id::text, to_char((o.created_at AT TIME ZONE coalesce(c.time_zone, 'UTC'))::date, 'YYYY-MM-DD'),
               (o.status = 'cancelled')::text, l.product_id::text, count(*)::text, sum(h.units)::text,
               sum(CASE WHEN h.units = l.quantity THEN l.unit_price * l.quantity - l.discount_amount
                        ELSE order_line_amount(l, h.units) END)::text
        FROM orders o
        LEFT JOIN store_calendars c ON c.store_id = o.store_id
        JOIN order_lines l ON l.order_id = o.id
        CROSS JOIN LATERAL (SELECT held_quantity(l, o.status NOT IN ('pending', 'cancelled')) AS units) h
        WHERE o.store_id = ANY ($1::uuid[]) AND h.units > 0
        GROUP BY 1, 2, 3, 4
        ORDER BY 1, 2, 3, 4
        """

    /// The same from the roll-up (rows netted to nothing left out).
    static let rolledProductDays = """
        SELECT store_id::text, to_char(day, 'YYYY-MM-DD'), uncollected::text, product_id::text, lines::text, units::text, amount::text
        FROM report_product_days
        WHERE store_id = ANY ($1::uuid[]) AND lines <> 0
        ORDER BY 1, 2, 3, 4
        """

    /// The products report's old statement for one store's range: per kind and product, the
    /// lines, units and amount, as the report lists them.
    static let rawProductRange = """
        SELECT (o.status = 'cancelled')::text, l.product_id::text, count(*)::text, sum(h.units)::text,
               sum(CASE WHEN h.units = l.quantity THEN l.unit_price * l.quantity - l.discount_amount
                        ELSE order_line_amount(l, h.units) END)::text
        FROM orders o
        JOIN order_lines l ON l.order_id = o.id
        CROSS JOIN LATERAL (SELECT held_quantity(l, o.status NOT IN ('pending', 'cancelled')) AS units) h
        WHERE o.store_id = $1 AND h.units > 0
          AND o.created_at >= ($2::date::timestamp AT TIME ZONE $4) AND o.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
        GROUP BY 1, 2
        ORDER BY 1, 2
        """

    /// The picking report's old count: each completed list's distinct lines and short lines
    /// from its picks, beside what the list keeps.
    static let pickListCounts = """
        SELECT l.id::text, count(DISTINCT (p.order_id, p.product_id))::text,
               (count(DISTINCT (p.order_id, p.product_id)) FILTER (WHERE p.short))::text, l.lines::text, l.short_lines::text
        FROM pick_lists l LEFT JOIN picks p ON p.pick_list_id = l.id
        WHERE l.store_id = ANY ($1::uuid[]) AND l.status = 'completed'
        GROUP BY l.id
        ORDER BY 1
        """

    /// What the API's report lists for a kind, as the raw statement's rows read.
    static func listed(_ lines: JSONValue, kind: String) -> [[String?]] {
        lines.array.map {
            [kind, $0["productId"].string, String($0["lines"].int ?? -1), String($0["units"].int ?? -1), String($0["amount"]["amount"].int ?? -1)]
        }
        .sorted { ($0[1] ?? "") < ($1[1] ?? "") }
    }

    /// Each store's days, kinds and products in the roll-up as in the raw rows, and the API's
    /// products report for the range as the old statement counts it.
    static func expectSame(_ app: TestApp, stores: [String], range store: String, zone: String, manager: Session) async throws {
        let array = "{\(stores.joined(separator: ","))}"
        let raw = try await sql(rawProductDays, [array], on: app.database)
        let rolled = try await sql(rolledProductDays, [array], on: app.database)
        #expect(!raw.isEmpty)
        #expect(rolled == raw, "the roll-up's days are the raw rows' days")

        let reply = try await app.request(.get, "/v1/stores/\(store)/reports/products?from=2026-11-01&to=2026-11-03", token: manager.token)
        #expect(reply.status == .ok, "\(reply.text)")
        let old = try await sql(rawProductRange, [store, "2026-11-01", "2026-11-03", zone], on: app.database)
        #expect(listed(reply.json["bestSellers"], kind: "false") == old.filter { $0[0] == "false" })
        #expect(listed(reply.json["neverCollected"], kind: "true") == old.filter { $0[0] == "true" })
        let units = { (kind: String) in old.filter { $0[0] == kind }.reduce(0) { $0 + Int($1[3]!)! } }
        #expect(reply.json["sold"]["units"].int == units("false"))
        #expect(reply.json["uncollected"]["units"].int == units("true"))
        #expect(reply.json["sold"]["products"].int == old.filter { $0[0] == "false" }.count)
    }

    @Test("after checkouts, short picks, substitutes, desk removals, cancellations and expiries, in Kingston's days, store by store")
    func sameNumbers() async throws {
        try await withApp { app in
            let kingston = try await app.createStore()
            let other = try await app.createStore()
            try await sql(
                "INSERT INTO store_calendars (store_id, time_zone, capacity) VALUES ($1, 'America/Jamaica', 10)", [kingston], on: app.database)
            let staff = try await app.signIn(role: .staff, store: kingston)
            let manager = try await app.signIn(role: .manager, store: kingston)
            let otherManager = try await app.signIn(role: .manager, store: other)
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: kingston, name: "Rice", price: 1000)
            let flour = try await app.createProduct(store: kingston, name: "Flour", price: 500)
            let sugar = try await app.createProduct(store: kingston, name: "Sugar", price: 300)
            let salt = try await app.createProduct(store: kingston, name: "Salt", price: 200)
            for product in [rice, flour, sugar, salt] {
                try await sql("INSERT INTO stock (store_id, product_id, on_hand) VALUES ($1, $2, 100)", [other, product], on: app.database)
            }
            let order = { (store: String, placed: String, lines: [(String, Int)]) in
                let id = try await app.createPendingOrder(
                    store: store, customer: customer.userID, lines: lines.map { (product: $0.0, quantity: $0.1) })
                try await ProductsReportTests.place(app, id, at: placed)
                return id
            }
            let status = { (order: String, status: String) in
                _ = try await sql(
                    """
                    UPDATE orders SET status = $2, packaged_at = CASE WHEN $2 IN ('packaged', 'completed') THEN coalesce(packaged_at, now()) END,
                        completed_at = CASE WHEN $2 = 'completed' THEN now() END,
                        collected_at = CASE WHEN $2 = 'completed' THEN now() END,
                        collected_by = CASE WHEN $2 = 'completed' THEN $3::uuid END,
                        payment_status = CASE WHEN $2 = 'completed' THEN 'paid' ELSE payment_status END,
                        paid_at = CASE WHEN $2 = 'completed' THEN now() ELSE paid_at END,
                        cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() END
                    WHERE id = $1
                    """, [order, status, staff.userID], on: app.database)
            }
            let pick = { (order: String, product: String, picked: Int, short: Bool) in
                _ = try await sql(
                    "UPDATE order_lines SET picked_quantity = $3::int, picked_short = $4::boolean WHERE order_id = $1 AND product_id = $2",
                    [order, product, String(picked), short ? "true" : "false"], on: app.database)
            }
            // Kingston is five hours behind UTC: 04:30 UTC is 23:30 the day before there.
            _ = try await order(kingston, "2026-11-02T04:30:00Z", [(rice, 3), (flour, 1)])
            let early = try await order(kingston, "2026-11-02T05:30:00Z", [(rice, 1), (sugar, 2)])
            try await pick(early, rice, 1, false)
            try await pick(early, sugar, 1, true)
            try await status(early, "packaged")
            try await PickingReportTests.substitute(app, store: kingston, order: early, product: sugar, with: flour, status: "accepted")
            let coupon = try await order(kingston, "2026-11-02T15:00:00Z", [(flour, 4), (salt, 3)])
            try await sql("UPDATE order_lines SET discount_amount = 200 WHERE order_id = $1 AND product_id = $2", [coupon, flour], on: app.database)
            try await pick(coupon, flour, 4, false)
            try await pick(coupon, salt, 2, true)
            try await status(coupon, "packaged")
            try await status(coupon, "completed")
            let cancelled = try await order(kingston, "2026-11-03T04:59:00Z", [(rice, 2), (salt, 5)])
            try await status(cancelled, "cancelled")
            // Packed short, then never collected: the cancelled order holds all it ordered again.
            let expired = try await order(kingston, "2026-11-03T05:00:00Z", [(salt, 2), (sugar, 1)])
            try await pick(expired, salt, 1, true)
            try await status(expired, "packaged")
            try await status(expired, "cancelled")
            let desk = try await order(kingston, "2026-11-03T12:00:00Z", [(rice, 1), (flour, 2)])
            try await PickingReportTests.substitute(app, store: kingston, order: desk, product: rice, with: sugar, status: "rejected")
            try await sql(
                "UPDATE order_lines SET removed_at = now(), removed_by = $2 WHERE order_id = $1 AND product_id = $3", [desk, staff.userID, flour],
                on: app.database)
            try await status(desk, "packaged")
            // The other store: the same products on the same UTC instants, its days UTC's; one
            // checked out through the API (checkout's own statements), one cancelled.
            _ = try await order(other, "2026-11-02T04:30:00Z", [(rice, 7), (salt, 1)])
            let gone = try await order(other, "2026-11-03T05:00:00Z", [(sugar, 4)])
            try await status(gone, "cancelled")
            let shopper = try await app.registerCustomer()
            try await app.fillCart(shopper, store: other, [(rice, 2), (flour, 1)])
            let checkout = try await app.checkout(shopper)
            #expect(checkout.status == .created, "\(checkout.text)")
            try await ProductsReportTests.place(app, checkout.json["id"].string ?? "", at: "2026-11-02T23:00:00Z")

            // Pick lists: one completed through its status (its picks first), one written completed
            // before its picks (as a load does), one still open.
            let listed = try await PickingReportTests.pickList(
                app, store: kingston, by: staff, made: "2026-11-02T14:00:00Z", completed: nil,
                picks: [(early, rice, false), (early, sugar, false), (early, sugar, true), (coupon, flour, false), (coupon, salt, true)])
            try await sql(
                "UPDATE pick_lists SET status = 'completed', completed_at = '2026-11-02T15:00:00Z' WHERE id = $1", [listed], on: app.database)
            _ = try await PickingReportTests.pickList(
                app, store: kingston, by: staff, made: "2026-11-03T04:00:00Z", completed: "2026-11-03T05:30:00Z",
                picks: [(expired, salt, true), (expired, sugar, false), (desk, rice, false)])
            _ = try await PickingReportTests.pickList(
                app, store: kingston, by: staff, made: "2026-11-03T06:00:00Z", completed: nil, picks: [(desk, flour, false)])

            try await Self.expectSame(app, stores: [kingston, other], range: kingston, zone: "America/Jamaica", manager: manager)
            try await Self.expectSame(app, stores: [kingston, other], range: other, zone: "UTC", manager: otherManager)
            let lists = try await sql(Self.pickListCounts, ["{\(kingston),\(other)}"], on: app.database)
            #expect(lists.count == 2)
            #expect(lists.allSatisfy { $0[1] == $0[3] && $0[2] == $0[4] }, "\(lists)")
            let picking = try await app.request(
                .get, "/v1/stores/\(kingston)/reports/picking?from=2026-11-01&to=2026-11-03", token: manager.token)
            #expect(picking.status == .ok, "\(picking.text)")
            #expect(picking.json["pickLists"] == 2 && picking.json["lines"] == 7 && picking.json["short"] == 3)

            // Kingston moves to India's clock (five and a half hours ahead of UTC): its days are
            // counted again in the new zone; the other store's stay as they were.
            try await sql("UPDATE store_calendars SET time_zone = 'Asia/Kolkata' WHERE store_id = $1", [kingston], on: app.database)
            try await Self.expectSame(app, stores: [kingston, other], range: kingston, zone: "Asia/Kolkata", manager: manager)
        }
    }

    @Test("checkouts at once into one product's day, each on its own connection, all add up")
    func concurrentCheckouts() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: store, name: "Rice", price: 1000)
            // One order there already, so every racer updates the same roll-up row.
            _ = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product: rice, quantity: 1)])
            // The racers' lines wait on the product (their key check) until the holder lets go,
            // so all of them count into the row at once.
            let holder = try HeldConnection(app.database)
            try await holder.run("BEGIN")
            try await holder.run("SELECT 1 FROM products WHERE id = $1 FOR UPDATE", [rice])
            let racers = 6
            try await withThrowingTaskGroup(of: Void.self) { group in
                for racer in 1...racers {
                    group.addTask {
                        let connection = try HeldConnection(app.database)
                        let id = UUID().uuidString.lowercased()
                        try await connection.run("BEGIN")
                        try await connection.run(
                            """
                            INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash)
                            VALUES ($1::uuid, $2, $3, 'pay_at_collection', 0, 'JMD', $4, sha256(convert_to($4, 'UTF8')))
                            """, [id, store, customer.userID, id])
                        try await connection.run(
                            """
                            INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
                            VALUES ($1, $2, $3, 'Rice', 1000, $4::int)
                            """, [store, id, rice, String(racer)])
                        try await connection.run("COMMIT")
                    }
                }
                var waiting = 0
                for _ in 0..<2000 where waiting < racers {
                    try await Task.sleep(for: .milliseconds(10))
                    waiting =
                        Int(
                            try await sql(
                                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                                on: app.database)[0][0] ?? "0") ?? 0
                }
                #expect(waiting == racers, "every racer waits on the product before the holder lets go")
                try await holder.run("COMMIT")
                try await group.waitForAll()
            }
            let raw = try await sql(Self.rawProductDays, ["{\(store)}"], on: app.database)
            let rolled = try await sql(Self.rolledProductDays, ["{\(store)}"], on: app.database)
            #expect(raw.count == 1 && raw.first?[4] == String(racers + 1) && raw.first?[5] == String(1 + racers * (racers + 1) / 2))
            #expect(rolled == raw)
        }
    }

    @Test("out-of-stock hours: an outage opens as available stock reaches zero and closes above it; the report sums its overlap with the range")
    func outOfStockHours() async throws {
        let clock = TestClock("2026-11-03T12:00:00Z")
        try await withApp(clock: clock) { app in
            let store = try await app.createStore()
            let other = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let console = try await app.storeAccount(.manager, store: store)
            let rice = try await app.createProduct(store: store, name: "Rice", onHand: 2)
            let flour = try await app.createProduct(store: store, name: "Flour", onHand: 0)
            _ = try await app.createProduct(store: other, name: "Salt", onHand: 0)
            let outages = { (product: String) in
                try await sql(
                    "SELECT (ended_at IS NULL)::text FROM stock_outages WHERE store_id = $1 AND product_id = $2 ORDER BY id", [store, product],
                    on: app.database
                ).map { $0[0] }
            }
            #expect(try await outages(flour) == ["true"], "stocked with none: out from the start")
            #expect(try await outages(rice) == [])
            // All held by an order: out; released: back; sold to zero: out again.
            try await sql("UPDATE stock SET reserved = 2 WHERE store_id = $1 AND product_id = $2", [store, rice], on: app.database)
            #expect(try await outages(rice) == ["true"])
            try await sql("UPDATE stock SET reserved = 1 WHERE store_id = $1 AND product_id = $2", [store, rice], on: app.database)
            #expect(try await outages(rice) == ["false"])
            try await sql("UPDATE stock SET on_hand = 1, reserved = 0 WHERE store_id = $1 AND product_id = $2", [store, rice], on: app.database)
            #expect(try await outages(rice) == ["false"], "still one to sell")
            try await sql("UPDATE stock SET on_hand = 0 WHERE store_id = $1 AND product_id = $2", [store, rice], on: app.database)
            #expect(try await outages(rice) == ["false", "true"])

            // Their times as the report reads them (the triggers wrote now's): rice out 2 hours
            // the day before the range, then 6 hours across its start, then from 10:00 on the
            // last day, still out at the report's 12:00; flour out for 30 hours inside it.
            try await sql("DELETE FROM stock_outages WHERE store_id = $1", [store], on: app.database)
            try await sql(
                """
                INSERT INTO stock_outages (store_id, product_id, began_at, ended_at) VALUES
                    ($1, $2, '2026-10-31T10:00:00Z', '2026-10-31T12:00:00Z'),
                    ($1, $2, '2026-10-31T21:00:00Z', '2026-11-01T03:00:00Z'),
                    ($1, $2, '2026-11-03T10:00:00Z', NULL),
                    ($1, $3, '2026-11-01T06:00:00Z', '2026-11-02T12:00:00Z')
                """, [store, rice, flour], on: app.database)
            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/products?from=2026-11-01&to=2026-11-07", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.json["outOfStockHoursCount"] == 2)
            #expect(
                reply.json["outOfStockHours"] == [
                    ["productId": .string(flour), "name": "Flour", "outages": 1, "hours": 30],
                    ["productId": .string(rice), "name": "Rice", "outages": 2, "hours": 5],
                ])

            let cookie = try await app.consoleCookie(console)
            let page = try await app.form(.get, "/console/reports/products?from=2026-11-01&to=2026-11-07", cookie: cookie)
            #expect(page.text.contains("id=\"out-of-stock-hours-table\"") && page.text.contains("30.0 h"), "\(page.text)")
            let csv = try await app.form(.get, "/console/reports/products.csv?from=2026-11-01&to=2026-11-07&by=outages", cookie: cookie)
            #expect(csv.text == "product,product id,hours out of stock,times out\r\nFlour,\(flour),30.0,1\r\nRice,\(rice),5.0,2\r\n")
        }
    }
}
