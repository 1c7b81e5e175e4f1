import Foundation
import Logging
import PostgresNIO

/// The SQL of a store's rota (issue 47: `store_rotas`, `store_rota_hours`) and pick estimate
/// (`store_pick_estimate`, learned by `learn_pick_estimate`).
package enum RotaQueries {
    /// The store's rota (the default one, `isSet` false, when it keeps none), the utilisation the
    /// database counts slots by, and its pick estimate.
    package static func rota(store: StoreID, on connection: some SQLRunner, logger: Logger) async throws -> RotaView {
        let rows = try await connection.run(
            """
            SELECT r.default_pickers, r.store_id IS NOT NULL AS is_set,
                   ARRAY(SELECT h.weekday FROM store_rota_hours h WHERE h.store_id = \(store.rawValue) ORDER BY h.weekday, h.hour) AS weekdays,
                   ARRAY(SELECT h.hour FROM store_rota_hours h WHERE h.store_id = \(store.rawValue) ORDER BY h.weekday, h.hour) AS hours,
                   ARRAY(SELECT h.pickers FROM store_rota_hours h WHERE h.store_id = \(store.rawValue) ORDER BY h.weekday, h.hour) AS pickers,
                   rota_utilisation_percent() AS utilisation, e.per_order_seconds, e.per_line_seconds, e.per_unit_seconds,
                   e.batches, e.learned_at
            FROM store_pick_estimate(\(store.rawValue)) e
            LEFT JOIN store_rotas r ON r.store_id = \(store.rawValue)
            """, logger: logger)
        for try await row in rows {
            let r = row.makeRandomAccess()
            func int(_ column: String) throws -> Int { Int(try r[column].decode(Int32.self)) }
            let weekdays = try r["weekdays"].decode([Int32].self)
            let hours = try r["hours"].decode([Int32].self)
            let pickers = try r["pickers"].decode([Int32].self)
            guard weekdays.count == hours.count, hours.count == pickers.count else {
                throw OrderError.unexpectedlyMissing("a rota's hours")
            }
            let rota = StoreRota(
                defaultPickers: try r["default_pickers"].decode(Int32?.self).map(Int.init) ?? StoreRota.defaultPickerCount,
                hours: weekdays.indices.map { StoreRota.Hour(weekday: Int(weekdays[$0]), hour: Int(hours[$0]), pickers: Int(pickers[$0])) })
            return RotaView(
                rota: rota, isSet: try r["is_set"].decode(Bool.self), utilisationPercent: try int("utilisation"),
                estimate: PickEstimate(
                    perOrderSeconds: try int("per_order_seconds"), perLineSeconds: try int("per_line_seconds"),
                    perUnitSeconds: try int("per_unit_seconds"), batches: try int("batches"),
                    learnedAt: try r["learned_at"].decode(Date?.self)))
        }
        throw OrderError.unexpectedlyMissing("the rota of store \(store)")
    }

    /// Whether the store exists and is in `scope` (a manager's own, or any for the chain's admin).
    package static func storeExists(_ store: StoreID, scope: StoreScope, on connection: some SQLRunner, logger: Logger) async throws -> Bool {
        let rows = try await connection.run(
            "SELECT 1 FROM stores WHERE id = \(store.rawValue) AND \(scope, column: "id")", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Replaces the store's rota (its default and every hour) and learns its pick estimate again
    /// from its recorded picks (`learn_pick_estimate`), in the caller's transaction.
    package static func replace(store: StoreID, with rota: StoreRota, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO store_rotas (store_id, default_pickers) VALUES (\(store.rawValue), \(Int32(clamping: rota.defaultPickers)))
            ON CONFLICT (store_id) DO UPDATE SET default_pickers = excluded.default_pickers, updated_at = now()
            """, logger: logger)
        try await connection.run("DELETE FROM store_rota_hours WHERE store_id = \(store.rawValue)", logger: logger)
        try await connection.run(
            """
            INSERT INTO store_rota_hours (store_id, weekday, hour, pickers)
            SELECT \(store.rawValue), u.weekday, u.hour, u.pickers
            FROM unnest(\(rota.hours.map { Int32(clamping: $0.weekday) })::int4[], \(rota.hours.map { Int32(clamping: $0.hour) })::int4[],
                        \(rota.hours.map { Int32(clamping: $0.pickers) })::int4[]) AS u(weekday, hour, pickers)
            """, logger: logger)
        try await connection.run("SELECT learn_pick_estimate(\(store.rawValue))", logger: logger)
    }
}
