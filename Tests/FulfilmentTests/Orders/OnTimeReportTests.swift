import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: "are we ready when they come?" Of the orders whose pickup slot starts in a range of
/// the store's days, how many were packed by the slot's start, per day and per hour of the slot;
/// and how long packing and collecting took. For the store's manager and the chain's admin.
@Suite("Reports: ready on time")
struct OnTimeReportTests {
    /// An order of `store` as the report reads it: its slot (30 minutes), when it was placed,
    /// packed and handed over (by `staff`), or cancelled; when the customer said "I'm here". Times are UTC; the store is Kingston's.
    static func order(
        _ app: TestApp, store: String, slot: String?, placed: String, packed: String? = nil, collected: String? = nil,
        cancelled: Bool = false, arrived: String? = nil, staff: Session
    ) async throws -> String {
        let id = try await app.placeOrder(store: store).1["id"].string!
        let status = cancelled ? "cancelled" : collected != nil ? "completed" : packed != nil ? "packaged" : "pending"
        try await sql(
            """
            UPDATE orders SET status = $2, created_at = $3::timestamptz,
                pickup_slot_start = nullif($4, '')::timestamptz, pickup_slot_end = nullif($4, '')::timestamptz + interval '30 minutes',
                packaged_at = nullif($5, '')::timestamptz,
                completed_at = nullif($6, '')::timestamptz, collected_at = nullif($6, '')::timestamptz,
                paid_at = nullif($6, '')::timestamptz, payment_status = CASE WHEN $6 = '' THEN 'unpaid' ELSE 'paid' END,
                collected_by = CASE WHEN $6 = '' THEN NULL ELSE $7::uuid END,
                cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3::timestamptz + interval '1 hour' END,
                arrived_at = nullif($8, '')::timestamptz
            WHERE id = $1
            """, [id, status, placed, slot ?? "", packed ?? "", collected ?? "", staff.userID, arrived ?? ""], on: app.database)
        return id
    }

    /// A JSON number as a Double (whole numbers arrive as integers); nil for null.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let whole): Double(whole)
        case .number(let fraction): fraction
        default: nil
        }
    }

    @Test("packed by the slot's start is on time; late, not yet due and cancelled apart; Kingston's days and hours; p50 and p90")
    func sharesAndPercentiles() async throws {
        // Noon in Kingston (UTC-5 all year) on the 3rd: the 16:00 slot that day is still to come.
        let clock = TestClock("2026-11-03T17:00:00Z")
        try await withApp(clock: clock) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.signIn(role: .manager, store: store)
            // The 1st, 10:00 in Kingston: one packed 30 minutes early, one 10 minutes late.
            _ = try await Self.order(
                app, store: store, slot: "2026-11-01T15:00:00Z", placed: "2026-11-01T13:00:00Z", packed: "2026-11-01T14:30:00Z",
                collected: "2026-11-01T15:20:00Z", staff: staff)
            _ = try await Self.order(
                app, store: store, slot: "2026-11-01T15:00:00Z", placed: "2026-11-01T12:00:00Z", packed: "2026-11-01T15:10:00Z",
                collected: "2026-11-01T16:10:00Z", staff: staff)
            // 23:30 on the 1st in Kingston (04:30Z on the 2nd), packed at the very start: on time.
            _ = try await Self.order(
                app, store: store, slot: "2026-11-02T04:30:00Z", placed: "2026-11-01T20:00:00Z", packed: "2026-11-02T04:30:00Z", staff: staff)
            // The 2nd, 15:00: never packed, its slot gone: late. 10:00 that day: cancelled.
            _ = try await Self.order(app, store: store, slot: "2026-11-02T20:00:00Z", placed: "2026-11-02T14:00:00Z", staff: staff)
            _ = try await Self.order(
                app, store: store, slot: "2026-11-02T15:00:00Z", placed: "2026-11-02T12:00:00Z", cancelled: true, staff: staff)
            // The 3rd, 16:00: not packed yet, still to come.
            _ = try await Self.order(app, store: store, slot: "2026-11-03T21:00:00Z", placed: "2026-11-03T15:00:00Z", staff: staff)
            // Left out: no slot; slots outside Kingston's 1st to 3rd (23:00 on 31 October, 01:00 on the 4th).
            _ = try await Self.order(app, store: store, slot: nil, placed: "2026-11-02T14:00:00Z", packed: "2026-11-02T19:00:00Z", staff: staff)
            _ = try await Self.order(
                app, store: store, slot: "2026-11-01T04:00:00Z", placed: "2026-10-31T20:00:00Z", packed: "2026-11-01T06:00:00Z", staff: staff)
            _ = try await Self.order(app, store: store, slot: "2026-11-04T06:00:00Z", placed: "2026-11-03T12:00:00Z", staff: staff)
            // The store's calendar, after checkout (with one, an order needs a slot: these are set above).
            try await sql(
                "INSERT INTO store_calendars (store_id, time_zone, capacity) VALUES ($1, 'America/Jamaica', 10)", [store], on: app.database)

            let reply = try await app.request(.get, "/v1/stores/\(store)/reports/on-time?from=2026-11-01&to=2026-11-03", token: manager.token)
            #expect(reply.status == .ok, "\(reply.text)")
            let report = reply.json
            #expect(report["timeZone"].string == "America/Jamaica")
            #expect(report["onTime"] == 2 && report["late"] == 2 && report["notYetDue"] == 1 && report["cancelled"] == 1)
            #expect(Self.number(report["onTimeShare"]) == 0.5)
            let days = report["days"].array
            #expect(days.map { $0["date"].string } == ["2026-11-01", "2026-11-02", "2026-11-03"])
            #expect(days.map { $0["onTime"].int } == [2, 0, 0])
            #expect(days.map { $0["late"].int } == [1, 1, 0])
            #expect(days.map { $0["cancelled"].int } == [0, 1, 0])
            #expect(days.map { $0["notYetDue"].int } == [0, 0, 1])
            #expect(abs((Self.number(days[0]["onTimeShare"]) ?? 0) - 2.0 / 3) < 1e-9)
            #expect(Self.number(days[1]["onTimeShare"]) == 0)
            #expect(days[2]["onTimeShare"] == .null, "nothing decided yet on the 3rd")
            let hours = report["hours"].array
            #expect(hours.count == 24)
            #expect(hours.filter { ($0["onTime"].int ?? 0) + ($0["late"].int ?? 0) > 0 }.map { $0["hour"].int } == [10, 15, 23])
            #expect(Self.number(hours[10]["onTimeShare"]) == 0.5)
            #expect(Self.number(hours[15]["onTimeShare"]) == 0)
            #expect(Self.number(hours[23]["onTimeShare"]) == 1)
            #expect(hours[16]["onTimeShare"] == .null)
            // Placed to packed: 90, 190 and 510 minutes; packed to handed over: 50 and 60.
            #expect(report["placedToReady"]["count"] == 3)
            #expect(Self.number(report["placedToReady"]["p50Minutes"]) == 190)
            #expect(Self.number(report["placedToReady"]["p90Minutes"]) == 446, "190 + 0.8 × (510 − 190)")
            #expect(report["readyToCollected"]["count"] == 2)
            #expect(Self.number(report["readyToCollected"]["p50Minutes"]) == 55)
            #expect(Self.number(report["readyToCollected"]["p90Minutes"]) == 59)

            let empty = try await app.request(.get, "/v1/stores/\(store)/reports/on-time?from=2026-10-01&to=2026-10-07", token: manager.token)
            #expect(empty.json["onTime"] == 0 && empty.json["onTimeShare"] == .null)
            #expect(empty.json["placedToReady"] == ["count": 0, "p50Minutes": .null, "p90Minutes": .null])
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
            let path = "/v1/stores/\(store)/reports/on-time"
            let recent = try await app.request(.get, path, token: admin.token)
            #expect(recent.status == .ok)
            #expect(recent.json["days"].array.count == 28, "the last four weeks by default")
            #expect(try await app.request(.get, path, token: manager.token).status == .ok)
            #expect(try await app.request(.get, path, token: staff.token).status == .forbidden)
            #expect(try await app.request(.get, path, token: otherManager.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(UUID())/reports/on-time", token: admin.token).status == .notFound)
            for (query, field) in [("from=2026-02-30", "from"), ("from=2026-11-05&to=2026-11-01", "from"), ("from=2025-01-01&to=2026-01-02", "to")] {
                let reply = try await app.request(.get, "\(path)?\(query)", token: manager.token)
                #expect(reply.status == .unprocessableContent, "\(query)")
                #expect(reply.json["error"]["details"]["field"].string == field, "\(query)")
            }
        }
    }

    @Test("a duration's percentiles: tenths of a minute, never below zero, none without orders")
    func percentiles() {
        #expect(MinutePercentiles(count: 2, minutes: [12.345, 40.06]) == MinutePercentiles(count: 2, p50: 12.3, p90: 40.1))
        #expect(MinutePercentiles(count: 1, minutes: [-3, -3]) == MinutePercentiles(count: 1, p50: 0, p90: 0))
        #expect(MinutePercentiles(count: 0, minutes: nil) == MinutePercentiles())
    }

    @Test("from a histogram of tenths, the percentiles are percentile_cont's over the same durations")
    func percentilesFromAHistogram() {
        // 90, 190 and 510 minutes: the median is the middle one, p90 interpolated 80% of the way.
        #expect(MinutePercentiles(histogram: [900: 1, 1900: 1, 5100: 1]) == MinutePercentiles(count: 3, p50: 190, p90: 446))
        // Two waits of 50 and 60 minutes: the median is their mean.
        #expect(MinutePercentiles(histogram: [500: 1, 600: 1]) == MinutePercentiles(count: 2, p50: 55, p90: 59))
        #expect(MinutePercentiles(histogram: [:]) == MinutePercentiles())
        #expect(MinutePercentiles(histogram: [-30: 4]) == MinutePercentiles(count: 4, p50: 0, p90: 0))
        // Many orders in few buckets, against the durations sorted one by one.
        var generator = SystemRandomNumberGenerator()
        let durations = (0..<2_000).map { _ in Int64.random(in: 0...900, using: &generator) }.sorted()
        let histogram = Dictionary(durations.map { ($0, Int64(1)) }, uniquingKeysWith: +)
        func exact(_ fraction: Double) -> Double {
            let position = fraction * Double(durations.count - 1)
            let low = Double(durations[Int(position.rounded(.down))])
            let high = Double(durations[Int(position.rounded(.up))])
            return (low + (position - position.rounded(.down)) * (high - low)) / 10
        }
        #expect(
            MinutePercentiles(histogram: histogram) == MinutePercentiles(count: durations.count, minutes: [exact(0.5), exact(0.9)]))
    }
}
