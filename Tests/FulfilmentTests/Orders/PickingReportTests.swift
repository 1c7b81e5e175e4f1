import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "how fast do we pick, how often short, and what do customers make of substitutes?"
/// Over the pick lists completed in the range (the store's days): lines per hour of the lists'
/// time, per day and in all, with the median list; lines closed short; the substitutes given on
/// the lists' orders, accepted, refused or awaiting, and the products most often substituted.
@Suite("Reports: picking")
struct PickingReportTests {
    /// A pick list of `store` made at `made` and completed at `completed` (open without), with
    /// each order on it in a tote and one pick (a scan of 1, or a short close of 0) per entry.
    static func pickList(
        _ app: TestApp, store: String, by staff: Session, made: String, completed: String?, picks: [(order: String, product: String, short: Bool)]
    ) async throws -> String {
        let id = try await sql(
            """
            INSERT INTO pick_lists (store_id, status, created_by, created_at, completed_at)
            VALUES ($1, CASE WHEN $3 = '' THEN 'open' ELSE 'completed' END, $2, $4::timestamptz, nullif($3, '')::timestamptz) RETURNING id
            """, [store, staff.userID, completed ?? "", made], on: app.database)[0][0]!
        var totes: [String] = []
        for pick in picks where !totes.contains(pick.order) {
            totes.append(pick.order)
            try await sql(
                "INSERT INTO pick_list_orders (store_id, pick_list_id, order_id, tote, open) VALUES ($1, $2, $3, $4, $5)",
                [store, id, pick.order, String(UnicodeScalar(UInt8(64 + totes.count))), completed == nil ? "true" : "false"], on: app.database)
        }
        for pick in picks {
            try await sql(
                """
                INSERT INTO picks (store_id, pick_list_id, order_id, product_id, quantity, short, picked_by, picked_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz)
                """, [store, id, pick.order, pick.product, pick.short ? "0" : "1", pick.short ? "true" : "false", staff.userID, made],
                on: app.database)
        }
        return id
    }

    /// A substitute of `substitute` for `product` on `order`, as the picker leaves it, with the
    /// customer's answer (`proposed`, `accepted`, `rejected`).
    static func substitute(_ app: TestApp, store: String, order: String, product: String, with substitute: String, status: String) async throws {
        try await sql(
            """
            INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity, picked_quantity, substitution_id,
                                     substitute_for, substitution_status, substitution_decided_at)
            SELECT $1, $2, p.id, p.name, p.price_amount, 1, 1, gen_random_uuid(), $4, $5, CASE WHEN $5 = 'proposed' THEN NULL ELSE now() END
            FROM products p WHERE p.id = $3
            """, [store, order, substitute, product, status], on: app.database)
    }

    @Test("lines per hour per day and per list in Kingston's days, short lines, substitutes and the most substituted")
    func picking() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let customer = try await app.registerCustomer()
            let ackee = try await app.createProduct(store: store, name: "Ackee")
            let bammy = try await app.createProduct(store: store, name: "Bammy")
            let callaloo = try await app.createProduct(store: store, name: "Callaloo")
            let sorrel = try await app.createProduct(store: store, name: "Sorrel")
            let sugar = try await app.createProduct(store: store, name: "Sugar")
            let order = { (lines: [String]) in
                try await app.createPendingOrder(store: store, customer: customer.userID, lines: lines.map { ($0, 2) })
            }
            let (o1, o2, o3, o4, o5, o6) = (
                try await order([ackee, bammy]), try await order([ackee, callaloo]), try await order([ackee, bammy, callaloo]),
                try await order([ackee]), try await order([ackee]), try await order([bammy])
            )
            // 09:00–09:30 on the 2nd in Kingston (UTC-5): 4 lines (Ackee scanned twice on o1), Bammy short: 8 an hour.
            _ = try await Self.pickList(
                app, store: store, by: staff, made: "2026-11-02T14:00:00Z", completed: "2026-11-02T14:30:00Z",
                picks: [(o1, ackee, false), (o1, ackee, false), (o1, bammy, true), (o2, ackee, false), (o2, callaloo, false)])
            // 23:00–23:15 on the 2nd in Kingston (04:00Z on the 3rd): 3 lines, Bammy short: 12 an hour.
            _ = try await Self.pickList(
                app, store: store, by: staff, made: "2026-11-03T04:00:00Z", completed: "2026-11-03T04:15:00Z",
                picks: [(o3, ackee, false), (o3, bammy, true), (o3, callaloo, false)])
            // 00:00–01:00 on the 3rd in Kingston: 1 line an hour.
            _ = try await Self.pickList(
                app, store: store, by: staff, made: "2026-11-03T05:00:00Z", completed: "2026-11-03T06:00:00Z", picks: [(o4, ackee, false)])
            // Left out: a list still open; one completed at 01:00 on the 5th in Kingston.
            _ = try await Self.pickList(app, store: store, by: staff, made: "2026-11-02T15:00:00Z", completed: nil, picks: [(o6, bammy, true)])
            _ = try await Self.pickList(
                app, store: store, by: staff, made: "2026-11-05T05:00:00Z", completed: "2026-11-05T06:00:00Z", picks: [(o5, ackee, false)])
            try await Self.substitute(app, store: store, order: o1, product: ackee, with: sorrel, status: "accepted")
            try await Self.substitute(app, store: store, order: o2, product: ackee, with: sugar, status: "rejected")
            try await Self.substitute(app, store: store, order: o3, product: ackee, with: sorrel, status: "proposed")
            try await Self.substitute(app, store: store, order: o3, product: bammy, with: sugar, status: "accepted")
            try await Self.substitute(app, store: store, order: o4, product: ackee, with: sugar, status: "proposed")
            try await Self.substitute(app, store: store, order: o5, product: ackee, with: sorrel, status: "accepted")
            try await Self.substitute(app, store: store, order: o6, product: bammy, with: sorrel, status: "rejected")
            try await sql(
                "INSERT INTO store_calendars (store_id, time_zone, capacity) VALUES ($1, 'America/Jamaica', 10)", [store], on: app.database)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/picking?from=2026-11-01&to=2026-11-03", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            #expect(report["timeZone"].string == "America/Jamaica")
            #expect(report["pickLists"] == 3 && report["lines"] == 8 && report["short"] == 2)
            #expect(OnTimeReportTests.number(report["minutes"]) == 105)
            // 8 lines in 105 minutes; the lists' own 8, 12 and 1 an hour.
            #expect(OnTimeReportTests.number(report["linesPerHour"]) == 4.6)
            #expect(OnTimeReportTests.number(report["medianListLinesPerHour"]) == 8)
            #expect(OnTimeReportTests.number(report["shortShare"]) == 0.25)
            #expect(report["substitutions"]["proposed"] == 5 && report["substitutions"]["accepted"] == 2)
            #expect(report["substitutions"]["refused"] == 1 && report["substitutions"]["awaiting"] == 2)
            #expect(OnTimeReportTests.number(report["substitutions"]["acceptedShare"]) == 0.4)
            #expect(OnTimeReportTests.number(report["substitutionRate"]) == 0.625)
            let products = report["mostSubstituted"].array
            // Ackee on o1 to o4 (o5's list and o6's are not in the range); Bammy on o3; Callaloo never.
            #expect(products.map { $0["name"].string } == ["Ackee", "Bammy"])
            #expect(products[0]["productId"].string == ackee)
            #expect(
                products[0]["substitutions"] == [
                    "proposed": 4, "accepted": 1, "refused": 1, "awaiting": 2, "acceptedShare": .number(0.25), "refusedShare": .number(0.25),
                ])
            #expect(products[1]["substitutions"]["accepted"] == 1 && OnTimeReportTests.number(products[1]["substitutions"]["acceptedShare"]) == 1)
            let days = report["days"].array
            #expect(days.map { $0["date"].string } == ["2026-11-01", "2026-11-02", "2026-11-03"])
            #expect(days[0]["pickLists"] == 0 && days[0]["lines"] == 0 && !days[0].has("linesPerHour"))
            #expect(days[1]["pickLists"] == 2 && days[1]["lines"] == 7 && days[1]["short"] == 2)
            #expect(OnTimeReportTests.number(days[1]["minutes"]) == 45)
            #expect(OnTimeReportTests.number(days[1]["linesPerHour"]) == 9.3)
            #expect(days[2]["pickLists"] == 1 && OnTimeReportTests.number(days[2]["linesPerHour"]) == 1)

            let empty = try await app.request(.get, "/v1/stores/\(store)/reports/picking?from=2026-10-01&to=2026-10-02", token: manager.token)
            #expect(empty.status == .ok)
            #expect(empty.json["pickLists"] == 0 && !empty.json.has("linesPerHour") && !empty.json.has("shortShare"))
            #expect(!empty.json.has("medianListLinesPerHour") && !empty.json.has("substitutionRate"))
            #expect(empty.json["substitutions"] == ["proposed": 0, "accepted": 0, "refused": 0, "awaiting": 0])
            #expect(empty.json["mostSubstituted"] == [])
        }
    }

    @Test(
        "picking, products and coupons: the store's manager and the chain's admin; another store's manager and staff refused; dates bounded")
    func accessAndBounds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let admin = try await app.signInAdmin()
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            for report in ["picking", "products", "coupons"] {
                let path = "/v1/stores/\(store)/reports/\(report)"
                #expect(try await app.request(.get, path, token: admin.token).status == .ok, "\(report)")
                #expect(try await app.request(.get, path, token: manager.token).status == .ok, "\(report)")
                #expect(try await app.request(.get, path, token: staff.token).status == .forbidden, "\(report)")
                #expect(try await app.request(.get, path, token: otherManager.token).status == .forbidden, "\(report)")
                #expect(try await app.request(.get, path).status == .unauthorized, "\(report)")
                #expect(try await app.request(.get, "/v1/stores/\(UUID())/reports/\(report)", token: admin.token).status == .notFound)
                for (query, field) in [
                    ("to=2026-13-01", "to"), ("from=1999-12-31", "from"), ("from=2026-11-05&to=2026-11-01", "from"),
                    ("from=2025-01-01&to=2026-01-02", "to"),
                ] {
                    let reply = try await app.request(.get, "\(path)?\(query)", token: manager.token)
                    #expect(reply.status == .unprocessableContent, "\(report) \(query)")
                    #expect(reply.json["error"]["details"]["field"].string == field, "\(report) \(query)")
                }
            }
        }
    }
}
