import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: the first `make run` shows reports with something in them. The demo store gets four
/// weeks of past orders that hold together as real ones do: totals that are their lines, a
/// payment for each collected order, numbers in the order they were placed, on the store's clock.
@Suite("The demo's month of past orders")
struct DemoHistoryTests {
    @Test("four weeks of orders every day, whole and consistent; the report and the search find them")
    func history() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let manager = try await app.signIn(role: .manager, store: store)
            let staffEmail = try await sql("SELECT email FROM users WHERE store_id = $1 AND role = 'manager'", [store], on: app.database)[0][0]!
            let written = try await app.withDatabase {
                try await DemoHistory.insert(into: $0, store: StoreID(demo.storeID), staffEmail: staffEmail, logger: Logger(label: "test"))
            }
            #expect((DemoHistory.days * 6...DemoHistory.days * 23).contains(written), "\(written) orders")
            let broken = try await sql(
                """
                SELECT count(*) FROM orders o
                WHERE o.store_id = $1 AND (o.total_amount <> (SELECT sum(l.unit_price * l.quantity) FROM order_lines l WHERE l.order_id = o.id)
                   OR (o.status = 'completed') <> EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.amount = o.total_amount))
                """, [store], on: app.database)
            #expect(broken == [["0"]], "every total is its lines; every collected order was paid for exactly")
            let outOfOrder = try await sql(
                """
                SELECT count(*) FROM (SELECT number, lag(created_at) OVER (ORDER BY number) AS before, created_at FROM orders WHERE store_id = $1) o
                WHERE o.before > o.created_at
                """, [store], on: app.database)
            #expect(outOfOrder == [["0"]], "numbers follow the time orders were placed")
            // Each has its slot; a collected one was ready, then its customer came, then it was handed
            // over, never after now; some were ready late, so the on-time and desk reports have something to say.
            let timeline = try await sql(
                """
                SELECT count(*) FILTER (WHERE pickup_slot_start IS NULL OR pickup_slot_end <> pickup_slot_start + interval '1 hour'),
                       count(*) FILTER (WHERE status = 'completed' AND NOT (created_at < packaged_at AND packaged_at <= arrived_at
                                                                            AND arrived_at <= completed_at AND completed_at <= now())),
                       (count(*) FILTER (WHERE status = 'completed' AND packaged_at > pickup_slot_start) > 0)::text
                FROM orders WHERE store_id = $1
                """, [store], on: app.database)
            #expect(timeline == [["0", "0", "true"]])

            let yesterday = LocalDate(Date().addingTimeInterval(-86_400), in: TimeZone(identifier: "America/Jamaica")!)
            let first = yesterday.adding(days: -(DemoHistory.days - 1))
            let report = try await app.request(
                .get, "/v1/stores/\(store)/reports/sales?from=\(first)&to=\(yesterday)", token: manager.token)
            #expect(report.status == .ok)
            let days = report.json["days"].array
            #expect(days.count == DemoHistory.days)
            #expect(days.allSatisfy { ($0["orders"].int ?? 0) + ($0["cancelled"].int ?? 0) >= 6 }, "every day had orders")
            #expect((report.json["orders"].int ?? 0) + (report.json["cancelled"].int ?? 0) == written)
            let hours = report.json["hours"].array
            #expect(hours[0..<8].allSatisfy { $0["orders"].int == 0 } && hours[20..<24].allSatisfy { $0["orders"].int == 0 }, "opening hours only")

            let staff = try await app.signIn(role: .staff, store: store)
            let found = try await app.request(.get, "/v1/stores/\(store)/orders?q=brown&limit=100", token: staff.token)
            #expect(Set(found.json["items"].array.compactMap { $0["customerName"].string }) == ["Marcia Brown", "Desmond Browne"])
        }
    }
}
