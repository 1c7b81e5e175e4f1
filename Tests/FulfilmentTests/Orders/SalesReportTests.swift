import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "how are we doing?" A store's orders and sales per day and per hour of the day, on
/// the store's own clock, with the average basket; for its manager and the chain's admin.
@Suite("Reports: orders and sales per day and hour")
struct SalesReportTests {
    @Test("days and hours are the store's (Kingston), cancelled orders sell nothing, every day of the range is listed")
    func perDayAndHour() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            var ids: [String] = []
            for (price, quantity) in [(1000, 1), (2500, 2), (700, 1), (9900, 1)] {
                ids.append(try await app.placeOrder(store: store, quantity: quantity, price: price).1["id"].string!)
            }
            #expect(try await app.transition(ids[3], to: "cancelled", by: staff).status == .ok)
            // Kingston is UTC-5 all year: 04:30Z on the 2nd is 23:30 on the 1st there.
            for (id, at) in zip(ids, ["2026-11-02T04:30:00Z", "2026-11-02T14:10:00Z", "2026-11-04T14:50:00Z", "2026-11-02T15:00:00Z"]) {
                try await sql("UPDATE orders SET created_at = $2::timestamptz WHERE id = $1", [id, at], on: app.database)
            }
            // One just outside the range, a day later in Kingston.
            let late = try await app.placeOrder(store: store).1["id"].string!
            try await sql("UPDATE orders SET created_at = '2026-11-06T05:00:00Z' WHERE id = $1", [late], on: app.database)
            try await sql(
                "INSERT INTO store_calendars (store_id, time_zone, capacity) VALUES ($1, 'America/Jamaica', 10)", [store], on: app.database)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/sales?from=2026-11-01&to=2026-11-05", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            #expect(report["timeZone"].string == "America/Jamaica")
            #expect(report["orders"] == 3)
            #expect(report["cancelled"] == 1)
            #expect(report["sales"] == ["amount": 6700, "currency": "JMD"])
            #expect(report["averageBasket"] == ["amount": 2233, "currency": "JMD"], "6700 / 3, rounded")
            #expect(report["days"].array.map { $0["date"].string } == ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"])
            #expect(report["days"].array.map { $0["orders"].int } == [1, 1, 0, 1, 0])
            #expect(report["days"].array.map { $0["sales"]["amount"].int } == [1000, 5000, 0, 700, 0])
            #expect(report["days"][1]["cancelled"] == 1)
            let hours = report["hours"].array
            #expect(hours.count == 24)
            #expect(hours.filter { $0["orders"].int != 0 }.map { $0["hour"].int } == [9, 23])
            #expect(hours[9]["orders"] == 2 && hours[9]["sales"]["amount"] == 5700)
            #expect(hours[10]["cancelled"] == 1)
        }
    }

    @Test("the manager's own store, the admin's any; dates and ranges bounded with a sentence")
    func accessAndBounds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let admin = try await app.signInAdmin()
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            _ = try await app.placeOrder(store: store, price: 1234)
            let path = "/v1/stores/\(store)/reports/sales"
            let recent = try await app.request(.get, path, token: admin.token)
            #expect(recent.status == .ok)
            #expect(recent.json["days"].array.count == 28, "the last four weeks by default")
            #expect(recent.json["orders"] == 1 && recent.json["sales"]["amount"] == 1234)
            #expect(recent.json["days"].array.last?["orders"] == 1, "today is the last day")
            #expect(try await app.request(.get, path, token: staff.token).status == .forbidden)
            #expect([403, 404].contains(try await app.request(.get, path, token: otherManager.token).status.code))
            #expect(try await app.request(.get, "/v1/stores/\(UUID())/reports/sales", token: admin.token).status == .notFound)
            for (query, field) in [
                ("from=2026-02-30", "from"), ("to=yesterday", "to"), ("from=1999-12-31&to=2000-01-01", "from"),
                ("from=2026-11-05&to=2026-11-01", "from"), ("from=2025-01-01&to=2026-01-02", "to"), ("from=%2B20260-01-01", "from"),
            ] {
                let reply = try await app.request(.get, "\(path)?\(query)", token: manager.token)
                #expect(reply.status == .unprocessableContent, "\(query)")
                #expect(reply.json["error"]["details"]["field"].string == field, "\(query)")
            }
            #expect(try await app.request(.get, "\(path)?from=2025-01-01&to=2025-12-31", token: manager.token).status == .ok)
            #expect(try await app.request(.get, "\(path)?from=2024-01-01&to=2024-12-31", token: manager.token).status == .ok, "a leap year")
        }
    }

    @Test("a range: dates of the calendar from 2000 to 2100, four weeks to today by default, a year at most")
    func ranges() {
        #expect(ReportRange.day("2024-02-29") != nil)
        #expect(ReportRange.day("2025-02-29") == nil)
        #expect(ReportRange.day("2026-13-01") == nil)
        #expect(ReportRange.day("２０２６-01-01") == nil)
        #expect(ReportRange.day("2026-1-1") == nil)
        #expect(ReportRange.day("1999-12-31") == nil && ReportRange.day("2101-01-01") == nil)
        let today = LocalDate("2026-03-01")!
        let range = try? ReportRange(from: nil, to: nil, today: today)
        #expect(range?.from.description == "2026-02-02" && range?.to == today && range?.days.count == 28)
        #expect((try? ReportRange(from: "2026-02-20", to: nil, today: today))?.to == today)
        #expect((try? ReportRange(from: "2025-03-01", to: "2026-02-28", today: today))?.days.count == 365)
        #expect(throws: ReportError.rangeTooLong) { try ReportRange(from: "2024-01-01", to: "2025-01-01", today: today) }
    }
}
