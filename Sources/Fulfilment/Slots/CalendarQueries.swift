import Foundation
import Logging
import PostgresNIO

/// The SQL of a store's calendar: its settings row, opening ranges and closures.
enum CalendarQueries {
    /// The store's calendar, or nil when it has none (its orders take no slot).
    static func calendar(store: StoreID, on connection: some SQLRunner, logger: Logger) async throws -> StoreCalendar? {
        let rows = try await connection.run(
            """
            SELECT time_zone, slot_minutes, capacity, lead_minutes, horizon_days, grace_minutes
            FROM store_calendars WHERE store_id = \(store.rawValue)
            """, logger: logger)
        var found: StoreCalendar?
        for try await row in rows.decode((String, Int32, Int32, Int32, Int32, Int32).self) {
            // The zone was checked when written; a zone the system no longer knows reads as UTC rather than failing.
            found = StoreCalendar(
                timeZone: TimeZone(identifier: row.0) ?? TimeZone(identifier: "UTC")!, hours: [], closures: [],
                slotMinutes: Int(row.1), capacity: Int(row.2), leadMinutes: Int(row.3), horizonDays: Int(row.4), graceMinutes: Int(row.5))
        }
        guard var calendar = found else { return nil }
        let hours = try await connection.run(
            """
            SELECT weekday, opens_minute, closes_minute FROM store_opening_hours
            WHERE store_id = \(store.rawValue) ORDER BY weekday, opens_minute
            """, logger: logger)
        for try await (weekday, opens, closes) in hours.decode((Int32, Int32, Int32).self) {
            calendar.hours.append(.init(weekday: Int(weekday), opens: Int(opens), closes: Int(closes)))
        }
        let closures = try await connection.run(
            """
            SELECT (date - DATE '1970-01-01')::int4, reason FROM store_closures
            WHERE store_id = \(store.rawValue) ORDER BY date
            """, logger: logger)
        for try await (day, reason) in closures.decode((Int32, String).self) {
            calendar.closures.append(.init(date: LocalDate(day: Int(day)), reason: reason))
        }
        return calendar
    }

    /// Replaces the store's calendar (settings, ranges and closures) in one transaction.
    static func replace(store: StoreID, with calendar: StoreCalendar, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO store_calendars (store_id, time_zone, slot_minutes, capacity, lead_minutes, horizon_days, grace_minutes)
            VALUES (\(store.rawValue), \(calendar.timeZone.identifier), \(calendar.slotMinutes), \(calendar.capacity),
                    \(calendar.leadMinutes), \(calendar.horizonDays), \(calendar.graceMinutes))
            ON CONFLICT (store_id) DO UPDATE SET
                time_zone = excluded.time_zone, slot_minutes = excluded.slot_minutes, capacity = excluded.capacity,
                lead_minutes = excluded.lead_minutes, horizon_days = excluded.horizon_days,
                grace_minutes = excluded.grace_minutes, updated_at = now()
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
    static func storeExists(_ store: StoreID, on connection: some SQLRunner, logger: Logger) async throws -> Bool {
        let rows = try await connection.run("SELECT 1 FROM stores WHERE id = \(store.rawValue)", logger: logger)
        for try await _ in rows { return true }
        return false
    }
}
