import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "how long do they wait once they are here?" From a customer's "I'm here" to the
/// order in their hands, per hour of the day they arrived on the store's clock and over the
/// range: the median and the 90th percentile, with how many arrived and were served.
@Suite("Reports: the wait at the desk and the kerb")
struct DeskReportTests {
    @Test("from I'm here to hand-over: Kingston's hours, p50 and p90 per hour and in all, the unserved counted as arrived")
    func waits() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            let order = { (arrived: String?, collected: String?) in
                try await OnTimeReportTests.order(
                    app, store: store, slot: nil, placed: "2026-10-31T12:00:00Z", packed: "2026-10-31T13:00:00Z", collected: collected,
                    arrived: arrived, staff: staff)
            }
            // 09:00 to 10:00 in Kingston (UTC-5) on the 1st and the 2nd: waits of 4, 10 and 2 minutes.
            _ = try await order("2026-11-01T14:05:00Z", "2026-11-01T14:09:00Z")
            _ = try await order("2026-11-01T14:40:00Z", "2026-11-01T14:50:00Z")
            _ = try await order("2026-11-02T14:10:00Z", "2026-11-02T14:12:00Z")
            // 23:00 on the 1st in Kingston (04:00Z on the 2nd): 30 minutes.
            _ = try await order("2026-11-02T04:00:00Z", "2026-11-02T04:30:00Z")
            // 15:00 on the 1st: arrived, not handed over yet.
            _ = try await order("2026-11-01T20:00:00Z", nil)
            // Left out: arrived at 00:30 on the 3rd in Kingston; collected without an "I'm here".
            _ = try await order("2026-11-03T05:30:00Z", "2026-11-03T05:40:00Z")
            _ = try await order(nil, "2026-11-01T15:00:00Z")
            try await sql(
                "INSERT INTO store_calendars (store_id, time_zone, capacity) VALUES ($1, 'America/Jamaica', 10)", [store], on: app.database)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/desk?from=2026-11-01&to=2026-11-02", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            #expect(report["timeZone"].string == "America/Jamaica")
            #expect(report["arrived"] == 5)
            // 2, 4, 10, 30: the median between 4 and 10; p90 at 2.7 of 3 steps, 10 + 0.7 × 20.
            #expect(report["handedOver"] == ["count": 4, "p50Minutes": 7, "p90Minutes": 24])
            let hours = report["hours"].array
            #expect(hours.count == 24)
            #expect(hours.filter { ($0["arrived"].int ?? 0) > 0 }.map { $0["hour"].int } == [9, 15, 23])
            #expect(hours[9]["arrived"] == 3)
            // 2, 4, 10: p90 at 1.8 of 2 steps, 4 + 0.8 × 6.
            #expect(hours[9]["handedOver"]["count"] == 3 && hours[9]["handedOver"]["p50Minutes"] == 4)
            #expect(OnTimeReportTests.number(hours[9]["handedOver"]["p90Minutes"]) == 8.8)
            #expect(hours[23]["handedOver"] == ["count": 1, "p50Minutes": 30, "p90Minutes": 30])
            #expect(hours[15]["arrived"] == 1 && hours[15]["handedOver"] == ["count": 0, "p50Minutes": .null, "p90Minutes": .null])
        }
    }

    @Test("the store's manager and the chain's admin; another store's manager and staff refused; dates bounded with a sentence")
    func accessAndBounds() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let admin = try await app.signInAdmin()
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            let path = "/v1/stores/\(store)/reports/desk"
            let recent = try await app.request(.get, path, token: admin.token)
            #expect(recent.status == .ok)
            #expect(recent.json["arrived"] == 0 && recent.json["hours"].array.count == 24)
            #expect(try await app.request(.get, path, token: manager.token).status == .ok)
            #expect(try await app.request(.get, path, token: staff.token).status == .forbidden)
            #expect(try await app.request(.get, path, token: otherManager.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(UUID())/reports/desk", token: admin.token).status == .notFound)
            for (query, field) in [("to=2026-13-01", "to"), ("from=2026-11-05&to=2026-11-01", "from"), ("from=2025-01-01&to=2026-01-02", "to")] {
                let reply = try await app.request(.get, "\(path)?\(query)", token: manager.token)
                #expect(reply.status == .unprocessableContent, "\(query)")
                #expect(reply.json["error"]["details"]["field"].string == field, "\(query)")
            }
        }
    }
}
