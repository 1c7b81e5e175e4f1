import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 47, "ready on time": an order in a slot must be packed a little before its slot starts
/// (its ready-by time). The store and the API say whether each open order is on track, at risk
/// (the work before it will not be done in time) or late; the late-risk sweep announces the at
/// risk and late ones once however many instances run it, and tells the customer when theirs is
/// late.
@Suite("Ready on time: ready-by, at risk and late")
struct LateRiskTests {
    /// Friday 10:00 in London (GMT in March until the 28th, so the store's clock is UTC's).
    static let friday = "2027-03-26T10:00:00Z"
    static let slot = "2027-03-26T13:00:00Z"

    /// The test's calendar with its ready lead set to `readyLead` minutes.
    static func calendar(readyLead: Int) -> JSONValue {
        guard case .object(var fields) = TestApp.everyDay(capacity: 8) else { return .null }
        fields["readyLeadMinutes"] = .int(readyLead)
        return .object(fields)
    }

    static func date(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// A store open 09:00–17:00 every day, one picker every hour, and two customers who booked
    /// the 13:00 slot, `first` before `second`. Returns the store, its manager, the customers and
    /// the orders' ids.
    func twoOrders(_ app: TestApp) async throws -> (store: String, manager: Session, customers: [Session], orders: [String]) {
        let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 8))
        #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).status == .ok)
        var customers: [Session] = []
        var orders: [String] = []
        for _ in 0..<2 {
            let (customer, _) = try await app.shopper(at: store)
            let reply = try await app.checkout(customer, slot: Self.slot)
            #expect(reply.status == .created, "\(reply.text)")
            customers.append(customer)
            orders.append(try #require(reply.json["id"].string))
        }
        return (store, manager, customers, orders)
    }

    /// What `order_timeliness` says of `order` at `now` (the function the API, the board and the sweep read).
    func timeliness(_ app: TestApp, _ order: String, at now: Date) async throws -> String? {
        try await sql(
            "SELECT timeliness FROM order_timeliness($1::uuid, to_timestamp($2::float8))", [order, String(now.timeIntervalSince1970)],
            on: app.database
        ).first?.first ?? nil
    }

    /// The seconds of picking an order booked (`orders.pick_work_seconds`).
    func work(_ app: TestApp, _ order: String) async throws -> Double {
        Double(try #require(try await sql("SELECT pick_work_seconds FROM orders WHERE id = $1", [order], on: app.database).first?.first ?? nil)!)!
    }

    @Test("the order says its ready-by time and on track; the manager's ready lead moves it; out of bounds is a 422")
    func readyBy() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager, customers, orders) = try await twoOrders(app)
            let mine = try await app.request(.get, "/v1/orders/\(orders[0])", token: customers[0].token)
            #expect(mine.json["readyBy"].string == "2027-03-26T12:45:00Z", "15 minutes before the slot by default: \(mine.text)")
            #expect(mine.json["timeliness"].string == "on_track")
            let calendar = try await app.request(.get, "/v1/stores/\(store)/calendar", token: manager.token)
            #expect(calendar.json["readyLeadMinutes"].int == 15)

            let set = try await app.setCalendar(store: store, by: manager, Self.calendar(readyLead: 40))
            #expect(set.status == .ok && set.json["readyLeadMinutes"].int == 40, "\(set.text)")
            let staff = try await app.signIn(role: .staff, store: store)
            let listed = try await app.request(.get, "/v1/stores/\(store)/orders", token: staff.token).json["items"].array
            #expect(listed.count == 2)
            #expect(listed.allSatisfy { $0["readyBy"].string == "2027-03-26T12:20:00Z" && $0["timeliness"].string == "on_track" })

            for wrong in [-1, 241] {
                let refused = try await app.setCalendar(store: store, by: manager, Self.calendar(readyLead: wrong))
                #expect(refused.status == .unprocessableContent, "\(wrong): \(refused.text)")
            }
            #expect(try await app.request(.get, "/v1/stores/\(store)/calendar", token: manager.token).json["readyLeadMinutes"].int == 40)

            // Closed: no ready-by any more.
            #expect(try await app.request(.post, "/v1/orders/\(orders[1])/cancel", token: customers[1].token).status == .ok)
            let closed = try await app.request(.get, "/v1/orders/\(orders[1])", token: customers[1].token)
            #expect(!closed.json.has("readyBy") && !closed.json.has("timeliness"), "\(closed.text)")
        }
    }

    @Test("at risk when the work queued before it will not be done by ready-by; late once ready-by passes unpacked; packed is on track")
    func atRiskThenLate() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _, _, orders) = try await twoOrders(app)
            let readyBy = Self.date("2027-03-26T12:45:00Z")
            // One picker at 80 %: the second order waits for the first's work and its own.
            let (first, second) = (try await work(app, orders[0]), try await work(app, orders[1]))
            let secondStarts = readyBy.addingTimeInterval(-((first + second) / 0.8).rounded(.up))
            let firstStarts = readyBy.addingTimeInterval(-(first / 0.8).rounded(.up))
            #expect(try await timeliness(app, orders[1], at: secondStarts.addingTimeInterval(-30)) == "on_track")
            #expect(try await timeliness(app, orders[1], at: secondStarts.addingTimeInterval(30)) == "at_risk")
            #expect(try await timeliness(app, orders[0], at: secondStarts.addingTimeInterval(30)) == "on_track", "the queue is behind it, not before")
            #expect(try await timeliness(app, orders[0], at: firstStarts.addingTimeInterval(30)) == "at_risk")
            #expect(try await timeliness(app, orders[0], at: readyBy.addingTimeInterval(60)) == "late")

            // Packed: the work is done, on track whatever the time.
            let staff = try await app.signIn(role: .staff, store: store)
            #expect(try await app.transition(orders[0], to: "packaged", by: staff).status == .ok)
            #expect(try await timeliness(app, orders[0], at: readyBy.addingTimeInterval(600)) == "on_track")
            // With the first packed, the second waits only for its own work.
            #expect(try await timeliness(app, orders[1], at: secondStarts.addingTimeInterval(30)) == "on_track")
        }
    }

    @Test("the sweep announces at risk and late once per order, however many instances sweep at once; the customer is told when late")
    func sweepOnce() async throws {
        let clock = TestClock(Self.friday)
        try await withApp(clock: clock) { app in
            let (store, _, customers, orders) = try await twoOrders(app)
            let readyBy = Self.date("2027-03-26T12:45:00Z")
            let (first, second) = (try await work(app, orders[0]), try await work(app, orders[1]))
            let risky = readyBy.addingTimeInterval(-((first + second) / 0.8).rounded(.up) + 30)
            let logger = Logger(label: "test")

            let atRisk = try await app.withDatabase { try await LateRisk(database: $0).sweep(now: risky, logger: logger) }
            #expect(atRisk == 1, "the second order is at risk")
            // Two instances sweep at once, each on its own connection, past ready-by.
            let late = readyBy.addingTimeInterval(60)
            let swept = try await app.withDatabase { database in
                async let a = LateRisk(database: database).sweep(now: late, logger: logger)
                async let b = LateRisk(database: database).sweep(now: late, logger: logger)
                return try await a + b
            }
            #expect(swept == 2, "each late order once")
            #expect(try await app.withDatabase { try await LateRisk(database: $0).sweep(now: late, logger: logger) } == 0)

            let events = try await sql(
                "SELECT order_id::text, type, data ->> 'readyBy' FROM events WHERE store_id = $1 AND type LIKE 'order.%' AND type IN ('order.at_risk', 'order.late') ORDER BY type, order_id",
                [store], on: app.database)
            #expect(events.filter { $0[0] == orders[1] }.map { $0[1] } == ["order.at_risk", "order.late"])
            #expect(events.filter { $0[0] == orders[0] }.map { $0[1] } == ["order.late"], "first seen late: announced late only")
            #expect(events.allSatisfy { $0[2] == "2027-03-26T12:45:00Z" })

            // The customer is told once, with the new time, and their order's page offers the ways on.
            let told = try await app.messages(.orderLate, order: orders[0])
            #expect(told.count == 1)
            #expect(try await app.messages(.orderLate).count == 2)
            clock.now = late
            let manager = try await app.signIn(role: .manager, store: store)
            let detail = try await app.request(.get, "/v1/messages/\(try #require(told.first).id)", token: manager.token)
            #expect(detail.json["subject"].string?.contains("running late") == true, "\(detail.text)")
            #expect(detail.json["text"].string?.contains("We now expect it ready about Fri 26 Mar 2027 12:4") == true, "\(detail.text)")
            let api = try await app.request(.get, "/v1/orders/\(orders[0])", token: customers[0].token)
            #expect(api.json["timeliness"].string == "late")
            // The message's link: the order's page says so and offers another time or cancelling.
            let page = try await app.form(.get, "/orders/\(orders[0])", cookie: "\(ConsoleSession.cookieName)=\(customers[0].token)").text
            #expect(
                page.contains("id=\"running-late\">Sorry, your order is running late. We now expect it ready about Fri 26 Mar 2027 12:4"), "\(page)")
            #expect(page.contains("href=\"/orders/\(orders[0])/slot\"") && page.contains("href=\"/orders/\(orders[0])/cancel\""))
        }
    }
}
