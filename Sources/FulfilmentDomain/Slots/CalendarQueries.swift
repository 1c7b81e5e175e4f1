import Foundation
import Logging
import PostgresNIO

/// The SQL of a store's calendar: its settings row, opening ranges and closures.
package enum CalendarQueries {
    /// The store's calendar, or nil when it has none (its orders take no slot), with its ready
    /// lead (issue 47), which only the calendar's own readers need (checkout's does not).
    package static func calendar(store: StoreID, on connection: some SQLRunner, logger: Logger) async throws -> StoreCalendar? {
        let rows = try await connection.run(
            """
            SELECT k.*, c.ready_lead_minutes
            FROM store_calendar(\(store.rawValue)) k JOIN store_calendars c ON c.store_id = \(store.rawValue)
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            var calendar = try calendar(in: r, from: 0)
            calendar?.readyLeadMinutes = Int(try r["ready_lead_minutes"].decode(Int32.self))
            return calendar
        }
        return nil
    }

    /// The calendar in the 11 columns of `store_calendar` (`sql/routines/store_calendar.sql`: its settings, then its
    /// opening ranges and closures as arrays) starting at column `first`; nil when the store has
    /// none. Checkout's context reads the same columns in its one statement.
    package static func calendar(in row: PostgresRandomAccessRow, from first: Int) throws -> StoreCalendar? {
        guard let zone = try row[first].decode(String?.self) else { return nil }
        func int(_ offset: Int) throws -> Int { Int(try row[first + offset].decode(Int32.self)) }
        func ints(_ offset: Int) throws -> [Int] { try row[first + offset].decode([Int32].self).map(Int.init) }
        let (weekdays, opens, closes, days) = (try ints(6), try ints(7), try ints(8), try ints(9))
        let reasons = try row[first + 10].decode([String].self)
        // The zone was checked when written; a zone the system no longer knows reads as UTC rather than failing.
        return StoreCalendar(
            timeZone: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!,
            hours: weekdays.indices.map { .init(weekday: weekdays[$0], opens: opens[$0], closes: closes[$0]) },
            closures: zip(days, reasons).map { .init(date: LocalDate(day: $0), reason: $1) },
            slotMinutes: try int(1), capacity: try int(2), leadMinutes: try int(3), horizonDays: try int(4), graceMinutes: try int(5))
    }

    /// Replaces the store's calendar (settings, ranges and closures) in one transaction.
    package static func replace(store: StoreID, with calendar: StoreCalendar, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO store_calendars (store_id, time_zone, slot_minutes, capacity, lead_minutes, horizon_days, grace_minutes,
                                         ready_lead_minutes)
            VALUES (\(store.rawValue), \(calendar.timeZone.identifier), \(calendar.slotMinutes), \(calendar.capacity),
                    \(calendar.leadMinutes), \(calendar.horizonDays), \(calendar.graceMinutes), \(calendar.readyLeadMinutes))
            ON CONFLICT (store_id) DO UPDATE SET
                time_zone = excluded.time_zone, slot_minutes = excluded.slot_minutes, capacity = excluded.capacity,
                lead_minutes = excluded.lead_minutes, horizon_days = excluded.horizon_days,
                grace_minutes = excluded.grace_minutes, ready_lead_minutes = excluded.ready_lead_minutes, updated_at = now()
            """, logger: logger)
        try await connection.run("DELETE FROM store_opening_hours WHERE store_id = \(store.rawValue)", logger: logger)
        try await connection.run(
            """
            INSERT INTO store_opening_hours (store_id, weekday, opens_minute, closes_minute)
            SELECT \(store.rawValue), u.weekday, u.opens, u.closes
            FROM unnest(\(calendar.hours.map { Int32($0.weekday) })::int4[], \(calendar.hours.map { Int32($0.opens) })::int4[],
                        \(calendar.hours.map { Int32($0.closes) })::int4[]) AS u(weekday, opens, closes)
            """, logger: logger)
        try await connection.run("DELETE FROM store_closures WHERE store_id = \(store.rawValue)", logger: logger)
        try await connection.run(
            """
            INSERT INTO store_closures (store_id, date, reason)
            SELECT \(store.rawValue), DATE '1970-01-01' + u.day, u.reason
            FROM unnest(\(calendar.closures.map { Int32($0.date.day) })::int4[], \(calendar.closures.map(\.reason))::text[]) AS u(day, reason)
            """, logger: logger)
    }

    /// Whether the store exists (a calendar of a store that does not is 404).
    package static func storeExists(_ store: StoreID, on connection: some SQLRunner, logger: Logger) async throws -> Bool {
        let rows = try await connection.run("SELECT 1 FROM stores WHERE id = \(store.rawValue)", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Whether the store exists and is the caller's (`scope`): another store's is not found.
    package static func storeExists(_ store: StoreID, scope: StoreScope, on connection: some SQLRunner, logger: Logger) async throws -> Bool {
        let rows = try await connection.run("SELECT 1 FROM stores WHERE id = \(store.rawValue) AND id = \(scope)", logger: logger)
        for try await _ in rows { return true }
        return false
    }
}
