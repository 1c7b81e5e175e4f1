import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 43: the uncollected-order deadline (a slot's end plus the store's grace period; without
/// a slot, the token's issue plus the store's collection window) is signed into the pickup token
/// before any statement writes it, so it has two authors: `StoreCalendar.collectionDeadline(for:)`
/// for the service and `collection_deadline` (`sql/routines/collection_deadline.sql`) for the
/// database. These tests ask both for the same slots and fail when either changes alone; then
/// they hold every issuer of a token (checkout, moving an order, a receipt re-issued at the desk)
/// to the same answer, and the expiry sweep to the token's.
@Suite("The collection deadline: StoreCalendar and collection_deadline agree")
struct CollectionDeadlineAgreementTests {
    /// Zones with and without daylight saving, north and south, whole and half and quarter hours.
    static let zones = [
        "UTC", "Europe/London", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham",
    ]
    /// Ordinary days and the days the clocks change in those zones (2027).
    static let dates = [
        "2027-01-15", "2027-03-14", "2027-03-27", "2027-03-28", "2027-04-03", "2027-04-04", "2027-06-21", "2027-09-26",
        "2027-10-03", "2027-10-31", "2027-11-07", "2027-12-31",
    ]
    static let graces = [0, 1, 90, 1440, 20_160]

    static func calendar(zone: TimeZone, graceMinutes: Int) -> StoreCalendar {
        StoreCalendar(
            timeZone: zone, hours: (1...7).map { StoreCalendar.Range(weekday: $0, opens: 0, closes: 0) }, closures: [], slotMinutes: 30,
            capacity: 1, graceMinutes: graceMinutes)
    }

    static func seconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970.rounded(.down))) }

    @Test("every slot of open-all-day calendars in seven zones, on the days the clocks change and others, for five grace periods")
    func everySlot() async throws {
        try await withTestDatabase { db in
            var compared = 0
            for name in Self.zones {
                let zone = try #require(TimeZone(identifier: name))
                var ends: [String] = []
                var graces: [String] = []
                var expected: [String] = []
                for grace in Self.graces {
                    let calendar = Self.calendar(zone: zone, graceMinutes: grace)
                    for date in Self.dates {
                        for slot in calendar.slots(openingOn: try #require(LocalDate(date))) {
                            ends.append(Self.seconds(slot.end))
                            graces.append(String(grace))
                            expected.append(Self.seconds(calendar.collectionDeadline(for: slot)))
                        }
                    }
                }
                // In the store's own zone, so a rule that counted local days or hours would show.
                let answers = try await Migrator.offloaded { [ends, graces] in
                    let connection = try LibPQConnection(db)
                    try connection.execute("SET TimeZone = '\(name)'")
                    return try connection.execute(
                        """
                        SELECT extract(epoch FROM collection_deadline(to_timestamp(x.e), x.g, interval '7 days'))::int8::text
                        FROM unnest($1::int8[], $2::int[]) WITH ORDINALITY AS x(e, g, n) ORDER BY x.n
                        """, parameters: ["{" + ends.joined(separator: ",") + "}", "{" + graces.joined(separator: ",") + "}"])
                }
                let sqlSide = answers.map { $0[0] ?? "NULL" }
                let differing = zip(zip(ends, graces), zip(expected, sqlSide)).filter { $1.0 != $1.1 }
                #expect(differing.isEmpty, "\(name): \(differing.count) of \(ends.count) differ, first \(String(describing: differing.first))")
                #expect(sqlSide.count == expected.count)
                compared += expected.count
            }
            #expect(compared > 10_000)

            // Without a slot (or a store without a calendar): the moment of issue plus the window.
            let window = try await sql(
                """
                SELECT collection_deadline(NULL, NULL, interval '7 days', '2027-03-26T10:00:00Z') = '2027-04-02T10:00:00Z',
                       collection_deadline('2027-03-26T12:00:00Z', NULL, interval '7 days', '2027-03-26T10:00:00Z')
                           = '2027-04-02T10:00:00Z'
                """, on: db)
            #expect(window == [["t", "t"]])
        }
    }

    static let friday = "2027-03-26T10:00:00Z"

    @Test("checkout, moving the order, and a receipt re-issued at the desk each give the token the deadline both sides state")
    func everyIssuer() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let grace = 45
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(zone: "America/New_York", grace: grace))
            let calendar = Self.calendar(zone: try #require(TimeZone(identifier: "America/New_York")), graceMinutes: grace)
            let staff = try await app.signIn(role: .staff, store: store)
            let starts = try await app.pickupSlots(store: store, from: "2027-03-29", days: 1).json["items"].array.compactMap { $0["start"].string }
            #expect(starts.count == 16)

            func deadline(_ reply: TestReply) throws -> (swift: String, token: String?) {
                let start = try Date(try #require(reply.json["pickupSlot"]["start"].string), strategy: .iso8601)
                let end = try Date(try #require(reply.json["pickupSlot"]["end"].string), strategy: .iso8601)
                let swift = calendar.collectionDeadline(for: PickupSlot(start: start, end: end))
                return (swift.formatted(.iso8601), reply.json["tokenExpiresAt"].string)
            }
            func sqlDeadline(_ order: String) async throws -> String? {
                try await sql(
                    """
                    SELECT to_char(collection_deadline(o.pickup_slot_end, c.grace_minutes, s.collection_window) AT TIME ZONE 'UTC',
                                   'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                    FROM orders o JOIN stores s ON s.id = o.store_id JOIN store_calendars c ON c.store_id = o.store_id
                    WHERE o.id = $1
                    """, [order], on: app.database
                ).first?[0]
            }

            let (customer, _) = try await app.shopper(at: store)
            let placed = try await app.checkout(customer, slot: starts[0])
            #expect(placed.status == .created)
            let id = try #require(placed.json["id"].string)
            let atCheckout = try deadline(placed)
            #expect(atCheckout.token == atCheckout.swift, "checkout")
            #expect(try await sqlDeadline(id) == atCheckout.swift, "checkout: the SQL side")

            let moved = try await app.moveSlot(id, to: starts[9], by: customer)
            #expect(moved.status == .ok)
            let afterMove = try deadline(moved)
            #expect(afterMove.token == afterMove.swift, "moving the order")
            #expect(try await sqlDeadline(id) == afterMove.swift, "moving: the SQL side")

            // The desk's re-issue states the deadline in its own SQL: one second later than the
            // token it replaces, as equal claims would sign to the very same text.
            let reissued = try await app.request(.post, "/v1/orders/\(id)/receipt/reissue", json: ["reason": "phone is flat"], token: staff.token)
            #expect(reissued.status == .created)
            let swiftDeadline = try Date(afterMove.swift, strategy: .iso8601)
            #expect(reissued.json["tokenExpiresAt"].string == swiftDeadline.addingTimeInterval(1).formatted(.iso8601), "re-issue")

            // The sweep asks the token: not a second before its expiry, then at it.
            let expiry = swiftDeadline.addingTimeInterval(1)
            let logger = Logger(label: "deadline-test")
            let early = try await app.withDatabase {
                try await OrderExpiry(database: $0).candidates(expiredBy: expiry.addingTimeInterval(-1), logger: logger)
            }
            #expect(!early.contains { $0.id.description == id })
            let due = try await app.withDatabase { try await OrderExpiry(database: $0).candidates(expiredBy: expiry, logger: logger) }
            #expect(due.contains { $0.id.description == id })
        }
    }

    @Test("without a calendar, checkout's token expires at the moment of issue plus the store's collection window")
    func withoutSlot() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let before = Date().addingTimeInterval(-1)
            let (_, order, _) = try await app.placeOrder(store: store)
            let after = Date().addingTimeInterval(1)
            let bounds = try await sql(
                """
                SELECT extract(epoch FROM collection_deadline(NULL, NULL, collection_window, to_timestamp($2)))::int8::text,
                       extract(epoch FROM collection_deadline(NULL, NULL, collection_window, to_timestamp($3)))::int8::text
                FROM stores WHERE id = $1
                """, [store, Self.seconds(before), Self.seconds(after)], on: app.database)
            let lower = try #require(bounds.first?[0].flatMap { Int64($0) })
            let upper = try #require(bounds.first?[1].flatMap { Int64($0) })
            let expiry = try Date(try #require(order["tokenExpiresAt"].string), strategy: .iso8601)
            #expect((lower...upper).contains(Int64(expiry.timeIntervalSince1970)))
        }
    }
}
